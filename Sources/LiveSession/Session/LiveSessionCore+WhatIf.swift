import Foundation
import Logging
import TWSProtocol
import TradingEngine
import TradingModel

// The what-if check (`risk.whatIf`): before an entry goes out, TWS previews it (placeOrder with `whatIf`, nothing
// placed) and an entry whose initial margin after it would exceed the configured share of the equity with loan is
// refused, as a broker's rejection would be. The engine knows the entry as pending meanwhile; exits never wait.
extension LiveSessionCore {
    /// Sends an entry's what-if request instead of the entry. `true` when the command waits here.
    mutating func interceptForPreview(_ command: EngineCommand, _ out: inout Actions) -> Bool {
        switch command {
        case .cancel(let id):
            guard let tag = awaitingPreview.removeValue(forKey: id) else { return false }
            pending[tag] = nil
            followUps.append(.report(.canceled(id, reason: .requested, at: dataTime)))
            return true
        case .modify(let id, _, _):
            guard awaitingPreview[id] != nil else { return false }
            followUps.append(.report(.modifyRejected(id, reason: "waiting for its what-if preview", at: dataTime)))
            return true
        case .submit, .submitBracket:
            guard settings.whatIfMaxMarginPercent != nil, let entry = command.newOrders?.first else { return false }
            if previewed.remove(entry.id) != nil { return false }
            guard !isExit(entry), let contract = try? desk.contracts.contract(for: entry.instrument),
                var wire = try? OrderMapping.wireOrder(for: entry, options: desk.options)
            else { return false }
            wire.orderRef = ""
            wire.parentID = 0
            let tag = tag()
            pending[tag] = .whatIf(command)
            awaitingPreview[entry.id] = tag
            out.append(.request(tag, .whatIf(wire, contract)))
            return true
        }
    }

    /// The preview came: the entry goes out, or is refused when its margin is too high.
    mutating func previewAnswered(_ command: EngineCommand, _ preview: OrderPreview, _ out: inout Actions) {
        guard let orders = command.newOrders, let entry = orders.first, awaitingPreview.removeValue(forKey: entry.id) != nil,
            let limit = settings.whatIfMaxMarginPercent
        else { return }
        let symbol = universe[entry.instrument].symbol.rawValue
        let margin = preview.initialMargin.after
        let equity = preview.equityWithLoan.after ?? preview.equityWithLoan.before
        if let margin, let equity, margin > equity * limit / 100 {
            let reason = String(
                format: "what-if: initial margin %.2f after the order would exceed %@ %% of the equity with loan %.2f",
                margin, "\(limit)", equity)
            out.log(.warning, "entry \(entry.side.rawValue.lowercased()) \(entry.quantity) \(symbol) refused: \(reason)")
            followUps += OrderDesk.rejections(orders, reason, at: dataTime)
            return
        }
        out.log(
            .info,
            "what-if for \(symbol): initial margin after \(margin.map { String(format: "%.2f", $0) } ?? "not given"), "
                + "commission \(preview.commission.map { String(format: "%.2f", $0) } ?? "not given"); sending")
        previewed.insert(entry.id)
        carryOut(command, &out)
    }

    /// No preview (TWS refused the order, or no answer): the entry is refused, never sent unchecked.
    mutating func previewFailed(_ command: EngineCommand, _ failure: SessionFailure, _ out: inout Actions) {
        guard let orders = command.newOrders, let entry = orders.first, awaitingPreview.removeValue(forKey: entry.id) != nil
        else { return }
        let reason = "what-if preview failed: \(failure)"
        out.log(.warning, "entry \(entry.side.rawValue.lowercased()) \(entry.quantity) \(universe[entry.instrument].symbol) refused: \(reason)")
        followUps += OrderDesk.rejections(orders, reason, at: dataTime)
    }
}
