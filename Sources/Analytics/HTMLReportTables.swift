/// The table sections of ``HTMLReport``.
enum HTMLReportTables {
    private static let percent = ValueFormat.percent(decimals: 2)
    private static let ratio = ValueFormat.number(decimals: 2)
    private static let money = ValueFormat.number(decimals: 2)

    /// Four small tables of metrics side by side: returns, risk, benchmark, trades.
    static func summary(_ input: HTMLReportInput) -> String {
        let m = input.report.metrics
        let t = input.report.tradeStatistics
        let d = m.drawdown
        // The figures annualised from the run, flagged on a run under three months as the terminal summary flags them.
        func annualised(_ label: String) -> String { m.isShortSample ? label + " (under 3 months: not meaningful)" : label }
        let returns: [(String, String)] = [
            ("Total return", percent.string(m.totalReturn)),
            (annualised("CAGR"), percent.string(m.cagr)),
            ("Start equity", money.string(m.startEquity)),
            ("Final equity", money.string(m.finalEquity)),
        ]
        let risk: [(String, String)] = [
            (annualised("Annual volatility"), percent.string(m.annualVolatility)),
            (annualised("Sharpe"), ratio.string(m.sharpe)),
            (annualised("Sortino"), ratio.string(m.sortino)),
            ("Downside deviation (ann.)", percent.string(m.downsideDeviationAnnualized)),
            ("Max drawdown", percent.string(m.maxDrawdown)),
            ("Drawdown peak", d.map { CivilTime.format($0.peakTime) } ?? "–"),
            ("Drawdown trough", d.map { CivilTime.format($0.troughTime) } ?? "–"),
            ("Recovery", d.map { $0.recoveryTime.map(CivilTime.format) ?? "not recovered" } ?? "–"),
            ("Drawdown length", d.map { "\($0.durationBars) bars / \($0.durationDays) days" } ?? "–"),
            (annualised("Calmar"), ratio.string(m.calmar)),
        ]
        let benchmark: [(String, String)] = [
            ("Beta", ratio.string(m.beta)),
            ("Correlation", ratio.string(m.benchmarkCorrelation)),
            ("Alpha (quantstats, arithmetic)", percent.string(m.alphaQuantstats)),
            ("Alpha (empyrical, geometric)", percent.string(m.alphaEmpyrical)),
        ]
        let trades: [(String, String)] = [
            ("Trades", t.tradesKnown ? String(t.trades) : "not known (an equity curve alone)"),
            ("Win rate", percent.string(t.winRate)),
            ("Profit factor", ratio.string(t.profitFactor)),
            ("Expectancy", money.string(t.expectancy)),
            ("Average win", money.string(t.averageWin)),
            ("Average loss", money.string(t.averageLoss)),
            ("Largest win", money.string(t.largestWin)),
            ("Largest loss", money.string(t.largestLoss)),
            ("Average holding", t.averageHoldingDays.map { ratio.string($0) + " days" } ?? "–"),
            ("Exposure", percent.string(t.exposure)),
            ("Turnover", t.turnover.map { ratio.string($0) + "×" } ?? "–"),
            ("Commission", !t.tradesKnown ? "–" : input.report.commissions?.text ?? money.string(t.totalCommission)),
        ]
        var html = "<div class=\"metrics\">\n"
        html += keyValueTable("Returns", returns)
        html += keyValueTable("Against \(input.benchmarkName)", benchmark)
        html += keyValueTable("Risk", risk)
        html += keyValueTable("Trades", trades)
        return html + "</div>"
    }

    static func parameters(_ parameters: [String: String]) -> String {
        keyValueTable("", parameters.keys.sorted().map { ($0, parameters[$0] ?? "") }, className: "parameters")
    }

    private static func keyValueTable(_ caption: String, _ rows: [(String, String)], className: String = "") -> String {
        var html = className.isEmpty ? "<table>" : "<table class=\"\(className)\">"
        if !caption.isEmpty { html += "<caption>\(HTMLText.escape(caption))</caption>" }
        for (key, value) in rows {
            html += "<tr><th scope=\"row\">\(HTMLText.escape(key))</th><td>\(HTMLText.escape(value))</td></tr>"
        }
        return html + "</table>\n"
    }

    /// Year × month table, cells coloured green (gain) or red (loss) by size.
    static func monthlyHeatmap(_ table: MonthlyReturns) -> String {
        guard !table.years.isEmpty else { return "<p class=\"note\">No data.</p>" }
        let names = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let scale = max(0.0001, table.years.flatMap { $0.months.compactMap { $0 } }.map(abs).filter(\.isFinite).max() ?? 0)
        var html = "<table class=\"heatmap\"><thead><tr><th>Year</th>"
        html += names.map { "<th>\($0)</th>" }.joined() + "<th>Total</th></tr></thead><tbody>"
        for year in table.years {
            html += "<tr><td class=\"year\">\(year.year)</td>"
            for value in year.months { html += cell(value, scale: scale, className: nil) }
            html += cell(year.total, scale: nil, className: "total") + "</tr>"
        }
        return html + "</tbody></table>"
    }

    private static func cell(_ value: Double?, scale: Double?, className: String?) -> String {
        let classAttribute = className.map { " class=\"\($0)\"" } ?? ""
        guard let value, value.isFinite else { return "<td\(classAttribute)></td>" }
        var style = ""
        if let scale {
            let strength = min(1, abs(value) / scale)
            let alpha = ValueFormat.coordinate(0.12 + 0.68 * strength)
            style = value >= 0 ? " style=\"background:rgba(46,139,87,\(alpha))\"" : " style=\"background:rgba(192,57,43,\(alpha))\""
        }
        return "<td\(classAttribute)\(style)>\(ValueFormat.percent(decimals: 1).string(value))</td>"
    }

    /// The trade list, at most `limit` rows, with a note when trades were left out.
    static func trades(_ trades: [TradeRecord], limit: Int) -> String {
        guard !trades.isEmpty else { return "<p class=\"note\">No closed trades.</p>" }
        let shown = trades.prefix(max(0, limit))
        var html = ""
        if shown.count < trades.count {
            html += "<p class=\"note\">Showing the first \(shown.count) of \(trades.count) trades; "
            html += "the full list is in the trades CSV.</p>\n"
        }
        html += "<table class=\"trades\"><thead><tr><th>#</th><th class=\"text\">Symbol</th><th class=\"text\">Side</th><th>Quantity</th>"
        html += "<th>Entry time</th><th>Entry price</th><th>Exit time</th><th>Exit price</th><th>P&amp;L</th>"
        html += "<th>Commission</th></tr></thead><tbody>"
        for (index, trade) in shown.enumerated() {
            let pnlColor = trade.pnl > 0 ? "#1e7b45" : trade.pnl < 0 ? "#b03a2e" : "#222"
            html += "<tr><td>\(index + 1)</td><td class=\"text\">\(HTMLText.escape(trade.symbol))</td>"
            html += "<td class=\"text\">\(trade.side.rawValue)</td>"
            html += "<td>\(ValueFormat.trimmed(trade.quantity))</td>"
            html += "<td>\(CivilTime.format(trade.entryTime))</td><td>\(money.string(trade.entryPrice))</td>"
            html += "<td>\(CivilTime.format(trade.exitTime))</td><td>\(money.string(trade.exitPrice))</td>"
            html += "<td style=\"color:\(pnlColor)\">\(money.string(trade.pnl))</td><td>\(money.string(trade.commission))</td></tr>"
        }
        return html + "</tbody></table>"
    }
}
