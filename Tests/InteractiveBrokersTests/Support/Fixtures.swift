import Foundation
import TradingModel
import TWSProtocol

@testable import InteractiveBrokers
@testable import LiveSession

let aapl = InstrumentID(0)
let msft = InstrumentID(1)
let testUniverse = Universe(symbols: ["AAPL", "MSFT"])
let testBook = ContractBook(universe: testUniverse)
let testContext = MappingContext(contracts: testBook)

/// An engine order in `submitted`, as the engine hands it to the broker.
func engineOrder(
    _ id: Int64, _ side: Side = .buy, _ quantity: Int64 = 100, type: OrderType = .market, tif: TimeInForce = .day,
    client: String? = nil, instrument: InstrumentID = aapl
) -> Order {
    var request = OrderRequest(
        instrument: instrument, side: side, quantity: Quantity(quantity), type: type, timeInForce: tif)
    request.clientOrderID = client.map { ClientOrderID($0) }
    var order = Order(
        id: OrderID(id), clientOrderID: request.clientOrderID ?? .engineAssigned(number: id), request: request,
        createdAt: Timestamp(seconds: 1_700_000_000))
    try? order.lifecycle.apply(.submitted)
    return order
}

/// A wire execution.
func wireExecution(
    _ id: String, order: Int, side: String = "BOT", shares: Decimal = 100, price: Double = 150.25,
    time: String = "20240311 09:30:00 US/Eastern", orderRef: String = "", permID: Int64 = 0
) -> TWSExecution {
    var e = TWSExecution(executionID: id)
    e.orderID = order
    e.side = side
    e.shares = shares
    e.price = price
    e.time = time
    e.orderRef = orderRef
    e.permID = permID
    return e
}

/// A domain execution.
func brokerExecution(
    _ id: String, order: Int = 1, ref: String, side: Side = .buy, quantity: Int64, price: Int = 100,
    time: Int64 = 0, perm: Int64 = 0, instrument: InstrumentID = aapl
) -> BrokerExecution {
    BrokerExecution(
        executionID: id, brokerOrderID: order, permID: perm, orderRef: ref, instrument: instrument, side: side,
        quantity: Quantity(quantity), price: Price(price), time: Timestamp(seconds: 1_700_000_000 + time))
}

let t0 = Timestamp(seconds: 1_700_000_000)
