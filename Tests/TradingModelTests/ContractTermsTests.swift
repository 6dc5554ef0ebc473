import Foundation
import Testing
import TradingModel

/// A contract's terms and how the listings describe them.
@Suite struct ContractTermsTests {
    static let put = ContractTerms(
        symbol: "QQQ", securityType: "OPT", expiry: "20261218", strike: Price(400), right: "P", multiplier: "100",
        localSymbol: "QQQ   261218P00400000", currency: "USD")
    static let mes = ContractTerms(
        symbol: "MES", securityType: "FUT", expiry: "20260618", multiplier: "5", localSymbol: "MESM6", currency: "USD")

    @Test func descriptions() {
        #expect(ContractTerms(symbol: "AAPL", currency: "USD").description == "AAPL")
        #expect(Self.put.description == "QQQ 20261218 400 P (OPT ×100)")
        #expect(Self.mes.description == "MES 202606 (FUT ×5, MESM6)")
        #expect(ContractTerms(symbol: "EUR", securityType: "CASH", localSymbol: "EUR.USD", currency: "USD").description
            == "EUR.USD (CASH)")
        #expect(ContractTerms(symbol: "EUR", securityType: "CASH", currency: "USD").description == "EUR.USD (CASH)")
        #expect(ContractTerms(symbol: "VIX", securityType: "IND", currency: "USD").description == "VIX (IND)")
        var call = Self.put
        (call.strike, call.right, call.multiplier) = (Price("402.5"), "C", "100.0")
        #expect(call.description == "QQQ 20261218 402.5 C (OPT ×100)")
        var plain = Self.mes
        (plain.localSymbol, plain.multiplier) = ("", "")
        #expect(plain.description == "MES 202606 (FUT)")
    }

    @Test func theTermsABotNameStandsFor() {
        #expect(ContractTerms(instrument: "ES 2026-12").description == "ES 202612 (FUT ×50)")
        #expect(ContractTerms(instrument: "ES continuous").description == "ES continuous (FUT ×50)")
        #expect(ContractTerms(instrument: "EUR.USD").description == "EUR.USD (CASH)")
        #expect(ContractTerms(instrument: "AAPL").description == "AAPL")
        #expect(ContractTerms(instrument: "AAPL").isStock)
        #expect(ContractTerms(instrument: "VIX").type == "IND")
        let es = ContractTerms(instrument: "ES 2026-12")
        #expect(es.type == "FUT" && es.expiry == "202612" && es.multiplier == "50" && es.currency == "USD")
    }

    @Test func theStoredFormReadsBackExactly() throws {
        for terms in [Self.put, Self.mes, ContractTerms(symbol: "EUR", securityType: "CASH", localSymbol: "EUR.USD", currency: "USD")] {
            #expect(ContractTerms(storedText: terms.storedText) == terms, "\(terms.storedText)")
        }
        #expect(Self.mes.storedText == "FUT|MES|20260618|||5|MESM6|USD")
        for damaged in ["", "FUT|MES", "|MES|20260618|||5|MESM6|USD", "OPT|QQQ|20261218|four hundred|P|100||USD"] {
            #expect(ContractTerms(storedText: damaged) == nil, "\(damaged)")
        }
    }

    @Test func jsonCarriesTheFieldsByNameAndTheDescription() throws {
        let data = try JSONEncoder().encode(Self.put)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["securityType"] as? String == "OPT")
        #expect(object["expiry"] as? String == "20261218")
        #expect(object["strike"] as? String == "400")
        #expect(object["right"] as? String == "P")
        #expect(object["multiplier"] as? String == "100")
        #expect(object["description"] as? String == "QQQ 20261218 400 P (OPT ×100)")
        #expect(try JSONDecoder().decode(ContractTerms.self, from: data) == Self.put)
    }
}
