#!/usr/bin/env bash
# pinned-venv.sh VENV PIN...: makes (or keeps) a venv at VENV, relative to Benchmarks/, holding exactly the pinned
# packages (name==version); installs only when one differs, so a second call is quick. Prints the venv's python path
# as its last line. The benchmarks' setup-*.sh scripts call it with their pins.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="$1"
shift
if [[ ! -x "$VENV/bin/python" ]]; then
    mkdir -p "$(dirname "$VENV")"
    python3 -m venv "$VENV"
fi
if ! "$VENV/bin/python" -c '
import importlib.metadata as m, sys
pins = [p.split("==") for p in sys.argv[1:]]
sys.exit(0 if all(m.version(name) == version for name, version in pins) else 1)' "$@" 2>/dev/null; then
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "$@"
fi
echo "$(pwd)/$VENV/bin/python"
