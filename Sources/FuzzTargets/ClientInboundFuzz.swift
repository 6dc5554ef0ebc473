import Foundation
import LiveSession
import TWSProtocol
import TradingModel

extension FuzzTargets {
    /// One contract the mapping knows (AAPL), so executions and positions reach the mapping past the lookup.
    static let contracts: ContractBook = {
        var contract = TWSContract(symbol: "AAPL", securityType: "STK", exchange: "SMART", currency: "USD")
        contract.contractID = 265_598
        contract.primaryExchange = "NASDAQ"
        return ContractBook(contracts: [contract])
    }()

    /// Server → client bytes. The first byte picks the server version (176…226: text frames up to 200, binary
    /// message ids with text or protobuf bodies from 201); the rest is read twice: as one payload (fields separated
    /// by NUL, or a 4-byte id and a protobuf body) and as a framed byte stream.
    public static func clientInbound(_ bytes: UnsafeRawBufferPointer) {
        guard let first = bytes.first else { return }
        let version = 176 + Int(first) % 51
        let rest = UnsafeRawBufferPointer(rebasing: bytes.dropFirst())
        var session = ClientSession()
        if let response = try? TWSResponse.decode(bytes: rest, serverVersion: version) {
            session.map(response)
        }
        var frames = TWSFrameDecoder()
        frames.append(contentsOf: rest)
        var decoded = 0
        while decoded < 64 {
            do {
                guard let response = try frames.nextResponse(serverVersion: version) else { break }
                session.map(response)
            } catch {
                if frames.hasFailed { break }
            }
            decoded += 1
        }
    }

    /// What a client session does with each response: the mapping and the state it feeds.
    struct ClientSession {
        var orderIDs = OrderIDAllocator(nextValidID: 1)
        var book: IBOrderBook
        var quotes = QuoteTicks()
        let now = Timestamp(seconds: 1_736_951_400)

        init() {
            book = IBOrderBook(commissionWait: .seconds(5))
            let request = OrderRequest(
                instrument: InstrumentID(0), side: .buy, quantity: Quantity(100), type: .market, timeInForce: .day)
            var order = Order(id: OrderID(1), clientOrderID: ClientOrderID("O-1"), request: request, createdAt: now)
            try? order.lifecycle.apply(.submitted)
            if let wire = try? OrderMapping.wireOrder(for: order, options: WireOrderOptions()) {
                book.track(TrackedOrder(order: order, brokerOrderID: 1, orderRef: wire.orderRef, wire: wire))
            }
        }

        mutating func map(_ response: TWSResponse) {
            let context = MappingContext(contracts: FuzzTargets.contracts)
            switch response {
            case .nextValidID(let id):
                orderIDs.seed(nextValidID: id)
                _ = orderIDs.next()
            case .orderStatus(let status):
                orderIDs.observe(orderID: status.orderID)
                _ = book.status(status, at: now)
            case .openOrder(let open):
                orderIDs.observe(orderID: open.order.orderID)
                _ = book.openOrder(open, at: now)
                _ = try? SnapshotMapping.order(open)
                _ = try? SnapshotMapping.request(open, contracts: FuzzTargets.contracts)
            case .completedOrder(let completed):
                _ = try? SnapshotMapping.order(completed)
                _ = book.completedOrder(completed, at: now)
            case .executionDetails(_, let contract, let execution):
                orderIDs.observe(orderID: execution.orderID)
                if let mapped = try? ExecutionMapping.execution(execution, contract: contract, context: context) {
                    _ = book.execution(mapped, commission: .pending, at: now)
                }
            case .commissionReport(let report):
                if let commission = try? ExecutionMapping.commission(report) {
                    _ = book.commission(executionID: report.executionID, commission, at: now)
                }
            case .error(let message):
                _ = book.notice(TWSNotice(requestID: message.requestID, code: message.code, message: message.message),
                                at: now)
            case .historicalData(_, _, _, let bars):
                for bar in bars { _ = try? BarMapping.bar(bar) }
            case .historicalDataUpdate(_, let bar):
                _ = try? BarMapping.bar(bar)
            case .realTimeBar(_, let bar):
                _ = try? BarMapping.bar(bar)
            case .position(let account, let contract, let position, let averageCost):
                _ = try? PositionMapping.position(
                    TWSPosition(account: account, contract: contract, quantity: position, averageCost: averageCost),
                    contracts: FuzzTargets.contracts)
            case .tickPrice(let tick):
                _ = quotes.apply(.price(tick))
                _ = quotes.quote(at: now)
            case .tickSize(_, let type, let size):
                _ = quotes.apply(.size(type, size))
            case .currentTime(let seconds):
                _ = Timestamp(checkedSeconds: seconds)
            case .marketRule(_, let increments):
                // The bands a session rounds order prices with: any decoded rule maps or is refused, never traps.
                if let table = MarketRuleMapping.ticks(increments) {
                    _ = Price(units: 123_456_789).roundedDown(to: table)
                    _ = Price(units: 123_456_789).roundedUp(to: table)
                }
            default:
                break
            }
            _ = book.releaseOverdue(at: now + .seconds(10))
        }
    }
}
