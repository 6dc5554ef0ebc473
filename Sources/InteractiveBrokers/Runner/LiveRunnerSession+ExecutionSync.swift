import Logging
import TWSClient
import TWSProtocol

// The periodic safety net for fills: the broker's execution list, fetched beside the event loop.
extension Session {
    /// Starts the periodic sync of one connection's stretch: every `logging.summaryInterval` it asks the broker for
    /// today's executions (one reqExecutions) and hands them to the loop (`.executionsSynced`), which journals the
    /// ones the events missed, by execId. It runs beside the loop, not in it: with a real TWS the round trip takes
    /// tens to hundreds of milliseconds, and a bar arriving meanwhile must not wait for it (the loop used to await
    /// four requests here every interval). It ends once the connection is closed or the task is cancelled.
    func startExecutionSync(
        _ connection: TWSConnection, broker: IBBroker, input: RunnerInbox,
        group: inout ThrowingTaskGroup<Void, any Error>
    ) {
        let interval = configuration.summaryInterval
        let logger = self.logger
        group.addTask {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard !Task.isCancelled, await connection.session != nil else { return }
                do {
                    input.yield(.executionsSynced(try await broker.executionSnapshot()))
                } catch {
                    logger.warning("execution sync failed: \(error)")
                }
            }
        }
    }
}
