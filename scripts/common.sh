# Shared by scripts/start.sh and scripts/test.sh (sourced, not run): which Python to install
# into, and the system programs the course and its tests need (Graphviz, Chromium).
# With DRY_RUN=1 every step that would change the machine is printed ("+ command") instead.

DRY_RUN=${DRY_RUN:-0}
APT_UPDATED=0

say() { printf '%s\n' "$*" >&2; }

run() {
  if [ "$DRY_RUN" = 1 ]; then
    printf '+ %s\n' "$*"
  else
    "$@"
  fi
}

# Root commands: directly as root, else through sudo (which may ask for a password).
can_be_root() { [ "$(id -u)" = 0 ] || command -v sudo >/dev/null 2>&1; }
as_root() {
  if [ "$(id -u)" = 0 ]; then run "$@"; else run sudo "$@"; fi
}

# system_install APT_PACKAGE DNF_PACKAGE BREW_ARGS: the system's package manager, when it can.
system_install() {
  if command -v apt-get >/dev/null 2>&1 && can_be_root; then
    if [ "$APT_UPDATED" = 0 ]; then
      as_root apt-get update -qq || return 1
      APT_UPDATED=1
    fi
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$1"
  elif command -v dnf >/dev/null 2>&1 && can_be_root; then
    as_root dnf install -y -q "$2"
  elif command -v brew >/dev/null 2>&1; then
    # shellcheck disable=SC2086  # BREW_ARGS may be "--cask name"
    run brew install $3
  else
    return 1
  fi
}

python_ok() { "$1" -c 'import sys; sys.exit(sys.version_info < (3, 10))' >/dev/null 2>&1; }

# PEP 668: a Python the operating system manages (Debian, Ubuntu, Homebrew) refuses pip install.
externally_managed() {
  "$1" - <<'EOF' >/dev/null 2>&1
import os, sys, sysconfig
marker = os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED")
sys.exit(0 if sys.prefix == sys.base_prefix and os.path.exists(marker) else 1)
EOF
}

# Sets PY to the Python to install into and run with, in this order: $MINIGRAD_PYTHON; the
# .venv an earlier run made; the python3 (or python) on PATH, which may be an activated venv or
# conda environment; a new .venv when that Python is managed by the operating system.
pick_python() {
  if [ -n "${MINIGRAD_PYTHON:-}" ]; then
    PY=$MINIGRAD_PYTHON
  elif [ -x .venv/bin/python ]; then
    PY="$PWD/.venv/bin/python"
  else
    local base=""
    for candidate in python3 python; do
      if command -v "$candidate" >/dev/null 2>&1 && python_ok "$candidate"; then
        base=$(command -v "$candidate")
        break
      fi
    done
    if [ -z "$base" ]; then
      say "minigrad needs Python 3.10 or newer, and none was found on PATH."
      say "Install one (https://www.python.org/downloads/, or: sudo apt-get install python3 python3-venv,"
      say "or: brew install python), or use conda: conda env create -f environment.yml"
      exit 1
    fi
    if externally_managed "$base"; then
      make_venv "$base"
      PY="$PWD/.venv/bin/python"
    else
      # The interpreter itself, not a launcher (pyenv shim, py.exe): its folder has jupyter & co.
      PY=$("$base" -c 'import sys; print(sys.executable)')
    fi
  fi
  if ! python_ok "$PY" && [ "$DRY_RUN" != 1 ]; then
    say "$PY is not a Python 3.10 or newer."
    exit 1
  fi
}

make_venv() {
  say "$1 is managed by the operating system: installing into a virtual environment, .venv"
  if run "$1" -m venv .venv; then return 0; fi
  # Debian and Ubuntu ship venv's pip separately, as python3-venv (or python3.X-venv).
  local version
  version=$("$1" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')
  rm -rf .venv
  if command -v apt-get >/dev/null 2>&1 && can_be_root &&
    { system_install "python$version-venv" "" "" || system_install python3-venv "" ""; }; then
    run "$1" -m venv .venv && return 0
  fi
  say "Could not make a virtual environment. Install venv, then run this script again:"
  say "    sudo apt-get install python3-venv     (Debian, Ubuntu)"
  exit 1
}

# The Graphviz programs (dot) that minigrad.viz runs.
ensure_graphviz() {
  command -v dot >/dev/null 2>&1 && return 0
  say "Installing the Graphviz programs (the dot command) ..."
  if [ -n "${CONDA_PREFIX:-}" ] && command -v conda >/dev/null 2>&1; then
    run conda install -y -q -c conda-forge graphviz && return 0
  fi
  system_install graphviz graphviz graphviz && return 0
  say "The Graphviz programs are not installed and this script cannot install them here. Run one of:"
  say "    sudo apt-get install graphviz      (Debian, Ubuntu)"
  say "    sudo dnf install graphviz          (Fedora)"
  say "    brew install graphviz              (macOS)"
  say "    conda install -c conda-forge graphviz"
  return 1
}

# Chromium (or Chrome) for tests/test_browser.py, which drives it with Playwright. Prints its path.
find_chromium() {
  local name
  for name in "${MINIGRAD_CHROMIUM:-}" chromium chromium-browser google-chrome google-chrome-stable; do
    [ -n "$name" ] || continue
    if command -v "$name" >/dev/null 2>&1; then
      command -v "$name"
      return 0
    fi
  done
  for name in "/Applications/Chromium.app/Contents/MacOS/Chromium" \
    "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"; do
    if [ -x "$name" ]; then
      echo "$name"
      return 0
    fi
  done
  return 1
}

ensure_chromium() {
  find_chromium >/dev/null && return 0
  say "Installing Chromium for the browser test ..."
  if system_install chromium chromium "--cask chromium"; then
    if [ "$DRY_RUN" = 1 ] || find_chromium >/dev/null; then return 0; fi
  fi
  say "Chromium is not installed and this script cannot install it here. The browser test"
  say "(tests/test_browser.py) fails without it when CI is set, and is skipped otherwise. Install it with"
  say "    sudo apt-get install chromium      (Debian)      sudo dnf install chromium   (Fedora)"
  say "    brew install --cask chromium       (macOS)"
  say "or point MINIGRAD_CHROMIUM at a Chrome or Chromium program."
  return 1
}
