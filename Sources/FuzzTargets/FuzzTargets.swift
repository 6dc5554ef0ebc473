/// The bodies of the fuzz targets: each takes arbitrary bytes and must return, never trap, whatever they hold.
///
/// The libFuzzer executables (`Fuzz/`, built with `--sanitize=fuzzer`) call these, and the normal test suite
/// replays every input of `Fuzz/Corpus/<target>/` through them (`FuzzTargetsTests`), so a crasher found once stays
/// a regression test. See `scripts/fuzz.sh`.
///
/// - `clientInbound`: server → client bytes through the frame decoder, the response decoder and the domain mapping
///   (bars, executions, commissions, positions, quotes, order ids, the order book).
/// - `simulatorRequests`: client → server payloads through the request decoder and the simulator's core.
/// - `barFile`: bar file rows through the backtest's CSV loader, in both bad-row modes.
///
/// The config file's body is `ConfigFuzz` (its own target: the schema pulls in the live stack, which this target's
/// build does without).
public enum FuzzTargets {
    /// The targets by name (the names of `Fuzz/Corpus/` folders and of the fuzzer executables).
    public static let all: [(name: String, run: @Sendable (UnsafeRawBufferPointer) -> Void)] = [
        ("client-inbound", clientInbound),
        ("simulator-requests", simulatorRequests),
        ("bar-file", barFile),
    ]
}
