import Foundation
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

    /// The domain terms of an open order (instrument, side, quantity, type and prices, time in force, algo,
    /// outside-RTH, GTD expiry).
    /// - Throws: `IBMappingError` for a contract outside the universe, an unsupported type or time in force.
    public static func request(_ open: TWSOpenOrder, contracts: ContractBook) throws(IBMappingError) -> OrderRequest {
        var request = OrderRequest(
            instrument: try contracts.instrument(for: open.contract),
            side: try OrderMapping.side(ofAction: open.order.action),
            quantity: try WireNumbers.quantity(open.order.totalQuantity, field: "totalQuantity"),
            type: try OrderMapping.orderType(of: open.order),
            timeInForce: try OrderMapping.timeInForce(ofWire: open.order.timeInForce))
        request.execution = OrderMapping.execution(of: open.order)
        return request
    }

    /// A completed order as the reconciler sees it (no TWS order id on the wire: 0).
    /// - Throws: `IBMappingError` for an unknown status or an unset quantity.
    public static func order(_ completed: TWSCompletedOrder) throws(IBMappingError) -> BrokerOrderSnapshot {
        BrokerOrderSnapshot(
            orderRef: completed.order.orderRef, brokerOrderID: 0, permID: completed.order.permID,
            status: try BrokerOrderStatus(text: completed.orderState.status),
            totalQuantity: try WireNumbers.quantity(completed.order.totalQuantity, field: "totalQuantity"))
    }

    /// Builds a snapshot; what cannot be mapped is returned as errors next to it (and left out of it).
    /// - Parameters:
    ///   - answers: reqOpenOrders/reqAllOpenOrders, reqExecutions and reqPositions results.
    ///   - context: contracts, the account to keep (empty: all) and the zone of zone-less times.
    /// - Returns: the snapshot and the mapping errors.
    public static func snapshot(_ answers: BrokerAnswers, context: MappingContext) -> (BrokerSnapshot, [IBMappingError])
    {
        var snapshot = BrokerSnapshot()
        var errors: [IBMappingError] = []
        for open in answers.openOrders where context.accepts(open.order.account) {
            do throws(IBMappingError) {
                var mapped = try order(open)
                // Terms are best effort: an order we cannot express is still matched by orderRef and permId.
                mapped.request = try? request(open, contracts: context.contracts)
                mapped.clientID = open.order.clientID
                snapshot.openOrders.append(mapped)
            } catch { errors.append(error) }
        }
        for completed in answers.completedOrders where context.accepts(completed.order.account) {
            do throws(IBMappingError) { snapshot.completedOrders.append(try order(completed)) } catch {
                errors.append(error)
            }
        }
        for report in answers.executions where context.accepts(report.execution.accountNumber) {
            do throws(IBMappingError) {
                snapshot.executions.append(
                    try ExecutionMapping.execution(
                        report.execution, contract: report.contract, context: context))
                if case .reported(let money, _) = try ExecutionMapping.commission(report.commission) {
                    snapshot.commissions[report.execution.executionID] = money
                }
            } catch {
                errors.append(error)
            }
        }
        for position in answers.positions where context.accepts(position.account) {
            do throws(IBMappingError) {
                let mapped = try PositionMapping.position(position, contracts: context.contracts)
                if !mapped.quantity.isZero {
                    snapshot.positions[mapped.instrument, default: .zero] += mapped.quantity
                    snapshot.averageCosts[mapped.instrument] = mapped.averagePrice
                }
            } catch {
                errors.append(error)
            }
        }
        return (snapshot, errors)
    }
}

/// The broker's answers a snapshot is built from.
public struct BrokerAnswers: Sendable, Equatable, Codable {
    /// Open orders (reqAllOpenOrders / reqOpenOrders).
    public var openOrders: [TWSOpenOrder]
    /// Executions with their commissions (reqExecutions).
    public var executions: [TWSExecutionReport]
    /// Positions (reqPositions).
    public var positions: [TWSPosition]
    /// Orders that ended today (reqCompletedOrders).
    public var completedOrders: [TWSCompletedOrder]
    /// The parts TWS did not finish (their `…End` never came in time, or the request failed): what arrived of them is
    /// above, and may not be all. Empty: every part is complete.
    public var shortfalls: [Shortfall] = []

    /// A part of the answers that may be incomplete.
    public struct Shortfall: Sendable, Equatable, Codable {
        /// Which part.
        public var part: Part
        /// Why (`no execDetailsEnd within 15 s`, TWS's refusal).
        public var reason: String

        /// Creates a shortfall.
        public init(_ part: Part, reason: String) {
            self.part = part
            self.reason = reason
        }
    }

    /// The parts whose shortfall does not fail the answers: the bot can go on without them.
    public enum Part: String, Sendable, Equatable, Codable {
        /// reqExecutions.
        case executions
        /// reqCompletedOrders.
        case completedOrders
    }

    /// Creates the answers.
    public init(
        openOrders: [TWSOpenOrder], executions: [TWSExecutionReport], positions: [TWSPosition],
        completedOrders: [TWSCompletedOrder] = []
    ) {
        self.completedOrders = completedOrders
        self.openOrders = openOrders
        self.executions = executions
        self.positions = positions
    }

    /// The shortfall of a part, if it has one.
    public func shortfall(of part: Part) -> Shortfall? { shortfalls.first { $0.part == part } }

    private enum CodingKeys: String, CodingKey { case openOrders, executions, positions, completedOrders, shortfalls }

    /// Decodes the answers; those recorded before shortfalls existed have none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        openOrders = try container.decode([TWSOpenOrder].self, forKey: .openOrders)
        executions = try container.decode([TWSExecutionReport].self, forKey: .executions)
        positions = try container.decode([TWSPosition].self, forKey: .positions)
        completedOrders = try container.decode([TWSCompletedOrder].self, forKey: .completedOrders)
        shortfalls = try container.decodeIfPresent([Shortfall].self, forKey: .shortfalls) ?? []
    }
}
