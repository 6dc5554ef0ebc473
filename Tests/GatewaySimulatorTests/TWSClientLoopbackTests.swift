import Foundation
import GatewayCore
import GatewaySimulator
import TWSClient
import TWSProtocol
import Testing
import TradingModel

/// Our own TWSClient against the simulator over loopback: the ib_async scenario as far as the client API goes.
@Suite(.timeLimit(.minutes(1))) struct TWSClientLoopbackTests {
    static func configuration(_ port: Int, clientID: Int = 11) -> TWSConnectionConfiguration {
        var configuration = TWSConnectionConfiguration(host: "127.0.0.1", port: port, clientID: clientID)
        configuration.readyTimeout = .seconds(10)
        configuration.requestTimeout = .seconds(10)
        return configuration
    }

    /// Waits on an order-event stream until `done` says so; returns what arrived.
    static func events(
        _ stream: AsyncThrowingStream<TWSOrderEvent, any Error>, until done: (TWSOrderEvent) -> Bool
    ) async throws -> [TWSOrderEvent] {
        var seen: [TWSOrderEvent] = []
        for try await event in stream {
            seen.append(event)
            if done(event) { break }
        }
        return seen
    }

    static func order(_ action: String, _ type: String, _ quantity: Decimal) -> TWSOrder {
        var o = TWSOrder()
        o.timeInForce = "DAY"  // from server version 225 every order needs one (10052)
        o.action = action
        o.orderType = type
        o.totalQuantity = quantity
        return o
    }

    static func isStatus(_ event: TWSOrderEvent, _ orderID: Int, _ status: String) -> Bool {
        if case .status(let s) = event { return s.orderID == orderID && s.status == status }
        return false
    }

    @Test func sessionWithReferenceDataHistoryQuotesOrdersAndAccount() async throws {
        try await withSimulator { simulator, port in
            let expected = try await TWSConnection.connect(Self.configuration(port)) { connection, session in
                #expect(session.accounts == ["DU1234567"])
                #expect(session.serverVersion == 226, "binary ids and protobuf both ways")
                let details = try await connection.contractDetails(stock("SYN002"))
                #expect(details.count == 1 && details[0].contract.contractID == 100_002)
                await #expect(throws: TWSRequestError.self) { try await connection.contractDetails(stock("NOPE")) }

                let bars = try await connection.historicalBars(
                    TWSHistoricalBarsQuery(contract: stock("SYN000"), duration: "1 M", barSize: "1 day"))
                #expect(bars.count >= 15)

                let quotes = try await connection.marketData(contract: stock("SYN000"))
                var snapshot = TWSMarketSnapshot()
                for try await item in quotes {
                    if case .data(let event) = item { snapshot.apply(event) }
                    if snapshot.prices[.bid] != nil, snapshot.prices[.ask] != nil, snapshot.prices[.last] != nil { break }
                }
                let ask = try #require(snapshot.prices[.ask])
                let bid = try #require(snapshot.prices[.bid])
                #expect(bid < ask)

                let orders = await connection.orderEvents()
                var market = TWSOrder()
                market.timeInForce = "DAY"
                market.action = "BUY"
                market.orderType = "MKT"
                market.totalQuantity = 100
                let marketID = try await connection.placeOrder(market, contract: stock("SYN000"))
                let fill = try await Self.events(orders) { if case .commission = $0 { return true } else { return false } }
                #expect(fill.contains { Self.isStatus($0, marketID, "Filled") })
                guard case .commission(let report) = fill.last else { return 0 }
                #expect(report.execution.price == ask)
                #expect(report.commission?.commission == 1.0)

                var limit = TWSOrder()
                limit.timeInForce = "DAY"
                limit.action = "BUY"
                limit.orderType = "LMT"
                limit.totalQuantity = 40
                limit.limitPrice = ((bid * 0.8) * 100).rounded() / 100
                let limitID = try await connection.placeOrder(limit, contract: stock("SYN000"))
                _ = try await Self.events(orders) { Self.isStatus($0, limitID, "Submitted") }
                limit.limitPrice = ((ask * 1.01) * 100).rounded() / 100
                try await connection.modifyOrder(id: limitID, order: limit, contract: stock("SYN000"))
                _ = try await Self.events(orders) { Self.isStatus($0, limitID, "Filled") }

                var stop = TWSOrder()
                stop.timeInForce = "DAY"
                stop.action = "SELL"
                stop.orderType = "STP"
                stop.totalQuantity = 10
                stop.auxPrice = ((bid * 0.5) * 100).rounded() / 100
                let stopID = try await connection.placeOrder(stop, contract: stock("SYN000"))
                _ = try await Self.events(orders) { Self.isStatus($0, stopID, "PreSubmitted") }
                #expect(try await connection.openOrders().map(\.order.orderID) == [stopID])
                try await connection.cancelOrder(stopID)
                _ = try await Self.events(orders) { Self.isStatus($0, stopID, "Cancelled") }

                let positions = try await connection.positions()
                #expect(positions.count == 1 && positions[0].quantity == 140)
                let summary = try await connection.accountSummary(tags: "TotalCashValue,NetLiquidation,RealizedPnL")
                let cash = try #require(summary.first { $0.tag == "TotalCashValue" }.flatMap { Double($0.value) })
                let executions = try await connection.executions()
                #expect(executions.count == 2)
                let spent = executions.reduce(0.0) { total, e in
                    total + e.execution.price * NSDecimalNumber(decimal: e.execution.shares ?? 0).doubleValue
                        + (e.commission?.commission ?? 0)
                }
                #expect(abs(cash - (1_000_000 - spent)) < 0.01)
                return 140
            }
            // Reconnect with the same clientId: the account and the order id sequence are intact.
            await simulator.advance(by: .minutes(1))
            try await TWSConnection.connect(Self.configuration(port)) { connection, session in
                #expect(session.nextValidOrderID > 3)
                let positions = try await connection.positions()
                #expect(positions.first?.quantity.map { NSDecimalNumber(decimal: $0).intValue } == expected)
            }
        }
    }

    @Test func realTimeBarsAndKeepUpToDateFollowTheManualClock() async throws {
        try await withSimulator { simulator, port in
            try await TWSConnection.connect(Self.configuration(port, clientID: 12)) { connection, _ in
                let bars = try await connection.realTimeBars(contract: stock("SYN001"))
                // TWSClient paces real-time bar requests on their own lane: wait until the server has the
                // subscription before moving the clock.
                while await simulator.state().activeSubscriptions.realTimeBars == 0 { await Task.yield() }
                await simulator.advance(by: .seconds(15))
                var received: [TWSRealTimeBar] = []
                for try await item in bars {
                    if let bar = item.value { received.append(bar) }
                    if received.count == 3 { break }
                }
                #expect(received.map(\.time) == [received[0].time, received[0].time + 5, received[0].time + 10])
                #expect(received.allSatisfy { $0.low <= $0.high })
            }
        }
    }

    @Test func bracketTrailingStopRejectionAndGlobalCancel() async throws {
        try await withSimulator { simulator, port in
            try await TWSConnection.connect(Self.configuration(port, clientID: 13)) { connection, _ in
                try await Self.bracketScenario(connection, simulator)
            }
        }
    }

    static func bracketScenario(_ connection: TWSConnection, _ simulator: GatewaySimulator) async throws {
        let orders = await connection.orderEvents()
        let contract = stock("SYN001")
        let now = await simulator.now()
        guard let quote = QuoteModel.quote(testData.instruments[1], at: now) else { return }
        // Bracket: parent held until the last child is transmitted.
        let parentID = try await connection.nextOrderID()
        var parent = Self.order("BUY", "LMT", 100)
        parent.limitPrice = quote.ask.doubleValue
        parent.transmit = false
        try await connection.modifyOrder(id: parentID, order: parent, contract: contract)
        let profitID = try await connection.nextOrderID()
        var profit = Self.order("SELL", "LMT", 100)
        profit.limitPrice = (quote.ask.doubleValue * 2).rounded()
        profit.parentID = parentID
        profit.transmit = false
        try await connection.modifyOrder(id: profitID, order: profit, contract: contract)
        let lossID = try await connection.nextOrderID()
        var loss = Self.order("SELL", "TRAIL", 100)
        loss.auxPrice = 0.05
        loss.parentID = parentID
        try await connection.modifyOrder(id: lossID, order: loss, contract: contract)
        let bracket = try await Self.events(orders) { Self.isStatus($0, parentID, "Filled") }
        #expect(bracket.contains { Self.isStatus($0, profitID, "PreSubmitted") })
        #expect(bracket.contains { Self.isStatus($0, lossID, "PreSubmitted") })
        // Over the day the trailing stop fires and its OCA sibling is cancelled.
        await simulator.advance(by: .hours(7))
        let closing = try await Self.events(orders) { Self.isStatus($0, profitID, "Cancelled") }
        #expect(closing.contains { Self.isStatus($0, lossID, "Filled") })

        var bad = Self.order("BUY", "LMT", 10)
        bad.limitPrice = 1.005
        let badID = try await connection.placeOrder(bad, contract: contract)
        let rejection = try await Self.events(orders) { event in
            if case .notice(let n) = event { return n.requestID == badID } else { return false }
        }
        #expect(rejection.contains { event in  // off the tick: IB's 110
            if case .notice(let n) = event { return n.code == 110 } else { return false }
        })

        var resting = Self.order("BUY", "STP LMT", 10)
        resting.auxPrice = (quote.ask.doubleValue * 3).rounded()
        resting.limitPrice = (quote.ask.doubleValue * 3).rounded()
        resting.timeInForce = "GTC"
        let restingID = try await connection.placeOrder(resting, contract: contract)
        _ = try await Self.events(orders) { Self.isStatus($0, restingID, "PreSubmitted") }
        try await connection.globalCancel()
        _ = try await Self.events(orders) { Self.isStatus($0, restingID, "Cancelled") }
        let open = try await connection.openOrders()
        #expect(open.isEmpty)
        let positions = try await connection.positions()
        #expect(positions.first?.quantity == 0)
    }
}
