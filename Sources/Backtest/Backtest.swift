// The Backtest module. See docs/architecture.md.
