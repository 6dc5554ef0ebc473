/// IB's "unset" sentinels (PROTOCOL.md §3).
public enum TWSSentinel {
    /// `UNSET_INTEGER`.
    public static let int32: Int = 2_147_483_647
    /// `UNSET_LONG`.
    public static let int64: Int64 = 9_223_372_036_854_775_807
    /// `UNSET_DOUBLE` (`Double.greatestFiniteMagnitude`).
    public static let double: Double = 1.7976931348623157e308
}
