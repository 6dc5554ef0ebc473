import Foundation

/// A JSON value of a transcript step's fields, as written (numbers keep their text).
///
/// Transcripts write most wire values as strings (`"lmt_price":"50.00"`) and some as JSON numbers
/// (`"order_id":100`); `text` reads either the same way, so a step can be matched and encoded without caring which.
public indirect enum TranscriptValue: Sendable, Equatable {
    case string(String)
    /// A JSON number, with its literal text (`100`, `1.25`, `-1`).
    case number(String)
    case bool(Bool)
    case null
    case array([TranscriptValue])
    case object([String: TranscriptValue])

    /// The value as wire text: strings as they are, numbers by their literal, booleans as `1`/`0`, null as empty;
    /// `nil` for arrays and objects.
    public var text: String? {
        switch self {
        case .string(let s): s
        case .number(let n): n
        case .bool(let b): b ? "1" : "0"
        case .null: ""
        case .array, .object: nil
        }
    }

    /// The binding name when the value is a `$name` string.
    public var bindingName: String? {
        guard case .string(let s) = self, s.hasPrefix("$"), s.count > 1 else { return nil }
        return s
    }
}

/// A step's fields: a JSON object, read by key.
public struct TranscriptFields: Sendable, Equatable {
    /// The keys and values as written.
    public var values: [String: TranscriptValue]

    /// Creates fields.
    public init(_ values: [String: TranscriptValue] = [:]) { self.values = values }

    /// The value at a key.
    public subscript(key: String) -> TranscriptValue? { values[key] }

    /// Whether the key is present.
    public func has(_ key: String) -> Bool { values[key] != nil }

    /// A nested object (`contract`), empty when absent.
    public func object(_ key: String) -> TranscriptFields {
        if case .object(let inner)? = values[key] { return TranscriptFields(inner) }
        return TranscriptFields()
    }

    /// A list of objects (`increments`, `ticks`), empty when absent.
    public func objects(_ key: String) -> [TranscriptFields] {
        guard case .array(let items)? = values[key] else { return [] }
        return items.compactMap { item in
            if case .object(let inner) = item { return TranscriptFields(inner) }
            return nil
        }
    }

    /// A list of texts (`accounts`, `tags`), empty when absent; a single text is a list of one.
    public func texts(_ key: String) -> [String] {
        switch values[key] {
        case .array(let items)?: return items.compactMap(\.text)
        case let value?: return value.text.map { [$0] } ?? []
        case nil: return []
        }
    }

    /// Every scalar leaf by its dotted path (`contract.symbol`); lists of scalars joined by commas, lists of objects
    /// by index (`ticks.0.price`).
    public var flattened: [String: TranscriptValue] {
        var out: [String: TranscriptValue] = [:]
        func walk(_ value: TranscriptValue, _ path: String) {
            switch value {
            case .object(let inner):
                for (key, item) in inner { walk(item, path.isEmpty ? key : path + "." + key) }
            case .array(let items):
                if items.allSatisfy({ $0.text != nil }) {
                    out[path] = .string(items.compactMap(\.text).joined(separator: ","))
                } else {
                    for (index, item) in items.enumerated() { walk(item, path + "." + String(index)) }
                }
            default:
                out[path] = value
            }
        }
        walk(.object(values), "")
        return out
    }
}

/// Reads transcript JSON with Foundation's `JSONDecoder`, keeping strings, numbers and booleans apart (a
/// transcript's `"order_id":100`, `"order_id":"100"` and `"snapshot":true` are three different spellings).
enum TranscriptJSON {
    /// Parses one JSON value that fills `text`.
    /// - Throws: the decoder's error, described.
    static func parse(_ text: Substring) throws(TranscriptJSONError) -> TranscriptValue {
        do {
            return try JSONDecoder().decode(TranscriptValue.self, from: Data(text.utf8))
        } catch {
            throw TranscriptJSONError(what: Self.describe(error))
        }
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context):
            return context.underlyingError.map { "\($0.localizedDescription)" } ?? context.debugDescription
        default:
            return "\(error)"
        }
    }
}

extension TranscriptValue: Decodable {
    public init(from decoder: any Decoder) throws {
        if var list = try? decoder.unkeyedContainer() {
            var items: [TranscriptValue] = []
            while !list.isAtEnd { items.append(try list.decode(TranscriptValue.self)) }
            self = .array(items)
            return
        }
        if let object = try? decoder.container(keyedBy: AnyKey.self) {
            var values: [String: TranscriptValue] = [:]
            for key in object.allKeys { values[key.stringValue] = try object.decode(TranscriptValue.self, forKey: key) }
            self = .object(values)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let bool = try? single.decode(Bool.self) {
            self = .bool(bool)
        } else if let string = try? single.decode(String.self) {
            self = .string(string)
        } else if let integer = try? single.decode(Int64.self) {
            self = .number(String(integer))
        } else {
            let number = try single.decode(Double.self)
            self = .number(number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number))
        }
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

/// A transcript line whose JSON does not read.
struct TranscriptJSONError: Error {
    var what: String
}
