import Foundation
import Research

/// A one-line progress bar with ETA on standard error, drawn only when it is a terminal.
public struct ResearchProgress: Sendable {
    let start = ContinuousClock.now
    let enabled: Bool
    let label: String

    /// A bar labelled `label` (`optimize`), off when `enabled` is false or standard error is not a terminal.
    public init(label: String, enabled: Bool) {
        self.label = label
        self.enabled = enabled && Terminal.isInteractive
    }

    /// The callback for `SweepRunner`.
    public var callback: SweepRunner.Progress? {
        guard enabled else { return nil }
        let start = self.start, label = self.label
        return { @Sendable finished, total in
            let step = max(1, total / 200)
            guard finished % step == 0 || finished == total else { return }
            let elapsed = (ContinuousClock.now - start).secondsValue
            let rate = Double(finished) / max(elapsed, 1e-9)
            let eta = finished > 0 ? Double(total - finished) / rate : 0
            let width = 30
            let filled = total > 0 ? width * finished / total : width
            let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
            let percent = total > 0 ? 100 * finished / total : 100
            let line = "\r\(label) [\(bar)] \(finished)/\(total) \(percent)% " + String(format: "%.1f", rate)
                + "/s ETA \(DownloadProgressView.clockText(eta)) "
            FileHandle.standardError.write(Data(line.utf8))
            if finished == total { FileHandle.standardError.write(Data("\n".utf8)) }
        }
    }
}
