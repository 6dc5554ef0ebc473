import JournalModel
import TradingEngine
import TradingModel

/// A risk denial whose cause repeats: a strategy that asks for the same refused entry on every bar.
struct RepeatedDenial: Sendable {
    /// The symbol and the rule: the cause.
    var cause: String
    /// Denials of that cause after the first, not said one by one.
    var repeats = 0
}

extension LiveSessionCore {
    /// Says each risk decision once: a denial is logged and journaled the first time its cause (symbol and rule)
    /// appears; its repeats are counted and said in one line when another cause comes or the run stops. An entry
    /// scaled down to fit a limit is logged and journaled with both quantities and the limit.
    mutating func logDenials(quiet: Bool, _ out: inout Actions) {
        let denials = engine.denials
        while denialsLogged < denials.count {
            let record = denials[denialsLogged]
            denialsLogged += 1
            let cause = "\(universe[record.instrument].symbol) \(record.denial.rule.rawValue)"
            if repeatedDenial?.cause == cause {
                repeatedDenial?.repeats += 1
                continue
            }
            sayRepeatedDenials(&out)
            repeatedDenial = RepeatedDenial(cause: cause)
            out.log(
                quiet ? .info : .warning,
                "risk denial: order \(record.orderID) \(universe[record.instrument].symbol): \(record.denial)")
            if settings.journaled {
                out.append(journalEvent(.riskDenial, "\(record.orderID): \(record.denial)", dataTime: record.time))
            }
        }
        let adjustments = engine.adjustments
        while adjustmentsLogged < adjustments.count {
            let record = adjustments[adjustmentsLogged]
            adjustmentsLogged += 1
            let text = "risk: order \(record.orderID) \(universe[record.instrument].symbol) \(record.note)"
            out.log(.notice, text)
            if settings.journaled { out.append(journalEvent(.riskDenial, text, dataTime: record.time)) }
        }
    }

    /// The count of a repeated denial, once (at another cause, and at the stop).
    mutating func sayRepeatedDenials(_ out: inout Actions) {
        guard let run = repeatedDenial, run.repeats > 0 else { return }
        repeatedDenial?.repeats = 0
        let text = "risk denial (\(run.cause)) repeated \(run.repeats) more time\(run.repeats == 1 ? "" : "s")"
        out.log(.info, text)
        if settings.journaled { out.append(journalEvent(.riskDenial, text)) }
    }
}
