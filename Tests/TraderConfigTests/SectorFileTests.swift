import Foundation
import Testing
import TraderConfig

/// Issue 42: `universe.sectors` takes the mapping inline, or a `.csv` file (the bundled `sectors.csv` layout) or a
/// `.yaml` file of the mapping, relative to the config; a bad file is an error naming the file, line and key.
struct SectorFileTests {
    @Test func aCSVFileBesideTheConfig() throws {
        let fixture = try ConfigFixture("universe: {symbols: [AAPL, XOM], sectors: sectors.csv}")
        try """
            symbol,name,sector,industry
            aapl,"Apple, Inc.",Technology,Computers
            XOM,Exxon Mobil,Energy,Oil

            """.write(to: fixture.folder.appendingPathComponent("sectors.csv"), atomically: true, encoding: .utf8)
        #expect(try fixture.load().settings.universe.sectors == ["AAPL": "Technology", "XOM": "Energy"])
    }

    @Test func aYAMLFileBesideTheConfig() throws {
        let fixture = try ConfigFixture("universe: {sectors: sectors.yaml}")
        try "AAPL: Technology\nxom: Energy\n"
            .write(to: fixture.folder.appendingPathComponent("sectors.yaml"), atomically: true, encoding: .utf8)
        #expect(try fixture.load().settings.universe.sectors == ["AAPL": "Technology", "XOM": "Energy"])
    }

    @Test func aBadRowNamesTheFileAndLine() throws {
        let fixture = try ConfigFixture("universe: {sectors: sectors.csv}")
        try "symbol,sector\nAAPL,Technology\nXOM\n"
            .write(to: fixture.folder.appendingPathComponent("sectors.csv"), atomically: true, encoding: .utf8)
        let error = try #require(fixture.error())
        #expect(error.key == "universe.sectors")
        #expect(error.message.contains("sectors.csv:3: a row needs a symbol and a sector"), "\(error)")
    }

    @Test(arguments: [
        ("universe: {sectors: sectors.txt}", "is not a sector file: give a .csv file"),
        ("universe: {sectors: missing.csv}", "cannot read the sector file"),
    ])
    func whatIsNotASectorFile(yaml: String, message: String) throws {
        let error = try #require(try ConfigFixture(yaml).error())
        #expect(error.key == "universe.sectors" && error.message.contains(message), "\(error)")
    }

    @Test func aByteOrderMarkAndQuotedCommasRead() throws {
        let sectors = try SectorFile.parse("\u{FEFF}symbol,name,sector\r\nADI,\"Analog Devices, Inc.\",Technology\r\n", file: "x")
        #expect(sectors == ["ADI": "Technology"])
        #expect(SectorFile.splitCSVLine(#"A,"B, ""C"" D",E"#) == ["A", #"B, "C" D"#, "E"])
    }
}
