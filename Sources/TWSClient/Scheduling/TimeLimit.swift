/// Runs `operation` and fails with `TWSRequestError.timedOut` once `limit` has passed on `clock`, however far the
/// operation got: it bounds a whole exchange (connect, qualify, a snapshot or a download until its end message),
/// not only its first answer.
///
/// At the deadline the operation is cancelled, and the call returns once it has ended; every `TWSConnection`
/// request ends on cancellation (and sends its cancel message, e.g. cancelMktData).
///
/// ```swift
/// let snapshot = try await withTimeLimit(.seconds(15), waitingFor: "the AAPL snapshot") {
///     try await TWSConnection.connect(configuration) { connection, _ in
///         try await connection.marketDataSnapshot(contract: aapl)
///     }
/// }
/// ```
/// - Parameters:
///   - limit: the longest the whole operation may take.
///   - clock: the clock the limit is measured on.
///   - what: what was awaited, for the error (`timed out waiting for …`).
///   - operation: the exchange.
/// - Returns: the operation's result.
/// - Throws: `TWSRequestError.timedOut(waitingFor: what)` at the deadline, else what the operation throws.
public func withTimeLimit<Value: Sendable>(
    _ limit: Duration, clock: any Clock<Duration> = ContinuousClock(), waitingFor what: String,
    _ operation: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    try await withThrowingTaskGroup(of: Value?.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await clock.sleep(for: limit)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else {
            throw TWSRequestError.timedOut(waitingFor: what)
        }
        return value
    }
}

/// `wait`'s answer, or `timedOut` once `limit` has passed on `clock`: unlike ``withTimeLimit(_:clock:waitingFor:_:)``
/// the timeout is a value, not an error, and a `nil` answer (the events ended without one) waits out the limit.
/// `wait` is cancelled once there is an outcome.
///
/// ```swift
/// let outcome = await firstAnswer(within: .seconds(30), else: .timedOut) { await acknowledgement(of: id) }
/// ```
public func firstAnswer<T: Sendable>(
    within limit: Duration, clock: any Clock<Duration> = ContinuousClock(), else timedOut: T,
    _ wait: @escaping @Sendable () async -> T?
) async -> T {
    await withTaskGroup(of: T?.self, returning: T.self) { group in
        group.addTask { await wait() }
        group.addTask {
            try? await clock.sleep(for: limit)
            return Task.isCancelled ? nil : timedOut
        }
        var outcome = timedOut
        for await candidate in group {
            if let candidate {
                outcome = candidate
                break
            }
        }
        group.cancelAll()
        return outcome
    }
}
