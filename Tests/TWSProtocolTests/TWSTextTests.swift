import Testing
import TWSProtocol

@Suite struct TWSTextTests {
    /// Raw server bytes went into the log as they came, terminal escapes included (reliability audit, campaign 2).
    @Test func loggableTextSpellsOutControlCharactersAndIsCut() {
        #expect(TWSText.loggable("fbd\u{1B}[31mJ\u{0}|O\u{FEFF}") == "fbd\\u{1b}[31mJ\\u{0}|O\\u{feff}")
        #expect(TWSText.loggable(String(repeating: "x", count: 5_000), limit: 10) == "xxxxxxxxxx…")
        #expect(TWSText.loggable("AAPL 150.25 é") == "AAPL 150.25 é")
    }

    @Test func unicodeEscapesAreUndone() {
        #expect(TWSText.unescapingUnicode("plain") == "plain")
        #expect(TWSText.unescapingUnicode("Soci\\u00e9t\\u00E9 G\\u00e9n\\u00e9rale") == "Société Générale")
        #expect(TWSText.unescapingUnicode("smile \\uD83D\\uDE00") == "smile 😀")
        #expect(TWSText.unescapingUnicode("bad \\u12G4 and \\u12") == "bad \\u12G4 and \\u12")
    }
}
