import Testing
@testable import TWSClient

@Test func TWSClientModuleLoads() { #expect(Bool(true)) }
