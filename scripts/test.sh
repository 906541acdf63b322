#!/usr/bin/env bash
# Run the whole test suite from a fresh clone: installs what the tests need, then lint + pytest.
# Arguments go to pytest (bash scripts/test.sh -q -k readme). DRY_RUN=1 prints the steps only.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/common.sh
source scripts/common.sh

# The same Python as scripts/start.sh: MINIGRAD_PYTHON, .venv, or the python3 on PATH.
pick_python
say "Python: $PY"
PATH="$(dirname "$PY"):$PATH"
export PATH

# Graphviz (dot) for the drawing tests; Chromium for the browser test (which says what is
# missing when it cannot run: a failure under CI, a skip elsewhere).
ensure_graphviz || exit 1
ensure_chromium || true

# The test extra has Playwright's Python package; its own browser download is not used.
run "$PY" -m pip install -q -e ".[test,notebook]"
# PyTorch (CPU) is the oracle of the differential tests; it is a test-only dependency.
if ! "$PY" -c "import torch" >/dev/null 2>&1; then
  run "$PY" -m pip install -q "torch==2.13.0"
fi

run "$PY" -m ruff check .
run "$PY" -m ruff format --check .
run "$PY" -m pytest "$@"
