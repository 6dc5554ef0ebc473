// The TradingModel module. See docs/architecture.md.
