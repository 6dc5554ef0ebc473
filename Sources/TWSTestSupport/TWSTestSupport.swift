// Test support for the TWS protocol: seeded RNG, drip-feed frame verifier, vector loader.
