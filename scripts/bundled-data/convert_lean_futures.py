#!/usr/bin/env python3
"""Convert QuantConnect/Lean sample futures data (Apache-2.0) to per-contract CSVs.

Inputs  (copied verbatim from the Lean git repo into ./raw/):
  raw/lean_HEAD/Data/future/{cme,comex}/daily/{es,gc}_{trade,openinterest}.zip
  raw/lean_HEAD/Data/future/cme/{map_files,factor_files}/es.csv
  raw/lean_69d2f5ae8/Data/future/{cme,comex}/daily/{es,gc}_trade.zip
      (older revision whose entry names carry the contract expiry date)
Outputs (in ./out/):
  <ROOT><MonthCode><YYYY>_1d.csv : date,open,high,low,close,volume,open_interest
  contracts.csv                  : per-contract summary (rows, first/last date, expiry)
  ES_rolls_lean_implied.csv      : ES roll dates + per-contract prices implied by Lean's factor file

Lean daily trade CSV row: "YYYYMMDD 00:00,open,high,low,close,volume" (plain decimal prices,
NOT deci-cent scaled; futures files are unscaled). OI CSV row: "YYYYMMDD 00:00,open_interest".
"""
import csv, io, json, re, sys, zipfile, datetime as dt
from decimal import Decimal, getcontext
from pathlib import Path

getcontext().prec = 40
HERE = Path(__file__).resolve().parent
RAW, OUT = HERE / "raw", HERE / "out"
MONTH_CODES = "FGHJKMNQUVXZ"


def code(root, yyyymm):
    return f"{root.upper()}{MONTH_CODES[int(yyyymm[4:6]) - 1]}{yyyymm[:4]}"


def read_zip(path):
    """-> {yyyymm: [rows]}; entry names like es_trade_201312[_20131220].csv"""
    out, expiry = {}, {}
    with zipfile.ZipFile(path) as z:
        for name in z.namelist():
            m = re.match(r"[a-z]+_[a-z]+_(\d{6})(?:_(\d{8}))?\.csv$", name)
            if not m:
                raise ValueError(name)
            rows = [r for r in csv.reader(io.TextIOWrapper(z.open(name), "ascii")) if r]
            out[m.group(1)] = rows
            if m.group(2):
                expiry[m.group(1)] = m.group(2)
    return out, expiry


def iso(ts):  # "20131007 00:00" -> "2013-10-07"
    assert ts.endswith(" 00:00"), ts
    return f"{ts[:4]}-{ts[4:6]}-{ts[6:8]}"


def convert(root, market):
    base = RAW / "lean_HEAD/Data/future" / market / "daily"
    trades, _ = read_zip(base / f"{root}_trade.zip")
    ois, _ = read_zip(base / f"{root}_openinterest.zip")
    _, expiry = read_zip(RAW / "lean_69d2f5ae8/Data/future" / market / "daily" / f"{root}_trade.zip")
    summary = []
    for ym in sorted(trades):
        oi = {iso(r[0]): int(r[1]) for r in ois.get(ym, [])}
        bars = {}
        for r in trades[ym]:
            d = iso(r[0])
            if d in bars:
                raise ValueError(f"duplicate {d} in {ym}")
            o, h, l, c = (Decimal(x) for x in r[1:5])
            assert l <= min(o, c) and h >= max(o, c), r
            bars[d] = [r[1], r[2], r[3], r[4], int(r[5]), oi.get(d, "")]
        name = code(root, ym)
        with open(OUT / f"{name}_1d.csv", "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(["date", "open", "high", "low", "close", "volume", "open_interest"])
            for d in sorted(bars):
                w.writerow([d] + bars[d])
        days = sorted(bars)
        weekend = [d for d in days if dt.date.fromisoformat(d).weekday() >= 5]
        exp = expiry.get(ym, "")
        summary.append(dict(contract=name, lean_file=f"{root}_trade_{ym}.csv", rows=len(days),
                            first=days[0], last=days[-1], rows_with_oi=sum(1 for d in days if d in oi),
                            weekend_rows=" ".join(weekend),
                            expiry_lean=f"{exp[:4]}-{exp[4:6]}-{exp[6:]}" if exp else ""))
    return summary


def decode_sid_expiry(sid):
    """Lean SecurityIdentifier: base36 ulong; days (OADate) = props // 1e14 % 1e5 (DaysOffset=1e14)."""
    props = int(sid, 36)
    days = props // 10**14 % 10**5
    assert props % 100 == 5, "SecurityType must be Future (5)"
    return dt.date(1899, 12, 30) + dt.timedelta(days=days)


def es_rolls():
    """Roll table for DataMappingMode 0 (LastTradingDay).

    map file row  (date, sid, market, mode): contract `sid` is mapped up to and including `date`.
    factor row k (same date): cumulative BackwardsRatio f_k, BackwardsPanamaCanal p_k (front month, idx 0).
    Continuity at roll k: P_old*f_k = P_new*f_{k+1} and P_old+p_k = P_new+p_{k+1}
      => r = P_new/P_old = f_k/f_{k+1},  d = P_new-P_old = p_k-p_{k+1},  P_old = d/(r-1).
    """
    base = RAW / "lean_HEAD/Data/future/cme"
    maps = [r for r in csv.reader(open(base / "map_files/es.csv")) if len(r) == 4 and r[3] == "0"]
    fac = [json.loads(l, parse_float=Decimal) for l in open(base / "factor_files/es.csv") if l.strip()]
    fac = [r for r in fac if r["DataMappingMode"] == 0]
    assert [m[0] for m in maps] == [r["Date"][:10].replace("-", "") for r in fac]
    rows = []
    for k in range(len(maps) - 1):
        old_exp = decode_sid_expiry(maps[k][1].split()[1])
        new_exp = decode_sid_expiry(maps[k + 1][1].split()[1])
        f0, f1 = Decimal(fac[k]["BackwardsRatioScale"][0]), Decimal(fac[k + 1]["BackwardsRatioScale"][0])
        p0, p1 = Decimal(fac[k]["BackwardsPanamaCanalScale"][0]), Decimal(fac[k + 1]["BackwardsPanamaCanalScale"][0])
        r, d = f0 / f1, p0 - p1
        if r == 1:  # placeholder rows after the end of Lean's factor history
            continue
        p_old = d / (r - 1)
        p_new = p_old * r
        rows.append(dict(roll_date=f"{maps[k][0][:4]}-{maps[k][0][4:6]}-{maps[k][0][6:]}",
                         old_contract=code("es", old_exp.strftime("%Y%m")), old_expiry=old_exp.isoformat(),
                         new_contract=code("es", new_exp.strftime("%Y%m")), new_expiry=new_exp.isoformat(),
                         old_price_implied=f"{p_old.quantize(Decimal('0.01'))}",
                         new_price_implied=f"{p_new.quantize(Decimal('0.01'))}",
                         new_minus_old=f"{d.quantize(Decimal('0.01'))}"))
    with open(OUT / "ES_rolls_lean_implied.csv", "w", newline="") as f:
        w = csv.DictWriter(f, list(rows[0]), lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    return rows


if __name__ == "__main__":
    OUT.mkdir(exist_ok=True)
    summary = convert("es", "cme") + convert("gc", "comex")
    with open(OUT / "contracts.csv", "w", newline="") as f:
        w = csv.DictWriter(f, list(summary[0]), lineterminator="\n")
        w.writeheader()
        w.writerows(summary)
    rolls = es_rolls()
    for s in summary:
        print(s)
    print(f"{len(rolls)} ES rolls: {rolls[0]['roll_date']} .. {rolls[-1]['roll_date']}")
