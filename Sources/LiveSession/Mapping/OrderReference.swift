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
    /// Whether the forms written before bot identities (`IBT:R12:`, `IBT:<second>:`, `IBT:T…:`, `IBT:manual:`) are
    /// in the namespace too (`bot(_:)`'s: a journal's older orders are still its own). `nil`: no.
    public var includesOlderForms: Bool?

    /// Creates a namespace.
    public init(prefix: String = OrderReference.base) { self.prefix = prefix }

    /// The namespace of a journal-allocated bot run: `IBT:<bot>.R<run>:` with the journal's bot identity, or
    /// `IBT:R<run>:` for a journal without one (short: TWS keeps orderRefs of modest length).
    public static func run(_ number: Int64, bot: String? = nil) -> OrderReference {
        OrderReference(prefix: bot.map { "\(base)\($0).R\(number):" } ?? "\(base)R\(number):")
    }

    /// Every run of one bot (`IBT:<bot>.`), or every IBTrader orderRef for a journal without an identity (`IBT:`):
    /// the orders a restart takes as its own when the journal does not know them.
    public static func bot(_ bot: String?) -> OrderReference {
        guard let bot else { return OrderReference(prefix: base) }
        var reference = OrderReference(prefix: "\(base)\(bot).")
        reference.includesOlderForms = true
        return reference
    }

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
    public func isOurs(_ orderRef: String) -> Bool {
        if clientOrderID(in: orderRef) != nil { return true }
        guard includesOlderForms == true, let namespace = RunNamespace(orderRef: orderRef) else { return false }
        switch namespace {
        case .run(_, let bot): return bot == nil
        case .legacySecond, .unjournaled, .manual: return true
        case .other: return false
        }
    }
}

/// The namespace part of an IBTrader orderRef (`IBT:<namespace>:<client order id>`). Pure.
public enum RunNamespace: Sendable, Hashable {
    /// A journal-allocated bot run (`IBT:R12:O-7`, or `IBT:k3f9.R12:O-7` with the journal's bot identity).
    case run(Int64, bot: String? = nil)
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
        } else if let dot = name.firstIndex(of: "."), name[name.index(after: dot)...].first == "R",
            let number = Int64(name[name.index(dot, offsetBy: 2)...]), number > 0, dot > name.startIndex
        {
            self = .run(number, bot: String(name[..<dot]))
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
            if case .run(let number, _)? = RunNamespace(orderRef: ref) { highest = max(highest, number) }
        }
        return highest
    }
}
