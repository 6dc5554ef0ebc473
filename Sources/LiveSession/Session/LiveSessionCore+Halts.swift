import Logging
import TradingEngine
import TradingModel

// Trading halts (TWS's HALTED tick, 49): while a symbol is halted its new entries are refused, as a risk rule would
// refuse them, and its exits are held and sent once trading resumes: an order sent into a halted book would only
// queue at the reopening auction, at a price nobody chose. Other symbols trade on.
extension LiveSessionCore {
    /// Whether quotes go into the engine (the strategy or `data.quotes` asks for them). A line kept only to watch
    /// halts feeds the engine nothing, so the strategy decides as in its backtest.
    var quotesReachEngine: Bool { settings.quotes.subscribes(strategyAsks: engine.strategy.usesQuotes) }

    /// A HALTED tick: halts, changes or lifts the symbol's halt (ticks repeating the known state change nothing).
    mutating func haltStatus(_ id: InstrumentID, _ halt: TradingHalt?, at now: Timestamp, _ out: inout Actions) {
        let symbol = universe[id].symbol.rawValue
        switch (halts[id], halt) {
        case (nil, let halt?):
            halts[id] = (halt, now)
            counts.halts += 1
            let text = "\(symbol): \(halt): its new entries are refused and its exits wait until trading resumes"
            out.log(.warning, text)
            journalNote("trading halt: \(text)", &out)
            out.append(.milestone(.runner(.tradingHalt(symbol: symbol, halt: halt, heldExits: 0))))
        case (let known?, let halt?) where known.halt != halt:
            halts[id] = (halt, known.since)
            out.log(.warning, "\(symbol): now \(halt)")
        case (let known?, nil):
            halts[id] = nil
            let release = heldExits.filter { $0.newOrders?.first?.instrument == id }
            heldExits.removeAll { $0.newOrders?.first?.instrument == id }
            let minutes = Double(now.nanoseconds - known.since.nanoseconds) / 60e9
            let text =
                "\(symbol): trading resumed after \(String(format: "%.1f", minutes)) min"
                + (release.isEmpty ? "" : "; sending \(release.count) held exit(s)")
            out.log(.notice, text)
            journalNote("trading halt: \(text)", &out)
            out.append(.milestone(.runner(.tradingHalt(symbol: symbol, halt: nil, heldExits: release.count))))
            for command in release { carryOut(command, &out) }
        default:
            break
        }
    }

    /// Refuses an entry into a halted symbol, holds an exit from one, and answers a cancel or modify of a held
    /// exit. `true` when the command was dealt with here (nothing goes to the broker now).
    mutating func interceptForHalt(_ command: EngineCommand, _ out: inout Actions) -> Bool {
        guard !halts.isEmpty || !heldExits.isEmpty else { return false }
        switch command {
        case .submit(let order):
            guard let halt = halts[order.instrument]?.halt else { return false }
            // Protection rests at the broker through a halt (it only trades once trading resumes): sent, so the
            // position is guarded at the reopening and if the bot stops meanwhile.
            if protectsHeldPosition(order) { return false }
            let symbol = universe[order.instrument].symbol.rawValue
            if isExit(order) {
                heldExits.append(command)
                out.log(
                    .notice,
                    "\(symbol) is halted: exit \(order.side.rawValue.lowercased()) \(order.quantity) (\(order.clientOrderID)) held until trading resumes")
                return true
            }
            refuse([order], symbol: symbol, halt: halt, &out)
            return true
        case .submitBracket(let parent, let children):
            guard let halt = halts[parent.instrument]?.halt else { return false }
            refuse([parent] + children, symbol: universe[parent.instrument].symbol.rawValue, halt: halt, &out)
            return true
        case .cancel(let id):
            guard let index = heldExits.firstIndex(where: { $0.newOrders?.first?.id == id }) else { return false }
            heldExits.remove(at: index)
            followUps.append(.report(.canceled(id, reason: .requested, at: dataTime)))
            out.log(.info, "held exit \(id) cancelled before it was sent")
            return true
        case .modify(let id, _, _):
            guard heldExits.contains(where: { $0.newOrders?.first?.id == id }) else { return false }
            followUps.append(.report(.modifyRejected(id, reason: "held while its symbol is halted", at: dataTime)))
            return true
        }
    }

    private mutating func refuse(_ orders: [Order], symbol: String, halt: TradingHalt, _ out: inout Actions) {
        let reason = "\(symbol) is halted (\(halt)): no new entries until trading resumes"
        followUps += OrderDesk.rejections(orders, reason, at: dataTime)
        out.log(.warning, "entry \(orders[0].side.rawValue.lowercased()) \(orders[0].quantity) \(symbol) refused: \(reason)")
    }

    /// An order that only reduces the position it trades (all of it at most); anything else opens or adds to one.
    func isExit(_ order: Order) -> Bool {
        let position = engine.portfolio.position(for: order.instrument).quantity.units
        let quantity = order.quantity.units
        return order.side == .sell ? position > 0 && quantity <= position : position < 0 && quantity <= -position
    }

    private func journalNote(_ text: String, _ out: inout Actions) {
        if settings.journaled { out.append(journalEvent(.note, text)) }
    }
}
