import Foundation
import Testing
import TWSTestSupport
import TWSTranscript
import VirtualTime

/// Every recorded gateway session of `Tests/Fixtures/transcripts` replayed through our client: each either plays
/// through (every request matched, every step played) or is in `RecordedSessions.differences` with the reason our
/// client differs on purpose. `docs/recorded-sessions.md` shows the same table.
@Suite("recorded gateway sessions through the client", .timeLimit(.minutes(2)))
struct RecordedSessionTests {
    @Test("each transcript plays through, or differs for its listed reason", arguments: TranscriptFiles.paths)
    func replays(_ path: String) async throws {
        let transcript = try TWSTranscript.load(path: path)
        let outcome = try await VirtualLoop.run(timeLimit: .seconds(3600)) { loop in
            await TranscriptClientDriver(
                transcript: transcript, clientIDs: RecordedSessions.clientIDs[transcript.name] ?? [1], clock: loop.clock
            ).run()
        }
        if let reason = RecordedSessions.differences[transcript.name] {
            #expect(!outcome.passed, "\(transcript.name) now plays through: take it out of the table (\(reason))")
        } else {
            #expect(outcome.passed, "\(outcome)")
        }
    }

    @Test("the table names transcripts that exist, and the docs show every row")
    func tableMatchesTheFilesAndTheDocs() throws {
        let names = Set(TranscriptFiles.paths.map { ($0 as NSString).lastPathComponent })
        for name in RecordedSessions.differences.keys.sorted() {
            #expect(names.contains(name), "\(name) is in the table but not in Tests/Fixtures/transcripts")
        }
        let docs = try String(
            contentsOf: TranscriptFiles.directory.deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/recorded-sessions.md"),
            encoding: .utf8)
        for (name, reason) in RecordedSessions.differences.sorted(by: { $0.key < $1.key }) {
            #expect(docs.contains("| `\(name)` | \(reason) |"), "docs/recorded-sessions.md lacks the row of \(name)")
        }
    }

    @Test("a transcript's line that is not a step is refused with the file and line")
    func malformedTranscript() {
        #expect(throws: TranscriptError.malformed(file: "x.txt", line: 2, "unknown step \"serve\" (expected handshake, client, server, sleep, disconnect, split or raw)")) {
            _ = try TWSTranscript.parse("handshake {\"server_version\":200}\nserve next_valid_id {}", name: "x.txt")
        }
        #expect(throws: TranscriptError.malformed(file: "x.txt", line: 1, "handshake without a server_version")) {
            _ = try TWSTranscript.parse("handshake {\"connection_time\":\"x\"}", name: "x.txt")
        }
    }
}

/// Which recorded sessions our client plays differently on purpose, and why.
enum RecordedSessions {
    /// Transcript → why our client differs (a feature we do not offer, or a choice we defend).
    static let differences: [String: String] = [
        "account_updates_multi.txt": "reqAccountUpdatesMulti (model portfolios): not offered; one account is read with reqAccountUpdates and reqAccountSummary",
        "calc_implied_volatility.txt": "option calculations: not offered yet (options are issue 86)",
        "calc_option_price.txt": "option calculations: not offered yet (options are issue 86)",
        "display_group_subscribe.txt": "TWS display groups (linking TWS windows): not offered",
        "display_groups.txt": "TWS display groups (linking TWS windows): not offered",
        "family_codes.txt": "reqFamilyCodes: not offered",
        "fundamental_data.txt": "reqFundamentalData: not offered (IB retired fundamentals from the API)",
        "head_timestamp.txt": "reqHeadTimestamp: not offered; data download plans its chunks from the duration asked",
        "histogram_data.txt": "reqHistogramData: not offered",
        "historical_news.txt": "news: not offered",
        "historical_news_timezone_window.txt": "news: not offered",
        "historical_schedule_aapl.txt": "historical data with whatToShow SCHEDULE: not offered; sessions come from contract details' trading hours",
        "historical_ticks_bid_ask.txt": "historical ticks: not offered (bars only)",
        "historical_ticks_midpoint.txt": "historical ticks: not offered (bars only)",
        "historical_ticks_timezone_window.txt": "historical ticks: not offered (bars only)",
        "historical_ticks_trades.txt": "historical ticks: not offered (bars only)",
        "lifecycle_account_summary_limit.txt": "our account summary is a one-shot read: it sends cancelAccountSummary as soon as accountSummaryEnd arrives, freeing one of IB's two summary slots; the transcript's client keeps both open until it cancels them",
        "market_depth_error.txt": "market depth: not offered",
        "matching_symbols.txt": "reqMatchingSymbols: not offered",
        "mkt_depth_exchanges.txt": "market depth: not offered",
        "news_article.txt": "news: not offered",
        "news_bulletins.txt": "news: not offered",
        "news_providers.txt": "news: not offered",
        "positions_multi.txt": "reqPositionsMulti (model portfolios): not offered; positions are read with reqPositions",
        "quote_stream_gap_1101.txt": "after 1101 (market data lost) the bot subscribes again under a new request id (a fresh id never meets a late answer of the old one); the transcript's client reuses the old id. The client alone does not resubscribe: the session core does",
        "req_ids.txt": "reqIds: not sent; order ids come from nextValidId and stay above every id seen",
        "scanner_parameters.txt": "market scanners: not offered",
        "scanner_subscription.txt": "market scanners: not offered",
        "sec_def_opt_params.txt": "option chains: not offered yet (options are issue 86)",
        "smart_components.txt": "reqSmartComponents: not offered",
        "soft_dollar_tiers.txt": "soft dollar tiers: not offered",
        "tick_by_tick.txt": "tick-by-tick data: not offered (quotes and 5-second bars)",
        "user_info.txt": "reqUserInfo: not offered",
        "wsh_meta_data_error.txt": "Wall Street Horizon calendars: not offered",
    ]

    /// Client ids per connection leg where the recording's matter (client 0 observes another client's order).
    static let clientIDs: [String: [Int]] = [
        "api_client_id0_order_observation_aapl.txt": [1, 0],
        "handshake_client_id_0.txt": [0],
    ]
}
