// The Storage module. See docs/architecture.md.
