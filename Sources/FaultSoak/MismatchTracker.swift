/// Differences between the engine's positions and the broker's over a soak, as a sampler sees them, and the bot's
/// position-mismatch ALERTs: how long each difference lasted and how long it went unalerted. Pure: times are seconds
/// since the soak began.
///
/// ```swift
/// var tracker = MismatchTracker()
/// tracker.observe(difference: "SOAK0 100 here, 0 at the broker", at: 12.0)
/// tracker.alert(at: 15.5)
/// tracker.observe(difference: nil, at: 20.0)
/// tracker.figures(interval: 10, brief: 1, now: 30).longestUnalerted   // 3.5
/// ```
public struct MismatchTracker: Sendable, Equatable {
    /// One stretch of time during which the books differed.
    public struct Episode: Sendable, Equatable {
        /// When the sampler first saw it.
        public var start: Double
        /// When the sampler saw the books agree again (`nil`: still open).
        public var end: Double?
        /// The bot's first ALERT during it.
        public var alertedAt: Double?
        /// The gateway lost its state (`restart-fresh`) at most `freshWindow` before it began, or during it.
        public var afterFreshRestart: Bool
        /// The first difference seen.
        public var difference: String

        /// How long it lasted (until `now` when still open).
        public func duration(now: Double) -> Double { (end ?? now) - start }
        /// How long it went without an ALERT (until the ALERT, its end, or `now`).
        public func unalerted(now: Double) -> Double { (alertedAt ?? end ?? now) - start }
    }

    public private(set) var episodes: [Episode] = []
    /// ALERTs raised while the sampler saw no difference (a false alarm, or one the sampler missed).
    public private(set) var alertsWithoutDifference = 0
    /// Every ALERT.
    public private(set) var alerts = 0
    private var freshRestarts: [Double] = []
    /// A difference that starts within this long after a `restart-fresh` is attributed to it (seconds).
    public var freshWindow = 2.0

    /// Creates an empty tracker.
    public init() {}

    /// One look at both books: the difference (`nil`: they agree).
    public mutating func observe(difference: String?, at time: Double) {
        if let difference {
            if let last = episodes.last, last.end == nil { return }
            let fresh = freshRestarts.contains { time >= $0 && time - $0 <= freshWindow }
            episodes.append(Episode(start: time, end: nil, alertedAt: nil, afterFreshRestart: fresh, difference: difference))
        } else if let last = episodes.indices.last, episodes[last].end == nil {
            episodes[last].end = time
        }
    }

    /// The bot raised a position-mismatch ALERT.
    public mutating func alert(at time: Double) {
        alerts += 1
        guard let last = episodes.indices.last, episodes[last].end == nil else {
            alertsWithoutDifference += 1
            return
        }
        if episodes[last].alertedAt == nil { episodes[last].alertedAt = time }
    }

    /// The gateway lost its state (`restart-fresh`).
    public mutating func freshRestart(at time: Double) {
        freshRestarts.append(time)
        if let last = episodes.indices.last, episodes[last].end == nil { episodes[last].afterFreshRestart = true }
    }

    /// The figures: differences shorter than `brief` are fills on their way (counted apart); a longer one is alerted
    /// in time when the ALERT came within `interval` (or it ended within it without one).
    public func figures(interval: Double, brief: Double, now: Double) -> MismatchFigures {
        var figures = MismatchFigures()
        figures.alerts = alerts
        figures.alertsWithoutDifference = alertsWithoutDifference
        figures.unexplainedAlerts = alertsWithoutDifference
        for episode in episodes {
            let duration = episode.duration(now: now)
            guard duration >= brief else {
                figures.brief += 1
                figures.longestBrief = max(figures.longestBrief, duration)
                continue
            }
            figures.lasting += 1
            if episode.afterFreshRestart { figures.afterFreshRestart += 1 }
            if episode.alertedAt != nil {
                figures.alerted += 1
                if !episode.afterFreshRestart { figures.unexplainedAlerts += 1 }
            }
            let unalerted = episode.unalerted(now: now)
            figures.longestUnalerted = max(figures.longestUnalerted, unalerted)
            figures.longest = max(figures.longest, duration)
            if unalerted > interval {
                figures.unalertedTooLong += 1
                figures.worst.append("\(episode.difference) from \(Self.seconds(episode.start)): unalerted for \(Self.seconds(unalerted))")
            }
        }
        return figures
    }

    static func seconds(_ value: Double) -> String { String(format: "%.1f s", value) }
}

/// What `MismatchTracker.figures` reports.
public struct MismatchFigures: Sendable, Equatable {
    /// Differences shorter than the brief limit (a fill reported at the broker, not yet at the bot).
    public var brief = 0
    public var longestBrief = 0.0
    /// Differences that lasted longer.
    public var lasting = 0
    /// Of those, the ones that followed the gateway losing its state (expected: the bot must raise them).
    public var afterFreshRestart = 0
    /// Of the lasting ones, those the bot raised an ALERT for.
    public var alerted = 0
    /// Lasting differences without an ALERT for longer than one reconciliation interval (must be 0).
    public var unalertedTooLong = 0
    /// The longest time any lasting difference went without an ALERT, and the longest difference.
    public var longestUnalerted = 0.0
    public var longest = 0.0
    /// Every position-mismatch ALERT, and those raised while the sampler saw the books agree.
    public var alerts = 0
    public var alertsWithoutDifference = 0
    /// Alerted differences the gateway's lost state does not explain (the bot's books went wrong, or a difference
    /// outlived its confirmation), plus ALERTs without a sampled difference.
    public var unexplainedAlerts = 0
    /// The differences unalerted for too long, described.
    public var worst: [String] = []

    public init() {}
}
