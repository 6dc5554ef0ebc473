import Testing
import TraderKit

struct HistoryDateTests {
    /// `ibtrader history` printed `99991231` as 1973-03-03 and `20250230` as 2025-02-30 (reliability audit,
    /// campaign 2); such dates are now refused, so the command stops with an error naming the date.
    @Test func historyPrintsOnlyRealDates() {
        #expect(CLITime.barDate("20240301") == "2024-03-01")
        #expect(CLITime.barDate("1709303400") == "2024-03-01T14:30:00Z")
        for hostile in ["99991231", "00000101", "20250230", "-9999999999", "9223372037"] {
            #expect(CLITime.barDate(hostile) == nil, "\(hostile)")
        }
    }
}
