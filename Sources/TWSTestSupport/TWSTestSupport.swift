// Test support for the TWS protocol: vector loader, drip-feed verifier.
