import Simulation
import TWSProtocol
import TradingModel

// A futures contract month past its last trading day, as at IB: its working orders are cancelled and open positions
// are settled in cash at the final price (the close of its last bar on or before that day: for a cash-settled index
// future IB books the exchange's final settlement; the data's last close stands for it). No execution is reported
// (IB reports none for an expiry); the position goes to zero and the account's values move.
extension GatewayState {
    /// Settles every contract month that expired since the last call (cheap when nothing did).
    mutating func settleExpiredFutures() -> [GatewayAction] {
        var out: [GatewayAction] = []
        for instrument in data.instruments where isExpired(instrument) {
            guard case let .future(future) = instrument.kind, let lastDay = future.lastTradingDay else { continue }
            let working = orders.values.filter { $0.instrument == instrument.id && !$0.isTerminal }
            for key in working.sorted(by: { $0.permID < $1.permID }).map(\.key) {
                guard let entry = orders[key] else { continue }
                if entry.isHeld || entry.status == "PendingSubmit" || entry.inactivity != nil {
                    out += finish(key, status: "Cancelled", notice: true)
                    continue
                }
                var reports: [ExecutionReport] = []
                engine.cancel(entry.engineID, at: now, into: &reports)
                out += process(reports)
            }
            let held = accounts.indices.filter { !(accounts[$0].holdings[instrument.id]?.quantity.isZero ?? true) }
            guard !held.isEmpty, let price = Self.finalPrice(instrument, lastDay: lastDay) else { continue }
            for index in held {
                accounts[index].settle(instrument.id, at: price)
                out += positionChanged(instrument.id, account: accounts[index].accountCode)
            }
        }
        return out
    }

    /// The close of a contract's last bar on or before its last trading day.
    static func finalPrice(_ instrument: SimulatedInstrument, lastDay: Int64) -> Double? {
        instrument.series.bars.last { $0.timestamp.dayNumber <= lastDay }?.close.doubleValue
    }
}
