/// How urgently IB's Adaptive algo works an order (IB's `adaptivePriority`).
public enum AdaptivePriority: String, Hashable, Sendable, Codable, CaseIterable {
    /// Trades quickly, close to a market order.
    case urgent = "Urgent"
    /// Balances price and speed.
    case normal = "Normal"
    /// Waits for a better price; may take longest to fill.
    case patient = "Patient"

    /// The priority from a person's spelling (`patient`, `Patient`).
    public init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else {
            return nil
        }
        self = match
    }
}

/// An IB algo that works the order instead of sending it straight to the book.
public enum OrderAlgo: Hashable, Sendable, Codable {
    /// IB's Adaptive algo (`algoStrategy = "Adaptive"`), for market and limit orders.
    case adaptive(AdaptivePriority)
}

/// How the broker works an order beyond its pricing and lifetime: an algo, trading outside regular hours, and the
/// expiry of a GTD order. `nil` on a request means none of these (RTH only, no algo).
public struct OrderExecution: Hashable, Sendable, Codable {
    /// The algo, if any.
    public var algo: OrderAlgo?
    /// The order may trigger and fill outside regular trading hours (IB's `outsideRth`).
    public var outsideRegularHours: Bool
    /// The order may also work in IB's overnight session for US stocks (IB's `includeOvernight`, a SMART order from
    /// TWS API server version 189).
    public var includeOvernight: Bool
    /// When a GTD order expires (needed with `TimeInForce.gtd`, ignored otherwise).
    public var goodTill: Timestamp?

    /// Creates execution terms.
    public init(
        algo: OrderAlgo? = nil, outsideRegularHours: Bool = false, includeOvernight: Bool = false, goodTill: Timestamp? = nil
    ) {
        self.algo = algo
        self.outsideRegularHours = outsideRegularHours
        self.includeOvernight = includeOvernight
        self.goodTill = goodTill
    }

    /// `true` when it asks for nothing beyond a plain order.
    public var isPlain: Bool { algo == nil && !outsideRegularHours && !includeOvernight && goodTill == nil }

    /// The stored form (the journal's `execution` column): words separated by spaces, e.g.
    /// `adaptive:Patient outside-rth overnight good-till:1764100800000000000`.
    public var storedText: String {
        var words: [String] = []
        if case .adaptive(let priority) = algo { words.append("adaptive:\(priority.rawValue)") }
        if outsideRegularHours { words.append("outside-rth") }
        if includeOvernight { words.append("overnight") }
        if let goodTill { words.append("good-till:\(goodTill.nanoseconds)") }
        return words.joined(separator: " ")
    }

    /// Reads `storedText`; `nil` for a word it does not know (a damaged row, never a default).
    public init?(storedText: String) {
        self.init()
        for word in storedText.split(separator: " ") {
            let parts = word.split(separator: ":", maxSplits: 1).map(String.init)
            switch (parts.first, parts.count == 2 ? parts[1] : nil) {
            case ("adaptive", let name?):
                guard let priority = AdaptivePriority(name: name) else { return nil }
                algo = .adaptive(priority)
            case ("outside-rth", nil): outsideRegularHours = true
            case ("overnight", nil): includeOvernight = true
            case ("good-till", let value?):
                guard let nanoseconds = Int64(value) else { return nil }
                goodTill = Timestamp(nanoseconds: nanoseconds)
            default: return nil
            }
        }
    }
}
