import Foundation
import NIOCore
import TWSProtocol

/// Plays a transcript as the gateway: a pure state machine between a client's decoded requests and the frames a
/// gateway sends back.
///
/// Per connection leg: `connect()` gives the handshake to answer with; after the client's startApi,
/// `established(clientID:serverVersion:)` plays the server steps up to the first `client` step; each request the
/// client sends goes to `receive(_:)`, which matches it to the next `client` step (binding `$` values and the
/// client's own order ids) and plays what follows. What does not match is a `Mismatch`, unless an `ambient`
/// responder answers it (the requests a command or the bot sends that a transcript of a bare client cannot know:
/// start-up reads of the account, contract details, …).
///
/// ```swift
/// var player = TranscriptPlayer(transcript: try TWSTranscript.load(path: path))
/// guard let hello = player.connect() else { return }          // refuse: the transcript has no more legs
/// // answer the client's hello with hello.serverVersion and hello.connectionTime, read startApi, then:
/// var actions = player.established(clientID: 7, serverVersion: 200)
/// actions += player.receive(request)                          // for each request the client sends
/// ```
public struct TranscriptPlayer: Sendable {
    /// How strictly requests are matched and what answers those the transcript does not name.
    public struct Options: Sendable {
        /// Compare every field a `client` step names (`false`: only the message name, binding its ids).
        public var strictFields: Bool
        /// Answers requests that are not the next `client` step (start-up reads of a command or the bot). `nil`:
        /// every such request is a mismatch.
        public var ambient: TranscriptAmbient?
        /// Writes an execution time as TWS does in its login zone; by default from the connection time's zone when
        /// Foundation knows it, else IB's explicit UTC form.
        public var timeText: (@Sendable (Date, _ connectionTime: String) -> String)?
        /// How long a `disconnect` waits before the connection closes (`nil`: at once). A recording's `disconnect` is
        /// often its own client leaving; a command or the bot replayed through it may still be reading (its fills
        /// back, the open orders), and the ambient responder answers meanwhile. The transcript's order is kept.
        public var disconnectGrace: Duration?

        /// Creates options.
        public init(strictFields: Bool = true, ambient: TranscriptAmbient? = nil,
                    timeText: (@Sendable (Date, String) -> String)? = nil, disconnectGrace: Duration? = nil) {
            self.strictFields = strictFields
            self.ambient = ambient
            self.timeText = timeText
            self.disconnectGrace = disconnectGrace
        }
    }

    /// What the gateway does next. `send`, `sleep` and `close` are the transcript's own steps, carried out in order
    /// (a `sleep` delays what follows it); a `reply` is the ambient responder's answer and goes out at once, even while
    /// the transcript's steps sleep, as a gateway answers one request while another's answer is still to come.
    public enum Action: Sendable, Equatable {
        /// Write these framed bytes after the steps before them.
        case send(ByteBuffer)
        /// Write these framed bytes now.
        case reply(ByteBuffer)
        /// Wait this long before the next action.
        case sleep(Duration)
        /// Close the connection.
        case close
    }

    /// The server's half of a handshake.
    public struct Hello: Sendable, Equatable {
        /// The highest server version of this leg.
        public var serverVersion: Int
        /// The connection time text, as recorded.
        public var connectionTime: String
    }

    /// A request the transcript did not expect, or a step that could not be played.
    public struct Mismatch: Sendable, Equatable, CustomStringConvertible {
        /// The transcript line concerned (the expected step's), if any.
        public var line: Int?
        /// What happened.
        public var what: String

        public var description: String { line.map { "line \($0): \(what)" } ?? what }
    }

    /// The transcript.
    public let transcript: TWSTranscript
    /// The options.
    public let options: Options
    /// Where the transcript stands (an index into `transcript.lines`).
    public private(set) var cursor = 0
    /// Requests that did not match, steps that could not be played, in order.
    public private(set) var mismatches: [Mismatch] = []
    /// Every request received, with whether it matched a step (`line`) or was answered ambiently (`nil`).
    public private(set) var received: [(name: String, line: Int?)] = []
    private var context = TranscriptContext()
    private var serverVersion = TWSProtocolConstants.highestServerVersion
    private var connectionTime = ""
    private var legOpen = false

    /// Creates a player at the transcript's start.
    public init(transcript: TWSTranscript, options: Options = Options()) {
        self.transcript = transcript
        self.options = options
        // What the recording shows of each contract (conId, local symbol, trading class) is what the gateway knows of
        // it from the start: contract details asked before the contract's first appearance are answered with it.
        for line in transcript.lines {
            switch line.step {
            case .server(let message), .client(let message):
                let contract = message.fields.object("contract")
                if contract.has("symbol") { _ = try? TranscriptServerMessages.contract(contract, context: &context) }
                let symbol = contract["symbol"]?.text ?? message.fields["symbol"]?.text ?? ""
                let price = ["price", "lmt_price", "aux_price", "avg_cost"].lazy
                    .compactMap { message.fields[$0]?.text.flatMap(Double.init) }.first { $0 > 0 && $0 < 1e9 }
                if !symbol.isEmpty, let price, context.prices[symbol] == nil { context.prices[symbol] = price }
            default:
                continue
            }
        }
    }

    /// What the session amounted to so far.
    public var report: TranscriptReport {
        TranscriptReport(
            name: transcript.name, mismatches: mismatches, unplayed: nextLine,
            ambient: received.filter { $0.line == nil }.map(\.name), refusedConnections: 0)
    }

    /// Whether every step has been played.
    public var isFinished: Bool { cursor >= transcript.lines.count }

    /// The next step still to be played, if any.
    public var nextLine: TWSTranscript.Line? { isFinished ? nil : transcript.lines[cursor] }

    /// Whether the transcript waits for the client (its next step is a `client` step).
    public var awaitsClient: Bool {
        guard let next = nextLine else { return false }
        switch next.step {
        case .client, .split(.client, _, _), .raw(.client, _): return true
        default: return false
        }
    }

    /// A client connects: the next leg's handshake, or `nil` when the transcript has no leg to open here (refuse the
    /// connection). The cursor moves past the `handshake` step.
    public mutating func connect() -> Hello? {
        guard let next = nextLine, case .handshake(let version, let time) = next.step else {
            // A transcript without a handshake line serves one leg at the current version.
            if cursor == 0, !transcript.lines.isEmpty, !legOpen {
                legOpen = true
                return Hello(serverVersion: serverVersion, connectionTime: "20260101 00:00:00 UTC")
            }
            return nil
        }
        cursor += 1
        serverVersion = version
        connectionTime = time
        legOpen = true
        let connection = time
        let custom = options.timeText
        context.timeText = { date in
            if let custom { return custom(date, connection) }
            return TranscriptTimes.loginZoneText(date, connectionTime: connection)
        }
        return Hello(serverVersion: version, connectionTime: time)
    }

    /// The client's startApi arrived: the server steps up to the first `client` step.
    public mutating func established(clientID: Int, serverVersion negotiated: Int) -> [Action] {
        context.clientID = clientID
        serverVersion = negotiated
        return play()
    }

    /// A request from the client.
    public mutating func receive(_ request: TWSRequest) -> [Action] {
        let (name, fields) = TranscriptClientMessages.describe(request)
        if let line = nextLine, case .client(let expected) = line.step, expected.name == name,
            let bound = match(expected, fields, line: line.number)
        {
            // Bind after the whole step matched, never half.
            context.bindings.merge(bound.bindings) { _, new in new }
            context.orderIDs.merge(bound.orderIDs) { _, new in new }
            note(request)
            received.append((name, line.number))
            cursor += 1
            return play()
        }
        if let line = nextLine, case .split(.client, _, let expected) = line.step, expected.name == name,
            let bound = match(expected, fields, line: line.number)
        {
            context.bindings.merge(bound.bindings) { _, new in new }
            context.orderIDs.merge(bound.orderIDs) { _, new in new }
            note(request)
            received.append((name, line.number))
            cursor += 1
            return play()
        }
        note(request)
        if let ambient = options.ambient, let answers = ambient.answer(request, context: context, serverVersion: serverVersion) {
            received.append((name, nil))
            return answers.compactMap { response in encode(response, line: nil).map(Action.reply) }
        }
        received.append((name, nil))
        let expected: String
        switch nextLine?.step {
        case .client(let message)?: expected = "the transcript expects \(message.name) \(summary(message.fields))"
        case nil: expected = "the transcript has ended"
        default: expected = "the transcript expects no request here"
        }
        mismatches.append(Mismatch(line: nextLine?.number, what: "unexpected \(name) \(summary(fields)): \(expected)"))
        return []
    }

    /// A frame from the client that does not decode as a request.
    public mutating func undecodable(_ what: String) {
        mismatches.append(Mismatch(line: nextLine?.number, what: "the client sent a frame that does not decode: \(what)"))
    }

    /// The client closed its connection. A leg the transcript still has client steps for is a mismatch.
    public mutating func clientClosed() {
        guard legOpen else { return }
        legOpen = false
        // Skip to the end of this leg: a `disconnect` step right here is the server's close, now moot.
        while let next = nextLine {
            switch next.step {
            case .handshake: return
            case .disconnect:
                cursor += 1
                return
            case .client(let message):
                mismatches.append(Mismatch(line: next.number, what: "the client closed the connection before sending \(message.name)"))
                cursor += 1
            default:
                cursor += 1
            }
        }
    }

    // MARK: - Playing

    /// Plays server steps, sleeps and disconnects until the next `client` step, the next leg or the end.
    private mutating func play() -> [Action] {
        var actions: [Action] = []
        while let next = nextLine {
            switch next.step {
            case .client, .split(.client, _, _), .raw(.client, _), .handshake:
                return actions
            case .server(let message) where message.name == "historical_bar":
                // Consecutive bars of one request are one historicalData message on the wire.
                var bars: [TWSTranscript.Message] = []
                while let line = nextLine, case .server(let bar) = line.step, bar.name == "historical_bar",
                    bars.isEmpty || bar.fields["req_id"] == bars[0].fields["req_id"]
                {
                    bars.append(bar)
                    cursor += 1
                }
                do {
                    let response = try TranscriptServerMessages.historicalData(bars, context: context)
                    if let frame = encode(response, line: next.number) { actions.append(.send(frame)) }
                } catch {
                    mismatches.append(Mismatch(line: next.number, what: "\(error)"))
                }
                continue
            case .server(let message):
                cursor += 1
                do {
                    let response = try TranscriptServerMessages.response(message, context: &context)
                    if let frame = encode(response, line: next.number) { actions.append(.send(frame)) }
                } catch {
                    mismatches.append(Mismatch(line: next.number, what: "\(error)"))
                }
            case .split(.server, let sizes, let message):
                cursor += 1
                do {
                    let response = try TranscriptServerMessages.response(message, context: &context)
                    guard var frame = encode(response, line: next.number) else { continue }
                    for size in sizes {
                        guard let piece = frame.readSlice(length: min(size, frame.readableBytes)), piece.readableBytes > 0
                        else { break }
                        actions.append(.send(piece))
                    }
                    if frame.readableBytes > 0 { actions.append(.send(frame)) }
                } catch {
                    mismatches.append(Mismatch(line: next.number, what: "\(error)"))
                }
            case .raw(.server, let bytes):
                cursor += 1
                actions.append(.send(ByteBuffer(bytes: bytes)))
            case .sleep(let duration):
                cursor += 1
                actions.append(.sleep(duration))
            case .disconnect:
                cursor += 1
                legOpen = false
                if let grace = options.disconnectGrace { actions.append(.sleep(grace)) }
                actions.append(.close)
                return actions
            }
        }
        return actions
    }

    private mutating func encode(_ response: TWSResponse, line: Int?) -> ByteBuffer? {
        do {
            return try response.encode(serverVersion: serverVersion)
        } catch {
            mismatches.append(Mismatch(line: line, what: "cannot encode \(response): \(error)"))
            return nil
        }
    }

    /// Remembers what the client placed (TWS echoes it).
    private mutating func note(_ request: TWSRequest) {
        if case .placeOrder(let id, let contract, let order) = request {
            context.placed[id] = (contract, order)
            if !contract.symbol.isEmpty, context.contracts[contract.symbol] == nil { context.contracts[contract.symbol] = contract }
        }
    }

    /// The bindings a matching step makes, or `nil` when it does not match (the mismatch recorded).
    private mutating func match(
        _ expected: TWSTranscript.Message, _ actual: [String: String], line: Int
    ) -> (bindings: [String: String], orderIDs: [Int: Int])? {
        var bindings: [String: String] = [:]
        var orderIDs: [Int: Int] = [:]
        var differences: [String] = []
        for (key, value) in expected.fields.flattened.sorted(by: { $0.key < $1.key }) {
            if TranscriptClientMessages.encodingKeys.contains(key) { continue }
            let ours = actual[key]
            if let name = value.bindingName {
                if let bound = context.bindings[name] ?? bindings[name] {
                    if bound != ours { differences.append("\(key) \(ours ?? "absent") (bound \(name) = \(bound))") }
                } else {
                    bindings[name] = ours ?? ""
                }
                continue
            }
            let text = value.text ?? ""
            if key == "order_id" || key == "parent_id", let literal = Int(text), let sent = ours.flatMap({ Int($0) }) {
                // The client's own ids: the transcript's literal stands for the id the client chose.
                if let known = context.orderIDs[literal] ?? orderIDs[literal] {
                    if known != sent { differences.append("\(key) \(sent) (expected \(known), the transcript's \(literal))") }
                } else if literal != sent {
                    orderIDs[literal] = sent
                }
                continue
            }
            guard options.strictFields else { continue }
            if !TranscriptClientMessages.same(text, ours) {
                differences.append("\(key) \(ours.map { "\"\($0)\"" } ?? "absent") (expected \"\(text)\")")
            }
        }
        guard differences.isEmpty else {
            mismatches.append(Mismatch(line: line, what: "\(expected.name) differs: " + differences.joined(separator: ", ")))
            return nil
        }
        return (bindings, orderIDs)
    }

    private func summary(_ fields: TranscriptFields) -> String {
        let flat = fields.flattened.compactMap { key, value in value.text.map { "\(key)=\($0)" } }.sorted()
        return flat.isEmpty ? "" : "{" + flat.prefix(6).joined(separator: ", ") + (flat.count > 6 ? ", …}" : "}")
    }

    private func summary(_ fields: [String: String]) -> String {
        let flat = fields.filter { !$0.value.isEmpty }.map { "\($0.key)=\($0.value)" }.sorted()
        return flat.isEmpty ? "" : "{" + flat.prefix(6).joined(separator: ", ") + (flat.count > 6 ? ", …}" : "}")
    }
}

extension TranscriptTimes {
    /// An instant as TWS writes it in the zone its connection time names (`yyyyMMdd HH:mm:ss <zone>`), when
    /// Foundation knows that name; else IB's explicit UTC form.
    public static func loginZoneText(_ date: Date, connectionTime: String) -> String {
        let words = connectionTime.split(separator: " ")
        guard words.count > 2 else { return utcText(date) }
        let name = words[2...].joined(separator: " ")
        guard let zone = TimeZone(identifier: name) ?? TimeZone(abbreviation: name) else { return utcText(date) }
        return zoned(date, zone: zone, name: name)
    }
}

/// What a played session amounted to.
public struct TranscriptReport: Sendable, CustomStringConvertible {
    /// The transcript's name.
    public var name: String
    /// Requests that matched no step, steps that could not be played.
    public var mismatches: [TranscriptPlayer.Mismatch]
    /// The first step not played (the transcript did not run to its end), if any.
    public var unplayed: TWSTranscript.Line?
    /// Requests answered by the ambient responder, by name, in order.
    public var ambient: [String]
    /// Connections refused because the transcript had no leg left.
    public var refusedConnections: Int

    /// No mismatch and every step played.
    public var passed: Bool { mismatches.isEmpty && unplayed == nil }

    public var description: String {
        var lines = ["\(name): " + (passed ? "passed" : "failed")]
        lines += mismatches.map { "  \($0)" }
        if let unplayed { lines.append("  stopped at line \(unplayed.number): \(unplayed.step)") }
        if !ambient.isEmpty { lines.append("  answered ambiently: \(ambient.joined(separator: ", "))") }
        if refusedConnections > 0 { lines.append("  connections refused (no leg left): \(refusedConnections)") }
        return lines.joined(separator: "\n")
    }
}
