import Foundation
import TWSClient
import TWSProtocol
import TradingModel

/// The broker's answers after a (re)connect → the reconciler's `BrokerSnapshot`. Pure.
public enum SnapshotMapping {
    /// An open order as the reconciler sees it.
    /// - Throws: `IBMappingError` for an unknown status or an unset quantity.
    public static func order(_ open: TWSOpenOrder) throws(IBMappingError) -> BrokerOrderSnapshot {
        BrokerOrderSnapshot(
            orderRef: open.order.orderRef, brokerOrderID: open.order.orderID, permID: open.order.permID,
            status: try BrokerOrderStatus(text: open.orderState.status),
            totalQuantity: try WireNumbers.quantity(open.order.totalQuantity, field: "totalQuantity"),
            parentBrokerOrderID: open.order.parentID)
    }

    /// Builds a snapshot; what cannot be mapped is returned as errors next to it (and left out of it).
    /// - Parameters:
    ///   - openOrders: reqAllOpenOrders / reqOpenOrders.
    ///   - executions: reqExecutions.
    ///   - positions: reqPositions.
    ///   - context: contracts, the account to keep (empty: all) and the zone of zone-less times.
    /// - Returns: the snapshot and the mapping errors.
    public static func snapshot(
        openOrders: [TWSOpenOrder], executions: [TWSExecutionReport], positions: [TWSPosition],
        context: SnapshotContext
    ) -> (BrokerSnapshot, [IBMappingError]) {
        var snapshot = BrokerSnapshot()
        var errors: [IBMappingError] = []
        for open in openOrders where context.accepts(open.order.account) {
            do throws(IBMappingError) { snapshot.openOrders.append(try order(open)) } catch { errors.append(error) }
        }
        for report in executions where context.accepts(report.execution.accountNumber) {
            do throws(IBMappingError) {
                snapshot.executions.append(try ExecutionMapping.execution(
                    report.execution, contract: report.contract, contracts: context.contracts,
                    defaultZone: context.defaultZone))
                if case .reported(let money, _) = try ExecutionMapping.commission(report.commission) {
                    snapshot.commissions[report.execution.executionID] = money
                }
            } catch {
                errors.append(error)
            }
        }
        for position in positions where context.accepts(position.account) {
            do throws(IBMappingError) {
                let mapped = try PositionMapping.position(position, contracts: context.contracts)
                if !mapped.quantity.isZero { snapshot.positions[mapped.instrument, default: .zero] += mapped.quantity }
            } catch {
                errors.append(error)
            }
        }
        return (snapshot, errors)
    }
}

/// What `SnapshotMapping` needs besides the messages.
public struct SnapshotContext: Sendable {
    /// The contracts of the universe.
    public var contracts: ContractBook
    /// The account to keep; empty keeps every account.
    public var account: String
    /// The zone of execution times without one.
    public var defaultZone: TimeZone

    /// Creates a context.
    public init(contracts: ContractBook, account: String = "", defaultZone: TimeZone = TWSTimeParser.utc) {
        self.contracts = contracts
        self.account = account
        self.defaultZone = defaultZone
    }

    func accepts(_ account: String) -> Bool { self.account.isEmpty || account.isEmpty || account == self.account }
}
