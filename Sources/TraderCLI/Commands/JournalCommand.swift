import ArgumentParser
import Foundation
import TraderKit

/// `ibtrader journal [--orders|--fills|--events] [--journal PATH] [--json]`: what the order journal holds.
struct JournalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "journal",
        abstract: "Show the order journal: orders (intents and their states), fills with commissions, events.",
        discussion: """
            With no selection flag all three are shown. --json prints one JSON object per line (JSON lines), with \
            a "record" key (order, fill, event); prices, quantities and money are decimal strings (exact), times \
            UTC ISO-8601. A fill whose commission report has not arrived shows commission "pending" (null in JSON). \
            --measure-latency N writes N orders (intent, submission, status, fill, commission) to a scratch journal \
            and prints the write latencies.
            """
    )

    @Flag(name: .long, help: "Orders only.") var orders: Bool = false
    @Flag(name: .long, help: "Fills only.") var fills: Bool = false
    @Flag(name: .long, help: "Events only.") var events: Bool = false
    @Option(name: .long, help: "The journal file.") var journal: String = "journal.sqlite"
    @Flag(name: .long, help: "JSON lines instead of tables.") var json: Bool = false
    @Option(name: .customLong("measure-latency"), help: "Measure journal write latency with N orders (scratch file).")
    var measureLatency: Int?

    func validate() throws {
        guard [orders, fills, events].filter({ $0 }).count <= 1 else {
            throw ValidationError("choose at most one of --orders, --fills, --events")
        }
        if let measureLatency, !(1...1_000_000).contains(measureLatency) {
            throw ValidationError("--measure-latency must be from 1 to 1000000 orders, got \(measureLatency)")
        }
    }

    func run() throws {
        if let measureLatency {
            print(try JournalLatency.measure(orders: measureLatency))
            return
        }
        print(try JournalListing(json: json).show(journal: journal, orders: orders, fills: fills, events: events))
    }
}
