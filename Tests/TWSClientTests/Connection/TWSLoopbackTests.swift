import Logging
import TWSProtocol
import Testing

@testable import TWSClient

/// The same client over real TCP sockets (NIOPosix) against `LoopbackTWSServer`.
@Suite struct TWSLoopbackTests {
    private static let quiet = TWSConnectionEnvironment(
        logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
    )

    @Test(arguments: [178, 200])
    func handshakeAndCurrentTimeOverTCP(version: Int) async throws {
        let server = LoopbackTWSServer(version: version)
        let (session, time) = try await server.run { port in
            let configuration = TWSConnectionConfiguration(host: "127.0.0.1", port: port, clientID: 3)
            return try await TWSConnection.connect(configuration, environment: Self.quiet) { connection, session in
                (session, try await connection.currentTime())
            }
        }
        #expect(session.serverVersion == version)
        #expect(session.accounts == ["DU1234567"])
        #expect(session.nextValidOrderID == 500)
        #expect(time == 1_736_951_400)
    }

    @Test func refusedConnectionIsTyped() async throws {
        let port = try await LoopbackTWSServer.closedPort()
        let configuration = TWSConnectionConfiguration(host: "127.0.0.1", port: port, clientID: 3)
        do {
            try await TWSConnection.connect(configuration, environment: Self.quiet) { _, _ in }
            Issue.record("connect should fail")
        } catch let error as TWSConnectionError {
            guard case .refused(let host, let refusedPort, _) = error else {
                Issue.record("expected refused, got \(error)")
                return
            }
            #expect(host == "127.0.0.1")
            #expect(refusedPort == port)
            #expect(error.description.contains("Enable ActiveX and Socket Clients"))
        }
    }

    @Test func peerClosingIsDetected() async throws {
        let server = LoopbackTWSServer(version: 200, closeAfterStartup: true)
        let outcome = try await server.run { (port: Int) async throws -> TWSConnectionError? in
            let configuration = TWSConnectionConfiguration(host: "127.0.0.1", port: port, clientID: 3)
            let connection = TWSConnection(configuration: configuration, environment: Self.quiet)
            do {
                try await connection.run()
                return nil
            } catch {
                return error as? TWSConnectionError
            }
        }
        #expect(outcome == .closedByPeer(during: "the session"))
    }
}
