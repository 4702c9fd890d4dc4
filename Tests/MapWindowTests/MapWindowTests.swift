import Foundation
import MapWindow
import OpenMapKit
import TestSupport
import XCTest

/// A `MapWindow` used from Swift: opened on a virtual X server (Xvfb), as `ViewCommandTests`
/// runs `openmapkit view`, turned by a wheel click from xdotool and closed from its report handler.
final class MapWindowTests: XCTestCase {
    func testWithoutADisplayItThrowsAReason() throws {
        let saved = Environment.unset(["DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"])
        defer { saved.restore() }
        let mapView = MKMapView(frame: CGRect(x: 0, y: 0, width: 200, height: 100))
        let delegate = RecordingDelegate()
        mapView.delegate = delegate
        XCTAssertThrowsError(try MapWindow(mapView: mapView, title: "MapWindowTests")) { error in
            XCTAssertTrue("\(error)".contains("no display"), "\(error)")
        }
        XCTAssertTrue(mapView.delegate === delegate, "a window that could not open gives the map view its delegate back")
    }

    func testTheWindowShowsTheMapViewAndTurnsTheWheelIntoAZoom() throws {
        let tools = [("Xvfb", "xvfb"), ("xdotool", "xdotool")]
        let missing = tools.filter { tool in !["/usr/bin/", "/usr/local/bin/"].contains { FileManager.default.isExecutableFile(atPath: $0 + tool.0) } }
        guard missing.isEmpty else {
            XCTFail("\(missing.map(\.0).joined(separator: ", ")) not installed, so the window cannot be tested: "
                    + "apt-get install \(missing.map(\.1).joined(separator: " ")) (the Makefile's APT_BUILD does it for CI)")
            return
        }
        let bundle = try SampleBundle.monaco()
        let display = try VirtualDisplay(screen: "800x600x24")
        defer { display.stop() }
        let saved = Environment.unset(["DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"])
        defer { saved.restore() }
        setenv("DISPLAY", display.name, 1)

        let mapView = MKMapView(frame: CGRect(x: 0, y: 0, width: 400, height: 300))
        mapView.dataSource = try MapDataSource(path: bundle.path)
        mapView.setCenter(CLLocationCoordinate2D(latitude: 43.7384, longitude: 7.4246), animated: false)
        mapView.setZoomLevel(15, animated: false)
        let delegate = RecordingDelegate()
        mapView.delegate = delegate

        let reports = try Self.turnTheWheelOnce(in: try MapWindow(mapView: mapView, title: "MapWindowTests"), titled: "MapWindowTests", on: display)

        XCTAssertEqual(reports.first?.event, "open")
        XCTAssertEqual(reports.first?.values?["width"], 400)
        XCTAssertEqual(reports.first?.values?["height"], 300)
        let frame = try XCTUnwrap(reports.first(where: { $0.event == "frame" }), "a frame was drawn")
        XCTAssertEqual(frame.zoom, 15, accuracy: 1e-6)
        XCTAssertGreaterThan(frame.values?["milliseconds"] ?? 0, 0)
        let wheel = try XCTUnwrap(reports.first(where: { $0.event == "wheel" }), "the wheel reached the window (reports: \(reports.map(\.event)))")
        XCTAssertEqual(wheel.values?["steps"], 1)
        XCTAssertEqual(wheel.zoom, 15.5, accuracy: 1e-6, "a notch zooms in half a level")
        XCTAssertEqual(mapView.zoomLevel, 15.5, accuracy: 1e-6)

        // The map view's own delegate heard the frames and the camera change through the window's.
        XCTAssertGreaterThan(delegate.framesRendered, 0)
        XCTAssertGreaterThan(delegate.regionChanges, 0)
        XCTAssertTrue(mapView.delegate === delegate, "the closed window gives the map view its delegate back")
    }
}

extension MapWindowTests {
    /// The Mapbox face in a window: the same engine's gestures, its own frames (style, logo and
    /// attribution) and its own delegate's callbacks.
    func testTheWindowShowsAMapboxMapViewAndTurnsTheWheelIntoAZoom() throws {
        guard ["/usr/bin/Xvfb", "/usr/bin/xdotool"].allSatisfy(FileManager.default.isExecutableFile(atPath:)) else {
            XCTFail("Xvfb and xdotool are needed (the Makefile's APT_BUILD installs them)")
            return
        }
        let bundle = try SampleBundle.monaco()
        let display = try VirtualDisplay(screen: "800x600x24")
        defer { display.stop() }
        let saved = Environment.unset(["DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"])
        defer { saved.restore() }
        setenv("DISPLAY", display.name, 1)

        let map = MGLMapView(frame: CGRect(x: 0, y: 0, width: 400, height: 300), styleURL: MGLStyle.darkStyleURL)
        map.dataSource = try MapDataSource(path: bundle.path)
        map.setCenter(CLLocationCoordinate2D(latitude: 43.7384, longitude: 7.4246), zoomLevel: 15, animated: false)
        let delegate = RecordingMGLDelegate()
        map.delegate = delegate

        let window = try MapWindow(mapboxMapView: map, title: "MapWindowMapboxTests")
        XCTAssertTrue(window.mapboxMapView === map)
        let reports = try Self.turnTheWheelOnce(in: window, titled: "MapWindowMapboxTests", on: display)
        let wheel = try XCTUnwrap(reports.first(where: { $0.event == "wheel" }), "the wheel reached the window (reports: \(reports.map(\.event)))")
        XCTAssertEqual(wheel.zoom, 15.5, accuracy: 1e-6)
        XCTAssertEqual(map.zoomLevel, 15.5, accuracy: 1e-6, "the Mapbox face sees the engine's zoom")
        // The Mapbox delegate heard the style load, the frames and the camera change.
        XCTAssertTrue(delegate.styleLoaded)
        XCTAssertGreaterThan(delegate.frames, 0)
        XCTAssertGreaterThan(delegate.regionChanges, 0)
        XCTAssertEqual(map.style?.name.map { !$0.isEmpty }, true)
    }
}

extension MapWindowTests {
    /// Runs `window` until the wheel, turned one notch up over it once its first frame is on
    /// screen, has reached it; its reports. A watchdog closes the window after 60 s, so a wheel
    /// that never arrives fails the test instead of hanging the run.
    static func turnTheWheelOnce(in window: MapWindow, titled title: String, on display: VirtualDisplay) throws -> [MapWindow.Report] {
        var reports: [MapWindow.Report] = []
        var failure: (any Error)?
        let watched = WeakWindow(window)
        let watchdog = DispatchWorkItem { watched.window?.close() }
        DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: watchdog)
        defer { watchdog.cancel() }
        window.onReport = { [unowned window] report in
            reports.append(report)
            switch report.event {
            case "frame" where reports.filter({ $0.event == "frame" }).count == 1:
                do {
                    let id = try display.xdotool(["search", "--sync", "--name", title]).split(separator: "\n").first.map(String.init) ?? ""
                    _ = try display.xdotool(["mousemove", "--window", id, "100", "80", "click", "4"])
                } catch {
                    failure = error
                    window.close()
                }
            case "wheel":
                window.close()
            default:
                break
            }
        }
        try window.run()
        if let failure { throw failure }
        return reports
    }
}

/// A Mapbox delegate that counts what it hears.
private final class RecordingMGLDelegate: MGLMapViewDelegate {
    var frames = 0, regionChanges = 0, styleLoaded = false
    func mapViewDidFinishRenderingFrame(_ mapView: MGLMapView, fullyRendered: Bool) { frames += 1 }
    func mapView(_ mapView: MGLMapView, regionDidChangeAnimated animated: Bool) { regionChanges += 1 }
    func mapView(_ mapView: MGLMapView, didFinishLoading style: MGLStyle) { styleLoaded = true }
}

/// A delegate that counts what it hears.
private final class RecordingDelegate: MKMapViewDelegate {
    var framesRendered = 0, regionChanges = 0
    func mapViewDidFinishRenderingMap(_ mapView: MKMapView, fullyRendered: Bool) { framesRendered += 1 }
    func mapView(_ mapView: MKMapView, regionDidChangeAnimated animated: Bool) { regionChanges += 1 }
}

/// The window, for the watchdog's thread (``MapWindow/close()`` may be called from any thread).
private final class WeakWindow: @unchecked Sendable {
    weak var window: MapWindow?
    init(_ window: MapWindow) { self.window = window }
}

/// Environment variables taken away for a test and put back after it.
private struct Environment {
    var saved: [String: String?]

    static func unset(_ names: [String]) -> Environment {
        var saved: [String: String?] = [:]
        for name in names {
            saved[name] = getenv(name).map { String(cString: $0) }
            unsetenv(name)
        }
        return Environment(saved: saved)
    }

    func restore() {
        for (name, value) in saved {
            if let value { setenv(name, value, 1) } else { unsetenv(name) }
        }
    }
}
