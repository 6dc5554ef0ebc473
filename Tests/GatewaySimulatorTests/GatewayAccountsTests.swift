import Foundation
import GatewayCore
import GatewaySimulator
import TWSProtocol
import Testing
import TradingModel

/// A login that manages several accounts (an advisor's, or linked accounts): each account has its own cash,
/// positions and executions, and every order must name its account, as at IB.
@Suite struct GatewayAccountsTests {
    static let accounts = ["DU111", "DU222"]

    func connected() -> GatewayState {
        var state = GatewayState(
            data: testData, configuration: GatewayConfiguration(accounts: Self.accounts, startingCash: 100_000))
        _ = state.connect(connection: 1, clientID: 7, serverVersion: 200)
        return state
    }

    func order(_ action: String, _ quantity: Decimal, account: String) -> TWSOrder {
        var order = wireOrder(action, quantity)
        order.account = account
        return order
    }

    @Test func managedAccountsListsEveryAccount() {
        var state = GatewayState(
            data: testData, configuration: GatewayConfiguration(accounts: Self.accounts, startingCash: 100_000))
        #expect(sent(state.connect(connection: 1, clientID: 7, serverVersion: 200)).first
            == .managedAccounts(accountsList: "DU111,DU222"))
        #expect(sent(state.handle(.managedAccounts, from: 1, wallTime: 0)) == [.managedAccounts(accountsList: "DU111,DU222")])
        #expect(state.accounts.map(\.accountCode) == Self.accounts)
        #expect(state.account.accountCode == "DU111")
    }

    /// IB: "Error validating request:-'le' : cause - You must specify an account." and the order never exists.
    @Test func anOrderWithoutAnAccountOrWithAnUnknownOneIsRefused() {
        var state = connected()
        let missing = sent(state.handle(
            .placeOrder(orderID: 1, contract: stock("SYN000"), order: wireOrder("BUY", 10)), from: 1, wallTime: 0))
        #expect(errorCodes(missing) == [321])
        #expect(names(missing) == ["errMsg"], "no order status: the order was never accepted")
        if case .error(let error) = missing.first { #expect(error.message.hasSuffix("You must specify an account.")) }
        let unknown = sent(state.handle(
            .placeOrder(orderID: 2, contract: stock("SYN000"), order: order("BUY", 10, account: "DU999")), from: 1,
            wallTime: 0))
        #expect(errorCodes(unknown) == [321])
        if case .error(let error) = unknown.first {
            #expect(error.message.contains("DU999 is not valid (this login manages DU111, DU222)"))
        }
        #expect(state.executionLog.isEmpty)
        #expect(state.accounts.allSatisfy { $0.holdings.isEmpty })
    }

    @Test func aFillBooksToTheOrdersAccountOnly() throws {
        var state = connected()
        let out = sent(state.handle(
            .placeOrder(orderID: 1, contract: stock("SYN000"), order: order("BUY", 10, account: "DU222")), from: 1,
            wallTime: 0))
        let execution = try #require(out.compactMap { r -> TWSExecution? in
            if case .executionDetails(_, _, let e) = r { return e } else { return nil }
        }.first)
        #expect(execution.accountNumber == "DU222")
        let opened = out.compactMap { r -> String? in if case .openOrder(let o) = r { return o.order.account } else { return nil } }
        #expect(!opened.isEmpty && opened.allSatisfy { $0 == "DU222" })
        let id = testData.instruments[0].id
        #expect(state.book("DU222")?.holdings[id]?.quantity == Quantity(10))
        #expect(state.book("DU111")?.holdings.isEmpty == true)
        #expect(state.book("DU111")?.cash == 100_000)
        #expect(try #require(state.book("DU222")).cash < 100_000)
    }

    @Test func positionsSummariesAndExecutionsNameTheirAccount() {
        var state = connected()
        _ = state.handle(
            .placeOrder(orderID: 1, contract: stock("SYN000"), order: order("BUY", 10, account: "DU111")), from: 1,
            wallTime: 0)
        _ = state.handle(
            .placeOrder(orderID: 2, contract: stock("SYN001"), order: order("BUY", 20, account: "DU222")), from: 1,
            wallTime: 0)
        let positions = sent(state.handle(.positions, from: 1, wallTime: 0)).compactMap { r -> String? in
            if case .position(let account, let contract, let position?, _) = r { return "\(account) \(contract.symbol) \(position)" }
            return nil
        }
        #expect(positions == ["DU111 SYN000 10", "DU222 SYN001 20"])

        let summary = sent(state.handle(
            .accountSummary(requestID: 5, group: "All", tags: "NetLiquidation,TotalCashValue"), from: 1, wallTime: 0))
        let rows = summary.compactMap { r -> String? in
            if case .accountSummary(_, let account, let tag, _, _) = r { return "\(account) \(tag)" }
            return nil
        }
        #expect(rows == ["DU111 NetLiquidation", "DU111 TotalCashValue", "DU222 NetLiquidation", "DU222 TotalCashValue"])

        var filter = TWSExecutionFilter()
        filter.accountCode = "DU222"
        let executions = sent(state.handle(.executions(requestID: 6, filter: filter), from: 1, wallTime: 0))
            .compactMap { r -> String? in
                if case .executionDetails(_, let contract, let e) = r { return "\(e.accountNumber) \(contract.symbol)" }
                return nil
            }
        #expect(executions == ["DU222 SYN001"])
    }

    @Test func accountUpdatesAreForTheAccountAskedFor() {
        var state = connected()
        _ = state.handle(
            .placeOrder(orderID: 1, contract: stock("SYN000"), order: order("BUY", 10, account: "DU111")), from: 1,
            wallTime: 0)
        let updates = sent(state.handle(.accountUpdates(subscribe: true, accountCode: "DU222"), from: 1, wallTime: 0))
        #expect(!updates.contains { $0.messageName == "updatePortfolio" }, "DU222 holds nothing")
        #expect(updates.last == .accountDownloadEnd(accountName: "DU222"))
        let values = updates.compactMap { r -> String? in
            if case .accountValue(let key, let value, _, let account) = r, key == "NetLiquidation" {
                return "\(account) \(value)"
            }
            return nil
        }
        #expect(values == ["DU222 100000.00"])
        // A fill in the other account sends it nothing.
        let later = sent(state.handle(
            .placeOrder(orderID: 2, contract: stock("SYN000"), order: order("BUY", 5, account: "DU111")), from: 1,
            wallTime: 0))
        #expect(!later.contains { $0.messageName == "updatePortfolio" || $0.messageName == "updateAccountValue" })
        let unknown = sent(state.handle(.accountUpdates(subscribe: true, accountCode: "DU999"), from: 1, wallTime: 0))
        #expect(errorCodes(unknown) == [321])
    }

    @Test func aModificationCannotMoveAnOrderToAnotherAccount() {
        var state = connected()
        var limit = wireOrder("BUY", 10, "LMT", limit: 1)
        limit.account = "DU111"
        _ = state.handle(.placeOrder(orderID: 1, contract: stock("SYN000"), order: limit), from: 1, wallTime: 0)
        limit.account = "DU222"
        let moved = sent(state.handle(.placeOrder(orderID: 1, contract: stock("SYN000"), order: limit), from: 1, wallTime: 0))
        #expect(errorCodes(moved) == [422])
        limit.account = ""
        limit.limitPrice = 2
        let repriced = sent(state.handle(.placeOrder(orderID: 1, contract: stock("SYN000"), order: limit), from: 1, wallTime: 0))
        #expect(errorCodes(repriced).isEmpty, "a modification that leaves the account out keeps it")
        let account = repriced.compactMap { r -> String? in if case .openOrder(let o) = r { return o.order.account } else { return nil } }
        #expect(account == ["DU111"])
    }

    @Test func aLoginWithOneAccountTakesOrdersThatNameNone() {
        var state = GatewayState(data: testData, configuration: GatewayConfiguration())
        _ = state.connect(connection: 1, clientID: 7, serverVersion: 200)
        let out = sent(state.handle(
            .placeOrder(orderID: 1, contract: stock("SYN000"), order: wireOrder("BUY", 10)), from: 1, wallTime: 0))
        #expect(errorCodes(out).isEmpty)
        #expect(state.account.holdings[testData.instruments[0].id]?.quantity == Quantity(10))
    }
}
