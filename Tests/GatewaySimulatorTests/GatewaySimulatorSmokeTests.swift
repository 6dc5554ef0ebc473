import Testing
@testable import GatewaySimulator

@Test func gatewaySimulatorModuleLoads() { #expect(Bool(true)) }
