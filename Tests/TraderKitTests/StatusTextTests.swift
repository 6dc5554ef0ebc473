import Foundation
import LiveSession
import Testing

@testable import TraderKit

/// `ibtrader ctl status` as text: an account in another currency says so, lists each other balance with its rate,
/// and a position priced in another currency names it.
struct StatusTextTests {
    @Test func anAccountInEurosNamesItsCurrencyAndTheDollarsBesideIt() throws {
        var status = SessionStatus()
        status.phase = "running"
        status.money.equity = 999_961.96
        status.money.currency = "EUR"
        var dollars = SessionStatus.Balance()
        dollars.currency = "USD"
        dollars.cash = -2.25
        dollars.positionsValue = -50
        dollars.rate = 0.727961
        status.money.balances = [dollars]
        var position = SessionStatus.Position()
        position.symbol = "ES 2014-03"
        position.quantity = -1
        position.averageCost = 1801.5
        position.price = 1802.5
        position.currency = "USD"
        status.positions = [position]
        struct Body: Encodable { var status: SessionStatus }
        let text = try StatusText.render(try JSONEncoder().encode(Body(status: status)))
        #expect(text.contains("equity 999961.96, cash 0.00") && text.contains("(in EUR)"), "\(text)")
        #expect(text.contains("USD balance: cash -2.25, positions -50.00 USD; at 0.727961 EUR per USD"), "\(text)")
        #expect(text.contains("ES 2014-03 -1 @ 1801.50 USD, last 1802.50"), "\(text)")

        status.money.currency = "USD"
        status.money.balances = nil
        status.positions = []
        let plain = try StatusText.render(try JSONEncoder().encode(Body(status: status)))
        #expect(!plain.contains("(in ") && !plain.contains("balance:"), "\(plain)")
    }
}
