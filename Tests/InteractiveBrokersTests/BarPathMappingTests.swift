import Foundation
import Testing
import TradingModel

@testable import InteractiveBrokers
@testable import LiveSession

/// Two pieces of the bar path rewritten for speed, checked against what they replaced: the slice assembler against
/// a `Set`-based model, and the whole-number fast path of `WireNumbers.quantity` against the decimal text.
@Suite struct BarPathMappingTests {
    /// The assembler as it was (a `Set` of the instruments reported in the current slice).
    private struct SetModel {
        let instruments: Set<InstrumentID>
        var current: Timestamp?
        var reported: Set<InstrumentID> = []
        var isClosed = false

        mutating func add(_ bar: Bar, for id: InstrumentID) -> [EngineEventValue] {
            var out: [EngineEventValue] = []
            if let time = current, bar.timestamp < time { return [.bar(id, bar)] }
            if let time = current, bar.timestamp > time {
                if !isClosed { out.append(.barsClosed(time)) }
                current = nil
            }
            if current == nil {
                current = bar.timestamp
                reported = []
                isClosed = false
            }
            reported.insert(id)
            out.append(.bar(id, bar))
            if !isClosed, instruments.isSubset(of: reported) {
                isClosed = true
                out.append(.barsClosed(bar.timestamp))
            }
            return out
        }
    }

    @Test(arguments: 0..<40)
    func sliceAssemblerMatchesTheSetModel(seed: Int) {
        var state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 &+ 1
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        // Members are a random subset of 0..<6 (possibly empty, possibly with duplicates); bars also come for others.
        let members = (0..<next(5)).map { _ in InstrumentID(index: next(6)) }
        var assembler = BarSliceAssembler(instruments: members)
        var model = SetModel(instruments: Set(members))
        var time: Int64 = 100
        for _ in 0..<300 {
            switch next(10) {
            case 0: time += 5 * Int64(1 + next(3))  // a new slice, maybe skipping one
            case 1: time -= 5  // a late bar (an older slice)
            default: break
            }
            let t = Timestamp(seconds: time)
            let bar = Bar(timestamp: t, open: Price(1), high: Price(1), low: Price(1), close: Price(1), volume: .zero)
            let id = InstrumentID(index: next(7))
            #expect(assembler.add(bar, for: id) == model.add(bar, for: id))
        }
    }

    @Test func wholeQuantitiesMatchTheirDecimalText() throws {
        var samples: [Decimal] = [0, 1, 100, 12_345, 92_233_720_368, 92_233_720_369, Decimal(Int64.max), -5, 0.5, 1.25]
        samples += [Decimal(string: "1e20")!, Decimal(string: "1000000000000000000000000000000")!, Decimal(string: "2.000")!]
        samples += [Decimal(string: "0.00000001")!, Decimal(string: "1234567.89")!, Decimal(sign: .plus, exponent: 3, significand: 7)]
        var state: UInt64 = 42
        for _ in 0..<2_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let mantissa = Int64(bitPattern: state >> 20) % 10_000_000_000
            let exponent = Int(state % 7) - 3
            samples.append(Decimal(sign: mantissa < 0 ? .minus : .plus, exponent: exponent, significand: Decimal(mantissa.magnitude)))
        }
        for value in samples {
            let expected = Quantity(value.description)
            let actual = try? WireNumbers.quantity(value, field: "volume")
            #expect(actual == expected, "\(value)")
        }
        #expect(throws: IBMappingError.self) { try WireNumbers.quantity(nil, field: "volume") }
        #expect(throws: IBMappingError.self) { try WireNumbers.quantity(Decimal.nan, field: "volume") }
    }
}
