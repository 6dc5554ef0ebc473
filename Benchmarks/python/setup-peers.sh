#!/usr/bin/env bash
# Makes the Python environment of `ibtrader-bench backtest-vs-peers` (idempotent; quick when already done): a venv
# under Benchmarks/.build with backtrader and what shared/peers' bench.py and gen_data.py import, pinned to the
# versions of shared/peers/requirements.lock.txt (the environment of its RESULTS.md). Prints the venv's python
# path as its last line.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=".build/peers-venv"
PINS=(backtrader==1.9.78.123 numpy==2.4.6 pandas==2.3.3 python-dateutil==4.0.0 pytz==2026.6 tzdata==2026.6)
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
