import GatewayCore
import Testing

@testable import TraderKit

/// The sandbox says which symbols its data lacks before the bot asks the simulator for contracts it does not know
/// (before: "contract details of AAPL: … 200 No security definition"), matching by instrument.
struct SandboxSymbolCheckTests {
    @Test func aUniverseTheDataDoesNotServeIsRefusedWithWhatItServes() throws {
        let data = try GatewaySetup.data("bundled:futures-fx", synthetic: nil, seed: 0)
        try SandboxJob.checkSymbols(["ES 2014-03", "ESZ2013", "EUR.USD", "GBP/USD"], servedBy: data, argument: "bundled:futures-fx")
        do {
            try SandboxJob.checkSymbols(["AAPL", "EUR.USD", "ES 2015-03"], servedBy: data, argument: "bundled:futures-fx")
            Issue.record("AAPL was accepted")
        } catch {
            #expect(error.description.contains("AAPL, ES 2015-03 not in --data bundled:futures-fx, which serves ESH2014"),
                    "\(error)")
        }
    }
}
