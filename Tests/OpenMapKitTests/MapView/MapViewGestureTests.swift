import Foundation
@testable import OpenMapKit
import XCTest

/// A location provider that replays events when told to.
final class ScriptedLocationProvider: MKUserLocationProvider {
    private var handler: ((MKUserLocationEvent) -> Void)?
    var starts = 0, stops = 0
    func startUpdatingLocation(_ handler: @escaping (MKUserLocationEvent) -> Void) {
        starts += 1
        self.handler = handler
    }
    func stopUpdatingLocation() {
        stops += 1
        handler = nil
    }
    func send(_ event: MKUserLocationEvent) { handler?(event) }
    func send(latitude: Double, longitude: Double, accuracy: Double = 10) {
        send(.location(CLLocation(coordinate: CLLocationCoordinate2D(latitude: latitude, longitude: longitude), altitude: 0,
                                  horizontalAccuracy: accuracy, verticalAccuracy: -1, timestamp: Date())))
    }
}

/// Gestures as input events (respecting the switches, boundary and zoom range, with deceleration),
/// tap selection, user location and tracking, and the configuration switches.
final class MapViewGestureTests: XCTestCase {
    func testPanIsOneRegionChangeWithAStepPerMove() {
        let (map, delegate, _) = MapViewFixtures.map()
        let start = map.centerCoordinate
        map.beginGesture()
        for _ in 0..<10 { map.pan(by: CGPoint(x: -10, y: 0)) }
        map.endGesture()
        XCTAssertEqual(delegate.log, ["will(false)"] + Array(repeating: "visible", count: 10) + ["did(false)"])
        // Dragging the content 100 points left shows what is east: the centre moves east by 100 points.
        let expected = MapViewport(size: map.viewport.size, centerCoordinate: start, zoomLevel: map.zoomLevel)
            .convert(CGPoint(x: 300, y: 200))
        XCTAssertEqual(map.centerCoordinate.longitude, expected.longitude, accuracy: 1e-9)
        XCTAssertEqual(map.centerCoordinate.latitude, start.latitude, accuracy: 1e-9)
    }

    func testGestureThatDoesNotMoveReportsNothing() {
        let (map, delegate, _) = MapViewFixtures.map()
        map.beginGesture()
        map.pan(by: .zero)
        map.endGesture(velocity: CGPoint(x: 500, y: 0))
        XCTAssertEqual(delegate.log, [])
    }

    func testDisabledSwitchesIgnoreTheirGestures() {
        let (map, delegate, _) = MapViewFixtures.map()
        let before = map.viewport
        map.isScrollEnabled = false
        map.isZoomEnabled = false
        map.isRotateEnabled = false
        map.isPitchEnabled = false
        map.pan(by: CGPoint(x: 50, y: 50))
        map.pinch(scale: 2, around: CGPoint(x: 100, y: 100))
        map.doubleTap(at: CGPoint(x: 100, y: 100))
        map.twoFingerTap(at: CGPoint(x: 100, y: 100))
        map.zoom(by: 1, around: CGPoint(x: 10, y: 10), animated: false)
        map.rotate(by: 30, around: CGPoint(x: 200, y: 200))
        map.tilt(by: 20)
        XCTAssertEqual(map.viewport, before)
        XCTAssertEqual(delegate.log, [])
        // Code still moves the map.
        map.setZoomLevel(map.zoomLevel + 1, animated: false)
        XCTAssertEqual(map.zoomLevel, before.zoomLevel + 1, accuracy: 1e-9)
    }

    func testPinchKeepsThePlaceUnderTheFingers() {
        let (map, _, _) = MapViewFixtures.map()
        map.camera = MKMapCamera(lookingAtCenter: MapViewFixtures.monaco, fromDistance: 4000, pitch: 30, heading: 40)
        let point = CGPoint(x: 120, y: 300)
        let place = map.convert(point, toCoordinateFrom: map)
        let zoom = map.zoomLevel
        map.pinch(scale: 2, around: point)
        XCTAssertEqual(map.zoomLevel, zoom + 1, accuracy: 1e-9)
        let after = map.convert(place, toPointTo: map)
        XCTAssertEqual(after.x, point.x, accuracy: 0.01)
        XCTAssertEqual(after.y, point.y, accuracy: 0.01)
    }

    func testRotationAndTilt() {
        let (map, _, _) = MapViewFixtures.map()
        let point = CGPoint(x: 300, y: 100)
        let place = map.convert(point, toCoordinateFrom: map)
        map.rotate(by: 90, around: point)
        XCTAssertEqual(map.camera.heading, 270, accuracy: 1e-9, "turning the map clockwise faces the view west")
        let after = map.convert(place, toPointTo: map)
        XCTAssertEqual(after.x, point.x, accuracy: 0.01)
        XCTAssertEqual(after.y, point.y, accuracy: 0.01)
        map.tilt(by: 45)
        map.tilt(by: 45)
        XCTAssertEqual(map.camera.pitch, MapViewport.maximumPitch)
        map.tilt(by: -100)
        XCTAssertEqual(map.camera.pitch, 0)
    }

    func testDoubleAndTwoFingerTapsZoomAnimatedAroundThePoint() {
        let (map, delegate, clock) = MapViewFixtures.map()
        let zoom = map.zoomLevel
        let point = CGPoint(x: 100, y: 300)
        let place = map.convert(point, toCoordinateFrom: map)
        map.doubleTap(at: point)
        XCTAssertEqual(delegate.log, ["will(true)"])
        map.clockFinish()
        XCTAssertEqual(delegate.collapsed, ["will(true)", "visible*", "did(true)"])
        XCTAssertEqual(map.zoomLevel, zoom + 1, accuracy: 1e-9)
        let after = map.convert(place, toPointTo: map)
        XCTAssertEqual(after.x, point.x, accuracy: 0.01)
        XCTAssertEqual(after.y, point.y, accuracy: 0.01)
        map.twoFingerTap(at: CGPoint(x: 200, y: 200))
        clock.advance(by: 1)
        map.advanceAnimations()
        XCTAssertEqual(map.zoomLevel, zoom, accuracy: 1e-9)
    }

    func testGesturesRespectZoomRangeAndBoundary() {
        let (map, _, _) = MapViewFixtures.map()
        map.cameraZoomRange = MKMapView.CameraZoomRange(minCenterCoordinateDistance: 2000, maxCenterCoordinateDistance: 20_000)
        map.cameraBoundary = MKMapView.CameraBoundary(coordinateRegion: MapViewFixtures.monacoRegion)
        for _ in 0..<10 { map.pinch(scale: 2, around: CGPoint(x: 10, y: 10)) }
        XCTAssertEqual(map.camera.centerCoordinateDistance, 2000, accuracy: 1e-6)
        for _ in 0..<10 { map.pinch(scale: 0.5, around: CGPoint(x: 10, y: 10)) }
        XCTAssertEqual(map.camera.centerCoordinateDistance, 20_000, accuracy: 1e-6)
        for _ in 0..<20 { map.pan(by: CGPoint(x: 400, y: 400)) }
        let boundary = map.cameraBoundary!.mapRect
        let center = MKMapPoint(map.centerCoordinate)
        XCTAssertEqual(center.x, boundary.minX, accuracy: 1e-3, "dragging the content right and down goes north-west until the edge")
        XCTAssertEqual(center.y, boundary.minY, accuracy: 1e-3)
    }

    func testReleaseWithVelocityCoastsThenReportsDidChange() {
        let (map, delegate, clock) = MapViewFixtures.map()
        map.beginGesture()
        map.pan(by: CGPoint(x: -20, y: 0))
        let atRelease = map.convert(map.centerCoordinate, toPointTo: map)
        let released = map.centerCoordinate
        map.endGesture(velocity: CGPoint(x: -400, y: 0))
        XCTAssertTrue(map.isAnimating)
        XCTAssertEqual(delegate.log, ["will(false)", "visible"], "no regionDidChange until it stops")
        map.clockFinish()
        XCTAssertEqual(delegate.collapsed, ["will(false)", "visible*", "did(false)"])
        // It coasted 400 pt/s × 0.5 s = 200 points further east.
        let moved = MapViewport(size: map.viewport.size, centerCoordinate: released, zoomLevel: map.zoomLevel)
            .convert(CGPoint(x: atRelease.x + 200, y: atRelease.y))
        XCTAssertEqual(map.centerCoordinate.longitude, moved.longitude, accuracy: 1e-9)
        // A slow release stops at once.
        delegate.log = []
        map.beginGesture()
        map.pan(by: CGPoint(x: 5, y: 0))
        map.endGesture(velocity: CGPoint(x: 5, y: 0))
        XCTAssertEqual(delegate.log, ["will(false)", "visible", "did(false)"])
        XCTAssertFalse(map.isAnimating)
        _ = clock
    }

    func testCodeChangeMidGestureKeepsPairsBalanced() {
        let (map, delegate, _) = MapViewFixtures.map()
        map.beginGesture()
        map.pan(by: CGPoint(x: 10, y: 0))
        map.setCenter(MapViewFixtures.nice, animated: false)
        map.pan(by: CGPoint(x: 10, y: 0))
        map.endGesture()
        XCTAssertEqual(delegate.log, ["will(false)", "visible", "did(false)", "will(false)", "visible", "did(false)",
                                      "will(false)", "visible", "did(false)"])
    }

    func testTapSelectsTheViewUnderThePointAndTapOnTheMapDeselects() {
        let (map, delegate, _) = MapViewFixtures.map()
        let a = MapViewFixtures.point("A", 43.7384, 7.4246)
        map.addAnnotation(a)
        let tip = map.convert(a.coordinate, toPointTo: map)
        delegate.log = []
        map.tap(at: CGPoint(x: tip.x, y: tip.y - 25))  // on the balloon's head
        XCTAssertTrue(map.selectedAnnotations.first === a)
        map.tap(at: CGPoint(x: tip.x + 100, y: tip.y + 100))
        XCTAssertTrue(map.selectedAnnotations.isEmpty)
        XCTAssertEqual(delegate.log, ["didSelectView(A)", "didSelect(A)", "didDeselectView(A)", "didDeselect(A)"])
        map.view(for: a)!.isEnabled = false
        map.tap(at: CGPoint(x: tip.x, y: tip.y - 25))
        XCTAssertTrue(map.selectedAnnotations.isEmpty, "a disabled view is not selected")
    }

    func testTapPicksTheFrontMostOfOverlappingViews() {
        let (map, _, _) = MapViewFixtures.map()
        let north = MapViewFixtures.point("North", 43.7385, 7.4246), south = MapViewFixtures.point("South", 43.7384, 7.4246)
        map.addAnnotations([south, north])
        // Required, so that neither hides the other (decluttering): this is about which is in front.
        map.view(for: south)!.displayPriority = .required
        map.view(for: north)!.displayPriority = .required
        let tip = map.convert(south.coordinate, toPointTo: map)
        XCTAssertTrue(map.annotationView(at: CGPoint(x: tip.x, y: tip.y - 20))?.annotation === south, "the southern one is in front")
        map.view(for: north)!.zPriority = .max
        XCTAssertTrue(map.annotationView(at: CGPoint(x: tip.x, y: tip.y - 20))?.annotation === north)
    }

    func testDraggingAnAnnotationMovesItThroughTheDragStates() {
        let (map, delegate, _) = MapViewFixtures.map()
        let a = MapViewFixtures.point("A", 43.7384, 7.4246)
        map.addAnnotation(a)
        let view = map.view(for: a)!
        let tip = map.convert(a.coordinate, toPointTo: map)
        let press = CGPoint(x: tip.x, y: tip.y - 20)
        delegate.log = []
        XCTAssertFalse(map.beginDrag(at: press), "not draggable")
        view.isDraggable = true
        XCTAssertTrue(map.beginDrag(at: press))
        XCTAssertEqual(view.dragState, .starting)
        map.drag(to: CGPoint(x: press.x + 30, y: press.y))
        map.drag(to: CGPoint(x: press.x + 50, y: press.y + 10))
        map.endDrag()
        XCTAssertEqual(delegate.log, ["drag(0->1)", "drag(1->2)", "drag(2->4)", "drag(4->0)"])
        let moved = map.convert(a.coordinate, toPointTo: map)
        XCTAssertEqual(moved.x, tip.x + 50, accuracy: 1e-6, "the point follows the finger, keeping the grab offset")
        XCTAssertEqual(moved.y, tip.y + 10, accuracy: 1e-6)
        // A cancelled drag puts it back.
        let before = a.coordinate
        delegate.log = []
        XCTAssertTrue(map.beginDrag(at: CGPoint(x: moved.x, y: moved.y - 20)))
        map.drag(to: CGPoint(x: 10, y: 10))
        map.endDrag(cancelled: true)
        XCTAssertEqual(a.coordinate, before)
        XCTAssertEqual(delegate.log, ["drag(0->1)", "drag(1->2)", "drag(2->3)", "drag(3->0)"])
        // A non-movable annotation cannot be dragged.
        let plain = PlainAnnotation(CLLocationCoordinate2D(latitude: 43.73, longitude: 7.41))
        map.addAnnotation(plain)
        map.view(for: plain)!.isDraggable = true
        let p = map.convert(plain.coordinate, toPointTo: map)
        XCTAssertFalse(map.beginDrag(at: CGPoint(x: p.x, y: p.y - 20)))
    }

    func testHostileGestureInputIsIgnored() {
        let (map, delegate, _) = MapViewFixtures.map()
        let before = map.viewport
        map.pan(by: CGPoint(x: CGFloat.nan, y: 3))
        map.pan(by: CGPoint(x: CGFloat.infinity, y: 0))
        map.pinch(scale: 0, around: CGPoint(x: 1, y: 1))
        map.pinch(scale: -2, around: CGPoint(x: 1, y: 1))
        map.pinch(scale: .nan, around: CGPoint(x: 1, y: 1))
        map.pinch(scale: 2, around: CGPoint(x: CGFloat.nan, y: 1))
        map.rotate(by: .infinity, around: CGPoint(x: 1, y: 1))
        map.tilt(by: .nan)
        map.zoom(by: .nan, around: CGPoint(x: 1, y: 1), animated: true)
        map.tap(at: CGPoint(x: CGFloat.nan, y: 0))
        map.endGesture(velocity: CGPoint(x: CGFloat.nan, y: 0))
        map.drag(to: CGPoint(x: 1, y: 1))
        map.endDrag()
        XCTAssertEqual(map.viewport, before)
        XCTAssertEqual(delegate.log, [])
        // An absurd but finite pinch clamps to the zoom limits.
        map.pinch(scale: 1e300, around: CGPoint(x: 200, y: 200))
        XCTAssertEqual(map.zoomLevel, MKMapView.maximumZoomLevel)
        // A release with a NaN velocity stops at once; an absurd one coasts a capped distance.
        map.beginGesture()
        map.pan(by: CGPoint(x: 5, y: 5))
        map.endGesture(velocity: CGPoint(x: CGFloat.nan, y: 0))
        XCTAssertFalse(map.isAnimating)
        let released = map.convert(map.centerCoordinate, toPointTo: map)
        map.beginGesture()
        map.pan(by: CGPoint(x: 5, y: 5))
        map.endGesture(velocity: CGPoint(x: 0, y: 1e308))
        map.clockFinish()
        XCTAssertTrue(CLLocationCoordinate2DIsValid(map.centerCoordinate))
        _ = released
        // Gestures on a zero-size map do nothing.
        let empty = MKMapView(frame: .zero, clock: MKManualMapViewClock())
        let emptyBefore = empty.viewport
        empty.pan(by: CGPoint(x: 10, y: 10))
        empty.pinch(scale: 2, around: .zero)
        empty.doubleTap(at: .zero)
        XCTAssertEqual(empty.viewport, emptyBefore)
    }

    func testResizingKeepsCentreAndZoomAndReportsTheChange() {
        let (map, delegate, _) = MapViewFixtures.map()
        let center = map.centerCoordinate, zoom = map.zoomLevel, span = map.region.span
        map.frame = CGRect(x: 10, y: 10, width: 800, height: 400)
        XCTAssertEqual(delegate.log, ["will(false)", "visible", "did(false)"])
        XCTAssertEqual(map.centerCoordinate.latitude, center.latitude, accuracy: 1e-12)
        XCTAssertEqual(map.zoomLevel, zoom, accuracy: 1e-12)
        XCTAssertEqual(map.region.span.longitudeDelta, 2 * span.longitudeDelta, accuracy: 1e-9, "twice as wide at the same scale")
        XCTAssertEqual(map.region.span.latitudeDelta, span.latitudeDelta, accuracy: 1e-9)
        delegate.log = []
        map.frame = CGRect(x: 50, y: 50, width: 800, height: 400)
        XCTAssertEqual(delegate.log, [], "moving the frame changes nothing shown")
    }

    func testDelegateInterruptingAnAnimationFromAFrameCallback() {
        let (map, delegate, clock) = MapViewFixtures.map()
        delegate.onceIn["visible"] = { map in map.setCenter(MapViewFixtures.monaco, animated: false) }
        map.setCenter(MapViewFixtures.nice, animated: true)
        clock.advance(by: 0.1)
        map.advanceAnimations()
        XCTAssertEqual(delegate.log, ["will(true)", "visible", "did(true)", "will(false)", "visible", "did(false)"])
        XCTAssertFalse(map.isAnimating)
        XCTAssertEqual(map.centerCoordinate.longitude, MapViewFixtures.monaco.longitude, accuracy: 1e-9)
    }

    // MARK: - User location

    func testLocatingTheUserAndFollowing() {
        let (map, delegate, _) = MapViewFixtures.map()
        let provider = ScriptedLocationProvider()
        map.userLocationProvider = provider
        map.showsUserLocation = true
        XCTAssertEqual(delegate.log, ["willStartLocating"])
        XCTAssertEqual(provider.starts, 1)
        XCTAssertFalse(map.isUserLocationVisible)
        provider.send(latitude: 43.74, longitude: 7.43)
        XCTAssertEqual(delegate.log, ["willStartLocating", "viewFor(My Location)", "didAddViews(My Location)", "didUpdateUser"])
        XCTAssertTrue(map.annotations.contains { $0 === map.userLocation })
        XCTAssertTrue(map.isUserLocationVisible)
        XCTAssertEqual(map.userLocation.coordinate.latitude, 43.74)
        delegate.log = []
        map.setUserTrackingMode(.follow, animated: true)
        XCTAssertEqual(delegate.log.prefix(2), ["mode(1,true)", "will(true)"])
        map.clockFinish()
        XCTAssertEqual(map.centerCoordinate.latitude, 43.74, accuracy: 1e-9)
        XCTAssertEqual(map.zoomLevel, MKMapView.trackingZoomLevel, accuracy: 1e-9, "zoomed in from the 6 km view")
        // Each new location recentres, animated.
        provider.send(latitude: 43.745, longitude: 7.435)
        map.clockFinish()
        XCTAssertEqual(map.centerCoordinate.longitude, 7.435, accuracy: 1e-9)
        // A user's pan ends following.
        delegate.log = []
        map.pan(by: CGPoint(x: 30, y: 0))
        XCTAssertEqual(map.userTrackingMode, .none)
        XCTAssertTrue(delegate.log.contains("mode(0,true)"), "\(delegate.log)")
        provider.send(latitude: 43.75, longitude: 7.44)
        XCTAssertNotEqual(map.centerCoordinate.longitude, 7.44, "no longer following")
        // Failures are reported; turning off stops the provider and removes the annotation.
        provider.send(.failure(MKError(.unknown)))
        XCTAssertEqual(delegate.log.last, "didFailToLocate")
        map.showsUserLocation = false
        XCTAssertEqual(delegate.log.last, "didStopLocating")
        XCTAssertEqual(provider.stops, 1)
        XCTAssertFalse(map.annotations.contains { $0 === map.userLocation })
        provider.send(latitude: 0, longitude: 0)
        XCTAssertEqual(delegate.log.last, "didStopLocating", "a stopped provider's late events are ignored")
    }

    func testFollowWithHeadingTurnsTheMapAndRotationFallsBackToFollow() {
        let (map, delegate, _) = MapViewFixtures.map()
        let provider = ScriptedLocationProvider()
        map.userLocationProvider = provider
        map.setUserTrackingMode(.followWithHeading, animated: false)
        XCTAssertTrue(map.showsUserLocation, "following turns locating on")
        provider.send(latitude: 43.74, longitude: 7.43)
        provider.send(.heading(120))
        map.clockFinish()
        XCTAssertEqual(map.camera.heading, 120, accuracy: 1e-9)
        XCTAssertEqual(delegate.log.filter { $0 == "didUpdateUser" }.count, 2, "a heading change also reports didUpdate")
        map.rotate(by: 10, around: CGPoint(x: 200, y: 200))
        XCTAssertEqual(map.userTrackingMode, .follow)
    }

    func testNoProviderOrBadLocationsFailCleanly() {
        let (map, delegate, _) = MapViewFixtures.map()
        map.showsUserLocation = true
        XCTAssertEqual(delegate.log, ["willStartLocating", "didFailToLocate"])
        let provider = ScriptedLocationProvider()
        map.userLocationProvider = provider
        XCTAssertEqual(provider.starts, 1, "a provider set while showing starts at once")
        provider.send(latitude: .nan, longitude: 7)
        provider.send(latitude: 95, longitude: 7)
        provider.send(.heading(.infinity))
        XCTAssertNil(map.userLocation.location)
        XCTAssertEqual(delegate.log.filter { $0 == "didFailToLocate" }.count, 3)
    }

    func testConfigurationSwitches() {
        let map = MKMapView(frame: CGRect(x: 0, y: 0, width: 100, height: 100), clock: MKManualMapViewClock())
        XCTAssertEqual(map.mapType, .standard)
        XCTAssertTrue(map.showsBuildings)
        XCTAssertTrue(map.showsCompass)
        XCTAssertFalse(map.showsScale)
        XCTAssertFalse(map.showsUserLocation)
        XCTAssertEqual(map.userTrackingMode, .none)
        XCTAssertTrue(map.showsPointsOfInterest)
        map.mapType = .mutedStandard
        XCTAssertTrue(map.preferredConfiguration is MKStandardMapConfiguration)
        XCTAssertEqual(map.mapType, .mutedStandard)
        map.preferredConfiguration = MKHybridMapConfiguration()
        XCTAssertEqual(map.mapType, .hybrid)
        map.showsPointsOfInterest = false
        XCTAssertTrue(map.pointOfInterestFilter?.isExcludingAll ?? false)
        XCTAssertFalse(map.showsPointsOfInterest)
    }
}
