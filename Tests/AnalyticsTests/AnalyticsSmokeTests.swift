import Testing
@testable import Analytics

@Test func AnalyticsModuleLoads() { #expect(Bool(true)) }
