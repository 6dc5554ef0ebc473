"""Conformance vectors from IB's official Python client (ibapi-latest, pinned by scripts/setup-python.sh), made at
test time and printed as JSON lines; nothing of IB's code or generated files is kept in this repository.

  requests   every request IBTrader sends, as the official client frames it at each gate version
  gates      getServerVersionForMessage for every outgoing id, and the protobuf-only gates
  responses  incoming messages built with the official protobuf classes, framed as a server sends them, and the
             official decoder's callback arguments for each (the expected values)

Usage: python ibapi_vectors.py requests|gates|responses
"""
import importlib.metadata
import json
import sys
from decimal import Decimal

from ibapi import comm
from ibapi.client import EClient
from ibapi.common import getServerVersionForMessage
from ibapi.contract import Contract
from ibapi.decoder import Decoder
from ibapi.execution import ExecutionFilter
from ibapi.message import OUT
from ibapi.order import Order
from ibapi.order_cancel import OrderCancel
from ibapi.tag_value import TagValue
from ibapi.wrapper import EWrapper

VERSIONS = [176, 187, 200, 201, 203, 204, 205, 206, 207, 208, 209, 210, 211, 212, 213, 215, 219, 221, 225, 226]


class FakeConn:
    def __init__(self):
        self.sent = []

    def sendMsg(self, msg):
        self.sent.append(msg)

    def isConnected(self):
        return True


class Silent(EWrapper):
    def error(self, *args, **kwargs):
        pass


def aapl(con_id=265598):
    c = Contract()
    c.conId = con_id
    c.symbol = "AAPL"
    c.secType = "STK"
    c.exchange = "SMART"
    c.currency = "USD"
    return c


def future():
    c = Contract()
    c.symbol = "ES"
    c.secType = "FUT"
    c.lastTradeDateOrContractMonth = "202603"
    c.multiplier = "50"
    c.exchange = "CME"
    c.currency = "USD"
    c.localSymbol = "ESH6"
    c.tradingClass = "ES"
    return c


def limit_order():
    o = Order()
    o.action = "BUY"
    o.totalQuantity = Decimal(100)
    o.orderType = "LMT"
    o.lmtPrice = 190.25
    o.tif = "DAY"
    return o


def market_order():
    o = Order()
    o.action = "SELL"
    o.totalQuantity = Decimal("2.5")
    o.orderType = "MKT"
    o.tif = "GTC"
    o.account = "DU123"
    o.orderRef = "ibtrader:sma:1"
    o.outsideRth = True
    o.transmit = True
    return o


def algo_order():
    o = Order()
    o.action = "BUY"
    o.totalQuantity = Decimal(10)
    o.orderType = "LMT"
    o.lmtPrice = 4999.75
    o.tif = "DAY"
    o.algoStrategy = "Adaptive"
    o.algoParams = [TagValue("adaptivePriority", "Normal")]
    o.parentId = 41
    o.ocaGroup = "oca1"
    o.usePriceMgmtAlgo = True
    return o


def stop_order():
    o = Order()
    o.action = "SELL"
    o.totalQuantity = Decimal(100)
    o.orderType = "STP"
    o.auxPrice = 180.5
    o.tif = "DAY"
    o.parentId = 42
    o.transmit = False
    return o


def filter_all():
    f = ExecutionFilter()
    f.clientId = 7
    f.acctCode = "DU123"
    f.symbol = "AAPL"
    f.secType = "STK"
    f.side = "BUY"
    f.time = "20250115 09:30:00"
    return f


def filter_days():
    f = ExecutionFilter()
    f.lastNDays = 2
    f.specificDates = [20250115, 20250116]
    return f


# name → call on the client. The Swift test builds the same requests by name (TWSOfficialVectorTests).
REQUESTS = {
    "startApi": lambda c: c.startApi(),
    "reqIds": lambda c: c.reqIds(-1),
    "reqCurrentTime": lambda c: c.reqCurrentTime(),
    "reqCurrentTimeInMillis": lambda c: c.reqCurrentTimeInMillis(),
    "reqManagedAccts": lambda c: c.reqManagedAccts(),
    "reqContractDetails": lambda c: c.reqContractDetails(11, aapl(0)),
    "reqContractDetailsFuture": lambda c: c.reqContractDetails(12, future()),
    "reqMktData": lambda c: c.reqMktData(5, aapl(), "233", False, False, []),
    "reqMktDataSnapshot": lambda c: c.reqMktData(6, future(), "", True, False, []),
    "cancelMktData": lambda c: c.cancelMktData(5),
    "reqMarketDataType": lambda c: c.reqMarketDataType(3),
    "reqRealTimeBars": lambda c: c.reqRealTimeBars(6, aapl(), 5, "TRADES", True, []),
    "cancelRealTimeBars": lambda c: c.cancelRealTimeBars(6),
    "reqHistoricalData": lambda c: c.reqHistoricalData(
        7, aapl(), "20250115 16:00:00 US/Eastern", "1 D", "1 min", "TRADES", 1, 2, False, []),
    "reqHistoricalDataKeepUp": lambda c: c.reqHistoricalData(8, aapl(), "", "2 D", "5 mins", "MIDPOINT", 0, 1, True, []),
    "cancelHistoricalData": lambda c: c.cancelHistoricalData(7),
    "placeOrderLimit": lambda c: c.placeOrder(42, aapl(), limit_order()),
    "placeOrderMarket": lambda c: c.placeOrder(43, aapl(), market_order()),
    "placeOrderAlgo": lambda c: c.placeOrder(44, future(), algo_order()),
    "placeOrderStop": lambda c: c.placeOrder(45, aapl(), stop_order()),
    "cancelOrder": lambda c: c.cancelOrder(42, OrderCancel()),
    "reqOpenOrders": lambda c: c.reqOpenOrders(),
    "reqAllOpenOrders": lambda c: c.reqAllOpenOrders(),
    "reqAutoOpenOrders": lambda c: c.reqAutoOpenOrders(True),
    "reqPositions": lambda c: c.reqPositions(),
    "cancelPositions": lambda c: c.cancelPositions(),
    "reqAccountUpdates": lambda c: c.reqAccountUpdates(True, "DU123"),
    "reqAccountUpdatesStop": lambda c: c.reqAccountUpdates(False, ""),
    "reqAccountSummary": lambda c: c.reqAccountSummary(9, "All", "NetLiquidation,TotalCashValue"),
    "cancelAccountSummary": lambda c: c.cancelAccountSummary(9),
    "reqExecutions": lambda c: c.reqExecutions(3, ExecutionFilter()),
    "reqExecutionsFilter": lambda c: c.reqExecutions(4, filter_all()),
    "reqExecutionsDays": lambda c: c.reqExecutions(5, filter_days()),
    "reqPnL": lambda c: c.reqPnL(12, "DU123", ""),
    "cancelPnL": lambda c: c.cancelPnL(12),
    "reqPnLSingle": lambda c: c.reqPnLSingle(13, "DU123", "", 265598),
    "cancelPnLSingle": lambda c: c.cancelPnLSingle(13),
    "reqGlobalCancel": lambda c: c.reqGlobalCancel(OrderCancel()),
    "reqCompletedOrders": lambda c: c.reqCompletedOrders(True),
    "reqAccountUpdatesMulti": lambda c: c.reqAccountUpdatesMulti(14, "DU123", "", True),
    "reqMarketRule": lambda c: c.reqMarketRule(26),
}


def client_at(sv):
    c = EClient(Silent())
    c.conn = FakeConn()
    c.serverVersion_ = sv
    c.clientId = 7
    c.setConnState(EClient.CONNECTED)
    return c


def requests():
    for name, call in REQUESTS.items():
        for sv in VERSIONS:
            c = client_at(sv)
            call(c)
            frame = b"".join(c.conn.sent)
            print(json.dumps({"name": name, "sv": sv, "hex": frame.hex()}))
    for text in ["v100..200", "v100..226", "v100..226 +PACEAPI", "v176..213"]:
        print(json.dumps({"name": "hello", "text": text, "hex": (b"API\0" + comm.make_initial_msg(text)).hex()}))


def gates():
    for message in OUT:
        gate = getServerVersionForMessage(message.value)
        print(json.dumps({"id": message.value, "name": message.name,
                          "gate": None if gate == float("inf") else int(gate)}))
    print(json.dumps({"version": importlib.metadata.version("ibapi-latest")}))


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "requests"
    if mode == "requests":
        requests()
    elif mode == "gates":
        gates()
    elif mode == "responses":
        import ibapi_responses
        ibapi_responses.main()
    else:
        sys.exit("unknown mode " + mode)


if __name__ == "__main__":
    main()
