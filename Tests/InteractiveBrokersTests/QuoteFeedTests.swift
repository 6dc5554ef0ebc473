import Foundation
import GatewayCore
import GatewaySimulator
import Logging
import SimulatedVenue
import Synchronization
import Testing
import TradingEngine
import TradingModel
import TWSClient
import TWSProtocol

@testable import InteractiveBrokers
@testable import LiveSession

/// The in-process venue (virtual time, manual replay clock), one hour into the data, with or without live data
/// permission.
func withQuoteVenue<Result: Sendable>(
    liveData: Bool = true, liveQuotes: Bool = true, _ body: @Sendable (VirtualVenue) async throws -> Result
) async throws -> Result {
    var gateway = GatewayConfiguration(liveDataEntitled: liveData)
    gateway.liveQuotesEntitled = liveQuotes
    let configuration = GatewaySimulatorConfiguration(
        host: "127.0.0.1", port: 0, data: simulatorData, gateway: gateway,
        start: simulatorData.defaultStart + .seconds(3600), clock: .manual)
    return try await VirtualVenue.run(simulator: configuration, body)
}

func quietQuoteLogger() -> Logger {
    var logger = Logger(label: "test.quotes")
    logger.logLevel = .critical
    return logger
}

/// Collects quote feed events until `enough` says so.
private func collect(
    _ events: AsyncStream<IBQuoteEvent>, until enough: ([IBQuoteEvent]) -> Bool
) async -> [IBQuoteEvent] {
    var seen: [IBQuoteEvent] = []
    for await event in events {
        seen.append(event)
        if enough(seen) { break }
    }
    return seen
}

private func quoteCount(_ events: [IBQuoteEvent]) -> Int {
    events.filter { if case .quote = $0 { true } else { false } }.count
}

@Suite("Quote feed against the gateway simulator", .timeLimit(.minutes(1)))
struct QuoteFeedTests {
    @Test("one reqMktData line per instrument; quotes follow the simulator's bid/ask; cancelMktData on stop")
    func quotesFlowAndStopCancels() async throws {
        try await withQuoteVenue { venue in
            try await TWSConnection.connect(venue.clientConnection(41), environment: venue.environment()) {
                connection, _ in
                let stamp = Timestamp(seconds: 42)
                let feed = IBQuoteFeed(
                    connection: connection, contracts: simulatorBook, instruments: [syn0, syn1],
                    clock: { stamp })
                let (events, delivered) = AsyncStream.makeStream(of: IBQuoteEvent.self)
                let seen = try await withThrowingTaskGroup(of: [IBQuoteEvent]?.self) { group in
                    group.addTask {
                        // Ends when cancelled below (as the runner stops it).
                        _ = try? await feed.run { delivered.yield($0) }
                        return nil
                    }
                    #expect(await venue.wait(upTo: .seconds(10)) { await venue.state().activeSubscriptions.marketData >= 2 })
                    // Replay until six quotes came (the first two are the lines' opening quotes).
                    let done = Mutex(false)
                    group.addTask {
                        defer { done.withLock { $0 = true } }
                        return await collect(events) { quoteCount($0) >= 6 }
                    }
                    var steps = 0
                    while !done.withLock({ $0 }), steps < 1_000 {
                        await venue.advance(by: .seconds(5))
                        steps += 1
                        try await venue.sleep(for: .milliseconds(1))
                    }
                    var seen: [IBQuoteEvent] = []
                    while let next = try await group.next() {
                        if let next {
                            seen = next
                            group.cancelAll()  // the feed: stop, cancelling its lines
                        }
                    }
                    return seen
                }
                #expect(quoteCount(seen) >= 6)
                let quotes = seen.compactMap { if case .quote(let id, let q) = $0 { (id, q) } else { nil } }
                #expect(Set(quotes.map(\.0)) == [syn0, syn1])
                #expect(quotes.allSatisfy { $0.1.bid < $0.1.ask && $0.1.timestamp == stamp && $0.1.bidSize > .zero })
                // Consecutive quotes of an instrument differ in bid or ask (coalescing).
                for id in [syn0, syn1] {
                    let mine = quotes.filter { $0.0 == id }.map(\.1)
                    for k in mine.indices.dropFirst() {
                        #expect(mine[k].bid != mine[k - 1].bid || mine[k].ask != mine[k - 1].ask)
                    }
                }
                // The lines were cancelled, the connection is still up.
                #expect(await venue.wait(upTo: .seconds(2)) { await venue.state().activeSubscriptions.marketData == 0 })
                #expect(await connection.session != nil)
            }
        }
    }

    @Test("a line refused with 354 ends the feed with the refusal (falling back is the session core's decision)")
    func noFallbackRethrows() async throws {
        try await withQuoteVenue(liveData: false) { venue in
            try await TWSConnection.connect(venue.clientConnection(43), environment: venue.environment()) {
                connection, _ in
                let feed = IBQuoteFeed(
                    connection: connection, contracts: simulatorBook, instruments: [syn0],
                    clock: { .zero })
                let (events, delivered) = AsyncStream.makeStream(of: IBQuoteEvent.self)
                var thrown: (any Error)?
                do { try await feed.run { delivered.yield($0) } } catch { thrown = error }
                delivered.finish()
                let refusal = try #require(thrown.flatMap(MarketDataRefusal.of))
                #expect(refusal == .notSubscribed(code: 354, delayedAvailable: true))
                #expect(quoteCount(await collect(events) { _ in false }) == 0)
            }
        }
    }
}
