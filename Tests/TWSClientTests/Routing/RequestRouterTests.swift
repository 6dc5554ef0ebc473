import Synchronization
import Testing
import TWSProtocol

@testable import TWSClient

@Suite struct RequestRouterTests {
    typealias Router = RequestRouter<Int, String>

    private func notice(_ code: Int, id: Int = 1) -> TWSNotice {
        TWSNotice(requestID: id, code: code, message: "text \(code)")
    }

    @Test func oneShotCollectsUntilEnd() async throws {
        var router = Router()
        let result = try await withCheckedThrowingContinuation { continuation in
            router.register(1, route: .collect(continuation: continuation, completesOnFirstItem: false))
            do {
                let outcome = router.deliver("a", to: 1)
                #expect(outcome)
            }
            do {
                let outcome = router.deliver(notice: notice(2174), to: 1)
                #expect(outcome)
            }
            do {
                let outcome = router.deliver("b", to: 1)
                #expect(outcome)
            }
            do {
                let outcome = router.deliver("x", to: 2)
                #expect(!outcome)
            }
            do {
                let outcome = router.complete(1)
                #expect(outcome)
            }
        }
        #expect(result.items == ["a", "b"])
        #expect(result.notices.map(\.code) == [2174])
        #expect(router.count == 0)
    }

    /// A long answer (a day's executions) is collected whole, in order, with its notices; the items are appended in
    /// place (they used to be copied for every item: quadratic). The next route on the key starts empty.
    @Test func longAnswerIsCollectedWholeAndTheNextRouteStartsEmpty() async throws {
        var router = Router()
        let count = 5_000
        let first = try await withCheckedThrowingContinuation { continuation in
            router.register(7, route: .collect(continuation: continuation, completesOnFirstItem: false))
            for k in 0..<count {
                router.deliver("e\(k)", to: 7)
                if k % 1_000 == 0 { router.deliver(notice: notice(2100 + k / 1_000, id: 7), to: 7) }
            }
            router.complete(7)
        }
        #expect(first.items == (0..<count).map { "e\($0)" })
        #expect(first.notices.map(\.code) == [2100, 2101, 2102, 2103, 2104])
        let second = try await withCheckedThrowingContinuation { continuation in
            router.register(7, route: .collect(continuation: continuation, completesOnFirstItem: false))
            router.deliver("later", to: 7)
            router.complete(7)
        }
        #expect(second.items == ["later"])
        #expect(second.notices.isEmpty)
        #expect(router.count == 0)
    }

    @Test func oneShotThatCompletesOnItsFirstItem() async throws {
        var router = Router()
        let result = try await withCheckedThrowingContinuation { continuation in
            router.register(3, route: .collect(continuation: continuation, completesOnFirstItem: true))
            router.deliver(notice: notice(2176, id: 3), to: 3)
            let delivered = router.deliver("only", to: 3)
            #expect(delivered)
            let orphan = router.deliver("too late", to: 3)
            #expect(!orphan)
        }
        #expect(result.items == ["only"])
        #expect(result.notices.map(\.code) == [2176])
        #expect(router.count == 0)
    }

    @Test func routesOnOneKeyAreServedInOrder() async throws {
        var router = Router()
        let (firstStream, first) = AsyncThrowingStream.makeStream(of: SubscriptionItem<String>.self)
        let (secondStream, second) = AsyncThrowingStream.makeStream(of: SubscriptionItem<String>.self)
        router.register(49, route: .stream(.wrapping(first) { $0 }, finishesOnEnd: true))
        router.register(49, route: .stream(.wrapping(second) { $0 }, finishesOnEnd: true))
        router.deliver("a", to: 49)
        router.complete(49)
        router.deliver("b", to: 49)
        router.complete(49)
        var firstValues: [String] = []
        for try await item in firstStream { firstValues.append(item.value ?? "") }
        var secondValues: [String] = []
        for try await item in secondStream { secondValues.append(item.value ?? "") }
        #expect(firstValues == ["a"])
        #expect(secondValues == ["b"])
    }

    @Test func terminalErrorFailsOneShot() async {
        var router = Router()
        await #expect(throws: TWSRequestError.rejected(notice(200))) {
            try await withCheckedThrowingContinuation { continuation in
                router.register(1, route: .collect(continuation: continuation, completesOnFirstItem: false))
                router.fail(1, with: .rejected(notice(200)))
            }
        }
    }

    @Test func streamGetsDataAndNoticesAndEndsWithTerminalError() async throws {
        var router = Router()
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: SubscriptionItem<Int>.self)
        router.register(7, route: .stream(.wrapping(continuation) { Int($0) }, finishesOnEnd: false))
        router.deliver("1", to: 7)
        router.deliver(notice: notice(10167, id: 7), to: 7)
        router.deliver("not a number", to: 7)  // the transform skips it
        router.deliver("2", to: 7)
        router.complete(7)  // does not finish: finishesOnEnd is false
        #expect(router.contains(7))
        router.fail(7, with: .rejected(notice(162, id: 7)))
        var received: [SubscriptionItem<Int>] = []
        await #expect(throws: TWSRequestError.rejected(notice(162, id: 7))) {
            for try await item in stream { received.append(item) }
        }
        #expect(received == [.data(1), .notice(notice(10167, id: 7)), .data(2)])
        #expect(!router.contains(7))
    }

    @Test func streamFinishesOnEndWhenAsked() async throws {
        var router = Router()
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: SubscriptionItem<String>.self)
        router.register(3, route: .stream(.wrapping(continuation) { $0 }, finishesOnEnd: true))
        router.deliver("x", to: 3)
        router.complete(3)
        var values: [String] = []
        for try await item in stream { values.append(item.value ?? "") }
        #expect(values == ["x"])
    }

    @Test func removeDropsOnlyThatRoute() {
        var router = Router()
        let (_, first) = AsyncThrowingStream.makeStream(of: SubscriptionItem<String>.self)
        let (_, second) = AsyncThrowingStream.makeStream(of: SubscriptionItem<String>.self)
        let firstID = router.register(5, route: .stream(.wrapping(first) { $0 }, finishesOnEnd: true))
        router.register(5, route: .stream(.wrapping(second) { $0 }, finishesOnEnd: true))
        do {
            let outcome = router.remove(5, id: firstID)
            #expect(outcome)
        }
        do {
            let outcome = router.remove(5, id: firstID)
            #expect(!outcome)
        }
        #expect(router.count == 1)
    }

    @Test func failAllEndsEverything() async {
        var router = Router()
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: SubscriptionItem<String>.self)
        router.register(1, route: .stream(.wrapping(continuation) { $0 }, finishesOnEnd: false))
        router.failAll(with: .connectionClosed(reason: "peer closed"))
        #expect(router.count == 0)
        await #expect(throws: TWSRequestError.connectionClosed(reason: "peer closed")) {
            for try await _ in stream {}
        }
    }

    /// A sink that records what reaches it.
    private final class Recorder: Sendable {
        let items = Mutex<[String]>([])
        var sink: StreamSink<String> {
            StreamSink(
                yieldItem: { item in self.items.withLock { $0.append(item) } }, yieldNotice: { _ in },
                finish: { _ in })
        }
        var seen: [String] { items.withLock { $0 } }
    }

    /// Stream routes follow every change of the routes: a route queued behind, the first one removed, failed or
    /// finished, a one-shot on another key, many keys at once.
    @Test func streamRoutesFollowEveryChangeOfTheRoutes() async throws {
        var router = Router()
        let first = Recorder()
        let second = Recorder()
        let firstID = router.register(1, route: .stream(first.sink, finishesOnEnd: true))
        let a1 = router.deliver("a1", to: 1)
        let a2 = router.deliver("a2", to: 1)
        #expect(a1 && a2)
        router.register(1, route: .stream(second.sink, finishesOnEnd: true))
        let a3 = router.deliver("a3", to: 1)
        #expect(a3)
        router.remove(1, id: firstID)
        let b1 = router.deliver("b1", to: 1)
        #expect(b1)
        #expect(first.seen == ["a1", "a2", "a3"] && second.seen == ["b1"])

        // A one-shot on another key collects.
        let collected = try await withCheckedThrowingContinuation { continuation in
            router.register(2, route: .collect(continuation: continuation, completesOnFirstItem: false))
            router.deliver("c1", to: 2)
            let b2 = router.deliver("b2", to: 1)  // the stream still works while the one-shot collects
            #expect(b2)
            router.complete(2)
        }
        #expect(collected.items == ["c1"] && second.seen == ["b1", "b2"])

        // Finished by its End message: nothing more reaches it.
        let ended = router.complete(1, endMessage: "end")
        let late = router.deliver("late", to: 1)
        #expect(ended && !late)
        #expect(second.seen == ["b1", "b2", "end"])

        // Failed: nothing more reaches it.
        let third = Recorder()
        router.register(3, route: .stream(third.sink, finishesOnEnd: false))
        let t1 = router.deliver("t1", to: 3)
        #expect(t1)
        router.fail(3, with: .cancelled)
        let t2 = router.deliver("t2", to: 3)
        #expect(!t2)
        #expect(third.seen == ["t1"])

        // Many subscriptions: each item reaches its own route, twice over.
        let many = (0..<100).map { _ in Recorder() }
        for (k, recorder) in many.enumerated() {
            router.register(100 + k, route: .stream(recorder.sink, finishesOnEnd: false))
        }
        for round in 0..<2 {
            for k in many.indices {
                let routed = router.deliver("\(k)/\(round)", to: 100 + k)
                #expect(routed)
            }
        }
        #expect(many.enumerated().allSatisfy { k, recorder in recorder.seen == ["\(k)/0", "\(k)/1"] })
    }
}
