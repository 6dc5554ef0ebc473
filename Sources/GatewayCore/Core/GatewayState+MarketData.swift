import Foundation
import TWSProtocol
import TradingModel

extension GatewayState {
    // MARK: - Market data lines

    mutating func marketData(_ r: TWSMarketDataRequest, connection: ConnectionID) -> [GatewayAction] {
        guard let session = sessions[connection] else { return [] }
        if let refusal = refuseMarketDataFault(r.requestID, connection: connection) { return refusal }
        guard let instrument = resolve(r.contract) else {
            return [.send(connection, .error(TWSErrorMessage(
                requestID: r.requestID, code: 200, message: TWSErrorText.noSecurityDefinition)))]
        }
        var out: [GatewayAction] = []
        let wantsDelayed = session.marketDataType >= 3
        var delayed = false
        if !configuration.liveDataEntitled || !configuration.liveQuotesEntitled {
            guard wantsDelayed else {
                let (code, message) = configuration.liveDataEntitled
                    ? (10090, "Part of requested market data is not subscribed. Subscription-independent ticks are still active.")
                    : (354, TWSErrorText.notSubscribed)
                return [.send(connection, .error(TWSErrorMessage(requestID: r.requestID, code: code, message: message)))]
            }
            delayed = true
            out.append(.send(connection, .error(TWSErrorMessage(
                requestID: r.requestID, code: 10167, message: TWSErrorText.delayed))))
        }
        let frozen = session.marketDataType == 2 || session.marketDataType == 4
        let isTrading = instrument.series.isTrading(at: now)
        let reported = (delayed ? 3 : 1) + (frozen && !isTrading ? 1 : 0)
        out.append(.send(connection, .marketDataType(requestID: r.requestID, marketDataType: reported)))
        out.append(.send(connection, .tickRequestParameters(
            requestID: r.requestID, minTick: instrument.minTick.doubleValue, bboExchange: "9c0001",
            snapshotPermissions: 3)))
        var line = ClientSession.MarketLine(
            instrument: instrument.id, delayed: delayed, rtVolume: r.genericTickList.contains("233"), last: nil)
        if let quote = QuoteModel.quote(instrument, at: now, day: &line.day) {
            for response in Self.ticks(requestID: r.requestID, quote: quote, line: line, trades: instrument.hasTrades) {
                out.append(.send(connection, response))
            }
            line.last = quote
        }
        // TWS states the halt status when a line opens (0: trading), a snapshot's too: Halted is a default tick.
        out.append(.send(connection, .tickGeneric(
            requestID: r.requestID, tickType: .halted, value: Double(halts[instrument.id] ?? 0))))
        if r.snapshot {
            out.append(.send(connection, .tickSnapshotEnd(requestID: r.requestID)))
        } else {
            sessions[connection]?.marketLines[r.requestID] = line
        }
        return out
    }

    /// The ticks that tell a client what changed since the line's last quote (all of them for a new line); no last
    /// price, size or volume without `trades` (a currency pair: IDEALPRO quotes, it reports no trades).
    static func ticks(
        requestID: Int, quote: SimulatedQuote, line: ClientSession.MarketLine, trades: Bool = true
    ) -> [TWSResponse] {
        var out: [TWSResponse] = []
        let d = line.delayed
        func price(_ live: TWSTickType, _ delayed: TWSTickType, _ value: Price, _ size: Quantity?, _ old: Price?) {
            guard old != value else { return }
            out.append(.tickPrice(TWSTickPrice(
                requestID: requestID, tickType: d ? delayed : live, price: value.doubleValue,
                size: size.map(\.decimal))))
        }
        func size(_ live: TWSTickType, _ delayed: TWSTickType, _ value: Quantity, _ old: Quantity?) {
            guard old != value else { return }
            out.append(.tickSize(requestID: requestID, tickType: d ? delayed : live, size: value.decimal))
        }
        let p = line.last
        func bid() {
            price(.bid, .delayedBid, quote.bid, quote.size, p?.bid)
            if p != nil, p?.bid == quote.bid { size(.bidSize, .delayedBidSize, quote.size, p?.size) }
        }
        func ask() {
            price(.ask, .delayedAsk, quote.ask, quote.size, p?.ask)
            if p != nil, p?.ask == quote.ask { size(.askSize, .delayedAskSize, quote.size, p?.size) }
        }
        // A client folds the ticks one by one: on a rise the ask moves first, on a fall the bid, so a step wider
        // than the spread never shows a crossed book (new bid over old ask) in between.
        if let p, quote.bid > p.bid {
            ask()
            bid()
        } else {
            bid()
            ask()
        }
        let traded = trades && (p == nil || p?.volume != quote.volume)
        if traded {
            out.append(.tickPrice(TWSTickPrice(
                requestID: requestID, tickType: d ? .delayedLast : .last, price: quote.last.doubleValue,
                size: quote.lastSize.decimal)))
            size(.volume, TWSTickType(rawValue: 74), quote.volume, p?.volume)
            let ms = quote.time.nanoseconds / 1_000_000
            out.append(.tickString(requestID: requestID, tickType: d ? TWSTickType(rawValue: 88) : .lastTimestamp,
                                   value: String(ms / 1000)))
            if line.rtVolume, !d, quote.isTrading {
                out.append(.tickString(requestID: requestID, tickType: .rtVolume, value:
                    "\(quote.last.description);\(quote.lastSize.wholeUnits);\(ms);\(quote.volume.wholeUnits);"
                    + "\(quote.last.description);false"))
            }
        }
        price(.high, TWSTickType(rawValue: 72), quote.high, nil, p?.high)
        price(.low, TWSTickType(rawValue: 73), quote.low, nil, p?.low)
        price(.close, TWSTickType(rawValue: 75), quote.close, nil, p?.close)
        price(.open, TWSTickType(rawValue: 76), quote.open, nil, p?.open)
        return out
    }

    // MARK: - Real-time bars

    mutating func realTimeBars(_ r: TWSRealTimeBarsRequest, connection: ConnectionID) -> [GatewayAction] {
        guard let instrument = resolve(r.contract) else {
            return [.send(connection, .error(TWSErrorMessage(
                requestID: r.requestID, code: 200, message: TWSErrorText.noSecurityDefinition)))]
        }
        guard r.barSize == 5 else {
            return [.send(connection, .error(TWSErrorMessage(
                requestID: r.requestID, code: 420, message: "Invalid Real-time Query:Invalid bar size")))]
        }
        // Real-time bars have no delayed form: without live data they are refused, whatever the market data type.
        guard configuration.liveDataEntitled else {
            return [.send(connection, .error(TWSErrorMessage(
                requestID: r.requestID, code: 354, message: "Requested market data is not subscribed.")))]
        }
        var request = TWSHistoricalDataRequest(
            requestID: r.requestID, contract: r.contract, endDateTime: "", durationString: "5 S",
            barSizeSetting: "5 secs", whatToShow: r.whatToShow, useRTH: r.useRTH)
        request.formatDate = 2
        guard let query = try? HistoricalQuery(request, now: now), !Self.noTrades(instrument, query.whatToShow) else {
            return [.send(connection, .error(TWSErrorMessage(
                requestID: r.requestID, code: 420, message: "Invalid Real-time Query:Invalid whatToShow")))]
        }
        sessions[connection]?.realTimeBars[r.requestID] = ClientSession.RealTimeBars(
            instrument: instrument.id, query: query)
        return []
    }

    /// The 5-second bar ending at `end`, or `nil` when nothing traded in it.
    func realTimeBar(_ sub: ClientSession.RealTimeBars, end: Timestamp) -> TWSRealTimeBar? {
        // useRTH: outside regular hours nothing is sent, as TWS does.
        guard sub.query.shows(data.instrument(sub.instrument), end - .seconds(5)),
            let bar = sub.query.makeBar(
                data.instrument(sub.instrument), from: end - .seconds(5), to: end, label: end - .seconds(5), now: end)
        else { return nil }
        return TWSRealTimeBar(
            time: TWSTimeText.epochSeconds(end - .seconds(5)), open: bar.open, high: bar.high, low: bar.low,
            close: bar.close, volume: bar.volume, wap: bar.wap, count: bar.barCount)
    }

    // MARK: - Historical data

    /// A currency pair has no trades to show: IB serves its bars as MIDPOINT, BID, ASK or BID_ASK only.
    static func noTrades(_ instrument: SimulatedInstrument, _ whatToShow: String) -> Bool {
        guard case .forex = instrument.kind else { return false }
        return whatToShow == "TRADES" || whatToShow == "ADJUSTED_LAST"
    }

    mutating func historicalData(
        _ r: TWSHistoricalDataRequest, connection: ConnectionID, wallTime: Double
    ) -> [GatewayAction] {
        func fail(_ code: Int, _ text: String) -> [GatewayAction] {
            [.send(connection, .error(TWSErrorMessage(requestID: r.requestID, code: code, message: text)))]
        }
        guard let instrument = resolve(r.contract) else { return fail(200, TWSErrorText.noSecurityDefinition) }
        if violatesPacing(r, instrument: instrument, connection: connection, wallTime: wallTime) {
            return fail(162, TWSErrorText.pacingViolation)
        }
        let query: HistoricalQuery
        do { query = try HistoricalQuery(r, now: now) } catch let invalid { return fail(162, invalid.message) }
        if Self.noTrades(instrument, query.whatToShow) {
            // IB's answer to TRADES for a currency (ib_insync #316, ezibpy #24): its bars are MIDPOINT, BID or ASK.
            return fail(162, "Historical Market Data Service error message:No historical market data for "
                + "\(instrument.contractSymbol)/CASH@FXSUBPIP Last \(r.barSizeSetting)")
        }
        if r.keepUpToDate, !r.endDateTime.isEmpty {
            return fail(321, "Error validating request.-'bP' : cause - End date not supported with live updates")
        }
        if pendingFaults.stallNextHistorical {
            pendingFaults.stallNextHistorical = false
            stalledHistory.insert([connection, r.requestID])
            return []
        }
        let bars = query.bars(for: instrument, now: now)
        guard !bars.isEmpty else {
            return fail(162, "Historical Market Data Service error message:HMDS query returned no data: "
                + "\(instrument.symbol)@SMART \(query.whatToShow)")
        }
        let version = sessions[connection]?.serverVersion ?? 200
        let startText = TWSTimeText.zoned(query.start), endText = TWSTimeText.zoned(query.end)
        var out: [GatewayAction] = []
        if version >= TWSServerVersion.historicalDataEnd {
            out.append(.send(connection, .historicalData(requestID: r.requestID, startDate: nil, endDate: nil,
                                                         bars: bars)))
            out.append(.send(connection, .historicalDataEnd(requestID: r.requestID, startDate: startText,
                                                            endDate: endText)))
        } else {
            out.append(.send(connection, .historicalData(requestID: r.requestID, startDate: startText,
                                                         endDate: endText, bars: bars)))
        }
        if r.keepUpToDate {
            sessions[connection]?.historyUpdates[r.requestID] = ClientSession.HistoryUpdates(
                instrument: instrument.id, query: query, lastSent: bars.last)
        }
        return out
    }

    /// §8.2: for bars of 30 seconds or less, an identical request within 15 s, six or more for one contract and
    /// type within 2 s, or more than 60 in 10 minutes is a pacing violation.
    mutating func violatesPacing(
        _ r: TWSHistoricalDataRequest, instrument: SimulatedInstrument, connection: ConnectionID, wallTime: Double
    ) -> Bool {
        guard var session = sessions[connection] else { return false }
        guard let size = HistoricalQuery.parseBarSize(r.barSizeSetting), case .seconds(let s) = size, s <= 30 else {
            return false
        }
        session.historyLog.removeAll { wallTime - $0.time > 600 }
        let signature = "\(instrument.contractID)|\(r.endDateTime)|\(r.durationString)|\(r.barSizeSetting)|"
            + "\(r.whatToShow)|\(r.useRTH)"
        let contractKey = "\(instrument.contractID)|\(r.whatToShow)"
        let identical = session.historyLog.contains { $0.signature == signature && wallTime - $0.time < 15 }
        let burst = session.historyLog.filter { $0.contract == contractKey && wallTime - $0.time < 2 }.count >= 5
        let weight = r.whatToShow.uppercased() == "BID_ASK" ? 2 : 1
        let total = session.historyLog.count + weight > 60
        session.historyLog.append((wallTime, signature, contractKey))
        if weight == 2 { session.historyLog.append((wallTime, signature, contractKey)) }
        sessions[connection] = session
        return identical || burst || total
    }
}
