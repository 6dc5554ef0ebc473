import TWSProtocol
import Testing

@testable import TWSClient

@Suite struct ExecutionJoinerTests {
    private func execution(_ id: String) -> TWSExecution {
        var execution = TWSExecution(executionID: id)
        execution.side = "BOT"
        return execution
    }

    private func commission(_ id: String, _ amount: Double) -> TWSCommissionReport {
        TWSCommissionReport(executionID: id, commission: amount, currency: "USD")
    }

    @Test func commissionAfterExecutionIsJoined() {
        var joiner = ExecutionJoiner()
        let report = joiner.add(contract: TWSContract(), execution: execution("e1"))
        #expect(report.commission == nil)
        let joined = joiner.add(commission: commission("e1", 1.0))
        #expect(joined?.execution.executionID == "e1")
        #expect(joined?.commission?.commission == 1.0)
    }

    @Test func commissionBeforeExecutionIsKeptUntilItArrives() {
        var joiner = ExecutionJoiner()
        #expect(joiner.add(commission: commission("e2", 2.5)) == nil)
        let report = joiner.add(contract: TWSContract(), execution: execution("e2"))
        #expect(report.commission?.commission == 2.5)
    }

    @Test func oldEntriesAreDropped() {
        var joiner = ExecutionJoiner(capacity: 2)
        for id in ["a", "b", "c"] { _ = joiner.add(contract: TWSContract(), execution: execution(id)) }
        #expect(joiner.report(executionID: "a") == nil)
        #expect(joiner.report(executionID: "c") != nil)
    }
}
