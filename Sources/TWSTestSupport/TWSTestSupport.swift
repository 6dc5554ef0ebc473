// Test support shared by the suites: seeded RNG, drip-feed frame verifier, vector loader, screenshot colours.
