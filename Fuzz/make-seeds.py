#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets from the recorded protocol vectors and a few bar rows.

Seeds are named seed-*; inputs that once crashed a target are committed next to them as crash-* and replayed by
the test suite (Tests/FuzzTargetsTests). Run again only when the vectors change: python3 Fuzz/make-seeds.py
"""
import json, os, struct

HERE = os.path.dirname(os.path.abspath(__file__))
VECTORS = os.path.join(HERE, "..", "Tests", "Fixtures", "protocol", "vectors")
CORPUS = os.path.join(HERE, "Corpus")


def payload(fields):
    return b"".join(f.encode("utf-8") + b"\0" for f in fields)


def write(target, name, data):
    folder = os.path.join(CORPUS, target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "seed-" + name), "wb") as f:
        f.write(data)


def records(name):
    with open(os.path.join(VECTORS, name)) as f:
        return [json.loads(line) for line in f]


# client-inbound: a version byte (200 - 176 = 24, 178 - 176 = 2), then one payload; plus framed streams.
stream = b""
for file, version in (("server_to_client.v200.jsonl", 200), ("server_to_client.v178.jsonl", 178)):
    for r in records(file):
        body = payload(r["fields"])
        write("client-inbound", f"v{version}-{r['name']}", bytes([version - 176]) + body)
        if version == 200:
            stream += struct.pack(">I", len(body)) + body
write("client-inbound", "v200-stream", bytes([24]) + stream)

# simulator-requests: each request alone, and a session of several separated by 0xFF.
session = []
for r in records("client_to_server.v200.jsonl"):
    body = payload(r["fields"])
    write("simulator-requests", r["name"], body)
    if r["name"] in ("reqContractDetails", "reqMktData_stk", "reqHistoricalData", "placeOrder_MKT",
                     "placeOrder_LMT", "reqExecutions_all", "reqPositions", "reqOpenOrders"):
        session.append(body)
write("simulator-requests", "session", b"\xff".join(session))

# A connection's first bytes: API\0, the hello, startApi, a request (the target's handshake path).
hello = b"API\0" + struct.pack(">I", 9) + b"v200..200"
start, current = payload(["71", "2", "7", ""]), payload(["49", "1"])
write("simulator-requests", "connection-start",
      hello + struct.pack(">I", len(start)) + start + struct.pack(">I", len(current)) + current)

# bar-file: rows (the target adds the header line).
rows = {
    "daily": "2020-01-02,1,2,0.5,1.5,100\n2020-01-03,1.5,2,1,1.75,200.0\n",
    "intraday": "2020-01-02T14:30:00Z,100.25,100.5,100,100.4,1200\r\n2020-01-02T14:31:00Z,100.4,101,100.3,100.9,900\n",
    "exponent": "2020-01-02,1e1,2.5E1,0.5,1.123456789,1e3\n",
    "skipped": "2020-01-02,1,2,0.5,oops,100\n2020-01-01,1,2,0.5,1.5,100\n2020-01-06,3,2,0.5,1.5,100\n",
    "header": "#date,open,high,low,close,volume\n2020-01-02,1,2,0.5,1.5,100\n",
}
for name, text in rows.items():
    write("bar-file", name, text.encode())


# The reliability audit's crashers (each trapped before its fix): kept as crash-* so the suite replays them.
def crash(target, name, data):
    folder = os.path.join(CORPUS, target)
    with open(os.path.join(folder, "crash-audit-" + name), "wb") as f:
        f.write(data)


BIG = "9223372036854775807"
crash("client-inbound", "orderStatus-orderId-max",
      bytes([24]) + payload(["3", BIG, "Submitted", "0", "100", "0.0", "1234567890", "0", "0.0", "7", "", "0.0"]))
crash("client-inbound", "nextValidId-max", bytes([24]) + payload(["9", "1", BIG]))
crash("client-inbound", "historicalData-date-99991231",
      bytes([24]) + payload(["17", "40", "1", "99991231", "150.1", "151.2", "149.9", "150.8", "1523400", "150.61", "8"]))
crash("client-inbound", "historicalData-epoch-9223372037",
      bytes([24]) + payload(["17", "40", "1", "9223372037", "150.1", "151.2", "149.9", "150.8", "1523400", "150.6", "8"]))
crash("client-inbound", "realTimeBars-time-99999999999",
      bytes([24]) + payload(["50", "3", "30", "99999999999", "150.25", "150.3", "150.2", "150.28", "1500", "150.2", "12"]))


def history(end, duration, bar="1 day"):
    return payload(["20", "40", "0", "SYN000", "STK", "", "", "", "", "SMART", "", "USD", "", "", "0", end, bar,
                    duration, "1", "TRADES", "1", "0", ""])


crash("simulator-requests", "history-300-Y", history("", "300 Y"))
crash("simulator-requests", "history-106752-D", history("", "106752 D"))
crash("simulator-requests", "history-end-99991231", history("99991231 23:59:59", "1 D"))
crash("simulator-requests", "history-end-hour-99999999999", history("20050101 99999999999:00:00", "1 D", "1 hour"))
order = next(r for r in records("client_to_server.v200.jsonl") if r["name"] == "placeOrder_MKT")
fields = dict(zip(order["field_names"], order["fields"]))
market = payload([{"orderId": "5", "conId": "0", "symbol": "SYN000", "primaryExchange": ""}.get(n, v)
                  for n, v in zip(order["field_names"], order["fields"])])
executions = payload(["7", "3", "61", "0", "", "20050101 99999999999:00:00", "", "", "", "", "2147483647", "0"])
crash("simulator-requests", "executions-filter-hour-99999999999", market + b"\xff" + executions)
crash("bar-file", "price-92233720368.55", b"2020-01-03,92233720368.55,92233720368.55,1,1,1\n")
crash("bar-file", "date-0001-01-01", b"0001-01-01,1,2,0.5,1.5,100\n")
