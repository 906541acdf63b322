#!/usr/bin/env bash
# Run the whole test suite from a fresh clone: installs what the tests need, then lint + pytest.
set -euo pipefail
cd "$(dirname "$0")/.."

# Graphviz binaries (the `dot` program) for the drawing tests.
if ! command -v dot >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    apt-get update -qq && apt-get install -y -qq graphviz >/dev/null
  elif command -v apt-get >/dev/null 2>&1 && command -v sudo >/dev/null 2>&1; then
    sudo apt-get update -qq && sudo apt-get install -y -qq graphviz >/dev/null
  elif command -v brew >/dev/null 2>&1; then
    brew install graphviz
  else
    echo "Please install Graphviz (conda install graphviz, apt-get install graphviz or brew install graphviz)" >&2
    exit 1
  fi
fi

python -m pip install -q -e ".[test,notebook]"
# PyTorch (CPU) is the oracle of the differential tests; it is a test-only dependency.
python -c "import torch" 2>/dev/null || python -m pip install -q "torch==2.13.0"

ruff check .
ruff format --check .
python -m pytest "$@"
