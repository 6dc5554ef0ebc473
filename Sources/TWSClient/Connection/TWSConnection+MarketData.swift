import Foundation
import TWSProtocol

extension TWSConnection {
    /// Streams market data (reqMktData) until the consumer stops, which sends cancelMktData. With `snapshot`, the
    /// stream ends after tickSnapshotEnd.
    /// - Parameters:
    ///   - contract: the contract.
    ///   - genericTicks: generic tick ids, e.g. `["233", "236"]`.
    ///   - snapshot: one snapshot instead of a stream.
    /// - Returns: the stream of events and notices.
    /// - Throws: `TWSRequestError.notConnected`; TWS errors (354 not subscribed, 200, …) end the stream.
    public func marketData(
        contract: TWSContract, genericTicks: [String] = [], snapshot: Bool = false
    ) async throws(TWSRequestError) -> AsyncThrowingStream<SubscriptionItem<TWSMarketDataEvent>, any Error> {
        try await streamed { receiver throws(TWSRequestError) in
            try await marketData(contract: contract, genericTicks: genericTicks, snapshot: snapshot, into: receiver)
        }
    }

    /// Market data (reqMktData) handed to `receiver` as each tick is read (`TWSReceiver`), until `cancel()` on the
    /// result, which sends cancelMktData; otherwise as `marketData(contract:genericTicks:snapshot:)`.
    public func marketData(
        contract: TWSContract, genericTicks: [String] = [], snapshot: Bool = false,
        into receiver: TWSReceiver<SubscriptionItem<TWSMarketDataEvent>>
    ) async throws(TWSRequestError) -> TWSSubscription {
        let requestID = nextRequestID()
        let request = TWSMarketDataRequest(
            requestID: requestID, contract: contract, genericTickList: genericTicks.joined(separator: ","),
            snapshot: snapshot
        )
        return try await subscribe(
            .request(requestID), request: .marketData(request), cancel: .cancelMarketData(requestID: requestID),
            options: SubscriptionOptions(finishesOnEnd: snapshot), into: receiver
        ) { response in
            switch response {
            case .tickPrice(let tick): return .price(tick)
            case .tickSize(_, let type, let size): return .size(type, size)
            case .tickString(_, let type, let value): return .string(type, value)
            case .tickGeneric(_, let type, let value): return .generic(type, value)
            case .marketDataType(_, let type): return .marketDataType(type)
            case .tickRequestParameters(_, let minTick, let exchange, let permissions):
                return .parameters(minTick: minTick, bboExchange: exchange, snapshotPermissions: permissions)
            default: return nil
            }
        }
    }

    /// One market data snapshot (reqMktData with snapshot on), collected until tickSnapshotEnd, waiting at most the
    /// connection's `requestTimeout` for it: TWS ends a snapshot within about 11 seconds, but a caller must never hang
    /// on an end that does not come. What arrived by then is the snapshot; nothing at all is `timedOut`.
    /// - Parameter contract: the contract.
    /// - Returns: the snapshot.
    /// - Throws: `TWSRequestError` (354 not subscribed: call `setMarketDataType(.delayed)` first; `timedOut`).
    public func marketDataSnapshot(contract: TWSContract) async throws(TWSRequestError) -> TWSMarketSnapshot {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: SubscriptionItem<TWSMarketDataEvent>.self)
        let subscription = try await marketData(contract: contract, snapshot: true, into: .yielding(into: continuation))
        continuation.onTermination = { termination in
            if case .cancelled = termination { subscription.cancel() }
        }
        let clock = clock
        let deadline = configuration.requestTimeout.map { clock.now() + $0 }
        var snapshot = TWSMarketSnapshot()
        var failure: TWSRequestError?
        await withTaskGroup(of: Void.self) { group in
            if let deadline {
                // The wait's end closes the route: the stream then ends with `cancelled`.
                group.addTask {
                    guard (try? await clock.sleepUntil(deadline)) != nil else { return }
                    subscription.cancel()
                }
            }
            do {
                for try await item in stream {
                    switch item {
                    case .data(let event): snapshot.apply(event)
                    case .notice(let notice): snapshot.notices.append(notice)
                    }
                }
                if Task.isCancelled { failure = .cancelled }
            } catch let error as TWSRequestError {
                let timedOut = error == .cancelled && !Task.isCancelled && deadline.map { clock.now() >= $0 } == true
                if !timedOut {
                    failure = error
                } else if snapshot.prices.isEmpty {
                    failure = .timedOut(waitingFor: "tickSnapshotEnd of \(contract.symbol)")
                }
            } catch {
                failure = .cancelled
            }
            group.cancelAll()
        }
        if let failure { throw failure }
        return snapshot
    }
}
