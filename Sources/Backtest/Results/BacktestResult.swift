import Analytics
import TradingEngine
import TradingModel

/// Everything a backtest produced.
public struct BacktestResult: Sendable {
    /// The instruments.
    public let universe: Universe
    /// Every order with its final state (an order placed on the last bar stays `submitted`/`accepted`).
    public let orders: [Order]
    /// Every execution, in time order.
    public let fills: [Fill]
    /// Round trips (closed first-to-last by entry time, open ones included with `isOpen`).
    public let trades: [RoundTrip]
    /// One point per timestamp (empty when `recordsEquityCurve` is off), 32 bytes a point.
    public let equityCurve: EquityCurve
    /// Every risk denial.
    public let riskDenials: [RiskDenialRecord]
    /// Denials per rule.
    public let riskDenialCounts: [RiskRuleKind: Int]
    /// Bars fed to the engine.
    public let barsProcessed: Int
    /// Starting cash.
    public let initialCash: Money
    /// Final cash.
    public let finalCash: Money
    /// Final cash + positions at their last marks (last close).
    public let finalEquity: Money
    /// Realized P&L before commission.
    public let realizedPnL: Money
    /// Total commission, as the portfolio booked it (every fill's and the futures rolls'); the reports print
    /// `commissionTotal`, which equals it to the cent and says what part is on positions still open.
    public let commissions: Money
    /// Final positions (flat ones included), by instrument index.
    public let positions: [Position]
    /// Last marks (prices), by instrument index.
    public let marks: [Price]
    /// Every entry the engine scaled down to fit a sizing limit.
    public let riskAdjustments: [RiskAdjustmentRecord]
    /// Scaled-down entries per rule.
    public let riskAdjustmentCounts: [RiskRuleKind: Int]
    /// Positions closed at their last price because their data ended before the run did.
    public let dataEndings: [DataEnding]
    /// The allocator's records (`allocations.csv`), one per reallocation and symbol; empty for other strategies.
    public let allocations: [AllocationRecord]
    /// The rolls of continuous futures positions and what each cost (already in cash and commissions).
    public let rollCharges: [RollCharge]
    /// The account's currencies: which instrument is priced in which, and the pairs that convert them.
    public let conversion: CurrencyConversion
    /// The balances in currencies other than the account's at the end, with their last rates (empty when every
    /// instrument is priced in the account's currency).
    public let balances: [CurrencyBalance]
    /// Pairs in the run only for their rates (`EngineConfig.rateOnlySymbols`): never traded.
    public let rateOnlySymbols: [String]
    /// New York days (day numbers) the exchange calendar lists as closed on which the data traded, so they traded as
    /// ordinary days (`MatchingEngine.openedDays`: the data wins over the calendar).
    public var openedDays: [Int64] = []
    /// The fills buying power cut or refused (`SimulationConfig.buyingPower`), in order: the summary counts them and
    /// each order's reason in `orders.csv` gives the figures.
    public var fundsCuts: [FundsCutRecord] = []

    /// A fill cut or refused at the fill for buying power (`FundsCut`, with the symbol).
    public struct FundsCutRecord: Hashable, Sendable {
        /// The instrument's symbol.
        public var symbol: Symbol
        /// The order.
        public var orderID: OrderID
        /// When the fill was due.
        public var time: Timestamp
        /// What the order had left to fill.
        public var asked: Quantity
        /// What filled (zero: refused).
        public var filled: Quantity
        /// The price it was due at.
        public var price: Price
        /// The reason with the figures.
        public var reason: String
    }

    /// Per instrument, the account currency per unit of its price currency at the end (`Portfolio.rate(for:)`).
    let finalRates: [Double]

    /// The lowest buying power (equity − the book's initial margin requirement) at the end of a time step, and when:
    /// `nil` without the margin rule (`risk.initialMarginPercent`, on by default with `risk.allowLeverage`).
    public internal(set) var lowestBuyingPower: (value: Money, time: Timestamp)?

    @usableFromInline
    init<S: Strategy>(
        universe: Universe, initialCash: Money, engine: EngineCore<S>, fills: [Fill], fillRates: [Double] = [],
        equityCurve: EquityCurve,
        barsProcessed: Int, dataEndings: [DataEnding] = [], tradingStart: Timestamp? = nil,
        lowestBuyingPower: (value: Money, time: Timestamp)? = nil, rollCharges: [RollCharge] = []
    ) {
        self.rollCharges = rollCharges
        self.lowestBuyingPower = lowestBuyingPower
        self.universe = universe
        // Orders the strategy tried during the warm-up were refused by design: they are not part of the run.
        let start = tradingStart ?? .zero
        self.orders = tradingStart == nil ? engine.orders.orders : engine.orders.orders.filter { $0.createdAt >= start }
        self.fills = fills
        var builder = RoundTripBuilder(universe: universe)
        // A roll over prices as traded closes a trip and opens the next at its bar's open, before the bar's fills.
        var rolls = rollCharges.compactMap { charge in
            charge.legs.flatMap { legs in universe.id(of: charge.symbol).map { (charge.time, $0, legs) } }
        }[...]
        for (k, fill) in fills.enumerated() {
            while let roll = rolls.first, roll.0 <= fill.timestamp {
                builder.roll(roll.1, at: roll.0, roll.2)
                rolls = rolls.dropFirst()
            }
            builder.add(fill, rate: k < fillRates.count ? fillRates[k] : 1)
        }
        for roll in rolls { builder.roll(roll.1, at: roll.0, roll.2) }
        self.trades = builder.trips()
        self.equityCurve = equityCurve
        if tradingStart == nil {
            self.riskDenials = engine.denials
            self.riskDenialCounts = engine.denialCounts
        } else {
            self.riskDenials = engine.denials.filter { $0.time >= start }
            var counts: [RiskRuleKind: Int] = [:]
            for denial in riskDenials { counts[denial.denial.rule, default: 0] += 1 }
            self.riskDenialCounts = counts
        }
        self.barsProcessed = barsProcessed
        self.initialCash = initialCash
        self.finalCash = engine.portfolio.cash
        self.finalEquity = engine.portfolio.equity
        self.realizedPnL = engine.portfolio.realizedPnL
        self.commissions = engine.portfolio.commissions
        self.positions = engine.portfolio.positions
        self.marks = engine.portfolio.marks
        self.riskAdjustments = engine.adjustments
        self.riskAdjustmentCounts = engine.adjustmentCounts
        self.dataEndings = dataEndings
        self.allocations = (engine.strategy as? any AllocationReporting)?.allocations ?? []
        self.conversion = engine.portfolio.conversion
        self.balances = engine.portfolio.balances
        self.rateOnlySymbols = engine.config.rateOnlySymbols
        self.finalRates = universe.instruments.indices.map { engine.portfolio.rate(for: InstrumentID(index: $0)) }
    }

    /// The account's currency (`strategy.currency`): every amount of the result is in it but prices and positions'
    /// own figures.
    public var accountCurrency: String { conversion.accountCurrency }

    /// The typed headline numbers (for regression tests and reports).
    public var summary: BacktestSummary {
        let closed = trades.filter { !$0.isOpen }
        var statuses: [OrderState: Int] = [:]
        for order in orders { statuses[order.state, default: 0] += 1 }
        return BacktestSummary(
            bars: barsProcessed, orders: orders.count, fills: fills.count, closedTrades: closed.count,
            openTrades: trades.count - closed.count, winningTrades: closed.filter { $0.pnl.units > 0 }.count,
            finalEquity: finalEquity.centsDescription, commissions: commissionTotal.totalText,
            maxDrawdownBasisPoints: Int((equityCurve.maxDrawdown * 10_000).rounded()),
            deniedOrders: riskDenials.count, filledOrders: statuses[.filled] ?? 0,
            canceledOrders: statuses[.canceled] ?? 0)
    }

    /// FNV-1a 64 hash of the canonical order list (stable across runs and platforms; see `canonicalOrderList`).
    public var orderListHash: String { StableHash.fnv1a64Hex(canonicalOrderList) }

    /// One line per order: `id,clientID,instrument,side,quantity,type,tif,state,filled,avgPrice,created,updated`.
    public var canonicalOrderList: String {
        var text = ""
        for o in orders {
            let average = o.averageFillPrice.map(\.description) ?? "-"
            text += "\(o.id),\(o.clientOrderID),\(o.instrument.rawValue),\(o.side.rawValue),\(o.quantity),"
            text += "\(Self.canonical(o.type)),\(o.timeInForce.rawValue),\(o.state.rawValue),\(o.filledQuantity),\(average),"
            text += "\(o.createdAt.nanoseconds),\(o.updatedAt.nanoseconds)\n"
        }
        return text
    }

    /// The order type as the canonical list has always spelled it (Swift's enum dump, fixed here so the recorded
    /// hashes stay valid whatever `OrderType.description` says).
    static func canonical(_ type: OrderType) -> String {
        switch type {
        case .market: "market"
        case .limit(let price): "limit(\(price))"
        case .stop(let price): "stop(\(price))"
        case .stopLimit(let stop, let limit): "stopLimit(stop: \(stop), limit: \(limit))"
        case .trailingAmount(let amount): "trailingAmount(\(amount))"
        case .trailingPercent(let percent): "trailingPercent(\(percent))"
        case .trailingLimit(let trail, let offset): "trailingLimit(trail: \(trail), limitOffset: \(offset))"
        case .midprice(let cap): "midprice(cap: \(cap.map(\.description) ?? "nil"))"
        }
    }
}

/// A position closed because its instrument's data ended before the run (a delisting, a file that stops early).
public struct DataEnding: Hashable, Sendable {
    /// The symbol.
    public var symbol: Symbol
    /// Its last bar.
    public var lastBarTime: Timestamp
    /// When the position was closed: the run's next time step.
    public var closedAt: Timestamp
    /// The position closed (signed).
    public var quantity: Quantity
    /// The price it was closed at: the last close.
    public var price: Price

    /// Creates a record.
    public init(symbol: Symbol, lastBarTime: Timestamp, closedAt: Timestamp, quantity: Quantity, price: Price) {
        self.symbol = symbol
        self.lastBarTime = lastBarTime
        self.closedAt = closedAt
        self.quantity = quantity
        self.price = price
    }
}

/// A continuous future's position moved from one contract month to the next.
public struct RollCharge: Hashable, Sendable {
    /// The continuous instrument (`ES continuous`).
    public var symbol: Symbol
    /// The first bar in the new contract.
    public var time: Timestamp
    /// The months left and entered.
    public var from: ContractMonth, to: ContractMonth
    /// The position rolled (signed).
    public var quantity: Quantity
    /// Both legs' commissions and slippage.
    public var cost: Money
    /// Where the position left the old month and entered the new one, over each month's prices as traded
    /// (`backtest.futuresPrices: unadjusted`): its round trip closes at the first price and a new one opens at the
    /// second, as the bot's two legs close and open them (`RoundTrip`). `nil` over back-adjusted prices, where the
    /// trip goes on across the roll.
    public var legs: Legs?

    /// A roll's two legs, in the instrument's price units.
    public struct Legs: Hashable, Sendable {
        /// The old month's price (the new month's open less the carry) and the new month's (the roll bar's open).
        public var closedAt: Price, openedAt: Price
        /// Account-currency units per unit of the instrument's currency at the roll (1 in one currency).
        public var rate: Double

        public init(closedAt: Price, openedAt: Price, rate: Double = 1) {
            self.closedAt = closedAt
            self.openedAt = openedAt
            self.rate = rate
        }
    }

    /// Creates a record.
    public init(
        symbol: Symbol, time: Timestamp, from: ContractMonth, to: ContractMonth, quantity: Quantity, cost: Money,
        legs: Legs? = nil
    ) {
        self.symbol = symbol
        self.time = time
        self.from = from
        self.to = to
        self.quantity = quantity
        self.cost = cost
        self.legs = legs
    }
}

/// Headline numbers of a backtest, typed (not a string dictionary).
public struct BacktestSummary: Hashable, Sendable, Codable {
    /// Bars processed.
    public var bars: Int
    /// Orders created (denied ones included).
    public var orders: Int
    /// Executions.
    public var fills: Int
    /// Closed round trips.
    public var closedTrades: Int
    /// Round trips open at the end.
    public var openTrades: Int
    /// Closed round trips with positive P&L before commission.
    public var winningTrades: Int
    /// Final equity to the cent, e.g. `103645.88`.
    public var finalEquity: String
    /// Total commission to the cent (`BacktestResult.commissionTotal`: open positions' fills and futures rolls included).
    public var commissions: String
    /// Largest drawdown of the equity curve in basis points.
    public var maxDrawdownBasisPoints: Int
    /// Orders denied by risk.
    public var deniedOrders: Int
    /// Orders completely filled.
    public var filledOrders: Int
    /// Orders canceled.
    public var canceledOrders: Int

    /// Creates a summary (regression tests spell out the expected values).
    public init(
        bars: Int, orders: Int, fills: Int, closedTrades: Int, openTrades: Int, winningTrades: Int,
        finalEquity: String, commissions: String, maxDrawdownBasisPoints: Int, deniedOrders: Int, filledOrders: Int,
        canceledOrders: Int
    ) {
        self.bars = bars
        self.orders = orders
        self.fills = fills
        self.closedTrades = closedTrades
        self.openTrades = openTrades
        self.winningTrades = winningTrades
        self.finalEquity = finalEquity
        self.commissions = commissions
        self.maxDrawdownBasisPoints = maxDrawdownBasisPoints
        self.deniedOrders = deniedOrders
        self.filledOrders = filledOrders
        self.canceledOrders = canceledOrders
    }
}

/// Deterministic hashing for regression fingerprints (Swift's `Hasher` is randomly seeded per process).
public enum StableHash {
    /// FNV-1a 64 of a string's UTF-8 bytes, as 16 lowercase hex digits.
    public static func fnv1a64Hex(_ text: String) -> String { fnv1a64Hex(bytes: text.utf8) }

    /// FNV-1a 64 of bytes, as 16 lowercase hex digits.
    @inlinable
    public static func fnv1a64Hex<Bytes: Sequence<UInt8>>(bytes: Bytes) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hex(hash)
    }

    /// A 64-bit hash as 16 lowercase hex digits.
    public static func hex(_ hash: UInt64) -> String {
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
