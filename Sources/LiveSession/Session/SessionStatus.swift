import TWSProtocol
import TradingModel

/// What a running bot shows its operator (the dashboard, `/api/status`, `ibtrader ctl status`, the metrics): a
/// snapshot the core makes on request. Numbers are plain JSON numbers (money in the account's currency), times
/// ISO-8601 text in UTC.
public struct SessionStatus: Sendable, Equatable, Codable {
    /// When the snapshot was taken (wall clock) and the data time of the latest bar.
    public var time = ""
    public var dataTime = ""
    public var account = ""
    /// `paper` (a DU account), `live`, or empty before the first connection.
    public var mode = ""
    public var strategy = ""
    /// connecting, starting, running, reconnecting, stopping, finished.
    public var phase = ""
    public var trading = Trading()
    public var connection = Connection()
    public var money = Figures()
    public var positions: [Position] = []
    /// The broker's positions in the universe that are not the bot's (another bot's, manual ones): listed, never
    /// traded (`orders.adoptExternalPositions: false`).
    public var externalPositions: [ExternalPosition] = []
    /// When the broker's positions were last looked at (data time; `nil`: not yet).
    public var brokerPositionsAt: String?
    public var orders: [WorkingOrder] = []
    /// The latest fills, newest first (20 at most).
    public var fills: [Fill] = []
    public var risk = Risk()
    public var counts = Counts()
    public var budgets = Budgets()
    public var latency = Latency()

    /// Creates an empty snapshot.
    public init() {}

    /// Whether the bot may open positions, and if not, why.
    public struct Trading: Sendable, Equatable, Codable {
        /// `active`, `entries paused` (exits go on), `no new orders` (kill switch or a pause of every order), or
        /// `halted` (a risk halt: daily loss, drawdown, rapid loss).
        public var state = "active"
        public var reasons: [String] = []
        /// When the operator last paused, killed or flattened.
        public var operatorSince: String?
        /// A flatten is under way.
        public var flattening = false
        public var killSwitch = false
        /// Symbols whose trading is halted by their exchange (`SYMBOL: a trading halt since …`).
        public var haltedSymbols: [String] = []
        public init() {}
    }

    public struct Connection: Sendable, Equatable, Codable {
        public var connected = false
        public var serverVersion = 0
        /// `connected`, or `interrupted` since a time (1100, until 1101 / 1102).
        public var ib = "connected"
        public var ibInterruptedSince: String?
        public var reconnects = 0
        /// The latest connection events, newest first: connects, closed sockets, 1100 / 1101 / 1102.
        public var history: [ConnectionEvent] = []
        public var farms: [Farm] = []
        /// Seconds since the gateway was last heard from.
        public var lastHeardSecondsAgo: Double?
        /// The latest round trip of a small request (reqCurrentTime, reqPositions), in milliseconds, and when.
        public var roundTripMilliseconds: Double?
        public var roundTripAt: String?
        /// When IB's nightly reset window next opens, and its next whole maintenance day (IB Gateway's weekly full
        /// logon), per `connection.resetWindow` / `resetDays`.
        public var nextNightlyReset: String?
        public var nextWeeklyLogon: String?
        /// IB's desupport warning for the gateway's build (2172), in words (`10.45.1, desupported by IB on 2026-12-15
        /// (in 16 days; IB's minimum then: 10.50.1)`), and the whole days left until its date (New York; 0 on the day,
        /// negative after it); both `nil` when TWS sent none (`DesupportWatch`).
        public var gatewayDesupport: String?
        public var gatewayDesupportDaysLeft: Int?
        /// Each symbol's market data: `live`, `frozen`, `delayed`, `delayed frozen` (its reqMktData line),
        /// `bars only` (no quote line: real-time bars, which are always live), or `silent` (its bar feed was found
        /// dead, `data.deadFeedAfter`, and has sent no bar since).
        public var marketData: [MarketDataLine] = []
        public init() {}
    }

    public struct ConnectionEvent: Sendable, Equatable, Codable {
        public var time = ""
        public var event = ""
        public init(time: String = "", event: String = "") {
            self.time = time
            self.event = event
        }
    }

    /// A fill: when (data time), what, and its commission, or `commissionPending` until IB's report arrives.
    public struct Fill: Sendable, Equatable, Codable {
        public var time = ""
        public var symbol = ""
        /// The contract's terms (a future's month, multiplier and local symbol; a pair's currency); `nil` for a stock.
        public var contract: ContractTerms?
        public var side = ""
        public var quantity = 0.0
        public var price = 0.0
        public var commission: Double?
        public var commissionPending = false
        public var orderRef = ""
        public var orderID: Int64 = 0
        public init() {}
    }

    public struct MarketDataLine: Sendable, Equatable, Codable {
        public var symbol = ""
        public var type = ""
        public init(symbol: String = "", type: String = "") {
            self.symbol = symbol
            self.type = type
        }
    }

    /// IB's budgets: the connection's (message rate, historical-data pacing; filled in by the runner, the core has
    /// no socket) and the market-data lines the core holds open.
    public struct Budgets: Sendable, Equatable, Codable {
        public var connection = TWSBudgets()
        /// reqMktData lines open (they count against the account's market-data lines) and real-time bar streams.
        public var marketDataLines = 0
        public var realTimeBarStreams = 0
        public init() {}
    }

    /// How long the bot's own steps take, as histograms (seconds): a bar's arrival to its orders written to the
    /// socket, and each journal write. Filled in by the runner.
    public struct Latency: Sendable, Equatable, Codable {
        public var barToOrder = LatencyHistogram()
        public var journalWrite = LatencyHistogram()
        public init() {}
    }

    public struct Farm: Sendable, Equatable, Codable {
        public var name = ""
        public var state = ""
        public var since = ""
        public init() {}
    }

    public struct Figures: Sendable, Equatable, Codable {
        public var equity = 0.0
        public var cash = 0.0
        public var realizedPnL = 0.0
        public var unrealizedPnL = 0.0
        public var commissions = 0.0
        public var grossExposure = 0.0
        /// Equity at the start of the (UTC) day, and the difference since.
        public var dayStartEquity: Double?
        public var todayPnL: Double?
        public var peakEquity: Double?
        /// Cash that has settled, with T+N settlement (`nil`: settled at once).
        public var settledCash: Double?
        /// Below the peak, in percent (0 at the peak).
        public var drawdownPercent: Double?
        /// Equity less the book's initial margin, with the margin rule on (`risk.initialMarginPercent`; `nil` off).
        public var buyingPower: Double?
        /// The account's currency (`strategy.currency`): every figure above is in it.
        public var currency: String?
        /// The balances in the other currencies the instruments are priced in (`nil`: one currency).
        public var balances: [Balance]?
        public init() {}
    }

    /// A balance in a currency other than the account's: amounts in it, and the rate the figures convert it at.
    public struct Balance: Sendable, Equatable, Codable {
        public var currency = ""
        public var cash = 0.0
        /// The carried value of the positions priced in it (a future's unrealized P&L).
        public var positionsValue = 0.0
        /// The account's currency per unit of it (the pair's latest price; 0 before the first).
        public var rate = 0.0
        public init() {}
    }

    public struct Position: Sendable, Equatable, Codable {
        public var symbol = ""
        /// The contract's terms as IB qualified it (a continuous future: the month it trades now); `nil` for a stock.
        public var contract: ContractTerms?
        public var quantity = 0.0
        public var averageCost = 0.0
        public var price = 0.0
        public var marketValue = 0.0
        public var unrealizedPnL = 0.0
        public var realizedPnL = 0.0
        /// The currency of `averageCost` and `price` when it is not the account's (market value and P&L are in the
        /// account's).
        public var currency: String?
        /// A working stop on the closing side covers the whole position.
        public var protected = false
        /// What the broker held at its last look (all holders; `nil` before the first look).
        public var brokerQuantity: Double?
        /// The position check confirmed a difference with the broker's book (`health.positionCheck`).
        public var agreesWithBroker = true
        /// The bot's quantity changed since that look (a fill): the broker's figure is older than the bot's.
        public var changedSinceBrokerLook = false
        public init() {}
    }

    public struct ExternalPosition: Sendable, Equatable, Codable {
        public var symbol = ""
        public var contract: ContractTerms?
        public var quantity = 0.0
        public init() {}
    }

    public struct WorkingOrder: Sendable, Equatable, Codable {
        public var orderRef = ""
        public var symbol = ""
        public var contract: ContractTerms?
        public var side = ""
        public var quantity = 0.0
        public var filled = 0.0
        public var type = ""
        public var state = ""
        public var ageSeconds = 0.0
        /// TWS's order id and permanent id (0 until TWS reported one).
        public var brokerOrderID = 0
        public var permID: Int64 = 0
        public init() {}
    }

    public struct Risk: Sendable, Equatable, Codable {
        public var limits: [Limit] = []
        public var halts: [String] = []
        public var denials = 0
        /// `denials` by the rule that denied them (`maxActivePositions`, `killSwitch`, …), for `/metrics`.
        public var denialsByRule: [String: Int] = [:]
        public var recentDenials: [Denial] = []
        public init() {}
    }

    /// A configured limit and how much of it is used now.
    public struct Limit: Sendable, Equatable, Codable {
        public var name = ""
        public var limit = 0.0
        public var used: Double?
        public var unit = ""
        /// Being at the limit is the design, not a warning (`maxActivePositions` of a strategy that holds that many):
        /// the dashboard marks it only when it is exceeded.
        public var fullIsNormal: Bool?
        public init(name: String = "", limit: Double = 0, used: Double? = nil, unit: String = "") {
            self.name = name
            self.limit = limit
            self.used = used
            self.unit = unit
        }
    }

    public struct Denial: Sendable, Equatable, Codable {
        public var time = ""
        public var symbol = ""
        public var rule = ""
        public var detail = ""
        public init(time: String = "", symbol: String = "", rule: String = "", detail: String = "") {
            self.time = time
            self.symbol = symbol
            self.rule = rule
            self.detail = detail
        }
    }

    public struct Counts: Sendable, Equatable, Codable {
        public var bars = 0
        public var fills = 0
        public var orders = 0
        public var positionChecks = 0
        /// Trading halts of traded symbols seen this run.
        public var halts = 0
        public init(bars: Int = 0, fills: Int = 0, orders: Int = 0, positionChecks: Int = 0, halts: Int = 0) {
            self.bars = bars
            self.fills = fills
            self.orders = orders
            self.positionChecks = positionChecks
            self.halts = halts
        }
    }
}
