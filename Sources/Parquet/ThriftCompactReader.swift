/// A value read with Thrift's compact protocol. Parquet's footer and page headers are read into this tree first and
/// then picked apart by field id, so fields a newer writer adds are skipped without knowing them.
enum ThriftValue: Sendable {
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case binary([UInt8])
    case list([ThriftValue])
    case `struct`(ThriftStruct)
}

/// A struct's fields by id.
struct ThriftStruct: Sendable {
    var fields: [Int16: ThriftValue] = [:]

    func int(_ id: Int16) -> Int64? {
        if case .int(let v) = fields[id] { return v }
        return nil
    }
    func bool(_ id: Int16) -> Bool? {
        if case .bool(let v) = fields[id] { return v }
        return nil
    }
    func binary(_ id: Int16) -> [UInt8]? {
        if case .binary(let v) = fields[id] { return v }
        return nil
    }
    func string(_ id: Int16) -> String? { binary(id).map { String(decoding: $0, as: UTF8.self) } }
    func `struct`(_ id: Int16) -> ThriftStruct? {
        if case .struct(let v) = fields[id] { return v }
        return nil
    }
    func list(_ id: Int16) -> [ThriftValue]? {
        if case .list(let v) = fields[id] { return v }
        return nil
    }
    func structs(_ id: Int16) -> [ThriftStruct]? {
        list(id)?.compactMap { if case .struct(let s) = $0 { s } else { nil } }
    }
}

/// Reads the compact protocol from a byte range, checking every length against what is left: a malformed or
/// truncated footer is an error, never a crash or a huge allocation.
struct ThriftCompactReader {
    private let bytes: [UInt8]
    private(set) var position: Int
    private let end: Int
    private var depth = 0

    struct Malformed: Error { var reason: String }

    init(_ bytes: [UInt8], from start: Int = 0, to end: Int? = nil) {
        self.bytes = bytes
        self.position = start
        self.end = min(end ?? bytes.count, bytes.count)
    }

    /// Reads one struct (up to its stop byte).
    mutating func readStruct() throws(Malformed) -> ThriftStruct {
        depth += 1
        defer { depth -= 1 }
        guard depth <= 32 else { throw Malformed(reason: "structs nested deeper than 32") }
        var result = ThriftStruct()
        var last: Int16 = 0
        while true {
            let header = try byte()
            if header == 0 { return result }
            let type = header & 0x0F
            let delta = header >> 4
            let id: Int16
            if delta != 0 {
                id = last &+ Int16(delta)
            } else {
                let raw = VarInt.unzigzag(try varint())
                guard raw >= Int64(Int16.min), raw <= Int64(Int16.max) else { throw Malformed(reason: "field id \(raw)") }
                id = Int16(raw)
            }
            last = id
            result.fields[id] = try value(type: type, inField: true)
        }
    }

    private mutating func value(type: UInt8, inField: Bool) throws(Malformed) -> ThriftValue {
        switch type {
        case 1: return .bool(inField ? true : try byte() == 1)
        case 2: return .bool(inField ? false : try byte() == 1)
        case 3: return .int(Int64(Int8(bitPattern: try byte())))
        case 4, 5, 6: return .int(VarInt.unzigzag(try varint()))
        case 7:
            guard end - position >= 8 else { throw Malformed(reason: "a double past the end") }
            var raw: UInt64 = 0
            for k in 0..<8 { raw |= UInt64(bytes[position + k]) << (8 * k) }
            position += 8
            return .double(Double(bitPattern: raw))
        case 8:
            let count = try length()
            defer { position += count }
            return .binary(Array(bytes[position..<position + count]))
        case 9, 10:
            // Lists nest like structs: a footer of nested lists must not recurse without bound.
            depth += 1
            defer { depth -= 1 }
            guard depth <= 32 else { throw Malformed(reason: "lists nested deeper than 32") }
            let header = try byte()
            var count = Int(header >> 4)
            if count == 15 { count = try length(unit: 1) }
            let elementType = header & 0x0F
            // Each element takes at least one byte (booleans in a list too), so the count is bounded by what is left.
            guard count <= end - position else { throw Malformed(reason: "a list of \(count) past the end") }
            var items: [ThriftValue] = []
            items.reserveCapacity(count)
            for _ in 0..<count { items.append(try value(type: elementType, inField: false)) }
            return .list(items)
        case 11:
            depth += 1
            defer { depth -= 1 }
            guard depth <= 32 else { throw Malformed(reason: "maps nested deeper than 32") }
            let count = try length(unit: 1)
            guard count > 0 else { return .list([]) }
            let types = try byte()
            var items: [ThriftValue] = []
            for _ in 0..<count {
                items.append(try value(type: types >> 4, inField: false))
                items.append(try value(type: types & 0x0F, inField: false))
            }
            return .list(items)
        case 12: return .struct(try readStruct())
        default: throw Malformed(reason: "unknown field type \(type)")
        }
    }

    private mutating func byte() throws(Malformed) -> UInt8 {
        guard position < end else { throw Malformed(reason: "ends early") }
        defer { position += 1 }
        return bytes[position]
    }

    private mutating func varint() throws(Malformed) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let b = try byte()
            guard shift < 64 else { throw Malformed(reason: "a varint longer than 10 bytes") }
            result |= UInt64(b & 0x7F) << shift
            if b & 0x80 == 0 { return result }
            shift += 7
        }
    }

    /// A length that must fit in what is left (`unit` bytes per element at least).
    private mutating func length(unit: Int = 1) throws(Malformed) -> Int {
        let raw = try varint()
        guard raw <= UInt64(end - position) / UInt64(unit) else { throw Malformed(reason: "a length of \(raw) past the end") }
        return Int(raw)
    }
}
