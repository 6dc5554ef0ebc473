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
    ///   - context: resolves the contract to an instrument; the zone of execution times without one; the receipt
    ///     time that stands for a time that does not read (`receivedAt`).
    /// - Throws: `IBMappingError` for an unknown side or contract, a missing execId, or a non-positive quantity or
    ///   price; for a time that does not read (unknown zone, malformed, out of range) only without
    ///   `context.receivedAt` — with it, the execution gets that time and a `timeNote` saying what TWS sent.
    public static func execution(
        _ execution: TWSExecution, contract: TWSContract, context: MappingContext
    ) throws(IBMappingError) -> BrokerExecution {
        guard !execution.executionID.isEmpty else { throw .missingField("execId") }
        let quantity = try WireNumbers.quantity(execution.shares, field: "shares")
        guard quantity.units > 0 else { throw .invalidQuantity(field: "shares", value: quantity.description) }
        var note: String?
        let time: Timestamp
        do throws(IBMappingError) {
            time = try TWSTimeParser.timestamp(execution.time, defaultZone: context.defaultZone)
        } catch {
            guard let received = context.receivedAt else { throw error }
            time = received
            note = timeNote(execution, error, received: received)
        }
        var mapped = BrokerExecution(
            executionID: execution.executionID, brokerOrderID: execution.orderID, permID: execution.permID,
            orderRef: execution.orderRef, instrument: try context.contracts.instrument(for: contract),
            side: try side(ofExecution: execution.side), quantity: quantity,
            price: try WireNumbers.price(execution.price, field: "price"), time: time,
            account: execution.accountNumber)
        mapped.timeNote = note
        mapped.contract = ContractTerms(contract).unlessStock
        return mapped
    }

    /// What is said of an execution whose time did not read: the text TWS sent, why, and the time used instead.
    /// - Parameters:
    ///   - execution: the execution as TWS sent it.
    ///   - error: why its time did not read.
    ///   - received: the time recorded instead (when it was received).
    public static func timeNote(_ execution: TWSExecution, _ error: IBMappingError, received: Timestamp) -> String {
        let what = execution.orderRef.isEmpty ? "order id \(execution.orderID)" : execution.orderRef
        return "execution \(execution.executionID) (\(what)): TWS's time \"\(execution.time)\" does not read (\(error)); "
            + "recorded with the time it was received, \(received), instead"
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
