#!/usr/bin/env bash
# Runs each libFuzzer target (Fuzz/) for a bounded time, starting from its committed corpus (Fuzz/Corpus/<target>/).
#
#   scripts/fuzz.sh                      # what CI runs: 30 s (FUZZ_SECONDS) for each of the targets over the pure
#                                        # modules (client-inbound, simulator-requests, bar-file), built in debug
#   scripts/fuzz.sh config-file          # the config loader too (its build pulls in the whole live stack: ~5 min more)
#   FUZZ_SECONDS=600 scripts/fuzz.sh bar-file    # one target longer; FUZZ_SECONDS=0 skips fuzzing
#   scripts/fuzz.sh --campaign           # the long campaign, every target, built in release: 1,000,000 inputs each
#                                        # (FUZZ_RUNS to change)
#   FUZZ_CONFIG=release scripts/fuzz.sh  # a time-boxed run built in release
#
# Why debug for the short run (measured here, 2 cores): the three targets built in 210 s in debug and 594 s in
# release, and the debug build runs 5,000 inputs a second against release's 8,300 (client-inbound): in CI's 30 s,
# release would never catch up with the 6 minutes its build costs. Since the gateway's pure core (GatewayCore) left
# the server, the debug build no longer compiles TWSClient, NIOPosix or the server: 163 s (2026-11-27).
#
# A crash stops the script with the input saved under Fuzz/Crashes/<target>/. Once the bug is fixed, commit that
# input as Fuzz/Corpus/<target>/crash-<what> (python3 Fuzz/make-seeds.py keeps the audit's): the test suite replays
# every corpus file (FuzzCorpusReplayTests). Needs Linux (libFuzzer); elsewhere the suite's FuzzPropertyTests are
# the fuzzing.
set -euo pipefail
cd "$(dirname "$0")/.."
targets=()
runs=""
for argument in "$@"; do
    case "$argument" in
        --campaign) runs="${FUZZ_RUNS:-1000000}" ;;
        *) targets+=("$argument") ;;
    esac
done
if [[ ${#targets[@]} -eq 0 ]]; then
    targets=(client-inbound simulator-requests bar-file)
    [[ -z "$runs" ]] || targets+=(config-file)
fi
if [[ "${FUZZ_SECONDS:-30}" == 0 && -z "$runs" ]]; then
    echo "fuzz: skipped (FUZZ_SECONDS=0)"
    exit 0
fi
if [[ "$(uname -s)" != Linux ]]; then
    echo "fuzz: libFuzzer needs Linux; skipped (the test suite's FuzzPropertyTests ran)"
    exit 0
fi

configuration="${FUZZ_CONFIG:-debug}"
[[ -z "$runs" ]] || configuration="${FUZZ_CONFIG:-release}"
build=(swift build --package-path Fuzz -c "$configuration" --sanitize=fuzzer)
build_started=$SECONDS
for target in "${targets[@]}"; do "${build[@]}" --product "fuzz-$target"; done
echo "fuzz: built ${targets[*]} ($configuration) in $((SECONDS - build_started)) s"
bin="$("${build[@]}" --show-bin-path)"
seconds="${FUZZ_SECONDS:-30}"
# The targets run side by side (CI's budget, issue 41: on 2 cores, three 30-s runs take 30 s of wall time instead of
# 90, each with about two thirds of a core); a campaign (a number of inputs, not a time) runs them one after another.
fuzz_one() {
    local target="$1" work crashes log started executed
    work="$(mktemp -d)"
    crashes="Fuzz/Crashes/$target"
    mkdir -p "$crashes"
    cp Fuzz/Corpus/"$target"/* "$work"/
    local limits=(-timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 -artifact_prefix="$crashes/")
    if [[ -n "$runs" ]]; then limits+=(-runs="$runs"); else limits+=(-max_total_time="$seconds"); fi
    log="$work.log"
    started=$(date +%s)
    if "$bin/fuzz-$target" "${limits[@]}" "$work" > "$log" 2>&1; then
        executed=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
        printf 'fuzz %-20s %10s inputs in %4ss, corpus %s -> %s files, 0 crashes\n' "$target" "$executed" \
            "$(( $(date +%s) - started ))" "$(ls Fuzz/Corpus/"$target" | wc -l)" "$(ls "$work" | wc -l)"
        rm -rf "$work" "$log"
        return 0
    fi
    echo "fuzz $target: CRASH — the input is in $crashes/; fix it, then commit it as Fuzz/Corpus/$target/crash-<what>"
    grep -E "ERROR|Fatal error|SUMMARY|crashed|overflow|#0 |#1 |#2 " "$log" | head -20 || true
    rm -rf "$work" "$log"
    return 1
}
status=0
if [[ -n "$runs" ]]; then
    for target in "${targets[@]}"; do fuzz_one "$target" || status=1; done
else
    pids=()
    for target in "${targets[@]}"; do fuzz_one "$target" & pids+=($!); done
    for pid in "${pids[@]}"; do wait "$pid" || status=1; done
fi
exit $status
