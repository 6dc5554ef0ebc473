# reqMarketRule (91) and marketRule (93), captured as the other vectors were (see shared/protocol/README.md):
#   python -m venv v && v/bin/pip install ibapi-latest==10.51.1      # IB's official client, 10.51.01
#   v/bin/python capture_marketrule.py "$(scripts/setup-python.sh | tail -n 1)" > marketrule.jsonl
# Requests: the official client's bytes at 178 and 200, with ib_async 2.1.0's bytes of the same call beside them.
# Responses: field lists built as TWS writes them (Java doubles), each decoded by the official decoder with every
# field consumed; the callback is stored in `expect`.
import sys, json, os, importlib.util
sys.path.insert(0, "/work/shared/protocol/tools")
import ibapi
from ibapi.client import EClient
from ibapi.decoder import Decoder
from ibapi.wrapper import EWrapper
from common_out import split_frame


class FakeConn:
    def __init__(self): self.sent = []
    def isConnected(self): return True
    def sendMsg(self, msg): self.sent.append(msg); return len(msg)


class Strict(EWrapper):
    def __init__(self): super().__init__(); self.calls = []
    def error(self, *a, **k): raise RuntimeError(f"client-side error callback: {a}")
    def marketRule(self, marketRuleId, priceIncrements):
        self.calls.append({"callback": "marketRule", "args": {
            "marketRuleId": marketRuleId,
            "priceIncrements": [{"lowEdge": p.lowEdge, "increment": p.increment} for p in priceIncrements]}})


IB_ASYNC = """
import asyncio, sys
from ib_async.client import Client
asyncio.set_event_loop(asyncio.new_event_loop())
cl = Client(object()); cl._serverVersion = int(sys.argv[1]); cl.connState = Client.CONNECTED
sent = []
cl.conn.sendMsg = lambda m: sent.append(m)
cl.reqMarketRule(26)
print(sent[0].hex())
"""


IB_ASYNC_DECODE = """
import json, sys
from ib_async.decoder import Decoder
calls = []
class W:
    def marketRule(self, rule, increments):
        calls.append({"callback": "marketRule", "args": [rule, [[p.lowEdge, p.increment] for p in increments]]})
d = Decoder(W(), 200)
d.marketRule(json.loads(sys.argv[1]))
print(json.dumps(calls))
"""


def ib_async_decoded(fields):
    """ib_async 2.1.0's Decoder.marketRule on the fields (its callback's arguments, positionally)."""
    import subprocess
    done = subprocess.run([sys.argv[1], "-c", IB_ASYNC_DECODE, json.dumps(fields)], check=True, capture_output=True,
                          text=True)
    return json.loads(done.stdout)


def ib_async_bytes(version):
    """ib_async 2.1.0's Client.reqMarketRule(26), run by the python given as argv[1] (its sendMsg captured)."""
    import subprocess
    hexed = subprocess.run([sys.argv[1], "-c", IB_ASYNC, str(version)], check=True, capture_output=True, text=True)
    return bytes.fromhex(hexed.stdout.strip())


out = []
for V in (178, 200):
    cl = EClient(Strict()); cl.conn = FakeConn(); cl.serverVersion_ = V; cl.connState = EClient.CONNECTED
    cl.reqMarketRule(26)
    b = cl.conn.sent[0]
    rec = dict(name="reqMarketRule_26", direction="client->server", message="reqMarketRule", msg_id=91,
               server_version=V, authoritative=True, source=f"ibapi {ibapi.__version__} EClient.reqMarketRule",
               call={"method": "reqMarketRule", "args": {"marketRuleId": 26}},
               field_names=["msgId", "marketRuleId"], fields=split_frame(b), hex=b.hex())
    try:
        a = ib_async_bytes(V)
        rec["alternates"] = [{"source": "ib_async 2.1.0 Client.reqMarketRule", "hex": a.hex(),
                              "identical_bytes": a == b}]
    except Exception as e:  # ib_async not given
        rec["alternates"] = [{"source": "ib_async 2.1.0", "skipped": repr(e)}]
    out.append(rec)

responses = [
    ("marketRule_26_us_stocks", ["93", "26", "2", "0.0", "1.0E-4", "1.0", "0.01"]),
    ("marketRule_empty", ["93", "239", "0"]),
]
for name, fields in responses:
    w = Strict()
    d = Decoder(w, 200)
    it = iter(tuple(f.encode("ascii") for f in fields[1:]))
    d.msgId2handleInfo[93].processMeth(d, it)
    assert not list(it), "unconsumed fields"
    payload = b"".join(f.encode("ascii") + b"\0" for f in fields)
    out.append(dict(name=name, direction="server->client", message="marketRule", msg_id=93, server_version=200,
                    authoritative="hand-built (Java doubles as TWS writes them); decoded by the official decoder",
                    field_names=["msgId", "marketRuleId", "priceIncrementsCount"]
                    + ["lowEdge", "increment"] * ((len(fields) - 3) // 2),
                    fields=fields, hex=(len(payload).to_bytes(4, "big") + payload).hex(),
                    expect={f"ibapi {ibapi.__version__}": w.calls, "ib_async 2.1.0": ib_async_decoded(fields)}))

for r in out:
    print(json.dumps(r))
