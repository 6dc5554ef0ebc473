import Foundation
import Simulation
import TWSProtocol

/// Seeded generators of wire values for property tests: every generated request or response survives
/// `decode(encode(x)) == x` at the given server version (fields a version lacks, or a condition hides, keep
/// their defaults).
public struct TWSArbitrary {
    /// The random source.
    public var generator: SplitMix64

    /// Creates a generator from a seed.
    public init(seed: UInt64) {
        self.generator = SplitMix64(seed: seed)
    }

    // MARK: - Primitives

    /// A random server version in the supported range.
    public mutating func serverVersion() -> Int {
        Int.random(in: TWSProtocolConstants.minimumServerVersion...TWSProtocolConstants.maximumServerVersion,
                   using: &generator)
    }

    /// True with probability `p`.
    public mutating func chance(_ p: Double = 0.5) -> Bool {
        Double.random(in: 0..<1, using: &generator) < p
    }

    /// A random int in a range.
    public mutating func int(_ range: ClosedRange<Int> = -1_000...1_000_000) -> Int {
        Int.random(in: range, using: &generator)
    }

    /// A random int that is never the unset sentinel, or `nil`.
    public mutating func optionalInt() -> Int? {
        chance(0.3) ? nil : int()
    }

    /// A finite double in a variety of magnitudes (never the unset sentinel).
    public mutating func double() -> Double {
        let base = Double(int(-2_000_000_000...2_000_000_000))
        switch int(0...6) {
        case 0: return base
        case 1: return base / 100
        case 2: return base / 1e8
        case 3: return base * 1e9
        case 4: return Double(int(-100...100)) * 0.05
        case 5: return Double.random(in: -1e-3...1e-3, using: &generator)
        default: return 0
        }
    }

    /// A double or `nil`.
    public mutating func optionalDouble() -> Double? {
        chance(0.3) ? nil : double()
    }

    /// A decimal quantity (up to 4 fractional digits).
    public mutating func decimal() -> Decimal {
        Decimal(sign: chance(0.2) ? .minus : .plus, exponent: -int(0...4),
                significand: Decimal(int(0...2_000_000_000)))
    }

    /// A quantity or `nil`.
    public mutating func optionalDecimal() -> Decimal? {
        chance(0.3) ? nil : decimal()
    }

    /// Printable ASCII text without NUL (any printable character TWS allows).
    public mutating func text(maxLength: Int = 12) -> String {
        let count = int(0...maxLength)
        return String(decoding: (0..<count).map { _ in UInt8(int(32...126)) }, as: UTF8.self)
    }

    /// Text that is never empty.
    public mutating func nonEmptyText() -> String {
        "x" + text(maxLength: 8)
    }

    /// Text safe inside a `tag=value;` list (no `=`, `;`).
    public mutating func listSafeText() -> String {
        String(text(maxLength: 8).filter { $0 != "=" && $0 != ";" })
    }

    /// A tag/value list with list-safe text.
    public mutating func tagValues(maxCount: Int = 3) -> [TWSTagValue] {
        (0..<int(0...maxCount)).map { _ in TWSTagValue("t" + listSafeText(), listSafeText()) }
    }

    /// Text of digits only, possibly empty (dates).
    public mutating func digits() -> String {
        chance(0.3) ? "" : String(int(19_000_101...20_991_231))
    }

    /// Picks one element.
    public mutating func pick<T>(_ options: [T]) -> T {
        options[int(0...(options.count - 1))]
    }

    // MARK: - Contracts

    /// The contract fields every request layout carries (strike never 0: requests read 0 as unset).
    public mutating func requestContract() -> TWSContract {
        var contract = TWSContract(
            contractID: int(0...900_000_000), symbol: text(), securityType: pick(["STK", "OPT", "FUT", "CASH", ""]),
            exchange: text(), primaryExchange: text(), currency: text(maxLength: 3))
        contract.lastTradeDateOrContractMonth = digits()
        contract.strike = chance(0.5) ? nil : Double(int(1...100_000)) / 4
        contract.right = pick(["", "C", "P"])
        contract.multiplier = multiplier()
        contract.localSymbol = text()
        contract.tradingClass = text()
        return contract
    }

    /// A contract multiplier as IB spells one (a number, or empty): the protobuf wire carries it as a double.
    public mutating func multiplier() -> String {
        pick(["", "", "100", "50", "0.1", "1000", "12.5"])
    }

    /// Combo legs in the short form (conId, ratio, action, exchange).
    public mutating func shortComboLegs() -> [TWSComboLeg] {
        (0..<int(0...3)).map { _ in
            TWSComboLeg(contractID: int(1...999_999_999), ratio: int(1...5), action: pick(["BUY", "SELL"]),
                        exchange: text())
        }
    }

    /// Combo legs in the long form (placeOrder, openOrder).
    public mutating func longComboLegs() -> [TWSComboLeg] {
        shortComboLegs().map { leg in
            var leg = leg
            leg.openClose = int(0...3)
            leg.shortSaleSlot = int(0...2)
            leg.designatedLocation = text()
            leg.exemptCode = int(-1...10)
            return leg
        }
    }

    /// A delta-neutral contract or `nil`.
    public mutating func deltaNeutralContract() -> TWSDeltaNeutralContract? {
        chance(0.7) ? nil : TWSDeltaNeutralContract(contractID: int(1...999_999), delta: double(), price: double())
    }

    /// The 11 contract fields of position/execDetails/openOrder (`exchange` variant) or updatePortfolio
    /// (`primaryExchange` variant).
    public mutating func responseContract(primaryExchange: Bool) -> TWSContract {
        var contract = TWSContract(
            contractID: int(0...900_000_000), symbol: text(), securityType: pick(["STK", "FUT", "OPT"]),
            currency: text(maxLength: 3))
        if primaryExchange { contract.primaryExchange = text() } else { contract.exchange = text() }
        contract.lastTradeDateOrContractMonth = digits()
        contract.strike = optionalDouble()
        contract.right = pick(["", "C", "P", "?"])
        contract.multiplier = multiplier()
        contract.localSymbol = text()
        contract.tradingClass = text()
        return contract
    }
}
