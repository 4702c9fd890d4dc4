import Foundation
@testable import OpenMapKit
import MapStyle
import TestSupport
import XCTest

/// Loading MGLMapView's style from Mapbox style URLs, files and HTTP, the loading and rendering
/// callbacks, and drawing the style's document (inventory M-1 … M-3, M-15).
final class MGLMapViewStyleTests: XCTestCase {
    private func styleFile(_ json: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mgl-style-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("style.json")
        try Data(json.utf8).write(to: url)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return url
    }

    func testStyleURLsAndDefaults() {
        XCTAssertEqual(MGLStyle.streetsStyleURL.absoluteString, "mapbox://styles/mapbox/streets-v11")
        XCTAssertEqual(MGLStyle.outdoorsStyleURL(withVersion: 9).absoluteString, "mapbox://styles/mapbox/outdoors-v9")
        XCTAssertEqual(MGLStyle.lightStyleURL.absoluteString, "mapbox://styles/mapbox/light-v10")
        XCTAssertEqual(MGLStyle.darkStyleURL.absoluteString, "mapbox://styles/mapbox/dark-v10")
        XCTAssertEqual(MGLStyle.satelliteStyleURL.absoluteString, "mapbox://styles/mapbox/satellite-v9")
        XCTAssertEqual(MGLStyle.satelliteStreetsStyleURL.absoluteString, "mapbox://styles/mapbox/satellite-streets-v11")
        XCTAssertEqual(MGLStyle.builtIn(for: MGLStyle.streetsStyleURL), .standard)
        XCTAssertEqual(MGLStyle.builtIn(for: MGLStyle.lightStyleURL(withVersion: 3)), .muted)
        XCTAssertEqual(MGLStyle.builtIn(for: MGLStyle.darkStyleURL), .dark)
        XCTAssertEqual(MGLStyle.builtIn(for: MGLStyle.satelliteStreetsStyleURL), .hybrid)
        XCTAssertNil(MGLStyle.builtIn(for: URL(string: "mapbox://styles/someone/abc123")!))
        // M-1, M-3: the default reads back; nil resets to it.
        let (map, delegate, _) = MapboxFixtures.map()
        XCTAssertEqual(map.styleURL, MGLStyle.streetsStyleURL)
        XCTAssertNil(map.style, "nil until the style loads")
        map.finishLoadingStyle()
        XCTAssertEqual(delegate.log, ["willStartLoading", "didFinishLoadingStyle"])
        XCTAssertTrue(delegate.loadedStyle === map.style)
        XCTAssertEqual(map.style?.name, "OpenMapKit Standard")
        XCTAssertEqual(map.attributionText, "© OpenStreetMap contributors")
        map.styleURL = MGLStyle.darkStyleURL
        XCTAssertNil(map.style)
        map.finishLoadingStyle()
        XCTAssertEqual(map.style?.name, "OpenMapKit Standard Dark")
        map.styleURL = nil
        XCTAssertEqual(map.styleURL, MGLStyle.streetsStyleURL)
    }

    func testFailuresLeaveNoStyle() throws {
        let (map, delegate, _) = MapboxFixtures.map()
        map.dataSource = try MonacoBundle.dataSource()
        // Satellite needs the data source's imagery.
        map.styleURL = MGLStyle.satelliteStyleURL
        map.finishLoadingStyle()
        XCTAssertNil(map.style)
        XCTAssertEqual(delegate.log, ["willStartLoading", "didFailLoading"])
        XCTAssertTrue("\(delegate.failure!)".contains("imagery"))
        // A Mapbox account's style, an invalid file, a missing file.
        for url in [URL(string: "mapbox://styles/someone/abc123")!, try styleFile("{not a style"),
                    URL(fileURLWithPath: "/nonexistent/style.json")] {
            delegate.log = []
            map.styleURL = url
            map.finishLoadingStyle()
            XCTAssertNil(map.style, "\(url)")
            XCTAssertEqual(delegate.log, ["willStartLoading", "didFailLoading"], "\(url)")
        }
    }

    func testFileStyleIsDrawnAndResetPositionUsesItsViewport() throws {
        // M-2 (file), M-15 (style's default viewport), and the engine drawing the style's document.
        let url = try styleFile(#"""
            {"version": 8, "name": "Red", "center": [-71.06, 42.36], "zoom": 12, "bearing": 20, "pitch": 10,
             "sources": {}, "layers": [{"id": "background", "type": "background", "paint": {"background-color": "#ff0000"}}]}
            """#)
        let (map, delegate, _) = MapboxFixtures.map()
        map.dataSource = try MonacoBundle.dataSource()
        map.styleURL = url
        let image = try map.render()
        XCTAssertEqual(delegate.log, ["willStartLoading", "didFinishLoadingStyle", "willStartRenderingMap", "willStartRenderingFrame",
                                      "didFinishRenderingFrame(true)", "didFinishLoading", "didFinishRenderingMap(true)", "idle"])
        assertColor(image.color(at: CGPoint(x: 200, y: 200)), near: UIColor(red: 1, green: 0, blue: 0, alpha: 1))
        XCTAssertEqual(map.style?.name, "Red")
        map.resetPosition()
        XCTAssertEqual(map.centerCoordinate.latitude, 42.36, accuracy: 1e-9)
        XCTAssertEqual(map.centerCoordinate.longitude, -71.06, accuracy: 1e-9)
        XCTAssertEqual(map.zoomLevel, 12, accuracy: 1e-9)
        XCTAssertEqual(map.direction, 20, accuracy: 1e-9)
        XCTAssertEqual(map.camera.pitch, 10, accuracy: 1e-9)
        // The style's document is what the engine draws: changing it changes the next frame.
        var document = try XCTUnwrap(map.style).document
        document = try Style(text: ##"{"version": 8, "sources": {}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#0000ff"}}]}"##)
        map.style?.document = document
        delegate.log = []
        let blue = try map.render()
        assertColor(blue.color(at: CGPoint(x: 200, y: 200)), near: UIColor(red: 0, green: 0, blue: 1, alpha: 1))
        XCTAssertFalse(delegate.log.contains("didFinishLoading"), "no new style load: loading is not reported again")
        // Reloading reports a load again.
        map.reloadStyle(nil)
        delegate.log = []
        _ = try map.render()
        XCTAssertEqual(delegate.log.prefix(2), ["willStartLoading", "didFinishLoadingStyle"])
        XCTAssertTrue(delegate.log.contains("didFinishLoading"))
    }

    func testStreetsRenderOfMonacoWithShapesAndOrnaments() throws {
        let (map, delegate, _) = MapboxFixtures.map()
        map.dataSource = try MonacoBundle.dataSource()
        map.setCenter(MapboxFixtures.monaco, zoomLevel: 15, animated: false)
        let line = MGLPolyline(coordinates: [CLLocationCoordinate2D(latitude: 43.7360, longitude: 7.4180),
                                             CLLocationCoordinate2D(latitude: 43.7360, longitude: 7.4320)])
        delegate.strokeColor = .systemGreen
        delegate.lineWidth = 8
        map.addAnnotation(line)
        let image = try map.render()
        MonacoBundle.save(image, "mglmapview-streets")
        let onLine = map.convert(CLLocationCoordinate2D(latitude: 43.7360, longitude: 7.4250), toPointTo: map)
        assertColor(image.color(at: onLine), near: .systemGreen, tolerance: 0.1)
        // The attribution is drawn at the bottom right, the logo at the bottom left.
        let attribution = map.attributionButton.frame
        XCTAssertEqual(attribution.maxX, 392, accuracy: 1e-6)
        XCTAssertEqual(attribution.maxY, 392, accuracy: 1e-6)
        XCTAssertEqual(map.logoView.frame.minX, 8, accuracy: 1e-6)
        XCTAssertGreaterThan(image.color(at: CGPoint(x: attribution.midX, y: attribution.minY + 1))!.red, 0.8, "the label's light box")
        // Moving a shape's points redraws it on the next frame.
        var moved = [CLLocationCoordinate2D(latitude: 43.7400, longitude: 7.4180), CLLocationCoordinate2D(latitude: 43.7400, longitude: 7.4320)]
        line.setCoordinates(&moved, count: 2)
        let again = try map.render()
        let newLine = map.convert(CLLocationCoordinate2D(latitude: 43.7400, longitude: 7.4250), toPointTo: map)
        assertColor(again.color(at: newLine), near: .systemGreen, tolerance: 0.1)
    }

    func testHTTPStyleFromALocalServer() throws {
        // Python's http.server stands in for a style host.
        let folder = try styleFile(#"{"version": 8, "name": "Served", "sources": {}, "layers": []}"#).deletingLastPathComponent()
        // python3 is one of the Makefile's build dependencies: without it the test fails, not skips.
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else {
            return XCTFail("/usr/bin/python3 is missing (the Makefile's APT_BUILD installs it); it serves the style here")
        }
        let port = 20_000 + Int(getpid() % 20_000)
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        server.arguments = ["-m", "http.server", String(port), "--bind", "127.0.0.1", "--directory", folder.path]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer { server.terminate(); server.waitUntilExit() }
        let (map, delegate, _) = MapboxFixtures.map()
        map.styleURL = URL(string: "http://127.0.0.1:\(port)/style.json")!
        // Wait for the server to listen.
        for _ in 0..<50 {
            map.reloadStyle(nil)
            delegate.log = []
            map.finishLoadingStyle()
            if map.style != nil { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        XCTAssertEqual(map.style?.name, "Served")
        XCTAssertEqual(delegate.log, ["willStartLoading", "didFinishLoadingStyle"])
        map.styleURL = URL(string: "http://127.0.0.1:\(port)/missing.json")!
        delegate.log = []
        map.finishLoadingStyle()
        XCTAssertNil(map.style)
        XCTAssertTrue("\(delegate.failure!)".contains("404"))
    }
}
