import Foundation
import JournalModel
import TradingEngine
import TradingModel

/// The session log's encoding: every input with its time and the actions it led to, so a session can be re-run
/// offline and compared (`SessionReplay`). A machine format, never written by hand: JSON of the values, but for the
/// bars, quotes and idle ticks that make most of a day, which have a compact form (`CompactSessionStep`).
public enum SessionLog {
    /// Encodes an input.
    public static func encode(_ input: SessionInput) throws -> Data {
        try CompactSessionStep.encode(input) ?? encoder.encode(input)
    }

    /// Encodes the recorded part of an input's actions (`isRecorded`).
    public static func encode(_ actions: [SessionAction]) throws -> Data {
        let recorded = actions.filter(\.isRecorded)
        return try CompactSessionStep.encode(recorded) ?? encoder.encode(recorded)
    }

    /// Decodes an input (either form).
    public static func input(_ data: Data) throws -> SessionInput {
        try CompactSessionStep.input(data) ?? decoder.decode(SessionInput.self, from: data)
    }

    /// Decodes actions.
    public static func actions(_ data: Data) throws -> [SessionAction] {
        try CompactSessionStep.actions(data) ?? decoder.decode([SessionAction].self, from: data)
    }

    /// Encodes a value of the log's header (the settings, the strategy).
    public static func encode(header value: some Encodable) throws -> Data { try encoder.encode(value) }

    /// Decodes a value of the log's header.
    public static func decode<T: Decodable>(_ type: T.Type, header data: Data) throws -> T {
        try decoder.decode(type, from: data)
    }

    /// Keys sorted: Foundation's encoder does not keep a struct's key order from one encoding to the next, and the
    /// same value should give the same bytes.
    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    private static var decoder: JSONDecoder { JSONDecoder() }
}

extension SessionAction {
    /// Whether the log keeps this action: not the engine events for observers (the inputs already imply them).
    public var isRecorded: Bool {
        if case .engineEvent = self { return false }
        return true
    }
}

/// The strategy of a logged session: a built-in one and the execution style around it.
public struct SessionStrategy: Sendable, Hashable, Codable {
    /// The strategy and its parameters.
    public var spec: StrategySpec
    /// `orders.timeout` alone (sessions logged before execution styles; kept for their logs).
    public var orderTimeout: TimeSpan?
    /// How entries were worked (`orders.entry`, `orders.timeout`, …).
    public var execution: ExecutionStyle?

    /// Creates a record.
    public init(spec: StrategySpec, execution: ExecutionStyle?) {
        self.spec = spec
        self.orderTimeout = nil
        self.execution = execution
    }

    /// The style the session ran with (an older log's timeout as a style of its own).
    public var style: ExecutionStyle? { execution ?? orderTimeout.map(ExecutionStyle.timeout) }
}

/// A logged step that cannot be read: which one, and why, in words.
public struct SessionLogError: Error, CustomStringConvertible {
    /// The step's number in the session.
    public let sequence: Int64
    /// Why.
    public let reason: String
    public var description: String { "input \(sequence) of the session log cannot be read: \(reason)" }
}

extension SessionLog {
    /// A logged step's input.
    /// - Throws: `SessionLogError` naming the step.
    public static func input(of step: JournalSessionStep) throws(SessionLogError) -> SessionInput {
        do { return try input(step.input) } catch { throw SessionLogError(sequence: step.sequence, reason: text(error)) }
    }

    /// A logged step's actions.
    /// - Throws: `SessionLogError` naming the step.
    public static func actions(of step: JournalSessionStep) throws(SessionLogError) -> [SessionAction] {
        do { return try actions(step.actions) } catch {
            throw SessionLogError(sequence: step.sequence, reason: text(error))
        }
    }

    /// A decoding error's words, without the enum around them.
    static func text(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        let context: DecodingError.Context
        switch error {
        case .dataCorrupted(let c), .typeMismatch(_, let c), .valueNotFound(_, let c), .keyNotFound(_, let c): context = c
        @unknown default: return "\(error)"
        }
        let path = context.codingPath.map(\.stringValue).joined(separator: ".")
        return path.isEmpty ? context.debugDescription : "\(context.debugDescription) (at \(path))"
    }
}
