import TraderConfig
import TWSProtocol

extension ConnectionSettings {
    /// `errorCodes` as the connection takes them.
    public var errorOverrides: [Int: TWSErrorOverride] {
        errorCodes.compactMapValues { TWSErrorOverride(rawValue: $0) }
    }
}
