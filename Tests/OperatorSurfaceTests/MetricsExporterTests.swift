import Foundation
import Testing

@testable import LiveSession
@testable import OperatorSurface

/// `/metrics` through swift-prometheus (issue 23): histograms of the runner's observations, series that follow the
/// snapshot (a closed position's goes away, a counter follows its total), and every series the shipped Grafana
/// dashboard queries exists.
struct MetricsExporterTests {
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
        var position = SessionStatus.Position()
        position.symbol = "AAPL"
        position.quantity = 100
        status.money.buyingPower = -1234.5
        position.brokerQuantity = 60
        position.agreesWithBroker = false
        status.positions = [position]
        status.counts.fills = 3
        status.connection.marketData = [
            SessionStatus.MarketDataLine(symbol: "AAPL", type: "live"), SessionStatus.MarketDataLine(symbol: "MSFT", type: "silent"),
        ]
        return status
    }

    @Test func histogramsCountObservationsAndSeriesFollowTheSnapshot() {
        let exporter = MetricsExporter()
        for seconds in [0.0003, 0.002, 30] { exporter.observe(.barToOrder, seconds: seconds) }
        var text = exporter.render(Self.status(), log: LogTail.Counts(), fresh: true)
        #expect(text.contains("# TYPE ibtrader_bar_to_order_seconds histogram\n"))
        #expect(text.contains("ibtrader_bar_to_order_seconds_bucket{le=\"0.0001\"} 0\n"))
        #expect(text.contains("ibtrader_bar_to_order_seconds_bucket{le=\"0.0005\"} 1\n"))
        #expect(text.contains("ibtrader_bar_to_order_seconds_bucket{le=\"0.0025\"} 2\n"))
        #expect(text.contains("ibtrader_bar_to_order_seconds_bucket{le=\"10.0\"} 2\n"))
        #expect(text.contains("ibtrader_bar_to_order_seconds_bucket{le=\"+Inf\"} 3\n"))
        #expect(text.contains("ibtrader_bar_to_order_seconds_count 3\n"))
        #expect(text.contains("ibtrader_farm_state{farm=\"usfarm\",state=\"broken\"} 1.0\n"))
        #expect(text.contains("ibtrader_farm_state{farm=\"usfarm\",state=\"ok\"} 0.0\n"))
        #expect(text.contains("ibtrader_working_orders_by_state{state=\"submitted\"} 2.0\n"))
        #expect(text.contains("ibtrader_position_quantity{symbol=\"AAPL\"} 100.0\n"))
        #expect(text.contains("ibtrader_position_broker_quantity{symbol=\"AAPL\"} 60.0\n"))
        #expect(text.contains("ibtrader_buying_power -1234.5\n"))
        #expect(text.contains("ibtrader_position_mismatch{symbol=\"AAPL\"} 1.0\n"))
        #expect(text.contains("ibtrader_bar_feed_silent{symbol=\"AAPL\"} 0.0\n"))
        #expect(text.contains("ibtrader_bar_feed_silent{symbol=\"MSFT\"} 1.0\n"))
        #expect(text.contains("ibtrader_fills_total 3\n") || text.contains("ibtrader_fills_total 3.0\n"), "\(text)")
        // The position is closed and two more fills came: its series goes, the counter follows.
        var later = Self.status()
        later.positions = []
        later.counts.fills = 5
        text = exporter.render(later, log: LogTail.Counts(), fresh: true)
        #expect(!text.contains("ibtrader_position_quantity{symbol=\"AAPL\"}"))
        #expect(text.contains("ibtrader_fills_total 5\n") || text.contains("ibtrader_fills_total 5.0\n"))
    }

    /// Issue 47: an account in euros trading in dollars: the dollars held and the rate they convert at, by currency;
    /// none of either in one currency.
    @Test func anotherCurrencysCashAndRateAreExposed() {
        var status = Self.status()
        var text = MetricsExporter().render(status, log: LogTail.Counts(), fresh: true)
        #expect(!text.contains("ibtrader_currency_cash") && !text.contains("ibtrader_exchange_rate"))
        status.money.currency = "EUR"
        var dollars = SessionStatus.Balance()
        dollars.currency = "USD"
        dollars.cash = -502.25
        dollars.rate = 0.8
        status.money.balances = [dollars]
        text = MetricsExporter().render(status, log: LogTail.Counts(), fresh: true)
        #expect(text.contains("ibtrader_currency_cash{currency=\"USD\"} -502.25\n"), "\(text)")
        #expect(text.contains("ibtrader_exchange_rate{currency=\"USD\"} 0.8\n"), "\(text)")
    }

    /// Issue 45: which rule denies orders, not only how many.
    @Test func riskDenialsAreLabelledByRule() {
        let exporter = MetricsExporter()
        var status = Self.status()
        status.risk.denials = 3
        status.risk.denialsByRule = ["maxActivePositions": 2, "killSwitch": 1]
        var text = exporter.render(status, log: LogTail.Counts(), fresh: true)
        #expect(text.contains("ibtrader_risk_denials_by_rule_total{rule=\"maxActivePositions\"} 2"), "\(text)")
        #expect(text.contains("ibtrader_risk_denials_by_rule_total{rule=\"killSwitch\"} 1"), "\(text)")
        status.risk.denialsByRule["killSwitch"] = 4
        text = exporter.render(status, log: LogTail.Counts(), fresh: true)
        #expect(text.contains("ibtrader_risk_denials_by_rule_total{rule=\"killSwitch\"} 4"), "\(text)")
    }

    @Test func everySeriesTheGrafanaDashboardQueriesIsExposed() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let dashboard = try String(contentsOf: root.appendingPathComponent("deploy/grafana-dashboard.json"), encoding: .utf8)
        var status = Self.status()
        status.money.todayPnL = 1
        status.money.drawdownPercent = 0
        status.connection.lastHeardSecondsAgo = 1
        status.connection.roundTripMilliseconds = 1
        status.risk.limits = [SessionStatus.Limit(name: "maxActivePositions", limit: 2, used: 1, unit: "positions")]
        let text = MetricsExporter().render(status, log: LogTail.Counts(), fresh: true)
        let families = Set(text.split(separator: "\n").filter { $0.hasPrefix("# TYPE ") }.map { $0.split(separator: " ")[2] })
        let queried = try Regex("ibtrader_[a-z_]+")
        let names = Set(dashboard.matches(of: queried).map { String(dashboard[$0.range]) }
            .map { $0.replacingOccurrences(of: "_bucket", with: "") })
        #expect(names.count >= 20)
        for name in names.sorted() { #expect(families.contains(Substring(name)), "\(name) is queried but not exposed") }
    }
}
