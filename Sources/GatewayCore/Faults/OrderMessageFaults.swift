import TWSProtocol
import TradingModel

/// An order message held back by `late-exec` / `late-status`, sent once the replay clock reaches `due`.
struct LateMessage: Sendable, Equatable {
    var due: Timestamp
    var connection: ConnectionID
    var response: TWSResponse
}

// One-shot faults on the order messages TWS sends, as real gateways deliver them now and then: a fill in parts
// (`partial-fill N`), an orderStatus twice (`duplicate-status`), an execution or an orderStatus late, after later
// messages (`late-exec S`, `late-status S`: held back for S seconds of replay time), and a fill's messages in reverse
// order (`reorder-fill`: commissionReport first, execDetails last), and a fill whose orderStatus never comes
// (`missing-status`: its execDetails, openOrder and commissionReport only, as ib_async users report). The account
// changes as without the fault; only what the client hears, and when, differs. `duplicate-exec` is the older sibling (GatewayState+Executions.swift).
extension GatewayState {
    /// A fill of the matching engine as TWS reports it: one execution, or, with `partial-fill N` armed, N executions
    /// of whole shares (the last takes the rest) with the commission shared in proportion, each with its orderStatus
    /// (`Submitted` with the running filled quantity until the last).
    mutating func executeInParts(_ fill: Fill, key: OrderKey) -> [GatewayAction] {
        let parts = pendingFaults.splitNextFill
        let share = Quantity(1).units
        guard parts > 1, fill.quantity.units % share == 0, fill.quantity.units / share >= Int64(parts) else {
            return execute(fill, key: key)
        }
        pendingFaults.splitNextFill = 0
        let each = Quantity(units: fill.quantity.units / share / Int64(parts) * share)
        var left = fill.quantity
        var commissionLeft = fill.commission
        var out: [GatewayAction] = []
        for index in 0..<parts {
            var part = fill
            if index < parts - 1 {
                part.quantity = each
                let cents = (fill.commission.doubleValue * each.doubleValue / fill.quantity.doubleValue * 100).rounded()
                part.commission = Money(approximately: cents / 100)
            } else {
                part.quantity = left
                part.commission = commissionLeft
            }
            left = left - part.quantity
            commissionLeft = commissionLeft - part.commission
            out += execute(part, key: key)
        }
        return out
    }

    /// Applies the armed message faults to what one request or one clock step sends (last, after everything else).
    mutating func applyingMessageFaults(_ actions: [GatewayAction]) -> [GatewayAction] {
        let faults = pendingFaults
        guard faults.duplicateNextStatus || faults.reverseNextFill || faults.lateNextExecution != nil
            || faults.lateNextStatus != nil || faults.dropNextFillStatus
        else { return actions }
        var out = actions
        if pendingFaults.dropNextFillStatus, let range = Self.fillMessages(in: out),
            case .send(let connection, _) = out[range.lowerBound], let execution = Self.liveExecution(of: out[range.lowerBound])
        {
            // Every orderStatus of the filled order in this batch, from its execution on, is never sent.
            pendingFaults.dropNextFillStatus = false
            let tail = out[range.lowerBound...].filter { action in
                guard case .send(connection, .orderStatus(let status)) = action else { return true }
                return status.orderID != execution.orderID
            }
            out.replaceSubrange(range.lowerBound..., with: tail)
        }
        if pendingFaults.duplicateNextStatus, let index = out.firstIndex(where: { Self.status(of: $0) != nil }) {
            pendingFaults.duplicateNextStatus = false
            out.insert(out[index], at: index + 1)
        }
        if pendingFaults.reverseNextFill, let range = Self.fillMessages(in: out) {
            pendingFaults.reverseNextFill = false
            out.replaceSubrange(range, with: out[range].reversed())
        }
        if let span = pendingFaults.lateNextExecution, let index = out.firstIndex(where: { Self.liveExecution(of: $0) != nil }),
            case .send(let connection, let details) = out[index], let execution = Self.liveExecution(of: out[index])
        {
            pendingFaults.lateNextExecution = nil
            var held = [details]
            out.remove(at: index)
            if let commission = out.firstIndex(where: {
                if case .send(connection, .commissionReport(let report)) = $0 { report.executionID == execution.executionID } else { false }
            }), case .send(_, let report) = out[commission] {
                held.append(report)
                out.remove(at: commission)
            }
            lateMessages += held.map { LateMessage(due: now + span, connection: connection, response: $0) }
        }
        if let span = pendingFaults.lateNextStatus, let index = out.firstIndex(where: { Self.status(of: $0) != nil }),
            case .send(let connection, let status) = out[index]
        {
            pendingFaults.lateNextStatus = nil
            out.remove(at: index)
            lateMessages.append(LateMessage(due: now + span, connection: connection, response: status))
        }
        return out
    }

    /// The held-back messages that came due, in the order they were held (to connections still open).
    mutating func releasingLateMessages() -> [GatewayAction] {
        guard !lateMessages.isEmpty else { return [] }
        let due = lateMessages.filter { $0.due <= now }
        lateMessages.removeAll { $0.due <= now }
        return due.filter { sessions[$0.connection] != nil }.map { .send($0.connection, $0.response) }
    }

    /// Arms a message fault (the hub's `apply`).
    public mutating func arm(_ command: FaultCommand) {
        switch command {
        case .partialFill(let parts): pendingFaults.splitNextFill = parts
        case .duplicateNextStatus: pendingFaults.duplicateNextStatus = true
        case .lateExecution(let seconds): pendingFaults.lateNextExecution = TimeSpan(nanoseconds: Int64(seconds * 1e9))
        case .lateStatus(let seconds): pendingFaults.lateNextStatus = TimeSpan(nanoseconds: Int64(seconds * 1e9))
        case .reorderNextFill: pendingFaults.reverseNextFill = true
        case .missingStatus: pendingFaults.dropNextFillStatus = true
        case .refuseNextOrder(let code, let text): pendingFaults.refuseNextOrder = OrderRefusal(code: code, text: text)
        case .omitBlankExecutionsEnd: pendingFaults.omitBlankExecutionsEnd = true
        case .locateNextShortSale(let seconds):
            pendingFaults.locateNextShortSale = TimeSpan(nanoseconds: Int64(seconds * 1e9))
        case .deactivateNextOrder: pendingFaults.deactivateNextOrder = true
        default: break
        }
    }

    private static func status(of action: GatewayAction) -> TWSOrderStatus? {
        if case .send(_, .orderStatus(let status)) = action { status } else { nil }
    }

    private static func liveExecution(of action: GatewayAction) -> TWSExecution? {
        if case .send(_, .executionDetails(let requestID, _, let execution)) = action, requestID < 0 { execution } else { nil }
    }

    /// The first live execDetails and the messages of the same order right after it on the same connection
    /// (orderStatus, openOrder, its commissionReport): the run `execute` sends for one fill.
    private static func fillMessages(in actions: [GatewayAction]) -> Range<Int>? {
        guard let start = actions.firstIndex(where: { liveExecution(of: $0) != nil }),
            case .send(let connection, _) = actions[start], let execution = liveExecution(of: actions[start])
        else { return nil }
        var end = start + 1
        while end < actions.count, case .send(connection, let response) = actions[end] {
            let belongs: Bool
            switch response {
            case .executionDetails(let requestID, _, let other): belongs = requestID < 0 && other.executionID == execution.executionID
            case .orderStatus(let status): belongs = status.orderID == execution.orderID
            case .openOrder(let open): belongs = open.order.orderID == execution.orderID
            case .commissionReport(let report): belongs = report.executionID == execution.executionID
            default: belongs = false
            }
            guard belongs else { break }
            end += 1
        }
        return end - start > 1 ? start..<end : nil
    }
}
