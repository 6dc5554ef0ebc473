import Testing
import TWSProtocol

@testable import TWSClient

@Suite struct TWSFarmStatusTests {
    @Test func everyFarmCodeIsReadWithItsFarmsName() {
        let cases: [(Int, String, TWSFarm.Kind, TWSFarmState, String)] = [
            (2103, "Market data farm connection is broken:usfarm", .marketData, .broken, "usfarm"),
            (2104, "Market data farm connection is OK:usfarm.nj", .marketData, .ok, "usfarm.nj"),
            (2108, "Market data farm connection is inactive but should be available upon demand.cashfarm", .marketData,
             .inactive, "cashfarm"),
            (2105, "HMDS data farm connection is broken:ushmds", .historicalData, .broken, "ushmds"),
            (2106, "HMDS data farm connection is OK: ushmds ", .historicalData, .ok, "ushmds"),
            (2107, "HMDS data farm connection is inactive but should be available upon demand.euhmds",
             .historicalData, .inactive, "euhmds"),
            (2104, "Market data farm connection is OK", .marketData, .ok, ""),
            (2157, "Sec-def data farm connection is broken:secdefil", .securityDefinition, .broken, "secdefil"),
            (2158, "Sec-def data farm connection is OK:secdefnj", .securityDefinition, .ok, "secdefnj"),
        ]
        for (code, text, kind, state, name) in cases {
            let report = TWSFarmReport(TWSNotice(requestID: -1, code: code, message: text))
            #expect(report == TWSFarmReport(farm: TWSFarm(kind: kind, name: name), state: state, code: code), "\(code)")
        }
        // Only the code decides: a farm-like text under another code is not a farm report.
        #expect(TWSFarmReport(TWSNotice(requestID: -1, code: 2119, message: "Market data farm is connecting:usfarm"))
            == nil)
        #expect(TWSFarmReport(TWSNotice(requestID: -1, code: 1100, message: "Connectivity lost")) == nil)
        #expect(TWSFarm(kind: .historicalData, name: "ushmds").description == "HMDS farm ushmds")
    }

    @Test func theBoardKeepsEachFarmsLastStateAndRebuildsItsReports() {
        var board = TWSFarmBoard()
        let us = TWSFarm(kind: .marketData, name: "usfarm")
        let hmds = TWSFarm(kind: .historicalData, name: "ushmds")
        #expect(board.apply(TWSFarmReport(farm: hmds, state: .ok, code: 2106)) == nil)
        #expect(board.apply(TWSFarmReport(farm: us, state: .ok, code: 2104)) == nil)
        #expect(board.apply(TWSFarmReport(farm: us, state: .broken, code: 2103)) == .ok)
        #expect(board.states == [us: .broken, hmds: .ok])
        #expect(board.reports == [
            TWSFarmReport(farm: us, state: .broken, code: 2103), TWSFarmReport(farm: hmds, state: .ok, code: 2106),
        ])
    }
}
