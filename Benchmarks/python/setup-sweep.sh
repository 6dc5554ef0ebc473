#!/usr/bin/env bash
# Makes the Python environment of `ibtrader-bench sweep` (idempotent; quick when already done): a venv under
# Benchmarks/.build with vectorbt and pyarrow, pinned to the versions of shared/peers/requirements.lock.txt (vectorbt
# 1.0.0 needs plotly below 6) and of scripts/setup-python.sh (pyarrow). Prints the venv's python path as its last line.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=".build/sweep-venv"
PINS=(vectorbt==1.0.0 plotly==5.24.1 numba==0.68.1 llvmlite==0.50.0 numpy==2.4.6 pandas==2.3.3 pyarrow==26.0.1)
if [[ ! -x "$VENV/bin/python" ]]; then
    mkdir -p .build
    python3 -m venv "$VENV"
fi
if ! "$VENV/bin/python" -c '
import importlib.metadata as m, sys
pins = [p.split("==") for p in sys.argv[1:]]
sys.exit(0 if all(m.version(name) == version for name, version in pins) else 1)' "${PINS[@]}" 2>/dev/null; then
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "${PINS[@]}"
fi
echo "$(pwd)/$VENV/bin/python"
