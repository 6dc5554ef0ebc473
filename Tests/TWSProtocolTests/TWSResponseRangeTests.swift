import NIOCore
import Testing
@testable import TWSProtocol

/// Values outside `TWSValueRange` do not decode (F3 of the reliability audit: an orderId of Int64.max, a real-time
/// bar at epoch 99999999999), on every decoding path, and the frame after them still does.
@Suite struct TWSResponseRangeTests {
    static let big = "9223372036854775807"

    static func payload(_ fields: [String]) -> [UInt8] {
        fields.flatMap { Array($0.utf8) + [0] }
    }

    /// Every public way into the decoder: both `decode` forms and the frame decoder's in-place path.
    static func outcomes(_ fields: [String]) -> [Result<TWSResponse, TWSDecodingError>] {
        let bytes = payload(fields)
        var results: [Result<TWSResponse, TWSDecodingError>] = []
        results.append(bytes.withUnsafeBytes { raw in
            Result { () throws(TWSDecodingError) in try TWSResponse.decode(bytes: raw, serverVersion: 200) }
        })
        var delivered: [TWSResponse] = []
        let viaDelivery = bytes.withUnsafeBytes { raw in
            Result { () throws(TWSDecodingError) in
                try TWSResponse.decode(bytes: raw, serverVersion: 200) { delivered.append($0) }
            }
        }
        results.append(viaDelivery.map { delivered[0] })
        var frames = TWSFrameDecoder()
        frames.append(contentsOf: [0, 0, 0, UInt8(bytes.count)] + bytes)
        results.append(Result { () throws(TWSDecodingError) in
            guard let response = try frames.nextResponse(serverVersion: 200) else {
                throw .missingField(message: "", field: "", index: 0)
            }
            return response
        })
        return results
    }

    @Test(arguments: [
        (["3", big, "Submitted", "0", "100", "0.0", "1234567890", "0", "0.0", "7", "", "0.0"], "orderId"),
        (["3", "2147483648", "Filled", "100", "0", "150.25", "1234567890", "0", "150.25", "7", "", "0.0"], "orderId"),
        (["3", "1002", "Submitted", "0", "100", "0.0", "1234567890", big, "0.0", "7", "", "0.0"], "parentId"),
        (["9", "1", big], "orderId"),
        (["9", "1", "0"], "orderId"),
        (["9", "1", "-5"], "orderId"),
        (["49", "1", "99999999999"], "time"),
        (["49", "1", "-1"], "time"),
        (["109", big], "timeInMillis"),
        (["50", "3", "30", "99999999999", "150.25", "150.3", "150.2", "150.28", "1500", "150.262", "12"], "time"),
        (["50", "3", "30", "9223372037", "150.25", "150.3", "150.2", "150.28", "1500", "150.262", "12"], "time"),
        (["50", "3", "30", "-99999999999", "150.25", "150.3", "150.2", "150.28", "1500", "150.262", "12"], "time"),
    ])
    func valuesOutsideTheirRangeAreDecodeErrors(fields: [String], field: String) {
        for outcome in Self.outcomes(fields) {
            guard case .failure(.outOfRange(_, let name, _, _)) = outcome else {
                Issue.record("\(fields[0]): expected an out-of-range error for \(field), got \(outcome)")
                continue
            }
            #expect(name == field)
        }
    }

    @Test func theLimitsThemselvesDecode() throws {
        for fields in [
            ["3", "2147483647", "Submitted", "0", "100", "0.0", "1234567890", "0", "0.0", "7", "", "0.0"],
            ["3", "-2147483648", "Submitted", "0", "100", "0.0", "1234567890", "0", "0.0", "7", "", "0.0"],
            ["9", "1", "2147483647"], ["49", "1", "7289654399"], ["49", "1", "0"],
            ["50", "3", "30", "7289654399", "150.25", "150.3", "150.2", "150.28", "1500", "150.262", "12"],
        ] {
            for outcome in Self.outcomes(fields) { _ = try outcome.get() }
        }
    }

    @Test func theErrorReadsAsASentence() {
        let error = TWSDecodingError.outOfRange(message: "orderStatus", field: "orderId", value: Self.big,
                                                allowed: "-2147483648…2147483647")
        #expect(error.description == "orderStatus: field 'orderId' is \(Self.big), outside -2147483648…2147483647")
    }

    /// The frame with the bad value is consumed; the next one decodes (logged and skipped, never fatal).
    @Test func theNextFrameStillDecodes() throws {
        var frames = TWSFrameDecoder()
        for fields in [["9", "1", Self.big], ["49", "1", "1736951400"]] {
            let bytes = Self.payload(fields)
            frames.append(contentsOf: [0, 0, 0, UInt8(bytes.count)] + bytes)
        }
        #expect(throws: TWSDecodingError.self) { try frames.nextResponse(serverVersion: 200) }
        #expect(try frames.nextResponse(serverVersion: 200) == .currentTime(1_736_951_400))
    }
}
