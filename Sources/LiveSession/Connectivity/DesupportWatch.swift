import Foundation
import Logging
import TWSProtocol
import TradingModel

/// Follows IB's warning that the gateway's build will be desupported (2172, `TWSDesupportWarning`) and keeps it from
/// going unseen: TWS sends it at every connect as a plain notice, and past its date IB no longer supports the build.
/// Pure: time is a parameter (the session's clock).
///
/// - The first warning (or one with another date or build) is an `ALERT` at once, naming the date and the build, or
///   saying the text gave no date that could be read.
/// - The ALERT is repeated once a day (every 24 hours of the session's clock) until the date has passed (the date is
///   IB's, read in New York time). A warning without a readable date is repeated for as long as the run lasts.
/// - The same warning again (TWS repeats it at every reconnect) is logged at debug.
/// - After a reconnect, a warning TWS did not send again (the gateway was upgraded) ends the repeats.
/// - A warning whose date has passed is a warning-level line, not an ALERT.
///
/// ```swift
/// var watch = DesupportWatch()
/// watch.connected(generation: 1)
/// for action in watch.heard(warning, generation: 1, at: now) { carryOut(action) }  // ALERT
/// for action in watch.tick(at: now + .days(1)) { carryOut(action) }                 // ALERT again
/// ```
public struct DesupportWatch: Sendable {
    /// How often the ALERT is repeated.
    public static let repeatEvery: TimeSpan = .days(1)

    /// The zone IB's date is read in: New York, where IB's servers keep their day (the reset window's zone).
    public static let newYork = TimeZone(identifier: "America/New_York") ?? TimeZone(secondsFromGMT: -5 * 3600) ?? .gmt

    /// The zone the date is read in.
    public let zone: TimeZone
    /// The latest warning heard and still in force; `nil` before any, and after one the gateway stopped sending.
    public private(set) var warning: TWSDesupportWarning?
    /// When the ALERT is next repeated; `nil` when none is due (no warning, or its date has passed).
    public private(set) var nextAlert: Timestamp?
    /// ALERTs given so far.
    public private(set) var alerts = 0
    /// The connection the warning was last heard on, and the current connection (the driver numbers them).
    private var heardOn = 0
    private var generation = 0

    /// Creates a watch that has heard no warning.
    /// - Parameter zone: the zone of IB's date (New York).
    public init(zone: TimeZone = DesupportWatch.newYork) {
        self.zone = zone
    }

    /// A new connection is ready: a warning it does not repeat by the next reminder ends the repeats.
    public mutating func connected(generation: Int) {
        self.generation = generation
    }

    /// TWS sent 2172 on connection `generation`.
    public mutating func heard(
        _ warning: TWSDesupportWarning, generation: Int, at now: Timestamp
    ) -> [ConnectivityAction] {
        let repeated = self.warning.map { $0.date == warning.date && $0.build == warning.build } ?? false
        self.warning = warning
        heardOn = generation
        self.generation = max(self.generation, generation)
        if repeated {
            return [.log(.debug, "TWS repeats its desupport warning (2172) on connection \(generation)")]
        }
        if hasPassed(at: now), let date = warning.date {
            nextAlert = nil
            return [.log(.warning, "\(Self.code) says this \(Self.gateway(warning)) was to be desupported on \(date), "
                + "which has passed: IB no longer supports it; upgrade the gateway (\(Self.checklist))")]
        }
        return alert(at: now)
    }

    /// Time passed: the daily ALERT when due, until the date has passed.
    public mutating func tick(at now: Timestamp) -> [ConnectivityAction] {
        guard let due = nextAlert, now >= due, let warning else { return [] }
        if hasPassed(at: now), let date = warning.date {
            nextAlert = nil
            return [.log(.warning, "IB's desupport date of this \(Self.gateway(warning)), \(date), has passed "
                + "(\(Self.code)): IB no longer supports it; upgrade the gateway (\(Self.checklist))")]
        }
        if heardOn != generation {
            self.warning = nil
            nextAlert = nil
            return [.log(.notice, "TWS has not repeated its desupport warning (\(Self.code)) since connection "
                + "\(generation) began: the gateway was probably upgraded; the daily ALERT ends")]
        }
        return alert(at: now)
    }

    /// Whether the warning's date has passed at `now` (in New York); `false` without a warning or a date.
    public func hasPassed(at now: Timestamp) -> Bool {
        guard let days = daysLeft(at: now) else { return false }
        return days < 0
    }

    /// Whole days from `now`'s date (in New York) to the warning's date: 0 on the day itself, negative after it;
    /// `nil` without a warning or a date.
    public func daysLeft(at now: Timestamp) -> Int? {
        guard let date = warning?.date else { return nil }
        let seconds = now.nanoseconds / Timestamp.nanosecondsPerSecond
        let offset = Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds))))
        let today = Timestamp(seconds: seconds + offset).dayNumber
        return Int(CivilDate.dayNumber(year: date.year, month: date.month, day: date.day) - today)
    }

    /// The operator's line for the status: `10.45.1, desupported by IB on 2026-12-15 (in 16 days; IB's minimum then:
    /// 10.50.1)`; `nil` without a warning.
    public func status(at now: Timestamp) -> String? {
        guard let warning else { return nil }
        var line = "\(warning.runningBuild ?? "this build"), desupported by IB"
        if let date = warning.date, let days = daysLeft(at: now) {
            line += " on \(date) (\(Self.when(days))"
        } else {
            line += " (no date in IB's text"
        }
        if let minimum = warning.minimumSupportedBuild { line += "; IB's minimum then: \(minimum)" }
        return line + ")"
    }

    // MARK: - Text

    private mutating func alert(at now: Timestamp) -> [ConnectivityAction] {
        guard let warning else { return [] }
        alerts += 1
        nextAlert = now + Self.repeatEvery
        let text: String
        if let date = warning.date, let days = daysLeft(at: now) {
            let minimum = warning.minimumSupportedBuild.map { "; IB's minimum then: \($0)" } ?? ""
            text = "ALERT: IB desupports this \(Self.gateway(warning)) on \(date), \(Self.when(days)) "
                + "(\(Self.code)\(minimum)): upgrade the gateway before then (\(Self.checklist))"
        } else {
            text = "ALERT: TWS warns that this \(Self.gateway(warning)) will be desupported (\(Self.code)), "
                + "with no date that could be read in its text \"\(warning.text)\": upgrade the gateway "
                + "(\(Self.checklist))"
        }
        return [.log(.warning, text)]
    }

    private static let code = "IB code 2172"
    private static let checklist = "docs/operations.md, \"Upgrading IB Gateway\""

    private static func gateway(_ warning: TWSDesupportWarning) -> String {
        warning.runningBuild.map { "TWS / IB Gateway build (\($0))" } ?? "TWS / IB Gateway build"
    }

    private static func when(_ days: Int) -> String {
        switch days {
        case ..<0: "passed"
        case 0: "today"
        case 1: "tomorrow"
        default: "in \(days) days"
        }
    }
}
