import Foundation
import Synchronization
import TWSClient
import TWSProtocol
import TWSTranscript

/// Drives our client (`TWSConnection`) through a transcript as a program would: each `client` step becomes the call
/// of ours that sends that request (a `req_quote` is `marketData`, a `place_order` of a new id `placeOrder` and of a
/// known id `modifyOrder`, a `cancel_quote` cancels that stream), issued when the transcript waits for it, unless our
/// client sends it on its own (a `cancel_positions` after `positions()`). The transcript's `disconnect` ends a leg;
/// the next `handshake` is a new connection.
///
/// Run it on a `VirtualLoop` with a `TranscriptTransport` on the loop's clock:
///
/// ```swift
/// let outcome = try await VirtualLoop.run { loop in
///     try await TranscriptClientDriver(transcript: transcript, clock: loop.clock).run()
/// }
/// #expect(outcome.passed, "\(outcome)")
/// ```
public struct TranscriptClientDriver: Sendable {
    /// What a run amounted to.
    public struct Outcome: Sendable, CustomStringConvertible {
        /// The player's report.
        public var report: TranscriptTransport.Report
        /// Steps our client did not send in time, and calls that failed unexpectedly.
        public var failures: [String]
        /// What each call returned or threw, in order (`req_contract_details: 1 details`).
        public var results: [String]

        /// The transcript played to its end, every request matched, nothing failed.
        public var passed: Bool { report.passed && failures.isEmpty }

        public var description: String {
            ([report.description] + failures.map { "  driver: \($0)" } + results.map { "  result: \($0)" })
                .joined(separator: "\n")
        }
    }

    /// The message names of `client` steps this driver can make our client send.
    public static let drivable: Set<String> = [
        "req_current_time", "req_contract_details", "req_quote", "cancel_quote", "req_realtime_bars", "cancel_realtime_bars",
        "req_historical_bars", "cancel_historical_data", "place_order", "cancel_order", "global_cancel", "req_open_orders",
        "req_positions", "cancel_positions", "req_account_updates", "req_account_summary", "cancel_account_summary",
        "req_executions", "req_pnl", "cancel_pnl", "req_pnl_single", "cancel_pnl_single", "req_completed_orders",
        "req_market_rule",
    ]

    let transcript: TWSTranscript
    let transport: TranscriptTransport
    let clock: any Clock<Duration>
    let clientIDs: [Int]
    let configure: @Sendable (inout TWSConnectionConfiguration) -> Void

    /// Creates a driver.
    /// - Parameters:
    ///   - transcript: the session.
    ///   - options: the player's options.
    ///   - clientIDs: the client id of each leg (the last repeats; 1 by default, as the grounded captures' client).
    ///   - clock: the loop's clock.
    ///   - configure: changes the connection's configuration (timeouts, versions).
    public init(
        transcript: TWSTranscript, options: TranscriptPlayer.Options = .init(), clientIDs: [Int] = [1],
        clock: any Clock<Duration>, configure: @escaping @Sendable (inout TWSConnectionConfiguration) -> Void = { _ in }
    ) {
        self.transcript = transcript
        self.transport = TranscriptTransport(transcript: transcript, options: options, clock: clock)
        self.clock = clock
        self.clientIDs = clientIDs.isEmpty ? [1] : clientIDs
        self.configure = configure
    }

    /// Plays every leg.
    public func run() async -> Outcome {
        let log = Log()
        for (index, leg) in transcript.legs.enumerated() {
            var configuration = TWSConnectionConfiguration(clientID: clientIDs[min(index, clientIDs.count - 1)])
            configuration.readyTimeout = .seconds(30)
            configure(&configuration)
            let environment = TWSConnectionEnvironment(transport: transport, clock: clock, logger: .init(label: "transcript"))
            let clientSteps = leg.filter { if case .client = $0.step { return true } else { return false } }
            do {
                try await TWSConnection.connect(configuration, environment: environment) { connection, _ in
                    try await drive(connection, steps: clientSteps, legEnd: leg.last?.number ?? 0, log: log)
                }
            } catch {
                // A leg the server ends (`disconnect`) ends the connection under the calls; only a connection that
                // never opened is a failure of the run.
                if case TWSConnectionError.refused = error { log.fail("leg \(index + 1): connection refused") }
                else if !(error is CancellationError) { log.result("leg \(index + 1) ended: \(error)") }
            }
        }
        return Outcome(report: transport.report, failures: log.failures, results: log.results)
    }

    /// One leg: each client step issued when the transcript waits for it, then the leg's server steps played out.
    private func drive(
        _ connection: TWSConnection, steps: [TWSTranscript.Line], legEnd: Int, log: Log
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            var tasks: [String: Handle] = [:]
            var placed: Set<Int> = []
            for line in steps {
                guard case .client(let message) = line.step else { continue }
                // Our client may send it on its own (an automatic cancel): give it a moment first.
                if try await waitPast(line.number, within: .milliseconds(50)) { continue }
                guard transport.nextLine?.number == line.number else { break }  // a mismatch stopped the transcript
                issue(message, connection: connection, tasks: &tasks, placed: &placed, group: &group, log: log)
                if try await !waitPast(line.number, within: .seconds(30)) {
                    log.fail("line \(line.number): our client did not send \(message.name)")
                    break
                }
            }
            // Let the leg's last server steps (and sleeps) play, then end the leg from our side.
            _ = try await waitPast(legEnd, within: .seconds(120))
            for handle in tasks.values { handle.cancel() }
            group.cancelAll()
        }
    }

    /// Waits until the player is past `line` (or idle at a later step); `false` when `within` passed first.
    private func waitPast(_ line: Int, within limit: Duration) async throws -> Bool {
        var waited = Duration.zero
        while true {
            let next = transport.nextLine
            if next == nil || next!.number > line { return true }
            if next!.number == line, waited >= limit { return false }
            if next!.number < line, waited >= limit + .seconds(120) { return false }
            try await clock.sleep(for: .milliseconds(10))
            waited += .milliseconds(10)
        }
    }

    /// A running call, cancelled by a later cancel step (a child task of the leg cannot be cancelled alone, so the
    /// call races this signal).
    final class Handle: Sendable {
        let signal: AsyncStream<Void>
        private let continuation: AsyncStream<Void>.Continuation
        init() { (signal, continuation) = AsyncStream.makeStream(of: Void.self) }
        func cancel() { continuation.finish() }
    }

    private func issue(
        _ message: TWSTranscript.Message, connection: TWSConnection, tasks: inout [String: Handle], placed: inout Set<Int>,
        group: inout ThrowingTaskGroup<Void, any Error>, log: Log
    ) {
        let f = message.fields
        let key = message.name == "req_account_updates"
            ? message.name : f["req_id"]?.bindingName ?? f["req_id"]?.text ?? message.name
        func start(_ name: String, _ body: @escaping @Sendable () async throws -> String) {
            let handle = Handle()
            tasks[key] = handle
            group.addTask {
                do {
                    let text = try await withThrowingTaskGroup(of: String?.self) { inner in
                        inner.addTask { try await body() }
                        inner.addTask {
                            for await _ in handle.signal {}
                            return nil
                        }
                        defer { inner.cancelAll() }
                        guard let first = try await inner.next(), let text = first else { throw CancellationError() }
                        return text
                    }
                    log.result("\(name): " + text)
                } catch is CancellationError {
                    log.result("\(name): cancelled")
                } catch {
                    log.result("\(name): threw \(error)")
                }
            }
        }
        func stream<Element>(_ name: String, _ make: @escaping @Sendable () async throws -> AsyncThrowingStream<Element, any Error>) {
            start(name) {
                var count = 0
                for try await _ in try await make() {
                    count += 1
                    try Task.checkCancellation()
                }
                return "\(count) items, ended"
            }
        }
        switch message.name {
        case "req_current_time":
            start(message.name) { "\(try await connection.currentTime())" }
        case "req_contract_details":
            let contract = Self.contract(f.object("contract"))
            start(message.name) { "\(try await connection.contractDetails(contract).count) details" }
        case "req_quote":
            let contract = Self.contract(f.object("contract"))
            let snapshot = f["snapshot"]?.text == "1"
            let ticks = f.texts("generic_ticks")
            stream(message.name) { try await connection.marketData(contract: contract, genericTicks: ticks, snapshot: snapshot) }
        case "req_realtime_bars":
            let contract = Self.contract(f.object("contract"))
            let what = f["what_to_show"]?.text ?? "TRADES"
            let rth = f["use_rth"]?.text != "0"
            stream(message.name) { try await connection.realTimeBars(contract: contract, whatToShow: what, useRTH: rth) }
        case "req_historical_bars":
            var query = TWSHistoricalBarsQuery(
                contract: Self.contract(f.object("contract")), duration: f["duration"]?.text ?? "1 D",
                barSize: f["bar_size"]?.text ?? "1 hour")
            if let end = f["end_time"], end.bindingName == nil { query.endDateTime = end.text ?? "" }
            query.whatToShow = f["what_to_show"]?.text ?? "TRADES"
            query.useRTH = f["use_rth"]?.text != "0"
            // A request the transcript answers with historical_data_update steps is a keep-up-to-date stream.
            let binding = f["req_id"]
            let streamed = f["keep_up_to_date"]?.text == "1" || transcript.lines.contains { line in
                if case .server(let m) = line.step { return m.name == "historical_data_update" && m.fields["req_id"] == binding }
                return false
            }
            if streamed {
                let fixed = query
                stream(message.name) { try await connection.historicalBarsKeepingUpToDate(fixed) }
            } else {
                let fixed = query
                start(message.name) { "\(try await connection.historicalBars(fixed).count) bars" }
            }
        case "place_order":
            let (id, contract, order) = placeOrderTerms(message)
            if placed.contains(id) {
                start(message.name) {
                    try await connection.modifyOrder(id: id, order: order, contract: contract)
                    return "modified \(id)"
                }
            } else {
                placed.insert(id)
                start(message.name) { "placed \(try await connection.placeOrder(order, contract: contract))" }
            }
        case "cancel_order":
            let id = Int(f["order_id"]?.text ?? "") ?? 0
            start(message.name) {
                try await connection.cancelOrder(id)
                return "cancel sent"
            }
        case "global_cancel":
            start(message.name) {
                try await connection.globalCancel()
                return "sent"
            }
        case "req_open_orders":
            if f["scope"]?.text == "all" {
                start(message.name) { "\(try await connection.allOpenOrders().count) open orders" }
            } else {
                start(message.name) { "\(try await connection.openOrders().count) open orders" }
            }
        case "req_positions":
            start(message.name) { "\(try await connection.positions().count) positions" }
        case "req_account_updates":
            if f["subscribe"]?.text == "0" {
                tasks[key]?.cancel()
            } else {
                let account = f["account"]?.text ?? ""
                stream(message.name) { try await connection.accountUpdates(account: account) }
            }
        case "req_account_summary":
            let group = f["account"]?.text ?? "All"
            let tags = f.texts("tags").joined(separator: ",")
            start(message.name) { "\(try await connection.accountSummary(group: group, tags: tags).count) values" }
        case "req_executions":
            var filter = TWSExecutionFilter()
            filter.accountCode = f["account"]?.text ?? ""
            filter.symbol = f["symbol"]?.text ?? ""
            let fixed = filter
            start(message.name) { "\(try await connection.executions(filter: fixed).count) executions" }
        case "req_pnl":
            let account = f["account"]?.text ?? ""
            stream(message.name) { try await connection.pnl(account: account, modelCode: f["model_code"]?.text ?? "") }
        case "req_pnl_single":
            let account = f["account"]?.text ?? ""
            let conID = Int(f["con_id"]?.text ?? "") ?? 0
            stream(message.name) { try await connection.pnlSingle(account: account, contractID: conID) }
        case "req_completed_orders":
            let apiOnly = f["api_only"]?.text == "1"
            start(message.name) { "\(try await connection.completedOrders(apiOnly: apiOnly).count) messages" }
        case "req_market_rule":
            let id = Int(f["market_rule_id"]?.text ?? "") ?? 0
            start(message.name) { "\(try await connection.marketRule(id).count) increments" }
        case "cancel_quote", "cancel_realtime_bars", "cancel_historical_data", "cancel_account_summary", "cancel_pnl",
            "cancel_pnl_single":
            tasks[key]?.cancel()
        case "cancel_positions":
            // positions() sends it after positionEnd; a read still waiting is cancelled, which sends it too.
            tasks["req_positions"]?.cancel()
        default:
            log.fail("\(message.name): not a request this driver can make our client send")
        }
    }

    /// The terms of a place_order step: its own fields, completed from the server's echo of that order that follows
    /// (a transcript of a modify often names only the id).
    private func placeOrderTerms(_ message: TWSTranscript.Message) -> (Int, TWSContract, TWSOrder) {
        let f = message.fields
        let id = Int(f["order_id"]?.text ?? "") ?? 0
        var echo = TranscriptFields()
        if let start = transcript.lines.firstIndex(where: {
            if case .client(let m) = $0.step { return m == message } else { return false }
        }) {
            for line in transcript.lines[start...] {
                if case .server(let m) = line.step, m.name == "open_order", m.fields["order_id"]?.text == String(id) {
                    echo = m.fields
                    break
                }
            }
        }
        func value(_ key: String, _ echoKey: String? = nil) -> String? {
            if f.has(key) { return f[key]?.text }
            return echo[echoKey ?? key]?.text
        }
        var contractFields = echo.object("contract").values
        for (k, v) in f.object("contract").values { contractFields[k] = v }
        var contract = Self.contract(TranscriptFields(contractFields))
        if contract.symbol.isEmpty { contract = TWSContract(symbol: "AAPL", securityType: "STK", exchange: "SMART", currency: "USD") }
        // An order to a contract the transcript qualified goes out by conId and exchange, as a qualified one does.
        var order = TWSOrder()
        order.action = value("action") ?? "BUY"
        order.totalQuantity = (value("total_quantity", "quantity")).flatMap { Decimal(string: $0) }
        order.orderType = value("order_type") ?? "LMT"
        order.limitPrice = value("lmt_price").flatMap { Double($0) }.flatMap { $0 == 0 && order.orderType == "MKT" ? nil : $0 }
        order.auxPrice = f.has("aux_price") ? f["aux_price"]?.text.flatMap { Double($0) } : nil
        order.trailingPercent = f["trailing_percent"]?.text.flatMap { Double($0) }
        order.timeInForce = value("tif") ?? "DAY"
        order.account = value("account") ?? ""
        if let transmit = f["transmit"]?.text { order.transmit = transmit != "0" && transmit != "false" }
        return (id, contract, order)
    }

    /// A contract from a step's `contract` object.
    static func contract(_ f: TranscriptFields) -> TWSContract {
        var contract = TWSContract(
            contractID: Int(f["con_id"]?.text ?? "") ?? 0, symbol: f["symbol"]?.text ?? "",
            securityType: f["sec_type"]?.text ?? "", exchange: f["exchange"]?.text ?? "",
            primaryExchange: f["primary_exchange"]?.text ?? "", currency: f["currency"]?.text ?? "")
        contract.localSymbol = f["local_symbol"]?.text ?? ""
        contract.lastTradeDateOrContractMonth = f["expiry"]?.text ?? ""
        return contract
    }

    /// What the run saw, from several tasks.
    final class Log: Sendable {
        private let state = Mutex<(failures: [String], results: [String])>(([], []))
        func fail(_ text: String) { state.withLock { $0.failures.append(text) } }
        func result(_ text: String) { state.withLock { $0.results.append(text) } }
        var failures: [String] { state.withLock { $0.failures } }
        var results: [String] { state.withLock { $0.results } }
    }
}
