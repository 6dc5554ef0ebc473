extension TimeSpan {
    /// A span from a `Duration` (whole nanoseconds).
    public init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self.init(nanoseconds: seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
