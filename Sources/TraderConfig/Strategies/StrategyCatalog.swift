/// The strategies the commands know by name: the built-ins, plus any a user's own package registers
/// (`IBTraderCommand.main(strategies:)`). An immutable value passed to the loader, never a global registry.
public struct StrategyCatalog: Sendable {
    /// The entries, in the order help and docs list them.
    public private(set) var entries: [StrategyEntry]

    /// A catalog of these entries.
    public init(_ entries: [StrategyEntry]) { self.entries = entries }

    /// The built-in strategies.
    public static var builtIn: StrategyCatalog {
        StrategyCatalog([
            MomentumStrategy.entry, SMACrossStrategy.entry, EMACrossStrategy.entry, RSIStrategy.entry,
            BollingerStrategy.entry,
        ])
    }

    /// This catalog with more entries; a name already taken is replaced (a user may override a built-in).
    public func adding(_ more: [StrategyEntry]) -> StrategyCatalog {
        var copy = self
        for entry in more {
            copy.entries.removeAll { $0.name == entry.name }
            copy.entries.append(entry)
        }
        return copy
    }

    /// The names.
    public var names: [String] { entries.map(\.name) }

    /// The entry named `name`.
    public func entry(named name: String) -> StrategyEntry? { entries.first { $0.name == name } }
}
