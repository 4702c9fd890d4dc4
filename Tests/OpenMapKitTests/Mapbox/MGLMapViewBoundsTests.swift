import Foundation
@testable import OpenMapKit
import XCTest

/// MGLCoordinateBounds and its functions, fitting bounds and coordinates, the camera-fitting
/// functions, content insets and edge padding (inventory §5.18 M-16 … M-22, M-26, M-28).
final class MGLMapViewBoundsTests: XCTestCase {
    let bostonBox = MGLCoordinateBoundsMake(CLLocationCoordinate2D(latitude: 42.310256, longitude: -71.107279),
                                            CLLocationCoordinate2D(latitude: 42.410256, longitude: -71.007279))

    func testBoundsFunctions() {
        let b = bostonBox
        XCTAssertTrue(MGLCoordinateBoundsEqualToCoordinateBounds(b, MGLCoordinateBounds(sw: b.sw, ne: b.ne)))
        XCTAssertTrue(MGLCoordinateInCoordinateBounds(CLLocationCoordinate2D(latitude: 42.36, longitude: -71.05), b))
        XCTAssertTrue(MGLCoordinateInCoordinateBounds(b.sw, b), "edges are inside")
        XCTAssertFalse(MGLCoordinateInCoordinateBounds(CLLocationCoordinate2D(latitude: 42.5, longitude: -71.05), b))
        let span = MGLCoordinateBoundsGetCoordinateSpan(b)
        XCTAssertEqual(span.latitudeDelta, 0.1, accuracy: 1e-12)
        XCTAssertEqual(span.longitudeDelta, 0.1, accuracy: 1e-12)
        XCTAssertTrue(MGLCoordinateSpanEqualToCoordinateSpan(MGLCoordinateSpanMake(1, 2), MGLCoordinateSpan(latitudeDelta: 1, longitudeDelta: 2)))
        XCTAssertFalse(MGLCoordinateBoundsIsEmpty(b))
        XCTAssertTrue(MGLCoordinateBoundsIsEmpty(MGLCoordinateBoundsMake(b.sw, CLLocationCoordinate2D(latitude: 50, longitude: b.sw.longitude))),
                      "due north: no area though the span is not zero")
        let moved = MGLCoordinateBoundsOffset(b, MGLCoordinateSpanMake(1, -2))
        XCTAssertEqual(moved.sw.latitude, b.sw.latitude + 1, accuracy: 1e-12)
        XCTAssertEqual(moved.ne.longitude, b.ne.longitude - 2, accuracy: 1e-12)
        XCTAssertTrue(MGLCoordinateBoundsIntersectsCoordinateBounds(b, moved) == false)
        XCTAssertTrue(MGLCoordinateBoundsIntersectsCoordinateBounds(b, MGLCoordinateBoundsOffset(b, MGLCoordinateSpanMake(0.05, 0.05))))
        // Antimeridian: Tokyo at −220° is inside the Tokyo–SF box; at 139.76° it is not (longitudes as given).
        let pacific = MGLCoordinateBoundsMake(CLLocationCoordinate2D(latitude: 35.68476, longitude: -220.24257),
                                              CLLocationCoordinate2D(latitude: 37.78428, longitude: -122.41310))
        XCTAssertTrue(MGLCoordinateInCoordinateBounds(CLLocationCoordinate2D(latitude: 36, longitude: -220), pacific))
        XCTAssertFalse(MGLCoordinateInCoordinateBounds(CLLocationCoordinate2D(latitude: 36, longitude: 139.9), pacific))
        XCTAssertEqual(MGLStringFromCoordinateBounds(b), "{ sw = {42.3, -71.1}, ne = {42.4, -71.0}}")
        let quad = MGLCoordinateQuadFromCoordinateBounds(b)
        XCTAssertEqual(quad.topRight, b.ne)
        XCTAssertEqual(quad.bottomLeft, b.sw)
    }

    func testFitBoundsIsLatitudeLimitedWithTheMercatorCentre() {
        // M-16 on 400 × 400: zoom ≈ 11.021, centre 42.360276 (not the arithmetic 42.360256).
        let (map, _, _) = MapboxFixtures.map()
        map.setVisibleCoordinateBounds(bostonBox, animated: false)
        XCTAssertEqual(map.zoomLevel, 11.021133, accuracy: 1e-5)
        XCTAssertEqual(map.centerCoordinate.latitude, 42.360276, accuracy: 1e-6)
        XCTAssertEqual(map.centerCoordinate.longitude, -71.057279, accuracy: 1e-9)
        // Reading the bounds back: the box's latitudes exactly, its longitudes widened.
        let visible = map.visibleCoordinateBounds
        XCTAssertEqual(visible.sw.latitude, 42.310256, accuracy: 1e-6)
        XCTAssertEqual(visible.ne.latitude, 42.410256, accuracy: 1e-6)
        XCTAssertLessThan(visible.sw.longitude, -71.107279)
        // M-28: the frame's rect converts to the visible bounds and back.
        let rect = map.convert(visible, toRectTo: map)
        XCTAssertEqual(rect.minX, 0, accuracy: 1e-6)
        XCTAssertEqual(rect.minY, 0, accuracy: 1e-6)
        XCTAssertEqual(rect.width, 400, accuracy: 1e-6)
        XCTAssertEqual(rect.height, 400, accuracy: 1e-6)
    }

    func testFitWithEdgePaddingKeepsEveryCornerInside() {
        // M-17: 20 points each side → zoom ≈ 10.869; corners inside [20, 380]²; camera edge insets 20.
        let (map, _, _) = MapboxFixtures.map()
        let padding = UIEdgeInsets(top: 20, left: 20, bottom: 20, right: 20)
        map.setVisibleCoordinateBounds(bostonBox, edgePadding: padding, animated: false, completionHandler: nil)
        XCTAssertEqual(map.zoomLevel, 10.869130, accuracy: 1e-5)
        for corner in MGLMapView.corners(of: bostonBox) {
            let p = map.convert(corner, toPointTo: map)
            XCTAssertGreaterThanOrEqual(p.x, 20 - 0.5)
            XCTAssertLessThanOrEqual(p.x, 380 + 0.5)
            XCTAssertGreaterThanOrEqual(p.y, 20 - 0.5)
            XCTAssertLessThanOrEqual(p.y, 380 + 0.5)
        }
        XCTAssertEqual(map.cameraEdgeInsets, padding)
        // A change without padding goes back to the content inset.
        map.setZoomLevel(9, animated: false)
        XCTAssertEqual(map.cameraEdgeInsets, .zero)
    }

    func testMercatorCentreOfZeroToSixty() {
        // M-18.
        let (map, _, _) = MapboxFixtures.map()
        map.visibleCoordinateBounds = MGLCoordinateBoundsMake(CLLocationCoordinate2D(latitude: 0, longitude: 0),
                                                              CLLocationCoordinate2D(latitude: 60, longitude: 10))
        XCTAssertEqual(map.centerCoordinate.latitude, 35.2644, accuracy: 1e-4)
    }

    func testAntimeridianBoundsFitAcrossIt() {
        // M-19 on 1024 × 768: zoom ≈ 2.88 (width-limited), centre longitude −171.33°.
        let (map, _, _) = MapboxFixtures.map(width: 1024, height: 768)
        let pacific = MGLCoordinateBoundsMake(CLLocationCoordinate2D(latitude: 35.68476, longitude: -220.24257),
                                              CLLocationCoordinate2D(latitude: 37.78428, longitude: -122.41310))
        map.setVisibleCoordinateBounds(pacific, animated: false)
        XCTAssertEqual(map.zoomLevel, 2.879656, accuracy: 1e-5)
        XCTAssertEqual(map.centerCoordinate.longitude, -171.327835, accuracy: 1e-5)
        XCTAssertEqual(map.centerCoordinate.latitude, 36.7417, accuracy: 1e-3)
        for city in [CLLocationCoordinate2D(latitude: 35.68476, longitude: 139.75743), CLLocationCoordinate2D(latitude: 37.78428, longitude: -122.41310)] {
            let p = map.convert(city, toPointTo: map)
            XCTAssertTrue(map.bounds.insetBy(dx: -0.5, dy: -0.5).contains(p), "\(city) at \(p)")
        }
        XCTAssertLessThan(map.visibleCoordinateBounds.sw.longitude, -180, "the visible bounds continue past −180°")
    }

    func testFitCoordinatesWithDirectionAndDuration() {
        // M-20.
        let (map, delegate, clock) = MapboxFixtures.map()
        let points = [CLLocationCoordinate2D(latitude: 43.72, longitude: 7.40), CLLocationCoordinate2D(latitude: 43.75, longitude: 7.44),
                      CLLocationCoordinate2D(latitude: 43.73, longitude: 7.43)]
        var completed = 0
        delegate.log = []
        map.setVisibleCoordinates(points, count: 3, edgePadding: UIEdgeInsets(top: 10, left: 10, bottom: 10, right: 10), direction: 45,
                                  duration: 0.5, animationTimingFunction: nil) { completed += 1 }
        XCTAssertTrue(map.isAnimating)
        clock.advance(by: 0.5)
        map.advanceAnimations()
        XCTAssertFalse(map.isAnimating)
        XCTAssertEqual(completed, 1)
        XCTAssertEqual(map.direction, 45, accuracy: 1e-9)
        for c in points {
            let p = map.convert(c, toPointTo: map)
            XCTAssertTrue(CGRect(x: 9.5, y: 9.5, width: 381, height: 381).contains(p), "\(p)")
        }
        // Negative direction: unchanged.
        map.setVisibleCoordinates(points, count: 2, edgePadding: .zero, direction: -1, duration: 0, animationTimingFunction: nil, completionHandler: nil)
        XCTAssertEqual(map.direction, 45, accuracy: 1e-9)
        // A single point: the nearest zoom allowed.
        map.setVisibleCoordinates(points, count: 1, edgePadding: .zero, animated: false)
        XCTAssertEqual(map.zoomLevel, 22)
    }

    func testCameraFittingFunctionsArePure() {
        // M-22.
        let (map, _, _) = MapboxFixtures.map()
        map.setCenter(MapboxFixtures.monaco, zoomLevel: 5, direction: 10, animated: false)
        let before = map.camera
        let fits = map.cameraThatFitsCoordinateBounds(bostonBox)
        XCTAssertTrue(map.camera.isEqual(to: before), "the map did not move")
        XCTAssertEqual(fits.heading, 10, accuracy: 1e-9)
        XCTAssertEqual(fits.centerCoordinate.latitude, 42.360276, accuracy: 1e-3)
        let given = MGLMapCamera(lookingAtCenter: MapboxFixtures.nice, altitude: 1000, pitch: 45, heading: 90)
        let fitted = map.camera(given, fitting: bostonBox, edgePadding: .zero)
        XCTAssertEqual(fitted.pitch, 45, accuracy: 1e-9)
        XCTAssertEqual(fitted.heading, 90, accuracy: 1e-9)
        let line = MGLPolyline(coordinates: [CLLocationCoordinate2D(latitude: 42.31, longitude: -71.1), CLLocationCoordinate2D(latitude: 42.41, longitude: -71.0)])
        let shaped = map.cameraThatFitsShape(line, direction: 30, edgePadding: .zero)
        XCTAssertEqual(shaped.heading, 30, accuracy: 1e-9)
        XCTAssertEqual(shaped.pitch, 0, accuracy: 1e-9)
        XCTAssertEqual(map.camera(given, fitting: line, edgePadding: .zero).heading, 90, accuracy: 1e-9)
        // Setting the fitted camera shows the box (turned 10°, so a little farther out than 11.02).
        map.camera = fits
        XCTAssertLessThan(map.zoomLevel, 11.021133)
        for corner in MGLMapView.corners(of: bostonBox) {
            XCTAssertTrue(map.bounds.insetBy(dx: -0.5, dy: -0.5).contains(map.convert(corner, toPointTo: map)))
        }
    }

    func testTopContentInsetMovesTheCentreDownEvenRotated() {
        // M-26: top inset 100 on 400 × 400 → the centre coordinate shows at (200, 250).
        let (map, _, _) = MapboxFixtures.map()
        map.setCenter(MapboxFixtures.monaco, zoomLevel: 13, animated: false)
        map.contentInset = UIEdgeInsets(top: 100, left: 0, bottom: 0, right: 0)
        XCTAssertEqual(map.centerCoordinate.latitude, MapboxFixtures.monaco.latitude, accuracy: 1e-9, "the centre coordinate is kept")
        var p = map.convert(map.centerCoordinate, toPointTo: nil)
        XCTAssertEqual(p.x, 200, accuracy: 1e-6)
        XCTAssertEqual(p.y, 250, accuracy: 1e-6)
        XCTAssertEqual(map.cameraEdgeInsets.top, 100)
        // Rotated and moved: still at the content area's centre.
        map.setCenter(MapboxFixtures.nice, zoomLevel: 12, direction: 70, animated: false)
        p = map.convert(MapboxFixtures.nice, toPointTo: map)
        XCTAssertEqual(p.x, 200, accuracy: 1e-6)
        XCTAssertEqual(p.y, 250, accuracy: 1e-6)
        XCTAssertEqual(map.centerCoordinate.longitude, MapboxFixtures.nice.longitude, accuracy: 1e-9)
        // Zooming keeps the inset centre; an animated zoom too, frame by frame.
        let (animated, _, clock) = MapboxFixtures.map()
        animated.contentInset = UIEdgeInsets(top: 0, left: 120, bottom: 0, right: 0)
        animated.setCenter(MapboxFixtures.monaco, zoomLevel: 10, direction: 30, animated: false)
        animated.setZoomLevel(14, animated: true)
        for _ in 0..<10 {
            clock.advance(by: 0.03)
            animated.advanceAnimations()
            let q = animated.convert(MapboxFixtures.monaco, toPointTo: animated)
            XCTAssertEqual(q.x, 260, accuracy: 1e-3)
            XCTAssertEqual(q.y, 200, accuracy: 1e-3)
        }
        MapboxFixtures.finish(animated, clock)
        XCTAssertEqual(animated.zoomLevel, 14, accuracy: 1e-9)
        // Fitting measures the padding from the content area.
        animated.setVisibleCoordinateBounds(bostonBox, animated: false)
        let centre = animated.convert(animated.centerCoordinate, toPointTo: animated)
        XCTAssertEqual(centre.x, 260, accuracy: 1e-6)
    }
}
