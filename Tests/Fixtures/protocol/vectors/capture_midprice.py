import sys, os, json
sys.path.insert(0, "/work/shared/protocol/tools")
import capture_official as co
from scenarios import ORDERS, REQUESTS
AAPL = [kw for n, m, kw, h in REQUESTS if n == "placeOrder_LMT_adaptive_algo"][0]["contract"]
ORDERS["MIDPRICE_CAP"] = dict(action="BUY", totalQuantity="200", orderType="MIDPRICE", lmtPrice=150.1, tif="DAY")
ORDERS["MIDPRICE"] = dict(action="BUY", totalQuantity="200", orderType="MIDPRICE", tif="DAY")
co.REQUESTS[:] = [
    ("placeOrder_LMT_adaptive_algo", "placeOrder", {"orderId": 1006, "contract": AAPL, "order": "LMT_ADAPTIVE"}, False),
    ("placeOrder_MIDPRICE_cap", "placeOrder", {"orderId": 1007, "contract": AAPL, "order": "MIDPRICE_CAP"}, False),
    ("placeOrder_MIDPRICE", "placeOrder", {"orderId": 1008, "contract": AAPL, "order": "MIDPRICE"}, False),
]
for r in co.run(200):
    print(json.dumps(r))
