import Foundation
@testable import OpenMapKit
import TestSupport
import XCTest

/// MapKit's controls: the user-tracking and pitch buttons (top right, the compass under them)
/// and the zoom control (bottom right): placed, drawn, and working through `tap(at:)`.
final class MapViewControlTests: XCTestCase {
    final class Fixed: MKUserLocationProvider {
        func startUpdatingLocation(_ handler: @escaping (MKUserLocationEvent) -> Void) {
            handler(.location(CLLocation(latitude: MapViewFixtures.monaco.latitude, longitude: MapViewFixtures.monaco.longitude)))
        }
        func stopUpdatingLocation() {}
    }

    private func settle(_ map: MKMapView, _ clock: MKManualMapViewClock) {
        for _ in 0..<20 where map.isAnimating {
            clock.advance(by: 0.1)
            map.advanceAnimations()
        }
    }

    func testControlsAreOffByDefaultAndPlacedAsMapKitPlacesThem() throws {
        let (map, _, _) = MapViewFixtures.map()
        XCTAssertNil(map.userTrackingButtonFrame)
        XCTAssertNil(map.pitchControlFrame)
        XCTAssertNil(map.zoomControlFrame)
        map.camera = MKMapCamera(lookingAtCenter: MapViewFixtures.monaco, fromDistance: 3000, pitch: 0, heading: 30)
        let compassAlone = try XCTUnwrap(map.compassFrame)
        map.showsUserTrackingButton = true
        map.showsPitchControl = true
        map.showsZoomControls = true
        let tracking = try XCTUnwrap(map.userTrackingButtonFrame), pitch = try XCTUnwrap(map.pitchControlFrame)
        XCTAssertEqual(tracking, CGRect(x: 400 - 10 - 44, y: 10, width: 44, height: 44))
        XCTAssertEqual(pitch, CGRect(x: 400 - 10 - 44, y: 54, width: 44, height: 44))
        let compass = try XCTUnwrap(map.compassFrame)
        XCTAssertEqual(compass.minY, pitch.maxY + MapViewControls.gap, accuracy: 1e-9, "the compass moves under the buttons")
        XCTAssertEqual(compass.minX, compassAlone.minX)
        let zoom = try XCTUnwrap(map.zoomControlFrame)
        XCTAssertEqual(zoom.size, CGSize(width: 44, height: 88))
        XCTAssertEqual(zoom.maxX, 390, accuracy: 1e-9)
        XCTAssertGreaterThan(zoom.midY, 200, "bottom right")
        _ = try? map.render()
        if let legal = map.attributionFrame { XCTAssertLessThanOrEqual(zoom.maxY, legal.minY, "above the legal label") }
        // Disabled interactions hide their controls.
        map.isZoomEnabled = false
        map.isPitchEnabled = false
        XCTAssertNil(map.zoomControlFrame)
        XCTAssertNil(map.pitchControlFrame)
        // A frame too small holds none.
        map.frame = CGRect(x: 0, y: 0, width: 30, height: 30)
        XCTAssertNil(map.userTrackingButtonFrame)
    }

    func testZoomControlZoomsInAndOut() throws {
        let (map, delegate, clock) = MapViewFixtures.map()
        map.showsZoomControls = true
        let zoom = try XCTUnwrap(map.zoomControlFrame)
        let start = map.viewport.zoomLevel
        XCTAssertTrue(map.isOnControl(CGPoint(x: zoom.midX, y: zoom.minY + 10)))
        map.tap(at: CGPoint(x: zoom.midX, y: zoom.minY + 10))
        settle(map, clock)
        XCTAssertEqual(map.viewport.zoomLevel, start + 1, accuracy: 1e-6)
        XCTAssertEqual(delegate.log.first, "will(true)", "an animated change")
        map.tap(at: CGPoint(x: zoom.midX, y: zoom.maxY - 10))
        settle(map, clock)
        XCTAssertEqual(map.viewport.zoomLevel, start, accuracy: 1e-6)
        XCTAssertEqual(map.centerCoordinate.latitude, MapViewFixtures.monaco.latitude, accuracy: 1e-6, "about the centre")
    }

    func testPitchButtonTiltsAndFlattens() throws {
        let (map, _, clock) = MapViewFixtures.map()
        map.showsPitchControl = true
        let frame = try XCTUnwrap(map.pitchControlFrame)
        map.tap(at: CGPoint(x: frame.midX, y: frame.midY))
        settle(map, clock)
        XCTAssertEqual(map.camera.pitch, MapViewControls.pitchedAngle, accuracy: 1e-6)
        map.tap(at: CGPoint(x: frame.midX, y: frame.midY))
        settle(map, clock)
        XCTAssertEqual(map.camera.pitch, 0, accuracy: 1e-6)
    }

    func testTrackingButtonCyclesTheModes() throws {
        let (map, delegate, _) = MapViewFixtures.map()
        map.userLocationProvider = Fixed()
        map.showsUserTrackingButton = true
        let frame = try XCTUnwrap(map.userTrackingButtonFrame)
        let centre = CGPoint(x: frame.midX, y: frame.midY)
        map.tap(at: centre)
        XCTAssertEqual(map.userTrackingMode, .follow)
        XCTAssertTrue(delegate.log.contains("mode(1,true)"))
        // No heading known: following ends instead of turning with the heading.
        map.tap(at: centre)
        XCTAssertEqual(map.userTrackingMode, .none)
        map.userTrackingMode = .followWithHeading
        map.tap(at: centre)
        XCTAssertEqual(map.userTrackingMode, .none)
        XCTAssertNil(map.selectedAnnotations.first, "a tap on a control selects nothing")
    }

    func testControlsAreDrawnLightAndDark() throws {
        let (map, _, _) = MapViewFixtures.map()
        map.dataSource = try MonacoBundle.dataSource()
        map.showsPitchControl = true
        map.showsZoomControls = true
        let frame = try XCTUnwrap(map.pitchControlFrame)
        let light = try map.render()
        MonacoBundle.save(light, "mapview-controls")
        // The platter's corner region is white, the "3D" glyph dark grey.
        assertColor(light.color(at: CGPoint(x: frame.minX + 6, y: frame.minY + 20)), near: UIColor(red: 1, green: 1, blue: 1, alpha: 1), tolerance: 0.08)
        let glyph = stride(from: frame.minX + 10, to: frame.maxX - 10, by: 1).compactMap { light.color(at: CGPoint(x: $0, y: frame.midY)) }
        XCTAssertTrue(glyph.contains { $0.red < 0.5 }, "3D is drawn")
        map.overrideUserInterfaceStyle = .dark
        let dark = try map.render()
        let platter = try XCTUnwrap(dark.color(at: CGPoint(x: frame.minX + 6, y: frame.minY + 20)))
        XCTAssertLessThan(platter.red, 0.3, "the dark platter")
    }

    func testStandAloneControlsDrawAndAct() throws {
        let (map, _, clock) = MapViewFixtures.map()
        let zoom = MKZoomControl(mapView: map), pitch = MKPitchControl(mapView: map), tracking = MKUserTrackingButton(mapView: map)
        XCTAssertEqual(zoom.frame.size, CGSize(width: 44, height: 88))
        XCTAssertNotNil(zoom.render(scale: 2))
        XCTAssertNotNil(pitch.render())
        XCTAssertNotNil(tracking.render())
        let start = map.viewport.zoomLevel
        zoom.tap(at: CGPoint(x: 22, y: 10))
        settle(map, clock)
        XCTAssertEqual(map.viewport.zoomLevel, start + 1, accuracy: 1e-6)
        zoom.tap(at: CGPoint(x: 500, y: 500))
        XCTAssertFalse(map.isAnimating, "outside its bounds: nothing")
        pitch.tap()
        settle(map, clock)
        XCTAssertGreaterThan(map.camera.pitch, 1)
        map.isPitchEnabled = false
        XCTAssertFalse(pitch.isVisible)
        XCTAssertNil(pitch.render())
        map.userLocationProvider = Fixed()
        tracking.tap()
        XCTAssertEqual(map.userTrackingMode, .follow)
        XCTAssertNil(MKZoomControl(mapView: nil).render())
    }
}
