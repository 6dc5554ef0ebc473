import Foundation

/// One band of a market rule (marketRule, id 93): from `lowEdge` up, a price is a multiple of `increment`.
///
/// A contract's details name one rule per valid exchange (`TWSContractDetails.marketRuleIDs`); `reqMarketRule`
/// answers with the rule's bands, by rising low edge. IB's US-stock rule 26: `0 → 0.0001`, `1 → 0.01`.
public struct TWSPriceIncrement: Sendable, Hashable, Codable {
    /// Where the band starts (inclusive).
    public var lowEdge: Double
    /// The band's price increment.
    public var increment: Double

    /// Creates a band.
    public init(lowEdge: Double, increment: Double) {
        self.lowEdge = lowEdge
        self.increment = increment
    }
}

extension TWSContractDetails {
    /// The market rule of `exchange` (`SMART` for a smart-routed order), else the first one listed: `marketRuleIds`
    /// holds one id per exchange of `validExchanges`, in the same order. `nil` when none is given or it is not a
    /// number.
    public func marketRuleID(forExchange exchange: String = "SMART") -> Int? {
        let rules = marketRuleIDs.split(separator: ",", omittingEmptySubsequences: false).map {
            Int($0.trimmingCharacters(in: .whitespaces))
        }
        let exchanges = validExchanges.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces).uppercased()
        }
        if let index = exchanges.firstIndex(of: exchange.uppercased()), index < rules.count, let rule = rules[index] {
            return rule
        }
        return rules.first ?? nil
    }
}
