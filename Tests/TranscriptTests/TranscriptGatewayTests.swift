import Foundation
import GatewaySimulator
import Logging
import TWSClient
import TWSProtocol
import TWSTranscript
import Testing

/// `ibtrader gateway --transcript`: a recording served over TCP on loopback.
@Suite("a recording served on a port", .timeLimit(.minutes(1)))
struct TranscriptGatewayTests {
    @Test("our client places and cancels over TCP as the grounded capture did; the gateway ends once it is played")
    func restAndCancelOverTCP() async throws {
        let transcript = try RecordedCommands.transcript("api_order_rest_cancel_aapl.txt")
        var logger = Logger(label: "test.transcript-gateway")
        logger.logLevel = .critical
        let gateway = TranscriptGateway(transcript: transcript, options: .init(ambient: TranscriptAmbient()), logger: logger)
        let (ports, announced) = AsyncStream.makeStream(of: Int.self)
        let statuses = try await withThrowingTaskGroup(of: [String]?.self) { group in
            group.addTask {
                try await gateway.serve(host: "127.0.0.1", port: 0) { announced.yield($0) }
                return nil
            }
            var iterator = ports.makeAsyncIterator()
            let port = try #require(await iterator.next())
            group.addTask {
                try await TWSConnection.connect(TWSConnectionConfiguration(port: port, clientID: 1)) { connection, session in
                    #expect(session.connectionTime == "20260414 20:36:26 Central European Standard Time")
                    let events = await connection.orderEvents()
                    var order = TWSOrder()
                    order.action = "BUY"
                    order.totalQuantity = 1
                    order.orderType = "LMT"
                    order.limitPrice = 10
                    order.timeInForce = "DAY"
                    order.account = "DU9000001"
                    let contract = TWSContract(contractID: 265598, symbol: "AAPL", securityType: "STK", exchange: "SMART", currency: "USD")
                    let id = try await connection.placeOrder(order, contract: contract)
                    var seen: [String] = []
                    for try await event in events {
                        guard case .status(let status) = event, status.orderID == id else { continue }
                        seen.append(status.status)
                        if status.status == "Submitted" { try await connection.cancelOrder(id) }
                        if status.status == "Cancelled" { break }
                    }
                    return seen
                }
            }
            var result: [String]?
            for try await value in group where value != nil { result = value }
            return result
        }
        #expect(statuses == ["PreSubmitted", "Submitted", "PendingCancel", "Cancelled"])
        #expect(gateway.report.passed, "\(gateway.report)")
    }
}
