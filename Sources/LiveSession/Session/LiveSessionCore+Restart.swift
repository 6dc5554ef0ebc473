import JournalModel
import TradingEngine
import TradingModel

// The restart reconciliation, after the warm-up (its kill switch cannot cancel what is adopted), before the first
// live bar: `Reconciler` over the journal's intents and the broker's state, its decisions journaled, the broker's
// executions journaled once each, then — after the journal has them — positions, cash, realized P&L, the risk
// baseline and the day's order-efficiency counts restored, our open orders adopted, unknown ones handled, unsent
// intents sent once, and a roll cut short taken up (docs/live-trading.md, start-up step 5).
extension LiveSessionCore {
    mutating func beginRestart(at now: Timestamp, _ out: inout Actions) {
        guard let snapshot = startup.snapshot else { return }
        let plan = startup.journal.map { reconcile($0, snapshot, &out) }
        if settings.journaled { out.append(.journal(.executions(snapshot, at: dataTime))) }
        out.log(
            .info,
            "broker state: \(snapshot.openOrders.count) open orders, \(snapshot.completedOrders.count) completed, "
                + "\(snapshot.executions.count) executions, \(snapshot.positions.count) positions")
        guard settings.journaled else {
            // Without a journal nothing shows which positions are the bot's: only an adopting run takes any.
            restorePositions(snapshot, book: settings.adoptsExternalPositions ? nil : [:], costs: [], &out)
            desk.noteReconciled(executionIDs: snapshot.executions.map(\.executionID), at: dataTime)
            finishStartup(at: now, &out)
            return
        }
        // The cash restore counts the fills journaled since the last checkpoint, those just journaled from the
        // broker's list included: read the journal again once they are in.
        startup.restart = plan ?? RestartPlan(plan: ReconciliationPlan(resolutions: [], sendGroups: [], alerts: []), intents: [])
        _ = request(
            .journalRestart(account: account, runKey: settings.runKey.fingerprint, day: dataTime.dayNumber),
            for: .journalAfterReconciliation, &out)
    }

    /// The second journal read is in: the rest of the restart.
    mutating func completeRestart(_ journal: JournalRestartData, at now: Timestamp, _ out: inout Actions) {
        guard let snapshot = startup.snapshot, let restart = startup.restart else { return }
        let before = startup.journal ?? journal
        // The bot's book: its positions at its last start and its own fills since, the broker's list included.
        let bot = run?.bot
        let ownFills = journal.fills.filter { OwnedPositions.isOwn($0.orderRef?.rawValue, bot: bot) }
        let book = OwnedPositions.book(
            checkpoint: before.cashCheckpoint, fills: journal.fills, account: account,
            isOwn: { OwnedPositions.isOwn($0, bot: bot) })
        restorePositions(snapshot, book: settings.adoptsExternalPositions ? nil : book, costs: ownFills, &out)
        restoreCash(snapshot, journal: journal, checkpoint: before, &out)
        restoreOrderEfficiency(journal, &out)
        desk.noteReconciled(executionIDs: snapshot.executions.map(\.executionID), at: dataTime)
        adoptOpenOrders(restart, snapshot: snapshot, &out)
        handleUnknownOrders(restart, snapshot: snapshot, &out)
        resendUnsent(restart, &out)
        resumeRolls(journal, &out)
        finishStartup(at: now, &out)
    }

    /// Runs the reconciler and journals what it decided (final states, abandonments, events, alerts).
    private func reconcile(_ journal: JournalRestartData, _ snapshot: BrokerSnapshot, _ out: inout Actions)
        -> RestartPlan
    {
        var instruments: [Symbol: InstrumentID] = [:]
        for id in ids { instruments[universe[id].symbol] = id }
        var executionIDs: [String: Set<String>] = [:]
        for fill in journal.fills {
            if let ref = fill.orderRef?.rawValue { executionIDs[ref, default: []].insert(fill.execID) }
        }
        var intents: [JournaledIntent] = []
        for row in journal.orders {
            guard let id = instruments[row.intent.symbol] else {
                if !row.state.isTerminal {
                    out.log(
                        .warning,
                        "journal intent \(row.intent.orderRef) of \(row.intent.symbol) (not in the universe) left alone")
                }
                continue
            }
            let ref = row.intent.orderRef.rawValue
            var request = OrderRequest(
                instrument: id, side: row.intent.side, quantity: row.intent.quantity, type: row.intent.type,
                timeInForce: row.intent.timeInForce)
            request.execution = row.intent.execution
            var intent = JournaledIntent(
                orderRef: ref,
                request: request,
                lastKnownState: Self.intentState(row.state), brokerOrderID: row.brokerOrderID.map { Int($0) },
                permID: row.permID, parentOrderRef: row.intent.parentRef?.rawValue,
                recordedExecutionIDs: executionIDs[ref] ?? [], createdAt: row.intent.createdAt)
            intent.modifications = row.modifications ?? 0
            intents.append(intent)
        }
        var believed: [InstrumentID: Quantity] = [:]
        for position in journal.latestPositions {
            if let id = instruments[position.symbol] { believed[id] = position.quantity }
        }
        // Orders in this bot's namespace (every run of its journal) are its own; another bot's are not.
        let prefix = settings.reference.prefix
        let base = prefix.hasPrefix(OrderReference.base) ? OrderReference.bot(run?.bot) : OrderReference(prefix: prefix)
        // A pair watched for its rate alone is the account's balance in a currency, never the bot's position.
        var broker = snapshot
        for id in ids where isWatchedOnly(id) { broker.positions[id] = nil }
        let plan = Reconciler.reconcile(
            ReconciliationInput(
                intents: intents, broker: broker, internalPositions: believed, reference: base, now: dataTime,
                resendPolicy: settings.resendPolicy))
        for resolution in plan.resolutions {
            var final: OrderState?
            let text: String
            switch resolution.action {
            case .unchanged: continue
            case .markFilled:
                final = .filled
                text = "filled at the broker"
            case .markCancelled(let filled):
                final = .canceled
                text = "cancelled at the broker after \(filled) filled"
            case .markRejected:
                final = .rejected
                text = "rejected at the broker"
            case .adopt(let brokerOrderID, _, let status):
                text = "open at the broker (id \(brokerOrderID), \(status)): adopted"
            case .send:
                text = "never reached the broker: sending it once under its orderRef"
            case .abandon(let reason):
                final = .canceled
                text = "never reached the broker, abandoned: \(reason)"
            case .flag(let reason):
                text = "needs attention: \(reason)"
            }
            out.log(.warning, "reconciliation: \(resolution.orderRef): \(text)")
            if let final {
                var update = JournalStatusUpdate(orderRef: ClientOrderID(resolution.orderRef), state: final, time: dataTime)
                update.message = "reconciled at start: \(text)"
                out.append(.journal(.status(update)))
            }
            out.append(journalEvent(.reconciliation, "\(resolution.orderRef): \(text)"))
        }
        let universe = universe
        for alert in plan.alerts {
            let text = alert.text { $0.index >= 0 && $0.index < universe.count ? universe[$0].symbol.rawValue : "#\($0.rawValue)" }
            out.log(.warning, "reconciliation alert: \(text)")
            out.append(journalEvent(.reconciliation, "alert: \(text)"))
        }
        return RestartPlan(plan: plan, intents: intents)
    }

    static func intentState(_ state: OrderState) -> IntentState {
        switch state {
        case .pendingSubmit: .journaled
        case .submitted: .sent
        case .accepted, .pendingCancel, .pendingReplace: .working
        case .partiallyFilled: .partiallyFilled
        case .filled: .filled
        case .canceled, .expired: .cancelled
        case .rejected, .denied: .rejected
        }
    }

    /// The bot's positions into the engine (flat before): of the broker's positions in the universe, those its
    /// `book` (by symbol) covers, at their journal cost (else the broker's average cost); the rest is external,
    /// listed and never traded, and the position check's baseline. A `nil` book adopts every broker position.
    private mutating func restorePositions(
        _ snapshot: BrokerSnapshot, book: [Symbol: Quantity]?, costs fills: [JournalFill], _ out: inout Actions
    ) {
        var restored: [RestoredPosition] = []
        var external: [String] = []
        for id in ids {
            let held = snapshot.positions[id] ?? .zero
            let symbol = universe[id].symbol
            // A pair held for its rate alone is never the bot's (an account's balance in a currency shows as one).
            let own = isWatchedOnly(id) ? .zero : book.map { OwnedPositions.covered($0[symbol] ?? .zero, by: held) } ?? held
            if let mine = book?[symbol], mine != own {
                out.log(
                    .warning,
                    "\(symbol): the journal gives this bot \(mine), the broker holds \(held); taking \(own) as its own "
                        + "(what the broker no longer holds is not restored)")
            }
            if held != own {
                positionCheck.external[id] = held - own
                external.append("\(held - own) \(symbol)" + (isWatchedOnly(id) ? " (watched for its rate alone)" : ""))
            }
            guard !own.isZero else { continue }
            let cost =
                CashRestore.journalCost(of: symbol, holding: own, fills: fills, account: account)
                ?? snapshot.averageCosts[id] ?? engine.state.lastBar(for: id)?.close ?? .zero
            restored.append(RestoredPosition(instrument: id, quantity: own, averagePrice: cost))
            out.log(
                .notice,
                "adopted position: \(own) \(symbol) @ \(cost) ("
                    + (book == nil ? "held at the broker; orders.adoptExternalPositions: true" : "this bot's, per its journal")
                    + ")")
        }
        if !external.isEmpty {
            let text =
                "positions at the broker that are not this bot's"
                + (book == nil ? "" : " (orders.adoptExternalPositions: false)")
                + ": \(external.joined(separator: ", ")); listed, never traded"
            out.log(.notice, text)
            if settings.journaled { out.append(journalEvent(.reconciliation, text)) }
        }
        for id in engine.restore(positions: restored, at: dataTime) {
            let name = id.index >= 0 && id.index < universe.count ? universe[id].symbol.rawValue : "instrument #\(id.rawValue)"
            out.log(.warning, "position of \(name) not adopted (engine not flat or out of range)")
        }
        recordBrokerLook(snapshot.positions)
    }

    /// Our orders open at the broker into the engine and the desk, parents first.
    private mutating func adoptOpenOrders(_ restart: RestartPlan, snapshot: BrokerSnapshot, _ out: inout Actions) {
        let byRef = Dictionary(restart.intents.map { ($0.orderRef, $0) }, uniquingKeysWith: { $1 })
        for resolution in restart.plan.resolutions {
            guard case .adopt(let brokerOrderID, let permID, _) = resolution.action,
                let intent = byRef[resolution.orderRef]
            else { continue }
            let executions = snapshot.executions.filter { $0.orderRef == intent.orderRef }
            let filled = resolution.executedQuantity
            var request = intent.request
            request.clientOrderID = ClientOrderID(intent.orderRef)
            // The broker's terms are the order's: a modification the journal has but IB refused (or one IB has that
            // a crash kept from the journal) must not leave the engine repricing from the wrong limit.
            if let open = snapshot.openOrders.first(where: { $0.brokerOrderID == brokerOrderID && $0.permID == permID }),
                let terms = open.request, terms.type != request.type || terms.quantity != request.quantity
            {
                out.log(
                    .notice,
                    "\(intent.orderRef): the broker works it as \(terms.type) × \(terms.quantity) (journal: "
                        + "\(request.type) × \(request.quantity)); following the broker's terms")
                request.type = terms.type
                request.quantity = terms.quantity
            }
            let restored = RestoredOrder(
                request: request, stage: .working, filledQuantity: filled,
                averageFillPrice: Self.averagePrice(executions.map { ($0.price, $0.quantity) }, filled: filled),
                parent: intent.parentOrderRef.map { ClientOrderID($0) }, modifications: intent.modifications)
            guard let order = engine.restore(order: restored, at: dataTime) else { continue }
            let applied = Array(intent.recordedExecutionIDs) + resolution.newExecutions.map(\.executionID)
            do throws(IBMappingError) {
                try desk.adopt(
                    order, brokerOrderID: brokerOrderID, permID: permID, orderRef: intent.orderRef,
                    appliedExecutions: applied, at: dataTime)
            } catch {
                out.log(.error, "could not adopt \(intent.orderRef): \(error)")
                continue
            }
            out.log(
                .notice,
                "adopted open order \(intent.orderRef) (id \(brokerOrderID), \(filled) filled) as engine order \(order.id)")
            var update = JournalStatusUpdate(orderRef: ClientOrderID(intent.orderRef), state: order.state, time: dataTime)
            update.brokerOrderID = Int64(brokerOrderID)
            update.permID = permID
            update.message = "adopted at start"
            out.append(.journal(.status(update)))
        }
    }

    /// The average price of fills (price, quantity) covering `filled`.
    static func averagePrice(_ fills: [(price: Price, quantity: Quantity)], filled: Quantity) -> Price {
        guard !filled.isZero else { return .zero }
        var notional = Money.zero
        for fill in fills { notional += Money(price: fill.price, quantity: fill.quantity) }
        return Price(units: Int64(Double(notional.units) / filled.doubleValue))
    }

    /// Unsent intents into the engine, then to the broker once under their original orderRefs.
    private mutating func resendUnsent(_ restart: RestartPlan, _ out: inout Actions) {
        let byRef = Dictionary(restart.intents.map { ($0.orderRef, $0) }, uniquingKeysWith: { $1 })
        for group in restart.plan.sendGroups {
            var orders: [Order] = []
            for ref in group {
                guard let intent = byRef[ref] else { continue }
                var request = intent.request
                request.clientOrderID = ClientOrderID(ref)
                let restored = RestoredOrder(
                    request: request, stage: .submitted, parent: intent.parentOrderRef.map { ClientOrderID($0) })
                if let order = engine.restore(order: restored, at: dataTime) { orders.append(order) }
            }
            guard orders.count == group.count else {
                out.log(.error, "could not restore \(group.joined(separator: ", ")) into the engine; not sent")
                continue
            }
            counts.commands += 1
            let result = desk.resend(orders, at: dataTime)
            followUps += result.outputs
            if case .place(let placed)? = result.instruction {
                out.append(.place(placed))
                out.log(.notice, "sent \(group.joined(separator: ", ")) once (journaled before the crash, never sent)")
            } else if let failure = result.failure {
                out.log(.error, "resending \(group.joined(separator: ", ")) failed: \(failure)")
            }
        }
    }
}
