/// `examples/momentum-paper.yaml`, embedded for `ibtrader run --simulated` without `--config` (a test keeps the two
/// equal).
public enum BundledRunConfig {
    /// The file's text.
    public static let text = #"""
# ibtrader run --config examples/momentum-paper.yaml   (or: ibtrader run --simulated, which embeds this file)
#
# A small, fast momentum rotation, meant for paper trading and the simulator: it ranks the four stocks by their rate
# of change over the last 30 one-minute bars and holds the best two, rebalancing every 2 minutes. It rotates only when
# the ranking really moves (a holding goes when it ranks last of the four) and never resizes for price drift. Against
# `ibtrader run --simulated` (the bundled 1-minute stocks from 2011-01-18 15:30 UTC, replay speed 10: a minute of
# data every 6 seconds) it buys within its first 20 seconds.
# Every key is documented in docs/configuration.md (`ibtrader config show --config FILE` prints the effective
# values and where each came from). Every key can be overridden by an environment variable named after its path:
# connection.port ← IBTRADER_CONNECTION_PORT, orders.cancelOnExit ← IBTRADER_ORDERS_CANCEL_ON_EXIT; a .env file
# next to this one is read too.
connection:
  host: 127.0.0.1
  port: 7497            # 7497 paper TWS, 4002 paper gateway (a live account also needs --live or --confirm-live)
  clientId: 7
  # account: DU1234567  # default: the login's only account (one must be named when it manages several)
universe:
  symbols: [AAPL, GOOG, IBM, MSFT]
strategy:
  name: momentum        # momentum | sma-cross | ema-cross | rsi | bollinger (as in `ibtrader backtest`)
  cash: 100000          # the engine's capital (it may be less than the account's)
  parameters:           # only the keys written here change the strategy's defaults
    lookback: 30        # bars: half an hour of 1-minute bars
    holdings: 2
    rebalance: 2        # every 2 bars (or daily | weekly | monthly)
    minimumScore: none
    investedFraction: 0.5
    rankBuffer: 1            # keep a holding until it ranks last of the four (no flip-flop on small moves)
    minimumTradeValue: 1000     # no order under $1,000 (exits always go)
    minimumWeightChange: 0.05   # no resize under 5 % of equity (no 1-share trades at the $1 minimum commission)
risk:
  maxPositionPercentOfEquity: 40
orders:
  timeout: 5m           # cancel an order the strategy left working this long
  outsideRth: false
  cancelOnExit: true
data:
  barSize: 1 min        # the strategy's bar (5 secs, 5 mins, 1 hour, 1 day…: built from 5-second real-time bars)
  warmup: 1h            # how much history warms the indicators up (also IB's form: 3600 S)
  marketDataType: realtime   # realtime | delayed | frozen | delayed-frozen
  delayedFallback: true
  quotes: auto          # auto (as the strategy asks) | on | off: reqMktData quotes beside the bars
  watchHalts: true      # a symbol halted by its exchange (LULD pause, news halt): entries refused, exits held
journal:
  path: momentum-paper.journal.sqlite   # relative to this file's folder
logging:
  level: info           # trace | debug | info | notice | warning | error | critical
  # file: momentum-paper.log
  summaryInterval: 30s  # time between portfolio summaries

"""#

    /// The example for `ibtrader run --simulated --strategy NAME`: with another strategy than its momentum, without
    /// momentum's parameters (they would not fit), so `NAME` runs on its own defaults.
    public static func text(strategy: String?) -> String {
        guard let strategy, strategy != "momentum" else { return text }
        var lines: [Substring] = []
        var inParameters = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("  parameters:") {
                inParameters = true
                continue
            }
            if inParameters, line.hasPrefix("    ") { continue }
            inParameters = false
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
