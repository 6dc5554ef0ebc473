import Foundation
import TWSProtocol
import TradingModel

/// TWS executions and commission reports → domain values. Pure.
public enum ExecutionMapping {
    /// The domain side of an execution side (`BOT` bought, `SLD` sold).
    /// - Throws: `IBMappingError.unknownSide`.
    public static func side(ofExecution text: String) throws(IBMappingError) -> Side {
        switch text.uppercased() {
        case "BOT": .buy
        case "SLD": .sell
        default: throw .unknownSide(text)
        }
    }

    /// A TWS execution with its contract as a `BrokerExecution`.
    /// - Parameters:
    ///   - execution: execDetails' execution.
    ///   - contract: execDetails' contract.
    ///   - context: resolves the contract to an instrument; the zone of execution times without one.
    /// - Throws: `IBMappingError` for an unknown side, contract or time form, a missing execId, or a non-positive
    ///   quantity or price.
    public static func execution(
        _ execution: TWSExecution, contract: TWSContract, context: MappingContext
    ) throws(IBMappingError) -> BrokerExecution {
        guard !execution.executionID.isEmpty else { throw .missingField("execId") }
        let quantity = try WireNumbers.quantity(execution.shares, field: "shares")
        guard quantity.units > 0 else { throw .invalidQuantity(field: "shares", value: quantity.description) }
        return BrokerExecution(
            executionID: execution.executionID, brokerOrderID: execution.orderID, permID: execution.permID,
            orderRef: execution.orderRef, instrument: try context.contracts.instrument(for: contract),
            side: try side(ofExecution: execution.side), quantity: quantity,
            price: try WireNumbers.price(execution.price, field: "price"),
            time: try TWSTimeParser.timestamp(execution.time, defaultZone: context.defaultZone),
            account: execution.accountNumber)
    }

    /// The commission status of a commission report (`nil` report: pending).
    ///
    /// IB sometimes sends a report with `UNSET_DOUBLE` as the commission before the real one; that is pending too,
    /// never a zero fee.
    /// - Throws: `IBMappingError.invalidPrice` for a non-finite commission.
    public static func commission(_ report: TWSCommissionReport?) throws(IBMappingError) -> CommissionStatus {
        guard let report, report.commission != TWSSentinel.double, report.commission < 1e300 else { return .pending }
        let commission = try WireNumbers.money(report.commission, field: "commission")
        let realized: Money? = try report.realizedPNL.flatMap { value throws(IBMappingError) -> Money? in
            value >= 1e300 ? nil : try WireNumbers.money(value, field: "realizedPNL")
        }
        return .reported(commission, realizedPnL: realized)
    }
}
