# The bar -> order hop of ib_async 2.1.0 for `ibtrader-bench latency`: a one-share market order on every 5-second
# real-time bar of LAT, alternating buy and sell, until killed. Timed by the benchmark's proxy (PORT).
import signal
import sys
from ib_async import IB, Stock, MarketOrder

# A child of a Swift process inherits its blocked signals; unblock SIGTERM so the benchmark can stop this bot.
signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM, signal.SIGINT])
port = int(sys.argv[1])
ib = IB()
ib.connect("127.0.0.1", port, clientId=3)
contract = Stock("LAT", "SMART", "USD")
ib.qualifyContracts(contract)
bars = ib.reqRealTimeBars(contract, 5, "TRADES", False)
side = ["BUY"]


def on_bar(bars, has_new):
    ib.placeOrder(contract, MarketOrder(side[0], 1))
    side[0] = "SELL" if side[0] == "BUY" else "BUY"


bars.updateEvent += on_bar
ib.disconnectedEvent += lambda: sys.exit(0)
ib.run()
