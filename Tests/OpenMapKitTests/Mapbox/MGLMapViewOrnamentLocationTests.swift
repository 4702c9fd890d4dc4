import Foundation
@testable import OpenMapKit
import XCTest

/// A location manager the test drives.
final class ScriptedLocationManager: MGLLocationManager {
    weak var delegate: MGLLocationManagerDelegate?
    var authorizationStatus: CLAuthorizationStatus { .authorizedWhenInUse }
    var started = 0, stopped = 0
    func requestAlwaysAuthorization() {}
    func requestWhenInUseAuthorization() {}
    func startUpdatingLocation() { started += 1 }
    func stopUpdatingLocation() { stopped += 1 }
    func startUpdatingHeading() {}
    func stopUpdatingHeading() {}
    func dismissHeadingCalibrationDisplay() {}

    func send(_ latitude: Double, _ longitude: Double, course: Double = -1) {
        let location = CLLocation(coordinate: CLLocationCoordinate2D(latitude: latitude, longitude: longitude), altitude: 0,
                                  horizontalAccuracy: 5, verticalAccuracy: 5, course: course, speed: 1, timestamp: Date())
        delegate?.locationManager(self, didUpdate: [location])
    }
}

/// MGLMapView's ornaments (M-54 … M-56), gesture switches (M-31 … M-34) and user location
/// (M-37 … M-41).
final class MGLMapViewOrnamentLocationTests: XCTestCase {
    func testDefaultOrnamentLayoutAndMargins() {
        // M-54.
        let (map, _, _) = MapboxFixtures.map()
        XCTAssertFalse(map.showsScale)
        XCTAssertEqual(map.scaleBarPosition, .topLeft)
        XCTAssertEqual(map.compassViewPosition, .topRight)
        XCTAssertEqual(map.logoViewPosition, .bottomLeft)
        XCTAssertEqual(map.attributionButtonPosition, .bottomRight)
        XCTAssertTrue(map.scaleBar.frame.isNull, "hidden by default")
        XCTAssertTrue(map.compassView.frame.isNull, "adaptive: only while rotated")
        map.direction = 30
        XCTAssertEqual(map.compassView.frame, CGRect(x: 352, y: 8, width: 40, height: 40))
        map.compassViewMargins = CGPoint(x: 20, y: 30)
        XCTAssertEqual(map.compassView.frame.origin, CGPoint(x: 340, y: 30))
        map.compassViewPosition = .bottomLeft
        XCTAssertEqual(map.compassView.frame.origin, CGPoint(x: 20, y: 330))
        map.compassView.isHidden = true
        XCTAssertTrue(map.compassView.frame.isNull)
        map.compassView.isHidden = false
        map.direction = 0
        map.compassView.compassVisibility = .visible
        XCTAssertFalse(map.compassView.frame.isNull)
        let logo = map.logoView.frame
        XCTAssertEqual(logo.minX, 8)
        XCTAssertEqual(logo.maxY, 392)
        map.logoViewMargins = CGPoint(x: 0, y: 0)
        XCTAssertEqual(map.logoView.frame.maxY, 400)
        map.logoView.isHidden = true
        XCTAssertTrue(map.logoView.frame.isNull)
    }

    func testScaleBarShowsBelowEightHundredKilometres() {
        // M-55: 400 points at the equator: hidden at zoom 5 (≈ 978 km), shown at 5.5; threshold 5.29.
        let (map, _, _) = MapboxFixtures.map()
        map.showsScale = true
        map.setCenter(CLLocationCoordinate2D(latitude: 0, longitude: 0), zoomLevel: 5, animated: false)
        XCTAssertTrue(map.scaleBar.frame.isNull)
        map.zoomLevel = 5.5
        XCTAssertFalse(map.scaleBar.frame.isNull)
        XCTAssertEqual(map.scaleBar.frame.minX, 8)
        map.zoomLevel = 5.2904
        XCTAssertTrue(map.scaleBar.frame.isNull)
        map.zoomLevel = 5.2905
        XCTAssertFalse(map.scaleBar.frame.isNull)
        // At 42.354528° N the threshold is ≈ 4.854.
        map.setCenter(CLLocationCoordinate2D(latitude: 42.354528, longitude: 0), zoomLevel: 4.853, animated: false)
        XCTAssertTrue(map.scaleBar.frame.isNull)
        map.zoomLevel = 4.855
        XCTAssertFalse(map.scaleBar.frame.isNull)
        map.scaleBarPosition = .bottomRight
        XCTAssertEqual(map.scaleBar.frame.maxX, 392, accuracy: 1e-9)
        map.scaleBar.isHidden = true
        XCTAssertTrue(map.scaleBar.frame.isNull)
    }

    func testGestureSwitches() {
        // M-31 … M-34.
        let (map, _, clock) = MapboxFixtures.map()
        map.setCenter(MapboxFixtures.monaco, zoomLevel: 12, animated: false)
        map.isZoomEnabled = false
        map.pinch(scale: 2, around: CGPoint(x: 200, y: 200))
        XCTAssertEqual(map.zoomLevel, 12)
        map.setZoomLevel(5, animated: false)
        XCTAssertEqual(map.zoomLevel, 5, "code still zooms")
        map.isZoomEnabled = true
        map.isRotateEnabled = false
        map.rotate(by: 30, around: CGPoint(x: 200, y: 200))
        XCTAssertEqual(map.direction, 0)
        map.direction = 40
        XCTAssertEqual(map.direction, 40, "code still rotates")
        map.isPitchEnabled = false
        map.tilt(by: 20)
        XCTAssertEqual(map.camera.pitch, 0)
        map.direction = 0
        // Pan modes.
        map.setCenter(MapboxFixtures.monaco, zoomLevel: 12, animated: false)
        map.panScrollingMode = .horizontal
        map.pan(by: CGPoint(x: 100, y: 100))
        XCTAssertEqual(map.centerCoordinate.latitude, MapboxFixtures.monaco.latitude, accuracy: 1e-9)
        XCTAssertNotEqual(map.centerCoordinate.longitude, MapboxFixtures.monaco.longitude, accuracy: 1e-6)
        map.panScrollingMode = .vertical
        let longitude = map.centerCoordinate.longitude
        map.pan(by: CGPoint(x: 100, y: 100))
        XCTAssertEqual(map.centerCoordinate.longitude, longitude, accuracy: 1e-9)
        map.panScrollingMode = .default
        // Anchoring: the place under the fingers stays; anchored to the centre, the centre stays.
        let under = map.convert(CGPoint(x: 100, y: 100), toCoordinateFrom: map)
        map.pinch(scale: 2, around: CGPoint(x: 100, y: 100))
        let still = map.convert(under, toPointTo: map)
        XCTAssertEqual(still.x, 100, accuracy: 1e-6)
        XCTAssertEqual(still.y, 100, accuracy: 1e-6)
        map.anchorRotateOrZoomGesturesToCenterCoordinate = true
        let centre = map.centerCoordinate
        map.pinch(scale: 2, around: CGPoint(x: 100, y: 100))
        XCTAssertEqual(map.centerCoordinate.latitude, centre.latitude, accuracy: 1e-9)
        // Deceleration: immediate stops at release; normal coasts farther than fast.
        func coast(_ rate: CGFloat) -> Double {
            map.setCenter(MapboxFixtures.monaco, zoomLevel: 12, animated: false)
            map.decelerationRate = rate
            map.beginGesture()
            map.pan(by: CGPoint(x: 50, y: 0))
            let released = map.centerCoordinate.longitude
            map.endGesture(velocity: CGPoint(x: 500, y: 0))
            MapboxFixtures.finish(map, clock)
            return abs(map.centerCoordinate.longitude - released)
        }
        XCTAssertEqual(coast(MGLMapViewDecelerationRateImmediate), 0)
        XCTAssertGreaterThan(coast(MGLMapViewDecelerationRateNormal), coast(MGLMapViewDecelerationRateFast) * 3)
        XCTAssertTrue(map.isHapticFeedbackEnabled)
    }

    func testUserLocationDefaultsAndCustomManager() {
        // M-37, M-38.
        let (map, delegate, _) = MapboxFixtures.map()
        XCTAssertFalse(map.showsUserLocation)
        XCTAssertEqual(map.userTrackingMode, .none)
        XCTAssertFalse(map.showsUserHeadingIndicator)
        XCTAssertTrue(map.displayHeadingCalibration)
        XCTAssertEqual(map.userLocationVerticalAlignment, .center)
        XCTAssertFalse(CLLocationCoordinate2DIsValid(map.targetCoordinate))
        XCTAssertNil(map.userLocation)
        let manager = ScriptedLocationManager()
        map.locationManager = manager
        map.setCenter(MapboxFixtures.monaco, zoomLevel: 14, animated: false)
        delegate.log = []
        map.showsUserLocation = true
        XCTAssertEqual(manager.started, 1)
        XCTAssertEqual(delegate.log, ["willStartLocating"])
        manager.send(43.7390, 7.4250)
        XCTAssertEqual(delegate.log.last, "didUpdateLocation")
        XCTAssertEqual(map.userLocation?.coordinate.latitude, 43.7390)
        XCTAssertEqual(map.userLocation?.title, "You Are Here")
        XCTAssertTrue(map.isUserLocationVisible)
        XCTAssertNil(map.annotations, "the user's location is not among the annotations")
        manager.send(48.85, 2.35)
        XCTAssertFalse(map.isUserLocationVisible)
        map.showsUserLocation = false
        XCTAssertEqual(manager.stopped, 1)
        XCTAssertEqual(delegate.log.last, "didStopLocating")
        // nil restores the default, which cannot locate on Linux.
        map.locationManager = nil
        XCTAssertTrue(map.locationManager is MGLUnavailableLocationManager)
        delegate.log = []
        map.showsUserLocation = true
        XCTAssertEqual(delegate.log, ["willStartLocating", "didFailToLocate"])
    }

    func testTrackingWithCompletionAlignmentAndCourse() {
        // M-39, M-41, M-40.
        let (map, delegate, clock) = MapboxFixtures.map()
        let manager = ScriptedLocationManager()
        map.locationManager = manager
        map.showsUserLocation = true
        manager.send(43.7390, 7.4250, course: 90)
        delegate.log = []
        var completed = 0
        map.setUserTrackingMode(.follow, animated: true) { completed += 1 }
        XCTAssertEqual(delegate.log.first, "mode(follow)")
        MapboxFixtures.finish(map, clock)
        XCTAssertEqual(completed, 1)
        XCTAssertEqual(map.centerCoordinate.latitude, 43.7390, accuracy: 1e-9)
        XCTAssertGreaterThanOrEqual(map.zoomLevel, 15)
        // Later fixes recentre, animated.
        manager.send(43.7400, 7.4260, course: 90)
        XCTAssertTrue(map.isAnimating)
        MapboxFixtures.finish(map, clock)
        XCTAssertEqual(map.centerCoordinate.longitude, 7.4260, accuracy: 1e-9)
        // Vertical alignment: bottom puts the user below the centre, top above.
        map.setUserLocationVerticalAlignment(.bottom, animated: false)
        XCTAssertGreaterThan(map.convert(CLLocationCoordinate2D(latitude: 43.7400, longitude: 7.4260), toPointTo: map).y, 250)
        map.setUserLocationVerticalAlignment(.top, animated: false)
        XCTAssertLessThan(map.convert(CLLocationCoordinate2D(latitude: 43.7400, longitude: 7.4260), toPointTo: map).y, 150)
        map.setUserLocationVerticalAlignment(.center, animated: false)
        // Course mode turns to the course; a target 5 km ahead stays in view with the user.
        map.setUserTrackingMode(.followWithCourse, animated: false, completionHandler: nil)
        XCTAssertEqual(map.userTrackingMode, .followWithCourse)
        XCTAssertEqual(map.direction, 90, accuracy: 1e-9)
        let target = CLLocationCoordinate2D(latitude: 43.7400, longitude: 7.4260 + 5000 / (111_319.49 * cos(43.74 * .pi / 180)))
        map.setTargetCoordinate(target, animated: false, completionHandler: nil)
        let farZoom = map.zoomLevel
        manager.send(43.7400, 7.4260 + 0.03, course: 90)
        MapboxFixtures.finish(map, clock)
        XCTAssertGreaterThan(map.zoomLevel, farZoom, "nearer the target, nearer the ground")
        for c in [target, CLLocationCoordinate2D(latitude: 43.7400, longitude: 7.4560)] {
            XCTAssertTrue(map.bounds.contains(map.convert(c, toPointTo: map)))
        }
        // A pan ends following.
        delegate.log = []
        map.pan(by: CGPoint(x: 30, y: 0))
        XCTAssertEqual(map.userTrackingMode, .none)
        XCTAssertEqual(delegate.log.filter { $0.hasPrefix("mode") }, ["mode(none)"])
    }
}
