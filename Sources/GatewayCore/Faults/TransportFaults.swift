import TWSProtocol

/// Faults the server edge applies to sockets and message delivery (the core's one-shot faults are
/// `PendingFaults`).
public struct TransportFaults: Sendable, Equatable {
    /// Drop every connection once this many more messages have been sent (across all connections).
    public var dropAfterMessages: Int?
    /// Drop every connection right after this many more placeOrder requests have been handled (e.g. 1: a
    /// bracket's parent arrives, its children do not).
    public var dropAfterOrders: Int?
    /// Until this wall time (seconds since start), new connections are accepted and closed at once, as while
    /// the gateway restarts.
    public var refuseUntil: Double?
    /// Extra delay before every message sent (seconds), until cleared.
    public var responseDelay: Double?
    /// Connections that are held open but get no answer and whose requests are lost (`freeze`, until `thaw`).
    public var silenced: Set<ConnectionID> = []
    /// Requests lost on frozen connections so far.
    public var lostRequests = 0
    /// The next modification of a working order is lost and every socket closes (`lose-modify`).
    public var loseNextModify = false

    /// No faults.
    public init() {}
}

/// A fault command: what `--faults FILE`, the admin port and tests ask for.
public enum FaultCommand: Sendable, Equatable {
    /// Close every client socket now.
    case dropAllConnections
    /// Close every client socket after N more messages.
    case dropAfterMessages(Int)
    /// Close every client socket right after N more placeOrder requests (the Nth is handled, later ones are not).
    case dropAfterOrders(Int)
    /// A gateway restart: every socket closes and the listener goes down for this many seconds (connects are
    /// refused), then listens again on the same port; orders, positions and executions are kept.
    case restart(seconds: Double)
    /// A new gateway process on the same port: as `restart`, and the account's positions, cash, orders and
    /// executions are gone (the broker's books changed behind the bot's back).
    case freshRestart(seconds: Double)
    /// 1100 now.
    case connectivityLost
    /// 1101 (data lost) or 1102 (maintained).
    case connectivityRestored(dataLost: Bool)
    /// A farm status code: 2103, 2104, 2105 or 2106.
    case farmStatus(Int)
    /// Delay every response by this many seconds (0 clears).
    case delayResponses(seconds: Double)
    /// Swap the next two messages to each client.
    case reorderNextResponses
    /// Reject the next order with error 201.
    case rejectNextOrder(reason: String)
    /// Send the next live execDetails twice.
    case duplicateNextExecution
    /// Never answer the next historical request.
    case stallNextHistoricalRequest
    /// After the next order's acknowledgement, 1100; its fill is withheld until 1101/1102 (a fill missed in an outage).
    case connectivityLostAfterNextOrder
    /// Move the replay clock forward (test and drill helper).
    case advanceClock(seconds: Double)
    /// The connections open now stop answering but keep their sockets (a hung gateway or a half-open TCP path):
    /// their requests are lost and nothing is sent to them until `resumeAnswering`. New connections are served.
    case stopAnswering
    /// Frozen connections are served again (what they asked meanwhile stays lost).
    case resumeAnswering
    /// Every open reqMktData line ends with error 10168, and the next `refusals` reqMktData requests are refused
    /// with it (a quote line that fails while the connection stays up).
    case failQuotes(refusals: Int)
    /// Trading in a symbol halts: 1 a regulatory halt, 2 a volatility (limit-up/limit-down) pause; 0 resumes.
    case halt(symbol: String, kind: Int)
    /// The next fill is reported as this many executions (2…100), each with its orderStatus (Faults/OrderMessageFaults.swift).
    case partialFill(parts: Int)
    /// Send the next orderStatus twice.
    case duplicateNextStatus
    /// Hold the next live execDetails and its commissionReport back until the replay clock has moved this many
    /// seconds (the order's later messages, its Filled status among them, arrive first).
    case lateExecution(seconds: Double)
    /// Hold the next orderStatus back until the replay clock has moved this many seconds.
    case lateStatus(seconds: Double)
    /// Send the next fill's messages in reverse order (commissionReport first, execDetails last).
    case reorderNextFill
    /// Send the next fill without its orderStatus: execDetails, openOrder and commissionReport only.
    case missingStatus
    /// The real-time bar subscriptions open now (of one symbol, or all) go silent without an error, as IB's do after
    /// a data-farm flap or the nightly reset: the subscription stays, no bar comes. A new subscription is served.
    case stallFeed(symbol: String?)
    /// The next modification (a placeOrder for an order that is working) never reaches the order: it is lost, and
    /// every socket closes with it, as a modify sent into a connectivity loss (the order works on its old terms).
    case loseNextModify
    /// The next stand-alone order that rests (does not fill at once) is booked twice: a second live order with the same
    /// orderRef under another order id (its own + 1,000,000) and permId, as when a place sent into a reconnect gap
    /// reached TWS after all. (The twin of an order that fills at once would fill too, before any client could act.)
    case twinNextOrder
    /// The next stand-alone order gets IB's 10349 ("order TIF was set to DAY based on order preset") and a Cancelled
    /// status with nothing filled, then goes on and may fill, as TWS resubmits such an order.
    case presetCancelNextOrder
    /// Every real-time bar subscription ends with IB's 10225 (a bust event: "subscribe again"), the connection up.
    case bustRealTimeBars
    /// IB's message `code` (IB's own text for it), to every client (`onBars`: on each of its real-time bar
    /// subscriptions, as 2188 comes on the request it is about; else global, id -1). The codes that are not errors
    /// (2188, 10167, 2100–2199) go on; a terminal one ends what it names.
    case notice(code: Int, onBars: Bool)
    /// Refuse the next order with IB's error `code` and this text (321 by default: "Error validating request … The
    /// API interface is currently in Read-Only mode"); no order status follows, as for TWS's validation refusals.
    case refuseNextOrder(code: Int, text: String)
    /// From now on, reqExecutions with an all-blank filter gets its execDetails but never its execDetailsEnd (what
    /// TWS may do; a filter naming an account, a symbol or a time is answered in full).
    case omitBlankExecutionsEnd
    /// The next short sale (a sell beyond the account's position) is held while IB locates shares: error 404, status
    /// Inactive with whyHeld `locate`, out of the market, for this many seconds of replay time; then it works.
    case locateNextShortSale(seconds: Double)
    /// The next stand-alone order that rests is deactivated once accepted: status Inactive, out of the market, and
    /// listed (Inactive) among the open orders, as TWS 10.48 and later list deactivated orders, until cancelled.
    case deactivateNextOrder
    /// IB's desupport warning (2172) for the gateway's build, with this date (`yyyyMMdd`, default 20261215): sent now to
    /// every client and at every later connect, as TWS sends it (`GatewayState.desupport(date:)`).
    case desupport(date: String)

    /// Parses one command line: `drop`, `drop-after N`, `drop-after-order N`, `restart [T]`, `restart-fresh [T]`, `lost`,
    /// `restored [lost|kept]`, `farm CODE`, `delay S`, `reorder`, `reject [reason…]`, `duplicate-exec`,
    /// `stall-history`, `lost-after-order`, `advance S`, `freeze`, `thaw`, `fail-quotes [N]`, `halt SYMBOL [1|2]`,
    /// `unhalt SYMBOL`, `partial-fill [N]`, `duplicate-status`, `late-exec [S]`, `late-status [S]`, `reorder-fill`,
    /// `missing-status`, `stall-feed [SYMBOL]`, `lose-modify`, `twin-order`, `preset-cancel`, `bust-bars`,
    /// `notice CODE [bars]`, `refuse [CODE [text…]]`, `no-exec-end`, `locate [S]`, `deactivate`,
    /// `desupport [YYYYMMDD]`.
    /// An optional leading `at SECONDS` is handled by `FaultScript`.
    ///
    /// Numbers are plain decimals within each command's range (`ranges`); anything else, a missing number where
    /// one is needed, or extra words make the line unknown (`nil`), never a default: `restart 1e300` or
    /// `restart -5` is refused, not taken as 5 seconds.
    public static func parse(_ line: String) -> FaultCommand? {
        let words = line.split(separator: " ").map(String.init)
        guard let verb = words.first?.lowercased() else { return nil }
        let arguments = Array(words.dropFirst())
        /// The single number argument of the verb, within its range.
        func number() -> Double? {
            guard arguments.count == 1, let range = ranges[verb], let value = plainNumber(arguments[0]),
                range.contains(value), !counts.contains(verb) || value == value.rounded()
            else { return nil }
            return value
        }
        func none<T>(_ command: T) -> T? { arguments.isEmpty ? command : nil }
        switch verb {
        case "drop": return none(.dropAllConnections)
        case "drop-after": return number().map { .dropAfterMessages(Int($0)) }
        case "drop-after-order": return number().map { .dropAfterOrders(Int($0)) }
        case "restart": return arguments.isEmpty ? .restart(seconds: 5) : number().map { .restart(seconds: $0) }
        case "restart-fresh":
            return arguments.isEmpty ? .freshRestart(seconds: 5) : number().map { .freshRestart(seconds: $0) }
        case "lost": return none(.connectivityLost)
        case "restored":
            switch arguments {
            case []: return .connectivityRestored(dataLost: false)
            case ["lost"]: return .connectivityRestored(dataLost: true)
            case ["kept"]: return .connectivityRestored(dataLost: false)
            default: return nil
            }
        case "farm": return number().flatMap { [2103, 2104, 2105, 2106].contains($0) ? .farmStatus(Int($0)) : nil }
        case "delay": return number().map { .delayResponses(seconds: $0) }
        case "reorder": return none(.reorderNextResponses)
        case "reject":
            let reason = arguments.joined(separator: " ")
            return .rejectNextOrder(reason: reason.isEmpty ? "Simulated rejection (fault injection)" : reason)
        case "duplicate-exec": return none(.duplicateNextExecution)
        case "stall-history": return none(.stallNextHistoricalRequest)
        case "lost-after-order": return none(.connectivityLostAfterNextOrder)
        case "advance": return number().map { .advanceClock(seconds: $0) }
        case "freeze": return none(.stopAnswering)
        case "thaw": return none(.resumeAnswering)
        case "fail-quotes":
            return arguments.isEmpty ? .failQuotes(refusals: 0) : number().map { .failQuotes(refusals: Int($0)) }
        case "halt":
            switch arguments.count {
            case 1: return symbol(arguments[0]).map { .halt(symbol: $0, kind: 1) }
            case 2 where ["1", "2"].contains(arguments[1]):
                return symbol(arguments[0]).map { .halt(symbol: $0, kind: Int(arguments[1]) ?? 1) }
            default: return nil
            }
        case "unhalt": return arguments.count == 1 ? symbol(arguments[0]).map { .halt(symbol: $0, kind: 0) } : nil
        case "partial-fill":
            return arguments.isEmpty ? .partialFill(parts: 3) : number().map { .partialFill(parts: Int($0)) }
        case "duplicate-status": return none(.duplicateNextStatus)
        case "late-exec":
            return arguments.isEmpty ? .lateExecution(seconds: 5) : number().map { .lateExecution(seconds: $0) }
        case "late-status":
            return arguments.isEmpty ? .lateStatus(seconds: 5) : number().map { .lateStatus(seconds: $0) }
        case "reorder-fill": return none(.reorderNextFill)
        case "missing-status": return none(.missingStatus)
        case "lose-modify": return none(.loseNextModify)
        case "twin-order": return none(.twinNextOrder)
        case "preset-cancel": return none(.presetCancelNextOrder)
        case "bust-bars": return none(.bustRealTimeBars)
        case "notice":
            guard (1...2).contains(arguments.count), arguments.count == 1 || arguments[1].lowercased() == "bars",
                let code = plainNumber(arguments[0]), code == code.rounded(), (100...99_999).contains(code)
            else { return nil }
            return .notice(code: Int(code), onBars: arguments.count == 2)
        case "refuse":
            guard let first = arguments.first else { return .refuseNextOrder(code: 321, text: Self.readOnlyText) }
            guard let code = plainNumber(first), code == code.rounded(), (100...99_999).contains(code) else { return nil }
            let text = arguments.dropFirst().joined(separator: " ")
            return .refuseNextOrder(code: Int(code), text: text.isEmpty ? Self.readOnlyText : text)
        case "no-exec-end": return none(.omitBlankExecutionsEnd)
        case "locate":
            return arguments.isEmpty ? .locateNextShortSale(seconds: 60) : number().map { .locateNextShortSale(seconds: $0) }
        case "deactivate": return none(.deactivateNextOrder)
        case "desupport":
            switch arguments.count {
            case 0: return .desupport(date: "20261215")
            case 1: return TWSDesupportWarning.Day(yyyymmdd: arguments[0]) == nil ? nil : .desupport(date: arguments[0])
            default: return nil
            }
        case "stall-feed":
            switch arguments.count {
            case 0: return .stallFeed(symbol: nil)
            case 1: return symbol(arguments[0]).map { .stallFeed(symbol: $0) }
            default: return nil
            }
        default: return nil
        }
    }

    /// A symbol as a fault names it: 1–12 letters, digits, `.` or `-`, upper-cased.
    static func symbol(_ text: String) -> String? {
        guard (1...12).contains(text.count),
            text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") })
        else { return nil }
        return text.uppercased()
    }

    /// The range of each command's number: counts are whole, seconds may have decimals. A restart or a delay
    /// longer than an hour is a mistake, not a drill; `advance` moves the replay clock by up to ~116 days.
    public static let ranges: [String: ClosedRange<Double>] = [
        "drop-after": 0...1_000_000, "drop-after-order": 1...1_000_000, "restart": 0...3_600, "restart-fresh": 0...3_600, "farm": 2103...2106,
        "delay": 0...3_600, "advance": 0...10_000_000, "fail-quotes": 0...1_000_000, "partial-fill": 2...100,
        "late-exec": 0...3_600, "late-status": 0...3_600, "locate": 1...86_400,
    ]

    /// IB's text of a 321 that refuses every order: the API is in read-only mode (TWS's API settings).
    public static let readOnlyText =
        "Error validating request.-'bO' : cause - The API interface is currently in Read-Only mode."

    /// The commands whose number is a count (or a code), so it must be whole.
    static let counts: Set<String> = ["drop-after", "drop-after-order", "farm", "fail-quotes", "partial-fill"]

    /// A plain decimal (`5`, `0.25`), at most 12 characters: no sign, no exponent, no `inf`/`nan`; counts
    /// (`drop-after`, `farm`, `fail-quotes`) must be whole.
    static func plainNumber(_ text: String) -> Double? {
        guard !text.isEmpty, text.count <= 12, text.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || $0 == 46 }),
            text.utf8.filter({ $0 == 46 }).count <= 1, text.first != ".", text.last != "."
        else { return nil }
        return Double(text)
    }
}

/// A `--faults FILE`: one command per line, each optionally prefixed by `at SECONDS` (wall time after start);
/// `#` starts a comment.
public struct FaultScript: Sendable, Equatable {
    /// The timed commands, in file order.
    public var entries: [(at: Double, command: FaultCommand)]

    /// Parses a script.
    /// - Throws: `FaultScriptError` naming the first bad line.
    public init(text: String) throws(FaultScriptError) {
        entries = []
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first
                .map(String.init)?.trimmingCharacters(in: .whitespaces) ?? ""
            if line.isEmpty { continue }
            var at = 0.0
            var rest = line
            let words = line.split(separator: " ")
            if words.first == "at", words.count >= 3, let t = Double(words[1]), t.isFinite, t >= 0, t <= 1e7 {
                at = t
                rest = words.dropFirst(2).joined(separator: " ")
            }
            guard let command = FaultCommand.parse(rest) else { throw FaultScriptError(line: n + 1, text: line) }
            entries.append((at, command))
        }
    }

    public static func == (lhs: FaultScript, rhs: FaultScript) -> Bool {
        lhs.entries.map(\.at) == rhs.entries.map(\.at) && lhs.entries.map(\.command) == rhs.entries.map(\.command)
    }
}

/// A line of a fault script that is not a command.
public struct FaultScriptError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 1-based line number.
    public var line: Int
    /// The line.
    public var text: String
    public var description: String { "fault script line \(line): unknown command '\(text)'" }
}

import Foundation
