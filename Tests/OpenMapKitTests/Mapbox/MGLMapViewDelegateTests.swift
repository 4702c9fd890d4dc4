import Foundation
@testable import OpenMapKit
import XCTest

/// MGLMapViewDelegate callbacks in Mapbox's order, reasons, the gesture veto, re-entrant calls
/// and completion handlers.
final class MGLMapViewDelegateTests: XCTestCase {
    func testJumpAnimationAndGestureOrders() {
        let (map, delegate, clock) = MapboxFixtures.map()
        map.setCenter(MapboxFixtures.monaco, zoomLevel: 12, animated: false)
        XCTAssertEqual(delegate.log, ["will(false)", "did(false)"])
        delegate.log = []
        map.setCenter(MapboxFixtures.nice, animated: true)
        MapboxFixtures.finish(map, clock)
        XCTAssertEqual(delegate.collapsed, ["will(true)", "changing*", "did(true)"])
        delegate.log = []
        delegate.reasons = []
        map.beginGesture()
        map.pan(by: CGPoint(x: 30, y: 0))
        map.pan(by: CGPoint(x: 30, y: 0))
        map.pinch(scale: 2, around: CGPoint(x: 100, y: 100))
        map.endGesture()
        XCTAssertEqual(delegate.collapsed, ["will(false)", "changing*", "did(false)"])
        XCTAssertEqual(delegate.reasons.first, .gesturePan)
        XCTAssertEqual(delegate.reasons.last, [.gesturePan, .gesturePinch])
        delegate.log = []
        delegate.reasons = []
        map.doubleTap(at: CGPoint(x: 200, y: 200))
        MapboxFixtures.finish(map, clock)
        XCTAssertEqual(delegate.reasons, [.gestureZoomIn, .gestureZoomIn])
        // Nothing changes: nothing reported, the completion still runs.
        delegate.log = []
        var completed = 0
        map.setCenter(map.centerCoordinate, zoomLevel: map.zoomLevel, direction: -1, animated: true) { completed += 1 }
        XCTAssertEqual(delegate.log, [])
        XCTAssertEqual(completed, 1)
    }

    func testReasonFormsDefaultToThePlainForms() {
        final class Plain: MGLMapViewDelegate {
            var log: [String] = []
            func mapView(_ mapView: MGLMapView, regionWillChangeAnimated animated: Bool) { log.append("will") }
            func mapViewRegionIsChanging(_ mapView: MGLMapView) { log.append("changing") }
            func mapView(_ mapView: MGLMapView, regionDidChangeAnimated animated: Bool) { log.append("did") }
        }
        let (map, _, clock) = MapboxFixtures.map()
        let plain = Plain()
        map.delegate = plain
        map.setZoomLevel(3, animated: true)
        clock.advance(by: 1)
        map.advanceAnimations()
        XCTAssertEqual(plain.log, ["will", "changing", "did"])
    }

    func testGestureVetoKeepsTheCamera() {
        // Mapbox's "restrict panning" sample: refuse cameras whose centre leaves a box.
        let (map, delegate, _) = MapboxFixtures.map()
        map.setCenter(MapboxFixtures.monaco, zoomLevel: 14, animated: false)
        let allowed = MGLCoordinateBoundsMake(CLLocationCoordinate2D(latitude: 43.72, longitude: 7.40),
                                              CLLocationCoordinate2D(latitude: 43.76, longitude: 7.44))
        var asked = 0
        delegate.veto = { _, new in
            asked += 1
            return MGLCoordinateInCoordinateBounds(new.centerCoordinate, allowed)
        }
        map.pan(by: CGPoint(x: -20, y: 0))
        XCTAssertEqual(asked, 1)
        let afterSmallPan = map.centerCoordinate
        XCTAssertGreaterThan(afterSmallPan.longitude, MapboxFixtures.monaco.longitude)
        map.pan(by: CGPoint(x: -5000, y: 0))
        XCTAssertEqual(map.centerCoordinate, afterSmallPan, "a vetoed step leaves the camera")
        // Code is not asked.
        map.setCenter(MapboxFixtures.nice, animated: false)
        XCTAssertEqual(asked, 2)
        XCTAssertEqual(map.centerCoordinate.longitude, MapboxFixtures.nice.longitude, accuracy: 1e-9)
    }

    func testCameraChangesFromCallbacksWaitAndCompletionsRunAfterTheCallbacks() {
        let (map, delegate, clock) = MapboxFixtures.map()
        var order: [String] = []
        delegate.onDid = { mapView in
            order.append("did")
            // A camera change asked for from a callback waits for the callbacks to return.
            if mapView.zoomLevel < 5 { mapView.setZoomLevel(6, animated: false) }
        }
        map.setCenter(MapboxFixtures.monaco, zoomLevel: 4, direction: 0, animated: false) {
            order.append("completion")
            XCTAssertEqual(map.zoomLevel, 6, "the queued change ran before the completion")
        }
        XCTAssertEqual(order, ["did", "did", "completion"])
        XCTAssertEqual(map.zoomLevel, 6)
        // A completion may start another animation.
        var second = 0
        map.setZoomLevel(7, animated: false)
        delegate.onDid = nil
        map.setCamera(map.camera, withDuration: 0.2, animationTimingFunction: nil) { }
        let target = MGLMapCamera(lookingAtCenter: MapboxFixtures.nice, altitude: 10_000, pitch: 0, heading: 0)
        map.setCamera(target, withDuration: 0.2, animationTimingFunction: nil) {
            map.setCamera(MGLMapCamera(lookingAtCenter: MapboxFixtures.monaco, altitude: 10_000, pitch: 0, heading: 0),
                          withDuration: 0.2, animationTimingFunction: nil) { second += 1 }
        }
        MapboxFixtures.finish(map, clock)
        XCTAssertEqual(second, 1)
        XCTAssertEqual(map.centerCoordinate.latitude, MapboxFixtures.monaco.latitude, accuracy: 1e-9)
    }

    func testInterruptedAnimationCompletesOnceWithTheCancelledReason() {
        let (map, delegate, clock) = MapboxFixtures.map()
        var completions: [String] = []
        map.setCenter(MapboxFixtures.monaco, zoomLevel: 10, direction: 0, animated: true) { completions.append("first") }
        clock.advance(by: 0.1)
        map.advanceAnimations()
        delegate.reasons = []
        map.setCenter(MapboxFixtures.nice, zoomLevel: 11, direction: 0, animated: true) { completions.append("second") }
        XCTAssertEqual(completions, ["first"])
        XCTAssertEqual(delegate.reasons.first, [.programmatic, .transitionCancelled])
        MapboxFixtures.finish(map, clock)
        XCTAssertEqual(completions, ["first", "second"])
    }
}
