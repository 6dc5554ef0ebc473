#!/usr/bin/env bash
# Creates .venv with the pinned ib_async used by the gateway simulator's interop test, the Prometheus client whose
# parser checks the dashboard's /metrics, and aiosmtpd, the local SMTP server of the e-mail alert test (idempotent;
# quick when already done). Prints the venv's python path as its last line.
set -euo pipefail
cd "$(dirname "$0")/.."
PIN="ib_async==2.1.0"
VENV=".venv"
if [[ ! -x "$VENV/bin/python" ]]; then
    python3 -m venv "$VENV"
fi
if ! "$VENV/bin/python" -c 'import importlib.metadata as m, sys; sys.exit(0 if m.version("ib_async") == "2.1.0" else 1)' \
    2>/dev/null; then
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "$PIN"
fi
if ! "$VENV/bin/python" -c 'import importlib.metadata as m, sys; sys.exit(0 if m.version("prometheus_client") == "0.21.1" else 1)' \
    2>/dev/null; then
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "prometheus_client==0.21.1"
fi
if ! "$VENV/bin/python" -c 'import importlib.metadata as m, sys; sys.exit(0 if m.version("aiosmtpd") == "1.4.6" else 1)' \
    2>/dev/null; then
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "aiosmtpd==1.4.6"
fi
echo "$(pwd)/$VENV/bin/python"
