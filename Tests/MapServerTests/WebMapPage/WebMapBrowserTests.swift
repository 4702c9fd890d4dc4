import Foundation
import Hummingbird
import MapRender
import MapServer
import TestSupport
import XCTest

/// The web map at `/`: its files as served, and the page itself — MapLibre GL JS on WebGL
/// (SwiftShader), or the server's pictures without WebGL — driven in Debian's headless Chromium
/// against a real server on a loopback port (Browser/drive_webmap.py speaks the DevTools
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
            let linked = Self.matches(of: #"(?:src|href)="(/(?:webmap|lib)/[^"]+)""#, in: page.text)
            XCTAssertTrue(linked.contains("/lib/maplibre-gl.js") && linked.contains("/lib/maplibre-gl.css"), "\(linked)")
            XCTAssertTrue(linked.contains("/webmap/main.js") && linked.contains("/webmap/app.css"), "\(linked)")
            let csp = page.headers[.contentSecurityPolicy] ?? ""
            XCTAssertTrue(csp.contains("script-src 'self';") && csp.contains("worker-src 'self' blob:"), csp)
            // The modules main.js imports are served too.
            let main = try await client.execute(uri: "/webmap/main.js", method: .get)
            let imported = Self.matches(of: #"from '\./([a-z]+\.js)'"#, in: main.text)
            XCTAssertGreaterThanOrEqual(Set(imported).count, 7, "\(imported)")
            for module in Set(imported) {
                let file = try await client.execute(uri: "/webmap/\(module)", method: .get)
                XCTAssertEqual(file.status, .ok, module)
                XCTAssertTrue((file.headers[.contentType] ?? "").hasPrefix("text/javascript"), module)
            }
            // Maps URLs on this host are the page.
            for path in ["/search?query=Casino", "/directions?source=a&destination=b", "/place?coordinate=43.7,7.4", "/frame", "/look-around"] {
                let response = try await client.execute(uri: path, method: .get)
                XCTAssertEqual(response.status, .ok, path)
                XCTAssertEqual(response.text, page.text, path)
            }
            for path in linked where path.hasPrefix("/webmap/") {
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
            // The camera may go the bounds' larger side beyond each edge, no farther.
            let limits = try XCTUnwrap(config["maxBounds"] as? [Double])
            let margin = max(bounds[2] - bounds[0], bounds[3] - bounds[1])
            for (limit, expected) in zip(limits, [bounds[0] - margin, bounds[1] - margin, bounds[2] + margin, bounds[3] + margin]) {
                XCTAssertEqual(limit, expected, accuracy: 1e-9, "\(limits)")
            }
            XCTAssertEqual(config["styles"] as? [String], ["standard", "dark", "muted"])
            XCTAssertEqual(config["regions"] as? [String], server.regions.snapshot.regions.map(\.name))
        }
    }

    // MARK: The page in a browser

    /// Loads the page, pans, zooms, rotates, tilts over 3D buildings, hovers and clicks a point of
    /// interest, searches with autocomplete, asks for the address of a click and for directions
    /// between two Monaco places, switches to the dark style and to a phone-sized screen — then
    /// checks the DOM it reported and the screenshots.
    func testWebMapInHeadlessChromium() async throws {
        guard let (report, _) = try await BrowserDriver.drive("drive_webmap.py", TestServer.make { $0.port = 0 }, screenshots: "openmapkit-webmap-screenshots",
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
        XCTAssertEqual(initial["kind"] as? String, "vector",
                       "the page fell back to pictures: is MapLibre GL JS installed (make deps) and WebGL (SwiftShader) working?")
        XCTAssertEqual(initial["styles"] as? [String], ["standard", "dark", "muted"])
        let start = try Self.view(initial)
        XCTAssertEqual(start.latitude, 43.74, accuracy: 0.03, "the page should open on Monaco")
        XCTAssertEqual(start.longitude, 7.42, accuracy: 0.03)
        let first = try Screenshot(shots["01-initial"])
        XCTAssertEqual(first.width, 1200)
        XCTAssertGreaterThan(first.distinctColors(), 200, "the first screenshot looks blank")

        // The camera keeps to the data (the page's maxBounds: its bounds with their larger side
        // around them), and beyond the bounds the map is hatched as having no data.
        let edges = report["edges"] as? [String: Any] ?? [:]
        let limits = (edges["config"] as? [String: Any])?["maxBounds"] as? [Double] ?? []
        XCTAssertEqual(limits.count, 4, "config.json has no maxBounds")
        let zoomedOut = try Self.view(edges["zoomedOut"])
        XCTAssertLessThan(zoomedOut.zoom, start.zoom - 0.3, "the wheel did not zoom out")
        XCTAssertGreaterThan(zoomedOut.zoom, start.zoom - 2.5, "the page let the camera leave the data far behind")
        let dragged = try Self.view(edges["dragged"])
        XCTAssertGreaterThan(dragged.longitude, start.longitude, "dragging left did not move the view east")
        if limits.count == 4 { XCTAssertLessThanOrEqual(edges["viewEast"] as? Double ?? .infinity, limits[2] + 1e-6, "the view went past maxBounds") }
        let corners = Self.points([edges["northWest"] ?? [:], edges["southEast"] ?? [:]])
        XCTAssertEqual(corners.count, 2)
        if corners.count == 2 {
            let outside = try Screenshot(shots["01b-edges"])
            var samples = 0, hatched = 0, land = 0
            for y in stride(from: max(Int(corners[0].y), 80), through: min(Int(corners[1].y), outside.height - 80), by: 9) {
                for x in stride(from: max(Int(corners[1].x) + 8, 400), through: outside.width - 80, by: 11) {  // right of the panel
                    let (r, g, b) = outside.pixel(x, y)
                    samples += 1
                    // The hatching's two greys (#E3E3E1, #D3D3D0) and their blends.
                    if abs(r - g) <= 4, abs(g - b) <= 5, (200...232).contains(r) { hatched += 1 }
                    if abs(r - 0xF6) <= 3, abs(g - 0xF3) <= 3, abs(b - 0xEC) <= 3 { land += 1 }
                }
            }
            XCTAssertGreaterThan(samples, 20, "the data's east edge is not on the screen: \(corners)")
            XCTAssertGreaterThan(Double(hatched), 0.8 * Double(samples), "beyond the data's east edge the map is not hatched")
            XCTAssertEqual(land, 0, "beyond the data's east edge the map is drawn as land")
        }

        // Drag pans (the map moves with the pointer: dragged left and up, the view goes east and south).
        let pan = report["pan"] as? [String: Any] ?? [:]
        let panned = try Self.view(pan)
        XCTAssertGreaterThan(panned.longitude, start.longitude)
        XCTAssertLessThan(panned.latitude, start.latitude)
        let hash = pan["hash"] as? String ?? ""
        XCTAssertNotNil(hash.range(of: #"^#\d+\.\d+/-?\d+\.\d+/-?\d+\.\d+/-?\d+\.\d/\d+$"#, options: .regularExpression), hash)
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

        // Shift+arrows rotate, the compass restores north, '-' zooms out to the level below.
        let keyboard = report["keyboard"] as? [String: Any] ?? [:]
        let rotated = try Self.view(keyboard["rotated"])
        XCTAssertEqual(rotated.bearing, 30, accuracy: 0.5)
        XCTAssertEqual(try Self.view(keyboard["north"]).bearing, 0, accuracy: 0.01)
        XCTAssertEqual(try Self.view(keyboard["zoomedOut"]).zoom, rotated.zoom.rounded() - 1, accuracy: 0.01)

        // The 3D button tilts the map, and the buildings stand up: more of them are drawn (their
        // walls), and the picture changes. The compass lays it flat again.
        let pitch = report["pitch"] as? [String: Any] ?? [:]
        XCTAssertEqual(try Self.view(pitch).pitch, 60, accuracy: 0.5)
        XCTAssertEqual(pitch["pressed"] as? String, "true")
        XCTAssertGreaterThan(pitch["flatBuildings"] as? Int ?? 0, 10, "no buildings drawn in the city centre")
        XCTAssertGreaterThan(pitch["buildings"] as? Int ?? 0, pitch["flatBuildings"] as? Int ?? 0)
        XCTAssertGreaterThan(try Screenshot(shots["04c-pitched"]).fractionDiffering(from: Screenshot(shots["04b-flat"])), 0.3)
        XCTAssertEqual(try Self.view(pitch["reset"]).pitch, 0, accuracy: 0.01)

        // A point of interest on the map: the pointer over it says its name; a click opens its
        // card, filled from /v1/place (an address, not the tile's kind), and the address bar names it.
        let feature = report["feature"] as? [String: Any] ?? [:]
        let poi = try XCTUnwrap(feature["poi"] as? [String: Any], "no named point of interest on the map")
        let name = try XCTUnwrap(poi["name"] as? String)
        XCTAssertEqual(feature["cursor"] as? String, "pointer")
        XCTAssertEqual(feature["title"] as? String, name)
        XCTAssertNil(feature["error"])
        XCTAssertEqual(feature["card"] as? String, name)
        // The tile knows only the kind of place; the address (down to the country) is /v1/place's.
        XCTAssertTrue((feature["detail"] as? String ?? "").hasSuffix("Monaco"), "the card shows no address: \(feature)")
        XCTAssertTrue((feature["address"] as? String ?? "").hasPrefix("/place?coordinate="), "\(feature)")

        // Search: suggestions while typing, then results with markers.
        let search = report["search"] as? [String: Any] ?? [:]
        let suggestions = search["suggestions"] as? [String] ?? []
        XCTAssertFalse(suggestions.isEmpty, "no autocomplete suggestions")
        let results = search["results"] as? [String] ?? []
        XCTAssertFalse(results.isEmpty, "no search results: \(search["status"] ?? "")")
        XCTAssertTrue(results.contains { $0.localizedCaseInsensitiveContains("casino") }, "\(results)")
        XCTAssertGreaterThanOrEqual((search["markers"] as? [Any])?.count ?? 0, results.count)
        XCTAssertTrue((search["address"] as? String ?? "").hasPrefix("/search?query="), "the address bar should be the search's Maps URL")
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
        let link = directions["address"] as? String ?? ""
        XCTAssertTrue(link.hasPrefix("/directions?source=") && link.contains("&destination=") && link.hasSuffix("&mode=driving"), link)
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

        // Two fingers spread to twice their distance and turned by 40°: one zoom level in, and the
        // map turns with them (a clockwise turn of the content lowers the bearing). MapLibre starts
        // turning once the fingers have moved 25 px along their circle (100 px across at the
        // start: 25 / (π·100) · 360° = 28.6°), then follows them: 40° − 28.6° = 11.4°.
        let pinch = report["pinch"] as? [String: Any] ?? [:]
        let beforePinch = try Self.view(pinch["before"]), afterPinch = try Self.view(pinch["after"])
        XCTAssertEqual(afterPinch.zoom - beforePinch.zoom, 1, accuracy: 0.1)
        XCTAssertEqual(afterPinch.bearing - beforePinch.bearing, -(40 - 25 / (Double.pi * 100) * 360), accuracy: 2)
    }

    /// A server run with API keys: the map draws (its vector tiles are open), and the page asks for
    /// a key for search and directions, shows the server's reason for a wrong key, then searches
    /// with the right one; it keeps the key for the tab's session, and takes one from `?key=`,
    /// which it removes from the address bar. The key travels only to /v1/token: calls carry tokens.
    func testWebMapAsksForAnAPIKey() async throws {
        let key = "webmap-test-key"
        guard let (report, _) = try await BrowserDriver.drive("drive_webmap.py", TestServer.make { $0.port = 0; $0.apiKeys = [APIKey(key: key)] },
                                                             screenshots: "openmapkit-webmap-key-screenshots",
                                                             arguments: ["--search", "Casino", "--api-key", key]) else { return }
        XCTAssertEqual(report["problems"] as? [String], [], "console errors, exceptions or failed loads other than the refused key")
        let asked = report["asked"] as? [String: Any] ?? [:]
        XCTAssertEqual(asked["token"] as? Bool, false)
        XCTAssertEqual(asked["apiCalls"] as? [String], [], "the API was called without a key")
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
        // The key went only to /v1/token (in a header), never in a URL.
        let urls = accepted["resources"] as? [String] ?? []
        XCTAssertTrue(urls.contains { $0.hasSuffix("/v1/token") }, "\(urls)")
        XCTAssertFalse(urls.contains { $0.contains(key) }, "the key travelled in a URL")
    }

    /// The map follows the system's appearance; Apple's unified Maps URLs on this server open the
    /// page on what they name: a search, walking directions between a coordinate and a place's
    /// name, a place card at a coordinate.
    func testMapsURLsOpenThePageOnWhatTheyName() async throws {
        guard let (report, _) = try await BrowserDriver.drive("drive_webmap.py", TestServer.make { $0.port = 0 }, screenshots: "openmapkit-webmap-link-screenshots",
                                                             arguments: ["--search", "Casino", "--mode", "links"]) else { return }
        XCTAssertEqual(report["problems"] as? [String], [], "console errors, exceptions or failed loads in the page")
        // With no style chosen, the map follows the system's appearance, also when it changes.
        XCTAssertEqual(report["appearance"] as? [String: String], ["dark": "dark", "light": "standard"])
        let results = (report["search"] as? [String: Any])?["results"] as? [String] ?? []
        XCTAssertTrue(results.contains { $0.localizedCaseInsensitiveContains("casino") }, "\(results)")
        let directions = report["directions"] as? [String: Any] ?? [:]
        XCTAssertEqual(directions["transport"] as? String, "Walking")
        let routes = directions["routes"] as? [String] ?? []
        XCTAssertFalse(routes.isEmpty)
        // On foot, 2 km take far longer than by car: the mode was followed.
        for route in routes {
            let minutes = Int(route.prefix { $0.isNumber }) ?? 0
            XCTAssertGreaterThan(minutes, 10, route)
        }
        let place = report["place"] as? [String: Any] ?? [:]
        XCTAssertFalse((place["title"] as? String ?? "").isEmpty)
        XCTAssertFalse((place["detail"] as? String ?? "").contains("failed"), "\(place)")
        let view = try Self.view(place["view"])
        XCTAssertEqual(view.latitude, 43.7384, accuracy: 1e-4)
        XCTAssertEqual(view.longitude, 7.4246, accuracy: 1e-4)
    }

    /// A browser without WebGL: the page says so and still works on the server's pictures
    /// (/api/v1/snapshot): the map is drawn and pans, search puts pins on it, a place card opens,
    /// and the server draws the route into the pictures.
    func testWebMapWithoutWebGLUsesTheServersPictures() async throws {
        guard let (report, _) = try await BrowserDriver.drive("drive_webmap.py", TestServer.make { $0.port = 0 }, screenshots: "openmapkit-webmap-static-screenshots",
                                                             arguments: ["--search", "Casino", "--mode", "static"]) else { return }
        XCTAssertEqual(report["problems"] as? [String], [], "console errors, exceptions or failed loads in the page")
        let shots = report["screenshots"] as? [String: String] ?? [:]
        let initial = report["initial"] as? [String: Any] ?? [:]
        XCTAssertEqual(initial["kind"] as? String, "static")
        XCTAssertEqual(initial["notice"] as? Bool, true, "the page should say the vector map needs WebGL")
        let tiles = initial["tiles"] as? [String: Any] ?? [:]
        XCTAssertGreaterThan(tiles["loaded"] as? Int ?? 0, 0, "\(tiles)")
        XCTAssertEqual(tiles["failed"] as? Int, 0, "\(tiles)")
        XCTAssertGreaterThan(try Screenshot(shots["static-01-initial"]).distinctColors(), 200, "the pictures look blank")
        let start = try Self.view(initial), panned = try Self.view(report["pan"])
        XCTAssertGreaterThan(panned.longitude, start.longitude)
        XCTAssertLessThan(panned.latitude, start.latitude)
        let search = report["search"] as? [String: Any] ?? [:]
        XCTAssertTrue((search["results"] as? [String] ?? []).contains { $0.localizedCaseInsensitiveContains("casino") }, "\(search)")
        XCTAssertGreaterThan((search["markers"] as? [Any])?.count ?? 0, 0)
        XCTAssertTrue((report["card"] as? String ?? "").localizedCaseInsensitiveContains("casino"), "\(report["card"] ?? "")")
        let directions = report["directions"] as? [String: Any] ?? [:]
        XCTAssertFalse((directions["routes"] as? [String] ?? []).isEmpty, "\(directions)")
        XCTAssertEqual((directions["tiles"] as? [String: Any])?["failed"] as? Int, 0)
        // The route's colour lies along the route in the server's pictures.
        let points = Self.points(directions["points"])
        XCTAssertGreaterThan(points.count, 5)
        let along = try Screenshot(shots["static-02-directions"]).fractionNear((0x0a, 0x66, 0xd8), along: points, excludingLeftOf: 380)
        XCTAssertGreaterThan(along.fraction, 0.6, "the route is not drawn into the pictures (\(along.samples) samples)")
    }

    struct View { let zoom, latitude, longitude, bearing, pitch: Double }

    static func view(_ object: Any?) throws -> View {
        let record = try XCTUnwrap(object as? [String: Any], "step missing from the report")
        let v = try XCTUnwrap((record["view"] as? [String: Double]) ?? (record as? [String: Double]), "\(record)")
        return View(zoom: v["zoom"] ?? .nan, latitude: v["latitude"] ?? .nan, longitude: v["longitude"] ?? .nan,
                    bearing: v["bearing"] ?? .nan, pitch: v["pitch"] ?? .nan)
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
