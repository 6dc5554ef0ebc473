#!/usr/bin/env bash
# Runs each libFuzzer target (Fuzz/) for a bounded time, starting from its committed corpus (Fuzz/Corpus/<target>/).
#
#   scripts/fuzz.sh                      # what CI runs: about a minute (FUZZ_SECONDS, default 60) for each of the
#                                        # targets over the pure modules (client-inbound, simulator-requests, bar-file)
#   scripts/fuzz.sh config-file          # the config loader too (its build pulls in the whole live stack: ~5 min more)
#   FUZZ_SECONDS=600 scripts/fuzz.sh bar-file    # one target longer; FUZZ_SECONDS=0 skips fuzzing
#   scripts/fuzz.sh --campaign           # the long campaign, every target: 1,000,000 inputs each (FUZZ_RUNS to change)
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
if [[ "${FUZZ_SECONDS:-60}" == 0 && -z "$runs" ]]; then
    echo "fuzz: skipped (FUZZ_SECONDS=0)"
    exit 0
fi
if [[ "$(uname -s)" != Linux ]]; then
    echo "fuzz: libFuzzer needs Linux; skipped (the test suite's FuzzPropertyTests ran)"
    exit 0
fi

build=(swift build --package-path Fuzz -c release --sanitize=fuzzer)
for target in "${targets[@]}"; do "${build[@]}" --product "fuzz-$target"; done
bin="$("${build[@]}" --show-bin-path)"
seconds="${FUZZ_SECONDS:-60}"
status=0
for target in "${targets[@]}"; do
    work="$(mktemp -d)"
    crashes="Fuzz/Crashes/$target"
    mkdir -p "$crashes"
    cp Fuzz/Corpus/"$target"/* "$work"/
    limits=(-timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 -artifact_prefix="$crashes/")
    if [[ -n "$runs" ]]; then limits+=(-runs="$runs"); else limits+=(-max_total_time="$seconds"); fi
    log="$work.log"
    started=$(date +%s)
    if "$bin/fuzz-$target" "${limits[@]}" "$work" > "$log" 2>&1; then
        executed=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
        printf 'fuzz %-20s %10s inputs in %4ss, corpus %s -> %s files, 0 crashes\n' "$target" "$executed" \
            "$(( $(date +%s) - started ))" "$(ls Fuzz/Corpus/"$target" | wc -l)" "$(ls "$work" | wc -l)"
    else
        status=1
        echo "fuzz $target: CRASH — the input is in $crashes/; fix it, then commit it as Fuzz/Corpus/$target/crash-<what>"
        grep -E "ERROR|Fatal error|SUMMARY|crashed|overflow|#0 |#1 |#2 " "$log" | head -20 || true
    fi
    rm -rf "$work" "$log"
done
exit $status
