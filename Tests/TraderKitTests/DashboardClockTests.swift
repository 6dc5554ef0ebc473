import LiveSession
import Testing

@testable import InteractiveBrokers
@testable import TraderKit

/// Issue 83: against the simulator the dashboard's log lines carry the data's time, the page's one clock.
struct DashboardClockTests {
    @Test func aLogLineCarriesTheDataTimesClock() {
        #expect(LiveRunService.dataClockText("2011-01-18T16:11:00Z") == "16:11:00")
        #expect(LiveRunService.dataClockText("") == "--:--:--", "before the first bar")
        #expect(LiveRunService.dataClockText(nil) == "--:--:--", "before the first status")
        #expect(LiveRunService.clockText().count == 8)
    }

    /// Before its warm-up ends the session's data time is the machine's: no line carries it.
    @Test func theDataClockStartsWhenTheSessionRuns() {
        let link = OperatorLink()
        let clock = LiveRunService.dataClock(link)
        #expect(clock() == "--:--:--", "no status yet")
        var status = SessionStatus()
        (status.phase, status.dataTime) = ("starting", "2026-11-30T00:28:18Z")
        link.publish(status, at: .zero)
        #expect(clock() == "--:--:--", "warming up: the data time is still the machine's")
        (status.phase, status.dataTime) = ("running", "2011-01-18T15:31:00Z")
        link.publish(status, at: .zero)
        #expect(clock() == "15:31:00")
        (status.phase, status.dataTime) = ("reconnecting", "2011-01-18T15:42:00Z")
        link.publish(status, at: .zero)
        #expect(clock() == "15:42:00", "once running, the data's clock stays")
    }
}
