import Testing
import TraderKit
import TradingModel

@testable import LiveSession

/// Issue 83: `run --simulated` and `sandbox` end by saying that what was left at the broker ended with the run (the
/// broker was the in-process simulator); a run against TWS says nothing of the kind.
struct SimulatedBrokerEndTextTests {
    static func summary(holding: Bool) -> LiveRunSummary {
        LiveRunSummary(
            account: "DU1234567", commands: 4, fills: 2, denials: 0, bars: 100, warmupBars: 0,
            brokerPositions: holding ? [Symbol("AAPL"): Quantity(75)] : [:], enginePositions: [:], reconnects: 0,
            resubscriptions: 0, stopReason: "duration 60 s elapsed")
    }

    @Test func aSimulatedBrokerSaysItsOrdersEndedWithTheRun() {
        let note = "the broker was the built-in simulator: its positions and orders ended with this run"
        let simulated = Self.summary(holding: true).endText(journal: "j.sqlite", simulatedBroker: true)
        let lines = simulated.split(separator: "\n").map(String.init)
        #expect(lines.count == 3 && lines[1].hasPrefix(note), "\(lines)")
        #expect(lines[2].hasPrefix("journal: j.sqlite"))
        #expect(!Self.summary(holding: true).endText(journal: nil).contains(note), "against TWS: nothing of the kind")
        #expect(!Self.summary(holding: false).endText(journal: nil, simulatedBroker: true).contains(note),
            "nothing was left: nothing to say")
    }
}
