"""Incoming protobuf vectors for ibapi_vectors.py: server messages built with the official protobuf classes
(ibapi.protobuf, at test time), framed as a server at 226 sends them, and the callbacks IB's official decoder makes
for each (the expected values). Case names and values mirror the text vectors of
Tests/Fixtures/protocol/vectors/server_to_client.v200.jsonl, so the Swift test also checks that the protobuf frame
and the text frame decode to the same value."""
import enum
import importlib
import inspect
import json
import math
from decimal import Decimal

from ibapi.const import UNSET_DECIMAL, UNSET_DOUBLE, UNSET_INTEGER, UNSET_LONG
from ibapi.decoder import Decoder
from ibapi.wrapper import EWrapper

SERVER_VERSION = 226
UNSET = UNSET_DOUBLE


def proto(name, **fields):
    """An official protobuf message `name` with `fields` set (sub-messages and lists as dicts and lists)."""
    cls = getattr(importlib.import_module("ibapi.protobuf." + name + "_pb2"), name)
    message = cls()
    fill(message, fields)
    return message


def fill(message, fields):
    for key, value in fields.items():
        field = message.DESCRIPTOR.fields_by_name[key]
        if field.message_type is not None and field.message_type.GetOptions().map_entry:
            for k, v in value:
                getattr(message, key)[k] = v
        elif field.message_type is not None and isinstance(value, list):
            for item in value:
                fill(getattr(message, key).add(), item)
        elif field.message_type is not None:
            getattr(message, key).SetInParent()
            fill(getattr(message, key), value)
        elif isinstance(value, list):
            getattr(message, key).extend(value)
        else:
            setattr(message, key, value)


AAPL = {"conId": 265598, "symbol": "AAPL", "secType": "STK", "strike": 0.0, "exchange": "NASDAQ",
        "currency": "USD", "localSymbol": "AAPL", "tradingClass": "NMS"}
ES = {"conId": 495512563, "symbol": "ES", "secType": "FUT", "lastTradeDateOrContractMonth": "20251219",
      "strike": 0.0, "multiplier": 50.0, "currency": "USD", "localSymbol": "ESZ5", "tradingClass": "ES"}


def error(req_id, code, text, json_text=""):
    fields = {"id": req_id, "errorTime": 1736951400500, "errorCode": code, "errorMsg": text}
    if json_text:
        fields["advancedOrderRejectJson"] = json_text
    return "ErrorMessage", 4, fields


def execution(**fields):
    base = {"orderId": 1002, "execId": "0000e0d5.678a1b2c.01.01", "time": "20250115 09:30:05 US/Eastern",
            "acctNumber": "DU1234567", "exchange": "ISLAND", "side": "BOT", "shares": "100", "price": 150.25,
            "permId": 1234567890, "clientId": 7, "cumQty": "100", "avgPrice": 150.25, "lastLiquidity": 2}
    base.update(fields)
    return base


def bar(date, o, h, low, c, volume, wap, count):
    return {"date": date, "open": o, "high": h, "low": low, "close": c, "volume": volume, "WAP": wap,
            "barCount": count}


# name → (message, id, fields)
CASES = {
    "nextValidId": ("NextValidId", 9, {"orderId": 1}),
    "managedAccounts_multi": ("ManagedAccounts", 15, {"accountsList": "DU1234567,DU7654321"}),
    "currentTime": ("CurrentTime", 49, {"currentTime": 1736951400}),
    "currentTimeInMillis": ("CurrentTimeInMillis", 109, {"currentTimeInMillis": 1736951400123}),
    "errMsg_2104_farm_ok": error(-1, 2104, "Market data farm connection is OK:usfarm"),
    "errMsg_201_order_rejected": error(
        1002, 201, "Order rejected - reason:The account DU1234567 has insufficient buying power.",
        '{"rejectReason":"INSUFFICIENT_BUYING_POWER","account":"DU1234567"}'),
    "tickPrice_bid": ("TickPrice", 1, {"reqId": 20, "tickType": 1, "price": 150.24, "size": "300", "attrMask": 1}),
    "tickPrice_last": ("TickPrice", 1, {"reqId": 20, "tickType": 4, "price": 150.25, "size": "100", "attrMask": 0}),
    "tickPrice_bid_noquote": ("TickPrice", 1, {"reqId": 20, "tickType": 1, "price": -1.0, "size": "0",
                                               "attrMask": 0}),
    "tickSize_volume": ("TickSize", 2, {"reqId": 20, "tickType": 8, "size": "23456789"}),
    "tickString_rtVolume": ("TickString", 46, {"reqId": 20, "tickType": 48,
                                                "value": "150.25;100;1736951400123;23456789;150.1012;false"}),
    "tickGeneric_halted": ("TickGeneric", 45, {"reqId": 20, "tickType": 49, "value": 0.0}),
    "tickReqParams": ("TickReqParams", 81, {"reqId": 20, "minTick": "0.01", "bboExchange": "9c0001",
                                            "snapshotPermissions": 3}),
    "marketDataType_delayed": ("MarketDataType", 58, {"reqId": 20, "marketDataType": 3}),
    "tickSnapshotEnd": ("TickSnapshotEnd", 57, {"reqId": 21}),
    "orderStatus_filled": ("OrderStatus", 3, {
        "orderId": 1002, "status": "Filled", "filled": "100", "remaining": "0", "avgFillPrice": 150.25,
        "permId": 1234567890, "parentId": 0, "lastFillPrice": 150.25, "clientId": 7, "mktCapPrice": 0.0}),
    "orderStatus_bracket_child_presubmitted": ("OrderStatus", 3, {
        "orderId": 2003, "status": "PreSubmitted", "filled": "0", "remaining": "100", "avgFillPrice": 0.0,
        "permId": 1234567893, "parentId": 2001, "lastFillPrice": 0.0, "clientId": 7, "mktCapPrice": 0.0}),
    "openOrderEnd": ("OpenOrdersEnd", 53, {}),
    "execDetails_live": ("ExecutionDetails", 11, {
        "reqId": -1, "contract": dict(AAPL, exchange="ISLAND"), "execution": execution()}),
    "execDetails_reqExecutions_reply": ("ExecutionDetails", 11, {
        "reqId": 60, "contract": dict(AAPL, exchange="ISLAND"),
        "execution": execution(orderId=1010, execId="0000e0d5.678a1b2d.01.01", time="20250115  15:59:58",
                               side="SLD", price=151.1, permId=1234567899, avgPrice=151.1, orderRef="exit-1",
                               lastLiquidity=1)}),
    "execDetailsEnd": ("ExecutionDetailsEnd", 55, {"reqId": 60}),
    "commissionReport_opening": ("CommissionAndFeesReport", 59, {
        "execId": "0000e0d5.678a1b2c.01.01", "commissionAndFees": 1.0, "currency": "USD", "realizedPNL": UNSET,
        "bondYield": UNSET}),
    "commissionReport_closing": ("CommissionAndFeesReport", 59, {
        "execId": "0000e0d5.678a1b2d.01.01", "commissionAndFees": 1.02, "currency": "USD", "realizedPNL": 83.48,
        "bondYield": UNSET}),
    "position_stk": ("Position", 61, {"account": "DU1234567", "contract": AAPL, "position": "100",
                                      "avgCost": 150.2601}),
    "position_fut": ("Position", 61, {"account": "DU1234567", "contract": ES, "position": "-2",
                                      "avgCost": 298765.5}),
    "positionEnd": ("PositionEnd", 62, {}),
    "updateAccountValue_netliq": ("AccountValue", 6, {"key": "NetLiquidation", "value": "100523.48",
                                                      "currency": "USD", "accountName": "DU1234567"}),
    "updatePortfolio": ("PortfolioValue", 7, {
        "contract": {k: v for k, v in dict(AAPL, primaryExch="NASDAQ").items() if k != "exchange"}, "position": "100", "marketPrice": 150.5,
        "marketValue": 15050.0, "averageCost": 150.2601, "unrealizedPNL": 23.99, "realizedPNL": 0.0,
        "accountName": "DU1234567"}),
    "updateAccountTime": ("AccountUpdateTime", 8, {"timeStamp": "09:35"}),
    "accountDownloadEnd": ("AccountDataEnd", 54, {"accountName": "DU1234567"}),
    "accountSummary_netliq": ("AccountSummary", 63, {"reqId": 50, "account": "DU1234567", "tag": "NetLiquidation",
                                                     "value": "100523.48", "currency": "USD"}),
    "accountSummaryEnd": ("AccountSummaryEnd", 64, {"reqId": 50}),
    "contractDetailsEnd": ("ContractDataEnd", 52, {"reqId": 10}),
    "historicalData_keepUpToDate_epoch": ("HistoricalData", 17, {"reqId": 41, "historicalDataBars": [
        bar("1736951400", 150.25, 150.3, 150.2, 150.28, "1200", "150.262", 12),
        bar("1736951405", 150.28, 150.31, 150.27, 150.3, "800", "150.291", 9)]}),
    "historicalDataEnd_hourly": ("HistoricalDataEnd", 108, {
        "reqId": 40, "startDateStr": "20250113 16:00:00 US/Eastern", "endDateStr": "20250115 16:00:00 US/Eastern"}),
    "historicalDataUpdate": ("HistoricalDataUpdate", 90, {
        "reqId": 41, "historicalDataBar": bar("1736951410", 150.3, 150.36, 150.29, 150.33, "650", "150.318", 3)}),
    "realTimeBars": ("RealTimeBarTick", 50, {
        "reqId": 30, "time": 1736951400, "open": 150.25, "high": 150.3, "low": 150.2, "close": 150.28,
        "volume": "1500", "WAP": "150.262", "count": 12}),
    "pnl": ("PnL", 94, {"reqId": 70, "dailyPnL": 250.5, "unrealizedPnL": 1024.75, "realizedPnL": 0.0}),
    "pnl_unset_realized": ("PnL", 94, {"reqId": 70, "dailyPnL": 250.5, "unrealizedPnL": 1024.75,
                                       "realizedPnL": UNSET}),
    "pnlSingle": ("PnLSingle", 95, {"reqId": 71, "position": "100", "dailyPnL": 25.0, "unrealizedPnL": 23.99,
                                    "realizedPnL": 0.0, "value": 15050.0}),
    "completedOrdersEnd": ("CompletedOrdersEnd", 102, {}),
    "accountUpdateMultiEnd": ("AccountUpdateMultiEnd", 74, {"reqId": 1}),
    "marketRule": ("MarketRule", 93, {"marketRuleId": 26, "priceIncrements": [
        {"lowEdge": 0.0, "increment": 0.0001}, {"lowEdge": 1.0, "increment": 0.01}]}),
    # Protobuf-only cases (no text twin compared).
    "proto_openOrder_limit": ("OpenOrder", 5, {
        "orderId": 1002, "contract": dict(AAPL, exchange="SMART"),
        "order": {"clientId": 7, "orderId": 1002, "permId": 1234567890, "action": "BUY", "totalQuantity": "100",
                  "orderType": "LMT", "lmtPrice": 150.0, "auxPrice": 0.0, "tif": "DAY", "account": "DU1234567",
                  "orderRef": "entry-1", "transmit": True, "outsideRth": False, "exemptCode": -1,
                  "algoParams": [("adaptivePriority", "Normal")]},
        "orderState": {"status": "Submitted", "commissionAndFees": UNSET, "minCommissionAndFees": UNSET,
                       "maxCommissionAndFees": UNSET, "initMarginBefore": 1000.5, "warningText": ""}}),
    "proto_completedOrder_filled": ("CompletedOrder", 101, {
        "contract": dict(AAPL, exchange="SMART"),
        "order": {"clientId": 7, "permId": 1234567890, "action": "SELL", "totalQuantity": "100",
                  "orderType": "MKT", "tif": "DAY", "account": "DU1234567", "orderRef": "exit-1",
                  "filledQuantity": "100"},
        "orderState": {"status": "Filled", "completedTime": "20250115 15:59:58 US/Eastern",
                       "completedStatus": "Filled Size: 100"}}),
    "proto_contractDetails_fut": ("ContractData", 10, {
        "reqId": 11, "contract": dict(ES, exchange="CME", lastTradeDateOrContractMonth="20251219 08:30"),
        "contractDetails": {"marketName": "ES", "minTick": "0.25", "orderTypes": "LMT,MKT", "validExchanges":
                            "CME,QBALGO", "priceMagnifier": 1, "underConId": 11004968, "longName": "E-mini S&P 500",
                            "contractMonth": "202512", "timeZoneId": "US/Central", "tradingHours": "20250114:1700",
                            "liquidHours": "20250115:0830", "underSymbol": "ES",
                            "underSecType": "IND", "marketRuleIds": "67,67", "realExpirationDate": "20251219",
                            "minSize": "1", "sizeIncrement": "1", "suggestedSizeIncrement": "1",
                            "secIdList": [("ISIN", "US1234567890")]}}),
}


def ser(value):
    if isinstance(value, enum.Enum):
        return f"{type(value).__name__}.{value.name}"
    if value is None or isinstance(value, (str, bool)):
        return value
    if isinstance(value, int):
        if value == UNSET_INTEGER:
            return "UNSET_INTEGER"
        if value == UNSET_LONG:
            return "UNSET_LONG"
        return value
    if isinstance(value, float):
        if value == UNSET_DOUBLE:
            return "UNSET_DOUBLE"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        return value
    if isinstance(value, Decimal):
        return "UNSET_DECIMAL" if value == UNSET_DECIMAL else {"decimal": str(value)}
    if isinstance(value, (list, tuple)):
        return [ser(item) for item in value]
    if hasattr(value, "__dict__"):
        try:
            defaults = vars(type(value)())
        except Exception:
            defaults = {}
        members = {k: ser(v) for k, v in vars(value).items() if not (k in defaults and same(defaults[k], v))}
        return {"type": type(value).__name__, "non_default": members}
    return repr(value)


def same(a, b):
    try:
        if hasattr(a, "__dict__") and hasattr(b, "__dict__"):
            return vars(a).keys() == vars(b).keys() and all(same(vars(a)[k], vars(b)[k]) for k in vars(a))
        return type(a) == type(b) and a == b
    except Exception:
        return False


class Recorder(EWrapper):
    def __init__(self):
        super().__init__()
        self.calls = []


def recording(name):
    def record(self, *args):
        params = list(inspect.signature(getattr(EWrapper, name)).parameters)[1:]
        self.calls.append({"callback": name, "args": {p: ser(a) for p, a in zip(params, args)}})
    return record


for _name, _ in inspect.getmembers(EWrapper, inspect.isfunction):
    if not _name.startswith("_") and not _name.endswith("ProtoBuf") and _name != "logAnswer":
        setattr(Recorder, _name, recording(_name))


def main():
    for name, (message, msg_id, fields) in CASES.items():
        body = proto(message, **fields).SerializeToString()
        frame = (len(body) + 4).to_bytes(4, "big") + (msg_id + 200).to_bytes(4, "big") + body
        wrapper = Recorder()
        Decoder(wrapper, SERVER_VERSION).processProtoBuf(body, msg_id)
        print(json.dumps({"name": name, "id": msg_id, "sv": SERVER_VERSION, "hex": frame.hex(),
                          "expect": wrapper.calls}))
