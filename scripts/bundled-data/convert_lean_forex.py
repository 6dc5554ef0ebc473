#!/usr/bin/env python3
"""Convert QuantConnect/Lean sample forex quote bars (Apache-2.0) to midpoint CSVs for `bundled:futures-fx`.

    python3 scripts/bundled-data/convert_lean_forex.py LEAN_REPO OUT_DIR

Reads Data/forex/oanda/daily/{eurusd,gbpusd}.zip of a Lean checkout (rows "YYYYMMDD 00:00,bidOpen,bidHigh,bidLow,
bidClose,bidSize,askOpen,askHigh,askLow,askClose,askSize") and writes OUT_DIR/{EURUSD,GBPUSD}_1d.csv with
date,open,high,low,close,volume for 2013-10-01 .. 2013-12-31: each price the mean of the bid's and the ask's (the
midpoint IB serves as MIDPOINT bars; a high or low so made is the mean of the two sides' extremes, an approximation
of the midpoint's own), volume 0 (a quote bar has no traded volume). Prices are exact decimals, never floats.
"""
import io, sys, zipfile
from decimal import Decimal
from pathlib import Path

lean, out = Path(sys.argv[1]), Path(sys.argv[2])
out.mkdir(parents=True, exist_ok=True)
for pair in ("eurusd", "gbpusd"):
    with zipfile.ZipFile(lean / "Data/forex/oanda/daily" / f"{pair}.zip") as z:
        rows = [line.split(",") for line in io.TextIOWrapper(z.open(z.namelist()[0]), "ascii").read().split("\n") if line]
    lines = ["date,open,high,low,close,volume"]
    for r in rows:
        day = r[0][:8]
        if not "20131001" <= day <= "20131231":
            continue
        mids = [(Decimal(r[1 + k]) + Decimal(r[6 + k])) / 2 for k in range(4)]
        lines.append(f"{day[:4]}-{day[4:6]}-{day[6:]}," + ",".join(format(m.normalize(), "f") for m in mids) + ",0")
    (out / f"{pair.upper()}_1d.csv").write_text("\n".join(lines) + "\n")
    print(pair.upper(), len(lines) - 1, "rows")
