"""ib_async trades a future or a currency pair against `ibtrader gateway` (the gateway simulator).

Run by GatewaySimulatorTests/IbAsyncInteropTests with the venv of scripts/setup-python.sh:

    .venv/bin/python Tests/Interop/ib_async_futures_forex.py --port PORT --kind futures   # gateway --data bundled:futures
    .venv/bin/python Tests/Interop/ib_async_futures_forex.py --port PORT --kind fx        # gateway --data bundled:fx

An independent client's view of what the simulator serves: ib_async's own Future and Forex contracts qualify, its
decoded fills, commissions, positions, portfolio and account values carry the multiplier as IB's do (a future's
average cost per contract, its price never paid), and a currency refuses TRADES bars. Talks to 127.0.0.1 only, bounds
its own run time and exits non-zero on the first failed check.
"""

import argparse
import signal
import sys
import time

from ib_async import IB, Forex, Future, MarketOrder

HOST = "127.0.0.1"


def fail(message):
    print(f"FAIL: {message}", flush=True)
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)
    print(f"ok   {message}", flush=True)


def wait_for(ib, predicate, what, timeout=10.0):
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            fail(f"timed out waiting for {what}")
        ib.sleep(0.05)


def cash(ib):
    values = [v for v in ib.accountValues() if v.tag == "TotalCashValue" and v.currency == "USD"]
    return float(values[0].value) if values else None


def trade(ib, contract, action, quantity):
    placed = ib.placeOrder(contract, MarketOrder(action, quantity))
    wait_for(ib, lambda: placed.isDone() and all(f.commissionReport.execId for f in placed.fills),
             f"{action} {quantity} {contract.localSymbol} to fill")
    check(placed.orderStatus.status == "Filled", f"{action} {quantity} {contract.localSymbol} filled")
    return placed


def futures(ib):
    march = Future("ES", "201403", "CME")
    qualified = ib.qualifyContracts(march)
    check(len(qualified) == 1 and march.conId > 0, "Future('ES', '201403', 'CME') qualifies")
    check(march.multiplier == "50", f"its multiplier is 50 ({march.multiplier!r})")
    check(march.localSymbol == "ESH4" and march.tradingClass == "ES", f"local symbol ESH4 ({march.localSymbol})")
    check(march.lastTradeDateOrContractMonth == "20140321", f"last trading day 2014-03-21 ({march.lastTradeDateOrContractMonth})")
    months = [d.contractMonth for d in ib.reqContractDetails(Future("ES", exchange="CME"))]
    check(months == sorted(months) and "201403" in months and len(months) >= 4, f"the root lists its months {months}")
    details = ib.reqContractDetails(march)[0]
    check(details.minTick == 0.25 and details.longName == "E-mini S&P 500", "tick 0.25, long name")

    before = cash(ib)
    check(before is not None, "the account's cash is reported")
    bought = trade(ib, march, "BUY", 2)
    fill = bought.fills[0]
    price = fill.execution.price
    check(fill.execution.exchange == "CME", f"executed on CME ({fill.execution.exchange})")
    check(abs(price / 0.25 - round(price / 0.25)) < 1e-9, f"at a price on the tick ({price})")
    check(abs(fill.commissionReport.commission - 4.5) < 1e-9,
          f"commission 2 x 2.25 ({fill.commissionReport.commission})")
    wait_for(ib, lambda: cash(ib) is not None and abs(cash(ib) - (before - 4.5)) < 0.005,
             "the cash to move by the commission only (a future's price is not paid)")
    check(True, f"cash moved by the commission only ({before} -> {cash(ib)})")
    wait_for(ib, lambda: any(p.contract.conId == march.conId and p.position == 2 for p in ib.positions()),
             "the position of 2")
    position = next(p for p in ib.positions() if p.contract.conId == march.conId)
    check(abs(position.avgCost - (price * 50 + 2.25)) < 1e-6,
          f"average cost per contract = price x 50 + commission share ({position.avgCost})")
    wait_for(ib, lambda: any(i.contract.conId == march.conId for i in ib.portfolio()), "the portfolio item")
    item = next(i for i in ib.portfolio() if i.contract.conId == march.conId)
    check(abs(item.marketValue - 2 * item.marketPrice * 50) < 0.01,
          f"market value = 2 x {item.marketPrice} x 50 ({item.marketValue})")

    sold = trade(ib, march, "SELL", 2)
    exit_price = sold.fills[0].execution.price
    gain = (exit_price - price) * 2 * 50 - 9.0
    wait_for(ib, lambda: abs(cash(ib) - (before + gain)) < 0.005,
             f"the cash to move by the round trip's gain {gain:.2f}")
    check(True, f"the round trip's gain {gain:.2f} is in the cash")
    realized = sold.fills[0].commissionReport.realizedPNL
    check(abs(realized - ((exit_price - (price + 4.5 / 100)) * 2 * 50 - 4.5)) < 1e-6,
          f"the sale's realized P&L counts the multiplier and both commissions ({realized})")


def fx(ib):
    errors = []
    ib.errorEvent += lambda reqId, code, text, contract: errors.append((code, text))
    euro = Forex("EURUSD")
    qualified = ib.qualifyContracts(euro)
    check(len(qualified) == 1 and euro.conId > 0, "Forex('EURUSD') qualifies")
    check(euro.secType == "CASH" and euro.exchange == "IDEALPRO" and euro.localSymbol == "EUR.USD",
          f"CASH on IDEALPRO, EUR.USD ({euro.secType} {euro.exchange} {euro.localSymbol})")
    details = ib.reqContractDetails(euro)[0]
    check(abs(details.minTick - 0.00005) < 1e-12, f"tick 0.00005 ({details.minTick})")

    trades = ib.reqHistoricalData(euro, endDateTime="", durationStr="2 D", barSizeSetting="1 hour",
                                  whatToShow="TRADES", useRTH=False)
    check(not trades and any(code == 162 and "EUR/CASH" in text for code, text in errors),
          "TRADES bars of a currency are refused with IB's 162")
    mid = ib.reqHistoricalData(euro, endDateTime="", durationStr="2 D", barSizeSetting="1 hour",
                               whatToShow="MIDPOINT", useRTH=False)
    check(len(mid) > 10 and 0.9 < mid[-1].close < 1.5, f"MIDPOINT bars are served ({len(mid)})")

    before = cash(ib)
    minimum = trade(ib, euro, "BUY", 20000)
    fill = minimum.fills[0]
    check(fill.execution.exchange == "IDEALPRO", "executed on IDEALPRO")
    check(abs(fill.commissionReport.commission - 2.0) < 1e-9,
          f"IBKR's 2.00 minimum, above 0.2 bp of the value ({fill.commissionReport.commission})")
    expected = before - 20000 * fill.execution.price - 2.0
    wait_for(ib, lambda: abs(cash(ib) - expected) < 0.005, "the cash to pay the euros' price in dollars")
    check(True, f"20,000 EUR cost {20000 * fill.execution.price:.2f} USD + 2.00")
    errors.clear()
    trade(ib, euro, "BUY", 10000)
    check(any(code == 399 and "IdealPro minimum" in text for code, text in errors),
          f"below IDEALPRO's minimum: TWS's 399 odd-lot warning, and it fills ({errors})")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--kind", choices=["futures", "fx"], required=True)
    parser.add_argument("--client-id", type=int, default=9)
    parser.add_argument("--timeout", type=int, default=60)
    args = parser.parse_args()

    def on_alarm(signum, frame):
        fail(f"session did not finish within {args.timeout} s")

    signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(args.timeout)
    ib = IB()
    ib.connect(HOST, args.port, clientId=args.client_id, timeout=10)
    try:
        futures(ib) if args.kind == "futures" else fx(ib)
    finally:
        ib.disconnect()
    print("PASS", flush=True)


if __name__ == "__main__":
    main()
