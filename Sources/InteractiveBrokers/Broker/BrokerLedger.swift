import Foundation
import TWSProtocol
import TradingModel

/// The broker's mutable order state: the order book, today's order-efficiency counts, the crash hook's count and
/// the placeOrder templates.
///
/// Why a lock as well as the actor: the synchronous order path (`IBBroker.executeNow`, IBBroker+Submit.swift) runs on
/// the *connection's* actor, within the bar that caused the order, and tracks the order as its placeOrder leaves
/// (under this lock, held across the send) — without a hop onto the broker's actor (docs/live-trading.md, Latency).
/// The lock is recursive because a report published while the book is updated may count an execution
/// (`noteExecution`) on the same thread, and the order path takes it again inside the send's critical section.
final class BrokerLedger: @unchecked Sendable {
    let lock = NSRecursiveLock()
    var book: IBOrderBook
    var efficiency: OrderEfficiencyGuard
    var crashPointHits = 0
    /// placeOrder templates by instrument index, made on first use (`placeOrderTemplate`).
    var templates: [TWSPlaceOrderTemplate?] = []

    init(book: IBOrderBook, efficiency: OrderEfficiencyGuard) {
        self.book = book
        self.efficiency = efficiency
    }
}

extension IBBroker {
    /// The order book (under the ledger's lock).
    nonisolated var book: IBOrderBook {
        _read {
            ledger.lock.lock()
            defer { ledger.lock.unlock() }
            yield ledger.book
        }
        _modify {
            ledger.lock.lock()
            defer { ledger.lock.unlock() }
            yield &ledger.book
        }
    }

    /// Today's order actions and executed orders (IBBroker+OrderEfficiency.swift), under the ledger's lock.
    nonisolated var efficiency: OrderEfficiencyGuard {
        _read {
            ledger.lock.lock()
            defer { ledger.lock.unlock() }
            yield ledger.efficiency
        }
        _modify {
            ledger.lock.lock()
            defer { ledger.lock.unlock() }
            yield &ledger.efficiency
        }
    }

    /// The placeOrder template of an instrument's contract at a server version, made on first use and kept while
    /// the version holds (the contracts are fixed for the broker's life), so an order's path copies no contract.
    /// - Throws: `IBMappingError.unknownInstrument` for an instrument outside the contract book.
    nonisolated func placeOrderTemplate(
        for instrument: InstrumentID, serverVersion: Int
    ) throws(IBMappingError) -> TWSPlaceOrderTemplate {
        let k = instrument.index
        let kept = ledger.lock.withLock { k >= 0 && k < ledger.templates.count ? ledger.templates[k] : nil }
        if let kept, kept.serverVersion == serverVersion { return kept }
        let contract = try contracts.contract(for: instrument)  // so `k` is an index of the book from here
        let made = TWSPlaceOrderTemplate(contract: contract, serverVersion: serverVersion)
        ledger.lock.withLock {
            if ledger.templates.count <= k {
                ledger.templates += repeatElement(nil, count: k + 1 - ledger.templates.count)
            }
            ledger.templates[k] = made
        }
        return made
    }

    /// Times the configured crash point was reached (`IBBroker+CrashPoint.swift`, test only).
    nonisolated var crashPointHits: Int {
        get { ledger.lock.withLock { ledger.crashPointHits } }
        set { ledger.lock.withLock { ledger.crashPointHits = newValue } }
    }
}
