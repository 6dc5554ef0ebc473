#!/bin/bash
# The sandbox's drift over the whole of bundled:stocks-1min: `ibtrader sandbox` from every day of January 2011, for
# 7 and 28 days (issue 80's acceptance). One line per run in $OUT (start, duration, exit status, seconds, orders,
# verdict); a run that exits non-zero keeps its output in $OUT.d/. Re-running skips the runs already in $OUT.
#   BIN=.build/release/ibtrader scripts/sandbox-sweep.sh            # all 62 runs (about an hour on 2 cores)
#   DURS=7d FIRST=3 LAST=9 scripts/sandbox-sweep.sh                 # a slice
set -u
BIN=${BIN:-.build/release/ibtrader}
OUT=${OUT:-.build/sandbox-sweep.tsv}
mkdir -p "$(dirname "$OUT")"
for dur in ${DURS:-7d 28d}; do
  for d in $(seq "${FIRST:-1}" "${LAST:-31}"); do
    day=$(printf "2011-01-%02d" "$d")
    grep -q "^$day	$dur	" "$OUT" 2>/dev/null && continue
    dir=$(mktemp -d)
    start=$(date +%s)
    "$BIN" sandbox --start "$day" --duration "$dur" --journal "$dir/journal.sqlite" >"$dir/out.txt" 2>"$dir/err.txt"
    rc=$?
    orders=$(grep -o "orders: [0-9]* live, [0-9]* in the backtest" "$dir/out.txt" | head -1)
    verdict=$(grep -E "drift" "$dir/out.txt" | tail -1 | cut -c1-80)
    printf "%s\t%s\t%s\t%s\t%s\t%s\n" "$day" "$dur" "$rc" "$(( $(date +%s) - start ))" "$orders" "$verdict" >>"$OUT"
    if [ "$rc" -ne 0 ]; then mkdir -p "$OUT.d/$day-$dur" && cp "$dir/out.txt" "$dir/err.txt" "$OUT.d/$day-$dur/"; fi
    rm -rf "$dir"
  done
done
awk -F'\t' '{n++; if ($3 == 0 && $6 ~ /^no drift/) ok++} END {printf "sandbox sweep: %d runs, %d without drift\n", n, ok; exit (n == ok ? 0 : 1)}' "$OUT"
