import LiveSession

/// The Prometheus text exposition (version 0.0.4) of a session's snapshot: what a scraper alerts on. Names are
/// `ibtrader_…`; money in the account's currency; one series per symbol for positions.
public enum MetricsText {
    /// The exposition of `status` (nothing but `ibtrader_up 0` without one) and the log's counters; `fresh`: the
    /// session published recently.
    public static func render(_ status: SessionStatus?, log: LogTail.Counts, fresh: Bool) -> String {
        var out = ""
        func metric(_ name: String, _ type: String, _ help: String, _ samples: [(labels: String, value: Double)]) {
            out += "# HELP ibtrader_\(name) \(help)\n# TYPE ibtrader_\(name) \(type)\n"
            for sample in samples {
                out += "ibtrader_\(name)\(sample.labels.isEmpty ? "" : "{\(sample.labels)}") \(number(sample.value))\n"
            }
        }
        metric("up", "gauge", "1 while a session runs and its loop answered within 10 s.", [("", status != nil && fresh ? 1 : 0)])
        metric(
            "log_messages_total", "counter", "Log messages at warning level or above, by level.",
            [("level=\"warning\"", Double(log.warnings)), ("level=\"error\"", Double(log.errors)),
             ("level=\"critical\"", Double(log.critical))])
        guard let status else { return out }
        let phases = ["connecting", "starting", "running", "reconnecting", "stopping", "finished"]
        metric(
            "session_phase", "gauge", "The session's phase (1 for the current one).",
            phases.map { ("phase=\"\($0)\"", status.phase == $0 ? 1 : 0) })
        metric("connected", "gauge", "1 while connected to TWS / IB Gateway.", [("", status.connection.connected ? 1 : 0)])
        metric(
            "ib_connectivity", "gauge", "1 while TWS is connected to IB (0 after 1100, until 1101 / 1102).",
            [("", status.connection.ib == "connected" ? 1 : 0)])
        metric("reconnects_total", "counter", "Reconnections to TWS / IB Gateway.", [("", Double(status.connection.reconnects))])
        let states = ["active", "entries paused", "no new orders", "halted"]
        metric(
            "trading_state", "gauge", "Whether the bot may trade (1 for the current state).",
            states.map { ("state=\"\($0)\"", status.trading.state == $0 ? 1 : 0) })
        metric("kill_switch", "gauge", "1 while the operator's kill switch is engaged.", [("", status.trading.killSwitch ? 1 : 0)])
        let money = status.money
        metric("equity", "gauge", "Equity (cash + positions at their last price).", [("", money.equity)])
        metric("cash", "gauge", "Cash.", [("", money.cash)])
        metric("realized_pnl", "gauge", "Realized P&L of the run's books.", [("", money.realizedPnL)])
        metric("unrealized_pnl", "gauge", "Unrealized P&L at the last prices.", [("", money.unrealizedPnL)])
        metric("gross_exposure", "gauge", "Sum of the positions' absolute values.", [("", money.grossExposure)])
        if let today = money.todayPnL { metric("today_pnl", "gauge", "Equity change since the day's start (UTC).", [("", today)]) }
        if let drawdown = money.drawdownPercent {
            metric("drawdown_percent", "gauge", "Equity below its peak, in percent.", [("", drawdown)])
        }
        metric(
            "position_quantity", "gauge", "Shares held (negative: short).",
            status.positions.map { ("symbol=\"\(escape($0.symbol))\"", $0.quantity) })
        metric(
            "position_market_value", "gauge", "Position value at the last price.",
            status.positions.map { ("symbol=\"\(escape($0.symbol))\"", $0.marketValue) })
        metric(
            "position_unprotected", "gauge", "1 for a position without a working stop covering it.",
            status.positions.map { ("symbol=\"\(escape($0.symbol))\"", $0.protected ? 0 : 1) })
        metric("working_orders", "gauge", "Orders working at the broker.", [("", Double(status.orders.count))])
        metric("fills_total", "counter", "Fills booked this run.", [("", Double(status.counts.fills))])
        metric("orders_total", "counter", "Orders, cancels and modifications sent this run.", [("", Double(status.counts.orders))])
        metric("bars_total", "counter", "Strategy bars taken this run.", [("", Double(status.counts.bars))])
        metric("trading_halts_total", "counter", "Trading halts of traded symbols this run.", [("", Double(status.counts.halts))])
        metric("halted_symbols", "gauge", "Traded symbols halted by their exchange now.", [("", Double(status.trading.haltedSymbols.count))])
        metric("risk_denials_total", "counter", "Orders the risk rules denied this run.", [("", Double(status.risk.denials))])
        metric(
            "risk_limit", "gauge", "A configured risk limit.",
            status.risk.limits.map { ("limit=\"\($0.name)\"", $0.limit) })
        metric(
            "risk_limit_used", "gauge", "How much of a risk limit is used now (same unit as the limit).",
            status.risk.limits.compactMap { limit in limit.used.map { ("limit=\"\(limit.name)\"", $0) } })
        if let heard = status.connection.lastHeardSecondsAgo {
            metric("gateway_silence_seconds", "gauge", "Seconds since TWS / IB Gateway last sent anything.", [("", heard)])
        }
        if let trip = status.connection.roundTripMilliseconds {
            metric(
                "gateway_round_trip_seconds", "gauge", "The latest round trip of a small request (reqCurrentTime, reqPositions).",
                [("", trip / 1000)])
        }
        metric(
            "farm_state", "gauge", "Each data farm's state as TWS reported it (1 for the current one).",
            status.connection.farms.flatMap { farm in
                ["ok", "inactive", "broken"].map { ("farm=\"\(escape(farm.name))\",state=\"\($0)\"", farm.state == $0 ? 1 : 0) }
            })
        let orderStates = Dictionary(grouping: status.orders, by: \.state).mapValues(\.count)
        metric(
            "working_orders_by_state", "gauge", "Working orders by their state.",
            orderStates.keys.sorted().map { ("state=\"\(escape($0))\"", Double(orderStates[$0] ?? 0)) })
        metric("commissions_total", "counter", "Commissions booked this run.", [("", money.commissions)])
        let budgets = status.budgets
        metric("outbound_queue_messages", "gauge", "Messages waiting for the outbound rate limiter.", [("", Double(budgets.queued))])
        metric("outbound_rate_limit", "gauge", "The outbound rate limit, messages per second.", [("", Double(budgets.messagesPerSecond))])
        metric("paced_requests_waiting", "gauge", "Historical and real-time-bar requests held back by pacing now.", [("", Double(budgets.pacedWaiting))])
        metric("pacing_waits_total", "counter", "Requests that waited for pacing (this connection).", [("", Double(budgets.pacingWaits))])
        metric(
            "historical_requests_in_window", "gauge", "Historical-data requests within IB's pacing window (BID_ASK counts twice).",
            [("", Double(budgets.historicalInWindow))])
        metric(
            "historical_requests_window_limit", "gauge", "IB's limit of historical-data requests per pacing window.",
            [("", Double(budgets.historicalWindowLimit))])
        metric("historical_requests_open", "gauge", "Historical-data requests not yet answered in full.", [("", Double(budgets.historicalOpen))])
        metric("market_data_lines", "gauge", "reqMktData lines open.", [("", Double(budgets.marketDataLines))])
        metric("realtime_bar_streams", "gauge", "reqRealTimeBars streams open.", [("", Double(budgets.realTimeBarStreams))])
        histogram(
            "bar_to_order_seconds", "From a bar taken from the inbox to each of its orders handed to the connection.",
            status.latency.barToOrder, into: &out)
        histogram("journal_write_seconds", "Each journal write (a transaction).", status.latency.journalWrite, into: &out)
        return out
    }

    private static func histogram(_ name: String, _ help: String, _ histogram: LatencyHistogram, into out: inout String) {
        out += "# HELP ibtrader_\(name) \(help)\n# TYPE ibtrader_\(name) histogram\n"
        var cumulative = 0
        for (index, bound) in histogram.bounds.enumerated() {
            cumulative += histogram.counts[index]
            out += "ibtrader_\(name)_bucket{le=\"\(bound)\"} \(cumulative)\n"
        }
        out += "ibtrader_\(name)_bucket{le=\"+Inf\"} \(histogram.count)\n"
        out += "ibtrader_\(name)_sum \(number(histogram.sum))\nibtrader_\(name)_count \(histogram.count)\n"
    }

    private static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), value.magnitude < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }
}
