import TradingModel

/// The `orderRef` IBTrader writes on every order: a namespace prefix plus the stable client order id.
///
/// The prefix marks orders as ours (the reconciler flags unknown orders that carry it); the client order id is
/// what the journal stores before the order is sent, so after a restart the order is found again by it.
///
/// A bot run's namespace is `IBT:R<run>:`, the run number allocated by the journal (`OrderJournal.beginRun`), so
/// two runs never share one, however close their starts. Older journals hold `IBT:<epoch second>:` refs and
/// manual orders `IBT:manual:`; all of them parse (`RunNamespace`).
///
/// ```swift
/// let references = OrderReference.run(12)        // prefix "IBT:R12:"
/// references.orderRef(for: "O-7")                // "IBT:R12:O-7"
/// references.clientOrderID(in: "IBT:R12:O-7")    // "O-7"
/// ```
public struct OrderReference: Sendable, Hashable, Codable {
    /// Every IBTrader orderRef starts with it.
    public static let base = "IBT:"

    /// The namespace every orderRef starts with, e.g. `IBT:` or `IBT:R12:`.
    public var prefix: String

    /// Creates a namespace.
    public init(prefix: String = OrderReference.base) { self.prefix = prefix }

    /// The namespace of a journal-allocated bot run: `IBT:R<run>:` (short: TWS keeps orderRefs of modest length).
    public static func run(_ number: Int64) -> OrderReference { OrderReference(prefix: "\(base)R\(number):") }

    /// A namespace for a run without a journal: epoch milliseconds and the process id, in base 36
    /// (`IBT:Tlz3k9a1x-1f3:`), unique on one machine without a shared counter.
    public static func unjournaledRun(epochMilliseconds: Int64, processID: Int32) -> OrderReference {
        let stamp = String(epochMilliseconds, radix: 36)
        let pid = String(UInt32(bitPattern: processID), radix: 36)
        return OrderReference(prefix: "\(base)T\(stamp)-\(pid):")
    }

    /// The orderRef of a client order id.
    public func orderRef(for clientOrderID: ClientOrderID) -> String { prefix + clientOrderID.rawValue }

    /// The client order id in an orderRef, or `nil` when it is not in this namespace.
    public func clientOrderID(in orderRef: String) -> ClientOrderID? {
        guard orderRef.hasPrefix(prefix), orderRef.count > prefix.count else { return nil }
        return ClientOrderID(String(orderRef.dropFirst(prefix.count)))
    }

    /// `true` when an orderRef is in this namespace.
    public func isOurs(_ orderRef: String) -> Bool { clientOrderID(in: orderRef) != nil }
}

/// The namespace part of an IBTrader orderRef (`IBT:<namespace>:<client order id>`). Pure.
public enum RunNamespace: Sendable, Hashable {
    /// A journal-allocated bot run (`IBT:R12:O-7`).
    case run(Int64)
    /// A bot run of an older journal, named by its start second (`IBT:1732212345:O-7`).
    case legacySecond(Int64)
    /// A bot run without a journal (`IBT:Tlz3k9a1x-1f3:O-7`).
    case unjournaled(String)
    /// `ibtrader order` (`IBT:manual:key`).
    case manual
    /// Another form after `IBT:` (no namespace, or one written by something else).
    case other(String)

    /// Parses an orderRef; `nil` when it is not an IBTrader one (no `IBT:` prefix).
    public init?(orderRef: String) {
        guard orderRef.hasPrefix(OrderReference.base) else { return nil }
        let rest = orderRef.dropFirst(OrderReference.base.count)
        guard let colon = rest.firstIndex(of: ":") else {
            self = .other("")
            return
        }
        let name = rest[..<colon]
        if name == "manual" {
            self = .manual
        } else if name.first == "R", let number = Int64(name.dropFirst()), number > 0 {
            self = .run(number)
        } else if let second = Int64(name), second > 0 {
            self = .legacySecond(second)
        } else if name.first == "T", name.count > 1 {
            self = .unjournaled(String(name.dropFirst()))
        } else {
            self = .other(String(name))
        }
    }

    /// `true` for orders a bot run placed (not `ibtrader order`'s, not an unknown form).
    public var isBotRun: Bool {
        switch self {
        case .run, .legacySecond, .unjournaled: true
        case .manual, .other: false
        }
    }

    /// The highest journal run number among orderRefs (0 when none): the floor for the next run's number, so a
    /// new (or lost) journal never hands out a namespace the broker still holds orders of.
    public static func highestRun(in orderRefs: some Sequence<String>) -> Int64 {
        var highest: Int64 = 0
        for ref in orderRefs {
            if case .run(let number)? = RunNamespace(orderRef: ref) { highest = max(highest, number) }
        }
        return highest
    }
}
