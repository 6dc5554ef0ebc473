import Testing
@testable import Storage

@Test func StorageModuleLoads() { #expect(Bool(true)) }
