import Foundation
import Testing
import TWSProtocol

@testable import TWSClient

@Suite struct TWSErrorClassificationTests {
    @Test(arguments: [2104, 2106, 2158, 2107, 2108, 2109, 2174, 2103, 10167, 399, 100, 10349])
    func noticeCodes(code: Int) {
        #expect(TWSErrorClassification.disposition(code: code, requestID: 5) == .notice)
        #expect(TWSErrorClassification.disposition(code: code, requestID: -1) == .notice)
    }

    @Test(arguments: [200, 162, 354, 201, 202, 321, 322, 10147, 10148, 103, 366, 420])
    func terminalCodes(code: Int) {
        #expect(TWSErrorClassification.disposition(code: code, requestID: 12) == .terminal)
    }

    @Test func connectionCodes() {
        #expect(TWSErrorClassification.disposition(code: 1100, requestID: -1) == .connection(.lost))
        #expect(TWSErrorClassification.disposition(code: 1101, requestID: -1) == .connection(.restored(dataLost: true)))
        #expect(
            TWSErrorClassification.disposition(code: 1102, requestID: -1) == .connection(.restored(dataLost: false)))
        #expect(TWSErrorClassification.disposition(code: 326, requestID: -1) == .connection(.clientIDInUse))
    }

    @Test func clientSideCodes() {
        #expect(TWSErrorClassification.disposition(code: 502, requestID: -1) == .clientSide)
        #expect(TWSErrorClassification.disposition(code: 504, requestID: 3) == .clientSide)
    }

    /// The table (`TWSErrorTable`): codes that are not errors go on, refusals end their request, whatever the reqId.
    @Test func theTableClassifiesTheCodesMetInTheField() {
        // An order that goes on: a preset notice, a short-sale locate, an ignored attribute, still being processed.
        for code in [10349, 404, 131, 2102, 2109, 2137] {
            #expect(TWSErrorClassification.disposition(code: code, requestID: 17) == .notice, "\(code)")
        }
        // Entitlement and farm notices.
        for code in [2188, 2103, 2104, 2105, 2106, 2107, 2108, 2157, 2158, 2110] {
            #expect(TWSErrorClassification.disposition(code: code, requestID: -1) == .notice, "\(code)")
        }
        // Refusals end their request: an order without a time in force (225+), attributes not allowed, a bust event.
        for code in [10052, 10256, 10257, 10225, 392, 110] {
            #expect(TWSErrorClassification.disposition(code: code, requestID: 9) == .terminal, "\(code)")
        }
        #expect(TWSErrorClassification.disposition(code: 501, requestID: -1) == .clientSide)
        #expect(TWSErrorClassification.disposition(code: 1300, requestID: -1) == .notice)
        let entry = TWSErrorTable.entry(10349)
        #expect(entry?.scope == .order && entry?.terminal == false && entry?.meaning.contains("not cancelled") == true)
        #expect(TWSErrorTable.entries.count >= 150, "\(TWSErrorTable.entries.count)")
        #expect(TWSErrorTable.entries.allSatisfy { !$0.meaning.isEmpty && $0.meaning.first?.isUppercase == true })
    }

    /// docs/error-codes.md lists every code of the table, with its classification and meaning, and nothing else: the
    /// page a user reads to decide on `connection.errorCodes` says what the bot does.
    @Test func theDocumentedTableIsTheCodesTable() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let page = try String(contentsOf: root.appendingPathComponent("docs/error-codes.md"), encoding: .utf8)
        let section = try #require(page.range(of: "## Every code")).upperBound
        let rows = page[section...].split(separator: "\n").filter { $0.hasPrefix("| ") && $0.dropFirst(2).first?.isNumber == true }
        let documented = rows.map { row in
            row.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " / ")
        }
        let table = TWSErrorTable.entries.map {
            "\($0.code) / \($0.terminal ? "terminal" : "goes on") / \($0.scope.rawValue) / \($0.meaning)"
        }
        #expect(documented.count == table.count)
        for (doc, entry) in zip(documented, table) where doc != entry {
            Issue.record("docs/error-codes.md says \(doc); the table says \(entry)")
            break
        }
        // Every code of IB's pages (100–449, 501–591, 1100–1300, 2100–2169, 10000–10347) as counted in the doc.
        #expect(table.count >= 473)
        for code in [200, 202, 203, 399, 10147, 10148, 10311, 2111, 2119, 590, 591] {
            #expect(TWSErrorTable.entry(code) != nil, "\(code)")
        }
    }

    @Test func unknownCodesEndTheirRequestButNotTheConnection() {
        #expect(TWSErrorClassification.disposition(code: 9999, requestID: 4) == .terminal)
        #expect(TWSErrorClassification.disposition(code: 9999, requestID: -1) == .notice)
    }

    @Test func connectionErrorsSayWhatToDo() {
        let refused = TWSConnectionError.refused(host: "127.0.0.1", port: 7497, reason: "connection refused")
        #expect(refused.description.contains("not listening at 127.0.0.1:7497"))
        #expect(refused.description.contains("Enable ActiveX and Socket Clients"))
        let old = TWSConnectionError.unsupportedServerVersion(serverVersion: 157, advertised: 176...200)
        #expect(old.description.contains("server version 157"))
        #expect(old.description.contains("10.19 or newer"))
        let timeout = TWSConnectionError.timedOut(waitingFor: "nextValidId", after: .seconds(5))
        #expect(timeout.description.contains("nextValidId"))
    }
}

/// Issue 44: the error table can be corrected without a release (`connection.errorCodes`): an override is read before
/// the built-in table; connection and client codes keep their meaning.
@Suite struct TWSErrorOverrideTests {
    @Test func anOverrideWinsOverTheTableButNotOverConnectionCodes() {
        let overrides: [Int: TWSErrorOverride] = [10349: .terminal, 202: .notice, 1100: .notice, 502: .terminal]
        #expect(TWSErrorClassification.disposition(code: 10349, requestID: 7, overrides: overrides) == .terminal)
        #expect(TWSErrorClassification.disposition(code: 10349, requestID: -1, overrides: overrides) == .notice, "no request to end")
        #expect(TWSErrorClassification.disposition(code: 202, requestID: 7, overrides: overrides) == .notice)
        #expect(TWSErrorClassification.disposition(code: 1100, requestID: -1, overrides: overrides) == .connection(.lost))
        #expect(TWSErrorClassification.disposition(code: 502, requestID: 7, overrides: overrides) == .clientSide)
        #expect(TWSErrorClassification.disposition(code: 200, requestID: 7, overrides: overrides) == .terminal, "the rest of the table")
    }
}
