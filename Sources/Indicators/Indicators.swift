// The Indicators module. See docs/architecture.md.
