import Logging
import TWSProtocol
import TradingModel

// Execution lists TWS does not end. TWS may never send execDetailsEnd for a request whose filter is all blank (ib_async
// users report it; the recorded real-gateway sessions only show requests naming an account or a symbol), and a bot
// that waits for it never starts. So the driver waits at most `SessionRequest.executionsWait` (or the request
// timeout, if shorter) and answers what arrived as cut short; here, whoever asked goes on with that, an ALERT says so,
// and the executions are asked again narrowed to the account (and the time the first request had): the start-up
// waits for that second answer (bounded the same way) before it reconciles, the others apply it when it comes
// (journaled by execId, fills of followed orders through the desk). The broker state's completed orders likewise never
// fail the start-up: without them, an order that ended while the bot was down is judged by its executions.
extension LiveSessionCore {
    /// An execution list TWS did not end: the ALERT, the narrower request, then the answer as the purpose takes it.
    mutating func executionsCutShort(
        _ reports: [TWSExecutionReport], waited: TimeSpan, for purpose: Purpose, at now: Timestamp, _ out: inout Actions
    ) {
        let what = "TWS did not end the execution list (no execDetailsEnd within \(Self.text(waited)))"
        switch purpose {
        case .narrowedExecutions(let startup):
            out.log(
                .critical,
                "ALERT: \(what), asked again by account: going on with the \(reports.count) executions that arrived; "
                    + "fills made meanwhile may be missing until the broker lists them (the position check compares)")
            narrowedExecutions(reports, startup: startup, at: now, &out)
        case .ticket:
            out.log(.critical, "ALERT: \(what): the ticket reports the \(reports.count) executions that arrived")
            ticketRun?.steps.append(
                "\(what): the fills shown are the \(reports.count) executions that arrived")
            answered(purpose, .executions(reports), at: now, &out)
        default:
            out.log(
                .critical,
                "ALERT: \(what): going on with the \(reports.count) that arrived; asking again by account")
            askNarrowedExecutions(since: nil, startup: false, &out)
            answered(purpose, .executions(reports), at: now, &out)
        }
    }

    /// The start-up's broker state: with a shortfall in its executions the start-up waits for them asked again
    /// (narrowed to the account); without one it goes on.
    mutating func startupAnswers(_ answers: BrokerAnswers, at now: Timestamp, _ out: inout Actions) {
        if let completed = answers.shortfall(of: .completedOrders) {
            out.log(
                .warning,
                "the broker's completed orders are not all known (\(completed.reason)): an order that ended while the bot "
                    + "was down is judged by its executions")
        }
        guard let shortfall = answers.shortfall(of: .executions) else {
            return startupBrokerState(answers, at: now, &out)
        }
        out.log(
            .critical,
            "ALERT: the broker's executions are not all known (\(shortfall.reason)): asking again by account; the "
                + "start-up goes on with what arrives")
        startup.answersAwaitingExecutions = answers
        askNarrowedExecutions(since: nil, startup: true, &out)
    }

    /// The narrower request.
    private mutating func askNarrowedExecutions(since: Timestamp?, startup: Bool, _ out: inout Actions) {
        _ = request(
            .executionsOf(account: account, symbol: nil, since: since), for: .narrowedExecutions(startup: startup), &out)
    }

    /// The narrower request answered (complete or not): the start-up goes on with the executions of both answers;
    /// later, the new ones are journaled and applied.
    mutating func narrowedExecutions(
        _ reports: [TWSExecutionReport], startup waiting: Bool, at now: Timestamp, _ out: inout Actions
    ) {
        if waiting, var answers = startup.answersAwaitingExecutions {
            startup.answersAwaitingExecutions = nil
            let known = Set(answers.executions.map(\.execution.executionID))
            let added = reports.filter { !known.contains($0.execution.executionID) }
            answers.executions += added
            out.log(.notice, "executions asked again by account: \(added.count) more than the first list")
            return startupBrokerState(answers, at: now, &out)
        }
        journalExecutions(reports, &out)
        let (outputs, missed) = desk.synchronize(reports, at: dataTime)
        followUps += outputs
        out.log(missed > 0 ? .notice : .info, "executions asked again by account: \(missed) not seen before, applied")
    }

    /// The narrower request failed: the start-up goes on with what the first list brought.
    mutating func narrowedExecutionsFailed(
        _ failure: SessionFailure, startup waiting: Bool, at now: Timestamp, _ out: inout Actions
    ) {
        if connected {
            out.log(
                .critical,
                "ALERT: the executions asked again by account failed too (\(failure)): going on without them; fills "
                    + "made while the bot was away may be missing (the position check compares with the broker's positions)")
        } else {
            out.log(.warning, "the executions asked again by account went unanswered: \(failure)")
        }
        guard waiting, let answers = startup.answersAwaitingExecutions else { return }
        startup.answersAwaitingExecutions = nil
        startupBrokerState(answers, at: now, &out)
    }
}
