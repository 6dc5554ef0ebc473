// The Simulation module. See docs/architecture.md.
