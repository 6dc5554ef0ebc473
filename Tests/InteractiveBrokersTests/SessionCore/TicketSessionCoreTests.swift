import Foundation
import JournalModel
import Testing
import TradingEngine
import TradingModel
import TWSProtocol

@testable import InteractiveBrokers
@testable import LiveSession

/// Issue 41: a manual order is a short session of the core (`SessionTicket`): the bot's start-up without warm-up,
/// run or bars, then the order through the risk rules and the desk, finished by TWS's answers or the timeout.
@Suite("ticket sessions: one manual order through the session core")
struct TicketSessionCoreTests {
    typealias Harness = SessionCoreHarness<TicketStrategy>

    static func settings() -> SessionSettings {
        var settings = Harness.settings()
        settings.reference = OrderReference(prefix: "IBT:manual:")
        settings.warmupDuration = ""
        settings.reconnect = false
        settings.commissionWait = nil
        settings.positionCheck = nil
        settings.journaled = true
        return settings
    }

    static func ticket(
        _ change: (inout ManualOrderArguments) -> Void = { _ in }, risk: RiskConfig = RiskConfig()
    ) throws -> SessionTicket {
        var arguments = ManualOrderArguments(side: "buy", symbol: "AAPL", quantity: "10")
        change(&arguments)
        return SessionTicket(
            order: try ManualOrderTicket(arguments, at: .zero), clientOrderID: "k1", risk: risk, timeout: .seconds(10))
    }

    /// The harness started with the ticket: the actions up to the order's placement.
    /// The session started and connected, nothing answered yet.
    static func connected(_ ticket: SessionTicket) -> Harness {
        var harness = Harness(TicketStrategy(), settings: settings(), ticket: ticket)
        harness.send(.start)
        harness.send(.connected(Harness.connection()))
        return harness
    }

    static func started(_ ticket: SessionTicket) -> (Harness, [SessionAction]) {
        var harness = Harness(TicketStrategy(), settings: settings(), ticket: ticket)
        let actions = harness.startUp()
        return (harness, actions)
    }

    static func status(_ group: OrderGroup, _ status: String, filled: Decimal = 0, index: Int = 0) -> SessionInput {
        let id = group.placements[index].orderID
        return .orderEvent(
            generation: 1,
            .status(TWSOrderStatus(orderID: id, status: status, filled: filled, remaining: 10 - filled, permID: 500 + Int64(id))))
    }

    static func result(_ actions: [SessionAction]) -> ManualOrderResult? {
        actions.lazy.compactMap { if case .finish(let summary) = $0 { summary.ticket } else { nil } }.first
    }

    @Test("a contract month named by IB's local symbol is asked for by it, as TWS does: MESM6 on CME, 202606, ×5")
    func aLocalSymbolQualifiesTheContract() throws {
        var settings = Self.settings()
        settings.symbols = ["MES 2026-06"]
        let order = try ManualOrderTicket(ManualOrderArguments(side: "buy", symbol: "MESM6", quantity: "1"), at: Timestamp(seconds: 1_776_254_400))
        let ticket = SessionTicket(order: order, clientOrderID: "f1", risk: RiskConfig(), timeout: .seconds(10))
        var harness = Harness(TicketStrategy(), settings: settings, ticket: ticket)
        harness.send(.start)
        let actions = harness.send(.connected(Harness.connection()))
        let asked = actions.compactMap { if case .request(_, .contractDetails(let contract)) = $0 { contract } else { nil } }
        #expect(asked.map(\.localSymbol) == ["MESM6"], "\(asked)")
        let contract = try #require(asked.first)
        #expect(contract.symbol == "MES" && contract.securityType == "FUT" && contract.exchange == "CME")
        #expect(contract.lastTradeDateOrContractMonth == "202606" && contract.multiplier == "5")
    }

    @Test("the order goes out after the start-up (no warm-up, run or bars) and the session ends once TWS accepts it")
    func placesAndFinishesOnAcknowledgement() throws {
        var (harness, actions) = Self.started(try Self.ticket())
        let requests = actions.compactMap { if case .request(_, let request) = $0 { request } else { nil } }
        #expect(!requests.contains { if case .historicalBars = $0 { true } else { false } })
        #expect(!requests.contains { if case .journalRestart = $0 { true } else { false } })
        #expect(!requests.contains { if case .beginRun = $0 { true } else { false } })
        #expect(actions.subscriptions.isEmpty)
        let group = try #require(actions.placed.first)
        #expect(group.placements.map(\.order.orderRef) == ["IBT:manual:k1"])
        #expect(group.placements.first?.order.orderType == "MKT")
        #expect(Self.result(actions) == nil)

        let accepted = harness.send(Self.status(group, "Submitted"), after: .milliseconds(20))
        #expect(accepted.contains { if case .request(_, .executionsOf("DU111", "AAPL", nil)) = $0 { true } else { false } })
        let done = harness.answerAll()
        let result = try #require(Self.result(done))
        #expect(result.outcome == .acknowledged)
        #expect(result.orderRef == "IBT:manual:k1")
        #expect(result.account == "DU111")
        #expect(result.legs.map(\.state) == [.accepted])
        #expect(result.entryType == .market)
        #expect(harness.core.phase == .finished)
    }

    @Test("a bracket goes out as one group; an IOC waits for its end; a rejection ends the session with TWS's text")
    func bracketIOCAndRejection() throws {
        var (bracket, actions) = Self.started(try Self.ticket {
            $0.type = "LMT"
            $0.limit = "100"
            $0.takeProfit = "110"
            $0.stopLoss = "95"
        })
        let group = try #require(actions.placed.first)
        #expect(group.placements.count == 3)
        bracket.send(Self.status(group, "Submitted", index: 0))
        bracket.send(Self.status(group, "PreSubmitted", index: 1))
        #expect(bracket.outstanding.isEmpty, "two of three answered: still waiting")
        bracket.send(Self.status(group, "PreSubmitted", index: 2))
        #expect(Self.result(bracket.answerAll())?.legs.count == 3)

        var (ioc, placed) = Self.started(try Self.ticket { $0.timeInForce = "IOC" })
        let iocGroup = try #require(placed.placed.first)
        ioc.send(Self.status(iocGroup, "Submitted"))
        #expect(ioc.outstanding.isEmpty, "an IOC's acceptance is not its end")
        ioc.send(Self.status(iocGroup, "Cancelled"))
        #expect(Self.result(ioc.answerAll())?.legs.map(\.state) == [.canceled])

        var (rejected, sent) = Self.started(try Self.ticket())
        let rejectedGroup = try #require(sent.placed.first)
        let id = rejectedGroup.placements[0].orderID
        rejected.send(.orderEvent(generation: 1, .notice(TWSNotice(requestID: id, code: 201, message: "Order rejected - reason: no"))))
        let result = try #require(Self.result(rejected.answerAll()))
        guard case .rejected(let reason) = result.outcome else {
            Issue.record("not rejected: \(result.outcome)")
            return
        }
        #expect(reason.contains("no"), "\(reason)")
    }

    @Test("a denial is journaled and sends nothing; the account, P&L and last price are asked only when a rule needs them")
    func denialSendsNothing() throws {
        var risk = RiskConfig()
        risk.maxPositionValue = Money(500)
        var harness = Self.connected(try Self.ticket(risk: risk))
        var asked: [SessionRequest] = []
        let actions = harness.answerAll { request in
            asked.append(request)
            switch request {
            case .accountValues: return .accountValues(["NetLiquidation": "100000", "GrossPositionValue": "0"])
            case .snapshot: return .snapshot([4: 100])  // last 100: 10 shares are 1,000 > 500
            default: return nil
            }
        }
        #expect(asked.contains(.accountValues))
        #expect(!asked.contains { if case .dailyPnL = $0 { true } else { false } }, "no daily-loss limit: no P&L asked")
        #expect(actions.placed.isEmpty)
        let result = try #require(Self.result(actions))
        guard case .denied(let denial) = result.outcome else {
            Issue.record("not denied: \(result.outcome)")
            return
        }
        #expect(denial.rule == .maxPositionValue)
        #expect(result.legs.isEmpty)
        #expect(actions.contains {
            if case .journal(.event(.riskDenial, let text, _)) = $0 { text.hasPrefix("IBT:manual:k1 BUY 10 AAPL") } else { false }
        })
    }

    @Test("no answer in time: the session ends unacknowledged; a lost connection after the send ends it alike")
    func timeoutAndLostConnection() throws {
        var (late, actions) = Self.started(try Self.ticket())
        #expect(actions.contains { if case .wakeUp = $0 { true } else { false } })
        late.send(.tick, after: .seconds(9))
        #expect(late.outstanding.isEmpty, "not yet")
        late.send(.tick, after: .seconds(2))
        #expect(Self.result(late.answerAll())?.outcome == .timedOut)

        var (lost, _) = Self.started(try Self.ticket())
        let ended = lost.send(.connectionClosed(generation: 1, "peer closed"))
        #expect(Self.result(ended)?.outcome == .timedOut)
    }

    @Test("a price off the tick, an ambiguous symbol and a contract TWS does not know fail the ticket by name")
    func failures() throws {
        let offTick = try Self.ticket {
            $0.type = "LMT"
            $0.limit = "100.005"
        }
        var harness = Self.connected(offTick)
        let actions = harness.answerAll { request in
            guard case .contractDetails(let details) = Harness.answer(to: request) else { return nil }
            var ticked = details
            ticked[0].minTick = 0.01
            return .contractDetails(ticked)
        }
        #expect(actions.placed.isEmpty)
        #expect(actions.contains {
            if case .fail(.ticket(.offTick(let text))) = $0 { text == "100.005 is not a price AAPL trades at: its minimum tick is 0.01; use 100 or 100.01" } else { false }
        })

        var ambiguous = Self.connected(try Self.ticket())
        let (tag, _) = try #require(ambiguous.outstanding.first)
        let two = [TWSContractDetails(contract: TWSContract(symbol: "AAPL", securityType: "STK", exchange: "SMART", currency: "USD")),
                   TWSContractDetails(contract: TWSContract(symbol: "AAPL", securityType: "STK", exchange: "SMART", currency: "USD"))]
        let failed = ambiguous.send(.answer(tag, .contractDetails(two)))
        #expect(failed.contains { $0 == .fail(.ticket(.contract("AAPL is ambiguous (2 contracts); trade it from TWS"))) })

        var unknown = Self.connected(try Self.ticket())
        let (first, _) = try #require(unknown.outstanding.first)
        #expect(unknown.send(.answer(first, .contractDetails([]))).contains { $0 == .fail(.contractNotFound("AAPL")) })
    }

    @Test("a market rule TWS refuses leaves the minimum tick: a price off it is refused naming that tick")
    func refusedRuleFallsBackToTheMinimumTick() throws {
        let ticket = try Self.ticket {
            $0.type = "LMT"
            $0.limit = "0.5012"
        }
        var harness = Self.connected(ticket)
        var actions: [SessionAction] = []
        while let (tag, request) = harness.outstanding.first {
            switch request {
            case .contractDetails(var contract):
                contract.contractID = 1
                var details = TWSContractDetails(contract: contract)
                (details.minTick, details.marketRuleIDs, details.validExchanges) = (0.01, "999", "SMART")
                actions += harness.send(.answer(tag, .contractDetails([details])))
            case .marketRule:
                actions += harness.send(.failed(tag, .rejected(code: 321, "321 unknown market rule")))
            default:
                actions += harness.send(.answer(tag, Harness.answer(to: request)))
            }
        }
        #expect(actions.contains {
            $0 == .fail(.ticket(.offTick("0.5012 is not a price AAPL trades at: its minimum tick is 0.01; use 0.5 or 0.51")))
        })
    }

    @Test("a what-if asks TWS's preview of the entry as it would go out, places and journals nothing, and reports a denial beside it")
    func previewPlacesNothing() throws {
        var risk = RiskConfig()
        risk.maxPositionValue = Money(500)
        var arguments = ManualOrderArguments(side: "buy", symbol: "AAPL", quantity: "10", type: "LMT", limit: "100")
        (arguments.takeProfit, arguments.stopLoss) = ("110", "95")
        let ticket = SessionTicket(previewing: try ManualOrderTicket(arguments, at: .zero), risk: risk, timeout: .seconds(10))
        var settings = Self.settings()
        settings.journaled = false
        var harness = Harness(TicketStrategy(), settings: settings, ticket: ticket)
        harness.send(.start)
        var actions = harness.send(.connected(Harness.connection()))
        var previewed: TWSOrder?
        actions += harness.answerAll { request in
            switch request {
            case .accountValues: return .accountValues(["NetLiquidation": "100000", "GrossPositionValue": "0"])
            case .whatIf(let order, _):
                previewed = order
                var state = TWSOrderState(status: "PreSubmitted")
                state.initMarginChange = "500"
                return .orderPreview(state)
            default: return nil
            }
        }
        #expect(actions.placed.isEmpty)
        #expect(!actions.contains { if case .journal = $0 { true } else { false } })
        #expect(previewed?.orderRef == "" && previewed?.limitPrice == 100 && previewed?.totalQuantity == 10)
        let result = try #require(actions.lazy.compactMap { if case .finish(let s) = $0 { s.preview } else { nil } }.first)
        #expect(result.succeeded)
        #expect(result.entryOnly)
        #expect(result.riskDenial?.rule == .maxPositionValue)
        #expect(result.order == "BUY 10 AAPL LMT 100 DAY")
    }
}
