import Testing
import TraderConfig

/// A typo anywhere is an error naming the file, line and column with a suggestion; out-of-range values name the
/// allowed range; the same from files, the environment and flags.
@Suite struct StrictValidationTests {
    @Test(arguments: [
        ("strategy:\n  name: sma-cross\n  parameters:\n    fast: 3\n    slowPeriodz: 8\n", "strategy.parameters.fast", 4, "fastPeriod"),
        ("strategy:\n  name: momentum\n  parameters:\n    lookbak: 20\n", "strategy.parameters.lookbak", 4, "lookback"),
        ("risk:\n  maxPositons: 2\n", "risk.maxPositons", 2, "maxActivePositions"),
        ("conection:\n  port: 4002\n", "conection", 1, "connection"),
        ("connection:\n  prot: 4002\n", "connection.prot", 2, "port"),
        ("strategy:\n  nmae: rsi\n", "strategy.nmae", 2, "name"),
    ])
    func unknownKeysAtAnyDepth(yaml: String, key: String, line: Int, suggestion: String) throws {
        let fixture = try ConfigFixture(yaml)
        let error = try #require(fixture.error())
        #expect(error.key == key)
        guard case .file(let path, let errorLine, let column)? = error.origin else {
            Issue.record("no file origin: \(error)")
            return
        }
        #expect(path == fixture.path && errorLine == line && column >= 1)
        #expect(error.message.contains("did you mean '\(suggestion)'?"), "\(error)")
        #expect(error.description.hasPrefix("\(fixture.path):\(line):"))
    }

    @Test(arguments: [
        ("connection: {port: 70000}", "connection.port", "from 1 to 65535"),
        ("connection: {port: 0}", "connection.port", "from 1 to 65535"),
        ("strategy: {cash: 1e30}", "strategy.cash", "at most 10000000000"),
        ("strategy: {cash: 0}", "strategy.cash", "above 0"),
        ("orders: {timeout: 1e300}", "orders.timeout", "1s to 30d"),
        ("orders: {resendMaxAge: 1e300}", "orders.resendMaxAge", "0ms to 7d"),
        ("connection: {gracePeriod: 1e300}", "connection.gracePeriod", "0ms to 1d"),
        ("connection: {heartbeat: 1e300}", "connection.heartbeat", "0ms to 1h"),
        ("connection: {heartbeatTimeout: 1e300}", "connection.heartbeatTimeout", "1s to 10m"),
        ("data: {maxBackfill: 1e300}", "data.maxBackfill", "1s to 30d"),
        ("logging: {summaryInterval: 1e300}", "logging.summaryInterval", "1s to 1d"),
        ("logging: {maxSize: 10 parsecs}", "logging.maxSize", "a size from 10 KB to 10 GB (500 KB, 10 MB, 1 GB)"),
        ("logging: {maxSize: 1 TB}", "logging.maxSize", "a size from 10 KB"),
        ("logging: {keep: 0}", "logging.keep", "from 1 to 100"),
        ("risk: {maxPositionPercentOfEquity: -10}", "risk.maxPositionPercentOfEquity", "above 0"),
        ("risk: {maxPositionPercentOfEquity: .nan}", "risk.maxPositionPercentOfEquity", "above 0"),
        ("risk: {maxPositionPercentOfEquity: 1000}", "risk.maxPositionPercentOfEquity", "allowLeverage"),
        ("risk: {maxGrossExposureRatio: 2}", "risk.maxGrossExposureRatio", "allowLeverage"),
        ("risk: {maxDrawdownPercent: 150}", "risk.maxDrawdownPercent", "at most 100"),
        ("strategy: {parameters: {investedFraction: 5}}", "strategy.parameters.investedFraction", "allowLeverage"),
        ("strategy: {parameters: {lookback: 0}}", "strategy.parameters.lookback", "from 1 to 10000"),
        ("strategy: {parameters: {lookback: -5}}", "strategy.parameters.lookback", "from 1 to 10000"),
        ("strategy: {parameters: {holdings: 0}}", "strategy.parameters.holdings", "from 1 to 1000"),
        ("strategy: {name: sma-cross, parameters: {slowPeriod: 999999999999}}", "strategy.parameters.slowPeriod", "10000"),
        ("strategy: {name: sma-cross, parameters: {fastPeriod: 30, slowPeriod: 10}}", "strategy.parameters.slowPeriod", "above fastPeriod"),
        ("strategy: {name: rsi, parameters: {oversold: 80}}", "strategy.parameters.oversold", "below overbought"),
        ("data: {warmup: abc}", "data.warmup", "duration"),
        ("data: {barSize: 7 secs}", "data.barSize", "not a bar size TWS accepts"),
        ("data: {barSize: 1 secs, warmup: 1 D}", "data.warmup", "at least 1m"),
        ("data: {warmup: 200000 S}", "data.warmup", "86400 S"),
        ("health: {stuckLoopTimeout: 1s}", "health.stuckLoopTimeout", "at least 2s"),
        ("backtest: {start: 0001-01-01}", "backtest.start", "1970-01-01"),
        ("backtest: {start: 2020-02-30}", "backtest.start", "YYYY-MM-DD"),
        ("backtest: {start: 2020-01-01, end: 2019-01-01}", "backtest.end", "before start"),
        ("backtest: {commission: percent:500}", "backtest.commission", "0 to 100"),
        ("universe: {symbols: [AAPL, AAPL]}", "universe.symbols", "listed twice"),
        ("risk: {volatilitySymbol: VIX}", "risk.volatilitySymbol", "volatilityThreshold"),
        ("risk: {rapidLossPercent: 5}", "risk.rapidLossPercent", "rapidLossWindow"),
        ("logging: {level: loud}", "logging.level", "one of trace"),
        ("universe: {sectors: [AAPL]}", "universe.sectors", "a mapping of symbols to sector names"),
        ("universe: {sectors: {AAPL: ''}}", "universe.sectors.AAPL", "expected a sector name"),
        ("universe: {sectors: {'AA PL!': Tech}}", "universe.sectors.AA PL!", "not a symbol"),
        ("health: {positionCheck: 1s}", "health.positionCheck", "10s to 1d"),
        ("health: {positionMismatch: ignore}", "health.positionMismatch", "pause"),
        ("risk: {whatIfMaxMarginPercent: 50}", "risk.whatIfMaxMarginPercent", "needs risk.whatIf: true"),
        ("risk: {maxCorrelation: 1.5}", "risk.maxCorrelation", "-0.99 to 0.99"),
        ("risk: {correlationWindow: 30}", "risk.correlationWindow", "needs risk.maxCorrelation"),
        ("risk: {maintenanceMarginPercent: 30}", "risk.maintenanceMarginPercent", "needs risk.initialMarginPercent"),
        ("risk: {initialMarginPercent: 30, maintenanceMarginPercent: 40}", "risk.maintenanceMarginPercent", "at most risk.initialMarginPercent"),
        ("risk: {initialMarginPercent: 50, marginPercentBySymbol: {TSLA: 300}}", "risk.marginPercentBySymbol.TSLA", "at most 100"),
        ("risk: {initialMarginPercent: 50, marginPercentBySymbol: [TSLA]}", "risk.marginPercentBySymbol", "a mapping of symbols"),
        ("orders: {entry: limt}", "orders.entry", "one of market"),
        ("orders: {entry: limit, limitOffset: 2}", "orders.limitOffset", "N ticks or N bps"),
        ("orders: {entry: limit, limitOffset: 1.5 ticks}", "orders.limitOffset", "N ticks or N bps"),
        ("orders: {limitOffset: 2 ticks}", "orders.limitOffset", "applies only with orders.entry: limit"),
        ("orders: {entry: market, timeout: 30s, onTimeout: reprice}", "orders.onTimeout", "needs orders.entry: limit"),
        ("orders: {entry: limit, onTimeout: reprice}", "orders.onTimeout", "needs orders.timeout"),
        ("orders: {entry: limit, timeout: 30s, reprices: 3}", "orders.reprices", "applies only with orders.onTimeout: reprice"),
        ("orders: {entry: limit, timeout: 30s, onTimeout: reprice, repriceStep: -1 tick}", "orders.repriceStep", "above zero"),
        ("orders: {entry: limit, timeout: 30s, onTimeout: reprice, reprices: 0}", "orders.reprices", "from 1 to 20"),
        ("orders: {adaptivePriority: patient}", "orders.adaptivePriority", "applies only with orders.entry: adaptive"),
        ("orders: {midpriceCap: 5 bps}", "orders.midpriceCap", "applies only with orders.entry: midprice"),
        ("orders: {stopOffset: 5 bps}", "orders.stopOffset", "applies only with orders.entry: stop"),
        ("orders: {entry: trailing, trailOffset: -1 tick}", "orders.trailOffset", "above zero"),
        ("orders: {entry: stop, trailOffset: 1 tick}", "orders.trailOffset", "applies only with orders.entry: trailing"),
        ("orders: {entry: midprice, limitFrom: ask}", "orders.limitFrom", "midprice with orders.midpriceCap"),
        ("orders: {entry: midprice, midpriceCap: 5 percent}", "orders.midpriceCap", "N ticks or N bps"),
        ("orders: {entryTimeInForce: gtd}", "orders.entryTimeInForce", "needs orders.goodFor"),
        ("orders: {goodFor: 1h}", "orders.goodFor", "applies only with orders.entryTimeInForce: gtd"),
        ("orders: {entry: limit, entryTimeInForce: ioc, timeout: 30s, onTimeout: market}", "orders.onTimeout", "IOC"),
        ("backtest: {adaptiveSlippage: fast}", "backtest.adaptiveSlippage", "bps:N"),
        ("alerts: {routes: {fil: [webhook]}}", "alerts.routes.fil", "did you mean 'fill'?"),
        ("alerts: {routes: {fill: [pager]}}", "alerts.routes.fill", "is not a channel; use webhook, telegram, sms, email"),
        ("alerts: {routes: [webhook]}", "alerts.routes", "a mapping of alert kinds"),
        ("alerts: {dailyReportAt: 25:00}", "alerts.dailyReportAt", "a time of day HH:MM"),
    ])
    func valuesOutOfRange(yaml: String, key: String, allowed: String) throws {
        let error = try #require(loadError(yaml), "\(yaml) loaded")
        #expect(error.key == key, "\(error)")
        #expect(error.message.contains(allowed), "\(error)")
    }

    @Test func sectorsAndThePositionCheckAsAPersonWritesThem() throws {
        let loaded = try load("""
            universe: {symbols: [AAPL, XOM], sectors: {AAPL: Technology, xom: Energy}}
            health: {positionCheck: none, positionMismatch: alert}
            """)
        #expect(loaded.settings.universe.sectors == ["AAPL": "Technology", "XOM": "Energy"])
        #expect(loaded.settings.health.positionCheck == nil)
        #expect(loaded.settings.health.positionMismatch == "alert")
        #expect(try load("{}").settings.health.positionCheck == .seconds(300))
    }

    @Test func executionStyleAsAPersonWritesIt() throws {
        let loaded = try load("""
            orders: {entry: limit, limitOffset: -2 ticks, limitFrom: bid, timeout: 30s, onTimeout: reprice, reprices: 2,
                     repriceStep: 5 bps, afterReprices: market, entryTimeInForce: day}
            """)
        let style = try #require(loaded.settings.orders.executionStyle)
        #expect(style.entry == .limit(offset: .ticks(-2), from: .bid))
        #expect(style.timeout == .seconds(30) && style.onTimeout == .reprice && style.reprices == 2)
        #expect(style.repriceStep == .basisPoints(5) && style.afterReprices == .market && style.timeInForce == .day)
        #expect(style.summary == "limit entries -2 ticks from bid, DAY, repriced 2× by 5 bps every 30s, then sent at market")
        let adaptive = try load("orders: {entry: adaptive, adaptivePriority: patient}").settings.orders.executionStyle
        #expect(adaptive?.entry == .adaptive(.patient))
        #expect(try load("orders: {timeout: 2m}").settings.orders.executionStyle == .timeout(.seconds(120)))
        let capped = try #require(try load("orders: {entry: midprice, midpriceCap: 5 bps, limitFrom: ask}").settings.orders.executionStyle)
        #expect(capped.entry == .midprice(cap: .basisPoints(5), from: .ask))
        #expect(capped.summary == "midprice entries capped 5 bps from ask")
        #expect(try load("orders: {entry: midprice}").settings.orders.executionStyle?.entry == .midprice())
        #expect(try load("orders: {entry: stop, stopOffset: 5 bps}").settings.orders.executionStyle?.entry == .stop(offset: .basisPoints(5)))
        #expect(try load("orders: {entry: trailing}").settings.orders.executionStyle?.entry == .trailing(trail: .basisPoints(50)))
        #expect(try load("{}").settings.orders.executionStyle == nil, "no style: the strategy's orders as they are")
    }

    @Test func leverageNeedsAllowLeverage() throws {
        let loaded = try load("""
            risk: {allowLeverage: true, maxGrossExposureRatio: 2, maxPositionPercentOfEquity: 150}
            strategy: {parameters: {investedFraction: 1.5}}
            """)
        #expect(loaded.settings.risk.limits.maxGrossExposureRatio == 2)
    }

    @Test func theSameChecksApplyToTheEnvironment() throws {
        let error = try #require(loadError("", environment: ["IBTRADER_CONNECTION_PORT": "70000"]))
        #expect(error.description == "IBTRADER_CONNECTION_PORT (environment): connection.port: must be an integer from 1 to 65535, got '70000'")
        let typo = try #require(loadError("", environment: ["IBTRADER_CONNECTION_PROT": "4002"]))
        #expect(typo.message.contains("did you mean IBTRADER_CONNECTION_PORT (connection.port)?"), "\(typo)")
    }

    @Test func theSameChecksApplyToFlags() throws {
        let error = try #require(loadError("", flags: [.init(path: "connection.port", value: "70000", flag: "--port")]))
        #expect(error.description == "--port: connection.port: must be an integer from 1 to 65535, got '70000'")
        let slow = try #require(loadError(
            "strategy: {name: sma-cross}", flags: [.init(path: "strategy.parameters.slowPeriod", value: "999999999999", flag: "--slow-period")]))
        #expect(slow.description.hasPrefix("--slow-period: strategy.parameters.slowPeriod: must be an integer from 2 to 10000"))
    }

    @Test func syntaxErrorsNameTheLine() throws {
        let fixture = try ConfigFixture("connection:\n  port: [4002\n")
        let error = try #require(fixture.error())
        #expect(error.description.hasPrefix("\(fixture.path):"))
        #expect(error.message.hasPrefix("not valid YAML"))
    }

    @Test func duplicateKeysAreRefused() throws {
        let error = try #require(loadError("connection:\n  port: 1\n  port: 2\n"))
        #expect(error.message.contains("'port' is written twice"), "\(error)")
    }

    @Test func aliasBombsAreRefusedWithoutWalkingThem() throws {
        var yaml = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...7 { yaml += "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]\n" }
        let error = try #require(loadError(yaml))
        #expect(error.message.contains("aliases"), "\(error)")
    }

    @Test func theTopLevelMustBeAMapping() throws {
        let error = try #require(loadError("- a\n- b\n"))
        #expect(error.message.contains("top level must be a mapping"))
    }

    @Test func runNeedsSymbols() throws {
        let loaded = try load("strategy: {name: momentum}")
        #expect(throws: ConfigError.self) { try loaded.settings.checkRunnable(record: loaded.record) }
    }

    /// The bot trades contract months, pairs and continuous futures (rolled from month to month).
    @Test func runTradesContractMonthsPairsAndContinuousFutures() throws {
        let months = try load("strategy: {name: sma-cross}\nuniverse: {symbols: [AAPL, ES 2026-12, EUR.USD]}")
        try months.settings.checkRunnable(record: months.record)
        let rolled = try load("strategy: {name: sma-cross}\nuniverse: {symbols: [AAPL, ES continuous]}")
        try rolled.settings.checkRunnable(record: rolled.record)
        let stocks = try load("strategy: {name: sma-cross}\nuniverse: {symbols: [AAPL, BRK B]}")
        try stocks.settings.checkRunnable(record: stocks.record)
        let byVolume = try load("strategy: {name: sma-cross}\nuniverse: {symbols: [ES continuous]}\nbacktest: {futuresRollBy: volume}")
        try byVolume.settings.checkRunnable(record: byVolume.record)
    }

    /// An account in another currency, or instruments priced in one, run live: a currency no pair of the universe
    /// converts gets the pair IDEALPRO lists (EUR.USD, never USD.EUR; USD.JPY; EUR.GBP), subscribed for its rate.
    @Test func runConvertsWithThePairsItAddsForTheirRates() throws {
        let euros = try load("strategy: {name: sma-cross, currency: EUR}\nuniverse: {symbols: [ES continuous, EUR.USD]}")
        #expect(euros.settings.strategy.currency == "EUR")
        try euros.settings.checkRunnable(record: euros.record)
        #expect(euros.settings.ratePairs.isEmpty)  // EUR.USD is in the universe: its closes are the rate
        let futures = try load("strategy: {name: sma-cross, currency: EUR}\nuniverse: {symbols: [ES continuous, AAPL]}")
        #expect(futures.settings.ratePairs == ["EUR.USD"])
        let yen = try load("strategy: {name: sma-cross}\nuniverse: {symbols: [AAPL, EUR.JPY, 6E continuous]}")
        try yen.settings.checkRunnable(record: yen.record)
        #expect(yen.settings.ratePairs == ["USD.JPY"])
        let pounds = try load("strategy: {name: sma-cross, currency: GBP}\nuniverse: {symbols: [EUR.CHF, USD.JPY]}")
        #expect(pounds.settings.ratePairs == ["GBP.CHF", "GBP.JPY"])
        let dollars = try load("strategy: {name: sma-cross}\nuniverse: {symbols: [AAPL, ES continuous, EUR.USD]}")
        #expect(dollars.settings.ratePairs.isEmpty)
        #expect(loadError("strategy: {currency: eur}")?.message.contains("must be one of AUD, CAD") == true)
    }
}
