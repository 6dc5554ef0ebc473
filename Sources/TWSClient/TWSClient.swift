// The TWSClient module. See docs/architecture.md.
