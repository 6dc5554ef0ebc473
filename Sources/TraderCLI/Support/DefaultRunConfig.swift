extension RunCommand {
    /// `examples/momentum-paper.yaml`, embedded for `ibtrader run --simulated` without `--config` (a test keeps the
    /// two equal).
    static let defaultConfig = #"""
# ibtrader run --config examples/momentum-paper.yaml   (or: ibtrader run --simulated, which embeds this file)
#
# A small, fast momentum rotation on the bundled daily stocks, meant for paper trading and the simulator: it ranks
# the four stocks by their rate of change over the last 12 five-second bars (one minute) and holds the best two,
# rebalancing every minute of data. Against `ibtrader run --simulated` (replay speed 10) it trades within seconds.
# Every key can be overridden by an environment variable named after its path: connection.port ←
# IBTRADER_CONNECTION_PORT, orders.cancelOnExit ← IBTRADER_ORDERS_CANCELONEXIT (or IBTRADER_ORDERS_CANCEL_ON_EXIT).
connection:
  host: 127.0.0.1
  port: 7497            # 7497 paper TWS, 4002 paper gateway (live ports need --live)
  clientId: 7
  # account: DU1234567  # default: the first managed account
universe:
  symbols: [AAPL, GOOG, IBM, MSFT]
strategy:
  name: momentum        # momentum | sma-cross | ema-cross | rsi | bollinger (as in `ibtrader backtest`)
  cash: 100000          # the engine's capital (it may be less than the account's)
  parameters:
    lookback: 12
    holdings: 2
    rebalance: {everyBars: {_0: 12}}
    minimumScore: null
    investedFraction: 0.5
    rankBuffer: 1            # keep a holding until it ranks last of the four (no flip-flop on tick noise)
    minimumWeightChange: 0.05   # no resize under 5 % of equity (no 1-share trades at the $1 minimum commission)
risk:
  maxPositionPercentOfEquity: 40
orders:
  timeout: 300          # seconds (recorded; see docs/live-trading.md)
  outsideRth: false
  cancelOnExit: true
data:
  barSize: 5 secs       # warm-up bars; the live bars are TWS's 5-second real-time bars
  warmup: 3600 S        # how much history warms the indicators up
  marketDataType: realtime   # realtime | delayed | frozen | delayed-frozen
  delayedFallback: true
  quotes: auto          # auto (as the strategy asks) | on | off: reqMktData quotes beside the bars
journal:
  path: momentum-paper.journal.sqlite   # relative to this file's folder
logging:
  level: info           # trace | debug | info | notice | warning | error
  # file: momentum-paper.log
  summaryInterval: 30   # seconds between portfolio summaries

"""#
}
