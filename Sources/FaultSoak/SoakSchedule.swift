import GatewaySimulator

/// The soak's faults: a fault script (the `--faults FILE` syntax, `at` = seconds into the cycle) repeated every
/// `cycle` seconds until the run's time is up. Pure: `due(after:upTo:)` says which commands fall in a span of wall time.
public struct SoakSchedule: Sendable {
    /// One cycle's commands, in time order.
    public let entries: [(at: Double, command: FaultCommand)]
    /// The length of a cycle (seconds, longer than its last entry).
    public let cycle: Double

    /// A schedule from a script.
    /// - Throws: `FaultScriptError` for a line that is not a command; `SoakError.badCycle` when an entry does not
    ///   fall inside the cycle.
    public init(script: String, cycle: Double) throws {
        let parsed = try FaultScript(text: script)
        guard cycle > 0, cycle.isFinite, parsed.entries.allSatisfy({ $0.at < cycle }) else {
            throw SoakError.badCycle(cycle)
        }
        entries = parsed.entries.sorted { $0.at < $1.at }
        self.cycle = cycle
    }

    /// The commands due after `start` up to and including `end` (seconds since the soak began), in order.
    public func due(after start: Double, upTo end: Double) -> [(at: Double, command: FaultCommand)] {
        guard end > start, !entries.isEmpty else { return [] }
        var out: [(at: Double, command: FaultCommand)] = []
        var base = (start / cycle).rounded(.down) * cycle
        while base <= end {
            for entry in entries where base + entry.at > start && base + entry.at <= end {
                out.append((base + entry.at, entry.command))
            }
            base += cycle
        }
        return out
    }

    /// The standard cycle (`FaultSoak`, `ibtrader-bench soak`): every fault kind the issue names, 45 seconds.
    public static let standardCycle = 45.0

    /// Disconnects, a hang, restarts with the gateway's state kept and lost, a rejection, partial fills, and order
    /// status and execution messages duplicated, late and reordered, with a connectivity loss that hides a fill; IB's
    /// 10349 with a Cancelled before the fill, and a feed that goes silent.
    public static let standardScript = """
        # FaultSoak's cycle: `at` is seconds into each 45-second cycle (the same commands as
        # `ibtrader gateway --faults FILE` and the admin port). One-shot faults act on the next order or message.
        at 1 partial-fill 3        # the next fill in three executions
        at 3 duplicate-status      # an orderStatus twice
        at 5 late-exec 5           # an execution after its order's Filled status
        at 7 reject soak drill     # a rejection (201)
        at 8 stall-feed SOAK1      # SOAK1's bars stop with no error (a dead feed)
        at 9 duplicate-exec        # an execDetails twice
        at 11 reorder-fill         # a fill's messages back to front
        at 13 late-status 5        # a stale orderStatus after newer ones
        at 15 drop                 # every socket closes
        at 17 reorder              # the next two messages swapped
        at 18 freeze               # a hung gateway: sockets open, nothing answered
        at 23 thaw
        at 25 restart 1            # a gateway restart, state kept
        at 29 lost-after-order     # 1100 after the next order's acknowledgement: its fill withheld
        at 30 restored kept        # 1102
        at 33 drop-after-order 1   # an order arrives, its answers are lost with the socket
        at 36 delay 0.5            # a slow gateway
        at 38 delay 0
        at 39 restart-fresh 1      # a new gateway process: positions, orders and executions gone
        at 42 preset-cancel        # 10349 and a Cancelled, then the order goes on and fills
        """
}

/// A soak that cannot run as asked.
public enum SoakError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A schedule whose entries do not fit in its cycle.
    case badCycle(Double)
    /// The bot never got going.
    case botDidNotStart(String)

    public var description: String {
        switch self {
        case .badCycle(let cycle): "every fault must fall inside the cycle of \(cycle) s"
        case .botDidNotStart(let reason): "the bot did not start: \(reason)"
        }
    }
}
