import Foundation
import NIOCore

/// A JSON value, decoded from the vector files (Sendable, unlike `JSONSerialization`'s output).
public enum TWSJSON: Sendable, Equatable, Decodable, CustomStringConvertible {
    /// JSON `null`.
    case null
    /// A boolean.
    case bool(Bool)
    /// An integer.
    case int(Int64)
    /// A non-integral number.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([TWSJSON])
    /// An object.
    case object([String: TWSJSON])

    /// Decodes any JSON value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([TWSJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: TWSJSON].self))
        }
    }

    /// The member `key` of an object, or `nil`.
    public subscript(key: String) -> TWSJSON? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The string, or `nil`.
    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The integer (also from a whole double), or `nil`.
    public var int: Int? {
        switch self {
        case .int(let value): return Int(value)
        case .double(let value) where value.rounded() == value: return Int(value)
        default: return nil
        }
    }

    /// The number as a double, or `nil`.
    public var double: Double? {
        switch self {
        case .int(let value): return Double(value)
        case .double(let value): return value
        default: return nil
        }
    }

    /// The boolean, or `nil`.
    public var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The elements, or `nil`.
    public var array: [TWSJSON]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The members, or `nil`.
    public var object: [String: TWSJSON]? {
        if case .object(let value) = self { return value }
        return nil
    }

    public var description: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return "\(value)"
        case .int(let value): return "\(value)"
        case .double(let value): return "\(value)"
        case .string(let value): return "\"\(value)\""
        case .array(let value): return "[" + value.map(\.description).joined(separator: ", ") + "]"
        case .object(let value):
            let members = value.keys.sorted().map { "\($0): \(value[$0]?.description ?? "")" }
            return "{" + members.joined(separator: ", ") + "}"
        }
    }
}

/// One record of a vector file (`Tests/Fixtures/protocol/vectors/*.jsonl`, see the README there).
public struct TWSVectorRecord: Sendable {
    /// The whole record.
    public var json: TWSJSON
    /// `name`.
    public var name: String { json["name"]?.string ?? "?" }
    /// `message`.
    public var message: String { json["message"]?.string ?? "?" }
    /// `server_version`.
    public var serverVersion: Int? { json["server_version"]?.int }
    /// `fields`.
    public var fields: [String] { json["fields"]?.array?.compactMap(\.string) ?? [] }
    /// The bytes of `hex`.
    public var bytes: [UInt8] { TWSVectors.bytes(hex: json["hex"]?.string ?? "") ?? [] }
    /// The payload of a single-frame `hex` (after the 4-byte length).
    public var payload: ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(capacity: bytes.count)
        buffer.writeBytes(bytes.dropFirst(4))
        return buffer
    }
}

/// Loads vector files.
public enum TWSVectors {
    /// Loads every record of a JSON Lines file.
    /// - Parameter url: the `.jsonl` file.
    /// - Returns: its records in order.
    /// - Throws: file or JSON errors.
    public static func load(_ url: URL) throws -> [TWSVectorRecord] {
        let text = try String(contentsOf: url, encoding: .utf8)
        let decoder = JSONDecoder()
        return try text.split(separator: "\n").map { line in
            TWSVectorRecord(json: try decoder.decode(TWSJSON.self, from: Data(line.utf8)))
        }
    }

    /// Parses lower- or upper-case hex; `nil` for odd length or non-hex characters.
    public static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }

    /// Lower-case hex of some bytes.
    public static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let table = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in bytes {
            out.append(table[Int(byte >> 4)])
            out.append(table[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case 48...57: return digit - 48
        case 97...102: return digit - 87
        case 65...70: return digit - 55
        default: return nil
        }
    }
}
