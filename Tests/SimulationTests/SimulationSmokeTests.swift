import Testing
@testable import Simulation

@Test func SimulationModuleLoads() { #expect(Bool(true)) }
