import Foundation
import NIOCore
import Testing
import TWSProtocol
import TWSTestSupport

/// Every request IBTrader sends equals the official client's frame, byte for byte, at every gate version of the
/// issue (176 … 226: text frames, binary ids with text bodies, protobuf bodies); the official client's gate table
/// equals ours for every outgoing id. The expected bytes come from `ibapi-latest` at test time (`OfficialClient`).
@Suite(.enabled(if: OfficialClient.runs, "set IBTRADER_PYTHON to the python of scripts/setup-python.sh"))
struct TWSOfficialRequestTests {
    @Test func everyRequestEqualsTheOfficialBytesAtEveryGateVersion() async throws {
        let records = try await OfficialClient.records("requests")
        var compared = 0
        var versions = Set<Int>()
        for record in records where record["name"]?.string != "hello" {
            let name = try #require(record["name"]?.string)
            let version = try #require(record["sv"]?.int)
            let expected = try #require(record["hex"]?.string)
            guard let request = OfficialRequestCases.request(named: name) else {
                Issue.record("no Swift request for \(name)")
                continue
            }
            versions.insert(version)
            let ours: String
            do {
                ours = TWSVectors.hex(try request.encode(serverVersion: version).readableBytesView)
            } catch {
                // The official client refuses the message at this version (it sends nothing): so must we.
                #expect(expected.isEmpty, "\(name) at \(version): we refuse (\(error)), the official client sends")
                continue
            }
            #expect(ours == expected, "\(name) at \(version):\n ours     \(ours)\n official \(expected)")
            compared += 1
        }
        #expect(versions == [176, 187, 200, 201, 203, 204, 205, 206, 207, 208, 209, 210, 211, 212, 213, 215, 219,
                             221, 225, 226])
        #expect(compared >= 41 * 19)
    }

    @Test func helloEqualsTheOfficialBytes() async throws {
        for record in try await OfficialClient.records("requests") where record["name"]?.string == "hello" {
            let text = try #require(record["text"]?.string)
            let parts = text.split(separator: " ", maxSplits: 1)
            let bounds = parts[0].dropFirst().components(separatedBy: "..").compactMap { Int($0) }
            var configuration = TWSClientHandshake.Configuration(clientID: 7, versions: bounds[0]...bounds[1])
            configuration.connectOptions = parts.count > 1 ? String(parts[1]) : nil
            let hello = TWSClientHandshake.hello(configuration)
            #expect(TWSVectors.hex(hello.readableBytesView) == record["hex"]?.string, "\(text)")
        }
    }

    /// The official `getServerVersionForMessage` for every outgoing id equals `TWSProtobufGates`, and so does the
    /// framing chosen at every version from 176 to 226.
    @Test func gateTableEqualsTheOfficialOne() async throws {
        let records = try await OfficialClient.records("gates")
        #expect(records.last?["version"]?.string == "10.51.1")
        let gates = records.filter { $0["id"] != nil }
        #expect(gates.count >= 80)
        for record in gates {
            let id = try #require(record["id"]?.int)
            let official = record["gate"]?.int
            #expect(TWSProtobufGates.requestGate(forMessageID: id) == official,
                    "\(record["name"]?.string ?? "") (\(id)): official gate \(official.map(String.init) ?? "none")")
            for version in 176...226 {
                let expected = official.map { $0 <= version }
                    ?? TWSProtobufGates.protobufOnlyRequests[id].map { $0 <= version } ?? false
                #expect(TWSProtobufGates.usesProtobuf(requestID: id, serverVersion: version) == expected)
            }
        }
        // The ids the official table leaves at "never" are the text-only ones and the protobuf-only ones.
        let never = Set(gates.filter { $0["gate"] == .null }.compactMap { $0["id"]?.int })
        #expect(never == TWSProtobufGates.textOnlyRequests.union(TWSProtobufGates.protobufOnlyRequests.keys))
    }
}
