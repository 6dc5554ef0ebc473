import GatewayCore

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

extension SoakSchedule {
    /// The field cycle's length (`ibtrader-bench soak --month`): 180 s of the bot's time, two and a half hours of
    /// market time at the soak's pace.
    public static let fieldCycle = 180.0

    /// Every fault of the field catalogue (docs/field-faults.md) once a cycle: the standard cycle's, spread out, and
    /// a fill without its orderStatus, data-farm flaps (market data with every feed going silent meanwhile, and
    /// HMDS), a loss of connectivity that loses the market data (1101), 2188 on the bar subscriptions and globally, a
    /// bust event, a trading halt, a modify lost in a disconnect, a second live broker order for one client order, a
    /// refusal by 321, an order deactivated after acceptance, and a gateway down for 35 s (the weekly restart, or a
    /// login waiting on 2FA). Not in it: `locate` (the soak's bot sells no short) and `no-exec-end` (it stays on; its
    /// own tests run the bot and the manual tools with it). It needs a strategy that modifies
    /// resting orders (`SoakSettings.restEvery`).
    public static let fieldScript = """
        # The field cycle: `at` is seconds into each 180-second cycle.
        at 1 partial-fill 3        # the next fill in three executions
        at 4 duplicate-status      # an orderStatus twice
        at 7 late-exec 5           # an execution after its order's Filled status
        at 10 reject soak drill    # a rejection (201)
        at 13 stall-feed SOAK1     # SOAK1's bars stop with no error (a dead feed)
        at 16 duplicate-exec       # an execDetails twice
        at 19 reorder-fill         # a fill's messages back to front
        at 22 late-status 5        # a stale orderStatus after newer ones
        at 25 drop                 # every socket closes
        at 28 reorder              # the next two messages swapped
        at 31 freeze               # a hung gateway: sockets open, nothing answered
        at 36 thaw
        at 41 restart 1            # a gateway restart, state kept
        at 46 lost-after-order     # 1100 after the next order's acknowledgement: its fill withheld
        at 56 restored kept        # 1102
        at 60 drop-after-order 1   # an order arrives, its answers are lost with the socket
        at 64 delay 0.5            # a slow gateway
        at 67 delay 0
        at 70 preset-cancel        # 10349 and a Cancelled, then the order goes on and fills
        at 73 lose-modify          # the next modify is lost with the socket
        at 77 missing-status       # the next fill comes without its orderStatus
        at 80 twin-order           # the next order lives twice at the broker (same orderRef)
        at 82 refuse 321           # the next order refused by 321 (no order status), not 201
        at 85 farm 2103            # the market-data farm is broken...
        at 92 stall-feed           # ...and every bar subscription goes silent
        at 95 farm 2104            # the farm is back; the feeds stay silent
        at 100 farm 2105           # the HMDS farm is broken
        at 104 farm 2106
        at 107 lost                # 1100...
        at 112 restored lost       # ...1101: connectivity back, market data lost
        at 116 notice 2188 bars    # a notice on each bar subscription, not an error
        at 118 notice 2188         # and globally
        at 120 bust-bars           # 10225: every bar subscription ends
        at 121 deactivate          # the next resting order becomes Inactive, listed as open (TWS 10.48+)
        at 123 halt SOAK2 1        # a regulatory halt
        at 129 unhalt SOAK2
        at 130 restart-fresh 1     # a new gateway process: positions, orders and executions gone
        at 143 restart 35          # down for 35 s: the weekly restart, or a login waiting on 2FA
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
