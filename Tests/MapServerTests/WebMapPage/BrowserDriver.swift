import Foundation
import MapRender
import MapServer
import TestSupport
import XCTest

/// Runs a page driver from Browser/ (Python speaking the DevTools protocol to Debian's headless
/// Chromium) against a real server on a loopback port, and hands its JSON report to the test.
enum BrowserDriver {
    /// Serves `server` on a free port and runs the driver `script` (in Browser/) against it with
    /// `arguments`, screenshots going to a fresh temporary folder named `screenshots`. Returns the
    /// driver's report and that folder, after failing the test for a driver that could not run or
    /// a session that stopped early; nil (after failing it) when Chromium is missing.
    static func drive(_ script: String, _ server: MapServer, screenshots: String,
                            arguments: [String]) async throws -> (report: [String: Any], output: URL)? {
        guard let chromium = Self.chromium() else {
            XCTFail("Chromium is not installed, so the web pages cannot be tested: install Debian's `chromium` package (apt-get install chromium; the Makefile's APT_BUILD does it for CI), or point OPENMAPKIT_CHROMIUM at a Chromium binary.")
            return nil
        }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Browser").appendingPathComponent(script)
        let output = FileManager.default.temporaryDirectory.appendingPathComponent(screenshots)
        try? FileManager.default.removeItem(at: output)
        let result = try await TestServer.withRunningServer(server) { port in
            let command = [script.path, "--url", "http://localhost:\(port)/", "--out", output.path, "--chromium", chromium] + arguments
            // The driver blocks until the browser is done; keep it off the executor that serves the page.
            return try await withCheckedThrowingContinuation { continuation in
                DispatchQueue.global().async {
                    continuation.resume(with: Result(catching: { try runProcess("python3", command) }))
                }
            }
        }
        let stderr = String(decoding: result.standardError, as: UTF8.self)
        XCTAssertEqual(result.status, 0, stderr)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any],
                                   "the driver printed no report: \(stderr.suffix(2000))")
        print("\(script) screenshots: \(output.path)")
        if let failure = report["failure"] as? String {
            XCTFail("the browser session stopped early: \(failure)\nreached: \(report.keys.sorted())")
        }
        return (report, output)
    }

    /// Debian's Chromium (the binary, not the wrapper script, whose shell warnings are noise), or
    /// the one OPENMAPKIT_CHROMIUM names.
    static func chromium() -> String? {
        let environment = ProcessInfo.processInfo.environment["OPENMAPKIT_CHROMIUM"].map { [$0] } ?? []
        return (environment + ["/usr/lib/chromium/chromium", "/usr/bin/chromium", "/usr/bin/chromium-browser"])
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

/// A screenshot's pixels (Cairo decodes the PNG).
struct Screenshot {
    let width: Int
    let height: Int
    let rgba: [UInt8]

    init(_ path: String?, file: StaticString = #filePath, line: UInt = #line) throws {
        let path = try XCTUnwrap(path, "screenshot missing", file: file, line: line)
        let image = try RenderCanvas.readPNG(path: path)
        width = image.width
        height = image.height
        rgba = image.rgba
    }

    func pixel(_ x: Int, _ y: Int) -> (Int, Int, Int) {
        let i = (y * width + x) * 4
        return (Int(rgba[i]), Int(rgba[i + 1]), Int(rgba[i + 2]))
    }

    func distinctColors() -> Int {
        var seen = Set<Int>()
        for y in stride(from: 0, to: height, by: 3) {
            for x in stride(from: 0, to: width, by: 3) {
                let p = pixel(x, y)
                seen.insert(p.0 << 16 | p.1 << 8 | p.2)
            }
        }
        return seen.count
    }

    func fractionDiffering(from other: Screenshot) -> Double {
        guard width == other.width, height == other.height else { return 1 }
        var differing = 0, total = 0
        for y in stride(from: 0, to: height, by: 2) {
            for x in stride(from: 0, to: width, by: 2) {
                let a = pixel(x, y), b = other.pixel(x, y)
                if abs(a.0 - b.0) + abs(a.1 - b.1) + abs(a.2 - b.2) > 30 { differing += 1 }
                total += 1
            }
        }
        return Double(differing) / Double(max(total, 1))
    }

    func meanLuminance() -> Double {
        var sum = 0.0, count = 0.0
        for y in stride(from: 0, to: height, by: 4) {
            for x in stride(from: 0, to: width, by: 4) {
                let p = pixel(x, y)
                sum += 0.2126 * Double(p.0) + 0.7152 * Double(p.1) + 0.0722 * Double(p.2)
                count += 1
            }
        }
        return sum / max(count, 1)
    }

    /// Of the points sampled along a polyline (CSS pixels; this image is at 1 device pixel per
    /// CSS pixel), the fraction with `color` within 2 pixels. Points left of `excludingLeftOf`
    /// (under the side panel) and near the ends (under the markers) are not sampled.
    func fractionNear(_ color: (Int, Int, Int), along points: [(x: Double, y: Double)], excludingLeftOf left: Double) -> (fraction: Double, samples: Int) {
        guard let first = points.first, let last = points.last else { return (0, 0) }
        var hits = 0, samples = 0
        for (a, b) in zip(points, points.dropFirst()) {
            let length = hypot(b.x - a.x, b.y - a.y)
            let count = max(1, Int(length / 12))
            for k in 0..<count {
                let t = (Double(k) + 0.5) / Double(count)
                let x = a.x + (b.x - a.x) * t, y = a.y + (b.y - a.y) * t
                guard x > left, x < Double(width) - 60, y > 10, y < Double(height) - 40,
                      hypot(x - first.x, y - first.y) > 45, hypot(x - last.x, y - last.y) > 45 else { continue }
                samples += 1
                if near(color, Int(x.rounded()), Int(y.rounded())) { hits += 1 }
            }
        }
        return (samples == 0 ? 0 : Double(hits) / Double(samples), samples)
    }

    private func near(_ color: (Int, Int, Int), _ x: Int, _ y: Int) -> Bool {
        for dy in -2...2 {
            for dx in -2...2 {
                let px = x + dx, py = y + dy
                guard px >= 0, py >= 0, px < width, py < height else { continue }
                let p = pixel(px, py)
                if abs(p.0 - color.0) + abs(p.1 - color.1) + abs(p.2 - color.2) < 45 { return true }
            }
        }
        return false
    }
}
