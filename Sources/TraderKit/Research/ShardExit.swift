import Foundation

/// What a sweep's exit status tells a batch scheduler (docs/research.md, "Exit status"):
///
/// - `0`: every shard's output was written, each file renamed into place, `best.json` last;
/// - `42`: a failure another try cannot fix (the configuration, the data, the shard, the strategy): Kubernetes'
///   `podFailurePolicy` fails the index at once (`FailIndex`), Slurm should not requeue;
/// - `64`: a command-line usage error (the argument parser's), also not worth retrying;
/// - anything else (1 for a failed write, a signal's 128+N): worth retrying, the output is rewritten the same.
public enum ShardExit {
    /// The status of a failure that is the same on every try.
    public static let deterministic: Int32 = 42

    /// A failure to write a shard's output (a full disk, a network filesystem): another try may succeed.
    public struct OutputFailure: Error, CustomStringConvertible {
        /// What failed.
        public var description: String

        /// Wraps a write failure.
        public init(_ error: any Error) { description = "\(error)" }
    }

    /// Whether `error` is the same on every try: everything but a failed write or a cancellation.
    public static func isDeterministic(_ error: any Error) -> Bool {
        !(error is OutputFailure) && !(error is CancellationError)
    }

    /// The folder of shard `index`: `{shard}` in `out` replaced by it.
    /// - Throws: `TraderError` when a task runs several shards and `out` has no `{shard}` to tell them apart.
    public static func folder(_ out: String, shard index: Int, shardsInTask: Int) throws(TraderError) -> String {
        guard shardsInTask == 1 || out.contains("{shard}") else {
            throw TraderError(
                "--shards-per-task \(shardsInTask) writes \(shardsInTask) shards: put {shard} in --out (e.g. results/shard-{shard})")
        }
        return out.replacingOccurrences(of: "{shard}", with: String(index))
    }
}
