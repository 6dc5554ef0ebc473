/// Normalises a user-supplied period: anything below 1 becomes 1.
///
/// Indicator initialisers never trap on user input. A period below 1 has no meaning, so it is
/// clamped to 1 and the resulting `period` property reports the value actually used. Code that
/// wants to reject bad periods instead (such as the CLI) validates them first through
/// ``IndicatorSpec/parse(_:)``, which throws ``IndicatorSpecError``.
@inline(__always)
func clampedPeriod(_ period: Int) -> Int { max(1, period) }
