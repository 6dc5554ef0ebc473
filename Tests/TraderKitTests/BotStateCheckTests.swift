import LiveSession
import Testing
import TraderKit
import TradingModel

/// Issue 45: a manual order honours the state of the bot on the same config (asked over its dashboard): its kill
/// switch and "no new orders" refuse everything, an exchange halt refuses the symbol, a pause or risk halt lets only
/// an order through that reduces the bot's position.
struct BotStateCheckTests {
    static let address = "http://127.0.0.1:8420"

    static func status(state: String = "active", kill: Bool = false, halted: [String] = [], holding: Double = 0) -> SessionStatus {
        var status = SessionStatus()
        status.account = "DU111"
        status.trading.state = state
        status.trading.killSwitch = kill
        status.trading.haltedSymbols = halted
        status.trading.reasons = kill ? ["the operator's kill switch"] : state == "active" ? [] : ["paused by the operator"]
        if holding != 0 {
            var position = SessionStatus.Position()
            position.symbol = "AAPL"
            position.quantity = holding
            status.positions = [position]
        }
        return status
    }

    static func refusal(_ status: SessionStatus, _ side: Side, _ quantity: Int64, _ symbol: Symbol = "AAPL") -> String? {
        BotStateCheck.refusal(status, address: address, side: side, symbol: symbol, quantity: Quantity(quantity))
    }

    @Test func anActiveBotAllowsEverything() {
        #expect(Self.refusal(Self.status(), .buy, 100) == nil)
        #expect(Self.refusal(Self.status(holding: 10), .sell, 500) == nil)
    }

    @Test func theKillSwitchRefusesEveryOrderExitsToo() throws {
        let status = Self.status(state: "no new orders", kill: true, holding: 50)
        let buy = try #require(Self.refusal(status, .buy, 1))
        #expect(buy == "the bot at http://127.0.0.1:8420 (DU111) has its kill switch engaged: no new orders (the operator's kill switch). `ibtrader ctl resume` lifts it")
        #expect(Self.refusal(status, .sell, 10) != nil)
        #expect(Self.refusal(Self.status(state: "no new orders"), .sell, 10)?.contains("takes no new orders") == true)
    }

    @Test func anExchangeHaltRefusesThatSymbolOnly() throws {
        let status = Self.status(halted: ["AAPL: a trading halt since 2026-11-26T14:00:00Z"])
        let refused = try #require(Self.refusal(status, .sell, 10))
        #expect(refused.hasPrefix("AAPL is halted by its exchange"), "\(refused)")
        #expect(Self.refusal(status, .buy, 10, "MSFT") == nil)
        #expect(Self.refusal(status, .buy, 10, "AAP") == nil, "a symbol that only starts the same is not halted")
    }

    @Test(arguments: ["entries paused", "halted"])
    func aPauseOrRiskHaltLetsOnlyReducingOrdersThrough(state: String) throws {
        let long = Self.status(state: state, holding: 75)
        #expect(Self.refusal(long, .sell, 75) == nil, "closing the bot's long")
        #expect(Self.refusal(long, .sell, 10) == nil)
        let beyond = try #require(Self.refusal(long, .sell, 76), "beyond it would open a short")
        #expect(beyond.contains("only an order that reduces its AAPL position (75) passes"), "\(beyond)")
        #expect(Self.refusal(long, .buy, 1) != nil, "adding")
        let short = Self.status(state: state, holding: -20)
        #expect(Self.refusal(short, .buy, 20) == nil)
        #expect(Self.refusal(short, .sell, 1) != nil)
        #expect(Self.refusal(Self.status(state: state), .buy, 1) != nil, "flat: any order is an entry")
    }
}
