import Foundation
import TradingModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The test-only crash hook (`CrashPoint`): counted per location in the broker actor, no global state.
extension IBBroker {
    /// Exits the process at once when `location` is reached for the configured time.
    func reachCrashPoint(_ location: CrashPoint.Location) {
        guard let point = configuration.crashPoint, point.location == location else { return }
        crashPointHits += 1
        guard crashPointHits == point.occurrence else { return }
        FileHandle.standardError.write(Data("\(CrashPoint.environmentVariable): exiting at \(point)\n".utf8))
        _exit(CrashPoint.exitStatus)
    }

    /// `after-submit`: waits (at most 2 s, polling the book) until the broker has answered for the placed orders,
    /// so the crash leaves an order the broker holds and a journal that still says `journaled`.
    func reachSubmitCrashPoint(_ orders: [OrderID]) async {
        guard let point = configuration.crashPoint, point.location == .afterSubmit,
            crashPointHits + 1 == point.occurrence
        else {
            reachCrashPoint(.afterSubmit)
            return
        }
        for _ in 0..<200 {
            let answered = orders.allSatisfy { id in trackedOrders[id].map { $0.state != .submitted } ?? true }
            if answered { break }
            try? await Task.sleep(for: .milliseconds(10))
        }
        reachCrashPoint(.afterSubmit)
    }
}
