import Testing
@testable import TradingEngine

@Test func TradingEngineModuleLoads() { #expect(Bool(true)) }
