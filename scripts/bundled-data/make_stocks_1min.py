#!/usr/bin/env python3
"""Writes `bundled:stocks-1min`: AAPL, GOOG, IBM and MSFT 1-minute bars for the 20 sessions of January 2011.

GENERATED FROM A DOCUMENTED MODEL: no public, licence-clean source of multi-stock US 1-minute bars was found, so the
minutes are not real trades. What is real: each day's first open and last close and its volume (the bundled daily
files, `stocks-unadjusted/`, as traded; January 2011 has no split or ex-dividend day for these four, so its returns
equal the adjusted ones), and the market factor: SPY's real 1-minute bars of the same minutes (`spy-1min/`).

The model, per stock i and session d (minutes k = 1..390, 14:30..20:59 UTC bar-start, regular hours only):
1. Market part. m_k = ln(S_k / S_0): S_0 is SPY's first regular open, S_k its close at minute k (real).
2. Idiosyncratic part. Increments e_k ~ N(0, sigma_i^2 w_k), w_k a U-shaped variance profile,
   w(u) proportional to 1 + 2 (2u - 1)^2 at u = (k - 0.5) / 390, normalized to sum 1 over the day (three times the
   midday variance at the open and the close). W_k = e_1 + ... + e_k is then pinned by a Brownian bridge in variance
   time, X_k = W_k - tau_k (W_390 - T), tau_k = w_1 + ... + w_k, with T = ln(C/O) - beta_i m_390: the part of the
   real open-to-close move the market does not explain.
3. Price. P_0 = O, P_k = O exp(beta_i m_k + X_k), so the first open is the real open O and the last close the real
   close C. A bar's open is the previous bar's close (the path is continuous), its close P_k.
4. High and low. The upper wick (log) is |beta_i| times SPY's real wick on the same side of that minute (the lower
   one when beta_i < 0) plus 0.5 sqrt(sigma_i^2 w_k) |z|, z ~ N(0, 1); the lower wick likewise with its own z.
5. Cents. Prices round to the cent; the high is at least, the low at most, the rounded open and close.
6. Volume. The stock's real daily volume V spread over the minutes by SPY's real regular-hours volume of that day
   (its share per minute, so U-shaped), in whole shares by largest remainder, summing to V exactly.
beta_i and sigma_i: least squares of the stock's daily open-to-close log return on SPY's over 2010 (the 252
sessions of `spy/SPY_1d.csv` that the stock also has); sigma_i is the residual standard deviation.
Draws: Python's `random.Random(SEED + i)` (Mersenne Twister, stable across versions for `random()`), normals by
Box-Muller from it, in the order day, minute: increment, upper z, lower z. Same inputs, same bytes.

    python3 scripts/bundled-data/make_stocks_1min.py Sources/BundledData/Resources
"""
import csv
import math
import random
import sys

SYMBOLS = ("AAPL", "GOOG", "IBM", "MSFT")
SEED = 20110103
MONTH = "2011-01"
ESTIMATION_YEAR = "2010"
MINUTES = 390


def read(path: str) -> list[dict[str, str]]:
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))


def normal(rng: random.Random) -> float:
    # Box-Muller from random() alone: its sequence is the one Python guarantees for a seed.
    u = 1.0 - rng.random()
    return math.sqrt(-2.0 * math.log(u)) * math.cos(2.0 * math.pi * rng.random())


def regression(xs: list[float], ys: list[float]) -> tuple[float, float]:
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    beta = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    alpha = my - beta * mx
    residuals = [y - alpha - beta * x for x, y in zip(xs, ys)]
    return beta, math.sqrt(sum(r * r for r in residuals) / (n - 2))


def profile() -> list[float]:
    raw = [1 + 2 * (2 * (k - 0.5) / MINUTES - 1) ** 2 for k in range(1, MINUTES + 1)]
    total = sum(raw)
    return [w / total for w in raw]


def cents(price: float) -> int:
    return int(math.floor(price * 100 + 0.5))


def spread_volume(total: int, weights: list[int]) -> list[int]:
    whole = sum(weights)
    exact = [total * w / whole for w in weights]
    shares = [int(math.floor(x)) for x in exact]
    order = sorted(range(len(exact)), key=lambda k: (-(exact[k] - shares[k]), k))
    for k in order[: total - sum(shares)]:
        shares[k] += 1
    return shares


def main(resources: str) -> None:
    spy_minutes: dict[str, list[dict[str, str]]] = {}
    for row in read(f"{resources}/spy-1min/SPY_1min.csv"):
        day, clock = row["date"][:10], row["date"][11:16]
        if day.startswith(MONTH) and "14:30" <= clock <= "20:59":
            spy_minutes.setdefault(day, []).append(row)
    days = sorted(spy_minutes)
    assert all(len(spy_minutes[d]) == MINUTES for d in days), "every January session has its 390 regular minutes"
    spy_daily = {r["date"]: r for r in read(f"{resources}/spy/SPY_1d.csv")}
    weights = profile()
    tau = [0.0]
    for w in weights:
        tau.append(tau[-1] + w)
    for index, symbol in enumerate(SYMBOLS):
        daily = {r["date"]: r for r in read(f"{resources}/stocks-unadjusted/{symbol}_1d.csv")}
        adjusted = {r["date"]: r for r in read(f"{resources}/stocks/{symbol}_1d.csv")}
        factors = {round(float(adjusted[d]["close"]) / float(daily[d]["close"]), 5) for d in days}
        assert len(factors) == 1, f"{symbol}: a split or dividend in {MONTH} (adjusted returns would differ)"
        pairs = [
            (math.log(float(s["close"]) / float(s["open"])), math.log(float(daily[d]["close"]) / float(daily[d]["open"])))
            for d, s in sorted(spy_daily.items()) if d.startswith(ESTIMATION_YEAR) and d in daily
        ]
        beta, sigma = regression([p[0] for p in pairs], [p[1] for p in pairs])
        print(f"{symbol}: beta {beta:.4f}, daily idiosyncratic sigma {sigma:.5f} ({len(pairs)} sessions of {ESTIMATION_YEAR})")
        rng = random.Random(SEED + index)
        lines = ["date,open,high,low,close,volume"]
        for day in days:
            minutes = spy_minutes[day]
            real = daily[day]
            o, c = float(real["open"]), float(real["close"])
            s0 = float(minutes[0]["open"])
            market = [0.0] + [math.log(float(m["close"]) / s0) for m in minutes]
            steps, wicks = [], []
            for k, m in enumerate(minutes):
                sd = sigma * math.sqrt(weights[k])
                steps.append(sd * normal(rng))
                spy_o, spy_c = float(m["open"]), float(m["close"])
                up = math.log(float(m["high"]) / max(spy_o, spy_c))
                down = math.log(min(spy_o, spy_c) / float(m["low"]))
                if beta < 0:
                    up, down = down, up
                wicks.append((abs(beta) * up + 0.5 * sd * abs(normal(rng)), abs(beta) * down + 0.5 * sd * abs(normal(rng))))
            walk = [0.0]
            for e in steps:
                walk.append(walk[-1] + e)
            target = math.log(c / o) - beta * market[-1]
            path = [o * math.exp(beta * market[k] + walk[k] - tau[k] * (walk[-1] - target)) for k in range(MINUTES + 1)]
            path[0], path[-1] = o, c  # exactly the real open and close, not their exp(log()) round trip
            volumes = spread_volume(int(real["volume"]), [int(m["volume"]) for m in minutes])
            for k, m in enumerate(minutes):
                bar_open, bar_close = cents(path[k]), cents(path[k + 1])
                up, down = wicks[k]
                high = max(cents(max(path[k], path[k + 1]) * math.exp(up)), bar_open, bar_close)
                low = min(cents(min(path[k], path[k + 1]) * math.exp(-down)), bar_open, bar_close)
                lines.append(f"{m['date']},{bar_open / 100:.2f},{high / 100:.2f},{low / 100:.2f},{bar_close / 100:.2f},{volumes[k]}")
        with open(f"{resources}/stocks-1min/{symbol}_1min.csv", "w", newline="") as handle:
            handle.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
