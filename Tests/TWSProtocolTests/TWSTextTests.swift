import Testing
import TWSProtocol

@Suite struct TWSTextTests {
    @Test func unicodeEscapesAreUndone() {
        #expect(TWSText.unescapingUnicode("plain") == "plain")
        #expect(TWSText.unescapingUnicode("Soci\\u00e9t\\u00E9 G\\u00e9n\\u00e9rale") == "Société Générale")
        #expect(TWSText.unescapingUnicode("smile \\uD83D\\uDE00") == "smile 😀")
        #expect(TWSText.unescapingUnicode("bad \\u12G4 and \\u12") == "bad \\u12G4 and \\u12")
    }
}
