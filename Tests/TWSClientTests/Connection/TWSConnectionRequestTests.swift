import NIOCore
import TWSProtocol
import Testing

@testable import TWSClient

@Suite struct TWSConnectionRequestTests {
    private let aapl: TWSContract = {
        var contract = TWSContract()
        contract.symbol = "AAPL"
        contract.securityType = "STK"
        contract.exchange = "SMART"
        contract.currency = "USD"
        return contract
    }()

    @Test func currentTimeSkipsMalformedAndUnknownFrames() async throws {
        try await InMemoryHarness().withReadyConnection { connection, peer in
            async let time = connection.currentTime()
            #expect(await peer.frame(1) == ["49", "1"])
            peer.sendRaw(TWSFrame.framed(TWSFrame.payload(fields: ["not-a-number", "x"])))
            peer.send(["999", "1", "unknown"])
            peer.send(ServerFrames.fields("errMsg_2104_farm_ok"))
            peer.send(ServerFrames.fields("currentTime"))
            let value = try await time
            #expect(value == 1_736_951_400)
        }
    }

    @Test(arguments: [178, 200])
    func contractDetailsCollectsUntilEnd(version: Int) async throws {
        try await InMemoryHarness().withReadyConnection(version: version) { connection, peer in
            async let details = connection.contractDetails(aapl)
            guard case .contractDetails(let requestID, let contract) = await peer.request(1) else {
                Issue.record("expected reqContractDetails")
                return
            }
            #expect(contract.symbol == "AAPL")
            peer.send(ServerFrames.fields("contractDetails_stk", version: version, id: requestID))
            peer.send(ServerFrames.fields("contractDetailsEnd", version: version, id: requestID))
            let result = try await details
            #expect(result.map(\.contract.symbol) == ["AAPL"])
        }
    }

    @Test func noSecurityDefinitionIsATypedError() async throws {
        try await InMemoryHarness().withReadyConnection { connection, peer in
            async let details = connection.contractDetails(aapl)
            guard case .contractDetails(let requestID, _) = await peer.request(1) else { return }
            peer.send(ServerFrames.fields("errMsg_200_no_secdef", id: requestID))
            do {
                _ = try await details
                Issue.record("expected an error")
            } catch let error as TWSRequestError {
                #expect(error.code == 200)
                guard case .rejected(let notice) = error else { return }
                #expect(notice.requestID == requestID)
            }
        }
    }

    @Test func noticesRideOnTheStreamAndTerminalErrorsEndIt() async throws {
        try await InMemoryHarness().withReadyConnection { connection, peer in
            let stream = try await connection.marketData(contract: aapl)
            guard case .marketData(let request) = await peer.request(1) else { return }
            let id = request.requestID
            peer.send(ServerFrames.fields("marketDataType_delayed", id: id))
            peer.send(ServerFrames.fields("errMsg_10167_delayed_displayed", id: id))
            peer.send(ServerFrames.fields("tickPrice_delayed_last", id: id))
            peer.send(ServerFrames.fields("errMsg_354_not_subscribed", id: id))
            var items: [SubscriptionItem<TWSMarketDataEvent>] = []
            do {
                for try await item in stream { items.append(item) }
                Issue.record("the stream should end with an error")
            } catch let error as TWSRequestError {
                #expect(error.code == 354)
            }
            #expect(items.count == 3)
            #expect(items.first == .data(.marketDataType(3)))
            guard items.count == 3, case .notice(let notice) = items[1], case .data(.price(let tick)) = items[2] else {
                Issue.record("unexpected items \(items)")
                return
            }
            #expect(notice.code == 10167)
            #expect(tick.price == 150.2)
        }
    }

    /// Issue 44: `connection.errorCodes` reaches the connection: a code reclassified as a notice rides on the stream
    /// and the stream goes on; the table's other terminal codes still end it.
    @Test func aCodeReclassifiedAsANoticeDoesNotEndItsRequest() async throws {
        var configuration = TWSConnectionConfiguration(clientID: 7)
        configuration.errorOverrides = [354: .notice]
        try await InMemoryHarness(configuration: configuration).withReadyConnection { connection, peer in
            let stream = try await connection.marketData(contract: aapl)
            guard case .marketData(let request) = await peer.request(1) else { return }
            let id = request.requestID
            peer.send(ServerFrames.fields("errMsg_354_not_subscribed", id: id))
            peer.send(ServerFrames.fields("tickPrice_delayed_last", id: id))
            peer.send(ServerFrames.fields("errMsg_200_no_secdef", id: id))
            var items: [SubscriptionItem<TWSMarketDataEvent>] = []
            do {
                for try await item in stream { items.append(item) }
                Issue.record("the stream should end with 200")
            } catch let error as TWSRequestError {
                #expect(error.code == 200)
            }
            guard items.count == 2, case .notice(let notice) = items[0], case .data(.price) = items[1] else {
                Issue.record("unexpected items \(items)")
                return
            }
            #expect(notice.code == 354)
        }
    }

    @Test func undecodableMessageInAStreamIsSkipped() async throws {
        try await InMemoryHarness().withReadyConnection { connection, peer in
            var prices: [Double] = []
            do {
                let stream = try await connection.marketData(contract: aapl)
                guard case .marketData(let request) = await peer.request(1) else { return }
                var broken = ServerFrames.fields("tickPrice_bid", id: request.requestID)
                broken[4] = "not-a-price"
                peer.send(broken)
                peer.send(ServerFrames.fields("tickPrice_ask", id: request.requestID))
                for try await item in stream {
                    if case .data(.price(let tick)) = item { prices.append(tick.price) }
                    break
                }
            }
            #expect(prices == [150.26])
        }
    }

    @Test func stoppingASubscriptionSendsItsCancel() async throws {
        try await InMemoryHarness().withReadyConnection { connection, peer in
            var requestID = -1
            do {
                // The consumer drops the stream after one bar, as `for … in try await realTimeBars(…) { break }` does.
                let stream = try await connection.realTimeBars(contract: aapl)
                guard case .realTimeBars(let request) = await peer.request(1) else { return }
                requestID = request.requestID
                peer.send(ServerFrames.fields("realTimeBars", id: requestID))
                for try await item in stream {
                    #expect(item.value?.close == 150.28)
                    break
                }
            }
            #expect(await peer.request(2) == .cancelRealTimeBars(requestID: requestID))
        }
    }

    @Test func snapshotCollectsUntilSnapshotEndWithoutCancel() async throws {
        try await InMemoryHarness().withReadyConnection { connection, peer in
            async let snapshot = connection.marketDataSnapshot(contract: aapl)
            guard case .marketData(let request) = await peer.request(1) else { return }
            #expect(request.snapshot)
            let id = request.requestID
            peer.send(ServerFrames.fields("tickPrice_bid", id: id))
            peer.send(ServerFrames.fields("tickPrice_ask", id: id))
            peer.send(ServerFrames.fields("tickSnapshotEnd", id: id))
            let result = try await snapshot
            #expect(result.prices[.bid] == 150.24)
            #expect(result.prices[.ask] == 150.26)
            #expect(result.sizes[.bidSize] == 300)
            // The next request is the only other frame: no cancelMktData was sent.
            async let time = connection.currentTime()
            #expect(await peer.request(2) == .currentTime)
            peer.send(ServerFrames.fields("currentTime"))
            _ = try await time
        }
    }

    @Test(arguments: [178, 200])
    func historicalBarsAtBothVersions(version: Int) async throws {
        try await InMemoryHarness().withReadyConnection(version: version) { connection, peer in
            var query = TWSHistoricalBarsQuery(contract: aapl, duration: "2 D", barSize: "1 hour")
            query.endDateTime = "20250115 16:00:00 US/Eastern"
            async let bars = connection.historicalBars(query)
            guard case .historicalData(let request) = await peer.request(1) else { return }
            #expect(request.durationString == "2 D")
            peer.send(ServerFrames.fields("historicalData_hourly", version: version, id: request.requestID))
            if version >= 196 {
                peer.send(ServerFrames.fields("historicalDataEnd_hourly", version: version, id: request.requestID))
            }
            let result = try await bars
            #expect(result.count == 3)
            #expect(result.first?.close == 150.8)
        }
    }

    @Test func disconnectDetectionFailsPendingRequests() async throws {
        let harness = InMemoryHarness()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await harness.clock.autoAdvance() }
            async let outcome = harness.runOutcome()
            await harness.peer.playHandshake()
            _ = try await harness.connection.waitUntilReady()
            let states = await harness.connection.stateChanges()
            async let time = harness.connection.currentTime()
            _ = await harness.peer.frame(1)
            harness.peer.close()
            do {
                _ = try await time
                Issue.record("the pending request should fail")
            } catch {
                #expect(error is TWSRequestError)
            }
            let error = await outcome
            #expect(error == .closedByPeer(during: "the session"))
            var seen: [TWSConnectionState] = []
            for await state in states { seen.append(state) }
            #expect(
                seen.last == .disconnected(reason: TWSConnectionError.closedByPeer(during: "the session").description))
            await #expect(throws: TWSRequestError.notConnected) { try await harness.connection.currentTime() }
            group.cancelAll()
        }
    }

    @Test func connectionNoticesAreAStreamAndFarmNoticesKeepTheFarmsStates() async throws {
        try await InMemoryHarness().withReadyConnection { connection, peer in
            let notices = await connection.notices()
            peer.send(ServerFrames.fields("errMsg_2104_farm_ok"))
            peer.send(ServerFrames.fields("errMsg_2158_secdef_ok"))
            var codes: [Int] = []
            for await notice in notices {
                codes.append(notice.code)
                if codes.count == 2 { break }
            }
            #expect(codes == [2104, 2158])
            #expect(await connection.farms.states == [
                TWSFarm(kind: .marketData, name: "usfarm"): .ok,
                TWSFarm(kind: .securityDefinition, name: "secdefnj"): .ok,
            ])
        }
    }

    @Test func connectivityCodesChangeTheState() async throws {
        try await InMemoryHarness().withReadyConnection { connection, peer in
            let states = await connection.stateChanges()
            peer.send(ServerFrames.fields("errMsg_1100_connectivity_lost"))
            peer.send(ServerFrames.fields("errMsg_1102_restored_data_maintained"))
            var iterator = states.makeAsyncIterator()
            guard case .connected = await iterator.next() else {
                Issue.record("first state should be connected")
                return
            }
            #expect(await iterator.next() == .lost)
            #expect(await iterator.next() == .restored(dataLost: false))
        }
    }
}

@Suite struct TWSConnectionCancellationTests {
    @Test func unansweredRequestTimesOutNamingIt() async throws {
        var configuration = TWSConnectionConfiguration(clientID: 7)
        configuration.requestTimeout = .seconds(5)
        let harness = InMemoryHarness(configuration: configuration)
        try await harness.withReadyConnection { connection, peer in
            async let time = connection.currentTime()
            _ = await peer.frame(1)
            await harness.clock.waitForSleeper { $0 >= .seconds(5) && $0 < .seconds(30) }
            harness.clock.advance(by: .seconds(5))
            do {
                _ = try await time
                Issue.record("should time out")
            } catch let error as TWSRequestError {
                guard case .timedOut(let waitingFor) = error else {
                    Issue.record("expected timedOut, got \(error)")
                    return
                }
                #expect(waitingFor.contains("reqCurrentTime"))
            }
        }
    }

    /// A what-if waits as long as any other request (`ibtrader order --what-if --timeout 5`), not a fixed 10 s.
    @Test func unansweredWhatIfTimesOutAtTheRequestTimeout() async throws {
        var configuration = TWSConnectionConfiguration(clientID: 7)
        configuration.requestTimeout = .seconds(5)
        let harness = InMemoryHarness(configuration: configuration)
        try await harness.withReadyConnection { connection, peer in
            var contract = TWSContract()
            contract.symbol = "AAPL"
            var order = TWSOrder()
            order.action = "BUY"
            order.totalQuantity = 10
            order.orderType = "MKT"
            async let preview = connection.whatIf(order, contract: contract)
            _ = await peer.frame(1)
            // The preview's wait: 5 s (the request timeout), where it was a fixed 10 s. Another timer of the
            // connection (30 s) may register first on a loaded machine, so only waits of 5–10 s are looked at.
            let previewWait = { (offset: Duration) in offset >= .seconds(5) && offset <= .seconds(10) }
            await harness.clock.waitForSleeper(where: previewWait)
            let wait = harness.clock.sleeperDeadlines.map(\.offset).filter(previewWait).min() ?? .zero
            #expect(wait == .seconds(5))
            harness.clock.advance(by: wait)
            do {
                _ = try await preview
                Issue.record("should time out")
            } catch let error as TWSRequestError {
                guard case .timedOut(let waitingFor) = error else {
                    Issue.record("expected timedOut, got \(error)")
                    return
                }
                #expect(waitingFor.contains("what-if"))
            }
        }
    }

    @Test func cancellingTheCallerSendsTheCancelMessage() async throws {
        try await InMemoryHarness().withReadyConnection { connection, peer in
            var contract = TWSContract()
            contract.symbol = "AAPL"
            let query = TWSHistoricalBarsQuery(contract: contract, duration: "1 D", barSize: "1 min")
            let task = Task { try await connection.historicalBars(query) }
            guard case .historicalData(let request) = await peer.request(1) else { return }
            task.cancel()
            #expect(await peer.request(2) == .cancelHistoricalData(requestID: request.requestID))
            await #expect(throws: TWSRequestError.cancelled) { try await task.value }
        }
    }

    @Test func completedOrdersAreCollectedRaw() async throws {
        try await InMemoryHarness().withReadyConnection { connection, peer in
            async let orders = connection.completedOrders()
            #expect(await peer.request(1) == .completedOrders(apiOnly: false))
            peer.send(["101", "265598", "AAPL"])
            peer.send(ServerFrames.fields("completedOrdersEnd"))
            let received = try await orders
            #expect(received.map(\.messageID) == [101])
        }
    }
}

@Suite struct TWSConnectionMoreRequestTests {
    @Test func keepUpToDateStreamsBarsThenUpdatesAndCancels() async throws {
        try await InMemoryHarness().withReadyConnection { connection, peer in
            var contract = TWSContract()
            contract.symbol = "AAPL"
            var query = TWSHistoricalBarsQuery(contract: contract, duration: "3600 S", barSize: "5 secs")
            query.endDateTime = "20250115 16:00:00 US/Eastern"  // ignored: keep-up-to-date needs it empty
            var events: [TWSHistoricalBarsEvent] = []
            var requestID = -1
            do {
                let stream = try await connection.historicalBarsKeepingUpToDate(query)
                guard case .historicalData(let request) = await peer.request(1) else { return }
                #expect(request.keepUpToDate)
                #expect(request.endDateTime == "")
                requestID = request.requestID
                peer.send(ServerFrames.fields("historicalData_keepUpToDate_epoch", id: requestID))
                peer.send(ServerFrames.fields("historicalDataEnd_keepUpToDate", id: requestID))
                peer.send(ServerFrames.fields("historicalDataUpdate", id: requestID))
                for try await item in stream {
                    if let event = item.value { events.append(event) }
                    if events.count == 2 { break }
                }
            }
            guard events.count == 2, case .bars(let bars) = events[0], case .update(let bar) = events[1] else {
                Issue.record("unexpected events \(events)")
                return
            }
            #expect(bars.count == 2)
            #expect(bar.close == 150.33)
            #expect(await peer.request(2) == .cancelHistoricalData(requestID: requestID))
        }
    }

    @Test(arguments: [178, 200])
    func currentTimeInMillisIsGatedByVersion(version: Int) async throws {
        try await InMemoryHarness().withReadyConnection(version: version) { connection, peer in
            if version < 197 {
                await #expect(throws: TWSRequestError.self) { try await connection.currentTimeInMillis() }
                return
            }
            async let millis = connection.currentTimeInMillis()
            #expect(await peer.request(1) == .currentTimeInMillis)
            peer.send(ServerFrames.fields("currentTimeInMillis"))
            let value = try await millis
            #expect(value == 1_736_951_400_123)
        }
    }

    @Test func modifyAndGlobalCancelAreSent() async throws {
        try await InMemoryHarness().withReadyConnection(nextValidID: 5) { connection, peer in
            var order = TWSOrder(action: "SELL", totalQuantity: 10, orderType: "LMT")
            order.limitPrice = 101
            let contract = TWSContract()
            let id = try await connection.placeOrder(order, contract: contract)
            order.limitPrice = 102
            try await connection.modifyOrder(id: id, order: order, contract: contract)
            try await connection.globalCancel()
            guard case .placeOrder(let firstID, _, let first) = await peer.request(1),
                case .placeOrder(let secondID, _, let second) = await peer.request(2)
            else {
                Issue.record("expected two placeOrder frames")
                return
            }
            #expect(firstID == 5 && secondID == 5)
            #expect(first.limitPrice == 101 && second.limitPrice == 102)
            #expect(await peer.request(3) == .globalCancel(TWSOrderCancel()))
        }
    }
}
