import Testing
import TraderConfig

/// The journal cannot be switched off by accident: an empty path is an error, `none` is explicit.
@Suite struct JournalSettingTests {
    @Test func aMissingSectionKeepsTheDefaultJournalNextToTheFile() throws {
        let fixture = try ConfigFixture("universe: {symbols: [AAPL]}")
        let loaded = try fixture.load()
        #expect(loaded.settings.journal.path == fixture.folder.appendingPathComponent("journal.sqlite").path)
    }

    @Test(arguments: ["journal: {path: \"\"}", "journal: {path: }", "journal: ''"])
    func anEmptyPathIsAnError(yaml: String) throws {
        let error = try #require(loadError(yaml), "\(yaml) loaded")
        #expect(error.key == "journal.path", "\(error)")
        #expect(error.message.contains("journal: none"))
    }

    @Test func anEmptyVariableIsAnError() throws {
        let error = try #require(loadError("journal: {path: j.sqlite}", environment: ["IBTRADER_JOURNAL_PATH": ""]))
        #expect(error.description.hasPrefix("IBTRADER_JOURNAL_PATH (environment): journal.path: empty"))
    }

    @Test func noneSwitchesItOffExplicitly() throws {
        #expect(try load("journal: none").settings.journal.isDisabled)
        #expect(try load("journal: nightly.sqlite").settings.journal.path?.hasSuffix("/nightly.sqlite") == true)
    }
}
