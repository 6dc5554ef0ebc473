import Foundation
import JournalModel
import LiveSession
import Testing
import TWSProtocol
import TradingModel

/// The session log's compact steps (bars, closed slices, quotes, idle ticks) read back exactly, logs written as JSON
/// still read, and a damaged step is an error, not a crash.
@Suite struct SessionLogCompactTests {
    static let bar = Bar(
        timestamp: Timestamp(nanoseconds: 1_295_364_600_000_000_000), open: Price("330.51")!, high: Price("330.53")!,
        low: Price("330.51")!, close: Price("330.53")!, volume: Quantity(17_140))
    static let quote = Quote(
        timestamp: Timestamp(nanoseconds: 1_295_364_600_311_111_111), bid: Price("330.48")!, ask: Price("330.55")!,
        bidSize: Quantity(17_100), askSize: Quantity(units: 1))
    /// Extremes: every field's sign and width survive.
    static let extreme = Bar(
        timestamp: Timestamp(nanoseconds: .min), open: Price(units: .max), high: Price(units: -1),
        low: Price(units: 0x0102_0304_0506_0708), close: Price(units: .min), volume: Quantity(units: -123_456_789))

    static let compactInputs: [SessionInput] = [
        .market(SessionTag(15), .engine(.bar(InstrumentID(0), bar))),
        .market(SessionTag(Int(Int32.max) + 7), .engine(.bar(InstrumentID(.max), extreme))),
        .market(SessionTag(0), .engine(.bar(InstrumentID(.min), extreme))),
        .market(SessionTag(15), .engine(.barsClosed(Timestamp(nanoseconds: 1_295_364_605_000_000_000)))),
        .quotes(SessionTag(16), .quote(InstrumentID(3), quote)),
        .market(SessionTag(17), .bar(InstrumentID(2), bar)),
        .market(SessionTag(Int(Int32.max) + 9), .bar(InstrumentID(.max), extreme)),
    ]

    @Test func barsSlicesAndQuotesReadBackExactlyInAFractionOfTheirJSON() throws {
        for input in Self.compactInputs {
            let data = try SessionLog.encode(input)
            #expect(data.first == 0x01, "\(input) is written compact")
            #expect(try SessionLog.input(data) == input)
            let json = try Self.json(input)
            #expect(data.count * 2 < json.count, "\(data.count) bytes against JSON's \(json.count)")
        }
    }

    @Test func logsWrittenAsJSONStillRead() throws {
        // (Not the extremes: JSON's decimal text cannot hold Int64.min units, a price no data has.)
        let realistic = [Self.compactInputs[0], Self.compactInputs[3], Self.compactInputs[4], Self.compactInputs[5]]
        for input in realistic + [.tick, .start, .stop("duration"), .quotes(SessionTag(16), .halt(InstrumentID(0), nil))] {
            #expect(try SessionLog.input(Self.json(input)) == input)
        }
        // The tick and the idle tick's actions keep the very text the JSON encoder writes.
        #expect(try SessionLog.encode(.tick) == Self.json(SessionInput.tick))
        #expect(try SessionLog.encode([SessionAction]()) == Self.json([SessionAction]()))
        let idle: [SessionAction] = [.journal(.checkpoint)]
        #expect(try SessionLog.encode(idle) == Self.json(idle))
        #expect(try SessionLog.actions(SessionLog.encode(idle)) == idle)
        #expect(try SessionLog.actions(SessionLog.encode([SessionAction]())) == [])
        // Other inputs and actions are JSON, as before.
        let stop = SessionInput.stop("duration 1h elapsed")
        #expect(try SessionLog.encode(stop) == Self.json(stop))
        let busy: [SessionAction] = [.journal(.checkpoint), .log(.info, "portfolio: …")]
        #expect(try SessionLog.encode(busy) == Self.json(busy))
        #expect(try SessionLog.actions(SessionLog.encode(busy)) == busy)
    }

    @Test func aDamagedCompactStepIsAnErrorThatSaysSo() throws {
        let good = try SessionLog.encode(Self.compactInputs[0])
        let damaged: [Data] = [
            good.dropLast(),  // short
            good + Data([0]),  // long
            Data([0x01]),  // no kind
            Data([0x01, 0x09]) + good.dropFirst(2),  // unknown kind
        ]
        for data in damaged {
            #expect {
                _ = try SessionLog.input(data)
            } throws: { error in
                "\(error)".contains("compact session-log step of an unknown kind or length")
            }
        }
        // An instrument beyond Int32 cannot come from the encoder; read, it is an error too.
        var wide = [UInt8](good)
        wide[2 + 8 + 4] = 1
        #expect(throws: DecodingError.self) { try SessionLog.input(Data(wide)) }
    }

    @Test func aStepThatCannotBeReadIsNamedInWords() throws {
        let time = Timestamp(nanoseconds: 1_295_364_600_000_000_000)
        let compact = JournalSessionStep(sequence: 21, time: time, input: Data([0x01, 0x09]), actions: Data("[]".utf8))
        #expect {
            _ = try SessionLog.input(of: compact)
        } throws: { error in
            "\(error)" == "input 21 of the session log cannot be read: a compact session-log step of an unknown kind or length (2 bytes)"
        }
        let json = JournalSessionStep(sequence: 22, time: time, input: Data(#"{"answer":"#.utf8), actions: Data("[".utf8))
        for read in [{ _ = try SessionLog.input(of: json) }, { _ = try SessionLog.actions(of: json) }] as [() throws -> Void] {
            #expect {
                try read()
            } throws: { error in
                let text = "\(error)"
                return text.hasPrefix("input 22 of the session log cannot be read: ") && !text.contains("DecodingError")
            }
        }
    }

    private static func json(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(value)
    }
}
