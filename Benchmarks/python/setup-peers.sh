#!/usr/bin/env bash
# Makes the Python environment of `ibtrader-bench backtest-vs-peers` (idempotent; quick when already done): a venv
# under Benchmarks/.build with backtrader and what shared/peers' bench.py and gen_data.py import, pinned to the
# versions of shared/peers/requirements.lock.txt (the environment of its RESULTS.md). Prints the venv's python
# path as its last line.
set -euo pipefail
exec "$(dirname "$0")/pinned-venv.sh" \
    .build/peers-venv backtrader==1.9.78.123 numpy==2.4.6 pandas==2.3.3 \
    python-dateutil==4.0.0 pytz==2026.6 tzdata==2026.6
