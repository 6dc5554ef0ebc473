import Testing
@testable import InteractiveBrokers

@Test func InteractiveBrokersModuleLoads() { #expect(Bool(true)) }
