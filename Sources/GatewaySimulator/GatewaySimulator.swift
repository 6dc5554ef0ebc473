// The GatewaySimulator module: a TWS-protocol server. See docs/gateway-simulator.md.
