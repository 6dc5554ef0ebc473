import Foundation
import NIOCore
import Simulation
import Testing
import TWSTestSupport
@testable import TWSProtocol

@Suite struct TWSFieldReaderTests {
    func reader(_ fields: [String]) -> TWSFieldReader {
        var buffer = ByteBufferAllocator().buffer(capacity: 64)
        for field in fields {
            buffer.writeString(field)
            buffer.writeInteger(UInt8(0))
        }
        return TWSFieldReader(payload: buffer, message: "test")
    }

    @Test func unsetSpellingsOfIntegers() throws {
        var r = reader(["", "2147483647", "-1", "42"])
        #expect(try r.readOptionalInt("a") == nil)
        #expect(try r.readOptionalInt("b") == nil)
        #expect(try r.readOptionalInt("c") == -1)
        #expect(try r.readInt("d") == 42)
        #expect(r.isAtEnd)
    }

    @Test func doublesInJavaAndPythonSpelling() throws {
        var r = reader(["1.7976931348623157E308", "1.7976931348623157e+308", "", "1.2E7", "1.0E-4", "Infinity", "150.25", "Infinite"])
        #expect(try r.readOptionalDouble("a") == nil)
        #expect(try r.readOptionalDouble("b") == nil)
        #expect(try r.readOptionalDouble("c") == nil)
        #expect(try r.readDouble("d") == 12_000_000)
        #expect(try r.readDouble("e") == 0.0001)
        #expect(try r.readDouble("f") == .infinity)
        #expect(try r.readDouble("g") == 150.25)
        #expect(try r.readDouble("h") == .infinity)
    }

    @Test func decimalsAndTheirSentinels() throws {
        var r = reader(["100", "0.5", "100.0", "", "2147483647", "9223372036854775807", "1.7976931348623157E308", "1.2E7", "-3"])
        #expect(try r.readOptionalDecimal("a") == Decimal(100))
        #expect(try r.readOptionalDecimal("b") == Decimal(string: "0.5"))
        #expect(try r.readOptionalDecimal("c") == Decimal(100))
        #expect(try r.readOptionalDecimal("d") == nil)
        #expect(try r.readOptionalDecimal("e") == nil)
        #expect(try r.readOptionalDecimal("f") == nil)
        #expect(try r.readOptionalDecimal("g") == nil)
        #expect(try r.readOptionalDecimal("h") == Decimal(12_000_000))
        #expect(try r.readOptionalDecimal("i") == Decimal(-3))
    }

    @Test func rawFieldsReturnTheirBytes() throws {
        var r = reader(["abc", "", "1.5"])
        #expect(String(decoding: try r.readRawField("a"), as: UTF8.self) == "abc")
        #expect(try r.readRawField("b").isEmpty)
        #expect(String(decoding: try r.readRawField("c"), as: UTF8.self) == "1.5")
        #expect(r.isAtEnd)
    }

    @Test func missingAndMalformedFieldsNameTheField() {
        var r = reader(["abc"])
        #expect(throws: TWSDecodingError.malformedField(message: "test", field: "price", index: 0, value: "abc")) {
            try r.readDouble("price")
        }
        #expect(throws: TWSDecodingError.missingField(message: "test", field: "size", index: 1)) {
            try r.readInt("size")
        }
    }

    @Test(arguments: [
        (100.0, "100.0", "100.0"), (150.25, "150.25", "150.25"), (0.0, "0.0", "0.0"),
        (1.7976931348623157e308, "1.7976931348623157e+308", "1.7976931348623157E308"),
        (12_345_678.0, "12345678.0", "1.2345678E7"), (0.0001, "0.0001", "1.0E-4"), (0.001, "0.001", "0.001"),
        (1e-05, "1e-05", "1.0E-5"), (-2.5, "-2.5", "-2.5"), (1e16, "1e+16", "1.0E16"), (9_999_999.0, "9999999.0", "9999999.0"),
    ])
    func doubleSpellings(value: Double, python: String, java: String) {
        #expect(TWSFieldWriter.format(value, style: .python) == python)
        #expect(TWSFieldWriter.format(value, style: .java) == java)
    }

    @Test func writerFramesFields() {
        var w = TWSFieldWriter(style: .python)
        w.write(49)
        w.write(1)
        let frame = w.framed()
        #expect(Array(frame.readableBytesView) == [0, 0, 0, 5, 0x34, 0x39, 0, 0x31, 0])
        #expect(TWSFieldWriter.format(Decimal(string: "0.5")!) == "0.5")
        #expect(TWSFieldWriter.format(Decimal(100)) == "100")
    }

    @Test func fastDoublePathAgreesWithTheFullParser() {
        var generator = SplitMix64(seed: 99)
        var texts = ["150.25", "-1.0", "0.0", "-0.0", "1.", ".5", "0.000123", "123456789012345", "1234567890123456",
                     "99999.99999", "0.1", "0.30000000000000004", "17976931348623157", "-", ".", "1.2.3", "+1"]
        for _ in 0..<20_000 {
            let value = Double(Int64.random(in: -9_999_999_999_999...9_999_999_999_999, using: &generator))
                / [1, 10, 100, 1e4, 1e7, 1e12][Int.random(in: 0..<6, using: &generator)]
            texts.append(TWSFieldWriter.format(value, style: .java))
            texts.append(TWSFieldWriter.format(value, style: .python))
        }
        for text in texts {
            let fast = TWSFieldReader.parseDouble(Array(text.utf8))
            let reference = Double(text)
            #expect(fast == reference || (fast == nil && reference == nil), "\(text)")
            if let fast, let reference { #expect(fast.sign == reference.sign, "\(text)") }
        }
    }

    /// A field's bytes: `fields` NUL-terminated, as a payload.
    static func payload(_ fields: [String]) -> [UInt8] { fields.flatMap { Array($0.utf8) + [0] } }

    /// A scoped reader (the fast path's, over a read's own bytes) copies a raw field out: the same bytes as a
    /// buffer-backed reader's, at any position.
    @Test func aScopedReadersRawFieldsAreCopiedWhole() throws {
        let bytes = Self.payload(["7", "abc", "", "1.5"])
        try bytes.withUnsafeBytes { raw throws in
            var r = TWSFieldReader(scopedBytes: raw, message: "m")
            #expect(try r.readInt("id") == 7)
            #expect(String(decoding: try r.readRawField("a"), as: UTF8.self) == "abc")
            #expect(try r.readRawField("b").isEmpty)
            #expect(String(decoding: try r.readRawField("c"), as: UTF8.self) == "1.5")
            #expect(r.isAtEnd)
        }
    }

    /// A 64-bit field: a number is itself (permIds pass 2^31), empty and Java's `Long.MAX_VALUE` are unset.
    @Test func optionalInt64sKeepTheirValue() throws {
        var r = reader(["42", "", "9223372036854775807", "4294967296", "-5"])
        #expect(try r.readOptionalInt64("a") == 42)
        #expect(try r.readOptionalInt64("b") == nil)
        #expect(try r.readOptionalInt64("c") == nil)
        #expect(try r.readOptionalInt64("d") == 4_294_967_296)
        #expect(try r.readOptionalInt64("e") == -5)
    }

    /// A repeat count is at most the bytes left after it (each item is at least its NUL): exactly that many empty
    /// fields are read; one more is a malformed count, named at once, not a missing field somewhere later.
    @Test func aRepeatCountIsBoundedByTheBytesLeft() throws {
        var exact = reader(["x", "x", "3", "", "", ""])
        _ = try exact.readString("a")
        _ = try exact.readString("b")
        #expect(try exact.readCount("n") == 3)
        for k in 0..<3 { #expect(try exact.readString("item") == "", "\(k)") }
        #expect(exact.isAtEnd)

        var over = reader(["x", "x", "4", "", "", ""])
        _ = try over.readString("a")
        _ = try over.readString("b")
        #expect(throws: TWSDecodingError.malformedField(message: "test", field: "n", index: 2, value: "4")) {
            try over.readCount("n")
        }
    }

    /// Sixteen and seventeen significant digits are past the exact fast path (a mantissa above 2^53 is rounded before
    /// the division, and the quotient again): they must come out as `Double(text)`, correctly rounded.
    @Test func longMantissasAreCorrectlyRounded() {
        var generator = SplitMix64(seed: 7)
        for _ in 0..<20_000 {
            let digits = Int.random(in: 16...17, using: &generator)
            var text = String(UInt64.random(in: 1...9, using: &generator))
            for _ in 1..<digits { text += String(UInt64.random(in: 0...9, using: &generator)) }
            let point = Int.random(in: 1..<digits, using: &generator)
            text.insert(".", at: text.index(text.startIndex, offsetBy: point))
            #expect(TWSFieldReader.parseDouble(Array(text.utf8)) == Double(text), "\(text)")
        }
    }

    /// A decimal quantity's exponent without a point (`12E7` is 1.2 × 10^8, never 12.7), every exponent digit (9
    /// too), a stray character refused, and the exponent's range ending at −100 inclusive.
    @Test func decimalExponentsAndTheirRange() {
        func decimal(_ text: String) -> Decimal?? { TWSFieldReader.parseDecimal(Array(text.utf8)) }
        #expect(decimal("12E7") == .some(Decimal(120_000_000)))
        #expect(decimal("1.5E9") == .some(Decimal(1_500_000_000)))
        #expect(decimal("2E-19") == .some(Decimal(sign: .plus, exponent: -19, significand: 2)))
        #expect(decimal("1x5") == nil)
        #expect(decimal("1E-100") == .some(Decimal(sign: .plus, exponent: -100, significand: 1)))
        #expect(decimal("1E-101") == nil)
        // The range's top: 10^100 is a quantity, 10^101 to 10^200 are out of range, and beyond 10^200 a positive
        // value is a sentinel (IB's 1.7976931348623157E308); a negative one is out of range.
        #expect(decimal("1E100") == .some(Decimal(sign: .plus, exponent: 100, significand: 1)))
        #expect(decimal("-1E100") == .some(Decimal(sign: .minus, exponent: 100, significand: 1)))
        #expect(decimal("1E101") == nil)
        #expect(decimal("1E200") == nil)
        #expect(decimal("1E201") == .some(nil))
        #expect(decimal("-1E201") == nil)
        // An exponent has at most six digits (a seventh is malformed, not a sentinel) and digits only.
        #expect(decimal("1E100000") == .some(nil))
        #expect(decimal("1E1000000") == nil)
        #expect(decimal("2E1x") == nil)
        #expect(decimal("2E+") == nil)
        #expect(decimal("2E") == nil)
    }

    /// The raw-byte parsers read their field and nothing after it: a field is a slice of the frame, and what follows
    /// it is not always the NUL that ends it (a digit here, which a read one byte too far would take in).
    @Test func rawByteParsersStopAtTheirFieldsEnd() {
        let bytes = Array("1237.5".utf8)
        bytes.withUnsafeBytes { all in
            let integer = UnsafeRawBufferPointer(rebasing: all[0..<3])
            #expect(TWSFieldReader.scanDouble(integer) == 123)
            #expect(TWSFieldReader.scanInteger(integer) == 123)
            #expect(TWSFieldReader.scanDecimal(integer) == .some(Decimal(123)))
            let fraction = UnsafeRawBufferPointer(rebasing: all[2..<5])
            #expect(TWSFieldReader.scanDouble(fraction) == 37)
        }
        let decimal = Array("12.57".utf8)
        decimal.withUnsafeBytes { all in
            let field = UnsafeRawBufferPointer(rebasing: all[0..<4])
            #expect(TWSFieldReader.scanDouble(field) == 12.5)
            #expect(TWSFieldReader.scanDecimal(field) == .some(Decimal(string: "12.5")))
        }
    }
}
