// The TradingEngine module. See docs/architecture.md.
