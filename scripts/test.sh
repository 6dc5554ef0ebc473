#!/usr/bin/env bash
# Builds with the CI flags (no warnings allowed) and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --build-tests -Xswiftc -warnings-as-errors --explicit-target-dependency-import-check error
swift test --skip-build
