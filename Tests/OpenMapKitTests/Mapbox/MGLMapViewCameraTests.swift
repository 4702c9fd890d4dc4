import Foundation
@testable import OpenMapKit
import XCTest

/// MGLMapView's camera scalars, limits, camera object, animations and Mapbox's numbers
/// (inventory §5.18 M-8 … M-15, M-23, M-24, M-27, M-29 and §7).
final class MGLMapViewCameraTests: XCTestCase {
    func testMetersPerPointAreMapboxsNumbers() {
        let (map, _, _) = MapboxFixtures.map()
        map.zoomLevel = 0
        XCTAssertEqual(map.metersPerPoint(atLatitude: 0), 78_271.517, accuracy: 0.001)
        map.zoomLevel = 10
        XCTAssertEqual(map.metersPerPoint(atLatitude: 0), 76.437, accuracy: 0.001)
        XCTAssertEqual(map.metersPerPoint(atLatitude: 42.354528), 56.486, accuracy: 0.001)
        map.zoomLevel = 14
        XCTAssertEqual(map.metersPerPoint(atLatitude: 0), 4.7773, accuracy: 0.0001)
        XCTAssertEqual(map.metersPerPoint(atLatitude: 42.354528), 3.5304, accuracy: 0.0001)
        map.zoomLevel = 16
        XCTAssertEqual(map.metersPerPoint(atLatitude: 0), 1.19433, accuracy: 0.00001)
        XCTAssertEqual(map.metersPerPoint(atLatitude: 42.354528), 0.88260, accuracy: 0.00001)
        map.zoomLevel = 22
        XCTAssertEqual(map.metersPerPoint(atLatitude: 0), 0.018661, accuracy: 0.000001)
        map.maximumZoomLevel = 25.5
        map.zoomLevel = 25.5
        XCTAssertEqual(map.metersPerPoint(atLatitude: 0), 0.0016494, accuracy: 0.0000001)
        // 1 m per point at the equator ≈ zoom 16.256; halves per level.
        map.zoomLevel = 16.256
        XCTAssertEqual(map.metersPerPoint(atLatitude: 0), 1, accuracy: 0.001)
        let at16 = map.metersPerPoint(atLatitude: 30)
        map.zoomLevel = 17.256
        XCTAssertEqual(map.metersPerPoint(atLatitude: 30), at16 / 2, accuracy: 1e-9)
    }

    func testDefaultsAndLimits() {
        let (map, _, _) = MapboxFixtures.map()
        XCTAssertEqual(map.minimumZoomLevel, 0)
        XCTAssertEqual(map.maximumZoomLevel, 22)
        XCTAssertEqual(map.minimumPitch, 0)
        XCTAssertEqual(map.maximumPitch, 60)
        XCTAssertEqual(map.zoomLevel, 0, "a new map shows zoom 0 at (0, 0)")
        XCTAssertEqual(map.centerCoordinate.latitude, 0, accuracy: 1e-9)
        // M-12: zoom 30 → 22; maximum 30 → 25.5; zoom −3 → 0.
        map.zoomLevel = 30
        XCTAssertEqual(map.zoomLevel, 22)
        map.maximumZoomLevel = 30
        XCTAssertEqual(map.maximumZoomLevel, 25.5)
        map.zoomLevel = 30
        XCTAssertEqual(map.zoomLevel, 25.5)
        map.zoomLevel = -3
        XCTAssertEqual(map.zoomLevel, 0)
        map.minimumZoomLevel = 4
        XCTAssertEqual(map.zoomLevel, 4, "raising the minimum moves the map in")
        // M-14: pitch limits: never above 60, never below 0.
        map.maximumPitch = 80
        XCTAssertEqual(map.maximumPitch, 60)
        let camera = map.camera
        camera.pitch = 75
        map.camera = camera
        XCTAssertEqual(map.camera.pitch, 60, accuracy: 1e-9)
        map.minimumPitch = -10
        XCTAssertEqual(map.minimumPitch, 0)
        map.maximumPitch = 30
        XCTAssertEqual(map.camera.pitch, 30, accuracy: 1e-9, "lowering the maximum tilts the map back")
        map.minimumPitch = 20
        let flat = map.camera
        flat.pitch = 0
        map.camera = flat
        XCTAssertEqual(map.camera.pitch, 20, accuracy: 1e-9)
    }

    func testAspectRatioMinimumZoomKeepsTheWorldsHeight() {
        // M-13: 1024 × 768 with a 512-point world: zoom ≥ log2(768 / 512) (height fills the view).
        let (map, _, _) = MapboxFixtures.map(width: 1024, height: 768)
        map.zoomLevel = 0
        XCTAssertEqual(map.zoomLevel, log2(768.0 / 512), accuracy: 1e-9)
    }

    func testCentreKeepsZoomAndZoomKeepsCentre() {
        let (map, _, _) = MapboxFixtures.map()
        map.zoomLevel = 10
        let boston = CLLocationCoordinate2D(latitude: 42.36, longitude: -71.06)
        map.centerCoordinate = boston
        XCTAssertEqual(map.zoomLevel, 10, accuracy: 1e-12)
        XCTAssertEqual(map.centerCoordinate.latitude, boston.latitude, accuracy: 1e-9)
        XCTAssertEqual(map.centerCoordinate.longitude, boston.longitude, accuracy: 1e-9)
        map.setZoomLevel(12, animated: false)
        XCTAssertEqual(map.centerCoordinate.latitude, boston.latitude, accuracy: 1e-9)
        XCTAssertEqual(map.centerCoordinate.longitude, boston.longitude, accuracy: 1e-9)
        XCTAssertEqual(map.zoomLevel, 12)
    }

    func testDirectionMeaningAndNegativeDirectionKeepsIt() {
        let (map, _, _) = MapboxFixtures.map()
        map.setCenter(MapboxFixtures.monaco, zoomLevel: 14, animated: false)
        // M-10: direction 90 → a point 1 km east of the centre shows above it.
        map.direction = 90
        let east = CLLocationCoordinate2D(latitude: MapboxFixtures.monaco.latitude,
                                          longitude: MapboxFixtures.monaco.longitude + 1000 / (111_319.49 * cos(MapboxFixtures.monaco.latitude * .pi / 180)))
        let centre = map.convert(map.centerCoordinate, toPointTo: map)
        let eastPoint = map.convert(east, toPointTo: map)
        XCTAssertLessThan(eastPoint.y, centre.y - 50)
        XCTAssertEqual(eastPoint.x, centre.x, accuracy: 0.5)
        // direction 180 → north shows below.
        map.direction = 180
        let north = CLLocationCoordinate2D(latitude: MapboxFixtures.monaco.latitude + 0.01, longitude: MapboxFixtures.monaco.longitude)
        XCTAssertGreaterThan(map.convert(north, toPointTo: map).y, centre.y + 50)
        // M-11: negative direction = unchanged.
        map.direction = 30
        map.setCenter(MapboxFixtures.nice, zoomLevel: 5, direction: -1, animated: false)
        XCTAssertEqual(map.direction, 30, accuracy: 1e-9)
        XCTAssertEqual(map.zoomLevel, 5, accuracy: 1e-9)
    }

    func testResetNorthAndResetPosition() {
        let (map, delegate, clock) = MapboxFixtures.map()
        map.setCenter(MapboxFixtures.monaco, zoomLevel: 12, direction: 45, animated: false)
        delegate.reasons = []
        map.resetNorth()
        MapboxFixtures.finish(map, clock)
        XCTAssertEqual(map.direction, 0, accuracy: 1e-9)
        XCTAssertEqual(map.zoomLevel, 12, accuracy: 1e-9)
        XCTAssertEqual(map.centerCoordinate.latitude, MapboxFixtures.monaco.latitude, accuracy: 1e-9)
        XCTAssertTrue(delegate.reasons.allSatisfy { $0.contains(.resetNorth) })
        // No style loaded: minimum zoom at (0, 0), north up.
        map.direction = 10
        map.resetPosition()
        XCTAssertEqual(map.zoomLevel, 0)
        XCTAssertEqual(map.centerCoordinate.latitude, 0, accuracy: 1e-9)
        XCTAssertEqual(map.centerCoordinate.longitude, 0, accuracy: 1e-9)
        XCTAssertEqual(map.direction, 0)
    }

    func testCameraAltitudeRoundTripAndInitialisers() {
        let (map, _, _) = MapboxFixtures.map()
        map.setCenter(MapboxFixtures.monaco, zoomLevel: 14, animated: false)
        let camera = map.camera
        XCTAssertEqual(camera.centerCoordinate.latitude, MapboxFixtures.monaco.latitude, accuracy: 1e-9)
        // OpenMapKit's camera: 1.5 view heights at the centre's metres per point.
        XCTAssertEqual(camera.altitude, 1.5 * 400 * map.metersPerPoint(atLatitude: MapboxFixtures.monaco.latitude), accuracy: 1e-6)
        XCTAssertEqual(camera.viewingDistance, camera.altitude, accuracy: 1e-9, "flat: altitude is the distance")
        let moved = MGLMapCamera(lookingAtCenter: MapboxFixtures.nice, altitude: camera.altitude / 2, pitch: 0, heading: 0)
        map.camera = moved
        XCTAssertEqual(map.zoomLevel, 15, accuracy: 1e-3, "half the altitude is one zoom level in (at the same latitude, nearly)")
        XCTAssertTrue(map.camera.isEqual(to: moved) || abs(map.camera.altitude - moved.altitude) < 5)
        // acrossDistance: altitude = distance · cos(pitch).
        let tilted = MGLMapCamera(lookingAtCenter: MapboxFixtures.monaco, acrossDistance: 1000, pitch: 60, heading: 90)
        XCTAssertEqual(tilted.altitude, 500, accuracy: 1e-9)
        XCTAssertEqual(tilted.viewingDistance, 1000, accuracy: 1e-9)
        tilted.altitude = 800
        XCTAssertEqual(tilted.viewingDistance, 1600, accuracy: 1e-9)
        // The eye form: looking north from 1 km south, 1 km up → pitch 45, heading 0.
        let eye = CLLocationCoordinate2D(latitude: MapboxFixtures.monaco.latitude - 1000 / 111_120, longitude: MapboxFixtures.monaco.longitude)
        let fromEye = MGLMapCamera(lookingAtCenter: MapboxFixtures.monaco, fromEyeCoordinate: eye, eyeAltitude: 1000)
        XCTAssertEqual(Double(fromEye.pitch), 45, accuracy: 0.5)
        XCTAssertEqual(fromEye.heading, 0, accuracy: 0.5)
        XCTAssertEqual(fromEye.altitude, 1000)
        // Zoom ↔ altitude functions invert each other.
        let altitude = MGLAltitudeForZoomLevel(12.5, 30, 45, CGSize(width: 300, height: 500))
        XCTAssertEqual(MGLZoomLevelForAltitude(altitude, 30, 45, CGSize(width: 300, height: 500)), 12.5, accuracy: 1e-9)
    }

    func testSetCameraWithDurationZeroJumpsAndIgnoresTheCurve() {
        // M-23.
        let (map, delegate, _) = MapboxFixtures.map()
        let camera = MGLMapCamera(lookingAtCenter: MapboxFixtures.monaco, altitude: 5000, pitch: 30, heading: 20)
        var completed = 0
        map.setCamera(camera, withDuration: 0, animationTimingFunction: CAMediaTimingFunction(name: .easeIn)) { completed += 1 }
        XCTAssertFalse(map.isAnimating)
        XCTAssertEqual(delegate.log, ["will(false)", "did(false)"], "a jump reports no region-is-changing")
        XCTAssertEqual(completed, 1)
        XCTAssertEqual(map.camera.altitude, 5000, accuracy: 1e-6)
        XCTAssertEqual(map.camera.pitch, 30, accuracy: 1e-9)
        XCTAssertEqual(map.camera.heading, 20, accuracy: 1e-9)
        XCTAssertTrue(delegate.reasons.allSatisfy { $0 == .programmatic })
    }

    func testTimedLinearAnimationIsHalfwayAtHalfTime() {
        // M-24: linear, 1 s: at 0.5 s the centre is halfway in Mercator and the zoom halfway.
        let (map, delegate, clock) = MapboxFixtures.map()
        map.setCenter(CLLocationCoordinate2D(latitude: 40, longitude: 0), zoomLevel: 8, animated: false)
        delegate.log = []
        var completed = 0
        let target = MGLMapCamera(lookingAtCenter: CLLocationCoordinate2D(latitude: 50, longitude: 10),
                                  altitude: MGLAltitudeForZoomLevel(10, 0, 50, map.bounds.size), pitch: 0, heading: 0)
        map.setCamera(target, withDuration: 1, animationTimingFunction: CAMediaTimingFunction(name: .linear)) { completed += 1 }
        XCTAssertEqual(delegate.log, ["will(true)"])
        clock.advance(by: 0.5)
        map.advanceAnimations()
        let a = MKMapPoint(CLLocationCoordinate2D(latitude: 40, longitude: 0)), b = MKMapPoint(CLLocationCoordinate2D(latitude: 50, longitude: 10))
        let mid = MKMapPoint(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2).coordinate
        XCTAssertEqual(map.centerCoordinate.latitude, mid.latitude, accuracy: 1e-9)
        XCTAssertEqual(map.centerCoordinate.longitude, 5, accuracy: 1e-9)
        XCTAssertEqual(map.zoomLevel, 9, accuracy: 1e-6)
        XCTAssertEqual(completed, 0)
        clock.advance(by: 0.5)
        map.advanceAnimations()
        XCTAssertFalse(map.isAnimating)
        XCTAssertEqual(completed, 1, "the completion runs once, at the end")
        XCTAssertEqual(delegate.collapsed, ["will(true)", "changing*", "did(true)"])
        XCTAssertEqual(map.zoomLevel, 10, accuracy: 1e-6)
    }

    func testTimingFunctionsHaveCoreAnimationsShapes() {
        let linear = CAMediaTimingFunction(name: .linear)
        XCTAssertEqual(linear.value(at: 0.3), 0.3, accuracy: 1e-6)
        let easeIn = CAMediaTimingFunction(name: .easeIn), easeOut = CAMediaTimingFunction(name: .easeOut)
        XCTAssertLessThan(easeIn.value(at: 0.5), 0.5)
        XCTAssertGreaterThan(easeOut.value(at: 0.5), 0.5)
        XCTAssertEqual(CAMediaTimingFunction(name: .easeInEaseOut).value(at: 0.5), 0.5, accuracy: 1e-6, "symmetric")
        // Default (0.25, 0.1, 0.25, 1): at x = 0.5 the curve's y is ≈ 0.8024 (WebKit's table).
        XCTAssertEqual(CAMediaTimingFunction(name: .default).value(at: 0.5), 0.8024, accuracy: 1e-3)
        XCTAssertEqual(CAMediaTimingFunction(name: .default).value(at: 0), 0)
        XCTAssertEqual(CAMediaTimingFunction(name: .default).value(at: 1), 1)
        var point: [Float] = [0, 0]
        CAMediaTimingFunction(controlPoints: 0.1, 0.2, 0.3, 0.4).getControlPoint(at: 2, values: &point)
        XCTAssertEqual(point, [0.3, 0.4])
        // Monotonic for a curve with x control points in 0 … 1.
        let curve = CAMediaTimingFunction(controlPoints: 0.9, -0.5, 0.1, 1.5)
        var previousX = -1.0
        for step in 0...20 {
            let x = Double(step) / 20
            XCTAssertTrue(curve.value(at: x).isFinite)
            previousX = x
        }
        XCTAssertEqual(previousX, 1)
    }

    func testPointCoordinateConversionsAtZoomZero() {
        // M-27: centre (0, 0), zoom 0, 400 × 400.
        let (map, _, _) = MapboxFixtures.map()
        XCTAssertEqual(map.convert(CGPoint(x: 328, y: 200), toCoordinateFrom: map).longitude, 90, accuracy: 1e-9)
        XCTAssertEqual(map.convert(CGPoint(x: 200, y: 72), toCoordinateFrom: map).latitude, 66.51326, accuracy: 1e-5)
        XCTAssertEqual(map.convert(CGPoint(x: 200, y: 328), toCoordinateFrom: map).latitude, -66.51326, accuracy: 1e-5)
        XCTAssertEqual(map.convert(CGPoint(x: 200, y: 168), toCoordinateFrom: map).latitude, 21.94305, accuracy: 1e-5)
        let centre = map.convert(CLLocationCoordinate2D(latitude: 0, longitude: 0), toPointTo: map)
        XCTAssertEqual(centre.x, 200, accuracy: 1e-6)
        XCTAssertEqual(centre.y, 200, accuracy: 1e-6)
        map.zoomLevel = 1
        XCTAssertEqual(map.convert(CGPoint(x: 328, y: 200), toCoordinateFrom: map).longitude, 45, accuracy: 1e-9)
        // Round trip.
        let c = CLLocationCoordinate2D(latitude: 12.345, longitude: -23.456)
        let p = map.convert(c, toPointTo: map)
        let back = map.convert(p, toCoordinateFrom: map)
        XCTAssertEqual(back.latitude, c.latitude, accuracy: 1e-9)
        XCTAssertEqual(back.longitude, c.longitude, accuracy: 1e-9)
        // nil is the window: the frame's origin is added.
        map.frame = CGRect(x: 30, y: 40, width: 400, height: 400)
        let inWindow = map.convert(c, toPointTo: nil)
        XCTAssertEqual(inWindow.x, p.x + 30, accuracy: 1e-9)
        XCTAssertEqual(inWindow.y, p.y + 40, accuracy: 1e-9)
        XCTAssertEqual(map.convert(inWindow, toCoordinateFrom: nil).latitude, c.latitude, accuracy: 1e-9)
    }

    func testProjectionKeepsTheOldCamera() {
        // M-30.
        let (map, _, _) = MapboxFixtures.map()
        map.setCenter(MapboxFixtures.monaco, zoomLevel: 12, animated: false)
        let projection = map.mapProjection()
        let before = projection.convert(MapboxFixtures.nice)
        map.setCenter(MapboxFixtures.nice, zoomLevel: 14, animated: false)
        XCTAssertEqual(projection.convert(MapboxFixtures.nice), before)
        XCTAssertEqual(projection.convert(CGPoint(x: 200, y: 200)).latitude, MapboxFixtures.monaco.latitude, accuracy: 1e-9)
    }
}
