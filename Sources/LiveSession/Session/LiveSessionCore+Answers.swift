import Logging
import JournalModel
import TWSProtocol
import TradingEngine
import TradingModel

// Answers to the core's requests, routed by what each was for.
extension LiveSessionCore {
    mutating func answered(_ purpose: Purpose, _ answer: SessionAnswer, at now: Timestamp, _ out: inout Actions) {
        if case .serverTime(let seconds) = answer { serverClock = (Timestamp(seconds: seconds), now) }
        if case .executionsCutShort(let reports, let waited) = answer {
            return executionsCutShort(reports, waited: waited, for: purpose, at: now, &out)
        }
        switch (purpose, answer) {
        case (.contractDetails(let id), .contractDetails(let details)):
            qualified(id, details, &out)
        case (.marketRule(let rule), .marketRule(let increments)):
            marketRuleAnswered(rule, increments, &out)
        case (.startupBrokerState, .brokerState(let answers)):
            startupAnswers(answers, at: now, &out)
        case (.narrowedExecutions(let startup), .executions(let reports)):
            narrowedExecutions(reports, startup: startup, at: now, &out)
        case (.beginRun, .run(let run)):
            runAllocated(run, &out)
            continueStartup(at: now, &out)
        case (.warmupTime, .serverTime(let seconds)):
            requestWarmup(serverNow: Timestamp(seconds: seconds), &out)
        case (.frontMonthTime, .serverTime(let seconds)):
            chooseFrontMonths(serverNow: Timestamp(seconds: seconds), &out)
        case (.rolledContract(let id), .contractDetails(let details)):
            rolledContractQualified(id, details, &out)
        case (.rebaseBars(let id), .bars(let bars)):
            rebaseHistory(id, bars, &out)
        case (.rollVolume(let id, let month), .bars(let bars)):
            volumesAnswered(id, month, bars, &out)
        case (.warmup(let id), .bars(let bars)):
            warmupBars(id, bars, &out)
            continueStartup(at: now, &out)
        case (.warmupMonthLeft(let id), .bars(let bars)):
            monthLeftBars(id, bars, &out)
            continueStartup(at: now, &out)
        case (.journalBeforeReconciliation, .journalRestart(let data)):
            if let unclean = data.uncleanStop {
                out.log(
                    .critical,
                    "ALERT: \(unclean) did not stop cleanly (a crash, kill -9 or power loss); this start reconciles its "
                        + "orders and fills with the broker's")
            }
            startup.journal = data
            startup.journalPending = false
            continueStartup(at: now, &out)
        case (.journalAfterReconciliation, .journalRestart(let data)):
            completeRestart(data, at: now, &out)
        case (.resyncExecutions, .executions(let reports)):
            resyncAnswered({ $0.executions = reports }, at: now, &out)
        case (.resyncOpenOrders, .openOrders(let orders)):
            resyncAnswered({ $0.openOrders = orders }, at: now, &out)
        case (.resyncCompletedOrders, .completedOrders(let orders)):
            resyncAnswered({ $0.completedOrders = orders }, at: now, &out)
        case (.backfillTime, .serverTime(let seconds)):
            backfillPlanned(serverNow: Timestamp(seconds: seconds), &out)
        case (.backfillBars(let id), .bars(let bars)):
            backfillAnswered(id, bars, at: now, &out)
        case (.executionSync(let asked), .executions(let reports)):
            executionSyncFrom = max(executionSyncFrom ?? asked, asked)
            journalExecutions(reports, &out)
        case (.heartbeat, _):
            heartbeatAnswered(at: now, &out)
        case (.stopExecutions, .executions(let reports)):
            stopResyncAnswered({ $0.executions = reports }, at: now, &out)
        case (.stopOpenOrders, .openOrders(let orders)):
            stopResyncAnswered({ $0.openOrders = orders }, at: now, &out)
        case (.finalBrokerState, .brokerState(let answers)):
            finalSnapshot(answers, &out)
        case (.positionCheck, .positions(let positions)):
            positionsAnswered(positions, at: now, &out)
        case (.gatePositions, .positions(let positions)):
            gatePositionsAnswered(positions, at: now, &out)
        case (.whatIf(let command), .orderPreview(let state)):
            previewAnswered(command, PreviewMapping.preview(of: state), &out)
        case (.marginCheck, .accountValues(let values)):
            marginCheckAnswered(values, &out)
        case (.ticket(let step), _):
            ticketAnswered(step, answer, at: now, &out)
        case (.cancel(let step), _):
            cancelAnswered(step, answer, at: now, &out)
        case (.modify(let step), _):
            modifyAnswered(step, answer, at: now, &out)
        default:
            out.log(.error, "unexpected answer to \(purpose): \(answer.kind)")
            failed(purpose, .unanswered("unexpected answer"), at: now, &out)
        }
    }

    mutating func failed(_ purpose: Purpose, _ failure: SessionFailure, at now: Timestamp, _ out: inout Actions) {
        switch purpose {
        case .whatIf(let command):
            previewFailed(command, failure, &out)
        case .contractDetails(let id):
            guard ticketRun == nil else {
                // 200: no security definition.
                if case .rejected(200, _) = failure {
                    return fail(.contractNotFound(universe[id].symbol), &out)
                }
                return fail(.ticket(.contract("\(universe[id].symbol): \(failure)")), &out)
            }
            fail(.startup("contract details of \(universe[id].symbol): \(failure)"), &out)
        case .marketRule(let rule):
            marketRuleFailed(rule, failure, &out)
        case .startupBrokerState:
            fail(.startup("the broker's orders, executions and positions: \(failure)"), &out)
        case .beginRun:
            fail(.startup("journal: \(failure)"), &out)
        case .journalBeforeReconciliation, .journalAfterReconciliation:
            fail(.startup("journal: \(failure)"), &out)
        case .rolledContract(let id):
            out.log(.warning, "contract details of \(universe[id].symbol)'s new month unavailable (\(failure)): it trades as asked for")
        case .rollVolume(let id, let month):
            if volumeChecks[id]?.volumes[month] == nil, volumeChecks[id] != nil {
                volumeChecks[id]?.volumes[month] = [:]
                out.log(
                    .warning,
                    "daily volumes of \(universe[id].symbol) \(month) unavailable (\(failure)): it rolls by days today")
            }
        case .rebaseBars(let id):
            rebasePending[id] = nil
            out.log(
                .warning,
                "the new month's bars of \(universe[id].symbol) unavailable (\(failure)): the strategy's history keeps the "
                    + "old month's prices")
        case .frontMonthTime:
            out.log(.notice, "no server time for the front months (\(failure)): the clock's day decides them")
            chooseFrontMonths(serverNow: nil, &out)
        case .warmupTime:
            if stopping == nil { out.log(.notice, "no server time for the warm-up (\(failure)): its last bars are taken as partial") }
            requestWarmup(serverNow: nil, &out)
        case .warmup(let id):
            if stopping == nil { out.log(.warning, "warm-up bars of \(universe[id].symbol) failed: \(failure)") }
            startup.warmupPending -= 1
            continueStartup(at: now, &out)
        case .warmupMonthLeft(let id):
            if stopping == nil, let left = startup.monthsLeft[id] {
                out.log(
                    .warning,
                    "warm-up bars of \(universe[id].symbol) \(left.month) failed (\(failure)): the strategy warms up on "
                        + "the new month's own bars before the roll")
            }
            startup.monthsLeft[id] = nil
            startup.warmupPending -= 1
            continueStartup(at: now, &out)
        case .resyncExecutions, .resyncOpenOrders:
            out.log(.error, "resynchronization failed: \(failure)")
            resyncAnswered({ $0.failed = true }, at: now, &out)
        case .resyncCompletedOrders:
            // Not fatal: an order missing from the open orders is then reported as unknown, not guessed at.
            out.log(.warning, "completed orders unavailable: \(failure)")
            resyncAnswered({ $0.completedOrders = [] }, at: now, &out)
        case .backfillTime:
            backfillWithoutServerTime(failure, at: now, &out)
        case .backfillBars(let id):
            if recovery?.backfill?.cutShort == false {
                out.log(.warning, "back-fill of \(universe[id].symbol) failed: \(failure)")
            }
            backfillAnswered(id, [], at: now, &out)
        case .executionSync:
            out.log(.warning, "execution sync failed: \(failure)")
        case .narrowedExecutions(let startup):
            narrowedExecutionsFailed(failure, startup: startup, at: now, &out)
        case .heartbeat:
            // A TWS error is an answer too: the gateway is alive. No answer is the probe's failure.
            if case .rejected = failure {
                heartbeatAnswered(at: now, &out)
            } else {
                heartbeatUnanswered(at: now, &out)
            }
        case .stopExecutions, .stopOpenOrders:
            out.log(.warning, "final resynchronization failed: \(failure)")
            stopResyncAnswered({ $0.failed = true }, at: now, &out)
        case .positionCheck:
            positionCheckFailed(failure, at: now, &out)
        case .gatePositions:
            gatePositionsFailed(failure, at: now, &out)
        case .marginCheck:
            out.log(.warning, "IB's margin figures unavailable: \(failure)")
        case .ticket(let step):
            ticketFailed(step, failure, at: now, &out)
        case .cancel(let step):
            cancelFailed(step, failure, &out)
        case .modify(let step):
            modifyFailed(step, failure, at: now, &out)
        case .finalBrokerState:
            out.log(.error, "final broker snapshot failed: \(failure)")
            finishRun(brokerPositions: [:], &out)
        }
    }
}

extension SessionAnswer {
    /// What kind of answer this is, for a log line.
    var kind: String {
        switch self {
        case .contractDetails: "contract details"
        case .bars: "bars"
        case .brokerState: "broker state"
        case .executions: "executions"
        case .executionsCutShort: "executions (cut short)"
        case .openOrders: "open orders"
        case .completedOrders: "completed orders"
        case .serverTime: "server time"
        case .positions: "positions"
        case .journalRestart: "journal data"
        case .run: "journal run"
        case .orderPreview: "what-if preview"
        case .accountValues: "account values"
        case .marketRule: "market rule"
        case .snapshot: "quote snapshot"
        case .journaledRefs: "journaled orderRefs"
        case .dailyPnL: "daily P&L"
        }
    }
}
