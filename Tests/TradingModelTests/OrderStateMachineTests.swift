import Testing
import TradingModel

/// Every legal transition, and proof that everything else is refused.
@Suite struct OrderStateMachineTests {
    /// One representative event of each kind.
    static let events: [OrderEvent] = [
        .submitted, .accepted, .rejected(reason: "r"), .denied(reason: "d"), .partiallyFilled, .filled,
        .cancelRequested, .canceled(reason: .requested), .cancelRejected, .replaceRequested, .replaced,
        .replaceRejected, .expired,
    ]

    /// The legal table: (state, event name) → next state. Pending states return to `accepted` here because the
    /// machine is driven to them from `accepted`.
    static let legal: [OrderState: [String: OrderState]] = [
        .pendingSubmit: ["submitted": .submitted, "denied": .denied, "rejected": .rejected, "canceled": .canceled],
        .submitted: [
            "accepted": .accepted, "rejected": .rejected, "partiallyFilled": .partiallyFilled, "filled": .filled,
            "canceled": .canceled, "expired": .expired, "cancelRequested": .pendingCancel,
        ],
        .accepted: [
            "partiallyFilled": .partiallyFilled, "filled": .filled, "canceled": .canceled, "expired": .expired,
            "cancelRequested": .pendingCancel, "replaceRequested": .pendingReplace,
        ],
        .partiallyFilled: [
            "partiallyFilled": .partiallyFilled, "filled": .filled, "canceled": .canceled, "expired": .expired,
            "cancelRequested": .pendingCancel, "replaceRequested": .pendingReplace,
        ],
        .pendingCancel: [
            "canceled": .canceled, "expired": .expired, "filled": .filled, "partiallyFilled": .pendingCancel,
            "cancelRejected": .accepted,
        ],
        .pendingReplace: [
            "replaced": .accepted, "replaceRejected": .accepted, "filled": .filled,
            "partiallyFilled": .pendingReplace, "canceled": .canceled, "expired": .expired,
        ],
        .filled: [:], .canceled: [:], .rejected: [:], .denied: [:], .expired: [:],
    ]

    /// Drives a fresh machine to a state along legal edges.
    static func machine(in state: OrderState) throws -> OrderStateMachine {
        var m = OrderStateMachine()
        let path: [OrderEvent]
        switch state {
        case .pendingSubmit: path = []
        case .submitted: path = [.submitted]
        case .accepted: path = [.submitted, .accepted]
        case .partiallyFilled: path = [.submitted, .accepted, .partiallyFilled]
        case .pendingCancel: path = [.submitted, .accepted, .cancelRequested]
        case .pendingReplace: path = [.submitted, .accepted, .replaceRequested]
        case .filled: path = [.submitted, .filled]
        case .canceled: path = [.submitted, .canceled(reason: .requested)]
        case .rejected: path = [.rejected(reason: "x")]
        case .denied: path = [.denied(reason: "x")]
        case .expired: path = [.submitted, .expired]
        }
        for event in path { try m.apply(event) }
        #expect(m.state == state)
        return m
    }

    @Test(arguments: OrderState.allCases)
    func everyPairFollowsTheTable(state: OrderState) throws {
        for event in Self.events {
            var m = try Self.machine(in: state)
            let expected = Self.legal[state]?[event.name]
            do throws(OrderTransitionError) {
                try m.apply(event)
                #expect(expected == m.state, "\(state) + \(event.name)")
            } catch {
                #expect(expected == nil, "\(state) + \(event.name) should be legal")
                #expect(m.state == state, "a refused event leaves the state unchanged")
                #expect(error.state == state)
            }
        }
    }

    @Test func terminalStatesAreTerminal() {
        #expect(OrderState.allCases.filter(\.isTerminal) == [.filled, .canceled, .rejected, .denied, .expired])
    }

    @Test func refusedCancelReturnsToPartiallyFilledWhenFillsArrivedMeanwhile() throws {
        var m = try Self.machine(in: .accepted)
        try m.apply(.cancelRequested)
        try m.apply(.partiallyFilled)
        try m.apply(.cancelRejected)
        #expect(m.state == .partiallyFilled)
    }

    @Test func orderRecordsPartialThenCompleteFills() throws {
        let request = OrderRequest.market(InstrumentID(0), .buy, Quantity(100))
        var order = Order(id: OrderID(1), clientOrderID: "c", request: request, createdAt: .zero)
        try order.lifecycle.apply(.submitted)
        let fill = { (q: Int64, p: String) in
            Fill(orderID: OrderID(1), instrument: InstrumentID(0), side: .buy, quantity: Quantity(q), price: Price(p)!,
                 commission: Money(1), timestamp: Timestamp(seconds: 1))
        }
        try order.record(fill(40, "10"))
        #expect(order.state == .partiallyFilled)
        try order.record(fill(60, "11"))
        #expect(order.state == .filled)
        #expect(order.remainingQuantity == .zero)
        #expect(order.averageFillPrice == Price("10.6"))
        #expect(order.commission == Money(2))
        #expect(throws: OrderTransitionError.self) { try order.record(fill(1, "11")) }
    }

    /// Issue 27 (a survived mutation): a partial fill while a replace (or a cancel) is pending is remembered, so the
    /// order comes back partially filled, not accepted, when the broker answers the request.
    @Test(arguments: [OrderEvent.replaced, .replaceRejected, .cancelRejected])
    func aPartialFillDuringAPendingRequestIsRemembered(answer: OrderEvent) throws {
        var machine = OrderStateMachine()
        try machine.apply(.submitted)
        try machine.apply(.accepted)
        try machine.apply(answer == .cancelRejected ? .cancelRequested : .replaceRequested)
        try machine.apply(.partiallyFilled)
        try machine.apply(answer)
        #expect(machine.state == .partiallyFilled)
    }
}
