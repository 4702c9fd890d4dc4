import Foundation
import TestSupport
import XCTest

/// `openmapkit view` as a user drives it: the window runs on a virtual X server (Xvfb), xdotool
/// moves the mouse and types, `--report` says what the map view did, and a screenshot of the
/// server's screen shows what the window drew.
final class ViewCommandTests: XCTestCase {
    var binary: URL { Bundle.main.bundleURL.appendingPathComponent("openmapkit") }
    static let size = (width: 1000.0, height: 700.0)

    func testWithoutADisplayItFailsWithAReason() throws {
        let bundle = try SampleBundle.monaco()
        let result = try runProcess("/usr/bin/env", ["-i", "PATH=/usr/bin:/bin", binary.path, "view", bundle.path])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("no display"), result.stderr)
    }

    /// `--api mapbox` drives the window through the Mapbox face (its style, logo and attribution);
    /// `--style-url` belongs to it.
    func testTheMapboxFaceInTheWindow() throws {
        let bundle = try SampleBundle.monaco()
        let refused = try runProcess(binary.path, ["view", bundle.path, "--style-url", "mapbox://styles/mapbox/dark-v10"])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("--style-url needs --api mapbox"), refused.stderr)
        guard ["/usr/bin/Xvfb", "/usr/bin/xdotool"].allSatisfy(FileManager.default.isExecutableFile(atPath:)) else {
            XCTFail("Xvfb and xdotool are needed (the Makefile's APT_BUILD installs them)")
            return
        }
        let display = try VirtualDisplay()
        defer { display.stop() }
        let app = try WindowProcess(binary: binary, display: display.name,
                                    arguments: ["view", bundle.path, "--report", "--size", "600x400", "--center", "43.7384,7.4246", "--zoom", "15",
                                                "--api", "mapbox", "--style-url", "mapbox://styles/mapbox/dark-v10"])
        defer { app.stop() }
        let opened = try app.next("frame", timeout: 60)
        XCTAssertEqual(opened.zoom, 15, accuracy: 1e-6)
        let window = try display.xdotool(["search", "--sync", "--name", "OpenMapKit"]).split(separator: "\n").first.map(String.init) ?? ""
        let title = try display.xdotool(["getwindowname", window])
        XCTAssertTrue(title.contains("(Mapbox)"), title)
        _ = try display.xdotool(["mousemove", "--window", window, "300", "200", "click", "4"])
        XCTAssertEqual(try app.settled("wheel").zoom, 15.5, accuracy: 1e-6)
    }

    func testMouseWheelKeysSearchAndRouteInTheWindow() throws {
        let tools = [("Xvfb", "xvfb"), ("xdotool", "xdotool"), ("xwd", "x11-apps")]
        let missing = tools.filter { tool in !["/usr/bin/", "/usr/local/bin/"].contains { FileManager.default.isExecutableFile(atPath: $0 + tool.0) } }
        guard missing.isEmpty else {
            XCTFail("\(missing.map(\.0).joined(separator: ", ")) not installed, so the window cannot be tested: "
                    + "apt-get install \(missing.map(\.1).joined(separator: " ")) (the Makefile's APT_BUILD does it for CI)")
            return
        }
        let bundle = try SampleBundle.monaco()
        let display = try VirtualDisplay()
        defer { display.stop() }

        let start = (latitude: 43.7384, longitude: 7.4246), startZoom = 15.0
        let app = try WindowProcess(binary: binary, display: display.name,
                                    arguments: ["view", bundle.path, "--report", "--size", "\(Int(Self.size.width))x\(Int(Self.size.height))",
                                                "--center", "\(start.latitude),\(start.longitude)", "--zoom", "\(startZoom)"])
        defer { app.stop() }
        let opened = try app.next("frame", timeout: 60)
        XCTAssertEqual(opened.zoom, startZoom, accuracy: 1e-6)
        let window = try display.xdotool(["search", "--sync", "--name", "OpenMapKit"]).split(separator: "\n").first.map(String.init) ?? ""
        XCTAssertFalse(window.isEmpty, "the window did not appear")
        let title = try display.xdotool(["getwindowname", window])
        XCTAssertTrue(title.contains("monaco"), "the title names the region: \(title)")

        // Drag left by 200 points, pausing before the release (no coasting): the map shows
        // what is east, and the centre moves by 200 points' worth of longitude.
        _ = try display.xdotool(["mousemove", "--window", window, "600", "350", "mousedown", "1"]
                                + stride(from: 580, through: 400, by: -20).flatMap { ["mousemove", "--window", window, "\($0)", "350", "sleep", "0.05"] }
                                + ["sleep", "0.3", "mouseup", "1"])
        var camera = try app.settled("drag")
        let expectedLongitude = start.longitude + 200 / Self.worldPoints(camera.zoom) * 360
        XCTAssertEqual(camera.longitude, expectedLongitude, accuracy: 2e-5, "dragging left moves the centre east by the dragged distance")
        XCTAssertEqual(camera.latitude, start.latitude, accuracy: 2e-5)

        // The wheel zooms in half a level at the cursor, keeping the place under it there.
        let cursor = (x: 250.0, y: 200.0)
        let under = Self.coordinate(at: cursor, camera: camera)
        _ = try display.xdotool(["mousemove", "--window", window, "\(Int(cursor.x))", "\(Int(cursor.y))", "click", "4"])
        let wheeled = try app.settled("wheel")
        XCTAssertEqual(wheeled.zoom, camera.zoom + 0.5, accuracy: 1e-6)
        let stillUnder = Self.coordinate(at: cursor, camera: wheeled)
        XCTAssertEqual(stillUnder.latitude, under.latitude, accuracy: 1e-6, "the place under the cursor stays there")
        XCTAssertEqual(stillUnder.longitude, under.longitude, accuracy: 1e-6)
        camera = wheeled

        // A double-click at the centre zooms in one level there.
        _ = try display.xdotool(["mousemove", "--window", window, "500", "350", "click", "--repeat", "2", "--delay", "80", "1"])
        let zoomedIn = try app.settled("doubleClick")
        XCTAssertEqual(zoomedIn.zoom, camera.zoom + 1, accuracy: 1e-6)
        XCTAssertEqual(zoomedIn.longitude, camera.longitude, accuracy: 1e-6)
        camera = zoomedIn

        // `/` opens the search field; typed text and Enter search the visible region.
        _ = try display.xdotool(["key", "slash"])
        _ = try app.next("searchFocused")
        _ = try display.xdotool(["type", "--delay", "50", "restaurant"])
        _ = try display.xdotool(["key", "Return"])
        let searched = try app.next("search")
        XCTAssertEqual(searched.query, "restaurant")
        let results = searched.results ?? []
        XCTAssertFalse(results.isEmpty, "restaurants in view of Monaco's port")
        let onScreen = results.compactMap { place -> (ReportLine.Place, (x: Double, y: Double))? in
            let p = Self.point(of: (place.latitude, place.longitude), camera: camera)
            return p.x > 40 && p.x < Self.size.width - 40 && p.y > 80 && p.y < Self.size.height - 40 ? (place, p) : nil
        }
        XCTAssertFalse(onScreen.isEmpty, "search results lie in the visible region: \(results)")

        // A click on a result's marker (its balloon, above the point) selects it.
        if let (place, p) = onScreen.first {
            _ = try display.xdotool(["mousemove", "--window", window, "\(Int(p.x))", "\(Int(p.y - 20))", "click", "1"])
            let clicked = try app.next("click")
            XCTAssertEqual(clicked.selected, place.title, "the click selects the marker under it")

            // Escape clears the markers; a click on the bare map at that place finds it (or a
            // neighbour) in the bundle and selects a marker with its name.
            _ = try display.xdotool(["key", "Escape"])
            let cleared = try app.next("cleared")
            XCTAssertNil(cleared.selected)
            _ = try display.xdotool(["mousemove", "--window", window, "\(Int(p.x))", "\(Int(p.y))", "click", "1"])
            let found = try app.next("click")
            let name = try XCTUnwrap(found.selected)
            XCTAssertFalse(name.isEmpty)
            XCTAssertNil(name.range(of: #"^-?\d+\.\d+, -?\d+\.\d+$"#, options: .regularExpression),
                         "the click found a place, not only a coordinate: \(name)")
        }

        // Two right-clicks: a route from the first to the second.
        _ = try display.xdotool(["mousemove", "--window", window, "300", "400", "click", "3"])
        _ = try app.next("routeStart")
        _ = try display.xdotool(["mousemove", "--window", window, "700", "300", "click", "3"])
        let routed = try app.next("route")
        XCTAssertNil(routed.failure)
        XCTAssertGreaterThan(routed.routeDistance ?? 0, 100, "a route across Monaco is longer than 100 m")
        _ = try app.next("frame")

        // The screen shows a map: many colours, the route's blue and the start marker's green.
        let screen = try display.screenshot()
        let geometry = try display.xdotool(["getwindowgeometry", window])
        let origin = Self.windowOrigin(geometry)
        var colours = Set<UInt32>(), blue = 0, green = 0
        for y in stride(from: origin.y, to: min(origin.y + Int(Self.size.height), screen.height), by: 1) {
            for x in stride(from: origin.x, to: min(origin.x + Int(Self.size.width), screen.width), by: 1) {
                let (r, g, b) = screen.pixel(x: x, y: y)
                colours.insert(UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b))
                if abs(Int(r) - 0) < 25, abs(Int(g) - 122) < 25, abs(Int(b) - 255) < 25 { blue += 1 }
                if abs(Int(r) - 51) < 25, abs(Int(g) - 178) < 25, abs(Int(b) - 77) < 25 { green += 1 }
            }
        }
        XCTAssertGreaterThan(colours.count, 200, "a drawn map has many colours")
        XCTAssertGreaterThan(blue, 300, "the route is drawn in blue")
        XCTAssertGreaterThan(green, 50, "the start marker is drawn in green")
        try? FileManager.default.createDirectory(atPath: "/tmp/openmapkit-snapshots", withIntermediateDirectories: true)
        try? screen.data.write(to: URL(fileURLWithPath: "/tmp/openmapkit-snapshots/view-window.xwd"))

        // A right-drag turns (sideways) and tilts (upwards) the map.
        _ = try display.xdotool(["mousemove", "--window", window, "500", "400", "mousedown", "3"]
                                + stride(from: 20, through: 200, by: 20).flatMap { ["mousemove", "--window", window, "\(500 + $0)", "\(400 - $0 / 2)", "sleep", "0.05"] }
                                + ["mouseup", "3"])
        let turned = try app.settled("rotate")
        XCTAssertNotEqual(turned.heading, 0, "sideways drag turns the map")
        XCTAssertGreaterThan(turned.pitch, 0, "upward drag tilts the map")

        // `-` zooms out one level, animated.
        _ = try display.xdotool(["key", "minus"])
        let zoomedOut = try app.settled("key:-")
        XCTAssertEqual(zoomedOut.zoom, turned.zoom - 1, accuracy: 1e-6)
    }

    /// Look Around in the window: L at a street opens it, a drag turns it, a click ahead walks,
    /// Escape goes back to the map; a Maps URL's `/look-around` opens the window in it.
    func testLookAroundInTheWindow() throws {
        guard ["/usr/bin/Xvfb", "/usr/bin/xdotool"].allSatisfy(FileManager.default.isExecutableFile(atPath:)) else {
            XCTFail("Xvfb and xdotool are needed (the Makefile's APT_BUILD installs them)")
            return
        }
        let bundle = try SampleBundle.monaco()
        let display = try VirtualDisplay()
        defer { display.stop() }
        let app = try WindowProcess(binary: binary, display: display.name,
                                    arguments: ["view", bundle.path, "--report", "--size", "640x400", "--center", "43.73895,7.42630", "--zoom", "18"])
        defer { app.stop() }
        _ = try app.next("frame", timeout: 60)
        let window = try display.xdotool(["search", "--sync", "--name", "OpenMapKit"]).split(separator: "\n").first.map(String.init) ?? ""
        _ = try display.xdotool(["mousemove", "--window", window, "320", "200", "key", "l"])
        let opened = try app.next("lookAround", timeout: 60)
        let standing = try XCTUnwrap(opened.lookAround, "the report says where the viewer stands")
        XCTAssertEqual(standing.latitude, 43.73895, accuracy: 0.0005)
        XCTAssertEqual(standing.longitude, 7.42630, accuracy: 0.0006)
        _ = try app.next("frame", timeout: 60)

        // Dragging right turns the view left (the picture follows the pointer).
        _ = try display.xdotool(["mousemove", "--window", window, "200", "200", "mousedown", "1"]
                                + stride(from: 220, through: 400, by: 30).flatMap { ["mousemove", "--window", window, "\($0)", "200", "sleep", "0.05"] }
                                + ["mouseup", "1"])
        let turned = try app.next("lookAroundTurned", timeout: 60)
        let after = try XCTUnwrap(turned.lookAround)
        let turn = (standing.heading - after.heading + 360).truncatingRemainder(dividingBy: 360)
        XCTAssertGreaterThan(turn, 10, "turned left: \(standing.heading) → \(after.heading)")
        XCTAssertLessThan(turn, 90)

        // Up walks ahead along the street; Escape goes back to the map where the viewer stood.
        _ = try display.xdotool(["key", "--window", window, "Up"])
        let walked = try XCTUnwrap(try app.next("lookAroundMoved", timeout: 60).lookAround)
        XCTAssertFalse(walked.latitude == after.latitude && walked.longitude == after.longitude, "the viewer moved")
        _ = try display.xdotool(["key", "--window", window, "Escape"])
        let closed = try app.next("lookAroundClosed", timeout: 60)
        XCTAssertNil(closed.lookAround)
        app.stop()

        // `--url` with a Maps URL's Look Around opens straight into it.
        let linked = try WindowProcess(binary: binary, display: display.name,
                                       arguments: ["view", bundle.path, "--report", "--size", "320x240",
                                                   "--url", "https://maps.apple.com/look-around?coordinate=43.73895,7.42630"])
        defer { linked.stop() }
        let first = try linked.next("frame", timeout: 60)
        XCTAssertNotNil(first.lookAround, "the window opens in Look Around")
    }

    // MARK: - Map arithmetic (independent of the code under test)

    /// The world's width in points at `zoom` (MapLibre's convention: 512 at zoom 0).
    static func worldPoints(_ zoom: Double) -> Double { 512 * pow(2, zoom) }

    static func worldPoint(_ c: (latitude: Double, longitude: Double), zoom: Double) -> (x: Double, y: Double) {
        let w = worldPoints(zoom), lat = c.latitude * .pi / 180
        return ((c.longitude + 180) / 360 * w, (1 - log(tan(lat) + 1 / cos(lat)) / .pi) / 2 * w)
    }

    /// Where a coordinate shows in the window for a north-up, flat camera.
    static func point(of c: (latitude: Double, longitude: Double), camera: ReportLine) -> (x: Double, y: Double) {
        let p = worldPoint(c, zoom: camera.zoom), o = worldPoint((camera.latitude, camera.longitude), zoom: camera.zoom)
        return (p.x - o.x + size.width / 2, p.y - o.y + size.height / 2)
    }

    /// The coordinate under a window point for a north-up, flat camera.
    static func coordinate(at point: (x: Double, y: Double), camera: ReportLine) -> (latitude: Double, longitude: Double) {
        let w = worldPoints(camera.zoom), o = worldPoint((camera.latitude, camera.longitude), zoom: camera.zoom)
        let x = o.x + point.x - size.width / 2, y = o.y + point.y - size.height / 2
        let longitude = x / w * 360 - 180
        let latitude = atan(sinh(.pi * (1 - 2 * y / w))) * 180 / .pi
        return (latitude, longitude)
    }

    /// The window's top-left corner from `xdotool getwindowgeometry` ("Position: X,Y (screen: 0)").
    static func windowOrigin(_ text: String) -> (x: Int, y: Int) {
        guard let line = text.split(separator: "\n").first(where: { $0.contains("Position:") }),
              let numbers = line.split(separator: ":").dropFirst().first?.split(separator: "(").first else { return (0, 0) }
        let parts = numbers.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        return parts.count == 2 ? (parts[0], parts[1]) : (0, 0)
    }
}

/// One line of `openmapkit view --report`.
struct ReportLine: Decodable {
    struct Place: Decodable { var title: String; var latitude: Double; var longitude: Double; var x: Double?; var y: Double? }
    struct Button: Decodable { var title: String; var x: Double; var y: Double; var width: Double; var height: Double }
    var event: String
    var latitude: Double, longitude: Double, zoom: Double, heading: Double, pitch: Double
    var animating: Bool
    var selected: String?
    var routeDistance: Double?
    var query: String?
    var results: [Place]?
    var failure: String?
    var panel: [String]?
    var buttons: [Button]?
    var annotations: [Place]?
    struct LookAround: Decodable { var latitude: Double; var longitude: Double; var heading: Double; var pitch: Double; var street: String? }
    var preview: Button?
    var lookAround: LookAround?
}

/// The window under test: its report lines, read as they come.
final class WindowProcess: @unchecked Sendable {
    private let process = Process()
    private let lock = NSCondition()
    private var buffer = Data()
    private var lines: [ReportLine] = []
    private var consumed = 0
    private var errors = Data()

    init(binary: URL, display: String, arguments: [String]) throws {
        process.executableURL = binary
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = display
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        out.fileHandleForReading.readabilityHandler = { [self] handle in
            let data = handle.availableData
            lock.lock()
            buffer.append(data)
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[buffer.startIndex..<newline]
                buffer = Data(buffer[(newline + 1)...])
                if let decoded = try? JSONDecoder().decode(ReportLine.self, from: line) { lines.append(decoded) }
            }
            lock.broadcast()
            lock.unlock()
        }
        err.fileHandleForReading.readabilityHandler = { [self] handle in
            let data = handle.availableData
            lock.lock()
            errors.append(data)
            lock.unlock()
        }
        try process.run()
    }

    /// The next line (after those already taken) with `event`; lines before it are skipped.
    func next(_ event: String, timeout: TimeInterval = 60) throws -> ReportLine {
        let deadline = Date().addingTimeInterval(timeout)
        lock.lock()
        defer { lock.unlock() }
        while true {
            while consumed < lines.count {
                let line = lines[consumed]
                consumed += 1
                if line.event == event { return line }
            }
            guard process.isRunning, lock.wait(until: deadline) || consumed < lines.count else {
                throw CommandFailure("no \"\(event)\" report within \(timeout) s (running: \(process.isRunning)); stderr: "
                                     + String(decoding: errors, as: UTF8.self))
            }
        }
    }

    /// The camera once the gesture reported as `event` has come to rest (after its animation).
    func settled(_ event: String) throws -> ReportLine {
        var line = try next(event)
        while line.animating { line = try next("camera") }
        return line
    }

    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}

private struct CommandFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
