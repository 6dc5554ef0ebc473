import Foundation
import TWSClient
import TWSProtocol
import TradingModel

/// The exchanges behind `ibtrader history` and `ibtrader quote`: qualify the contract, make one request, and say
/// what came back in a person's terms. The caller bounds the whole exchange (`--timeout`).
public enum MarketDataQueries {
    /// A contract as a person names it: a stock's symbol, a future's or a pair's local symbol (`ESH4`, `EUR.USD`).
    static func name(_ contract: TWSContract) -> String {
        ["", "STK", "IND"].contains(contract.securityType) || contract.localSymbol.isEmpty ? contract.symbol : contract.localSymbol
    }

    /// A continuous future (`ES continuous`, IB's `CONTFUT`) as the bot trades it: the front month by the roll rule
    /// (`rollDays` business days before each last trading day) on the server's day, with a line that says so; any
    /// other contract as it is. IB streams no quotes for its continuous contract, and a person asking about
    /// `ES continuous` asks about the month the bot would hold.
    public static func tradedMonth(
        _ contract: TWSContract, _ client: TWSConnection, rollDays: Int = FutureSpec.defaultRollDays
    ) async -> (contract: TWSContract, note: String?) {
        guard contract.securityType.uppercased() == "CONTFUT",
            case .future(let future) = InstrumentKind(symbol: Symbol("\(contract.symbol) continuous")), future.month == nil
        else { return (contract, nil) }
        let now = (try? await client.currentTime()).map { Timestamp(seconds: $0) } ?? Timestamp(seconds: Int64(Date().timeIntervalSince1970))
        let day = FutureSpec.tradingDay(of: now)
        let month = future.spec.frontMonth(onDay: day, rollDays: rollDays)
        var traded = contract
        traded.securityType = "FUT"
        traded.lastTradeDateOrContractMonth = month.wireText
        let rollDay = Timestamp(nanoseconds: future.spec.rollDay(of: month, days: rollDays) * Timestamp.nanosecondsPerDay)
        return (
            traded,
            "\(contract.symbol) continuous is \(contract.symbol) \(month) on \(Timestamp(nanoseconds: day * Timestamp.nanosecondsPerDay).description.prefix(10)), "
                + "the month the bot trades until its roll day, \(rollDay.description.prefix(10)) (\(rollDays) business days "
                + "before its last trading day)"
        )
    }

    /// `ibtrader contract`: the contract's details (a continuous future's month's, said first) as lines.
    /// - Throws: `TraderError` naming `name` when the request fails or finds nothing.
    public static func contractText(_ client: TWSConnection, contract: TWSContract, name: String) async throws -> String {
        let (contract, note) = await tradedMonth(contract, client)
        let details: [TWSContractDetails]
        do { details = try await client.contractDetails(contract) } catch { throw TraderError("\(name): \(error)") }
        guard !details.isEmpty else { throw TraderError("\(name): no security definition found") }
        return (note.map { $0 + "\n\n" } ?? "") + contractText(details)
    }

    /// `ibtrader contract`'s lines: each qualified contract (a future with its month, multiplier and last trading
    /// day), a blank line between two.
    public static func contractText(_ details: [TWSContractDetails]) -> String {
        details.map { detail in
            let c = detail.contract
            var lines = [
                "symbol: \(c.symbol)", "conId: \(c.contractID)", "type: \(c.securityType)", "exchange: \(c.exchange)",
                "primary exchange: \(c.primaryExchange)", "currency: \(c.currency)", "local symbol: \(c.localSymbol)",
            ]
            if !c.lastTradeDateOrContractMonth.isEmpty {
                lines.append("contract month: \(detail.contractMonth), last trading day: \(c.lastTradeDateOrContractMonth)")
            }
            if !c.multiplier.isEmpty { lines.append("multiplier: \(c.multiplier)") }
            lines += ["long name: \(TWSText.unescapingUnicode(detail.longName))", "min tick: \(Price(approximately: detail.minTick))"]
            if !detail.industry.isEmpty { lines.append("industry: \(detail.industry) / \(detail.category)") }
            if !detail.timeZoneID.isEmpty { lines.append("time zone: \(detail.timeZoneID)") }
            if !detail.tradingHours.isEmpty { lines.append("trading hours: \(detail.tradingHours)") }
            if !detail.liquidHours.isEmpty { lines.append("liquid hours: \(detail.liquidHours)") }
            return lines.joined(separator: "\n")
        }.joined(separator: "\n\n")
    }

    /// Historical bars as CSV (`date,open,high,low,close,volume`): daily and larger bars as a plain date, intraday
    /// bars in UTC; the request asks for epoch-second dates ending now.
    /// - Throws: `TraderError` naming the symbol when the request fails or a bar's date cannot be read.
    public static func historyCSV(
        _ client: TWSConnection, contract: TWSContract, duration: String, barSize: String, whatToShow: String,
        regularHours: Bool
    ) async throws -> String {
        let (contract, note) = await tradedMonth(contract, client)
        if let note { FileHandle.standardError.write(Data((note + "\n").utf8)) }
        let details = try await client.qualify(contract)
        var query = TWSHistoricalBarsQuery(contract: details.contract, duration: duration, barSize: barSize)
        query.whatToShow = whatToShow
        query.useRTH = regularHours
        query.formatDate = 2
        query.endDateTime = ""
        let bars: [TWSBar]
        do {
            bars = try await client.historicalBars(query)
        } catch {
            throw TraderError("\(contract.symbol): \(error)")
        }
        var output = "date,open,high,low,close,volume\n"
        for bar in bars {
            guard let date = CLITime.barDate(bar.date) else {
                throw TraderError("\(contract.symbol): the server sent a bar date this tool cannot read: '\(bar.date)'")
            }
            output += "\(date),\(bar.open),\(bar.high),\(bar.low),\(bar.close),\(bar.volume.map { "\($0)" } ?? "")\n"
        }
        return output
    }

    /// A market data snapshot as lines: bid, ask, last, volume, close and whether the data is live or delayed.
    /// - Throws: `TraderError` naming the symbol when the snapshot fails.
    /// TWS's Halted tick (49) in words: 0 trading, 1 a halt, 2 a volatility pause (-1 or none: TWS did not say).
    static func haltText(_ value: Double?) -> String {
        switch value.map({ Int($0) }) {
        case 0: "no"
        case 1: "YES, trading is halted by the exchange (orders wait for the reopening)"
        case 2: "YES, a volatility trading pause (LULD; orders wait for the reopening)"
        default: "not reported by TWS"
        }
    }

    public static func quoteText(
        _ client: TWSConnection, contract: TWSContract, marketDataType: TWSMarketDataType
    ) async throws -> String {
        let (contract, note) = await tradedMonth(contract, client)
        let details = try await client.qualify(contract)
        let snapshot: TWSMarketSnapshot
        do {
            try await client.setMarketDataType(marketDataType)
            snapshot = try await client.marketDataSnapshot(contract: details.contract)
        } catch {
            throw TraderError("\(contract.symbol): \(error)")
        }
        func price(_ live: TWSTickType, _ delayed: TWSTickType) -> String {
            (snapshot.prices[live] ?? snapshot.prices[delayed]).map { $0 > 0 ? String($0) : "–" } ?? "–"
        }
        func size(_ live: TWSTickType, _ delayed: TWSTickType) -> String {
            (snapshot.sizes[live] ?? snapshot.sizes[delayed]).map { "\($0)" } ?? "–"
        }
        let kinds = [1: "live", 2: "frozen", 3: "delayed", 4: "delayed-frozen"]
        let type = snapshot.marketDataType ?? (snapshot.prices.keys.contains { $0.rawValue >= 66 } ? 3 : 1)
        var lines = [
            "symbol: \(Self.name(details.contract)) (conId \(details.contract.contractID))",
            "bid: \(price(.bid, .delayedBid)) x \(size(.bidSize, .delayedBidSize))",
            "ask: \(price(.ask, .delayedAsk)) x \(size(.askSize, .delayedAskSize))",
            "last: \(price(.last, .delayedLast)) x \(size(.lastSize, .delayedLastSize))",
            "volume: \(size(.volume, .delayedVolume))",
            "close: \(price(.close, .delayedClose))",
            "market data type: \(type) (\(kinds[type] ?? "unknown"))",
            "halted: " + haltText(snapshot.generics[.halted]),
        ]
        lines += snapshot.notices.map { "notice: \($0)" }
        if let note { lines.insert(note, at: 0) }
        return lines.joined(separator: "\n")
    }
}
