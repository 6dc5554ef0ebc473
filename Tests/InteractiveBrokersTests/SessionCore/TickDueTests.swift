import Testing
import TradingEngine
import TradingModel
import TWSProtocol

@testable import InteractiveBrokers
@testable import LiveSession

/// Ticks only when due (`TickCadence.whenDue`, what the sandbox and the in-process venue run): the core says when its
/// tick next has work, the driver ticks then and a second after every other input. The decisions must be those of a
/// tick every second, only fewer ticks.
@Suite("Session core: ticks when due")
struct TickDueTests {
    /// Drives a core through `seconds` seconds of a script (bars every 5 s until `barsUntil`, then silence), ticking
    /// every second or only when due; returns every action but the ticks' own checkpoints, with its time, and how
    /// many ticks there were.
    static func run(whenDue: Bool, seconds: Int, barsUntil: Int) -> (actions: [String], ticks: Int) {
        var settings = SessionCoreHarness<BuyWhenFlat>.settings()
        settings.resilience.deadFeedAfter = .seconds(120)
        var harness = SessionCoreHarness(BuyWhenFlat(), settings: settings)
        let start = harness.now
        var seen: [String] = []
        func note(_ actions: [SessionAction], _ harness: SessionCoreHarness<BuyWhenFlat>) {
            for action in actions where action != .journal(.checkpoint) { seen.append("\(harness.now) \(action)") }
        }
        note(harness.startUp(), harness)
        var ticks = 0
        var due = start + .seconds(1)
        for second in 1...seconds {
            let time = start + .seconds(Int64(second))
            if second <= barsUntil, second % 5 == 0 {
                for input in harness.bar(at: time - .seconds(5), close: 100 + Double(second % 7)) {
                    note(harness.send(input, after: time - harness.now), harness)
                }
                note(harness.answerAll(), harness)
                due = min(due, time + .seconds(1))
            }
            guard !whenDue || time == due else { continue }
            ticks += 1
            note(harness.send(.tick, after: time - harness.now), harness)
            note(harness.answerAll(), harness)
            due = harness.core.nextTickDue(after: time)
            #expect(due > time)
        }
        return (seen, ticks)
    }

    @Test("bars, then a silent feed found dead, a back-fill and a resubscription: the same actions at the same times")
    func sameDecisionsWithFewerTicks() {
        let everySecond = Self.run(whenDue: false, seconds: 1_200, barsUntil: 300)
        let whenDue = Self.run(whenDue: true, seconds: 1_200, barsUntil: 300)
        #expect(everySecond.ticks == 1_200)
        #expect(whenDue.ticks < 1_200 / 5, "\(whenDue.ticks) ticks")
        // The script did what it is for: an order, summaries, heartbeats, the dead feed and its resubscription.
        #expect(everySecond.actions.contains { $0.contains("place(") })
        #expect(everySecond.actions.contains { $0.contains("portfolio: equity") })
        #expect(everySecond.actions.contains { $0.contains("serverTime") })
        #expect(everySecond.actions.contains { $0.contains("no bar of AAPL") })
        #expect(everySecond.actions.count == whenDue.actions.count)
        let first = zip(everySecond.actions, whenDue.actions).first { $0 != $1 }
        #expect(first == nil, "first different action: every second \(first?.0 ?? ""), when due \(first?.1 ?? "")")
    }

    @Test("while anything is in motion the next tick is the next second; idle, the earliest timer")
    func dueTimes() {
        var harness = SessionCoreHarness(BuyWhenFlat())
        let before = harness.now
        harness.send(.start)
        #expect(harness.core.nextTickDue(after: before) == before + .seconds(1), "connecting: every second")
        harness.send(.connected(SessionCoreHarness<BuyWhenFlat>.connection()))
        harness.answerAll()
        let now = harness.now
        let due = harness.core.nextTickDue(after: now)
        #expect(due > now + .seconds(1), "running and idle: \(due - now) away")
        #expect(due <= now + harness.core.settings.summaryInterval, "no later than the summary")
        // A stop in progress is in motion again.
        harness.send(.stop("test"))
        #expect(harness.core.nextTickDue(after: harness.now) == harness.now + .seconds(1))
    }
}
