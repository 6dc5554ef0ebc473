import Foundation
import Testing

@testable import LiveSession
@testable import OperatorSurface

/// The /metrics exposition (issue 23): histograms in Prometheus's cumulative form, and every series the shipped
/// Grafana dashboard and Prometheus config ask for exists.
struct MetricsTextTests {
    static func status() -> SessionStatus {
        var status = SessionStatus()
        status.phase = "running"
        var farm = SessionStatus.Farm()
        farm.name = "usfarm"
        farm.state = "broken"
        status.connection.farms = [farm]
        var order = SessionStatus.WorkingOrder()
        order.state = "submitted"
        status.orders = [order, order]
        status.latency.barToOrder.record(seconds: 0.0003)
        status.latency.barToOrder.record(seconds: 0.002)
        status.latency.barToOrder.record(seconds: 30)
        return status
    }

    @Test func histogramsAreCumulativeAndFarmsAndOrderStatesAreLabelled() {
        let text = MetricsText.render(Self.status(), log: LogTail.Counts(), fresh: true)
        #expect(text.contains("# TYPE ibtrader_bar_to_order_seconds histogram\n"))
        #expect(text.contains("ibtrader_bar_to_order_seconds_bucket{le=\"0.0001\"} 0\n"))
        #expect(text.contains("ibtrader_bar_to_order_seconds_bucket{le=\"0.0005\"} 1\n"))
        #expect(text.contains("ibtrader_bar_to_order_seconds_bucket{le=\"0.0025\"} 2\n"))
        #expect(text.contains("ibtrader_bar_to_order_seconds_bucket{le=\"10.0\"} 2\n"))
        #expect(text.contains("ibtrader_bar_to_order_seconds_bucket{le=\"+Inf\"} 3\n"))
        #expect(text.contains("ibtrader_bar_to_order_seconds_count 3\n"))
        #expect(text.contains("ibtrader_farm_state{farm=\"usfarm\",state=\"broken\"} 1\n"))
        #expect(text.contains("ibtrader_farm_state{farm=\"usfarm\",state=\"ok\"} 0\n"))
        #expect(text.contains("ibtrader_working_orders_by_state{state=\"submitted\"} 2\n"))
    }

    @Test func everySeriesTheGrafanaDashboardQueriesIsExposed() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let dashboard = try String(contentsOf: root.appendingPathComponent("deploy/grafana-dashboard.json"), encoding: .utf8)
        var status = Self.status()
        status.money.todayPnL = 1
        status.money.drawdownPercent = 0
        status.connection.lastHeardSecondsAgo = 1
        status.connection.roundTripMilliseconds = 1
        let text = MetricsText.render(status, log: LogTail.Counts(), fresh: true)
        let families = Set(text.split(separator: "\n").filter { $0.hasPrefix("# TYPE ") }.map { $0.split(separator: " ")[2] })
        let queried = try Regex("ibtrader_[a-z_]+")
        let names = Set(dashboard.matches(of: queried).map { String(dashboard[$0.range]) }
            .map { $0.replacingOccurrences(of: "_bucket", with: "") })
        #expect(names.count >= 20)
        for name in names.sorted() { #expect(families.contains(Substring(name)), "\(name) is queried but not exposed") }
    }
}
