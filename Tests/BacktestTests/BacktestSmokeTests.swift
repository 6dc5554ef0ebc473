import Testing
@testable import Backtest

@Test func BacktestModuleLoads() { #expect(Bool(true)) }
