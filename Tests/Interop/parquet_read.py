"""Reads Parquet files written by IBTrader with pyarrow, DuckDB and Polars, and prints what each sees as JSON.

Usage: parquet_read.py FILE_OR_FOLDER [hive]
For a file: {"pyarrow": {...}, "duckdb": {...}, "polars": {...}}, each {"columns": [...], "types": [...], "rows": [[...]]}
with every value as text (timestamps as ISO 8601 in UTC with nanoseconds, decimals exactly). With "hive", the folder
is read as a Hive-partitioned dataset and the partition columns are added. The Swift test compares the three views
with what it wrote.
"""
import datetime
import json
import sys

import duckdb
import polars as pl
import pyarrow.dataset as ds
import pyarrow.parquet as pq


def nanos_iso(ns):
    seconds, nanos = divmod(int(ns), 1_000_000_000)
    moment = datetime.datetime.fromtimestamp(seconds, tz=datetime.timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S") + f".{nanos:09d}Z"


def from_arrow(table):
    import pyarrow as pa
    names = [field.name for field in table.schema]
    types = [str(field.type) for field in table.schema]
    columns = []
    for field, column in zip(table.schema, table.columns):
        if pa.types.is_timestamp(field.type):
            columns.append([nanos_iso(v) for v in column.cast(pa.int64()).to_pylist()])
        elif pa.types.is_decimal(field.type):
            columns.append([format(v, "f") for v in column.to_pylist()])
        else:
            columns.append([str(v) for v in column.to_pylist()])
    return {"columns": names, "types": types, "rows": [list(row) for row in zip(*columns)]}


def main():
    path = sys.argv[1]
    hive = len(sys.argv) > 2 and sys.argv[2] == "hive"
    out = {}
    if hive:
        arrow = ds.dataset(path, format="parquet", partitioning="hive").to_table()
    else:
        arrow = pq.read_table(path)
    out["pyarrow"] = from_arrow(arrow)

    glob = path + "/**/*.parquet" if hive else path
    con = duckdb.connect()
    relation = con.sql(f"SELECT * FROM read_parquet('{glob}', hive_partitioning = {'true' if hive else 'false'})")
    out["duckdb"] = from_arrow(relation.arrow().read_all() if hasattr(relation.arrow(), "read_all") else relation.arrow())

    frame = pl.read_parquet(glob, hive_partitioning=hive)
    out["polars"] = from_arrow(frame.to_arrow())
    print(json.dumps(out))


if __name__ == "__main__":
    main()
