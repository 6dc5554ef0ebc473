#!/usr/bin/env bash
# Mutation testing of the money path: plants one-line bugs from a list, one at a time, builds incrementally, runs the
# tests and says whether they caught each bug and with which test. On demand, not in CI (docs/testing.md).
#
#   scripts/mutate.sh                          # every mutation in scripts/mutations.txt, the whole suite each time
#   scripts/mutate.sh --quick                  # each mutation's `tests:` filter only (much faster; a survivor must
#                                              #   then be re-run without --quick before it counts as one)
#   scripts/mutate.sh journal-late-fill ...    # only these ids (with or without --quick)
#   scripts/mutate.sh --check                  # only check that every mutation still applies (no build)
#   MUTATIONS=my-list.txt scripts/mutate.sh    # another list; TEST_TIMEOUT (s, default 900) bounds one test run
#   scripts/mutate.sh --generate FILE... [--tests REGEX]   # mechanical mutations of FILEs (every comparison flipped
#                                              #   at its boundary, + and - swapped, && and ||, guards negated, max
#                                              #   and min), written to .build/mutations/generated.txt and run
#   scripts/mutate.sh --batch 2/5 ...          # only the 2nd of 5 equal slices of the list (CI-sized batches)
#
# A mutation listed in scripts/mutations-equivalent.txt (file and mutated line, with why no test can tell it from
# the original) is not built: it is reported as equivalent and left out of the kill rate.
#
# The list's format (scripts/mutations.txt): blocks separated by blank lines, `#` lines are comments.
#   id:      a short name
#   file:    the source file
#   find:    the exact text to replace (unique in the file, or name the occurrence)
#   replace: what replaces it
#   occurrence: which match of `find` (1-based; only when it is not unique)
#   tests:   a --filter regex with the tests that should catch it (used by --quick)
#   why:     what a user would lose if the bug shipped
#
# Each mutant's file is restored before the next one (also on Ctrl-C). The report goes to stdout and to
# .build/mutations/report.md; each run's test log to .build/mutations/<id>.log. Exit 0 when every mutant that
# compiled was caught, 1 when one survived, 2 for a broken list.
set -uo pipefail
cd "$(dirname "$0")/.."
list="${MUTATIONS:-scripts/mutations.txt}"
timeout_seconds="${TEST_TIMEOUT:-900}"
quick=0
check=0
only=()
generate=()
generate_tests=""
batch=""
expect=""
for argument in "$@"; do
    case "$expect" in
        generate-tests) generate_tests="$argument"; expect=""; continue ;;
        batch) batch="$argument"; expect=""; continue ;;
    esac
    case "$argument" in
        --quick) quick=1 ;;
        --check) check=1 ;;
        --generate) expect=generate ;;
        --tests) expect=generate-tests ;;
        --batch) expect=batch ;;
        -h|--help) sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) if [[ "$expect" == generate ]]; then generate+=("$argument"); else only+=("$argument"); fi ;;
    esac
done
out=.build/mutations
mkdir -p "$out"
if [[ ${#generate[@]} -gt 0 ]]; then
    list="$out/generated.txt"
    scripts/generate-mutations.py "${generate[@]}" ${generate_tests:+--tests "$generate_tests"} >"$list" || exit 2
fi
batch_index=0; batch_count=1
if [[ -n "$batch" ]]; then
    if [[ ! "$batch" =~ ^([0-9]+)/([0-9]+)$ ]] || (( BASH_REMATCH[1] < 1 || BASH_REMATCH[1] > BASH_REMATCH[2] )); then
        echo "mutate: --batch takes K/N with 1 <= K <= N, got '$batch'" >&2; exit 2
    fi
    batch_index=$((BASH_REMATCH[1] - 1)); batch_count=${BASH_REMATCH[2]}
fi
report="$out/report.md"

# Replaces the occurrence-th (or the only) `find` in `file`; exit 3 when it is missing or ambiguous.
apply() {
    perl -e '
        my ($file, $find, $replace, $occurrence) = @ARGV;
        open(my $in, "<", $file) or exit 4; local $/; my $text = <$in>; close $in;
        my @at; my $i = 0;
        while (($i = index($text, $find, $i)) >= 0) { push @at, $i; $i += length($find); }
        if ($occurrence eq "") { exit 3 if @at != 1; $occurrence = 1; }
        exit 3 if $occurrence < 1 || $occurrence > @at;
        substr($text, $at[$occurrence - 1], length($find)) = $replace;
        open(my $o, ">", $file) or exit 4; print $o $text; close $o;
    ' "$1" "$2" "$3" "$4"
}

backup=""
target=""
restore() { if [[ -n "$backup" ]]; then cp "$backup" "$target"; rm -f "$backup"; backup=""; fi; }
trap 'restore; exit 130' INT TERM
trap restore EXIT

# Equivalent mutants by "file|mutated line", or "file|mutated line|occurrence" for an entry with an `occurrence:`
# line (a line whose text appears more than once in the file, where only one of its mutants is equivalent).
declare -A equivalent=()
if [[ -f scripts/mutations-equivalent.txt ]]; then
    eq_file=""; pending=""
    commit() { if [[ -n "$pending" ]]; then equivalent["$pending"]=1; pending=""; fi; }
    while IFS= read -r line || [[ -n "$line" ]]; do
        case "$line" in
            file:*) commit; eq_file="${line#file:}"; eq_file="${eq_file# }" ;;
            replace:*) commit; value="${line#replace:}"; pending="$eq_file|${value# }" ;;
            occurrence:*) n="${line#occurrence:}"; n="${n// /}"; equivalent["$pending|$n"]=1; pending="" ;;
            "") commit ;;
        esac
    done <scripts/mutations-equivalent.txt
    commit
fi
caught=0; survived=0; broken=0; total=0; listed=0; equivalents=0
results=()
declare -A file_caught=() file_compiled=()
run_one() {
    local id="$1" file="$2" find="$3" replace="$4" occurrence="$5" tests="$6"
    if [[ ${#only[@]} -gt 0 ]] && [[ ! " ${only[*]} " == *" $id "* ]]; then return; fi
    listed=$((listed + 1))
    (( (listed - 1) % batch_count == batch_index )) || return 0
    total=$((total + 1))
    if [[ ! -f "$file" ]]; then
        echo "mutate: $id: no file $file" >&2; results+=("| $id | $file | stale: no such file | |"); broken=$((broken + 1)); return
    fi
    target="$file"; backup="$out/original.$$"; cp "$file" "$backup"
    if ! apply "$file" "$find" "$replace" "$occurrence"; then
        restore
        echo "mutate: $id: the text to replace is not in $file exactly once (list out of date?)" >&2
        results+=("| $id | $file | stale: text not found once | |"); broken=$((broken + 1)); return
    fi
    if [[ $check == 1 ]]; then restore; return; fi
    if [[ -n "${equivalent["$file|$replace"]:-}" || -n "${equivalent["$file|$replace|$occurrence"]:-}" ]]; then
        restore
        printf '%-40s equivalent\n' "$id"
        results+=("| $id | $file | equivalent (scripts/mutations-equivalent.txt) | |"); equivalents=$((equivalents + 1))
        return
    fi
    local log="$out/$id.log" started=$SECONDS verdict catcher=""
    printf '%-40s ' "$id"
    if ! swift build --build-tests >"$log" 2>&1; then
        verdict="does not compile"; broken=$((broken + 1))
    else
        local filter=()
        [[ $quick == 1 && -n "$tests" ]] && filter=(--filter "$tests")
        local status=0
        timeout "$timeout_seconds" swift test --skip-build "${filter[@]}" >>"$log" 2>&1 || status=$?
        # swift test runs the test bundle in a process group of its own: one a mutant hung outlives the timeout and
        # would spin on beside every later mutant. Nothing of this checkout's bundle may run on.
        pkill -9 -f "$PWD/.build/.*/IBTraderPackageTests.xctest" 2>/dev/null || true
        if [[ $status == 0 ]]; then
            verdict="SURVIVED"; survived=$((survived + 1))
        elif [[ $status == 124 ]]; then
            verdict="caught"; caught=$((caught + 1)); catcher="timeout (${timeout_seconds} s: a test hung)"
        else
            verdict="caught"; caught=$((caught + 1))
            # The failing Swift Testing tests (and XCTest cases), first three.
            catcher=$(perl -ne 'print "$1\n" if /✘ Test (".*?"|\S+) (recorded an issue|failed)/' "$log" \
                | awk '!seen[$0]++' | head -3 | paste -sd ';' -)
            [[ -z "$catcher" ]] && catcher=$(grep -q 'Terminated\|timed out' "$log" && echo "timeout" || echo "crash (see log)")
            [[ -z "$catcher" ]] && catcher="(see $log)"
        fi
    fi
    restore
    if [[ "$verdict" != "does not compile" ]]; then
        file_compiled[$file]=$(( ${file_compiled[$file]:-0} + 1 ))
        [[ "$verdict" == caught ]] && file_caught[$file]=$(( ${file_caught[$file]:-0} + 1 ))
    fi
    printf '%-16s %4ds  %s\n' "$verdict" $((SECONDS - started)) "$catcher"
    results+=("| $id | $file | $verdict | ${catcher//|/\\|} |")
}

[[ -f "$list" ]] || { echo "mutate: no list $list" >&2; exit 2; }
echo "mutate: $list$([[ $quick == 1 ]] && echo ', each with its tests: filter (--quick)' || echo ', whole suite each')"
declare -A field=()
flush() {
    if [[ -n "${field[id]:-}" ]]; then
        if [[ -z "${field[file]:-}" || -z "${field[find]:-}" || -z "${field[replace]+set}" ]]; then
            echo "mutate: $list: mutation ${field[id]} needs file:, find: and replace:" >&2; exit 2
        fi
        run_one "${field[id]}" "${field[file]}" "${field[find]}" "${field[replace]}" "${field[occurrence]:-}" "${field[tests]:-}"
    fi
    field=()
}
while IFS= read -r line || [[ -n "$line" ]]; do
    if [[ -z "${line// }" ]]; then flush; continue; fi
    [[ "$line" == \#* ]] && continue
    key="${line%%:*}"; value="${line#*:}"; value="${value# }"
    field[$key]="$value"
done <"$list"
flush

if [[ $check == 1 ]]; then
    echo "mutate: $total mutations, $broken stale"; [[ $broken -gt 0 ]] && exit 2; exit 0
fi
# Leave the build as the sources are.
swift build --build-tests >"$out/restore.log" 2>&1 || echo "mutate: rebuilding the unmutated sources failed: $out/restore.log" >&2
compiled=$((caught + survived))
rate=$([[ $compiled -gt 0 ]] && echo "$((100 * caught / compiled))" || echo 0)
{
    echo "# Mutation run, $(date -u +%Y-%m-%dT%H:%MZ), $(git rev-parse --short HEAD)$([[ $quick == 1 ]] && echo ', --quick')"
    echo
    echo "| mutation | file | result | caught by |"
    echo "|---|---|---|---|"
    printf '%s\n' "${results[@]}"
    echo
    echo "$caught of $compiled caught ($rate %); $survived survived; $broken stale or not compiling; $equivalents"\
        "equivalent (not run); $total listed."
    echo
    echo "| file | caught | compiled | kill rate |"
    echo "|---|---:|---:|---:|"
    for file in "${!file_compiled[@]}"; do
        n=${file_compiled[$file]}; k=${file_caught[$file]:-0}
        echo "| $file | $k | $n | $((100 * k / n)) % |"
    done | sort
} >"$report"
echo
echo "$caught of $compiled caught ($rate %); $survived survived; $broken stale or not compiling; $equivalents equivalent. Report: $report"
[[ $broken -gt 0 ]] && exit 2
[[ $survived -gt 0 ]] && exit 1
exit 0
