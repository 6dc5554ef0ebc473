import TradingModel

/// What a mean-reversion rule wants for one instrument on one bar.
enum MeanReversionSignal {
    case none
    case enterLong
    case enterShort
    case exitLong
    case exitShort
}

/// Turns a signal into actions, shared by `RSIMeanReversion` and `BollingerMeanReversion`.
struct MeanReversionExecutor {
    var sizing: PositionSizer
    var atrStops: ATRStopConfig?

    func actions(
        for signal: MeanReversionSignal, id: InstrumentID, bar: Bar, atr: Double?, context: some StrategyContext
    ) -> [StrategyAction] {
        let position = context.position(for: id).quantity
        switch signal {
        case .none:
            return []
        case .exitLong where position.units > 0, .exitShort where position.units < 0:
            var actions: [StrategyAction] = []
            if context.hasOpenOrders(for: id) { actions.append(.cancelAll(id)) }
            actions.append(.submit(.market(id, position.units > 0 ? .sell : .buy, position.magnitude)))
            return actions
        case .enterLong where position.units == 0 && !context.hasOpenOrders(for: id),
            .enterShort where position.units == 0 && !context.hasOpenOrders(for: id):
            let side: Side = signal.isLong ? .buy : .sell
            let quantity = sizing.quantity(
                price: bar.close, equity: context.equity(in: id), atr: atr, instrument: context.universe[id])
            guard quantity.units > 0 else { return [] }
            let request = OrderRequest.market(id, side, quantity)
            return [atrStops.map { $0.entry(request, reference: bar.close, atr: atr) } ?? .submit(request)]
        default:
            return []
        }
    }
}

extension MeanReversionSignal {
    var isLong: Bool {
        switch self {
        case .enterLong: true
        default: false
        }
    }
}
