import Foundation

/// Where colours appear in a screenshot (a PNG from headless Chromium), read by `Tests/Interop/png_colors.py` (the
/// standard library's zlib; any python3): the screenshot tests check that a page draws what it should where it
/// should, not merely that the file is large.
public struct ScreenshotColors: Sendable {
    /// The pixels of one colour (within the tolerance) and their bounding box.
    public struct Span: Sendable {
        public var count: Int
        public var minX: Int, maxX: Int, minY: Int, maxY: Int
        /// The box's width in pixels (0 when the colour is absent).
        public var width: Int { count == 0 ? 0 : maxX - minX + 1 }
    }

    public var width: Int
    public var height: Int
    public var colors: [String: Span]

    /// Reads `png` and finds `colors` (`#rrggbb`), each channel within `tolerance`.
    public init(png: URL, colors: [String], tolerance: Int = 24) async throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Tests/Interop/png_colors.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, png.path] + colors + ["--tolerance", String(tolerance)]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = await output.fileHandleForReading.readAll()
        await process.exited()
        guard process.terminationStatus == 0,
              let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let width = object["width"] as? Int, let height = object["height"] as? Int,
              let found = object["colors"] as? [String: [String: Any]]
        else { throw ScreenshotColorsError(description: "png_colors.py could not read \(png.path)") }
        self.width = width
        self.height = height
        self.colors = found.compactMapValues { entry in
            guard let count = entry["count"] as? Int, let x = entry["x"] as? [Int], let y = entry["y"] as? [Int],
                  x.count == 2, y.count == 2 else { return nil }
            return Span(count: count, minX: x[0], maxX: x[1], minY: y[0], maxY: y[1])
        }
    }
}

public struct ScreenshotColorsError: Error, CustomStringConvertible {
    public var description: String
}
