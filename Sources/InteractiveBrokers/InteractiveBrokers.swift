// The InteractiveBrokers module. See docs/architecture.md.
