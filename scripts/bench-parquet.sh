#!/usr/bin/env bash
# The catalogue's Parquet files, written and read by our module (built here with swiftc -O, about 15 s) against
# pyarrow and DuckDB reading the same file (from the venv of scripts/setup-python.sh), in one run. Figures are for
# this machine, this run.
set -euo pipefail
cd "$(dirname "$0")/.."
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
swiftc -O -wmo -parse-as-library Sources/Parquet/*.swift -module-name Parquet -emit-module -emit-module-path "$work/Parquet.swiftmodule" \
    -emit-library -static -o "$work/libParquet.a"
swiftc -O -I "$work" -L "$work" -lParquet Benchmarks/parquet/main.swift Sources/Storage/Catalogue/SystemZstd.swift -o "$work/bench"
"$work/bench" "$work/bars.parquet"
python="$(scripts/setup-python.sh | tail -1)"
"$python" - "$work/bars.parquet" <<'PY'
import statistics, sys, time
import duckdb, pyarrow.parquet as pq
path = sys.argv[1]
def median(read):
    times = []
    for _ in range(5):
        started = time.perf_counter()
        rows = read()
        times.append(time.perf_counter() - started)
    return rows, statistics.median(times)
rows, seconds = median(lambda: pq.read_table(path).num_rows)
print(f"pyarrow read_table (its default threads): {seconds:.3f} s ({rows / seconds / 1e6:.1f} M bars/s), same file")
con = duckdb.connect()
rows, seconds = median(lambda: len(con.sql(f"SELECT * FROM read_parquet('{path}')").fetchnumpy()["ts"]))
print(f"duckdb SELECT * to numpy: {seconds:.3f} s ({rows / seconds / 1e6:.1f} M bars/s), same file")
PY
