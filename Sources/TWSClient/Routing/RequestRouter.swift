import TWSProtocol

/// The answer a one-shot route collected: every item up to the End message, and the notices seen meanwhile.
struct RoutedResult<Item: Sendable>: Sendable {
    var items: [Item]
    var notices: [TWSNotice]
}

/// A type-erased subscription stream: the router yields `Item`s, the subscriber sees its own value type.
struct StreamSink<Item: Sendable>: Sendable {
    let yieldItem: @Sendable (Item) -> Void
    let yieldNotice: @Sendable (TWSNotice) -> Void
    let finish: @Sendable ((any Error)?) -> Void

    /// Wraps a receiver; `transform` turns a routed item into the receiver's value (`nil` skips it).
    static func wrapping<Value: Sendable>(
        _ receiver: TWSReceiver<SubscriptionItem<Value>>, transform: @escaping @Sendable (Item) -> Value?
    ) -> StreamSink<Item> {
        StreamSink(
            yieldItem: { item in
                if let value = transform(item) { receiver.receive(.data(value)) }
            },
            yieldNotice: { receiver.receive(.notice($0)) },
            finish: { error in receiver.end(error) }
        )
    }

    /// Wraps a continuation; `transform` turns a routed item into the stream's value (`nil` skips it).
    static func wrapping<Value: Sendable>(
        _ continuation: AsyncThrowingStream<SubscriptionItem<Value>, any Error>.Continuation,
        transform: @escaping @Sendable (Item) -> Value?
    ) -> StreamSink<Item> {
        wrapping(.yielding(into: continuation), transform: transform)
    }
}

/// The state of request routing: which pending request or subscription each incoming message belongs to.
///
/// Keys are request ids, or topics for messages without one (currentTime, openOrderEnd, positionEnd, …). Several
/// routes may wait on one key; they are served first come, first served (two concurrent `currentTime()` calls get
/// the two answers in order). The router resumes continuations and yields to streams; it does no I/O, so the
/// connection actor owns it and tests drive it directly.
struct RequestRouter<Key: Hashable & Sendable, Item: Sendable>: Sendable {
    /// Identifies one registration, to remove exactly it when its consumer goes away.
    struct RouteID: Hashable, Sendable {
        let rawValue: UInt64
    }

    /// What to do with the messages of one request.
    enum Route: Sendable {
        /// Collect items until the End message (or the first item when `completesOnFirstItem`), then resume.
        case collect(
            continuation: CheckedContinuation<RoutedResult<Item>, any Error>,
            completesOnFirstItem: Bool
        )
        /// Yield items and notices to a stream; the End message finishes it when `finishesOnEnd`.
        case stream(StreamSink<Item>, finishesOnEnd: Bool)
    }

    private struct Entry: Sendable {
        var id: RouteID
        var route: Route
        var items: [Item] = []
        var notices: [TWSNotice] = []
    }

    private var entries: [Key: [Entry]] = [:]
    private var lastRouteID: UInt64 = 0

    /// Creates an empty router.
    init() {}

    /// The number of routes waiting.
    var count: Int { entries.values.reduce(0) { $0 + $1.count } }

    /// Whether a route waits on `key`.
    func contains(_ key: Key) -> Bool { entries[key]?.isEmpty == false }

    /// Reserves a route id, for a caller that needs it before registering (e.g. in a cancellation handler).
    mutating func makeRouteID() -> RouteID {
        lastRouteID += 1
        return RouteID(rawValue: lastRouteID)
    }

    /// Registers a route behind any already waiting on `key`.
    @discardableResult
    mutating func register(_ key: Key, route: Route) -> RouteID {
        let id = makeRouteID()
        register(key, id: id, route: route)
        return id
    }

    /// Registers a route under a reserved id.
    mutating func register(_ key: Key, id: RouteID, route: Route) {
        entries[key, default: []].append(Entry(id: id, route: route))
    }

    /// Delivers a data item to the first route on `key`.
    /// - Returns: `false` when no route waits on `key` (the caller logs the orphan message).
    @discardableResult
    mutating func deliver(_ item: Item, to key: Key) -> Bool {
        guard let route = entries[key]?.first?.route else { return false }
        switch route {
        case .stream(let sink, _):
            sink.yieldItem(item)
        case .collect(let continuation, let completesOnFirstItem):
            // Appended in place: a copy of the entry would share its items, and appending to the copy would copy
            // them all, for every item of a long answer (a day's executions: quadratic).
            entries[key]?[0].items.append(item)
            if completesOnFirstItem, let entry = entries[key]?.first {
                popFirst(key)
                continuation.resume(returning: RoutedResult(items: entry.items, notices: entry.notices))
            }
        }
        return true
    }

    /// Delivers a notice (non-terminal errMsg) to the first route on `key`.
    @discardableResult
    mutating func deliver(notice: TWSNotice, to key: Key) -> Bool {
        guard let route = entries[key]?.first?.route else { return false }
        switch route {
        case .stream(let sink, _):
            sink.yieldNotice(notice)
        case .collect:
            entries[key]?[0].notices.append(notice)
        }
        return true
    }

    /// The End message of the first route on `key`: a one-shot resumes with what it collected; a stream gets
    /// `endMessage` as an item (its transform decides whether it is a value) and finishes when it was registered
    /// with `finishesOnEnd`.
    @discardableResult
    mutating func complete(_ key: Key, endMessage: Item? = nil) -> Bool {
        guard let entry = entries[key]?.first else { return false }
        switch entry.route {
        case .stream(let sink, let finishesOnEnd):
            if let endMessage { sink.yieldItem(endMessage) }
            if finishesOnEnd {
                popFirst(key)
                sink.finish(nil)
            }
        case .collect(let continuation, _):
            popFirst(key)
            continuation.resume(returning: RoutedResult(items: entry.items, notices: entry.notices))
        }
        return true
    }

    /// Ends the first route on `key` with an error (a terminal errMsg).
    @discardableResult
    mutating func fail(_ key: Key, with error: TWSRequestError) -> Bool {
        guard let entry = entries[key]?.first else { return false }
        popFirst(key)
        Self.end(entry.route, with: error)
        return true
    }

    /// Removes one route without resuming it (its consumer went away).
    /// - Returns: whether it was still registered.
    @discardableResult
    mutating func remove(_ key: Key, id: RouteID) -> Bool {
        guard let index = entries[key]?.firstIndex(where: { $0.id == id }) else { return false }
        entries[key]?.remove(at: index)
        if entries[key]?.isEmpty == true { entries[key] = nil }
        return true
    }

    /// Ends one route with an error, if it is still registered (a timeout, a cancelled caller).
    @discardableResult
    mutating func fail(_ key: Key, id: RouteID, with error: TWSRequestError) -> Bool {
        guard let entry = entries[key]?.first(where: { $0.id == id }) else { return false }
        remove(key, id: id)
        Self.end(entry.route, with: error)
        return true
    }

    /// Ends every route with `error` (the connection closed), in the order they were registered (not the
    /// dictionary's, which changes from run to run: the waiters resume in this order).
    mutating func failAll(with error: TWSRequestError) {
        let all = entries.values.flatMap { $0 }.sorted { $0.id.rawValue < $1.id.rawValue }
        entries = [:]
        for entry in all { Self.end(entry.route, with: error) }
    }

    private mutating func popFirst(_ key: Key) {
        entries[key]?.removeFirst()
        if entries[key]?.isEmpty == true { entries[key] = nil }
    }

    private static func end(_ route: Route, with error: TWSRequestError) {
        switch route {
        case .stream(let sink, _): sink.finish(error)
        case .collect(let continuation, _): continuation.resume(throwing: error)
        }
    }
}
