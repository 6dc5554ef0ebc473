import Foundation
import NIOCore
import Simulation
import Testing
import TWSProtocol
import TWSTestSupport

/// Seeded property tests: round trips at random versions 176…200, and decoders fed random input.
@Suite(.ownThread) struct TWSPropertyTests {
    static let cases = 3_000

    @Test func requestsRoundTrip() throws {
        var arbitrary = TWSArbitrary(seed: 0xC0FFEE)
        var failures = 0
        var seen: Set<Int> = []
        for index in 0..<Self.cases {
            let version = arbitrary.serverVersion()
            let request = arbitrary.request(serverVersion: version)
            seen.insert(request.messageID)
            let payload = try request.encodePayload(serverVersion: version)
            let decoded = try TWSRequest.decode(payload: payload, serverVersion: version)
            if decoded != request {
                failures += 1
                if failures <= 5 {
                    let wire = TWSFrame.fields(of: payload).joined(separator: "|")
                    Issue.record("case \(index) at v\(version): \(request.messageName) does not round-trip: \(wire)")
                }
            }
        }
        #expect(failures == 0)
        #expect(seen.count == 32, "every request kind generated")
    }

    /// The in-place framing (requests and responses) and the order path's encoder write exactly the bytes of the
    /// payload encoder plus a length prefix (the payload encoder is the one the vectors and round trips check).
    @Test func framedEncodingsEqualThePayloadFramed() throws {
        var arbitrary = TWSArbitrary(seed: 0xF4A3ED)
        var failures = 0
        for index in 0..<Self.cases {
            let version = arbitrary.serverVersion()
            let request = index % 2 == 0
                ? arbitrary.placeOrder(serverVersion: version) : arbitrary.request(serverVersion: version)
            let expected = TWSFrame.framed(try request.encodePayload(serverVersion: version))
            var encodings = [try request.encode(serverVersion: version)]
            if case .placeOrder(let id, let contract, let order) = request {
                encodings.append(
                    try TWSRequest.encodePlaceOrder(
                        TWSOrderPlacement(orderID: id, order: order), contract: contract, serverVersion: version))
            }
            if encodings.contains(where: { $0 != expected }) {
                failures += 1
                if failures <= 5 { Issue.record("case \(index) at v\(version): \(request.messageName) framed differently") }
            }
        }
        #expect(failures == 0)
        var responses = 0
        for index in 0..<Self.cases {
            let version = arbitrary.serverVersion()
            let response = arbitrary.response(serverVersion: version)
            let expected = TWSFrame.framed(try response.encodePayload(serverVersion: version))
            if try response.encode(serverVersion: version) != expected {
                responses += 1
                if responses <= 5 {
                    Issue.record("case \(index) at v\(version): \(response.messageName) framed differently")
                }
            }
        }
        #expect(responses == 0)
    }

    /// IB's unset double is spelled from a constant; it must be the spelling the formatter gives, in both styles.
    @Test func theUnsetDoubleIsSpelledAsFormatted() {
        for style in [TWSFieldWriter.DoubleStyle.python, .java] {
            var writer = TWSFieldWriter(style: style)
            writer.write(TWSSentinel.double)
            writer.write(-TWSSentinel.double)
            #expect(
                TWSFrame.fields(of: writer.payload) == [
                    TWSFieldWriter.format(TWSSentinel.double, style: style),
                    TWSFieldWriter.format(-TWSSentinel.double, style: style),
                ])
        }
    }

    /// Whole decimals take a shortcut past NSDecimalString; it must spell every value as NSDecimalString does.
    @Test func decimalsAreSpelledAsNSDecimalStringDoes() {
        var arbitrary = TWSArbitrary(seed: 0xDEC)
        var values: [Decimal] = [
            0, 1, 100, 1_000, 1_000_000, -5, Decimal(string: "1e3")!, Decimal(string: "12.50")!, Decimal(string: "0.5")!,
            Decimal(string: "1e20")!, Decimal(string: "-1e20")!, Decimal(string: "9223372036854775807")!,
            Decimal(string: "9223372036854775808")!, Decimal(string: "123456789012345678901234567890")!,
        ]
        for _ in 0..<2_000 { values.append(arbitrary.decimal()) }
        for value in values {
            var writer = TWSFieldWriter(style: .python)
            writer.write(value)
            #expect(TWSFrame.fields(of: writer.payload) == [TWSFieldWriter.format(value)], "\(value)")
        }
    }

    @Test func responsesRoundTrip() throws {
        var arbitrary = TWSArbitrary(seed: 0xBADC0DE)
        var failures = 0
        var seen: Set<Int> = []
        for index in 0..<Self.cases {
            let version = arbitrary.serverVersion()
            let response = arbitrary.response(serverVersion: version)
            seen.insert(response.messageID)
            let payload = try response.encodePayload(serverVersion: version)
            let decoded: TWSResponse
            do {
                decoded = try TWSResponse.decode(payload: payload, serverVersion: version)
            } catch {
                failures += 1
                if failures <= 5 { Issue.record("case \(index) at v\(version): \(response.messageName): \(error)") }
                continue
            }
            if decoded != response {
                failures += 1
                if failures <= 5 {
                    let wire = TWSFrame.fields(of: payload).joined(separator: "|")
                    Issue.record("case \(index) at v\(version): \(response.messageName) does not round-trip: \(wire)")
                }
            }
        }
        #expect(failures == 0)
        #expect(seen.count == 37, "every response kind generated")
    }

    /// Field values that steer decoders into their branches (BAG legs, PEG blocks, counts, sentinels).
    static let vocabulary = [
        "", "0", "1", "-1", "2", "3", "8", "2147483647", "9223372036854775807", "99999999999999999999",
        "1.7976931348623157E308", "1.7976931348623157e+308", "Infinity", "Infinite", "-0.0", "1e5", "1.0E-4",
        "NaN", "abc", "BAG", "PEG BEST", "PEG MID", "PEG BENCH", "IBKRATS", "FUND", "None", "a=b;c=d;", "100.0",
    ]

    static let requestIDs = [71, 8, 49, 105, 17, 9, 1, 2, 59, 50, 51, 20, 25, 3, 4, 5, 16, 15, 61, 64, 6, 62, 63, 7,
                             92, 93, 94, 95, 58, 99, 76]
    static let responseIDs = [9, 15, 49, 109, 4, 1, 2, 46, 45, 81, 58, 57, 3, 5, 53, 11, 55, 59, 61, 62, 6, 7, 8,
                              54, 63, 64, 10, 52, 17, 108, 90, 50, 94, 95, 102, 74]

    @Test func decodersSurviveRandomFieldLists() {
        var generator = SplitMix64(seed: 0xF00D)
        var decodedCount = 0
        for index in 0..<8_000 {
            let toServer = index % 2 == 0
            let ids = toServer ? Self.requestIDs : Self.responseIDs
            var fields = [String(ids[Int.random(in: 0..<ids.count, using: &generator)])]
            let count = Int.random(in: 0...(index % 10 == 0 ? 400 : 60), using: &generator)
            for _ in 0..<count {
                if Int.random(in: 0..<4, using: &generator) == 0 {
                    fields.append(String(Int.random(in: -5...50, using: &generator)))
                } else {
                    fields.append(Self.vocabulary[Int.random(in: 0..<Self.vocabulary.count, using: &generator)])
                }
            }
            let payload = TWSFrame.payload(fields: fields)
            let version = Int.random(in: 157...200, using: &generator)
            if toServer {
                if (try? TWSRequest.decode(payload: payload, serverVersion: version)) != nil { decodedCount += 1 }
            } else {
                if (try? TWSResponse.decode(payload: payload, serverVersion: version)) != nil { decodedCount += 1 }
            }
        }
        #expect(decodedCount > 0, "some random lists are valid messages")
    }

    @Test func decodersSurviveRandomBytes() {
        var generator = SplitMix64(seed: 0xBEEF)
        for _ in 0..<4_000 {
            let count = Int.random(in: 0...200, using: &generator)
            var buffer = ByteBufferAllocator().buffer(capacity: count)
            for _ in 0..<count {
                // Bias towards digits and NULs so that message ids parse and fields split.
                let byte: UInt8
                switch Int.random(in: 0..<4, using: &generator) {
                case 0: byte = 0
                case 1: byte = UInt8.random(in: 48...57, using: &generator)
                default: byte = UInt8.random(in: 0...255, using: &generator)
                }
                buffer.writeInteger(byte)
            }
            _ = try? TWSRequest.decode(payload: buffer, serverVersion: 200)
            _ = try? TWSResponse.decode(payload: buffer, serverVersion: 178)
        }
    }

    /// Truncating a valid message at every field boundary yields a typed error naming the message, never a trap.
    @Test func truncatedVectorsFailWithTypedErrors() throws {
        for file in ["server_to_client.v200.jsonl", "client_to_server.v200.jsonl"] {
            for record in try VectorFiles.load(file) {
                let fields = record.fields
                for cut in 1..<fields.count {
                    let payload = TWSFrame.payload(fields: Array(fields[..<cut]))
                    let version = record.serverVersion ?? 200
                    do {
                        if file.hasPrefix("server") {
                            _ = try TWSResponse.decode(payload: payload, serverVersion: version)
                        } else {
                            _ = try TWSRequest.decode(payload: payload, serverVersion: version)
                        }
                        // A few messages end in optional groups; a shorter list can still be complete.
                    } catch {
                        if case .missingField(let message, _, _) = error {
                            #expect(message != "response" && message != "request", "\(record.name): \(error)")
                        }
                    }
                }
            }
        }
    }
}
