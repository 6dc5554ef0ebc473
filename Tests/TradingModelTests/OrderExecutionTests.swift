import Testing
import TradingModel

@Suite struct OrderExecutionTests {
    static let goodTill = Timestamp(year: 2026, month: 11, day: 24, secondOfDay: 21 * 3600)

    @Test func theStoredTextRoundTripsEveryTerm() {
        let cases = [
            OrderExecution(),
            OrderExecution(algo: .adaptive(.patient)),
            OrderExecution(outsideRegularHours: true),
            OrderExecution(goodTill: Self.goodTill),
            OrderExecution(algo: .adaptive(.urgent), outsideRegularHours: true, goodTill: Self.goodTill),
            OrderExecution(includeOvernight: true),
            OrderExecution(outsideRegularHours: true, includeOvernight: true),
        ]
        for execution in cases {
            #expect(OrderExecution(storedText: execution.storedText) == execution, "\(execution.storedText)")
        }
        #expect(
            OrderExecution(algo: .adaptive(.patient), outsideRegularHours: true, goodTill: Self.goodTill).storedText
                == "adaptive:Patient outside-rth good-till:\(Self.goodTill.nanoseconds)")
        #expect(OrderExecution().isPlain && !OrderExecution(outsideRegularHours: true).isPlain)
        #expect(!OrderExecution(includeOvernight: true).isPlain)
        #expect(OrderExecution(outsideRegularHours: true, includeOvernight: true).storedText == "outside-rth overnight")
    }

    /// A damaged row is refused, never read as a plain order.
    @Test func anUnknownWordIsNotReadAsAPlainOrder() {
        for text in ["vwap:Normal", "adaptive:Fast", "adaptive", "good-till:soon", "outside-rth:yes", "rth"] {
            #expect(OrderExecution(storedText: text) == nil, "\(text)")
        }
    }

    @Test func prioritiesAreReadInAnyCase() {
        #expect(AdaptivePriority(name: "patient") == .patient)
        #expect(AdaptivePriority(name: "URGENT") == .urgent)
        #expect(AdaptivePriority(name: "Normal") == .normal)
        #expect(AdaptivePriority(name: "slow") == nil)
    }

    @Test func theCompactUTCFormRoundTripsAndRefusesOtherForms() {
        #expect(Self.goodTill.compactUTCText == "20261124-21:00:00")
        #expect(Timestamp(compactUTCText: "20261124-21:00:00") == Self.goodTill)
        #expect(Timestamp(year: 2024, month: 2, day: 29, secondOfDay: 59).compactUTCText == "20240229-00:00:59")
        for text in ["20261124 21:00:00", "2026-11-24T21:00:00", "20261131-21:00:00", "20261124-24:00:00",
            "20261124-21:60:00", "2026112a-21:00:00", "99991231-00:00:00", "+0261124-21:00:00", ""]
        {
            #expect(Timestamp(compactUTCText: text) == nil, "\(text)")
        }
    }
}
