import Simulation
import Analytics
import Backtest
import TraderConfig
import TradingEngine

extension BacktestSummaryReport {
    /// The report's parameters: the settings as the config spells them (not Swift's encoding of the strategy).
    static func parameters(
        _ configuration: TraderConfiguration, dataDescription: String, symbols: Int, benchmarkName: String?,
        periodsPerYear: Int
    ) -> [String: JSONValue] {
        let settings = configuration.backtest
        var parameters: [String: JSONValue] = [
            "strategy": .string(configuration.strategy.title), "data": .string(dataDescription),
            "symbols": .integer(symbols), "cash": .number(configuration.strategy.cash),
            "fill": .string(settings.fill), "commission": .string(settings.commission),
            "slippage_bps": .number(settings.slippageBps), "benchmark": .optional(benchmarkName),
            "slippage": .optional(settings.slippage), "participation": .optional(settings.participation),
            "latency_ms": .number(settings.latencyMs), "session": .string(settings.session),
            "periods_per_year": .integer(periodsPerYear), "start": .optional(settings.start),
            "end": .optional(settings.end),
        ]
        func object(_ shown: [ConfigShownValue]) -> JSONValue {
            .object(Dictionary(
                shown.map { ($0.path.hasPrefix(".") ? String($0.path.dropFirst()) : $0.path, JSONValue.string($0.text)) },
                uniquingKeysWith: { a, _ in a }))
        }
        parameters["strategy_parameters"] = object(
            configuration.strategy.choice.shownParameters(path: "", record: ConfigRecord()))
        if configuration.strategy.allocator != nil {
            parameters["allocation"] = object(
                AllocationSchema.schema.show(configuration.strategy.allocation, path: "", record: ConfigRecord()))
        }
        return parameters
    }

    var deniedOrders: Int { result.riskDenialCounts.values.reduce(0, +) }

    /// Orders, denials, scale-downs and open positions, for the terminal table.
    var runCounts: [(String, String)] {
        func byRule(_ counts: [RiskRuleKind: Int]) -> String {
            counts.isEmpty ? "" : " (" + counts.sorted { $0.key.rawValue < $1.key.rawValue }
                .map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ") + ")"
        }
        var rows = [
            ("Orders / fills", "\(result.orders.count) / \(result.fills.count)"),
            ("Risk denials", "\(deniedOrders)" + byRule(result.riskDenialCounts)),
            ("Scaled down to fit", "\(result.riskAdjustments.count)" + byRule(result.riskAdjustmentCounts)),
            ("Open positions at the end", "\(result.openPositions.count)"),
        ]
        if let rolls = rollsText { rows.append(("Futures rolls", rolls)) }
        return rows
    }

    /// How many rolls continuous futures positions made, what they cost and the first few.
    var rollsText: String? {
        let charges = result.rollCharges
        guard !charges.isEmpty else { return nil }
        var cost = 0.0
        for charge in charges { cost += charge.cost.doubleValue }
        let first: [String] = charges.prefix(3).map { "\(timeText($0.time)) \($0.from)→\($0.to) \($0.quantity)" }
        let more = charges.count > 3 ? ", …" : ""
        return "\(charges.count), cost " + String(format: "%.2f", cost) + " (in commissions; "
            + first.joined(separator: ", ") + more + ")"
    }

    /// The peak gross exposure and the lowest cash, so a reader sees whether the run borrowed.
    var exposureRows: [(String, String)] {
        guard let extremes = exposure else { return [] }
        return [
            ("Peak gross exposure", String(format: "%.3f × equity", extremes.peakGrossRatio)
                + " (\(timeText(extremes.peakGrossTime)))"),
            ("Lowest cash", "\(extremes.lowestCash.centsDescription) (\(timeText(extremes.lowestCashTime)))"),
        ] + (result.lowestBuyingPower.map { low in
            [("Lowest buying power", "\(low.value.centsDescription) (\(timeText(low.time)); equity less initial margin)")]
        } ?? [])
    }

    /// The rule fills met (`account.type`, `risk.allowLeverage`), in words.
    var fundsRuleText: String {
        switch fundsRule {
        case .cash:
            accountType == "cash" ? "cash pays every purchase (cash account)"
                : "cash pays every purchase (margin account without risk.allowLeverage)"
        case let .margin(initial):
            "equity covers \(RiskProfile.number(initial * 100)) % initial margin (margin account with risk.allowLeverage)"
        }
    }

    /// The fills buying power cut or refused, counted, with the first few.
    var fundsRows: [(String, String)] {
        let cuts = result.fundsCuts
        let refused = cuts.filter { $0.filled.isZero }.count
        var text = "\(fundsRuleText): "
        if cuts.isEmpty {
            text += "no fill cut"
        } else {
            text += "\(cuts.count - refused) fill(s) cut, \(refused) refused ("
                + cuts.prefix(3).map { "\(timeText($0.time)) \($0.symbol) \($0.filled) of \($0.asked)" }.joined(separator: ", ")
                + (cuts.count > 3 ? ", …" : "") + "; orders.csv gives each reason)"
        }
        return [("Buying power at the fill", text)]
    }

    /// summary.json's `buying_power_at_fill`.
    var fundsJSON: JSONValue {
        let rule: String = switch fundsRule {
        case .cash: "cash"
        case let .margin(initial): "margin \(RiskProfile.number(initial * 100)) %"
        }
        return .object([
            "account_type": .string(accountType), "rule": .string(rule),
            "cut": .integer(result.fundsCuts.filter { !$0.filled.isZero }.count),
            "refused": .integer(result.fundsCuts.filter { $0.filled.isZero }.count),
            "fills": .array(result.fundsCuts.map { cut in
                .object([
                    "order_id": .integer(Int(cut.orderID.rawValue)), "symbol": .string(cut.symbol.rawValue),
                    "time": .string(timeText(cut.time)), "asked": .number(cut.asked.doubleValue),
                    "filled": .number(cut.filled.doubleValue), "price": .number(cut.price.doubleValue),
                    "reason": .string(cut.reason),
                ])
            }),
        ])
    }

    /// The account's currency and, for each other currency, its balance at the end and the rate that converted it:
    /// none when every instrument is priced in the account's currency.
    var currencyRows: [(String, String)] {
        guard !result.balances.isEmpty else { return [] }
        let account = result.accountCurrency
        var rows = [("Account currency", "\(account): equity, cash, P&L and commissions above are in \(account)")]
        for balance in result.balances {
            var how = ""
            if let pair = result.ratePair(of: balance.currency), balance.rate > 0 {
                let price = pair.inverted ? 1 / balance.rate : balance.rate
                how = "; at " + Self.rateText(balance.rate) + " \(account) per \(balance.currency) ("
                    + (pair.inverted ? "1 / " : "") + "\(pair.symbol.rawValue) " + Self.rateText(price) + ", its last close)"
            }
            rows.append((
                "\(balance.currency) balance",
                "cash \(balance.cash.centsDescription) \(balance.currency), positions \(balance.value.centsDescription) "
                    + "\(balance.currency)\(how)"))
        }
        return rows
    }

    /// summary.json's `currencies`: each currency other than the account's, its balance and last rate.
    var currenciesJSON: JSONValue {
        .array(result.balances.map { balance in
            .object([
                "currency": .string(balance.currency), "cash": .number(balance.cash.doubleValue),
                "positions_value": .number(balance.value.doubleValue), "rate": .number(balance.rate),
                "rate_pair": .optional(result.ratePair(of: balance.currency)?.symbol.rawValue),
                "rate_inverted": .bool(result.ratePair(of: balance.currency)?.inverted ?? false),
            ])
        })
    }

    /// A rate with the digits a currency pair is quoted in.
    static func rateText(_ rate: Double) -> String {
        rate >= 10 ? String(format: "%.3f", rate) : String(format: "%.5f", rate)
    }

    /// A warning when the book went above its gross exposure limit after all, with what rules it out: a market
    /// entry is checked at the signal bar's close and fills at the next open, so a gap up carries a full book over
    /// (and into negative cash); an entry capped by a limit is checked at its cap, but a rebalance's buys may still
    /// count on a sale's proceeds before the sale has filled at a lower open, unless buys wait for settled cash.
    public var exposureWarning: String? {
        guard let extremes = exposure, let configured = riskProfile.config.maxGrossExposureRatio else { return nil }
        // The safety default is a sizing target below 1 × equity (the cash buffer); what must not be passed is 1.
        let isSafetyDefault = riskProfile.lines.contains { $0.key == "maxGrossExposureRatio" && $0.origin == .safetyDefault }
        let limit = isSafetyDefault ? max(configured, 1) : configured
        guard extremes.peakGrossRatio > limit + 1e-9 else { return nil }
        let cash = extremes.lowestCash.units < 0
            ? "; cash fell to \(extremes.lowestCash.centsDescription) on \(timeText(extremes.lowestCashTime))" : ""
        let capped = if case .limit? = execution?.entry { true } else { false }
        let settled = riskProfile.config.requireSettledCash == true && settlementDays > 0
        let why: String
        switch (capped, settled) {
        case (false, _):
            why = "Market entries are sized and checked at the signal bar's close and fill at the next open, which "
                + "gapped beyond it. To rule this out, cap entries (orders.entry: limit with orders.limitOffset, e.g. "
                + "50 bps: an entry is checked at its cap and never pays more)"
                + (settled
                    ? "" : " and buy with settled cash only (risk.requireSettledCash with backtest.settlementDays 1)")
                + "; or leave room with a smaller invested fraction or position size."
        case (true, false):
            why = "Entries are checked at their cap, but a buy counted on a sale's proceeds before the sale filled "
                + "at a lower open. To rule this out, buy with settled cash only (risk.requireSettledCash with "
                + "backtest.settlementDays 1)."
        case (true, true):
            why = "Prices moved the book beyond it after its entries (a short position's rise, say)."
        }
        return String(format: "gross exposure reached %.3f × equity", extremes.peakGrossRatio)
            + " on \(timeText(extremes.peakGrossTime)), above "
            + (isSafetyDefault ? "1 × equity" : "risk.maxGrossExposureRatio \(RiskProfile.number(limit))") + "\(cash). "
            + why
    }

    /// A warning when buying power went negative: the book's initial margin exceeded its equity at a step's end.
    var buyingPowerWarning: String? {
        guard let low = result.lowestBuyingPower, low.value.units < 0 else { return nil }
        return "buying power fell to \(low.value.centsDescription) on \(timeText(low.time)): the book's initial margin "
            + "exceeded its equity (entries are sized at the signal bar's close and fill at the next open; below the "
            + "maintenance margin the book is reduce-only)."
    }

    /// The limits in effect, one row each, with the origin of those the configuration did not set.
    var riskProfileRows: [(String, String)] {
        let limits = riskProfile.lines.filter { $0.origin != .off }
        guard !limits.isEmpty else { return [("Risk profile", "no limits")] }
        return limits.enumerated().map { k, line in
            (k == 0 ? "Risk profile" : "", "\(line.key) \(line.value)\(line.originNote)")
        }
    }

    /// What the execution style did: styled entries (`…-E<time>`), those that filled (in part), and those whose rest
    /// went out at market (`…-MKT`).
    var executionCounts: (entries: Int, filled: Int, toMarket: Int)? {
        guard let execution, !execution.leavesEntriesAlone || execution.timeout != nil else { return nil }
        let styled = result.orders.filter { $0.clientOrderID.rawValue.contains("-E") }
        let entries = styled.filter { !$0.clientOrderID.rawValue.hasSuffix("-MKT") }
        return (entries.count, entries.filter { $0.filledQuantity.units > 0 }.count, styled.count - entries.count)
    }

    /// The summary's rows about the execution style (none without one).
    var executionRows: [(String, String)] {
        guard let execution else { return [] }
        var rows = [("Execution", execution.summary)]
        if let counts = executionCounts, counts.entries > 0 {
            rows.append(("", "\(counts.entries) entries worked: \(counts.filled) filled, \(counts.toMarket) rests sent at market"))
        }
        return rows
    }

    /// summary.json's run figures beyond the metrics.
    func summaryExtra(engineSeconds: Double) -> [String: JSONValue] {
        let bars = result.barsProcessed
        func counts(_ byRule: [RiskRuleKind: Int]) -> JSONValue {
            .object(Dictionary(uniqueKeysWithValues: byRule.map { ($0.key.rawValue, JSONValue.integer($0.value)) }))
        }
        return [
            "bars_processed": .integer(bars), "engine_seconds": .number(engineSeconds),
            "engine_bars_per_second": .number(Double(bars) / max(engineSeconds, 1e-9)),
            "orders": .integer(result.orders.count), "fills": .integer(result.fills.count),
            "risk_denials": .integer(deniedOrders), "risk_denials_by_rule": counts(result.riskDenialCounts),
            "order_list_hash": .string(result.orderListHash),
            "risk_adjustments": .integer(result.riskAdjustments.count),
            "peak_gross_exposure_ratio": exposure.map { .number($0.peakGrossRatio) } ?? .null,
            "lowest_cash": exposure.map { .number($0.lowestCash.doubleValue) } ?? .null,
            "account_currency": .string(result.accountCurrency), "currencies": currenciesJSON,
            "lowest_buying_power": result.lowestBuyingPower.map { .number($0.value.doubleValue) } ?? .null,
            "buying_power_at_fill": fundsJSON,
            "risk_adjustments_by_rule": counts(result.riskAdjustmentCounts),
            "risk_profile": .object(Dictionary(uniqueKeysWithValues: riskProfile.lines.map {
                var fields: [String: JSONValue] = ["value": .string($0.value), "origin": .string($0.origin.rawValue)]
                if let reason = $0.reason { fields["reason"] = .string(reason) }
                return ($0.key, JSONValue.object(fields))
            })),
            "execution": execution.map { style in
                var fields: [String: JSONValue] = ["style": .string(style.summary)]
                if let counts = executionCounts {
                    fields["styled_entries"] = .integer(counts.entries)
                    fields["filled"] = .integer(counts.filled)
                    fields["rests_sent_at_market"] = .integer(counts.toMarket)
                }
                return .object(fields)
            } ?? .null,
            "warnings": .array(allWarnings.map(JSONValue.string)),
            "futures_rolls": .array(result.rollCharges.map {
                var fields: [String: JSONValue] = [
                    "symbol": .string($0.symbol.rawValue), "time": .string(timeText($0.time)),
                    "from": .string($0.from.description), "to": .string($0.to.description),
                    "quantity": .number($0.quantity.doubleValue), "cost": .number($0.cost.doubleValue),
                ]
                // Over prices as traded: the prices the trade left the old month and entered the new one at.
                if let legs = $0.legs {
                    fields["closed_at"] = .number(legs.closedAt.doubleValue)
                    fields["opened_at"] = .number(legs.openedAt.doubleValue)
                }
                return .object(fields)
            }),
            "open_positions": .array(result.openPositions.map {
                .object([
                    "symbol": .string($0.symbol.rawValue), "quantity": .number($0.quantity.doubleValue),
                    "average_price": .number($0.averagePrice.doubleValue), "last_price": .number($0.lastPrice.doubleValue),
                    "unrealized_pnl": .number($0.unrealizedPnL.doubleValue),
                ])
            }),
        ]
    }
}
