import Testing
@testable import Research

@Test func researchModuleLoads() { #expect(Bool(true)) }
