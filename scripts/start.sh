#!/usr/bin/env bash
# Start the minigrad course: install what it needs, then open JupyterLab.
# Run `bash scripts/start.sh --help` for the options.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  cat <<'EOF'
Usage: bash scripts/start.sh [--instructor] [--conda] [--gpu] [--no-install] [--dry-run] [JUPYTERLAB OPTIONS]

Installs minigrad with the course's packages, then opens JupyterLab.

  (default)      student: hides nbgrader's instructor tools (formgrader, Create Assignment,
                 course list) and opens JupyterLab on the course notebooks, course/
  --instructor   keeps every nbgrader tool and opens JupyterLab in the repository root,
                 where the formgrader finds nbgrader_config.py
  --conda        creates (or updates) the conda environment of environment.yml and runs in it;
                 without it, pip installs into the python3 on PATH (an activated venv or
                 conda environment included), or into a new .venv when that Python is
                 managed by the operating system
  --gpu          adds CuPy for an NVIDIA GPU (environment-gpu.yml with --conda, else the
                 pip extra minigrad[gpu])
  --no-install   installs nothing, only switches the mode and starts JupyterLab
  --dry-run      prints each step instead of doing it
  -h, --help     shows this help

Any other option goes to JupyterLab (e.g. --port 8890 --no-browser).
The Graphviz programs are installed with apt-get, dnf or brew when `dot` is missing.
Switch modes without starting JupyterLab: python -m coursetools.mode student|instructor|status
EOF
}

MODE=student
INSTALL=1
CONDA=0
GPU=0
DRY_RUN=0
# ${LAB_ARGS[@]+"${LAB_ARGS[@]}"} below: bash 3.2 (macOS) calls an empty array unbound under set -u.
LAB_ARGS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --instructor) MODE=instructor ;;
    --student) MODE=student ;;
    --conda) CONDA=1 ;;
    --gpu) GPU=1 ;;
    --no-install) INSTALL=0 ;;
    --dry-run) DRY_RUN=1 ;;
    -h | --help)
      usage
      exit 0
      ;;
    --)
      shift
      LAB_ARGS+=("$@")
      break
      ;;
    *) LAB_ARGS+=("$1") ;;
  esac
  shift
done

# shellcheck source=scripts/common.sh
source scripts/common.sh

PIP_INSTALL=$INSTALL
if [ "$CONDA" = 1 ]; then
  if ! command -v conda >/dev/null 2>&1; then
    say "conda was not found. Install Miniforge (https://conda-forge.org/download/), or run this script"
    say "without --conda to install with pip."
    exit 1
  fi
  ENV_FILE=environment.yml
  [ "$GPU" = 1 ] && ENV_FILE=environment-gpu.yml
  ENV_NAME=$(awk '/^name:/ {print $2}' "$ENV_FILE")
  if [ "$INSTALL" = 1 ]; then
    if conda env list | awk '{print $1}' | grep -qx "$ENV_NAME"; then
      run conda env update -q -n "$ENV_NAME" -f "$ENV_FILE"
    else
      run conda env create -q -f "$ENV_FILE"
    fi
  fi
  if [ "$DRY_RUN" = 1 ] && ! conda env list | awk '{print $1}' | grep -qx "$ENV_NAME"; then
    PY="<python of the conda environment $ENV_NAME>"
  else
    PY=$(conda run -n "$ENV_NAME" python -c 'import sys; print(sys.executable)')
  fi
  PIP_INSTALL=0 # the environment file installs minigrad itself (pip: --editable .)
else
  pick_python
fi
say "Python: $PY"
# The environment's programs first: jupyter, and alembic, which nbgrader runs to make its database.
PATH="$(dirname "$PY"):$PATH"
export PATH

if [ "$INSTALL" = 1 ]; then
  ensure_graphviz || say "Continuing without Graphviz: the drawings will say what to install."
fi
if [ "$PIP_INSTALL" = 1 ]; then
  EXTRAS=notebook
  [ "$GPU" = 1 ] && EXTRAS=notebook,gpu
  run "$PY" -m pip install -q -e ".[$EXTRAS]"
fi

run "$PY" -m coursetools.mode "$MODE"

if [ "$MODE" = student ]; then
  ROOT=course
  [ -d course ] || ROOT=.
else
  ROOT=. # the formgrader reads ./nbgrader_config.py: JupyterLab must start here
fi
if [ "$(id -u)" = 0 ]; then
  LAB_ARGS=(--allow-root ${LAB_ARGS[@]+"${LAB_ARGS[@]}"}) # containers often run as root; Jupyter refuses without it
fi
say "Starting JupyterLab ($MODE mode) on $ROOT; stop it with Ctrl+C."
if [ "$DRY_RUN" = 1 ]; then
  run "$PY" -m jupyterlab --ServerApp.root_dir="$ROOT" ${LAB_ARGS[@]+"${LAB_ARGS[@]}"}
else
  exec "$PY" -m jupyterlab --ServerApp.root_dir="$ROOT" ${LAB_ARGS[@]+"${LAB_ARGS[@]}"}
fi
