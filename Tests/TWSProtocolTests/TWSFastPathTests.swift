import Foundation
import NIOCore
import Simulation
import Testing
import TWSTestSupport
@testable import TWSProtocol

/// The decoding fast paths (fused field parsing in `TWSFieldCursor`, `TWSResponse.decodeFast`, the raw-byte field
/// parsers, the in-place frame decoding) give exactly what the general decoder gives: the same value, the same
/// error, the same `Decimal` bits, on valid, unusual and malformed input.
@Suite(.ownThread) struct TWSFastPathTests {
    typealias Outcome = Result<TWSResponse, TWSDecodingError>

    /// Spellings that exercise every branch of the field parsers (signs, points, exponents, sentinels, overflow).
    static let vocabulary = [
        "", "0", "1", "-1", "+1", "-", "+", ".", "1.", ".5", "-.5", "+.5", "-0", "0.0", "-0.0", "00012", "0.000001",
        "150.25", "150.262", "-150.25", "1e5", "1.2E7", "1.0E-4", "1E", "1E+", "Infinity", "-Infinity", "Infinite",
        "inf", "nan", "NaN", "2147483647", "-2147483647", "9223372036854775807", "9223372036854775808",
        "-9223372036854775808", "1.7976931348623157E308", "1.7976931348623157e+308", "123456789012345678",
        "-123456789012345678", "1234567890123456789", "12345678901234567890", "999999999999999", "9999999999999999",
        "0.1234567890123456", "0.123456789012345678", "1.5.3", "--1", "+-1", "abc", "Submitted",
        "150.25;100;1736951400123;23456789;150.1012;false", "é", "1 ", " 1", "0x10", "1736951400", "23456789",
    ]

    /// The general decoder alone (what the fast path must agree with).
    static func general(_ payload: [UInt8], version: Int) -> Outcome {
        payload.withUnsafeBytes { bytes in
            do throws(TWSDecodingError) {
                let start = try TWSResponse.fieldsStart(of: bytes)
                return .success(try TWSResponse.decodeGeneral(id: start.id, bytes: bytes, position: start.offset,
                                                              serverVersion: version))
            } catch {
                return .failure(error)
            }
        }
    }

    /// `decode(bytes:)`: fast path first.
    static func full(_ payload: [UInt8], version: Int) -> Outcome {
        payload.withUnsafeBytes { bytes in
            do throws(TWSDecodingError) {
                return .success(try TWSResponse.decode(bytes: bytes, serverVersion: version))
            } catch {
                return .failure(error)
            }
        }
    }

    /// `decode(bytes:into:)`: the delivery form `decodeResponses` uses (exactly one delivery, or an error).
    static func delivered(_ payload: [UInt8], version: Int) -> Outcome {
        payload.withUnsafeBytes { bytes in
            var responses: [TWSResponse] = []
            do throws(TWSDecodingError) {
                try TWSResponse.decode(bytes: bytes, serverVersion: version) { responses.append($0) }
            } catch {
                #expect(responses.isEmpty)
                return .failure(error)
            }
            #expect(responses.count == 1)
            return .success(responses[0])
        }
    }

    /// The raw bits of every quantity of a response (equal `Decimal`s may differ in representation).
    static func decimalBits(_ outcome: Outcome) -> [[UInt8]] {
        func bits(_ value: Decimal?) -> [UInt8] {
            guard let value else { return [] }
            return withUnsafeBytes(of: value) { Array($0) }
        }
        guard case .success(let response) = outcome else { return [] }
        switch response {
        case .tickPrice(let tick): return [bits(tick.size)]
        case .tickSize(_, _, let size): return [bits(size)]
        case .realTimeBar(_, let bar): return [bits(bar.volume), bits(bar.wap)]
        case .orderStatus(let status): return [bits(status.filled), bits(status.remaining)]
        default: return []
        }
    }

    static func expectSameOutcome(_ payload: [UInt8], version: Int, _ context: String) {
        let reference = general(payload, version: version)
        let fast = full(payload, version: version)
        #expect(fast == reference, "\(context)")
        #expect(decimalBits(fast) == decimalBits(reference), "\(context)")
        let viaDelivery = delivered(payload, version: version)
        #expect(viaDelivery == reference, "\(context)")
        #expect(decimalBits(viaDelivery) == decimalBits(reference), "\(context)")
        var buffer = ByteBufferAllocator().buffer(capacity: payload.count)
        buffer.writeBytes(payload)
        let viaBuffer: Outcome
        do { viaBuffer = .success(try TWSResponse.decode(payload: buffer, serverVersion: version)) } catch {
            viaBuffer = .failure(error)
        }
        #expect(viaBuffer == reference, "\(context)")
    }

    static func payload(_ fields: [String], terminated: Bool = true) -> [UInt8] {
        var bytes: [UInt8] = []
        for field in fields {
            bytes += Array(field.utf8)
            bytes.append(0)
        }
        if !terminated, !bytes.isEmpty { bytes.removeLast() }
        return bytes
    }

    @Test(arguments: ["server_to_client.v200.jsonl", "server_to_client.v178.jsonl"])
    func everyVectorDecodesTheSameOnBothPaths(file: String) throws {
        for record in try VectorFiles.load(file) {
            let payload = Array(record.payload.readableBytesView)
            Self.expectSameOutcome(payload, version: record.serverVersion ?? 200, record.name)
            // Every truncation (a missing field, an unterminated last field) fails the same way too.
            for cut in 0..<payload.count where payload[cut] == 0 || cut % 3 == 0 {
                Self.expectSameOutcome(Array(payload[..<cut]), version: record.serverVersion ?? 200,
                                       "\(record.name) cut at \(cut)")
            }
        }
    }

    /// Random field lists for the fast-path messages, with right, missing and extra fields of every spelling.
    @Test func randomStreamingMessagesDecodeTheSameOnBothPaths() {
        var generator = SplitMix64(seed: 0xFA57)
        let shapes: [(id: String, fields: Int)] = [("1", 6), ("2", 4), ("45", 4), ("46", 4), ("50", 10), ("3", 11)]
        var fastHits = 0
        for index in 0..<30_000 {
            let shape = shapes[Int.random(in: 0..<shapes.count, using: &generator)]
            let count = max(0, shape.fields + [0, 0, 0, 0, -1, 1, -2][Int.random(in: 0..<7, using: &generator)])
            var fields = [index % 50 == 0 ? Self.vocabulary.randomElement(using: &generator) ?? "" : shape.id]
            for _ in 0..<count {
                switch Int.random(in: 0..<5, using: &generator) {
                case 0, 1: fields.append(Self.vocabulary[Int.random(in: 0..<Self.vocabulary.count, using: &generator)])
                case 2: fields.append(String(Int.random(in: -1_000_000...1_000_000_000, using: &generator)))
                case 3:
                    let value = Double(Int.random(in: -10_000_000...10_000_000, using: &generator))
                        / [1, 10, 100, 1_000, 1e6][Int.random(in: 0..<5, using: &generator)]
                    fields.append(TWSFieldWriter.format(value, style: index % 2 == 0 ? .java : .python))
                default: fields.append(String(Int.random(in: 0...50, using: &generator)))
                }
            }
            let payload = Self.payload(fields, terminated: index % 23 != 0)
            let version = [176, 178, 200][index % 3]
            Self.expectSameOutcome(payload, version: version, "\(fields)")
            if case .success = Self.general(payload, version: version) { fastHits += 1 }
        }
        #expect(fastHits > 1_000, "enough random lists are valid messages")
    }

    /// Each fused cursor read equals the reader's read of the same field: value, or failure where the reader throws.
    @Test func cursorReadsMatchTheReader() {
        var texts = Self.vocabulary
        var generator = SplitMix64(seed: 5)
        for _ in 0..<3_000 {
            let digits = String(Int64.random(in: 0...Int64.max, using: &generator)).prefix(Int.random(in: 1...20, using: &generator))
            let point = Int.random(in: 0...digits.count, using: &generator)
            let sign = ["", "-", "+"][Int.random(in: 0..<3, using: &generator)]
            texts.append(sign + digits)
            texts.append(sign + digits.prefix(point) + "." + digits.dropFirst(point))
        }
        for text in texts {
            let bytes = Self.payload([text, "next"])
            bytes.withUnsafeBytes { raw in
                func reader() -> TWSFieldReader { TWSFieldReader(scopedBytes: raw, message: "m") }
                func cursor() -> TWSFieldCursor { TWSFieldCursor(bytes: raw, position: 0) }
                func check<T: Equatable>(_ name: String, _ fast: (inout TWSFieldCursor) -> T?,
                                         _ reference: (inout TWSFieldReader) throws(TWSDecodingError) -> T) {
                    var c = cursor()
                    var r = reader()
                    let expected = try? reference(&r)
                    let got = fast(&c)
                    #expect(got == expected, "\(name) '\(text)'")
                    if got != nil { #expect(c.position == r.position, "\(name) '\(text)' position") }
                }
                check("int", { $0.int() }, { r throws(TWSDecodingError) in try r.readInt("f") })
                check("requiredInt", { $0.requiredInt() }, { r throws(TWSDecodingError) in try r.readRequiredInt("f") })
                check("double bits", { $0.double()?.bitPattern }, { r throws(TWSDecodingError) in
                    try r.readDouble("f").bitPattern
                })
                check("string", { $0.string() }, { r throws(TWSDecodingError) in try r.readString("f") })
                var c = cursor()
                var r = reader()
                let expected: Decimal??
                do { expected = .some(try r.readOptionalDecimal("f")) } catch { expected = nil }
                let got = c.optionalDecimal()
                #expect(got.map { $0.map { withUnsafeBytes(of: $0) { Array($0) } } }
                        == expected.map { $0.map { withUnsafeBytes(of: $0) { Array($0) } } }, "decimal '\(text)'")
            }
        }
    }

    /// The message id read before any reader exists equals the reader's `readMessageID`: value, next field, error.
    @Test func messageIDMatchesTheReader() {
        for text in Self.vocabulary + ["1", "46", "-3", "+9", "007", "99999999999999999999"] {
            for bytes in [Self.payload([text, "x"]), Array(text.utf8)] {
                bytes.withUnsafeBytes { raw in
                    var reader = TWSFieldReader(scopedBytes: raw, message: "response")
                    let expected: Result<Int, TWSDecodingError>
                    do throws(TWSDecodingError) { expected = .success(try reader.readMessageID()) } catch { expected = .failure(error) }
                    let got: Result<Int, TWSDecodingError>
                    do throws(TWSDecodingError) { got = .success(try TWSResponse.fieldsStart(of: raw).id) } catch {
                        got = .failure(error)
                    }
                    #expect(got == expected, "'\(text)'")
                    if case .success = got {
                        let offset = Result { () throws(TWSDecodingError) in try TWSResponse.fieldsStart(of: raw).offset }
                        #expect(offset == .success(reader.position), "'\(text)'")
                    }
                }
            }
        }
    }

    /// The raw-byte parsers equal the generic ones (bit for bit for doubles and decimals).
    @Test func rawByteParsersMatchTheGenericOnes() {
        var texts = Self.vocabulary
        var generator = SplitMix64(seed: 11)
        for _ in 0..<5_000 {
            texts.append(String(Int64.random(in: Int64.min...Int64.max, using: &generator)))
            let value = Double(Int64.random(in: -9_999_999_999_999...9_999_999_999_999, using: &generator))
                / [1, 10, 100, 1e4, 1e7, 1e12][Int.random(in: 0..<6, using: &generator)]
            texts.append(TWSFieldWriter.format(value, style: .java))
            texts.append(TWSFieldWriter.format(value, style: .python))
        }
        for text in texts {
            let bytes = Array(text.utf8)
            bytes.withUnsafeBytes { raw in
                #expect(TWSFieldReader.scanInteger(raw) == TWSFieldReader.parseInteger(bytes), "\(text)")
                #expect(TWSFieldReader.scanDouble(raw)?.bitPattern == TWSFieldReader.parseDouble(bytes)?.bitPattern,
                        "\(text)")
                let fast = TWSFieldReader.scanDecimal(raw).map { $0.map { withUnsafeBytes(of: $0) { Array($0) } } }
                let reference = TWSFieldReader.parseDecimal(bytes).map { $0.map { withUnsafeBytes(of: $0) { Array($0) } } }
                #expect(fast == reference, "\(text)")
            }
        }
    }

    /// Integer quantities skip the power-of-ten scaling (small ones come from a table): the same bits as the general
    /// construction.
    @Test func integerDecimalsHaveTheGeneralRepresentation() {
        var generator = SplitMix64(seed: 3)
        // Every entry of the small-integer table, and around its end.
        var mantissas: [UInt64] = Array(0...1_100) + [1_500, 23_456_789, 2_147_483_646, UInt64.max]
        for _ in 0..<20_000 {
            mantissas.append(UInt64.random(in: 0...UInt64.max, using: &generator) >> UInt64.random(in: 0...63, using: &generator))
        }
        for mantissa in mantissas {
            for negative in [false, true] {
                guard let value = TWSFieldReader.makeDecimal(negative: negative, exponent: 0, mantissa: mantissa),
                      let value else { continue }  // sentinels
                let reference = Decimal(sign: negative ? .minus : .plus, exponent: 0, significand: Decimal(mantissa))
                #expect(withUnsafeBytes(of: value) { Array($0) } == withUnsafeBytes(of: reference) { Array($0) },
                        "\(negative ? "-" : "")\(mantissa)")
            }
        }
    }
}
