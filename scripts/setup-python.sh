#!/usr/bin/env bash
# Creates .venv with the pinned ib_async used by the gateway simulator's interop test, IB's official client
# (ibapi-latest, with protobuf) whose outputs are the protobuf conformance vectors and which runs against the
# simulator at server version 226, the Prometheus client whose parser checks the dashboard's /metrics, aiosmtpd,
# the local SMTP server of the e-mail alert test, and pyarrow, DuckDB and Polars, which read the bar catalogue
# (idempotent; quick when already done). Prints the venv's python path as its last line. IB's client is installed
# from PyPI at test time only: none of its code is kept in the repository.
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
# The Parquet catalogue's files must open in the three readers researchers use (Tests/Interop/parquet_read.py).
for pin in "pyarrow==26.0.1" "duckdb==2.0.0" "polars==2.1.0"; do
    if ! "$VENV/bin/python" -c "import importlib.metadata as m, sys; sys.exit(0 if m.version('${pin%%==*}') == '${pin##*==}' else 1)" \
        2>/dev/null; then
        "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "$pin"
    fi
done
# Bump both pins together when IB releases a client (docs/tws-compatibility.md, "New IB client").
if ! "$VENV/bin/python" -c 'import importlib.metadata as m, sys; sys.exit(0 if m.version("ibapi-latest") == "10.51.1" else 1)' \
    2>/dev/null; then
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "ibapi-latest==10.51.1"
fi
if ! "$VENV/bin/python" -c 'import importlib.metadata as m, sys; sys.exit(0 if m.version("protobuf") == "7.36.2" else 1)' \
    2>/dev/null; then
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "protobuf==7.36.2"
fi
echo "$(pwd)/$VENV/bin/python"
