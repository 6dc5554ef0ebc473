import Foundation

/// A TWS API session as a transcript: what the client sends and what the gateway answers, step by step.
///
/// The format (`shared/transcripts/README.md`; the files come from the public Go client ibkr-go's
/// `testdata/transcripts`, MIT licence) is one step per line, `#` starting a comment:
///
/// ```text
/// handshake {"server_version":200,"connection_time":"20260414 20:36:26 Central European Standard Time"}
/// server next_valid_id {"order_id":1}
/// client place_order {"order_id":"1","action":"BUY","total_quantity":"1","order_type":"LMT","lmt_price":"10"}
/// server open_order {"order_id":1,"status":"Submitted","lmt_price":"10.00","aux_price":"0"}
/// sleep 100ms
/// disconnect
/// ```
///
/// `handshake` opens a connection leg (the server's half of the handshake, with the literal connection time text);
/// `client` is what the client is expected to send next, `server` what the gateway sends; `split <direction>
/// <sizes> <message> {json}` one message in several TCP pieces; `raw <direction> <base64>` framed bytes as they
/// are. A string value beginning with `$` is a binding: the first client step that carries it binds the value the
/// client sent, later steps use it. Message names map one to one to TWS messages (`TranscriptMessages`); field names
/// are the official client's names in snake case.
public struct TWSTranscript: Sendable {
    /// Where a message goes.
    public enum Direction: String, Sendable, Equatable {
        case client
        case server
    }

    /// A named message with its fields.
    public struct Message: Sendable, Equatable {
        /// The message name (`place_order`, `open_order`).
        public var name: String
        /// Its fields as written.
        public var fields: TranscriptFields

        /// Creates a message.
        public init(name: String, fields: TranscriptFields = TranscriptFields()) {
            self.name = name
            self.fields = fields
        }
    }

    /// One step.
    public enum Step: Sendable, Equatable {
        /// A new connection leg: the server version and the connection time text the server answers with.
        case handshake(serverVersion: Int, connectionTime: String)
        /// What the client sends next.
        case client(Message)
        /// What the server sends.
        case server(Message)
        /// A pause.
        case sleep(Duration)
        /// The server closes the connection.
        case disconnect
        /// One message delivered in pieces of these sizes (bytes of the framed message).
        case split(Direction, sizes: [Int], Message)
        /// Framed bytes as they are.
        case raw(Direction, [UInt8])
    }

    /// A step with its line in the file (1-based).
    public struct Line: Sendable, Equatable {
        /// The line number.
        public var number: Int
        /// The step.
        public var step: Step
    }

    /// The file's name without its folder (`place_order_modify.txt`), for messages.
    public var name: String
    /// The comment lines before the first step, without `#`.
    public var header: [String]
    /// The steps in order.
    public var lines: [Line]

    /// Whether the transcript says it was recorded from a real IB Gateway (`Grounded by live API capture`).
    public var isGrounded: Bool {
        header.contains { $0.localizedCaseInsensitiveContains("grounded by live") }
            || header.contains { $0.localizedCaseInsensitiveContains("live-derived") }
    }

    /// The connection legs: each starts at a `handshake` step and runs to the next one.
    public var legs: [[Line]] {
        var out: [[Line]] = []
        for line in lines {
            if case .handshake = line.step { out.append([]) }
            if out.isEmpty { out.append([]) }
            out[out.count - 1].append(line)
        }
        return out
    }

    /// Reads a transcript.
    /// - Parameters:
    ///   - text: the file's text.
    ///   - name: the file's name, for errors.
    /// - Throws: `TranscriptError` naming the file, line and what is wrong.
    public static func parse(_ text: String, name: String) throws(TranscriptError) -> TWSTranscript {
        var transcript = TWSTranscript(name: name, header: [], lines: [])
        for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = offset + 1
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty { continue }
            if line.hasPrefix("#") {
                if transcript.lines.isEmpty { transcript.header.append(String(line.dropFirst()).trimmingCharacters(in: .whitespaces)) }
                continue
            }
            let step = try parseStep(line[...], file: name, line: number)
            transcript.lines.append(Line(number: number, step: step))
        }
        return transcript
    }

    /// Reads a transcript file.
    /// - Throws: `TranscriptError.unreadable` when the file cannot be read, or a parse error.
    public static func load(path: String) throws(TranscriptError) -> TWSTranscript {
        let name = (path as NSString).lastPathComponent
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable(file: path) }
        return try parse(String(decoding: data, as: UTF8.self), name: name)
    }

    private static func parseStep(_ line: Substring, file: String, line number: Int) throws(TranscriptError) -> Step {
        let (keyword, rest) = word(line)
        func bad(_ what: String) -> TranscriptError { .malformed(file: file, line: number, what) }
        switch keyword {
        case "handshake":
            let fields = try object(rest, file: file, line: number)
            guard let version = fields["server_version"]?.text.flatMap({ Int($0) }) else {
                throw bad("handshake without a server_version")
            }
            return .handshake(serverVersion: version, connectionTime: fields["connection_time"]?.text ?? "")
        case "client", "server":
            let message = try self.message(rest, file: file, line: number)
            return keyword == "client" ? .client(message) : .server(message)
        case "sleep":
            guard let duration = Self.duration(rest.trimmingCharacters(in: .whitespaces)) else {
                throw bad("sleep needs a duration such as 100ms, 2s or 1m, not \"\(rest)\"")
            }
            return .sleep(duration)
        case "disconnect":
            return .disconnect
        case "split":
            let (directionText, afterDirection) = word(rest)
            guard let direction = Direction(rawValue: String(directionText)) else { throw bad("split needs client or server") }
            let (sizesText, afterSizes) = word(afterDirection)
            let sizes = sizesText.split(separator: ",").compactMap { Int($0) }
            guard !sizes.isEmpty, sizes.allSatisfy({ $0 > 0 }) else { throw bad("split needs sizes such as 3,5,20") }
            return .split(direction, sizes: sizes, try message(afterSizes, file: file, line: number))
        case "raw":
            let (directionText, afterDirection) = word(rest)
            guard let direction = Direction(rawValue: String(directionText)) else { throw bad("raw needs client or server") }
            guard let data = Data(base64Encoded: afterDirection.trimmingCharacters(in: .whitespaces)) else {
                throw bad("raw needs base64 bytes")
            }
            return .raw(direction, Array(data))
        default:
            throw bad("unknown step \"\(keyword)\" (expected handshake, client, server, sleep, disconnect, split or raw)")
        }
    }

    private static func message(_ text: Substring, file: String, line: Int) throws(TranscriptError) -> Message {
        let (name, rest) = word(text)
        guard !name.isEmpty else { throw .malformed(file: file, line: line, "a message name is missing") }
        let body = rest.trimmingCharacters(in: .whitespaces)
        let fields = body.isEmpty ? TranscriptFields() : try object(body[...], file: file, line: line)
        return Message(name: String(name), fields: fields)
    }

    private static func object(_ text: Substring, file: String, line: Int) throws(TranscriptError) -> TranscriptFields {
        let value: TranscriptValue
        do {
            value = try TranscriptJSON.parse(text)
        } catch {
            throw .malformed(file: file, line: line, "the fields are not JSON: \(error.what)")
        }
        guard case .object(let values) = value else { throw .malformed(file: file, line: line, "the fields must be a JSON object") }
        return TranscriptFields(values)
    }

    private static func word(_ text: Substring) -> (Substring, Substring) {
        let trimmed = text.drop { $0 == " " || $0 == "\t" }
        guard let space = trimmed.firstIndex(where: { $0 == " " || $0 == "\t" }) else { return (trimmed, "") }
        return (trimmed[..<space], trimmed[space...])
    }

    /// `100ms`, `2s`, `1.5s`, `1m`, `250us`.
    static func duration(_ text: String) -> Duration? {
        for (suffix, scale) in [("ms", 1e-3), ("us", 1e-6), ("µs", 1e-6), ("ns", 1e-9), ("s", 1.0), ("m", 60.0)] {
            guard text.hasSuffix(suffix), let value = Double(text.dropLast(suffix.count)), value >= 0, value < 86_400
            else { continue }
            return .nanoseconds(Int64((value * scale * 1e9).rounded()))
        }
        return nil
    }
}

/// A transcript that cannot be read.
public enum TranscriptError: Error, Equatable, CustomStringConvertible {
    /// The file cannot be read.
    case unreadable(file: String)
    /// A line is not a step.
    case malformed(file: String, line: Int, String)

    public var description: String {
        switch self {
        case .unreadable(let file): "\(file): cannot be read"
        case .malformed(let file, let line, let what): "\(file):\(line): \(what)"
        }
    }
}
