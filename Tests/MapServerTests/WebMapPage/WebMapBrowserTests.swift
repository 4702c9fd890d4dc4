import Foundation
import Hummingbird
import MapRender
import MapServer
import TestSupport
import XCTest

/// The web map at `/`: its files as served, and the page itself driven in Debian's headless
/// Chromium against a real server on a loopback port (Browser/drive_webmap.py speaks the DevTools
/// protocol; this test judges what it reports and the screenshots it takes).
final class WebMapBrowserTests: XCTestCase {
    // MARK: The files

    func testPageAndItsFilesAreServedWithTypesAndValidators() async throws {
        let server = try TestServer.make()
        try await TestServer.withClient(server) { client in
            let page = try await client.execute(uri: "/", method: .get)
            XCTAssertEqual(page.status, .ok)
            XCTAssertEqual(page.headers[.contentType], "text/html; charset=utf-8")
            XCTAssertNotNil(page.headers[.contentSecurityPolicy], "the page should forbid scripts from elsewhere")
            // Every file the page links to is served, with its type and an ETag that revalidates.
            let linked = Self.matches(of: #"(?:src|href)="(/webmap/[^"]+)""#, in: page.text)
            XCTAssertTrue(linked.contains("/webmap/app.js") && linked.contains("/webmap/app.css"), "\(linked)")
            for path in linked {
                let file = try await client.execute(uri: path, method: .get)
                XCTAssertEqual(file.status, .ok, path)
                let type = file.headers[.contentType] ?? ""
                if path.hasSuffix(".js") { XCTAssertTrue(type.hasPrefix("text/javascript"), "\(path): \(type)") }
                if path.hasSuffix(".css") { XCTAssertTrue(type.hasPrefix("text/css"), "\(path): \(type)") }
                let etag = try XCTUnwrap(file.headers[.eTag], path)
                XCTAssertGreaterThan(file.body.readableBytes, 0, path)
                let again = try await client.execute(uri: path, method: .get, headers: [.ifNoneMatch: etag])
                XCTAssertEqual(again.status, .notModified, path)
                XCTAssertEqual(again.body.readableBytes, 0, path)
            }
            // Only the page's own files: no way out of the folder, no guessing.
            for path in ["/webmap/..%2FPackage.swift", "/webmap/%2e%2e%2f%2e%2e%2fPackage.swift", "/webmap/nothing.js",
                         "/webmap/../../Package.swift", "/webmap/.hidden", "/webmap/index.html%00.js"] {
                let response = try await client.execute(uri: path, method: .get)
                XCTAssertEqual(response.status, .notFound, path)
                XCTAssertNotNil(response.errorMessage, "\(path): \(response.text.prefix(120))")
            }
        }
    }

    func testConfigurationFramesTheServedRegion() async throws {
        let server = try TestServer.make()
        try await TestServer.withClient(server) { client in
            let response = try await client.execute(uri: "/webmap/config.json", method: .get)
            XCTAssertEqual(response.status, .ok)
            let config = try response.json()
            let bounds = try XCTUnwrap(config["bounds"] as? [Double])
            XCTAssertEqual(bounds.count, 4)
            // Monaco's harbour lies inside, Nice (20 km west) does not.
            XCTAssertTrue(bounds[0] < 7.4247 && 7.4247 < bounds[2] && bounds[1] < 43.7356 && 43.7356 < bounds[3], "\(bounds)")
            XCTAssertFalse(bounds[0] < 7.26 && 7.26 < bounds[2], "\(bounds)")
            XCTAssertEqual(config["styles"] as? [String], ["standard", "dark", "muted"])
            let backgrounds = try XCTUnwrap(config["backgrounds"] as? [String: String])
            XCTAssertEqual(Set(backgrounds.keys), ["standard", "dark", "muted"])
            XCTAssertNotEqual(backgrounds["standard"], backgrounds["dark"])
            XCTAssertEqual(config["regions"] as? [String], server.regions.snapshot.regions.map(\.name))
        }
    }

    // MARK: The page in a browser

    /// Loads the page, pans, zooms, rotates, searches with autocomplete, asks for the address of a
    /// click and for directions between two Monaco places, switches to the dark style and to a
    /// phone-sized screen — then checks the DOM it reported and the screenshots.
    func testWebMapInHeadlessChromium() async throws {
        guard let (report, _) = try await Self.driveWebMap(TestServer.make { $0.port = 0 }, screenshots: "openmapkit-webmap-screenshots",
                                                             arguments: ["--search", "Casino", "--origin", "43.7276", "7.4157"]) else { return }
        let problems = report["problems"] as? [String] ?? ["no problems list"]
        XCTAssertEqual(problems, [], "console errors, exceptions or failed loads in the page")
        let shots = report["screenshots"] as? [String: String] ?? [:]

        // Opens on the data, draws tiles, says whose data it is.
        let initial = report["initial"] as? [String: Any] ?? [:]
        let tiles = initial["tiles"] as? [String: Any] ?? [:]
        XCTAssertGreaterThan(tiles["loaded"] as? Int ?? 0, 3, "\(tiles)")
        XCTAssertEqual(tiles["failed"] as? Int, 0, "\(tiles)")
        XCTAssertEqual(initial["attribution"] as? String, "© OpenStreetMap contributors")
        XCTAssertEqual(initial["styles"] as? [String], ["standard", "dark", "muted"])
        let start = try Self.view(initial)
        XCTAssertEqual(start.latitude, 43.74, accuracy: 0.03, "the page should open on Monaco")
        XCTAssertEqual(start.longitude, 7.42, accuracy: 0.03)
        let first = try Screenshot(shots["01-initial"])
        XCTAssertEqual(first.width, 1200)
        XCTAssertGreaterThan(first.distinctColors(), 200, "the first screenshot looks blank")

        // Drag pans (the map moves with the pointer: dragged left and up, the view goes east and south).
        let pan = report["pan"] as? [String: Any] ?? [:]
        let panned = try Self.view(pan)
        XCTAssertGreaterThan(panned.longitude, start.longitude)
        XCTAssertLessThan(panned.latitude, start.latitude)
        let hash = pan["hash"] as? String ?? ""
        XCTAssertNotNil(hash.range(of: #"^#\d+\.\d+/-?\d+\.\d+/-?\d+\.\d+/-?\d+\.\d$"#, options: .regularExpression), hash)
        // The URL hash keeps the view across a reload.
        let reloaded = try Self.view(pan["reloaded"])
        XCTAssertEqual(reloaded.zoom, panned.zoom, accuracy: 0.01)
        XCTAssertEqual(reloaded.latitude, panned.latitude, accuracy: 1e-4)
        XCTAssertEqual(reloaded.longitude, panned.longitude, accuracy: 1e-4)
        let second = try Screenshot(shots["02-pan"])
        XCTAssertGreaterThan(first.fractionDiffering(from: second), 0.2, "panning did not change the map")

        // The wheel zooms in.
        let zoom = report["zoom"] as? [String: Any] ?? [:]
        let zoomed = try Self.view(zoom)
        XCTAssertGreaterThan(zoomed.zoom, panned.zoom + 0.5)
        XCTAssertGreaterThan(try Screenshot(shots["03-zoom"]).fractionDiffering(from: second), 0.2, "zooming did not change the map")

        // Shift+arrows rotate, the compass restores north, '-' zooms out by one.
        let keyboard = report["keyboard"] as? [String: Any] ?? [:]
        let rotated = try Self.view(keyboard["rotated"])
        XCTAssertEqual(rotated.bearing, 30, accuracy: 0.5)
        XCTAssertEqual(try Self.view(keyboard["north"]).bearing, 0, accuracy: 0.01)
        XCTAssertEqual(try Self.view(keyboard["zoomedOut"]).zoom, rotated.zoom - 1, accuracy: 0.01)

        // Search: suggestions while typing, then results with markers.
        let search = report["search"] as? [String: Any] ?? [:]
        let suggestions = search["suggestions"] as? [String] ?? []
        XCTAssertFalse(suggestions.isEmpty, "no autocomplete suggestions")
        let results = search["results"] as? [String] ?? []
        XCTAssertFalse(results.isEmpty, "no search results: \(search["status"] ?? "")")
        XCTAssertTrue(results.contains { $0.localizedCaseInsensitiveContains("casino") }, "\(results)")
        XCTAssertGreaterThanOrEqual((search["markers"] as? [Any])?.count ?? 0, results.count)
        // The first result's place card shows its Look Around picture (270×150 points).
        let lookAround = report["lookAround"] as? [String: Any] ?? [:]
        XCTAssertNil(lookAround["error"], "\(lookAround)")
        XCTAssertTrue([270, 540].contains(lookAround["width"] as? Int ?? 0), "\(lookAround)")
        XCTAssertTrue((lookAround["src"] as? String ?? "").contains("/api/v1/lookaround?"), "\(lookAround)")

        // A click on the map asks for the address there.
        let reverse = report["reverse"] as? [String: Any] ?? [:]
        let address = "\(reverse["title"] ?? "") \(reverse["detail"] ?? "")"
        XCTAssertFalse(address.contains("failed") || address.contains("No address") || address.contains("Looking up"), address)

        // Directions: routes with times and distances, a step list, the route drawn in its colour.
        let directions = report["directions"] as? [String: Any] ?? [:]
        let routes = directions["routes"] as? [String] ?? []
        XCTAssertFalse(routes.isEmpty, "no routes: \(directions["status"] ?? "")")
        for route in routes { XCTAssertNotNil(route.range(of: #"\d+ min.*\d+(\.\d)? k?m"#, options: .regularExpression), route) }
        XCTAssertGreaterThan((directions["steps"] as? [String])?.count ?? 0, 1)
        XCTAssertFalse((directions["origin"] as? String ?? "").isEmpty)
        XCTAssertTrue((directions["destination"] as? String ?? "").localizedCaseInsensitiveContains("casino"), "\(directions["destination"] ?? "")")
        let points = Self.points(directions["points"])
        XCTAssertGreaterThan(points.count, 5)
        let drawn = try Screenshot(shots["07-directions"])
        let routeColor: (Int, Int, Int) = (0x0a, 0x66, 0xd8)
        let along = drawn.fractionNear(routeColor, along: points, excludingLeftOf: 380)
        XCTAssertGreaterThan(along.fraction, 0.6, "the route colour is missing along the route (\(along.samples) samples)")
        XCTAssertGreaterThan(along.samples, 10)
        // The colour is the route's, not the map's: 30 pixels beside the route it is rare.
        let beside = points.map { (x: $0.x + 21, y: $0.y + 21) }
        XCTAssertLessThan(drawn.fractionNear(routeColor, along: beside, excludingLeftOf: 380).fraction, 0.3,
                          "the route colour is everywhere, not just along the route")
        if let alternative = directions["alternative"] as? [String: Any] {
            XCTAssertEqual(alternative["selected"] as? Int, 1)
            XCTAssertNotEqual(Self.points(alternative["points"]).count, 0)
        }

        // The dark style is darker.
        let dark = report["dark"] as? [String: Any] ?? [:]
        XCTAssertEqual((dark["tiles"] as? [String: Any])?["style"] as? String, "dark")
        XCTAssertLessThan(try Screenshot(shots["09-dark"]).meanLuminance(), drawn.meanLuminance() - 40)

        // A phone: dense pixels, the panel across the top.
        let phone = report["phone"] as? [String: Any] ?? [:]
        let narrow = try Screenshot(shots["10-phone"])
        XCTAssertEqual(narrow.width, 780)
        XCTAssertGreaterThan(narrow.distinctColors(), 100)
        let panel = phone["panel"] as? [String: Double] ?? [:]
        XCTAssertLessThan(panel["left"] ?? 99, 20)
        XCTAssertGreaterThan(panel["right"] ?? 0, 370)

        // Two fingers spread to twice their distance and turned by 20°: one zoom level in, and the
        // map turns with them (a clockwise turn of the content lowers the bearing).
        let pinch = report["pinch"] as? [String: Any] ?? [:]
        let beforePinch = try Self.view(pinch["before"]), afterPinch = try Self.view(pinch["after"])
        XCTAssertEqual(afterPinch.zoom - beforePinch.zoom, 1, accuracy: 0.1)
        XCTAssertEqual(afterPinch.bearing - beforePinch.bearing, -20, accuracy: 2)
    }

    /// A server run with API keys: the page asks for a key (and draws no tiles without one),
    /// shows the server's reason for a wrong key, then draws the map and searches with the right
    /// one; it keeps the key for the tab's session, and takes one from `?key=`, which it removes
    /// from the address bar. The key travels only to /v1/token: tiles and calls carry tokens.
    func testWebMapAsksForAnAPIKey() async throws {
        let key = "webmap-test-key"
        guard let (report, _) = try await Self.driveWebMap(TestServer.make { $0.port = 0; $0.apiKeys = [APIKey(key: key)] },
                                                             screenshots: "openmapkit-webmap-key-screenshots",
                                                             arguments: ["--search", "Casino", "--api-key", key]) else { return }
        XCTAssertEqual(report["problems"] as? [String], [], "console errors, exceptions or failed loads other than the refused key")
        let asked = report["asked"] as? [String: Any] ?? [:]
        XCTAssertEqual((asked["tiles"] as? [String: Any])?["requested"] as? Int, 0, "no tile is asked for without a key")
        XCTAssertEqual(asked["token"] as? Bool, false)
        let refused = report["refused"] as? [String: Any] ?? [:]
        XCTAssertTrue((refused["message"] as? String ?? "").contains("not known"), "\(refused)")
        XCTAssertEqual(refused["formShown"] as? Bool, true)
        let accepted = report["accepted"] as? [String: Any] ?? [:]
        let tiles = accepted["tiles"] as? [String: Any] ?? [:]
        XCTAssertGreaterThan(tiles["loaded"] as? Int ?? 0, 3, "\(tiles)")
        XCTAssertEqual(tiles["failed"] as? Int, 0, "\(tiles)")
        XCTAssertEqual(accepted["formShown"] as? Bool, false)
        let shot = try Screenshot((report["screenshots"] as? [String: String])?["key-02-map"])
        XCTAssertGreaterThan(shot.distinctColors(), 200, "the map with the key looks blank")
        let results = (report["search"] as? [String: Any])?["results"] as? [String] ?? []
        XCTAssertTrue(results.contains { $0.localizedCaseInsensitiveContains("casino") }, "\(report["search"] ?? "no search")")
        XCTAssertEqual((report["reloaded"] as? [String: Any])?["formShown"] as? Bool, false)
        let inAddress = report["inAddress"] as? [String: Any] ?? [:]
        XCTAssertEqual(inAddress["search"] as? String, "", "the key is removed from the address bar")
        XCTAssertEqual(inAddress["formShown"] as? Bool, false)
        // The key went only to /v1/token (in a header): tile URLs carry the token it was traded for.
        let urls = accepted["resources"] as? [String] ?? []
        XCTAssertTrue(urls.contains { $0.hasSuffix("/v1/token") }, "\(urls)")
        let tileURLs = urls.filter { $0.contains("/styles/standard/") }
        XCTAssertFalse(tileURLs.isEmpty, "\(urls)")
        XCTAssertTrue(tileURLs.allSatisfy { $0.contains("key=omk1.") }, "\(tileURLs.prefix(3))")
        XCTAssertFalse(urls.contains { $0.contains(key) }, "the key travelled in a URL")
    }

    // MARK: Helpers

    /// Serves `server` on a free port and runs Browser/drive_webmap.py against it with
    /// `arguments`, screenshots going to a fresh temporary folder named `screenshots`. Returns the
    /// driver's report and that folder, after failing the test for a driver that could not run or
    /// a session that stopped early; nil (after failing it) when Chromium is missing.
    static func driveWebMap(_ server: MapServer, screenshots: String,
                            arguments: [String]) async throws -> (report: [String: Any], output: URL)? {
        guard let chromium = Self.chromium() else {
            XCTFail("Chromium is not installed, so the web map cannot be tested: install Debian's `chromium` package (apt-get install chromium; the Makefile's APT_BUILD does it for CI), or point OPENMAPKIT_CHROMIUM at a Chromium binary.")
            return nil
        }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Browser/drive_webmap.py")
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
        print("web map screenshots: \(output.path)")
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

    struct View { let zoom, latitude, longitude, bearing: Double }

    static func view(_ object: Any?) throws -> View {
        let record = try XCTUnwrap(object as? [String: Any], "step missing from the report")
        let v = try XCTUnwrap((record["view"] as? [String: Double]) ?? (record as? [String: Double]), "\(record)")
        return View(zoom: v["zoom"] ?? .nan, latitude: v["latitude"] ?? .nan, longitude: v["longitude"] ?? .nan, bearing: v["bearing"] ?? .nan)
    }

    static func points(_ object: Any?) -> [(x: Double, y: Double)] {
        (object as? [[String: Double]] ?? []).compactMap { p in p["x"].flatMap { x in p["y"].map { (x, $0) } } }
    }

    static func matches(of pattern: String, in text: String) -> [String] {
        let regex = try! NSRegularExpression(pattern: pattern)
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        }
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
