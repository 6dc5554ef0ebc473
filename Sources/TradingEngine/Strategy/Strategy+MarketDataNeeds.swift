/// What market data a strategy asks for. The live runner subscribes 5-second bars always, and quotes (reqMktData)
/// only for strategies that say so: a quote line costs a market data line at IB and one event per bid/ask change.
/// The backtester ignores it (it replays whatever the data holds).
///
/// ```swift
/// struct SpreadWatcher: Strategy {
///     var usesQuotes: Bool { true }
///     mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] { [] }
/// }
/// ```
extension Strategy {
    /// Bars only, unless the strategy says otherwise.
    @inlinable public var usesQuotes: Bool { false }
}

/// How a run decides whether to subscribe quotes (`data.quotes` of a run config).
public enum QuoteSubscriptionMode: String, Sendable, Hashable, CaseIterable, Codable {
    /// As the strategy asks (`Strategy.usesQuotes`).
    case auto
    /// Always, even for a strategy that does not ask.
    case on
    /// Never, even for a strategy that asks (it then sees bars only; `lastQuote(for:)` stays `nil`).
    case off

    /// Whether quotes are subscribed for a strategy that does or does not ask for them.
    public func subscribes(strategyAsks: Bool) -> Bool {
        switch self {
        case .auto: strategyAsks
        case .on: true
        case .off: false
        }
    }
}
