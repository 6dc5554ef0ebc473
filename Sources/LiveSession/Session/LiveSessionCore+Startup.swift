import Logging
import JournalModel
import TWSProtocol
import TradingEngine
import TradingModel

// The start-up: account → contracts → their market rules → the broker's state → the run's namespace and the warm-up (with the journal's
// state beside them) → the restart reconciliation (LiveSessionCore+Restart.swift) → bars subscribed.
extension LiveSessionCore {
    /// A connection is ready: the first one starts the run, a later one ends a reconnect.
    mutating func connected(_ connection: SessionConnection, at now: Timestamp, _ out: inout Actions) {
        reconnect.attempting = false
        generation = connection.generation
        connected = true
        clientID = connection.clientID
        serverVersion = connection.info.serverVersion
        rememberConnection(
            "connected (server version \(serverVersion), \(TWSProtobufGates.framingDescription(serverVersion: serverVersion)), "
                + "client id \(clientID))", at: now)
        heard(at: now)
        heartbeat.probe = nil
        desk.seed(nextValidID: connection.info.nextValidOrderID)
        desk.defaultTimeZone = TWSTimeParser.loginZone(ofConnectionTime: connection.info.connectionTime) ?? TWSTimeParser.utc
        checkLoginZone(connection.info.connectionTime, &out)
        for report in connection.farms { farmReported(report, at: now, &out) }
        connectivity.desupport.connected(generation: connection.generation)
        switch phase {
        case .connecting:
            firstConnection(connection, at: now, &out)
        case .reconnecting:
            reconnected(at: now, &out)
        case .stopping:
            // A stop came while reconnecting: nothing left to do on this connection.
            out.append(.disconnect("stopping"))
        default:
            break
        }
    }

    /// TWS's login zone, named at the end of its connection time (`TWSTimeZoneName` reads IANA names,
    /// abbreviations and Windows names): an unknown name is an ALERT, a connection time naming none an info line;
    /// each said once per name, not again on every reconnect.
    private mutating func checkLoginZone(_ connectionTime: String, _ out: inout Actions) {
        guard TWSTimeParser.loginZone(ofConnectionTime: connectionTime) == nil else { return }
        let name = TWSTimeParser.loginZoneName(ofConnectionTime: connectionTime)
        guard desk.unknownLoginZonesSaid.insert(name ?? "").inserted else { return }
        guard let name else {
            return out.log(
                .info,
                "TWS's connection time \"\(connectionTime)\" names no time zone: a time TWS sends without one is read as UTC")
        }
        out.log(
            .warning,
            "ALERT: TWS names its time zone \"\(name)\" (connection time \"\(connectionTime)\"), which this system does not "
                + "know: times TWS sends without a zone are read as UTC, and an execution time naming it is recorded "
                + "with the time it was received. Fix: set the time zone in TWS's / IB Gateway's login window to an IANA "
                + "name such as America/New_York (or a Windows name), or report \"\(name)\" so it can be added")
    }

    private mutating func firstConnection(_ connection: SessionConnection, at now: Timestamp, _ out: inout Actions) {
        let info = connection.info
        out.log(
            .info,
            "connected: server version \(info.serverVersion) (\(TWSProtobufGates.framingDescription(serverVersion: info.serverVersion))), accounts \(info.accounts.joined(separator: ",")), client id \(connection.clientID)")
        do {
            account = try AccountRule.check(
                managed: info.accounts, configured: settings.account, confirmedLive: settings.confirmedLiveAccount)
        } catch {
            fail(error, &out)
            return
        }
        if settings.includeOvernight, info.serverVersion < TWSServerVersion.includeOvernight {
            // Its placeOrder has no field for it: every order would go out without the overnight session asked.
            fail(
                .startup(
                    "orders.includeOvernight needs TWS API server version \(TWSServerVersion.includeOvernight) or later; "
                        + "this TWS / IB Gateway speaks \(info.serverVersion): update it, or set orders.includeOvernight: false"),
                &out)
            return
        }
        out.log(.info, "trading account \(account)\(account.hasPrefix("DU") ? " (paper)" : " (LIVE, confirmed)")")
        desk.options.account = account
        phase = .starting
        startup.defersOrders = true
        if rolledIDs.isEmpty {
            qualifyContracts(&out)
        } else {
            // A continuous future trades its front month on the market's day, which the server's clock tells.
            _ = request(.serverTime, for: .frontMonthTime, &out)
        }
    }

    /// Asks for every instrument's contract details.
    mutating func qualifyContracts(_ out: inout Actions) {
        // A cancel's or modify's ticket session trades no symbol of its own: straight to the broker's state.
        if ids.isEmpty { return requestMarketRules(&out) }
        for id in ids {
            do {
                var contract = try desk.contracts.contract(for: id)
                // A manual order that names a contract month by IB's local symbol (`MESM6`) asks for it by that, as
                // TWS does.
                if let local = ticketRun?.ticket.localSymbol { contract.localSymbol = local }
                startup.qualifying.insert(id)
                _ = request(.contractDetails(contract), for: .contractDetails(id), &out)
            } catch {
                fail(.startup("contract of \(universe[id].symbol): \(error)"), &out)
                return
            }
        }
    }

    /// The run cannot start: the driver throws `error`.
    mutating func fail(_ error: LiveRunnerError, _ out: inout Actions) {
        phase = .finished
        out.append(.fail(error))
    }

    mutating func qualified(_ id: InstrumentID, _ details: [TWSContractDetails], _ out: inout Actions) {
        guard let first = details.first else {
            fail(.contractNotFound(universe[id].symbol), &out)
            return
        }
        if ticketRun != nil {
            guard details.count == 1 else {
                return fail(
                    .ticket(.contract("\(universe[id].symbol) is ambiguous (\(details.count) contracts); trade it from TWS")),
                    &out)
            }
            let minTick = first.minTick > 0 ? Price(checkedApproximately: first.minTick) : nil
            ticketRun?.ticks = ContractTicks(rule: nil, table: TickTable(minTick ?? .zero))
        }
        desk.contracts.qualify(id, as: first.contract)
        if first.minTick > 0, first.minTick.isFinite {
            // Order prices go on the contract's tick (IB rejects others with error 110), until its market rule says
            // how the tick depends on the price.
            engine.setTickSize(Price(approximately: first.minTick), for: id)
        }
        if let rule = first.marketRuleID(forExchange: "SMART") { startup.marketRules[id] = rule }
        if engine.sector(of: id).isEmpty, !first.industry.isEmpty {
            // No sector configured: IB's industry ("Technology", "Financial"), so the sector limit has buckets.
            engine.setSector(first.industry, for: id)
        }
        if aggregator.sessions.isEmpty {
            // The strategy's bars start at the open and a daily bar ends at the close (the first contract's hours).
            let hours = settings.outsideRegularTradingHours ? first.tradingHours : first.liquidHours
            aggregator.sessions = TradingHoursParser.sessions(hours, zoneID: first.timeZoneID)
            feedHours = TradingHoursParser.sessions(first.liquidHours, zoneID: first.timeZoneID)
            if !hours.isEmpty, TWSTimeZoneName.zone(named: first.timeZoneID) == nil {
                out.log(
                    .warning,
                    "the trading hours of \(universe[id].symbol) are in time zone \"\(first.timeZoneID)\" (contract "
                        + "details' timeZoneId), which this system does not know: read as UTC")
            }
        }
        startup.qualifying.remove(id)
        guard startup.qualifying.isEmpty else { return }
        out.log(.info, "qualified \(ids.count) contracts: \(settings.symbols.map(\.rawValue).joined(separator: ","))")
        if let text = conversionNote { out.log(.notice, text) }
        requestMarketRules(&out)
    }

    /// Every distinct market rule of the contracts, before the start-up goes on: the increments each order price is
    /// rounded with (US stocks: 0.0001 below $1, 0.01 from $1, where `minTick` says 0.01).
    private mutating func requestMarketRules(_ out: inout Actions) {
        let rules = Set(startup.marketRules.values).sorted()
        guard !rules.isEmpty else {
            askForBrokerState(&out)
            return
        }
        for rule in rules {
            startup.rulesPending.insert(rule)
            _ = request(.marketRule(rule), for: .marketRule(rule), &out)
        }
    }

    /// A market rule's bands: the table of every instrument under that rule.
    mutating func marketRuleAnswered(_ rule: Int, _ increments: [TWSPriceIncrement], _ out: inout Actions) {
        guard startup.rulesPending.remove(rule) != nil else { return }
        let instruments = ids.filter { startup.marketRules[$0] == rule }
        let symbols = instruments.map { universe[$0].symbol.rawValue }.joined(separator: ",")
        if let table = MarketRuleMapping.ticks(increments) {
            for id in instruments { engine.setTicks(table, for: id) }
            if ticketRun != nil { ticketRun?.ticks = ContractTicks(rule: rule, table: table) }
            out.log(.info, "market rule \(rule) of \(symbols): order prices on \(table)")
        } else {
            let bands = increments.map { "\($0.lowEdge) → \($0.increment)" }.joined(separator: ", ")
            out.log(
                .warning,
                "market rule \(rule) of \(symbols) is not usable (\(bands.isEmpty ? "no bands" : bands)): order prices stay "
                    + "on the minimum tick")
        }
        if startup.rulesPending.isEmpty { askForBrokerState(&out) }
    }

    /// A market rule that failed or went unanswered: its instruments keep their minimum tick.
    mutating func marketRuleFailed(_ rule: Int, _ failure: SessionFailure, _ out: inout Actions) {
        guard startup.rulesPending.remove(rule) != nil else { return }
        let symbols = ids.filter { startup.marketRules[$0] == rule }.map { universe[$0].symbol.rawValue }
        out.log(
            .warning,
            "market rule \(rule) of \(symbols.joined(separator: ",")) unavailable (\(failure)): order prices stay on the "
                + "minimum tick")
        if startup.rulesPending.isEmpty { askForBrokerState(&out) }
    }

    /// Contracts and their rules known: the market data type, then the broker's state.
    private mutating func askForBrokerState(_ out: inout Actions) {
        if let type = settings.marketDataType { out.append(.setMarketDataType(type)) }
        _ = request(.brokerState, for: .startupBrokerState, &out)
    }

    /// The broker's state before anything is sent: the namespace, the warm-up and the journal's state next.
    mutating func startupBrokerState(_ answers: BrokerAnswers, at now: Timestamp, _ out: inout Actions) {
        let (snapshot, unmapped) = SnapshotMapping.snapshot(answers, context: desk.mappingContext(receivedAt: inputTime))
        noteUnreadTimes(snapshot.executions, &out)
        // A ticket reads the broker's raw answers (every symbol's orders count in its risk check): another symbol's
        // item is expected there, not a warning.
        let level: Logger.Level = isTicketSession ? .debug : .warning
        for problem in unmapped { out.log(level, "unmapped broker item (left alone): \(problem)") }
        startup.snapshot = snapshot
        if !rolledIDs.isEmpty { recordMonthPositions(answers.positions, &out) }
        allocateNamespace(answers, at: now, &out)
        ticketRun?.look.answers = answers
        cancelRun?.answers = answers
        modifyRun?.look.answers = answers
        // A ticket's orderRef was checked against the journal before the session: nothing of a run to reconcile.
        if settings.journaled, !isTicketSession {
            startup.journalPending = true
            _ = request(
                .journalRestart(account: account, runKey: settings.runKey.fingerprint, day: dataTime.dayNumber),
                for: .journalBeforeReconciliation, &out)
        }
        warmUp(&out)
        continueStartup(at: now, &out)
    }

    /// The orderRef namespace of this run. With a journal: `IBT:R<run>:`, the run number allocated by the journal
    /// above every earlier run of it and above every run number the broker still shows in open or completed orders
    /// and executions. Without one: `IBT:T<epoch ms>-<pid>:`. A prefix other than `IBT:` is used as given.
    private mutating func allocateNamespace(_ answers: BrokerAnswers, at now: Timestamp, _ out: inout Actions) {
        guard settings.reference.prefix == OrderReference.base else {
            startup.namespaceReady = true
            return
        }
        guard settings.journaled else {
            let reference = OrderReference.unjournaledRun(
                epochMilliseconds: now.nanoseconds / 1_000_000, processID: settings.processID)
            desk.options.reference = reference
            out.log(.info, "orderRef namespace \(reference.prefix) (no journal)")
            startup.namespaceReady = true
            return
        }
        var refs = answers.openOrders.map(\.order.orderRef)
        refs += answers.completedOrders.map(\.order.orderRef)
        refs += answers.executions.map(\.execution.orderRef)
        let floor = RunNamespace.highestRun(in: refs) + 1
        _ = request(.beginRun(account: account, floor: floor, at: dataTime), for: .beginRun, &out)
    }

    mutating func runAllocated(_ run: JournalRun, _ out: inout Actions) {
        self.run = run
        let reference = OrderReference.run(run.number, bot: run.bot)
        desk.options.reference = reference
        out.log(.info, "run \(run.number): orderRefs \(reference.prefix)…")
        out.append(journalEvent(.lifecycle, "run \(run.number) started: orderRefs \(reference.prefix)"))
        startup.namespaceReady = true
    }

    /// Historical bars of the strategy's bar size per instrument, fed with the kill switch engaged once all are in.
    /// The server's time comes first: the history then ends at the last bar boundary before it, so every bar fed is
    /// complete and the live bars take over at the next bucket, with no bar twice and none missing.
    private mutating func warmUp(_ out: inout Actions) {
        startup.warmupStarted = true
        guard !settings.warmupDuration.isEmpty, stopping == nil else { return }
        startup.warmupPending += 1
        _ = request(.serverTime, for: .warmupTime, &out)
    }

    mutating func requestWarmup(serverNow: Timestamp?, _ out: inout Actions) {
        startup.warmupPending -= 1
        defer { continueStartup(at: inputTime, &out) }
        guard stopping == nil else { return }
        var end: Timestamp?
        if let serverNow, let size = BarSize(settings.warmupBarSize), !size.isDailyOrLonger {
            let length = size.nominalSeconds * Timestamp.nanosecondsPerSecond
            end = Timestamp(nanoseconds: serverNow.nanoseconds - ((serverNow.nanoseconds % length) + length) % length)
        } else {
            end = serverNow
        }
        startup.warmupEnd = end
        let windowEnd = end.map(warmupWindowEnd)
        for id in ids {
            guard let contract = try? desk.contracts.contract(for: id) else { continue }
            var query = TWSHistoricalBarsQuery(
                contract: contract, duration: settings.warmupDuration, barSize: settings.warmupBarSize)
            query.whatToShow = settings.whatToShow(for: contract)
            query.useRTH = !settings.outsideRegularTradingHours  // as the live bars
            if let windowEnd {
                query.endDateTime = BackfillPlan.Request(end: windowEnd, duration: settings.warmupDuration).endDateTime
                query.formatDate = 2  // epoch seconds: no bar read in TWS's login time zone
            }
            startup.warmupPending += 1
            _ = request(.historicalBars(query), for: .warmup(id), &out)
            if let windowEnd { requestMonthLeft(id, like: query, windowEnd: windowEnd, &out) }
        }
    }

    /// Where the warm-up's window ends: at `end`, or, trading regular hours only and started outside them (the
    /// contract's `liquidHours` hold no session around `end`), at the last regular close before it. IB answers a
    /// regular-hours window before the open with 162 "no data", so a bot started in the pre-market, at night or on a
    /// weekend would start cold, where a backtest of the same start has the previous session behind it.
    func warmupWindowEnd(_ end: Timestamp) -> Timestamp {
        guard !settings.outsideRegularTradingHours, let known = feedHours.knownDays else { return end }
        let inside = (known.lowerBound - 1...known.upperBound).contains { day in
            feedHours[day].map { $0.open <= end && end < $0.close } ?? false
        }
        guard !inside else { return end }
        var day = USEquityCalendar.newYorkDay(of: end)
        for _ in 0..<15 {
            if let regular = USEquityCalendar.sessions(onDay: day).first(where: { $0.kind == .regular }),
                regular.close <= end
            {
                return regular.close
            }
            day -= 1
        }
        return end
    }

    mutating func warmupBars(_ id: InstrumentID, _ wire: [TWSBar], _ out: inout Actions) {
        startup.warmupPending -= 1
        var bars: [Bar] = []
        for item in wire {
            do { bars.append(try BarMapping.bar(item)) } catch {
                out.log(.warning, "warm-up bar of \(universe[id].symbol) dropped: \(error)")
            }
        }
        if let end = startup.warmupEnd {
            // Only complete bars: one still forming at the server's time is the live feed's.
            bars.removeAll { barEnd($0.timestamp) > end }
        } else if !bars.isEmpty {
            bars.removeLast()  // without the server's time, the last bar may contain "now"
        }
        for bar in bars { startup.warmupBars.append((bar.timestamp, id, bar)) }
    }

    /// When the strategy's bar labelled `start` ends: a daily bar at the end of its trading day (`TradingDay`: 17:00
    /// New York for a pair or a future, whose IB daily bar is named by the date it closes on), or at the session
    /// close inside the day when known.
    func barEnd(_ start: Timestamp) -> Timestamp {
        guard BarSize(settings.warmupBarSize) != nil else { return start }
        return aggregator.end(ofBarLabelled: start)
    }

    /// Moves the start-up on once everything it waits for is in.
    mutating func continueStartup(at now: Timestamp, _ out: inout Actions) {
        guard case .starting = phase, startup.snapshot != nil, startup.namespaceReady, startup.warmupStarted,
            startup.warmupPending == 0, !startup.journalPending, startup.restart == nil
        else { return }
        feedWarmup(&out)
        if isTicketSession { return finishStartup(at: now, &out) }
        beginRestart(at: now, &out)  // LiveSessionCore+Restart.swift; ends in `finishStartup`
    }

    private mutating func feedWarmup(_ out: inout Actions) {
        if startup.warmupCutShort {
            // Stopping: a partial warm-up is not fed (the engine would see some instruments' history only).
            out.log(.notice, "warm-up cut short: \(stopping?.reason ?? "stopping")")
            startup.warmupBars = []
            startup.monthsLeft = [:]
        }
        spliceMonthsLeft(&out)
        var all = startup.warmupBars
        startup.warmupBars = []
        all.sort { $0.0 == $1.0 ? $0.1.index < $1.1.index : $0.0 < $1.0 }
        _ = engine.handle(.killSwitch(engaged: true))
        var k = 0
        while k < all.count {
            _ = engine.handle(.bar(all[k].1, all[k].2))
            rewarm?.history.append((all[k].1, all[k].2))
            out.append(.engineEvent(.bar(all[k].1, all[k].2), ordersInFlight: engine.orders.inFlightCount))
            k += 1
            if k == all.count || all[k].0 != all[k - 1].0 {
                _ = engine.handle(.barsClosed(all[k - 1].0))
                out.append(.engineEvent(.barsClosed(all[k - 1].0), ordersInFlight: engine.orders.inFlightCount))
            }
        }
        _ = engine.handle(.killSwitch(engaged: false))
        counts.warmupBars = all.count
        counts.denialsAtStart = engine.denials.count
        denialsLogged = engine.denials.count
        adjustmentsLogged = engine.adjustments.count
        for entry in all { lastBarTime[entry.1.index] = entry.0 }
        if let last = all.last?.0 {
            lastClosed = last
            dataTime = last  // data time from here on (the replay clock against the simulator)
            dataTimeFromBars = true
        }
        if !startup.warmupCutShort, !settings.warmupDuration.isEmpty {
            out.log(
                .info,
                "warmed up on \(all.count) historical bars (\(settings.warmupBarSize), \(settings.warmupDuration))")
        }
    }

    /// After the restart reconciliation: the order messages that waited, then trading (or the stop).
    mutating func finishStartup(at now: Timestamp, _ out: inout Actions) {
        startup.defersOrders = false
        let waiting = deferredOrders
        deferredOrders = []
        for event in waiting { orderEvent(event, &out) }
        nextExecutionSync = now + settings.summaryInterval
        executionSyncFrom = now
        positionCheck.nextAt = settings.positionCheck?.interval.map { now + $0 }
        if stopping != nil {
            phase = .stopping
            beginStop(at: now, &out)
            return
        }
        phase = .running
        if ticketRun != nil { return beginTicket(at: now, &out) }
        if cancelRun != nil { return beginCancel(&out) }
        if modifyRun != nil { return beginModify(&out) }
        subscribe(newFeed: false, at: now, &out)
    }
}

extension LiveSessionCore {
    /// How an account in one currency values instruments priced in others, said once at the start (`nil`: one
    /// currency): each currency's pair and whether it is in the universe or watched for its rate alone.
    var conversionNote: String? {
        let conversion = engine.portfolio.conversion
        guard !conversion.isSingleCurrency else { return nil }
        let rates = conversion.currencies.map { currency -> String in
            guard let source = conversion.rateSource(of: currency) else { return "\(currency): no pair, no rate" }
            let pair = universe.instruments[source.instrument].symbol.rawValue
            let watched = settings.engine.rateOnlySymbols.contains(pair) ? ", watched for its rate alone" : ""
            return "\(currency) at \(source.inverted ? "1 / " : "")\(pair)\(watched)"
        }
        return "account in \(conversion.accountCurrency): equity, cash, P&L and limits in \(conversion.accountCurrency); "
            + rates.joined(separator: "; ")
    }
}
