import Analytics
import Foundation
import InteractiveBrokers
import LiveSession
import TradingModel

extension ManualListing {
    /// `ibtrader order … --what-if`: TWS's margin and commission preview as a table, or one JSON record.
    public static func whatIf(_ result: ManualWhatIfResult, json: Bool) -> [String] {
        let denial = result.riskDenial.map { "\($0)" }
        switch result.outcome {
        case .preview(let preview):
            if json { return [whatIfJSON(result, preview: preview, denial: denial)] }
            var lines = ["what-if (nothing sent): \(result.order) (account \(result.account))"]
            if result.entryOnly { lines.append("  the bracket's entry only; its stop-loss and take-profit add no margin") }
            func cell(_ value: Double?) -> String { value.map { String(format: "%.2f", $0) } ?? "" }
            let rows = [
                ("initial margin", preview.initialMargin), ("maintenance margin", preview.maintenanceMargin),
                ("equity with loan", preview.equityWithLoan),
            ].map { name, figure in [name, cell(figure.before), cell(figure.change), cell(figure.after)] }
            lines.append(TextTable.render(header: ["", "before", "change", "after"], rows: rows, rightAligned: [1, 2, 3]))
            var commission = "commission: " + (preview.commission.map { String(format: "%.2f", $0) } ?? "not given")
            if let range = preview.commissionRange, range.lowerBound < range.upperBound {
                commission += String(format: " (%.2f to %.2f)", range.lowerBound, range.upperBound)
            }
            if !preview.commissionCurrency.isEmpty { commission += " \(preview.commissionCurrency)" }
            lines.append(commission)
            if let warning = preview.warning { lines.append("warning from TWS: \(warning)") }
            if let denial { lines.append("risk rules: this order would be denied: \(denial)") }
            return lines
        case .rejected(let text):
            if json { return [statusJSON(result, status: "rejected", detail: text, denial: denial)] }
            return ["what-if rejected by TWS: \(result.order) (account \(result.account)): \(text)"]
        case .timedOut:
            let text = "no preview from TWS in time (--timeout)"
            if json { return [statusJSON(result, status: "timeout", detail: text, denial: denial)] }
            return ["what-if timed out: \(result.order) (account \(result.account)): \(text)"]
        }
    }

    private static func whatIfJSON(_ result: ManualWhatIfResult, preview: OrderPreview, denial: String?) -> String {
        func number(_ value: Double?) -> JSONValue { value.map { .number($0) } ?? .null }
        let (initial, maintenance, equity) = (preview.initialMargin, preview.maintenanceMargin, preview.equityWithLoan)
        return JSONLine.render([
            "record": .string("what-if"), "account": .string(result.account), "order": .string(result.order),
            "status": .string("preview"), "entryOnly": .bool(result.entryOnly),
            "initMarginBefore": number(initial.before), "initMarginChange": number(initial.change),
            "initMarginAfter": number(initial.after),
            "maintMarginBefore": number(maintenance.before), "maintMarginChange": number(maintenance.change),
            "maintMarginAfter": number(maintenance.after),
            "equityWithLoanBefore": number(equity.before), "equityWithLoanChange": number(equity.change),
            "equityWithLoanAfter": number(equity.after),
            "commission": number(preview.commission),
            "commissionCurrency": preview.commissionCurrency.isEmpty ? .null : .string(preview.commissionCurrency),
            "warning": preview.warning.map { .string($0) } ?? .null, "riskDenial": denial.map { .string($0) } ?? .null,
        ])
    }

    private static func statusJSON(_ result: ManualWhatIfResult, status: String, detail: String, denial: String?) -> String {
        JSONLine.render([
            "record": .string("what-if"), "account": .string(result.account), "order": .string(result.order),
            "status": .string(status), "detail": .string(detail), "riskDenial": denial.map { .string($0) } ?? .null,
        ])
    }
}
