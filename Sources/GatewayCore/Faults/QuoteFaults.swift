import TWSProtocol
import TradingModel

/// The `fail-quotes` fault: quote lines (reqMktData) that fail while the connection stays up; the `halt`,
/// `stall-feed`, `notice`, `desupport` and `bust-bars` faults.
extension GatewayState {
    /// TWS's text for 10168.
    public static let delayedNotEnabledText = "Requested market data is not subscribed. Delayed market data is not enabled."

    /// Ends every open reqMktData line with error 10168 and arms the refusal of the next `refusals` requests.
    public mutating func failQuotes(refusals: Int) -> [GatewayAction] {
        pendingFaults.refuseMarketData = max(0, refusals)
        var out: [GatewayAction] = []
        for connection in sessions.keys.sorted() {
            guard let lines = sessions[connection]?.marketLines.keys.sorted() else { continue }
            for requestID in lines {
                out.append(.send(connection, .error(TWSErrorMessage(
                    requestID: requestID, code: 10168, message: Self.delayedNotEnabledText))))
            }
            sessions[connection]?.marketLines.removeAll()
        }
        return out
    }

    /// A reqMktData refused by an armed `fail-quotes` (`nil`: served as usual).
    mutating func refuseMarketDataFault(_ requestID: Int, connection: ConnectionID) -> [GatewayAction]? {
        guard pendingFaults.refuseMarketData > 0 else { return nil }
        pendingFaults.refuseMarketData -= 1
        return [.send(connection, .error(TWSErrorMessage(
            requestID: requestID, code: 10168, message: Self.delayedNotEnabledText)))]
    }

    /// Halts (kind 1 regulatory, 2 volatility / LULD) or resumes (kind 0) trading in one instrument: every open
    /// reqMktData line of it gets the HALTED tick (49), and its orders rest unmatched while halted.
    public mutating func setHalt(_ instrument: InstrumentID, kind: Int) -> [GatewayAction] {
        halts[instrument] = kind == 0 ? nil : kind
        var out: [GatewayAction] = []
        for connection in sessions.keys.sorted() {
            guard let lines = sessions[connection]?.marketLines else { continue }
            for (requestID, line) in lines.sorted(by: { $0.key < $1.key }) where line.instrument == instrument {
                out.append(.send(connection, .tickGeneric(requestID: requestID, tickType: .halted, value: Double(kind))))
            }
        }
        return kind == 0 ? out + matchNow(instrument) : out
    }

    /// The `stall-feed` fault: the real-time bar subscriptions open now, of one instrument or of all (`nil`), send
    /// nothing more; they stay open, and a new subscription is served as usual.
    /// - Returns: how many subscriptions went silent.
    @discardableResult
    public mutating func stallRealTimeBars(of instrument: InstrumentID?) -> Int {
        var stalled = 0
        for connection in sessions.keys.sorted() {
            guard var session = sessions[connection] else { continue }
            for (requestID, sub) in session.realTimeBars where instrument == nil || sub.instrument == instrument {
                session.realTimeBars[requestID]?.silent = true
                stalled += 1
            }
            sessions[connection] = session
        }
        return stalled
    }

    /// The `notice CODE [bars]` fault: IB's message `code` with IB's meaning as its text, global (id -1) or on each
    /// real-time bar subscription of every client. Nothing else changes: what the client makes of it is its own.
    public func notice(code: Int, onBars: Bool) -> [GatewayAction] {
        let text = TWSErrorTable.entry(code)?.meaning ?? "Simulated message \(code)"
        return onBars ? toEveryBarSubscription(code, text) : broadcast(code, text)
    }

    /// The `desupport [DATE]` fault: IB's warning that this build will be desupported on `date` (`yyyyMMdd`), in IB's
    /// words for build 10.45.1 and minimum 10.50.1, sent now to every client (reqId −1) and, as TWS does, at every
    /// later connect.
    public mutating func desupport(date: String) -> [GatewayAction] {
        let text = Self.desupportText(date: date)
        desupportText = text
        return broadcast(2172, text)
    }

    /// IB's 2172 text (as public reports quote it, 2023 and 2026) for build 1045.1 and the minimum 1050.1.
    public static func desupportText(date: String) -> String {
        "The version of the application you are running, 1045.1, needs to be upgraded, as it will be desupported on "
            + "\(date). The minimum supported version at that time will be 1050.1."
    }

    /// The `bust-bars` fault: every real-time bar subscription ends with 10225 ("Bust event occurred, current
    /// subscription is deactivated. Please resubscribe real-time bars immediately"), the connection up.
    public mutating func bustRealTimeBars() -> [GatewayAction] {
        let out = toEveryBarSubscription(
            10225,
            "Bust event occurred, current subscription is deactivated. Please resubscribe real-time bars immediately.")
        for connection in sessions.keys { sessions[connection]?.realTimeBars.removeAll() }
        return out
    }

    /// An errMsg with `code` on each real-time bar subscription of every client, in connection and request order.
    private func toEveryBarSubscription(_ code: Int, _ message: String) -> [GatewayAction] {
        var out: [GatewayAction] = []
        for connection in sessions.keys.sorted() {
            for requestID in sessions[connection]?.realTimeBars.keys.sorted() ?? [] {
                out.append(.send(connection, .error(TWSErrorMessage(requestID: requestID, code: code, message: message))))
            }
        }
        return out
    }
}
