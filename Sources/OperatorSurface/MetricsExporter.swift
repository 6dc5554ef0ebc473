import CoreMetrics
import LiveSession
import Prometheus
import Synchronization

/// `/metrics`: the session's snapshot in Prometheus's text format, through swift-prometheus's registry, and the
/// runner's latencies through swift-metrics timers backed by the same registry. Names are `ibtrader_…`; money in the
/// account's currency; one series per symbol for positions (a closed position's series goes away).
///
/// Gauges are set from the snapshot at each scrape; counters follow the snapshot's totals (a total that went down,
/// a new session, starts the counter again, which Prometheus reads as a reset); the two histograms take each
/// observation as the runner makes it (`observe`).
public final class MetricsExporter: Sendable {
    /// The registry every family lives in.
    public let registry: PrometheusCollectorRegistry
    private let barToOrder: CoreMetrics.Timer
    private let journalWrite: CoreMetrics.Timer
    private let handles = Mutex(Handles())

    private struct Handles {
        var gauges: [String: Prometheus.Gauge] = [:]
        var counters: [String: (counter: Prometheus.Counter, total: Double)] = [:]
    }

    /// Creates an exporter with its histograms (0.1 ms … 10 s buckets, as `LatencyHistogram`'s).
    public init() {
        let registry = PrometheusCollectorRegistry()
        let factory = PrometheusMetricsFactory(registry: registry)
        let buckets = LatencyHistogram.defaultBounds.map { Duration.nanoseconds(Int64(($0 * 1e9).rounded())) }
        func timer(_ name: String, _ help: String) -> CoreMetrics.Timer {
            let histogram = registry.makeDurationHistogram(descriptor: Self.descriptor(name, help), labels: [], buckets: buckets)
            return CoreMetrics.Timer(label: "ibtrader_\(name)", dimensions: [], handler: histogram, factory: factory)
        }
        self.registry = registry
        barToOrder = timer("bar_to_order_seconds", "From a bar taken from the inbox to each of its orders handed to the connection.")
        journalWrite = timer("journal_write_seconds", "Each journal write (a transaction).")
    }

    /// `ibtrader_<name>` with its help line.
    private static func descriptor(_ name: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "ibtrader", metricName: name, unitName: "", helpText: help)
    }

    /// Records one latency.
    public func observe(_ latency: LatencyKind, seconds: Double) {
        let nanoseconds = Int64((max(0, seconds) * 1e9).rounded())
        switch latency {
        case .barToOrder: barToOrder.recordNanoseconds(nanoseconds)
        case .journalWrite: journalWrite.recordNanoseconds(nanoseconds)
        }
    }

    /// The exposition after taking in `status` (nothing but `ibtrader_up 0` and the log's counters without one)
    /// and the log's counters; `fresh`: the session published recently.
    public func render(_ status: SessionStatus?, log: LogTail.Counts, fresh: Bool) -> String {
        handles.withLock { handles in
            var touched: Set<String> = []
            func key(_ name: String, _ labels: [(String, String)]) -> String {
                name + "{" + labels.map { "\($0.0)=\($0.1)" }.joined(separator: ",") + "}"
            }
            func gauge(_ name: String, _ help: String, _ samples: [([(String, String)], Double)]) {
                for (labels, value) in samples where value.isFinite {
                    let id = key(name, labels)
                    touched.insert(id)
                    let gauge = handles.gauges[id] ?? registry.makeGauge(descriptor: Self.descriptor(name, help), labels: labels)
                    handles.gauges[id] = gauge
                    gauge.set(value)
                }
            }
            func counter(_ name: String, _ help: String, _ samples: [([(String, String)], Double)]) {
                for (labels, total) in samples where total.isFinite {
                    let id = key(name, labels)
                    var entry = handles.counters[id]
                    if let existing = entry, total < existing.total {
                        registry.unregisterCounter(existing.counter)
                        entry = nil
                    }
                    var (counter, seen) = entry ?? (registry.makeCounter(descriptor: Self.descriptor(name, help), labels: labels), 0)
                    if total > seen { counter.increment(by: total - seen) }
                    seen = max(seen, total)
                    handles.counters[id] = (counter, seen)
                }
            }
            let up = status != nil && fresh ? 1.0 : 0
            gauge("up", "1 while a session runs and its loop answered within 10 s.", [([], up)])
            counter(
                "log_messages_total", "Log messages at warning level or above, by level.",
                [([("level", "warning")], Double(log.warnings)), ([("level", "error")], Double(log.errors)),
                 ([("level", "critical")], Double(log.critical))])
            if let status { snapshot(status, gauge, counter) }
            // A series the snapshot no longer has (a closed position, a finished order state) goes away.
            for (id, stale) in handles.gauges where !touched.contains(id) && status != nil {
                registry.unregisterGauge(stale)
                handles.gauges[id] = nil
            }
            return registry.emitToString()
        }
    }

    private func snapshot(
        _ status: SessionStatus,
        _ gauge: (String, String, [([(String, String)], Double)]) -> Void,
        _ counter: (String, String, [([(String, String)], Double)]) -> Void
    ) {
        func one(_ value: Double) -> [([(String, String)], Double)] { [([], value)] }
        func flag(_ on: Bool) -> Double { on ? 1 : 0 }
        let phases = ["connecting", "starting", "running", "reconnecting", "stopping", "finished"]
        gauge("session_phase", "The session's phase (1 for the current one).", phases.map { ([("phase", $0)], flag(status.phase == $0)) })
        let connection = status.connection
        gauge("connected", "1 while connected to TWS / IB Gateway.", one(flag(connection.connected)))
        gauge("ib_connectivity", "1 while TWS is connected to IB (0 after 1100, until 1101 / 1102).", one(flag(connection.ib == "connected")))
        counter("reconnects_total", "Reconnections to TWS / IB Gateway.", one(Double(connection.reconnects)))
        let states = ["active", "entries paused", "no new orders", "halted"]
        gauge(
            "trading_state", "Whether the bot may trade (1 for the current state).",
            states.map { ([("state", $0)], flag(status.trading.state == $0)) })
        gauge("kill_switch", "1 while the operator's kill switch is engaged.", one(flag(status.trading.killSwitch)))
        let money = status.money
        gauge("equity", "Equity (cash + positions at their last price).", one(money.equity))
        gauge("cash", "Cash.", one(money.cash))
        gauge("realized_pnl", "Realized P&L of the run's books.", one(money.realizedPnL))
        gauge("unrealized_pnl", "Unrealized P&L at the last prices.", one(money.unrealizedPnL))
        gauge("gross_exposure", "Sum of the positions' absolute values.", one(money.grossExposure))
        if let today = money.todayPnL { gauge("today_pnl", "Equity change since the day's start (UTC).", one(today)) }
        if let drawdown = money.drawdownPercent { gauge("drawdown_percent", "Equity below its peak, in percent.", one(drawdown)) }
        if let buyingPower = money.buyingPower {
            gauge("buying_power", "Equity less the book's initial margin (with the margin rule on).", one(buyingPower))
        }
        counter("commissions_total", "Commissions booked this run.", one(money.commissions))
        if let balances = money.balances {
            // Every money figure above is in the account's currency; these are the other currencies' own amounts.
            gauge("currency_cash", "Cash held in a currency other than the account's, in it.", balances.map { ([("currency", $0.currency)], $0.cash) })
            gauge(
                "exchange_rate", "The account's currency per unit of another (its pair's latest price; 0 before the first).",
                balances.map { ([("currency", $0.currency)], $0.rate) })
        }
        gauge("position_quantity", "Shares held (negative: short).", status.positions.map { ([("symbol", $0.symbol)], $0.quantity) })
        gauge(
            "position_broker_quantity", "Shares the broker held at its last look (all holders), beside position_quantity.",
            status.positions.compactMap { row in row.brokerQuantity.map { ([("symbol", row.symbol)], $0) } })
        gauge(
            "position_mismatch", "1 while the position check has a confirmed difference with the broker's book.",
            status.positions.compactMap { row in row.brokerQuantity.map { _ in ([("symbol", row.symbol)], flag(!row.agreesWithBroker)) } })
        gauge(
            "bar_feed_silent", "1 while a symbol's bar feed is found dead (no bar for data.deadFeedAfter in trading hours).",
            status.connection.marketData.map { ([("symbol", $0.symbol)], flag($0.type == "silent")) })
        gauge(
            "position_market_value", "Position value at the last price.",
            status.positions.map { ([("symbol", $0.symbol)], $0.marketValue) })
        gauge(
            "position_unprotected", "1 for a position without a working stop covering it.",
            status.positions.map { ([("symbol", $0.symbol)], flag(!$0.protected)) })
        gauge("working_orders", "Orders working at the broker.", one(Double(status.orders.count)))
        let byState = Dictionary(grouping: status.orders, by: \.state).mapValues(\.count)
        gauge(
            "working_orders_by_state", "Working orders by their state.",
            byState.keys.sorted().map { ([("state", $0)], Double(byState[$0] ?? 0)) })
        counter("fills_total", "Fills booked this run.", one(Double(status.counts.fills)))
        counter("orders_total", "Orders, cancels and modifications sent this run.", one(Double(status.counts.orders)))
        counter("bars_total", "Strategy bars taken this run.", one(Double(status.counts.bars)))
        counter("trading_halts_total", "Trading halts of traded symbols this run.", one(Double(status.counts.halts)))
        gauge("halted_symbols", "Traded symbols halted by their exchange now.", one(Double(status.trading.haltedSymbols.count)))
        counter("risk_denials_total", "Orders the risk rules denied this run.", one(Double(status.risk.denials)))
        // A family of its own: one name may not carry two label sets.
        counter(
            "risk_denials_by_rule_total", "Orders the risk rules denied this run, by rule.",
            status.risk.denialsByRule.keys.sorted().map { ([("rule", $0)], Double(status.risk.denialsByRule[$0] ?? 0)) })
        gauge("risk_limit", "A configured risk limit.", status.risk.limits.map { ([("limit", $0.name)], $0.limit) })
        gauge(
            "risk_limit_used", "How much of a risk limit is used now (same unit as the limit).",
            status.risk.limits.compactMap { limit in limit.used.map { ([("limit", limit.name)], $0) } })
        if let heard = connection.lastHeardSecondsAgo {
            gauge("gateway_silence_seconds", "Seconds since TWS / IB Gateway last sent anything.", one(heard))
        }
        if let trip = connection.roundTripMilliseconds {
            gauge("gateway_round_trip_seconds", "The latest round trip of a small request (reqCurrentTime, reqPositions).", one(trip / 1000))
        }
        if let days = connection.gatewayDesupportDaysLeft {
            gauge(
                "gateway_desupport_days", "Days until IB desupports the gateway's build (its 2172 warning; New York dates).",
                one(Double(days)))
        }
        gauge(
            "farm_state", "Each data farm's state as TWS reported it (1 for the current one).",
            connection.farms.flatMap { farm in ["ok", "inactive", "broken"].map { ([("farm", farm.name), ("state", $0)], flag(farm.state == $0)) } })
        let budgets = status.budgets.connection
        gauge("outbound_queue_messages", "Messages waiting for the outbound rate limiter.", one(Double(budgets.queued)))
        gauge("outbound_rate_limit", "The outbound rate limit, messages per second.", one(Double(budgets.messagesPerSecond)))
        gauge("paced_requests_waiting", "Historical and real-time-bar requests held back by pacing now.", one(Double(budgets.pacedWaiting)))
        counter("pacing_waits_total", "Requests that waited for pacing (this connection).", one(Double(budgets.pacingWaits)))
        gauge(
            "historical_requests_in_window", "Historical-data requests within IB's pacing window (BID_ASK counts twice).",
            one(Double(budgets.historicalInWindow)))
        gauge(
            "historical_requests_window_limit", "IB's limit of historical-data requests per pacing window.",
            one(Double(budgets.historicalWindowLimit)))
        gauge("historical_requests_open", "Historical-data requests not yet answered in full.", one(Double(budgets.historicalOpen)))
        gauge("market_data_lines", "reqMktData lines open.", one(Double(status.budgets.marketDataLines)))
        gauge("realtime_bar_streams", "reqRealTimeBars streams open.", one(Double(status.budgets.realTimeBarStreams)))
    }
}
