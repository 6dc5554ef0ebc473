import Testing
@testable import Indicators

@Test func IndicatorsModuleLoads() { #expect(Bool(true)) }
