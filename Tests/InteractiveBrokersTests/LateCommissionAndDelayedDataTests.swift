import Foundation
import GatewayCore
import GatewaySimulator
import Logging
import TWSClient
import TWSProtocol
import Testing
import TradingEngine
import TradingModel

@testable import InteractiveBrokers

/// Buys 300 of the first instrument on the first bar.
private struct BuyOnceOnFirstBar: Strategy {
    var done = false
    mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
        guard case .bar = event, !done else { return [] }
        done = true
        return [.submit(.market(syn0, .buy, Quantity(300)))]
    }
}

@Suite(.timeLimit(.minutes(1))) struct LateCommissionAndDelayedDataTests {
    @Test("a commission arriving after its fill is booked by the engine: its cash equals the broker's")
    func lateCommissionRebooksEngineCash() async throws {
        try await withBroker(commissionWait: nil) { h in
            let start = await h.simulator.state().account.cash
            var engine = EngineCore(
                universe: Universe(symbols: ["SYN000", "SYN001"]), strategy: BuyOnceOnFirstBar(),
                config: EngineConfig(initialCash: Money(approximately: start)))
            let bar = Bar(
                timestamp: fixedTime, open: Price(10), high: Price(10), low: Price(10), close: Price(10),
                volume: Quantity(1))
            for command in engine.handle(.bar(syn0, bar)) { try await h.broker.execute(command) }
            var events = h.events.makeAsyncIterator()
            var cashBeforeLate: Money?
            while let event = await events.next() {
                if case .report(let report) = event { _ = engine.handle(.execution(report)) }
                if case .lateCommission(let late) = event {
                    cashBeforeLate = engine.portfolio.cash
                    let booked = engine.bookLateCommission(late.commission, for: late.orderID)
                    #expect(booked)
                    break
                }
            }
            let account = await h.simulator.state().account
            #expect(account.commissions > 0)
            #expect(engine.portfolio.position(for: syn0).quantity == Quantity(300))
            // Without the late booking the engine had more cash than the broker, by the commission.
            let before = try #require(cashBeforeLate)
            #expect(abs(before.doubleValue - account.cash - account.commissions) < 1e-6)
            #expect(abs(engine.portfolio.cash.doubleValue - account.cash) < 1e-6)
            #expect(abs(engine.portfolio.commissions.doubleValue - account.commissions) < 1e-6)
        }
    }

    @Test("a snapshot refused for lack of live permission (354) falls back to delayed data; without fallback it fails")
    func delayedFallbackForTicks() async throws {
        var logger = Logger(label: "test.gateway")
        logger.logLevel = .warning
        let simulator = GatewaySimulator(
            configuration: GatewaySimulatorConfiguration(
                host: "127.0.0.1", port: 0, data: simulatorData,
                gateway: GatewayConfiguration(liveDataEntitled: false), clock: .manual, faults: nil),
            logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await simulator.run() }
            let port = await simulator.listeningPort()
            let contract = try simulatorBook.contract(for: syn0)
            try await TWSConnection.connect(connectionConfiguration(port)) { connection, _ in
                await #expect(throws: TWSRequestError.self) {
                    _ = try await DelayedFallback.snapshot(connection, contract: contract, allowed: false, logger: logger)
                }
                let (snapshot, delayed) = try await DelayedFallback.snapshot(
                    connection, contract: contract, allowed: true, logger: logger)
                #expect(delayed)
                #expect(snapshot.marketDataType == 3)
                #expect(snapshot.prices.keys.contains { [66, 67, 68].contains($0.rawValue) })
            }
            group.cancelAll()
        }
    }
}
