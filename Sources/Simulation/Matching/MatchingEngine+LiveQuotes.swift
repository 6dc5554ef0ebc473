import TradingModel

extension MatchingEngine {
    /// Matches against a top-of-book quote whose displayed size limits what fills (the live gateway simulator's
    /// quote-driven matching): buys at the ask, sells at the bid; with `maxVolumeParticipation` set, all fills of
    /// the instrument on this quote together take at most that fraction of `liquidity`, the rest keeps working.
    /// - Parameters:
    ///   - quote: the quote; its timestamp is the time of the fills.
    ///   - instrument: whose quote it is.
    ///   - liquidity: the shares this quote can fill.
    ///   - reports: receives fills, expiries and OCA/IOC cancels.
    public mutating func process(
        quote: Quote, for instrument: InstrumentID, liquidity: Quantity, into reports: inout [ExecutionReport]
    ) {
        guard workingCount[instrument.index] > 0 else { return }
        let buyPath = PricePath(price: quote.ask)
        let sellPath = PricePath(price: quote.bid)
        let midPath = PricePath(price: quote.mid)
        var used = Quantity.zero
        let context = MatchContext(time: quote.timestamp, volume: liquidity)
        var i = 0
        while i < working.count {
            if working[i].instrument == instrument {
                let path = working[i].mode.isMidpoint ? midPath : working[i].side == .buy ? buyPath : sellPath
                match(at: i, path: path, context: context, used: &used, into: &reports)
            }
            i += 1
        }
        compact()
    }
}
