import Foundation
import InteractiveBrokers
import JournalModel
import LiveSession
import TWSProtocol
import Testing
import TraderKit
import TradingModel

/// What the account holds, listed as IB holds it: an option, a future and a pair each with its terms, never a bare
/// symbol, and a QQQ put never confused with QQQ's shares (issue 79). Pure: TWS's `position` messages as a real paper
/// account sends them, through the listing `ibtrader positions` prints.
@Suite struct HoldingsListingTests {
    static func contract(_ symbol: String, _ type: String, conID: Int, _ change: (inout TWSContract) -> Void = { _ in }) -> TWSContract {
        var contract = TWSContract(contractID: conID, symbol: symbol, securityType: type, exchange: "", currency: "USD")
        change(&contract)
        return contract
    }

    /// A short QQQ put beside QQQ's shares, a MES future, a EUR balance, and another account's position.
    static let messages: [TWSPosition] = [
        TWSPosition(
            account: "DU1", contract: contract("QQQ", "OPT", conID: 812_345_678) {
                ($0.lastTradeDateOrContractMonth, $0.strike, $0.right, $0.multiplier) = ("20261218", 400, "P", "100")
                $0.localSymbol = "QQQ   261218P00400000"
                $0.tradingClass = "QQQ"
            }, quantity: -3, averageCost: 512.37),
        TWSPosition(account: "DU1", contract: contract("QQQ", "STK", conID: 320_227_571) { $0.localSymbol = "QQQ" }, quantity: 10, averageCost: 480.25),
        TWSPosition(
            account: "DU1", contract: contract("MES", "FUT", conID: 770_561_194) {
                ($0.lastTradeDateOrContractMonth, $0.multiplier, $0.localSymbol) = ("20260618", "5", "MESM6")
            }, quantity: 1, averageCost: 35_197.5),
        TWSPosition(
            account: "DU1", contract: contract("EUR", "CASH", conID: 12_087_792) { $0.localSymbol = "EUR.USD" },
            quantity: 20_000, averageCost: 1.0842),
        TWSPosition(account: "DU2", contract: contract("AAPL", "STK", conID: 265_598), quantity: 5, averageCost: 190),
    ]

    @Test("positions: each contract on its line with its terms, QQQ's shares and its put apart")
    func theTable() throws {
        let positions = try ManualTrading.positions(Self.messages, account: "DU1")
        #expect(positions.map(\.contract.description) == [
            "EUR.USD (CASH)", "MES 202606 (FUT ×5, MESM6)", "QQQ", "QQQ 20261218 400 P (OPT ×100)",
        ])
        let lines = ManualListing.positions(positions, json: false)
        #expect(lines.first == "Positions (4)")
        let table = lines.joined(separator: "\n")
        let put = try #require(table.split(separator: "\n").first { $0.contains("OPT") })
        #expect(put.contains("QQQ 20261218 400 P (OPT ×100)") && put.contains("-3") && put.contains("812345678"), "\(put)")
        let shares = try #require(table.split(separator: "\n").first { $0.contains("320227571") })
        #expect(shares.contains(" QQQ ") && !shares.contains("OPT") && shares.contains("10"), "\(shares)")
        #expect(table.contains("MES 202606 (FUT ×5, MESM6)") && table.contains("EUR.USD (CASH)"), "\(table)")
        #expect(!table.contains("AAPL"))
    }

    @Test("positions --json: the contract's terms by name")
    func theJSON() throws {
        let lines = ManualListing.positions(try ManualTrading.positions(Self.messages, account: "DU1"), json: true)
        let records = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        let put = try #require(records.first { $0["secType"] as? String == "OPT" })
        #expect(put["symbol"] as? String == "QQQ")
        #expect(put["expiry"] as? String == "20261218")
        #expect(put["strike"] as? String == "400")
        #expect(put["right"] as? String == "P")
        #expect(put["multiplier"] as? String == "100")
        #expect(put["quantity"] as? String == "-3")
        #expect(put["description"] as? String == "QQQ 20261218 400 P (OPT ×100)")
        let future = try #require(records.first { $0["secType"] as? String == "FUT" })
        #expect(future["localSymbol"] as? String == "MESM6" && future["expiry"] as? String == "20260618")
        #expect(future["multiplier"] as? String == "5" && future["strike"] is NSNull)
        let shares = try #require(records.first { $0["conId"] as? Int == 320_227_571 })
        #expect(shares["secType"] as? String == "STK" && shares["right"] is NSNull && shares["description"] as? String == "QQQ")
        #expect(records.first { $0["secType"] as? String == "CASH" }?["description"] as? String == "EUR.USD (CASH)")
    }

    @Test("a TWS contract's terms: right and strike as IB writes them, and the instrument the tools would trade")
    func wireTerms() {
        var option = Self.messages[0].contract
        option.right = "PUT"
        #expect(ContractTerms(option).right == "P")
        option.right = "?"
        option.strike = 0
        #expect(ContractTerms(option).right == "" && ContractTerms(option).strike == nil)
        #expect(ContractTerms(Self.messages[0].contract).instrumentName == nil)
        #expect(ContractTerms(Self.messages[2].contract).instrumentName == "MES 2026-06")
        #expect(ContractTerms(Self.messages[3].contract).instrumentName == "EUR.USD")
        #expect(ContractTerms(Self.messages[1].contract).instrumentName == "QQQ")
        #expect(ContractTerms(Self.messages[1].contract).unlessStock == nil)
    }

    @Test("orders: an open order's contract in the table and in --json")
    func openOrders() throws {
        var order = TWSOrder()
        (order.orderID, order.clientID, order.permID, order.action, order.orderType) = (289, 1, 1_426_086_040, "BUY", "LMT")
        (order.totalQuantity, order.limitPrice, order.timeInForce, order.account) = (1, 7000, "DAY", "DU1")
        let open = TWSOpenOrder(contract: Self.messages[2].contract, order: order, orderState: TWSOrderState(status: "Submitted"))
        let listed = ManualOpenOrder(open)
        let table = ManualListing.orders([listed], json: false).joined(separator: "\n")
        #expect(table.contains("MES 202606 (FUT ×5, MESM6)"), "\(table)")
        let json = try #require(ManualListing.orders([listed], json: true).first)
        let record = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(record["secType"] as? String == "FUT" && record["localSymbol"] as? String == "MESM6")
        #expect(record["orderId"] as? Int == 289)
    }

    @Test("journal: a fill keeps the contract IB reported; older fills and orders say what their symbol names")
    func journalListing() throws {
        var future = JournalFill(execID: "e1", symbol: "ES continuous", side: .buy, quantity: Quantity(1), price: Price(6000), time: .zero)
        future.contract = ContractTerms(
            symbol: "ES", securityType: "FUT", expiry: "20261218", multiplier: "50", localSymbol: "ESZ6", currency: "USD")
        let legacy = JournalFill(execID: "e2", symbol: "EUR.USD", side: .sell, quantity: Quantity(20_000), price: Price("1.1")!, time: .zero)
        let stock = JournalFill(execID: "e3", symbol: "AAPL", side: .buy, quantity: Quantity(5), price: Price(190), time: .zero)
        let table = JournalListing(json: false).render(fills: [future, legacy, stock])
        #expect(table.contains("ES 202612 (FUT ×50, ESZ6)") && table.contains("EUR.USD (CASH)"), "\(table)")
        let lines = JournalListing(json: true).render(fills: [future, legacy, stock]).split(separator: "\n")
        let records = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(records.map { $0["sec_type"] as? String } == ["FUT", "CASH", "STK"])
        #expect(records[0]["local_symbol"] as? String == "ESZ6" && records[0]["expiry"] as? String == "20261218")
        #expect(records[0]["symbol"] as? String == "ES continuous")
        let intent = JournalIntent(
            orderRef: "IBT:manual:1-MESM6", symbol: "MES 2026-06",
            request: OrderRequest(instrument: InstrumentID(index: 0), side: .buy, quantity: Quantity(1)), createdAt: .zero)
        let order = JournalOrder(
            sequence: 1, intent: intent, state: .submitted, brokerOrderID: nil, permID: nil, filledQuantity: .zero,
            updatedAt: .zero, message: nil)
        #expect(JournalListing(json: false).render(orders: [order]).contains("MES 202606 (FUT ×5)"))
        let record = try #require(JournalListing(json: true).render(orders: [order]).data(using: .utf8))
        let object = try #require(try JSONSerialization.jsonObject(with: record) as? [String: Any])
        #expect(object["sec_type"] as? String == "FUT" && object["multiplier"] as? String == "5")
    }
}
