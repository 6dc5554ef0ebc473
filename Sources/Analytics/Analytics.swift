// The Analytics module. See docs/architecture.md.
