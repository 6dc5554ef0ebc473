import TWSProtocol

/// What an execution request (reqExecutions) brought within its wait: the executions, and whether TWS ended the list.
public struct TWSExecutionList: Sendable {
    /// The executions received, in the order TWS sent them, with the commission reports received so far.
    public var reports: [TWSExecutionReport]
    /// `true` when execDetailsEnd came; `false` when the wait ended first (the list may lack executions).
    public var isComplete: Bool

    /// Creates a list.
    public init(reports: [TWSExecutionReport], isComplete: Bool) {
        self.reports = reports
        self.isComplete = isComplete
    }
}

extension TWSConnection {
    /// This session's executions that match `filter` (reqExecutions), waiting at most `wait` for execDetailsEnd: TWS may
    /// never end the list of a request whose filter is all blank (reported by ib_async users; the recorded sessions only
    /// show requests naming an account or a symbol). What arrived by then comes back, marked incomplete, and the
    /// request's route is closed (a late execDetails of it is dropped; live executions still arrive on `orderEvents()`).
    /// - Parameters:
    ///   - filter: client id, account, time, symbol, … (empty matches everything of today).
    ///   - wait: how long to wait for execDetailsEnd.
    /// - Returns: the executions, and whether the list is complete.
    /// - Throws: `TWSRequestError` when TWS refuses the request, the connection closes, or the caller is cancelled.
    public func executions(filter: TWSExecutionFilter, within wait: Duration) async throws(TWSRequestError)
        -> TWSExecutionList
    {
        let requestID = nextRequestID()
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: SubscriptionItem<String>.self)
        let subscription = try await subscribe(
            .request(requestID), request: .executions(requestID: requestID, filter: filter), cancel: nil,
            options: SubscriptionOptions(finishesOnEnd: true), into: .yielding(into: continuation)
        ) { response in
            if case .executionDetails(_, _, let execution) = response { return execution.executionID }
            return nil
        }
        continuation.onTermination = { termination in
            if case .cancelled = termination { subscription.cancel() }
        }
        let clock = clock
        let deadline = clock.now() + wait
        var identifiers: [String] = []
        var outcome: Result<Bool, TWSRequestError> = .success(true)
        await withTaskGroup(of: Void.self) { group in
            // The wait's end closes the route: the stream then ends with `cancelled`.
            group.addTask {
                guard (try? await clock.sleepUntil(deadline)) != nil else { return }
                subscription.cancel()
            }
            do {
                for try await item in stream {
                    if case .data(let executionID) = item { identifiers.append(executionID) }
                }
                outcome = Task.isCancelled ? .failure(.cancelled) : .success(true)
            } catch let error as TWSRequestError {
                let timedOut = error == .cancelled && !Task.isCancelled && clock.now() >= deadline
                outcome = timedOut ? .success(false) : .failure(error)
            } catch {
                outcome = .failure(.cancelled)
            }
            group.cancelAll()
        }
        let complete: Bool
        switch outcome {
        case .success(let ended): complete = ended
        case .failure(let error): throw error
        }
        return TWSExecutionList(
            reports: identifiers.compactMap { executionJoiner.report(executionID: $0) }, isComplete: complete)
    }
}
