import MyStrategies
import TraderCLI

// `ibtrader` with the two strategies registered: my-trader backtest --strategy breakout, optimize, walkforward,
// run, config show --strategy breakout, …
await IBTraderCommand.main(strategies: [Breakout.self, GapAndGo.self])
