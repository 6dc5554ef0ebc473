import TradingEngine
import TradingModel

/// A strategy whose orders without a timeout get one (`orders.timeout`): the engine then cancels them when it runs
/// out, on its own timers (bar time), exactly as in a backtest. Bracket orders keep their own settings.
public struct OrderTimeoutDefault<Base: Strategy>: Strategy {
    /// The wrapped strategy.
    public var base: Base
    /// The timeout given to orders that have none.
    public let timeout: TimeSpan

    /// Wraps a strategy.
    public init(_ base: Base, timeout: TimeSpan) {
        self.base = base
        self.timeout = timeout
    }

    public mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
        var actions = base.handle(event, in: context)
        for k in actions.indices {
            if case .submit(var request) = actions[k], request.timeout == nil {
                request.timeout = timeout
                actions[k] = .submit(request)
            }
        }
        return actions
    }

    /// As the wrapped strategy (the engine skips `.barsClosed` for per-instrument strategies).
    public static var handlesBarsClosed: Bool { Base.handlesBarsClosed }
}

/// `OrderTimeoutDefault` asks for what its strategy asks for.
extension OrderTimeoutDefault {
    public var usesQuotes: Bool { base.usesQuotes }
}
