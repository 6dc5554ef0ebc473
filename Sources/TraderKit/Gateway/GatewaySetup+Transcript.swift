import Foundation
import GatewaySimulator
import Logging
import TWSTranscript

extension GatewaySetup {
    /// `ibtrader gateway --transcript FILE`: serves the recording (`serveTranscript`), printing the start-up line and,
    /// at the end, the report.
    /// - Throws: `TraderError` when the recording was not played through (the report says where it stopped).
    public static func replay(_ path: String, bind: String, port: Int, strict: Bool, logLevel: String) async throws {
        let report = try await serveTranscript(path, bind: bind, port: port, strict: strict, logLevel: logLevel) { line in
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        }
        print(report.description)
        if !report.passed { throw TraderError("the recording was not played through (see above)") }
    }

    /// `ibtrader gateway --transcript FILE`: a recorded session served on `bind:port` until it has been played to its
    /// end (docs/recorded-sessions.md). Requests the recording does not name (a command's start-up reads) are answered
    /// as a quiet paper account would, unless `strict`.
    /// - Parameters:
    ///   - path: the transcript file.
    ///   - bind: the address to listen on.
    ///   - port: the port (0: any free one).
    ///   - strict: every request must be the recording's next client step.
    ///   - logLevel: the gateway's log level (mismatches are warnings).
    ///   - announce: the start-up line, given the bound port.
    /// - Returns: what the session amounted to.
    /// - Throws: `TraderError` naming the file and line of a transcript that does not read; the bind's error.
    public static func serveTranscript(
        _ path: String, bind: String, port: Int, strict: Bool, logLevel: String, announce: @Sendable (String) -> Void
    ) async throws -> TranscriptReport {
        let transcript: TWSTranscript
        do {
            transcript = try TWSTranscript.load(path: path)
        } catch {
            throw TraderError("--transcript \(error)")
        }
        guard !transcript.lines.isEmpty else { throw TraderError("--transcript \(path): the file holds no steps") }
        var logger = Logger(label: "ibtrader.gateway")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        let gateway = TranscriptGateway(
            transcript: transcript,
            options: TranscriptPlayer.Options(
                ambient: strict ? nil : TranscriptAmbient(), disconnectGrace: strict ? nil : .seconds(2)),
            logger: logger)
        let legs = transcript.legs.count
        let origin = transcript.isGrounded ? "recorded from a real IB Gateway" : "hand-modelled"
        try await gateway.serve(host: bind, port: port) { bound in
            announce(
                "transcript \(transcript.name) (\(origin); \(transcript.lines.count) steps, \(legs) connection\(legs == 1 ? "" : "s")) "
                    + "listening on \(bind):\(bound)" + (strict ? " (strict: only the recording's requests)" : ""))
        }
        return gateway.report
    }
}
