"""Writes a catalogue-shaped Parquet file with pyarrow, as a user's own script might: zstd pages, no dictionary,
non-nullable columns, decimals stored as integers.

Usage: parquet_write.py FILE DATA_PAGE_VERSION ROWS
Row k: ts = 2024-01-02T14:30Z + k minutes, open = 100 + (k mod 7) + 0.12345678, high = open + 0.5, low = open - 0.25,
close = open + 0.01 (k mod 3), volume = k + 0.5. The Swift test computes the same bars and compares.
"""
import decimal
import sys

import pyarrow as pa
import pyarrow.parquet as pq

path, version, rows = sys.argv[1], sys.argv[2], int(sys.argv[3])
start = 1_704_205_800_000_000_000
D = decimal.Decimal
opens = [D(100 + k % 7) + D("0.12345678") for k in range(rows)]
price = pa.decimal128(18, 8)
schema = pa.schema(
    [pa.field("ts", pa.timestamp("ns", tz="UTC"), nullable=False)]
    + [pa.field(name, price, nullable=False) for name in ["open", "high", "low", "close"]]
    + [pa.field("volume", pa.decimal128(18, 4), nullable=False)]
)
table = pa.table(
    {
        "ts": pa.array([start + k * 60_000_000_000 for k in range(rows)], pa.timestamp("ns", tz="UTC")),
        "open": pa.array(opens, price),
        "high": pa.array([o + D("0.5") for o in opens], price),
        "low": pa.array([o - D("0.25") for o in opens], price),
        "close": pa.array([o + D("0.01") * (k % 3) for k, o in enumerate(opens)], price),
        "volume": pa.array([D(k) + D("0.5") for k in range(rows)], pa.decimal128(18, 4)),
    },
    schema=schema,
)
pq.write_table(
    table, path, compression="zstd", use_dictionary=False, data_page_version=version,
    store_decimal_as_integer=True, data_page_size=4096,
)
