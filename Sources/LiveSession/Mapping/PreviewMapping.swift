import Foundation
import TWSProtocol
import TradingModel

/// Reads TWS's what-if answer (the `orderState` of an `openOrder` sent for an order with `whatIf`).
public enum PreviewMapping {
    /// The preview in an order state.
    public static func preview(of state: TWSOrderState) -> OrderPreview {
        var preview = OrderPreview()
        preview.initialMargin = OrderPreview.Figure(
            before: number(state.initMarginBefore), change: number(state.initMarginChange),
            after: number(state.initMarginAfter))
        preview.maintenanceMargin = OrderPreview.Figure(
            before: number(state.maintMarginBefore), change: number(state.maintMarginChange),
            after: number(state.maintMarginAfter))
        preview.equityWithLoan = OrderPreview.Figure(
            before: number(state.equityWithLoanBefore), change: number(state.equityWithLoanChange),
            after: number(state.equityWithLoanAfter))
        preview.commission = state.commission.flatMap(value)
        if let low = state.minCommission.flatMap(value), let high = state.maxCommission.flatMap(value), low <= high {
            preview.commissionRange = low...high
        }
        preview.commissionCurrency = state.commissionCurrency
        preview.warning = state.warningText.isEmpty ? nil : state.warningText
        return preview
    }

    /// A figure from TWS's text: `nil` when empty, unreadable or TWS's "unset" (`Double.greatestFiniteMagnitude`).
    static func number(_ text: String) -> Double? {
        Double(text.trimmingCharacters(in: .whitespaces)).flatMap(value)
    }

    private static func value(_ number: Double) -> Double? {
        number.isFinite && abs(number) < 1e300 ? number : nil
    }
}
