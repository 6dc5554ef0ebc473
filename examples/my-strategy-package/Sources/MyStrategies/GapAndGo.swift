import TraderConfig
import TradingEngine
import TradingModel

/// Buys the first bar of each day for an instrument that opened the day above its previous close, with a
/// protective bracket (a stop `stopPercent` below, a target `targetPercent` above), and flattens whatever is still
/// open at `flattenAt` (UTC, after midnight).
///
/// The shape of every strategy: a value type holding its state, `handle(_:in:)` turning one event into intents
/// (`StrategyAction`s) through the read-only context. It never calls the broker, never sleeps and never reads the
/// clock: it schedules a timer instead.
public struct GapAndGo: ConfigurableStrategy {
    /// The strategy's settings, as `strategy.parameters` holds them.
    public struct Parameters: Hashable, Sendable {
        /// The stop's distance below the entry, percent.
        public var stopPercent = 2.0
        /// The target's distance above the entry, percent.
        public var targetPercent = 4.0
        /// When open positions are flattened, as a time of day in UTC (a duration after midnight).
        public var flattenAt: Duration = .seconds(20 * 3600 + 55 * 60)
        /// Entry size.
        public var sizing = PositionSizer.fixedQuantity(Quantity(100))

        /// The defaults.
        public init() {}
    }

    public static let name = "gap-and-go"
    public static let summary = "Buys a gap up at each day's first bar with a bracket; flattens before the close."
    public static var defaultParameters: Parameters { Parameters() }

    public static var parameterSchema: ConfigSection<Parameters> {
        ConfigSection([
            .value("stopPercent", \.stopPercent, .percent(.above(0, atMost: 50)), summary: "The stop below the entry, percent."),
            .value("targetPercent", \.targetPercent, .percent(.above(0, atMost: 100)), summary: "The target above the entry, percent."),
            .value(
                "flattenAt", \.flattenAt, .duration(.zero ... .seconds(86_399)),
                summary: "Time of day (UTC) when open positions are flattened, e.g. 20h55m."),
            .value("sizing", \.sizing, .sizing, summary: "Entry size: fixed: SHARES or percentOfEquity: P."),
        ])
    }

    let parameters: Parameters
    /// Previous close per instrument.
    var previousClose: [Price] = []
    /// The day number of the last bar seen.
    var lastDay: Int64 = .min

    public init(parameters: Parameters) { self.parameters = parameters }

    public mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
        switch event {
        case let .bar(id, bar):
            while previousClose.count <= id.index { previousClose.append(.zero) }
            defer { previousClose[id.index] = bar.close }
            let day = bar.timestamp.dayNumber
            let isNewDay = day != lastDay
            lastDay = day
            var actions: [StrategyAction] = []
            if isNewDay {
                let midnight = Timestamp(nanoseconds: day * Timestamp.nanosecondsPerDay)
                actions.append(.schedule("flatten", at: midnight + TimeSpan(nanoseconds: parameters.flattenAt.components.seconds * 1_000_000_000)))
            }
            let previous = previousClose[id.index]
            guard isNewDay, previous.units > 0, bar.open > previous, context.position(for: id).isFlat,
                !context.hasOpenOrders(for: id)
            else { return actions }
            let quantity = parameters.sizing.quantity(
                price: bar.close, equity: context.equity, atr: nil, instrument: context.universe[id])
            guard quantity.units > 0 else { return actions }
            let entry = OrderRequest.market(id, .buy, quantity)
            let stop = Price(approximately: bar.close.doubleValue * (1 - parameters.stopPercent / 100))
            let target = Price(approximately: bar.close.doubleValue * (1 + parameters.targetPercent / 100))
            actions.append(.submitBracket(BracketOrder(entry: entry, stopLoss: stop, takeProfit: target)))
            return actions
        case .timer("flatten", _):
            var actions: [StrategyAction] = []
            for instrument in context.universe.instruments {
                let position = context.position(for: instrument.id)
                guard !position.isFlat else { continue }
                actions.append(.cancelAll(instrument.id))
                actions.append(.submit(.market(instrument.id, position.isLong ? .sell : .buy, position.quantity.magnitude)))
            }
            return actions
        default:
            return []
        }
    }
}
