/// A test-only fault hook: where an `ibtrader run` process exits abruptly (`_exit`, no cleanup, no journal
/// flush beyond what is already durable), so crash recovery can be tested deterministically.
///
/// Set with `IBTRADER_CRASH_AT=POINT` or `POINT:N` (the N-th time the point is reached; default the first), read
/// once at start into `LiveRunnerConfiguration.crashPoint`. Never set it for real trading.
///
/// | point | the process exits … | what a restart must do |
/// |---|---|---|
/// | `after-intent-journaled` | after the intent is durable in the journal, before placeOrder | send it once (or abandon it if stale) |
/// | `after-submit` | once the broker acknowledged placeOrder, before the journal says `sent` | find it by orderRef and adopt it |
/// | `after-fill` | when a fill reaches the session from its connection, before the engine and the journal see it | journal the fill once (by execId) |
///
/// ```swift
/// let point = try CrashPoint(parsing: "after-fill:2")   // the second fill
/// ```
public struct CrashPoint: Sendable, Hashable, CustomStringConvertible {
    /// The environment variable the CLI reads.
    public static let environmentVariable = "IBTRADER_CRASH_AT"
    /// The exit status of a crash at a crash point (so a test can tell it from other failures).
    public static let exitStatus: Int32 = 86

    /// Where the process exits.
    public enum Location: String, Sendable, Hashable, CaseIterable {
        /// After the intent is journaled, before it is sent.
        case afterIntentJournaled = "after-intent-journaled"
        /// After the broker acknowledged the order, before the journal records it as sent.
        case afterSubmit = "after-submit"
        /// When a fill arrives, before the engine or the journal see it.
        case afterFill = "after-fill"
    }

    /// Where.
    public var location: Location
    /// The how-manieth time the location is reached (1 = the first).
    public var occurrence: Int

    /// Creates a crash point.
    public init(_ location: Location, occurrence: Int = 1) {
        self.location = location
        self.occurrence = occurrence
    }

    /// Parses `POINT` or `POINT:N`.
    /// - Throws: `CrashPointError.invalid` naming the accepted values.
    public init(parsing text: String) throws(CrashPointError) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let location = Location(rawValue: String(parts[0])) else {
            throw .invalid(text)
        }
        var occurrence = 1
        if parts.count == 2 {
            guard let n = Int(parts[1]), n >= 1 else { throw .invalid(text) }
            occurrence = n
        }
        self.init(location, occurrence: occurrence)
    }

    /// The crash point of an environment, if `IBTRADER_CRASH_AT` is set and not empty.
    /// - Throws: `CrashPointError.invalid` for a value that is not a crash point.
    public static func from(environment: [String: String]) throws(CrashPointError) -> CrashPoint? {
        guard let text = environment[environmentVariable], !text.isEmpty else { return nil }
        return try CrashPoint(parsing: text)
    }

    public var description: String { occurrence == 1 ? location.rawValue : "\(location.rawValue):\(occurrence)" }
}

/// A malformed `IBTRADER_CRASH_AT`.
public enum CrashPointError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not `POINT` or `POINT:N`.
    case invalid(String)

    public var description: String {
        switch self {
        case .invalid(let text):
            "\(CrashPoint.environmentVariable)='\(text)': expected "
                + CrashPoint.Location.allCases.map(\.rawValue).joined(separator: "|") + ", optionally ':N' (N ≥ 1)"
        }
    }
}
