import Testing
import TradingModel
import TWSProtocol

@testable import LiveSession

/// Issue 21: live, the sector limit has sectors: `universe.sectors` first, else the contract details' industry; a
/// symbol with neither is its own bucket (empty sector), never one bucket for the whole book.
struct LiveSectorTests {
    typealias Harness = SessionCoreHarness<BuyWhenFlat>

    static func qualify(_ harness: inout Harness, industry: String) {
        harness.send(.start)
        let connected = harness.send(.connected(Harness.connection()))
        for (tag, request) in Harness.requests(connected) {
            guard case .contractDetails(let contract) = request else { continue }
            var qualified = contract
            qualified.contractID = 265_598
            var details = TWSContractDetails(contract: qualified)
            details.industry = industry
            harness.send(.answer(tag, .contractDetails([details])))
        }
    }

    @Test func theContractDetailsIndustryIsTheSectorUnlessConfigured() {
        var harness = Harness(BuyWhenFlat())
        Self.qualify(&harness, industry: "Technology")
        #expect(harness.core.engine.sector(of: InstrumentID(index: 0)) == "Technology")

        var settings = Harness.settings()
        settings.sectors = ["AAPL": "Mega caps"]
        var configured = Harness(BuyWhenFlat(), settings: settings)
        #expect(configured.core.engine.sector(of: InstrumentID(index: 0)) == "Mega caps")
        Self.qualify(&configured, industry: "Technology")
        #expect(configured.core.engine.sector(of: InstrumentID(index: 0)) == "Mega caps", "the configuration wins")

        var unknown = Harness(BuyWhenFlat())
        Self.qualify(&unknown, industry: "")
        #expect(unknown.core.engine.sector(of: InstrumentID(index: 0)) == "", "its own bucket")
    }
}
