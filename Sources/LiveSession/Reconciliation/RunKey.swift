import TradingModel

/// Which run configuration a journal's cash checkpoints and risk baselines belong to, beside the account. Pure.
///
/// **Decision.** The key is the strategy (its type, without the `orders.timeout` wrapper), the universe (symbols
/// in order) and the starting capital (`strategy.cash`) — what decides the engine's money basis. A parameter
/// change (`fast: 10` → `12`) keeps the key: the same strategy's cash, daily-loss start and halts carry over, so a
/// tweak cannot reset a tripped halt. A different strategy or universe, or a changed capital, is another key: its
/// restart starts from the configured capital (minus the adopted positions' cost) with fresh risk baselines, and
/// says so (`LiveRunner+RestartState.swift`). Refusing to start instead would leave an unattended bot down after
/// every deliberate change of capital or strategy; restoring another key's cash is what went wrong before.
///
/// ```swift
/// let key = RunKey(strategy: "MomentumRotation", symbols: ["AAPL", "MSFT"], capital: Money(100_000))
/// key.fingerprint  // "MomentumRotation|100000.00|AAPL,MSFT"
/// ```
public struct RunKey: Sendable, Hashable, CustomStringConvertible {
    /// The strategy's name.
    public var strategy: String
    /// The universe, in instrument order.
    public var symbols: [Symbol]
    /// The configured starting capital.
    public var capital: Money

    /// Creates a key.
    public init(strategy: String, symbols: [Symbol], capital: Money) {
        self.strategy = strategy
        self.symbols = symbols
        self.capital = capital
    }

    /// The key of a strategy type: its name without the `ExecutionStyled<…>` wrapper (how entries are worked does
    /// not change what is traded), or the `OrderTimeoutDefault<…>` of runs before it.
    public init<S>(strategyType: S.Type, symbols: [Symbol], capital: Money) {
        self.init(strategy: Self.strategyName(String(describing: strategyType)), symbols: symbols, capital: capital)
    }

    /// A type name without the execution-style wrapper.
    public static func strategyName(_ typeName: String) -> String {
        for wrapper in ["ExecutionStyled<", "OrderTimeoutDefault<"]
        where typeName.hasPrefix(wrapper) && typeName.hasSuffix(">") {
            return String(typeName.dropFirst(wrapper.count).dropLast())
        }
        return typeName
    }

    /// The stored form: `strategy|capital|symbols`, the symbols spelled out up to 64 characters, else their count
    /// and an FNV-1a hash (stable across runs and platforms, unlike `Hasher`).
    public var fingerprint: String {
        let list = symbols.map(\.rawValue).joined(separator: ",")
        let universe = list.utf8.count <= 64 ? list : "\(symbols.count) symbols #\(Self.fnv1a(list))"
        return "\(strategy)|\(capital.centsDescription)|\(universe)"
    }

    public var description: String { fingerprint }

    static func fnv1a(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
