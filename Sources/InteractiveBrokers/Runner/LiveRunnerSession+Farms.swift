import TradingModel
import TWSClient
import TWSProtocol

// Data farms (2103–2108, 2157, 2158) through `FarmMonitor`: outages logged, long ones alerted, the broken ones in
// the portfolio summary.
extension Session {
    /// Follows one connection's farm notices: first the states TWS reported at connect (before this stretch
    /// listened), then each new one. The stream is opened before the states are read, so none is missed; a state
    /// seen twice is logged at debug.
    mutating func followFarms(
        _ connection: TWSConnection, generation: Int, input: RunnerInbox,
        group: inout ThrowingTaskGroup<Void, any Error>
    ) async {
        let notices = await connection.notices()
        for report in await connection.farms.reports { farmReported(report) }
        group.addTask {
            for await notice in notices {
                if let report = TWSFarmReport(notice) { input.yield(.farm(generation, report)) }
            }
        }
    }

    mutating func farmReported(_ report: TWSFarmReport) {
        let before = farms.farms[report.farm]?.state
        for action in farms.report(report, at: configuration.resilience.clock()) { carryOutFarm(action) }
        if before != report.state { configuration.resilience.observer?(.farmChanged(report.farm, report.state)) }
    }

    /// The 1-second tick: alerts an outage that outlasted the grace period.
    mutating func farmTick() {
        for action in farms.tick(at: configuration.resilience.clock()) { carryOutFarm(action) }
        for farm in farms.alertedByLastTick { configuration.resilience.observer?(.farmAlert(farm)) }
    }

    private func carryOutFarm(_ action: ConnectivityAction) {
        if case .log(let level, let text) = action { logger.log(level: level, "\(text)") }
    }
}
