"""IB's official Python client (ibapi-latest, pinned by scripts/setup-python.sh) through a session against the gateway
simulator at the highest version both speak (the client offers v100..226): binary message ids and protobuf both ways.

Run by GatewaySimulatorTests/OfficialClientInteropTests:

    .venv/bin/python Tests/Interop/ibapi_session.py --port PORT

Talks to 127.0.0.1 only, bounds its run time and exits non-zero with a message on the first failed check. Every
assertion is on what the official decoder delivered to its EWrapper callbacks.
"""
import argparse
import queue
import signal
import sys
import threading
import time
from decimal import Decimal

from ibapi.client import EClient
from ibapi.contract import Contract
from ibapi.execution import ExecutionFilter
from ibapi.order import Order
from ibapi.order_cancel import OrderCancel
from ibapi.wrapper import EWrapper

HOST = "127.0.0.1"


def fail(message):
    print(f"FAIL: {message}", flush=True)
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)
    print(f"ok   {message}", flush=True)


class App(EWrapper, EClient):
    """Puts every callback on one queue as (name, args)."""

    def __init__(self):
        EWrapper.__init__(self)
        EClient.__init__(self, self)
        self.events = queue.Queue()
        self.errors = []

    def __getattribute__(self, name):
        attribute = object.__getattribute__(self, name)
        if name in RECORDED:
            def record(*args):
                object.__getattribute__(self, "events").put((name, args))
            return record
        return attribute

    def error(self, reqId, errorTime, errorCode, errorString, advancedOrderRejectJson=""):
        self.errors.append((reqId, errorCode, errorString))
        self.events.put(("error", (reqId, errorCode, errorString)))

    def wait(self, predicate, what, timeout=20.0):
        """Collects events until `predicate(events)` is true; returns the events seen."""
        seen = []
        deadline = time.monotonic() + timeout
        while True:
            if predicate(seen):
                return seen
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                fail(f"timed out waiting for {what}; saw {[e[0] for e in seen][-20:]}, errors {self.errors[-5:]}")
            try:
                seen.append(self.events.get(timeout=remaining))
            except queue.Empty:
                pass


RECORDED = {"nextValidId", "managedAccounts", "currentTime", "contractDetails", "contractDetailsEnd",
            "historicalData", "historicalDataEnd", "realtimeBar", "tickPrice", "tickSize", "orderStatus",
            "openOrder", "openOrderEnd", "execDetails", "execDetailsEnd", "commissionAndFeesReport", "position",
            "positionEnd", "accountSummary", "accountSummaryEnd", "completedOrder", "completedOrdersEnd"}


def names(events):
    return [e[0] for e in events]


def aapl():
    c = Contract()
    c.symbol = "AAPL"
    c.secType = "STK"
    c.exchange = "SMART"
    c.currency = "USD"
    return c


def order(action, quantity, order_type, limit=None):
    o = Order()
    o.action = action
    o.totalQuantity = Decimal(quantity)
    o.orderType = order_type
    o.tif = "DAY"
    if limit is not None:
        o.lmtPrice = limit
    return o


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--client-id", type=int, default=9)
    parser.add_argument("--timeout", type=int, default=90)
    args = parser.parse_args()
    signal.signal(signal.SIGALRM, lambda *_: fail(f"session did not finish within {args.timeout} s"))
    signal.alarm(args.timeout)

    app = App()
    app.connect(HOST, args.port, clientId=args.client_id)
    threading.Thread(target=app.run, daemon=True).start()
    seen = app.wait(lambda s: "nextValidId" in names(s) and "managedAccounts" in names(s), "nextValidId")
    version = app.serverVersion()
    check(version == 226, f"negotiated server version {version} (protobuf both ways)")
    accounts = next(e[1][0] for e in seen if e[0] == "managedAccounts")
    check(accounts.startswith("DU1234567"), f"managed accounts {accounts}")
    next_id = next(e[1][0] for e in seen if e[0] == "nextValidId")
    check(next_id > 0, f"next valid id {next_id}")

    app.reqCurrentTime()
    seen = app.wait(lambda s: "currentTime" in names(s), "currentTime")
    now = next(e[1][0] for e in seen if e[0] == "currentTime")
    check(now > 1_000_000_000, f"current time {now}")

    app.reqContractDetails(11, aapl())
    seen = app.wait(lambda s: "contractDetailsEnd" in names(s), "contract details")
    details = [e[1][1] for e in seen if e[0] == "contractDetails"]
    check(len(details) == 1 and details[0].contract.conId > 0, f"AAPL conId {details[0].contract.conId}")
    check(details[0].minTick == 0.01 and details[0].longName != "", f"details: minTick {details[0].minTick}")
    contract = details[0].contract

    app.reqHistoricalData(12, contract, "", "30 D", "1 day", "TRADES", 1, 1, False, [])
    seen = app.wait(lambda s: "historicalDataEnd" in names(s), "historical bars")
    bars = [e[1][1] for e in seen if e[0] == "historicalData" and e[1][0] == 12]
    check(len(bars) >= 15, f"{len(bars)} daily bars")
    check(all(b.low <= min(b.open, b.close) <= max(b.open, b.close) <= b.high for b in bars), "bars consistent")

    app.reqRealTimeBars(13, contract, 5, "TRADES", False, [])
    seen = app.wait(lambda s: sum(1 for e in s if e[0] == "realtimeBar") >= 2, "two real-time bars")
    rt = [e[1] for e in seen if e[0] == "realtimeBar"]
    check(rt[-1][3] >= rt[-1][4] > 0, f"real-time bar high {rt[-1][3]} low {rt[-1][4]}")
    app.cancelRealTimeBars(13)

    app.reqMktData(14, contract, "", False, False, [])
    prices = {}
    app.wait(lambda s: all(t in {e[1][1]: 1 for e in s if e[0] == "tickPrice"} for t in (1, 2, 4)),
             "bid, ask and last ticks")
    while not app.events.empty():
        app.events.get()
    check(True, "bid, ask and last ticks arrived")

    market_id = next_id
    app.placeOrder(market_id, contract, order("BUY", 100, "MKT"))
    seen = app.wait(lambda s: any(e[0] == "orderStatus" and e[1][0] == market_id and e[1][1] == "Filled" for e in s)
                    and "commissionAndFeesReport" in names(s), "market order fill and commission")
    executions = [e[1][2] for e in seen if e[0] == "execDetails" and e[1][2].orderId == market_id]
    check(sum(x.shares for x in executions) == 100, f"filled {sum(x.shares for x in executions)} shares")
    reports = [e[1][0] for e in seen if e[0] == "commissionAndFeesReport"]
    check(reports[0].commissionAndFees >= 1.0 and reports[0].currency == "USD",
          f"commission {reports[0].commissionAndFees} {reports[0].currency}")
    check(reports[0].execId in {x.execId for x in executions}, "commission joined to its execution")

    limit_id = market_id + 1
    app.placeOrder(limit_id, contract, order("BUY", 10, "LMT", 1.0))
    seen = app.wait(lambda s: any(e[0] == "orderStatus" and e[1][0] == limit_id and e[1][1] == "Submitted"
                                  for e in s) and any(e[0] == "openOrder" and e[1][0] == limit_id for e in s),
                    "resting limit order")
    open_order = next(e[1] for e in seen if e[0] == "openOrder" and e[1][0] == limit_id)
    check(open_order[2].lmtPrice == 1.0 and open_order[2].tif == "DAY", "open order echoes price and time in force")
    app.reqOpenOrders()
    seen = app.wait(lambda s: "openOrderEnd" in names(s), "open orders")
    check(any(e[0] == "openOrder" and e[1][0] == limit_id for e in seen), "reqOpenOrders lists the limit order")
    app.cancelOrder(limit_id, OrderCancel())
    app.wait(lambda s: any(e[0] == "orderStatus" and e[1][0] == limit_id and e[1][1] == "Cancelled" for e in s),
             "cancel")
    check(True, "limit order cancelled")

    app.reqPositions()
    seen = app.wait(lambda s: "positionEnd" in names(s), "positions")
    held = sum(e[1][2] for e in seen if e[0] == "position" and e[1][1].symbol == "AAPL")
    check(held >= 100, f"AAPL position {held}")

    app.reqAccountSummary(15, "All", "NetLiquidation,TotalCashValue")
    seen = app.wait(lambda s: "accountSummaryEnd" in names(s), "account summary")
    tags = {e[1][2]: e[1][3] for e in seen if e[0] == "accountSummary"}
    check({"NetLiquidation", "TotalCashValue"} <= set(tags), f"account summary tags {sorted(tags)}")

    app.reqExecutions(16, ExecutionFilter())
    seen = app.wait(lambda s: "execDetailsEnd" in names(s), "executions")
    check(any(e[0] == "execDetails" and e[1][0] == 16 and e[1][2].orderId == market_id for e in seen),
          "reqExecutions lists the market order's fill")

    app.reqCompletedOrders(False)
    seen = app.wait(lambda s: "completedOrdersEnd" in names(s), "completed orders")
    statuses = [e[1][2].status for e in seen if e[0] == "completedOrder"]
    check("Filled" in statuses and "Cancelled" in statuses, f"completed orders {statuses}")

    bad = [e for e in app.errors if e[1] in (320, 321, 322, 503, 505, 10052)]
    check(not bad, f"no protocol errors ({bad})")
    app.disconnect()
    print("PASS", flush=True)


if __name__ == "__main__":
    main()
