/// `Duration` as plain numbers, for measurements and configs (`(clock.now - start).secondsValue`).
extension Duration {
    /// Whole and fractional seconds.
    public var secondsValue: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }

    /// Nanoseconds (exact for a duration of whole nanoseconds that fits in `Int64`).
    public var nanosecondsValue: Int64 {
        components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    }
}
