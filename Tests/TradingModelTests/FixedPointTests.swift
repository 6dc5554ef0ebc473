import Testing
import TradingModel

@Suite struct FixedPointTests {
    @Test(arguments: [
        ("100.0211", Int64(10_002_110_000)), ("0.0001", 10_000), ("-12.5", -1_250_000_000), ("7", 700_000_000),
        ("0.12345678", 12_345_678), (".5", 50_000_000),
    ])
    func parsesExactly(text: String, units: Int64) {
        #expect(FixedPoint.parse(text) == units)
    }

    @Test(arguments: [
        "", "-", "1.2.3", "abc", "1.123456789", "99999999999999999999", "1e5", "12 ",
        // The Int64 range ends at 92233720368.54775807: the whole part fits, adding the fraction overflows.
        "92233720368.55", "-92233720368.55", "92233720369",
    ])
    func rejectsMalformed(text: String) {
        #expect(FixedPoint.parse(text) == nil)
    }

    @Test func parsesTheLargestValue() {
        #expect(FixedPoint.parse("92233720368.54775807") == Int64.max)
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity, 1e300, 92_233_720_369, -92_233_720_369])
    func checkedUnitsRefuseWhatDoesNotFit(value: Double) {
        #expect(FixedPoint.checkedUnits(value) == nil)
    }

    @Test func checkedUnitsRoundToTheNearestUnit() {
        #expect(FixedPoint.checkedUnits(150.25) == 15_025_000_000)
        #expect(FixedPoint.checkedUnits(-1.25) == -125_000_000)
        #expect(FixedPoint.checkedUnits(92_233_720_368) == 9_223_372_036_800_000_000)
    }

    @Test func checkedApproximateValuesRefuseWhatDoesNotFit() {
        #expect(Price(checkedApproximately: 150.25) == Price("150.25"))
        #expect(Quantity(checkedApproximately: 1e40) == nil)
        #expect(Money(checkedApproximately: .nan) == nil)
        #expect(Money(checkedApproximately: -1e300) == nil)
    }

    @Test func formatsWithoutTrailingZeros() {
        #expect(Price("100.0200")?.description == "100.02")
        #expect(Price("-0.5")?.description == "-0.5")
        #expect(Money(units: 10_364_588_000_000).centsDescription == "103645.88")
        #expect(Money(units: 5).centsDescription == "0.00")
        #expect(Money(-1).centsDescription == "-1.00")
    }

    @Test func notionalIsExact() {
        let p = Price("101.4835")!
        #expect(Money(price: p, quantity: Quantity(100)) == Money("10148.35")!)
        // Fractional quantity goes through the wide path and rounds half away from zero.
        #expect(Money(price: Price("0.00000001")!, quantity: Quantity("0.5")!) == Money(units: 1))
        #expect(Money(price: Price("3")!, quantity: Quantity("-0.25")!) == Money("-0.75")!)
    }

    @Test func tickAndLotRounding() {
        #expect(Price("10.006")!.rounded(toTick: Price("0.01")!) == Price("10.01")!)
        #expect(Quantity("157.9")!.rounded(downToLot: Quantity(10)) == Quantity(150))
    }

    @Test func basisPointAdjustment() {
        #expect(Price(100).adjusted(byBasisPoints: 5) == Price("100.05")!)
        #expect(Price(100).adjusted(byBasisPoints: -10) == Price("99.9")!)
    }
}

@Suite struct TimestampTests {
    @Test func civilDateRoundTrip() {
        let t = Timestamp(year: 2020, month: 1, day: 2, secondOfDay: 14 * 3600 + 30 * 60)
        #expect(t.nanoseconds == 1_577_975_400 * 1_000_000_000)
        #expect(t.description == "2020-01-02T14:30:00Z")
        #expect(t.weekday == 3)  // Thursday
        #expect(t.civilDate == (2020, 1, 2))
        #expect(Timestamp(year: 2024, month: 2, day: 29).civilDate == (2024, 2, 29))
        #expect(Timestamp(year: 1969, month: 12, day: 31).dayNumber == -1)
    }

    @Test func arithmetic() {
        let t = Timestamp(seconds: 60)
        #expect(t + .minutes(1) == Timestamp(seconds: 120))
        #expect(Timestamp(seconds: 120) - t == .seconds(60))
        #expect(t - .seconds(60) == .zero)
    }
}

@Suite struct IdentifierTests {
    @Test(arguments: [Int64(0), 7, 42, 1_234_567, -15, Int64.max])
    func engineAssignedClientIDsSpellTheNumber(number: Int64) {
        #expect(ClientOrderID.engineAssigned(number: number).rawValue == "O-\(number)")
        #expect(ClientOrderID.engineAssigned(prefix: "B", number: number).rawValue == "B\(number)")
    }
}
