import Foundation
import NIOCore

/// Reads the NUL-terminated text fields of one message payload, in order, with the rules of PROTOCOL.md §3.
///
/// The reader works on the payload bytes directly: numbers are parsed without building a `String`, and string
/// fields of up to 15 bytes stay in Swift's inline small-string storage, so a typical tick costs no heap allocation.
///
/// Naming: `read…` methods take the field's name, used only when the field is missing or malformed.
/// - `readInt` / `readDouble`: an empty field is 0 (the official decoder's `decode(int/float)`).
/// - `readOptionalInt` / `readOptionalDouble` / `readOptionalDecimal`: empty and every sentinel spelling are `nil`.
///
/// ```swift
/// var reader = TWSFieldReader(payload: payload, message: "tickPrice")
/// let requestID = try reader.readInt("reqId")
/// ```
public struct TWSFieldReader: @unchecked Sendable {
    // Sendable: the reader only reads its bytes, which are immutable while it exists (the `owner` buffer is never
    // mutated; scoped bytes belong to a `withUnsafeReadableBytes` call that outlives the reader).

    /// The payload, when the reader was made from a `ByteBuffer` (public initialiser): every field access then goes
    /// through `owner.withUnsafeReadableBytes`, so no pointer escapes. `nil` for a scoped reader.
    let owner: ByteBuffer?
    /// The payload bytes of a scoped reader (see `init(scopedBytes:message:index:position:)`); unused with `owner`.
    let scopedBytes: UnsafeRawBufferPointer
    /// The offset of the next field within the payload bytes.
    var position: Int
    /// The number of fields consumed so far (the message id is field 0).
    public private(set) var index: Int = 0
    /// The message being decoded, for error texts.
    public var message: String

    /// Creates a reader over a payload (the bytes after the 4-byte length).
    public init(payload: ByteBuffer, message: String = "message") {
        self.owner = payload
        self.scopedBytes = UnsafeRawBufferPointer(start: nil, count: 0)
        self.position = 0
        self.message = message
    }

    /// Creates a reader over bytes that stay valid and unchanged for the reader's whole life: only for use inside
    /// the closure of `withUnsafeReadableBytes` (or equivalent) that yielded `bytes`, never escaped from it.
    /// `position` is the offset of the next field, `index` its number.
    init(scopedBytes bytes: UnsafeRawBufferPointer, message: String, index: Int = 0, position: Int = 0) {
        self.owner = nil
        self.scopedBytes = bytes
        self.position = position
        self.index = index
        self.message = message
    }

    /// Hands the payload bytes to `body` (the whole payload; `position` indexes into it).
    @inline(__always)
    func withBytes<Value>(_ body: (UnsafeRawBufferPointer) -> Value) -> Value {
        if let owner { return owner.withUnsafeReadableBytes(body) }
        return body(scopedBytes)
    }

    /// Whether every field has been read.
    public var isAtEnd: Bool { withBytes { position >= $0.count } }

    /// The number of fields not yet read.
    public var remainingFieldCount: Int {
        withBytes { bytes in
            var count = 0
            var offset = position
            while offset < bytes.count {
                if bytes[offset] == 0 { count += 1 }
                offset += 1
            }
            return count
        }
    }

    // MARK: - Raw access

    /// The outcome of parsing one field inside the payload's memory.
    enum FieldParse<Value> {
        case value(Value)
        case malformed(String)
    }

    /// Finds the NUL that ends the field starting at `start`: its offset, or `nil` when there is none.
    /// Every read is checked against `bytes.count`.
    @inline(__always)
    static func fieldEnd(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        var offset = start
        let count = bytes.count
        while offset < count {
            if base.load(fromByteOffset: offset, as: UInt8.self) == 0 { return offset }
            offset &+= 1
        }
        return nil
    }

    /// Hands the next field's bytes (without the NUL) to `body`, then moves past the field.
    ///
    /// The bytes are read in place, so nothing is allocated unless `body` allocates.
    /// - Throws: `missingField` when the payload has no further NUL-terminated field.
    @inline(__always)
    mutating func withNextField<Value>(
        _ name: StaticString,
        _ body: (UnsafeRawBufferPointer) -> Value
    ) throws(TWSDecodingError) -> Value {
        let start = position
        let found: (value: Value, end: Int)? = withBytes { bytes in
            guard start <= bytes.count, let end = Self.fieldEnd(in: bytes, from: start) else { return nil }
            return (body(UnsafeRawBufferPointer(rebasing: bytes[start..<end])), end)
        }
        guard let found else { throw .missingField(message: message, field: "\(name)", index: index) }
        position = found.end &+ 1
        index &+= 1
        return found.value
    }

    /// Parses the next field with `parse`; an unparsable field becomes `malformedField`.
    @inline(__always)
    mutating func parseNextField<Value>(
        _ name: StaticString,
        _ parse: (UnsafeRawBufferPointer) -> Value?
    ) throws(TWSDecodingError) -> Value {
        let result: Value? = try withNextField(name, parse)
        if let result { return result }
        throw malformedPreviousField(name)
    }

    /// The `malformedField` error for the field just read (re-read for its text: errors only).
    @inline(never)
    func malformedPreviousField(_ name: StaticString) -> TWSDecodingError {
        let text: String = withBytes { bytes in
            // The previous field ends at position - 1 (its NUL); find its start.
            let end = Swift.min(Swift.max(position - 1, 0), bytes.count)
            var start = end
            while start > 0 && bytes[start - 1] != 0 { start -= 1 }
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }
        return .malformedField(message: message, field: "\(name)", index: index - 1, value: text)
    }

    /// Reads the next field's bytes as a view (a copy-free slice of the payload).
    /// - Throws: `missingField` when the payload has no further NUL-terminated field.
    public mutating func readRawField(_ name: StaticString) throws(TWSDecodingError) -> ByteBufferView {
        let start = position
        let length = try withNextField(name) { $0.count }
        if let owner {
            return owner.getSlice(at: owner.readerIndex + start, length: length)?.readableBytesView ?? ByteBufferView()
        }
        // A scoped reader's bytes cannot outlive it: copy them.
        var copy = ByteBufferAllocator().buffer(capacity: length)
        copy.writeBytes(UnsafeRawBufferPointer(rebasing: scopedBytes[start..<start + length]))
        return copy.readableBytesView
    }

    /// Reads the message id (field 0).
    /// - Throws: `malformedMessageID` when it is not an integer, `missingField` for an empty payload.
    public mutating func readMessageID() throws(TWSDecodingError) -> Int {
        let result: FieldParse<Int> = try withNextField("msgId") { field in
            if let value = Self.scanInteger(field) { return .value(value) }
            return .malformed(String(decoding: field, as: UTF8.self))
        }
        switch result {
        case .value(let value): return value
        case .malformed(let text): throw .malformedMessageID(text)
        }
    }

    /// Skips `count` fields whose values are not needed.
    @inline(__always)
    public mutating func skip(_ count: Int, _ name: StaticString = "skipped") throws(TWSDecodingError) {
        var remaining = count
        while remaining > 0 {
            try withNextField(name) { _ in () }
            remaining &-= 1
        }
    }

    /// Throws when fields remain after a message has been fully decoded.
    public func expectEnd() throws(TWSDecodingError) {
        if !isAtEnd { throw .trailingFields(message: message, count: remainingFieldCount) }
    }

    // MARK: - Strings

    /// Reads a text field as is.
    public mutating func readString(_ name: StaticString) throws(TWSDecodingError) -> String {
        try withNextField(name) { String(decoding: $0, as: UTF8.self) }
    }

    /// Reads a text field, with `nil` for an empty field.
    public mutating func readOptionalString(_ name: StaticString) throws(TWSDecodingError) -> String? {
        try withNextField(name) { $0.isEmpty ? nil : String(decoding: $0, as: UTF8.self) }
    }

    // MARK: - Integers

    /// Reads an int; empty is 0. The sentinel `2147483647` is returned as is.
    public mutating func readInt(_ name: StaticString) throws(TWSDecodingError) -> Int {
        try parseNextField(name) { $0.isEmpty ? 0 : Self.scanInteger($0) }
    }

    /// Reads an int that must be present: empty is an error, not 0.
    public mutating func readRequiredInt(_ name: StaticString) throws(TWSDecodingError) -> Int {
        try parseNextField(name) { Self.scanInteger($0) }
    }

    /// Reads an int; empty and `2147483647` are `nil`.
    public mutating func readOptionalInt(_ name: StaticString) throws(TWSDecodingError) -> Int? {
        let value: Int?? = try parseNextField(name) { field -> Int?? in
            if field.isEmpty { return .some(nil) }
            guard let value = Self.scanInteger(field) else { return nil }
            return .some(value == TWSSentinel.int32 ? nil : value)
        }
        return value ?? nil
    }

    /// Reads a 64-bit int (permIds, times); empty is 0.
    public mutating func readInt64(_ name: StaticString) throws(TWSDecodingError) -> Int64 {
        Int64(try readInt(name))
    }

    /// Reads a 64-bit int; empty and `9223372036854775807` are `nil`.
    public mutating func readOptionalInt64(_ name: StaticString) throws(TWSDecodingError) -> Int64? {
        let value: Int64?? = try parseNextField(name) { field -> Int64?? in
            if field.isEmpty { return .some(nil) }
            guard let value = Self.scanInteger(field) else { return nil }
            return .some(Int64(value) == TWSSentinel.int64 ? nil : Int64(value))
        }
        return value ?? nil
    }

    /// Reads a boolean: any non-zero int is true, empty is false.
    public mutating func readBool(_ name: StaticString) throws(TWSDecodingError) -> Bool {
        try readInt(name) != 0
    }

    /// Reads a boolean; empty is `nil`.
    public mutating func readOptionalBool(_ name: StaticString) throws(TWSDecodingError) -> Bool? {
        guard let value = try readOptionalInt(name) else { return nil }
        return value != 0
    }

    /// Reads a repeat count: a non-negative int no larger than the number of bytes left (empty is 0).
    public mutating func readCount(_ name: StaticString) throws(TWSDecodingError) -> Int {
        let left = withBytes { $0.count } - position
        return try parseNextField(name) { field -> Int? in
            if field.isEmpty { return 0 }
            // Each item is at least its NUL: no more items than the bytes after this field.
            guard let value = Self.scanInteger(field), value >= 0, value <= left - field.count - 1 else { return nil }
            return value
        }
    }

    /// Reads `count` then that many tag/value field pairs.
    public mutating func readTagValues(_ name: StaticString) throws(TWSDecodingError) -> [TWSTagValue] {
        let count = try readCount(name)
        var list: [TWSTagValue] = []
        for _ in 0..<count {
            let tag = try readString("tag")
            let value = try readString("value")
            list.append(TWSTagValue(tag, value))
        }
        return list
    }

    // MARK: - Doubles

    /// Reads a double; empty is 0. `Infinity` and the sentinel are returned as values.
    public mutating func readDouble(_ name: StaticString) throws(TWSDecodingError) -> Double {
        try parseNextField(name) { $0.isEmpty ? 0 : Self.scanDouble($0) }
    }

    /// Reads a double; empty and `1.7976931348623157E308` (any spelling) are `nil`.
    public mutating func readOptionalDouble(_ name: StaticString) throws(TWSDecodingError) -> Double? {
        let value: Double?? = try parseNextField(name) { field -> Double?? in
            if field.isEmpty { return .some(nil) }
            guard let value = Self.scanDouble(field) else { return nil }
            return .some(value == TWSSentinel.double ? nil : value)
        }
        return value ?? nil
    }

    // MARK: - Decimals

    /// Reads a quantity; empty and every sentinel spelling (`2147483647`, `9223372036854775807`,
    /// `1.7976931348623157E308`) are `nil`.
    public mutating func readOptionalDecimal(_ name: StaticString) throws(TWSDecodingError) -> Decimal? {
        let value: Decimal?? = try parseNextField(name) { field -> Decimal?? in
            if field.isEmpty { return .some(nil) }
            return Self.scanDecimal(field)
        }
        return value ?? nil
    }

    /// Reads a quantity that must be present.
    public mutating func readDecimal(_ name: StaticString) throws(TWSDecodingError) -> Decimal {
        let start = index
        guard let value = try readOptionalDecimal(name) else {
            throw .malformedField(message: message, field: "\(name)", index: start, value: "")
        }
        return value
    }
}
