import Testing
@testable import TradingModel

@Test func TradingModelModuleLoads() { #expect(Bool(true)) }
