/// Writes Apache Thrift's compact protocol, the encoding of Parquet's page headers and footer.
///
/// Only what Parquet's metadata uses: structs (nested), lists, booleans, 32- and 64-bit integers and binary. Field
/// ids are written as deltas from the previous field of the same struct, as the protocol requires.
struct ThriftCompactWriter {
    private(set) var bytes: [UInt8] = []
    private var lastField: [Int16] = [0]

    enum FieldType: UInt8 {
        case boolTrue = 1, boolFalse = 2, byte = 3, i16 = 4, i32 = 5, i64 = 6, double = 7, binary = 8, list = 9
        case set = 10, map = 11, `struct` = 12
    }

    mutating func i32(_ id: Int16, _ value: Int32) {
        fieldHeader(id, .i32)
        varint(VarInt.zigzag(Int64(value)))
    }

    mutating func i16(_ id: Int16, _ value: Int16) {
        fieldHeader(id, .i16)
        varint(VarInt.zigzag(Int64(value)))
    }

    mutating func i64(_ id: Int16, _ value: Int64) {
        fieldHeader(id, .i64)
        varint(VarInt.zigzag(value))
    }

    mutating func bool(_ id: Int16, _ value: Bool) {
        fieldHeader(id, value ? .boolTrue : .boolFalse)
    }

    mutating func binary(_ id: Int16, _ value: [UInt8]) {
        fieldHeader(id, .binary)
        varint(UInt64(value.count))
        bytes += value
    }

    mutating func string(_ id: Int16, _ value: String) { binary(id, Array(value.utf8)) }

    /// A nested struct: `body` writes its fields; the stop byte is added.
    mutating func `struct`(_ id: Int16, _ body: (inout ThriftCompactWriter) -> Void) {
        fieldHeader(id, .struct)
        structBody(body)
    }

    /// A list of structs.
    mutating func structList<T>(_ id: Int16, _ items: [T], _ body: (inout ThriftCompactWriter, T) -> Void) {
        fieldHeader(id, .list)
        listHeader(count: items.count, .struct)
        for item in items { structBody { body(&$0, item) } }
    }

    /// A list of 32-bit integers (Parquet's enum lists).
    mutating func i32List(_ id: Int16, _ items: [Int32]) {
        fieldHeader(id, .list)
        listHeader(count: items.count, .i32)
        for item in items { varint(VarInt.zigzag(Int64(item))) }
    }

    mutating func stringList(_ id: Int16, _ items: [String]) {
        fieldHeader(id, .list)
        listHeader(count: items.count, .binary)
        for item in items {
            varint(UInt64(item.utf8.count))
            bytes += Array(item.utf8)
        }
    }

    /// The top-level struct's stop byte.
    mutating func stop() { bytes.append(0) }

    private mutating func structBody(_ body: (inout ThriftCompactWriter) -> Void) {
        lastField.append(0)
        body(&self)
        bytes.append(0)
        lastField.removeLast()
    }

    private mutating func fieldHeader(_ id: Int16, _ type: FieldType) {
        let delta = Int(id) - Int(lastField[lastField.count - 1])
        if delta > 0 && delta <= 15 {
            bytes.append(UInt8(delta) << 4 | type.rawValue)
        } else {
            bytes.append(type.rawValue)
            varint(VarInt.zigzag(Int64(id)))
        }
        lastField[lastField.count - 1] = id
    }

    private mutating func listHeader(count: Int, _ type: FieldType) {
        if count < 15 {
            bytes.append(UInt8(count) << 4 | type.rawValue)
        } else {
            bytes.append(0xF0 | type.rawValue)
            varint(UInt64(count))
        }
    }

    mutating func varint(_ value: UInt64) { VarInt.append(value, to: &bytes) }
}
