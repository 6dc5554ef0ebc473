#!/usr/bin/env python3
"""Weekly golden curve and metrics for IBTrader's annualisation (issue 80).

Input: ../golden/equity.csv (buy and hold of real GOOG daily bars, 2004-08-19 .. 2013-03-01; see
../golden/README.md). Output, beside this script:

- equity.csv: `date,equity`, the LAST daily row of each ISO week (year, week), equity text copied verbatim, so
  parsing the file gives back the exact doubles the metrics below were computed from.
- metrics.json: quantstats 0.0.86 and empyrical-reloaded 0.7.1 on the weekly returns with 52 periods a year (the
  right answer for weekly data), and the same with 252 (what IBTrader gave before issue 80, annualising any curve as
  daily), beside an independent implementation of the formulas in ../golden/README.md. The script stops if any two
  sources disagree by more than 1e-9 relative.

Run (Python 3.11):
    python3 -m venv /tmp/qs
    /tmp/qs/bin/pip install -r requirements.txt
    /tmp/qs/bin/python make_weekly.py
"""
from __future__ import annotations

import csv
import datetime as dt
import json
import math
import platform
from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
SOURCE = HERE.parent / "golden" / "equity.csv"
TOL_REL = 1e-9


def weekly_rows() -> list[tuple[str, str]]:
    rows: dict[tuple[int, int], tuple[str, str]] = {}
    with SOURCE.open() as f:
        for row in csv.DictReader(f):
            day = dt.date.fromisoformat(row["date"])
            iso = day.isocalendar()
            rows[(iso[0], iso[1])] = (row["date"], row["equity"])  # the week's last row wins
    return [rows[k] for k in sorted(rows)]


def ref_metrics(r: np.ndarray, ppy: int) -> dict:
    n = len(r)
    growth = float(np.prod(1.0 + r))
    mean = float(np.mean(r))
    sd = float(np.std(r, ddof=1))
    downside = math.sqrt(float(np.sum(np.minimum(r, 0.0) ** 2)) / n)
    wealth = np.concatenate([[1.0], np.cumprod(1.0 + r)])
    mdd = float(np.min(wealth / np.maximum.accumulate(wealth) - 1.0))
    cagr = growth ** (ppy / n) - 1.0
    return {
        "total_return": growth - 1.0,
        "cagr": cagr,
        "annual_volatility": sd * math.sqrt(ppy),
        "sharpe": mean / sd * math.sqrt(ppy),
        "sortino": mean / downside * math.sqrt(ppy),
        "max_drawdown": mdd,
        "calmar": cagr / abs(mdd),
    }


def lib_metrics(rets: pd.Series, ppy: int) -> tuple[dict, dict]:
    import empyrical as ep
    import quantstats as qs

    q = {
        "total_return": float(qs.stats.comp(rets)),
        "cagr": float(qs.stats.cagr(rets, rf=0.0, compounded=True, periods=ppy)),
        "annual_volatility": float(qs.stats.volatility(rets, periods=ppy, annualize=True)),
        "sharpe": float(qs.stats.sharpe(rets, rf=0.0, periods=ppy, annualize=True)),
        "sortino": float(qs.stats.sortino(rets, rf=0.0, periods=ppy, annualize=True)),
        "max_drawdown": float(qs.stats.max_drawdown(rets)),
        "calmar": float(qs.stats.calmar(rets, periods=ppy)),
    }
    e = {
        "cagr": float(ep.annual_return(rets, annualization=ppy)),
        "annual_volatility": float(ep.annual_volatility(rets, annualization=ppy)),
        "sharpe": float(ep.sharpe_ratio(rets, risk_free=0.0, annualization=ppy)),
        "max_drawdown": float(ep.max_drawdown(rets)),
    }
    return q, e


def close_enough(a: float, b: float) -> bool:
    return abs(a - b) <= TOL_REL * max(1.0, abs(b))


def main() -> None:
    import empyrical
    import quantstats

    rows = weekly_rows()
    with (HERE / "equity.csv").open("w", newline="") as f:
        f.write("date,equity\n")
        for date, equity in rows:
            f.write(f"{date},{equity}\n")
    equity = pd.Series([float(e) for _, e in rows], index=pd.to_datetime([d for d, _ in rows]))
    rets = (equity / equity.shift(1) - 1.0).iloc[1:]
    r = rets.to_numpy()
    out: dict = {
        "input": {
            "source": "../golden/equity.csv, the last row of each ISO week",
            "points": len(rows), "returns": len(r), "first": rows[0][0], "last": rows[-1][0],
            "median_spacing_days": float(np.median(np.diff(equity.index.values).astype("timedelta64[s]").astype(float)) / 86400),
        },
        "versions": {"python": platform.python_version(), "quantstats": quantstats.__version__,
                     "empyrical": empyrical.__version__, "numpy": np.__version__, "pandas": pd.__version__},
    }
    for ppy in (52, 252):
        ref = ref_metrics(r, ppy)
        q, e = lib_metrics(rets, ppy)
        for name, value in q.items():
            if not close_enough(value, ref[name]):
                raise SystemExit(f"quantstats {name} {value} vs formula {ref[name]} at {ppy}")
        for name, value in e.items():
            if not close_enough(value, ref[name]):
                raise SystemExit(f"empyrical {name} {value} vs formula {ref[name]} at {ppy}")
        out[f"periods_{ppy}"] = {"values": q, "by_library": {"quantstats": q, "empyrical": e, "independent_formulas": ref}}
    ratio = out["periods_252"]["values"]["sharpe"] / out["periods_52"]["values"]["sharpe"]
    if not close_enough(ratio, math.sqrt(252 / 52)):
        raise SystemExit(f"Sharpe ratio 252/52 is {ratio}, not sqrt(252/52)")
    (HERE / "metrics.json").write_text(json.dumps(out, indent=2, sort_keys=True) + "\n")
    print(json.dumps({k: out[k]["values"] for k in ("periods_52", "periods_252")}, indent=2))


if __name__ == "__main__":
    main()
