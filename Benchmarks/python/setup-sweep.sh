#!/usr/bin/env bash
# Makes the Python environment of `ibtrader-bench sweep` (idempotent; quick when already done): a venv under
# Benchmarks/.build with vectorbt and pyarrow, pinned to the versions of shared/peers/requirements.lock.txt (vectorbt
# 1.0.0 needs plotly below 6) and of scripts/setup-python.sh (pyarrow). Prints the venv's python path as its last line.
set -euo pipefail
exec "$(dirname "$0")/pinned-venv.sh" \
    .build/sweep-venv vectorbt==1.0.0 plotly==5.24.1 numba==0.68.1 \
    llvmlite==0.50.0 numpy==2.4.6 pandas==2.3.3 pyarrow==26.0.1
