#!/usr/bin/env python3
"""Writes the split- and dividend-adjusted AAPL, IBM and MSFT daily files of `bundled:stocks`.

Source: the PyPI wheel bokeh-sampledata==2026.1, member bokeh_sampledata/_data/stocks.csv.gz (Quandl WIKI prices,
public domain), which carries the unadjusted OHLCV and an `Adj Close` (split- and dividend-adjusted). Each row's
factor is f = Adj Close / Close; open, high, low and close are multiplied by f and rounded to 6 decimals, volume is
divided by f and rounded to whole shares (so close x volume, the dollar volume, is unchanged). GOOG is copied as is
(the `backtesting` file: no split or dividend in its range).

    pip download --no-deps bokeh-sampledata==2026.1 && unzip -o bokeh_sampledata-2026.1-py3-none-any.whl
    python3 scripts/bundled-data/adjust_stocks.py bokeh_sampledata/_data/stocks.csv.gz Sources/BundledData/Resources/stocks
"""
import csv
import gzip
import io
import sys


def main(source: str, out: str) -> None:
    rows: dict[str, list[list[str]]] = {}
    with gzip.open(source, "rt", newline="") as handle:
        for row in csv.DictReader(handle):
            if row["Ticker"] not in ("AAPL", "IBM", "MSFT"):
                continue
            close = float(row["Close"])
            factor = float(row["Adj Close"]) / close
            prices = [round(float(row[k]) * factor, 6) for k in ("Open", "High", "Low", "Close")]
            volume = round(float(row["Volume"]) / factor)
            rows.setdefault(row["Ticker"], []).append([row["Date"], *(repr(p) for p in prices), str(volume)])
    for symbol, lines in rows.items():
        text = io.StringIO()
        writer = csv.writer(text, lineterminator="\n")
        writer.writerow(["date", "open", "high", "low", "close", "volume"])
        writer.writerows(lines)
        with open(f"{out}/{symbol}_1d.csv", "w") as handle:
            handle.write(text.getvalue())


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
