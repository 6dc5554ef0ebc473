import TWSProtocol

/// Joins execDetails and commissionReport by execId, whichever comes first (PROTOCOL.md §11 item 12). Pure.
///
/// Remembers the last `capacity` executions and unmatched commission reports, oldest dropped first.
struct ExecutionJoiner: Sendable {
    let capacity: Int
    private var executions: [String: TWSExecutionReport] = [:]
    private var executionOrder: [String] = []
    private var commissions: [String: TWSCommissionReport] = [:]
    private var commissionOrder: [String] = []

    init(capacity: Int = 2000) {
        self.capacity = capacity
    }

    /// Records an execution.
    /// - Returns: the report, with its commission when the commission report came first.
    mutating func add(contract: TWSContract, execution: TWSExecution) -> TWSExecutionReport {
        let id = execution.executionID
        var report = TWSExecutionReport(contract: contract, execution: execution, commission: commissions[id])
        if report.commission != nil {
            commissions[id] = nil
            commissionOrder.removeAll { $0 == id }
        } else if let known = executions[id]?.commission {
            report.commission = known
        }
        if executions.updateValue(report, forKey: id) == nil { executionOrder.append(id) }
        trim()
        return report
    }

    /// Records a commission report.
    /// - Returns: the joined report when its execution is known; `nil` while it is not (it is kept for later).
    mutating func add(commission: TWSCommissionReport) -> TWSExecutionReport? {
        let id = commission.executionID
        guard var report = executions[id] else {
            if commissions.updateValue(commission, forKey: id) == nil { commissionOrder.append(id) }
            trim()
            return nil
        }
        report.commission = commission
        executions[id] = report
        return report
    }

    /// The joined report for an execution id, if known.
    func report(executionID: String) -> TWSExecutionReport? {
        executions[executionID]
    }

    private mutating func trim() {
        while executionOrder.count > capacity { executions[executionOrder.removeFirst()] = nil }
        while commissionOrder.count > capacity { commissions[commissionOrder.removeFirst()] = nil }
    }
}
