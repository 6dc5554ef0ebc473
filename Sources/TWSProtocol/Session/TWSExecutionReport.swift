/// A fill with its contract and, once known, its commission report.
public struct TWSExecutionReport: Sendable, Equatable, Codable {
    /// The contract traded.
    public var contract: TWSContract
    /// The execution (side `BOT`/`SLD`).
    public var execution: TWSExecution
    /// The commission report; `nil` until it arrived.
    public var commission: TWSCommissionReport?

    /// Creates a report.
    public init(contract: TWSContract, execution: TWSExecution, commission: TWSCommissionReport? = nil) {
        self.contract = contract
        self.execution = execution
        self.commission = commission
    }
}
