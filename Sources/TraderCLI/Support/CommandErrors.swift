import ArgumentParser
import TraderKit

/// A user-facing failure: printed as `Error: <message>` and the process exits non-zero.
typealias CLIError = TraderError

/// A sweep's body under the shard contract: a failure that another try cannot fix exits 42 (`ShardExit`).
func underShardContract(_ body: () async throws -> Void) async throws {
    do { try await body() } catch where ShardExit.isDeterministic(error) {
        Terminal.printError("Error: \(error)")
        throw ExitCode(ShardExit.deterministic)
    }
}
