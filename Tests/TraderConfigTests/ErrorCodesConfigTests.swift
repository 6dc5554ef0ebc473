import Testing
import TraderConfig

/// Issue 44: `connection.errorCodes` reclassifies TWS codes from the config; a bad entry names its key and says what
/// is allowed.
struct ErrorCodesConfigTests {
    @Test func codesAreReadFromTheConfig() throws {
        let loaded = try ConfigFixture("connection:\n  errorCodes: {10349: terminal, 2188: notice}\n").load()
        #expect(loaded.settings.connection.errorCodes == [10349: "terminal", 2188: "notice"])
        #expect(try ConfigFixture("connection: {port: 4002}\n").load().settings.connection.errorCodes.isEmpty)
    }

    @Test(arguments: [
        ("{abc: notice}", "connection.errorCodes.abc", "'abc' is not a TWS error code"),
        ("{1100: notice}", "connection.errorCodes.1100", "1100 keeps its meaning"),
        ("{10349: warn}", "connection.errorCodes.10349", "must be one of notice, terminal, got 'warn'"),
        ("[10349]", "connection.errorCodes", "expected a mapping of TWS error codes to notice or terminal"),
    ])
    func aBadEntryNamesItsKey(value: String, key: String, message: String) throws {
        let fixture = try ConfigFixture("connection:\n  errorCodes: \(value)\n")
        do {
            _ = try fixture.load()
            Issue.record("\(value) was accepted")
        } catch {
            #expect(error.key == key, "\(error)")
            #expect(error.description.contains(message), "\(error)")
        }
    }
}
