#!/usr/bin/env bash
# Start the course: install minigrad with the notebook extras, make sure Graphviz is there,
# and open JupyterLab. Run from anywhere; JupyterLab opens in the repository.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v dot >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    apt-get update -qq && apt-get install -y -qq graphviz >/dev/null
  elif command -v apt-get >/dev/null 2>&1 && command -v sudo >/dev/null 2>&1; then
    sudo apt-get update -qq && sudo apt-get install -y -qq graphviz >/dev/null
  elif command -v brew >/dev/null 2>&1; then
    brew install graphviz
  else
    echo "minigrad draws graphs with Graphviz, which is not installed. Install it with one of:" >&2
    echo "  conda install -c conda-forge graphviz   |   sudo apt-get install graphviz   |   brew install graphviz" >&2
    echo "Continuing: everything else works, drawings will explain what is missing." >&2
  fi
fi

python -m pip install -q -e ".[notebook]"
target=.
[ -d course ] && target=course
exec python -m jupyter lab "$target" "$@"
