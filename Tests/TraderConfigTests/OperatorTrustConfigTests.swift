import Foundation
import Testing
import TraderConfig

/// Issue 45's configuration half: secrets never shown, every `IBTRADER_` variable a key (or said to be one's own),
/// addresses checked before anything connects.
struct OperatorTrustConfigTests {
    static let secrets = [
        "dashboard-token-0123456789abcdef", "123456:telegram-secret", "sms-secret-pass", "smtp-secret-pass",
        "hooks-secret-T000/B000/XXXX", "url-user:url-pass",
    ]
    static let yaml = """
        dashboard: {token: dashboard-token-0123456789abcdef}
        alerts:
          webhook: https://hooks.slack.com/services/hooks-secret-T000/B000/XXXX
          telegramToken: '123:telegram-secret'
          telegramChats: ['42']
          telegramApi: https://url-user:url-pass@telegram.example/api
          smsUrl: https://sms.example/send
          smsUser: AC1
          smsPassword: sms-secret-pass
          smsFrom: '+100'
          smsTo: ['+200']
        """

    @Test func showPrintsNoSecret() throws {
        let fixture = try ConfigFixture(Self.yaml)
        // One secret from the environment, as the docs recommend.
        let loaded = try fixture.load(environment: [
            "IBTRADER_ALERTS_SMTPPASSWORD": "smtp-secret-pass", "IBTRADER_ALERTS_TELEGRAMTOKEN": "123456:telegram-secret",
        ])
        #expect(loaded.settings.alerts.smtpPassword == "smtp-secret-pass", "the value itself is kept")
        let shown = ConfigRendering.show(loaded)
        for secret in Self.secrets + ["url-pass", "telegram-secret"] {
            #expect(!shown.contains(secret), "'\(secret)' printed:\n\(shown)")
        }
        for key in ["token", "webhook", "telegramToken", "smsPassword", "smtpPassword"] {
            let line = try #require(shown.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(key + ":") })
            #expect(line.contains("'********'") && line.contains("set, hidden"), "\(line)")
        }
        #expect(shown.contains("https://********@telegram.example/api"), "a URL's credentials are hidden, the rest shown")
        #expect(shown.contains("smsUrl: https://sms.example/send"), "what is not secret is shown")
    }

    @Test func anUnsetSecretShowsAsNone() throws {
        let shown = ConfigRendering.show(try load("{}"))
        #expect(shown.contains("smtpPassword: none"))
        #expect(!shown.contains("********"))
    }

    @Test func aMisspeltSectionVariableIsRefusedWithTheNearestKey() throws {
        let error = try #require(loadError("", environment: ["IBTRADER_CONECTION_PORT": "4002"]))
        #expect(error.description.hasPrefix("IBTRADER_CONECTION_PORT (environment): "), "\(error)")
        #expect(error.message.contains("did you mean IBTRADER_CONNECTION_PORT (connection.port)?"), "\(error)")
        #expect(error.message.contains("IBTRADER_IGNORE"), "says how to pass a variable of one's own: \(error)")
        let unrelated = try #require(loadError("", environment: ["IBTRADER_DEPLOY_COLOUR": "blue"]))
        #expect(unrelated.message.hasPrefix("names no configuration key"), "\(unrelated)")
    }

    @Test func ignoredVariablesPass() throws {
        let loaded = try load("", environment: [
            "IBTRADER_IGNORE": "IBTRADER_DEPLOY_*, IBTRADER_HOST_TAG", "IBTRADER_DEPLOY_COLOUR": "blue",
            "IBTRADER_HOST_TAG": "a", "IBTRADER_CONNECTION_PORT": "4002",
        ])
        #expect(loaded.settings.connection.port == 4002)
        #expect(loadError("", environment: ["IBTRADER_IGNORE": "IBTRADER_HOST_TAG", "IBTRADER_HOST_TAGS": "a"]) != nil)
        #expect(loadError("", environment: ["IBTRADER_KILL_SWITCH": "1", "IBTRADER_LOG_LEVEL": "info"]) == nil, "the program's own")
    }

    @Test func theDashboardAddressIsCheckedWithFileLineAndKey() throws {
        let fixture = try ConfigFixture("dashboard:\n  bind: not a host\n")
        let error = try #require(fixture.error())
        #expect(error.description.hasPrefix("\(fixture.path):2:"), "\(error)")
        #expect(error.description.contains("dashboard.bind"), "\(error)")
        #expect(error.message.contains("must be an IP address"), "\(error)")
        for good in ["127.0.0.1", "0.0.0.0", "::1", "::", "[::1]", "localhost", "ib-gateway", "bot_host.lan"] {
            #expect(loadError("dashboard: {bind: '\(good)'}") == nil, "\(good)")
        }
        for bad in ["not a host", "300.1.2.3", "-x", "a..b", "http://x"] {
            #expect(loadError("dashboard: {bind: '\(bad)'}") != nil, "\(bad)")
        }
        #expect(loadError("connection: {host: 'tws host'}")?.description.contains("connection.host") == true)
    }
}
