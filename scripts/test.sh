#!/usr/bin/env bash
# Builds with the CI flags (no warnings allowed) and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --build-tests -Xswiftc -warnings-as-errors --explicit-target-dependency-import-check error
# Interop tests run the real ib_async client against the gateway simulator; the venv is made here.
IBTRADER_PYTHON="$(scripts/setup-python.sh | tail -n 1)"
export IBTRADER_PYTHON
swift test --skip-build
# Fuzzing: each libFuzzer target for about a minute (FUZZ_SECONDS; Linux only, built separately with the sanitizer).
scripts/fuzz.sh
