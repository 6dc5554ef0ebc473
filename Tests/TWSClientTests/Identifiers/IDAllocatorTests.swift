import Testing
import TWSProtocol

@testable import TWSClient

@Suite struct IDAllocatorTests {
    @Test func orderIDsStartAtNextValidIDAndIncrease() {
        var ids = OrderIDAllocator()
        do {
            let outcome = ids.next()
            #expect(outcome == nil)
        }
        ids.seed(nextValidID: 100)
        do {
            let outcome = ids.next()
            #expect(outcome == 100)
        }
        do {
            let outcome = ids.next()
            #expect(outcome == 101)
        }
    }

    @Test func orderIDsBumpPastObservedIDs() {
        var ids = OrderIDAllocator(nextValidID: 10)
        ids.observe(orderID: 42)
        do {
            let outcome = ids.next()
            #expect(outcome == 43)
        }
        ids.observe(orderID: 5)  // lower: no effect
        ids.observe(orderID: -3)  // manual TWS order
        do {
            let outcome = ids.next()
            #expect(outcome == 44)
        }
    }

    @Test func lateNextValidIDNeverMovesBackwards() {
        var ids = OrderIDAllocator(nextValidID: 50)
        _ = ids.next()
        ids.seed(nextValidID: 20)
        do {
            let outcome = ids.next()
            #expect(outcome == 51)
        }
        ids.seed(nextValidID: 90)
        do {
            let outcome = ids.next()
            #expect(outcome == 90)
        }
    }

    @Test func requestIDsIncreaseAndWrapWithin32Bits() {
        var ids = RequestIDAllocator(firstID: 1)
        do {
            let outcome = ids.next()
            #expect(outcome == 1)
        }
        do {
            let outcome = ids.next()
            #expect(outcome == 2)
        }
        var high = RequestIDAllocator(firstID: Int(Int32.max) - 1)
        do {
            let outcome = high.next()
            #expect(outcome == Int(Int32.max) - 1)
        }
        do {
            let outcome = high.next()
            #expect(outcome == Int(Int32.max) - 1)
        }
    }
}

@Suite struct RecentOrderIDsTests {
    @Test func keepsTheMostRecentDistinctIdsUpToItsCapacity() {
        var recent = RecentOrderIDs(capacity: 3)
        for id in [1, 2, 3, 2, 4] { recent.insert(id) }  // 2 again is not a new member; 4 pushes out 1
        #expect(recent.count == 3)
        #expect(!recent.contains(1) && recent.contains(2) && recent.contains(3) && recent.contains(4))
        for id in 5...1_000 { recent.insert(id) }
        #expect(recent.count == 3 && recent.contains(998) && recent.contains(1_000) && !recent.contains(997))
    }
}
