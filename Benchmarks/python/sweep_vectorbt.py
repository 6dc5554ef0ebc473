"""vectorbt on the sweep benchmark's grid (ibtrader-bench sweep).

Reads symbols from our Parquet catalogue with pyarrow, then for each symbol times what vectorbt needs for the whole
grid: vbt.MA.run once per distinct fast and slow window (shared by every combination that uses it), the
crossings of every combination as array operations, and Portfolio.from_signals over all combinations' columns
(Numba), then every column's final value. Reading and converting the files is outside the timed part, as is a
warm-up on the first 2,000 bars (Numba compilation and cache loading).

The strategy is ibtrader's sma-cross exactly: a cross up on bar t is fast[t] > slow[t] and fast[t-1] <= slow[t-1],
both averages existing on t and t-1 (NaN compares false); long/flat, 100 shares, the order of bar t filled at the
open of bar t+1; no costs; each symbol and combination its own 10,000,000 cash (never binding: a random walk of a year
can take a price past $1,000, where 100,000 would not buy 100 shares).

Prints one JSON object: bars, combinations, seconds (timed part, summed over symbols), and for the combinations
asked with --sample the orders as [signal bar time in ns, side, quantity, price] per symbol, and the times of the
bars where the two averages are exactly equal and of the bars right after them ("near_ties"; exact integer sums of
the prices in 1e-8 units): there, floating-point averages may put either one ahead, so the two engines may cross a
bar apart.
"""
from __future__ import annotations

import argparse
import glob
import json
import time

import numpy as np
import pyarrow.compute as pc
import pyarrow.parquet as pq
import vectorbt as vbt


def parse_range(text: str) -> list[int]:
    start, end, step = (int(x) for x in text.split(":"))
    return list(range(start, end + 1, step))


def load(catalogue: str, symbol: str):
    files = sorted(glob.glob(f"{catalogue}/bar_size=1min/symbol={symbol}/year=*/*.parquet"))
    if not files:
        raise SystemExit(f"sweep_vectorbt.py: no 1-minute files for {symbol} under {catalogue}")
    tables = [pq.read_table(f, columns=["ts", "open", "close"]) for f in files]
    ts = np.concatenate([t.column("ts").cast("int64").to_numpy() for t in tables])
    open_ = np.concatenate([pc.cast(t.column("open"), "float64").to_numpy() for t in tables])
    close = np.concatenate([pc.cast(t.column("close"), "float64").to_numpy() for t in tables])
    return ts, open_, close


def near_ties(ts: np.ndarray, close: np.ndarray, fast_period: int, slow_period: int) -> list[int]:
    units = np.rint(close * 1e8).astype(np.int64)   # exact: prices have at most 8 decimals
    sums = np.concatenate([[0], np.cumsum(units)])
    t = np.arange(slow_period - 1, len(units))
    fast_sum = sums[t + 1] - sums[t + 1 - fast_period]
    slow_sum = sums[t + 1] - sums[t + 1 - slow_period]
    tie = t[fast_sum * slow_period == slow_sum * fast_period]
    after = tie[tie + 1 < len(ts)] + 1
    return sorted(set(int(x) for x in ts[tie]) | set(int(x) for x in ts[after]))


def sweep(close: np.ndarray, open_: np.ndarray, fast: list[int], slow: list[int]):
    """The whole grid on one symbol: columns in (fast, slow) order, fast outer."""
    fast_ma = vbt.MA.run(close, window=fast, short_name="fast").ma.to_numpy()
    slow_ma = vbt.MA.run(close, window=slow, short_name="slow").ma.to_numpy()
    f = np.repeat(fast_ma, len(slow), axis=1)
    s = np.tile(slow_ma, (1, len(fast)))
    up = np.zeros(f.shape, dtype=np.bool_)
    down = np.zeros(f.shape, dtype=np.bool_)
    up[1:] = (f[1:] > s[1:]) & (f[:-1] <= s[:-1])
    down[1:] = (f[1:] < s[1:]) & (f[:-1] >= s[:-1])
    entries = np.zeros_like(up)
    exits = np.zeros_like(down)
    entries[1:] = up[:-1]   # the signal of bar t is an order at the open of bar t+1
    exits[1:] = down[:-1]
    columns = f.shape[1]
    portfolio = vbt.Portfolio.from_signals(
        close=np.tile(close[:, None], (1, columns)), entries=entries, exits=exits,
        price=np.tile(open_[:, None], (1, columns)), size=100, size_type="amount", direction="longonly",
        accumulate=False, init_cash=10_000_000.0, fees=0.0, slippage=0.0, freq="1min")
    return portfolio, portfolio.final_value()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--catalogue", required=True)
    parser.add_argument("--symbols", required=True, help="A,B,...")
    parser.add_argument("--fast", required=True, help="START:END:STEP")
    parser.add_argument("--slow", required=True, help="START:END:STEP")
    parser.add_argument("--sample", default="", help="FAST/SLOW,... combinations whose orders are printed")
    args = parser.parse_args()
    fast, slow = parse_range(args.fast), parse_range(args.slow)
    sample = [tuple(int(x) for x in item.split("/")) for item in args.sample.split(",") if item]
    symbols = args.symbols.split(",")

    data = {symbol: load(args.catalogue, symbol) for symbol in symbols}
    first = next(iter(data.values()))
    sweep(first[2][:2000].copy(), first[1][:2000].copy(), fast, slow)   # warm-up: Numba, not timed

    seconds = 0.0
    bars = 0
    orders: dict[str, dict[str, list]] = {}
    ties: dict[str, dict[str, list]] = {}
    for symbol, (ts, open_, close) in data.items():
        start = time.perf_counter()
        portfolio, finals = sweep(close, open_, fast, slow)
        np.asarray(finals).sum()
        seconds += time.perf_counter() - start
        bars += len(ts)
        records = portfolio.orders.values
        for fast_period, slow_period in sample:
            column = fast.index(fast_period) * len(slow) + slow.index(slow_period)
            rows = records[records["col"] == column]
            orders.setdefault(f"{fast_period}/{slow_period}", {})[symbol] = [
                [int(ts[int(r["idx"]) - 1]), "BUY" if r["side"] == 0 else "SELL", int(round(r["size"])),
                 round(float(r["price"]), 8)]
                for r in rows
            ]
            ties.setdefault(f"{fast_period}/{slow_period}", {})[symbol] = near_ties(ts, close, fast_period, slow_period)
    print(json.dumps({
        "vectorbt": vbt.__version__, "bars": bars, "combinations": len(fast) * len(slow), "seconds": seconds,
        "orders": orders, "near_ties": ties,
    }))


if __name__ == "__main__":
    main()
