import Testing
import TradingModel
import TWSClient
import TWSProtocol

@testable import InteractiveBrokers
@testable import LiveSession

/// A Wednesday 15:00 UTC (10:00 New York): outside IB's reset window.
private let day = Timestamp(year: 2025, month: 1, day: 15, secondOfDay: 15 * 3600)
/// 00:00 New York on the same night: inside it.
private let night = Timestamp(year: 2025, month: 1, day: 16, secondOfDay: 5 * 3600)

private let usfarm = TWSFarm(kind: .marketData, name: "usfarm")
private let ushmds = TWSFarm(kind: .historicalData, name: "ushmds")

private func report(_ farm: TWSFarm, _ state: TWSFarmState, _ code: Int) -> TWSFarmReport {
    TWSFarmReport(farm: farm, state: state, code: code)
}

private func logs(_ actions: [ConnectivityAction]) -> [String] {
    actions.compactMap { if case .log(let level, let text) = $0 { "\(level): \(text)" } else { nil } }
}

@Suite struct FarmMonitorTests {
    func monitor() -> FarmMonitor { FarmMonitor(gracePeriod: .seconds(30), schedule: .northAmerica) }

    @Test("a farm broken longer than the grace period is alerted once, and its return says for how long")
    func longOutage() {
        var m = monitor()
        #expect(logs(m.report(report(usfarm, .ok, 2104), at: day)) == ["info: market data farm usfarm: OK (2104)"])
        #expect(logs(m.report(report(usfarm, .ok, 2104), at: day)) == ["debug: market data farm usfarm: OK again (2104)"])
        #expect(logs(m.report(report(usfarm, .broken, 2103), at: day + .seconds(1))) == [
            "notice: market data farm usfarm: connection broken (2103); TWS reconnects it by itself"
        ])
        #expect(m.outages == 1)
        #expect(m.tick(at: day + .seconds(30)).isEmpty, "29 s: within the grace period")
        #expect(m.alertedByLastTick.isEmpty)
        #expect(logs(m.tick(at: day + .seconds(31))) == [
            "warning: ALERT: market data farm usfarm broken for 30 s: quotes and real-time bars it serves have stopped"
        ])
        #expect(m.alertedByLastTick == [usfarm])
        #expect(m.tick(at: day + .seconds(60)).isEmpty && m.alertedByLastTick.isEmpty, "alerted once")
        #expect(m.summary(at: day + .seconds(61)) == "market data farm usfarm broken for 60 s")
        #expect(logs(m.report(report(usfarm, .broken, 2103), at: day + .seconds(62))).first?.hasPrefix("debug") == true)
        #expect(m.outages == 1, "a repeat is not a new outage")
        #expect(logs(m.report(report(usfarm, .ok, 2104), at: day + .seconds(91))) == [
            "warning: market data farm usfarm: OK again after 90 s (2104)"
        ])
        #expect(m.broken.isEmpty && m.summary(at: day + .seconds(92)).isEmpty)
    }

    @Test("a short outage is a notice each way, and an inactive farm (on demand) ends it too")
    func shortOutage() {
        var m = monitor()
        _ = m.report(report(ushmds, .broken, 2105), at: day)
        #expect(m.tick(at: day + .seconds(5)).isEmpty)
        #expect(logs(m.report(report(ushmds, .inactive, 2107), at: day + .milliseconds(5_500))) == [
            "notice: HMDS farm ushmds: inactive, connected on demand again after 5.5 s (2107)"
        ])
        #expect(m.tick(at: day + .seconds(60)).isEmpty, "over: nothing to alert")
    }

    @Test("inside IB's reset window farms drop quietly and are never alerted")
    func resetWindow() {
        var m = monitor()
        #expect(logs(m.report(report(usfarm, .broken, 2103), at: night)) == [
            "info: market data farm usfarm: connection broken (2103) during IB's reset window (expected); "
                + "TWS reconnects it by itself"
        ])
        #expect(m.tick(at: night + .seconds(600)).isEmpty)
        #expect(logs(m.report(report(usfarm, .ok, 2104), at: night + .seconds(601))) == [
            "info: market data farm usfarm: OK again after 601 s (2104)"
        ])
        #expect(m.outages == 1)
    }

    @Test("farms are alerted in order, each on its own clock")
    func twoFarms() {
        var m = monitor()
        _ = m.report(report(ushmds, .broken, 2105), at: day)
        _ = m.report(report(usfarm, .broken, 2103), at: day + .seconds(10))
        _ = m.tick(at: day + .seconds(30))
        #expect(m.alertedByLastTick == [ushmds])
        _ = m.tick(at: day + .seconds(40))
        #expect(m.alertedByLastTick == [usfarm])
        #expect(m.broken.map(\.farm) == [usfarm, ushmds])
        #expect(m.outages == 2)
    }
}
