import Foundation
@testable import OpenMapKit
import XCTest

/// MKMapView's camera state: regions fitted to the frame, centre, camera, visible rectangle,
/// conversions, zoom range and boundary clamping, and hostile input.
final class MapViewCameraTests: XCTestCase {
    private func map(width: CGFloat = 400, height: CGFloat = 400) -> MKMapView {
        MKMapView(frame: CGRect(x: 0, y: 0, width: width, height: height), clock: MKManualMapViewClock())
    }

    func testNewMapShowsTheWholeWorldNorthUp() {
        let map = map(width: 400, height: 300)
        XCTAssertEqual(map.camera.heading, 0)
        XCTAssertEqual(map.camera.pitch, 0)
        XCTAssertEqual(map.centerCoordinate.latitude, 0, accuracy: 1e-9)
        // The world (512 points wide at zoom 0) fills the shorter side.
        XCTAssertEqual(map.visibleMapRect.height, MKMapSize.worldWidth, accuracy: 1)
        XCTAssertEqual(map.zoomLevel, log2(300.0 / 512), accuracy: 1e-9)
    }

    func testSetRegionFitsTheFrameAndContainsTheRegion() {
        let map = map(width: 400, height: 200)
        let boston = MKCoordinateRegion(center: CLLocationCoordinate2D(latitude: 42.360256, longitude: -71.057279),
                                        span: MKCoordinateSpan(latitudeDelta: 0.1, longitudeDelta: 0.1))
        let predicted = map.regionThatFits(boston)
        map.region = boston
        let shown = map.region
        XCTAssertEqual(shown.center.latitude, boston.center.latitude, accuracy: 1e-9)
        XCTAssertEqual(shown.center.longitude, boston.center.longitude, accuracy: 1e-9)
        XCTAssertGreaterThanOrEqual(shown.span.latitudeDelta, 0.1 - 1e-9)
        XCTAssertGreaterThanOrEqual(shown.span.longitudeDelta, 0.1 - 1e-9)
        XCTAssertGreaterThan(shown.span.longitudeDelta, 0.15, "a 2:1 frame widens a square region")
        XCTAssertEqual(predicted.span.longitudeDelta, shown.span.longitudeDelta, accuracy: 1e-9)
        XCTAssertEqual(predicted.span.latitudeDelta, shown.span.latitudeDelta, accuracy: 1e-9)
        XCTAssertEqual(map.visibleMapRect.width / map.visibleMapRect.height, 2, accuracy: 1e-9)
    }

    func testSetCenterKeepsZoomAndSetRegionTurnsNorthUp() {
        let map = map()
        map.camera = MKMapCamera(lookingAtCenter: MapViewFixtures.monaco, fromDistance: 3000, pitch: 30, heading: 90)
        let zoom = map.zoomLevel
        map.centerCoordinate = MapViewFixtures.nice
        XCTAssertEqual(map.zoomLevel, zoom, accuracy: 1e-12)
        XCTAssertEqual(map.camera.heading, 90, "setting the centre keeps the heading")
        map.region = MapViewFixtures.monacoRegion
        XCTAssertEqual(map.camera.heading, 0)
        XCTAssertEqual(map.camera.pitch, 0)
    }

    func testCameraRoundTrips() {
        let map = map()
        let center = CLLocationCoordinate2D(latitude: 42.360431, longitude: -71.055930)
        map.camera = MKMapCamera(lookingAtCenter: center, fromDistance: 980, pitch: 60, heading: 242)
        let camera = map.camera
        XCTAssertEqual(camera.centerCoordinate.latitude, center.latitude, accuracy: 1e-9)
        XCTAssertEqual(camera.centerCoordinate.longitude, center.longitude, accuracy: 1e-9)
        XCTAssertEqual(camera.centerCoordinateDistance, 980, accuracy: 1e-6)
        XCTAssertEqual(camera.heading, 242, accuracy: 1e-9)
        XCTAssertEqual(camera.pitch, 60, accuracy: 1e-9)
        XCTAssertFalse(map.camera === map.camera, "every read is a copy")
    }

    func testCameraPitchAndHeadingAreNormalisedAndClamped() {
        let map = map()
        map.camera = MKMapCamera(lookingAtCenter: MapViewFixtures.monaco, fromDistance: 2000, pitch: 85, heading: -30)
        XCTAssertEqual(map.camera.pitch, MapViewport.maximumPitch)
        XCTAssertEqual(map.camera.heading, 330, accuracy: 1e-9)
        map.camera = MKMapCamera(lookingAtCenter: MapViewFixtures.monaco, fromDistance: 2000, pitch: -10, heading: 725)
        XCTAssertEqual(map.camera.pitch, 0)
        XCTAssertEqual(map.camera.heading, 5, accuracy: 1e-9)
    }

    func testRotationAndPitchSwitches() {
        let (map, delegate, _) = MapViewFixtures.map()
        map.camera = MKMapCamera(lookingAtCenter: MapViewFixtures.monaco, fromDistance: 2000, pitch: 40, heading: 90)
        delegate.log = []
        map.isRotateEnabled = false
        XCTAssertEqual(map.camera.heading, 0, "turning rotation off turns the map north up")
        XCTAssertEqual(delegate.log, ["will(false)", "visible", "did(false)"])
        map.isPitchEnabled = false
        XCTAssertEqual(map.camera.pitch, 0)
        map.camera = MKMapCamera(lookingAtCenter: MapViewFixtures.monaco, fromDistance: 2000, pitch: 40, heading: 90)
        XCTAssertEqual(map.camera.heading, 0)
        XCTAssertEqual(map.camera.pitch, 0)
    }

    func testVisibleMapRectWithEdgePaddingKeepsThePaddingClear() {
        let map = map(width: 400, height: 300)
        let rect = MKMapRect(MapViewFixtures.monacoRegion)
        let padding = MKEdgeInsets(top: 50, left: 20, bottom: 10, right: 40)
        map.setVisibleMapRect(rect, edgePadding: padding, animated: false)
        for corner in [MKMapPoint(x: rect.minX, y: rect.minY), MKMapPoint(x: rect.maxX, y: rect.maxY)] {
            let p = map.convert(corner.coordinate, toPointTo: map)
            XCTAssertGreaterThanOrEqual(p.x, 20 - 1e-6)
            XCTAssertLessThanOrEqual(p.x, 400 - 40 + 1e-6)
            XCTAssertGreaterThanOrEqual(p.y, 50 - 1e-6)
            XCTAssertLessThanOrEqual(p.y, 300 - 10 + 1e-6)
        }
        let fitted = map.mapRectThatFits(rect, edgePadding: padding), shown = map.visibleMapRect
        XCTAssertEqual(fitted.minX, shown.minX, accuracy: 1e-6)
        XCTAssertEqual(fitted.minY, shown.minY, accuracy: 1e-6)
        XCTAssertEqual(fitted.width, shown.width, accuracy: 1e-6)
        XCTAssertEqual(fitted.height, shown.height, accuracy: 1e-6)
    }

    func testConversionsRoundTripInARotatedPitchedView() {
        let map = map(width: 640, height: 480)
        map.frame.origin = CGPoint(x: 100, y: 50)
        map.camera = MKMapCamera(lookingAtCenter: MapViewFixtures.monaco, fromDistance: 2500, pitch: 45, heading: 30)
        let center = map.convert(MapViewFixtures.monaco, toPointTo: map)
        XCTAssertEqual(center.x, 320, accuracy: 1e-6)
        XCTAssertEqual(center.y, 240, accuracy: 1e-6)
        let inWindow = map.convert(MapViewFixtures.monaco, toPointTo: nil)
        XCTAssertEqual(inWindow.x, 420, accuracy: 1e-6, "nil converts to window coordinates")
        XCTAssertEqual(inWindow.y, 290, accuracy: 1e-6)
        for point in [CGPoint(x: 10, y: 400), CGPoint(x: 600, y: 100), CGPoint(x: 320, y: 20)] {
            let coordinate = map.convert(point, toCoordinateFrom: map)
            let back = map.convert(coordinate, toPointTo: map)
            XCTAssertEqual(back.x, point.x, accuracy: 1e-6)
            XCTAssertEqual(back.y, point.y, accuracy: 1e-6)
        }
        // Window coordinates in, window coordinates out.
        let c = map.convert(CGPoint(x: 150, y: 60), toCoordinateFrom: nil)
        let p = map.convert(c, toPointTo: nil)
        XCTAssertEqual(p.x, 150, accuracy: 1e-6)
        XCTAssertEqual(p.y, 60, accuracy: 1e-6)
    }

    func testTapRightOfCentreIsEastAtTheEquator() {
        let map = map()
        map.region = MKCoordinateRegion(center: CLLocationCoordinate2D(), span: MKCoordinateSpan(latitudeDelta: 10, longitudeDelta: 10))
        let middle = map.convert(CGPoint(x: 200, y: 200), toCoordinateFrom: map)
        XCTAssertEqual(middle.latitude, 0, accuracy: 1e-9)
        XCTAssertEqual(middle.longitude, 0, accuracy: 1e-9)
        let east = map.convert(CGPoint(x: 300, y: 200), toCoordinateFrom: map)
        XCTAssertEqual(east.longitude, map.region.span.longitudeDelta / 4, accuracy: 1e-9, "a quarter of the view's width")
        XCTAssertGreaterThanOrEqual(map.region.span.longitudeDelta, 10)
        XCTAssertEqual(east.latitude, 0, accuracy: 1e-9)
    }

    func testRegionAndRectConversionsRoundTrip() {
        let map = map(width: 500, height: 400)
        map.region = MapViewFixtures.monacoRegion
        let rect = CGRect(x: 50, y: 80, width: 200, height: 100)
        let region = map.convert(rect, toRegionFrom: map)
        let back = map.convert(region, toRectTo: map)
        XCTAssertEqual(back.minX, rect.minX, accuracy: 1e-6)
        XCTAssertEqual(back.minY, rect.minY, accuracy: 1e-6)
        XCTAssertEqual(back.width, rect.width, accuracy: 1e-6)
        XCTAssertEqual(back.height, rect.height, accuracy: 1e-6)
        let whole = map.convert(map.region, toRectTo: map)
        XCTAssertEqual(whole.width, 500, accuracy: 1e-6)
        XCTAssertEqual(whole.height, 400, accuracy: 1e-6)
    }

    func testZoomRangeClampsCodeChanges() {
        let map = map()
        map.cameraZoomRange = MKMapView.CameraZoomRange(minCenterCoordinateDistance: 1000, maxCenterCoordinateDistance: 100_000)
        map.camera = MKMapCamera(lookingAtCenter: MapViewFixtures.monaco, fromDistance: 10, pitch: 0, heading: 0)
        XCTAssertEqual(map.camera.centerCoordinateDistance, 1000, accuracy: 1e-6)
        map.region = MKCoordinateRegion(center: MapViewFixtures.monaco, span: MKCoordinateSpan(latitudeDelta: 20, longitudeDelta: 20))
        XCTAssertEqual(map.camera.centerCoordinateDistance, 100_000, accuracy: 1e-6)
        map.setZoomLevel(30, animated: false)
        XCTAssertEqual(map.camera.centerCoordinateDistance, 1000, accuracy: 1e-6)
        // Setting a narrower range moves the map into it at once.
        map.cameraZoomRange = MKMapView.CameraZoomRange(minCenterCoordinateDistance: 5000)
        XCTAssertEqual(map.camera.centerCoordinateDistance, 5000, accuracy: 1e-6)
        map.cameraZoomRange = nil
        XCTAssertEqual(map.cameraZoomRange.minCenterCoordinateDistance, MKMapCameraZoomDefault, "nil restores the unlimited range")
        map.camera = MKMapCamera(lookingAtCenter: MapViewFixtures.monaco, fromDistance: 10, pitch: 0, heading: 0)
        XCTAssertEqual(map.camera.centerCoordinateDistance, 10, accuracy: 1e-6)
    }

    func testZoomRangeRejectsBadBounds() {
        XCTAssertNil(MKMapView.CameraZoomRange(minCenterCoordinateDistance: 500, maxCenterCoordinateDistance: 100))
        XCTAssertNil(MKMapView.CameraZoomRange(minCenterCoordinateDistance: -5))
        XCTAssertNil(MKMapView.CameraZoomRange(maxCenterCoordinateDistance: .nan))
        XCTAssertNil(MKMapView.CameraZoomRange(maxCenterCoordinateDistance: .infinity))
        XCTAssertNotNil(MKMapView.CameraZoomRange(minCenterCoordinateDistance: 0, maxCenterCoordinateDistance: 0))
    }

    func testBoundaryKeepsTheCentreInside() {
        let map = map()
        map.region = MapViewFixtures.monacoRegion
        let boundary = MKMapView.CameraBoundary(coordinateRegion: MapViewFixtures.monacoRegion)!
        map.cameraBoundary = boundary
        map.centerCoordinate = CLLocationCoordinate2D(latitude: 43.74, longitude: 7.30)  // west of the boundary
        let center = MKMapPoint(map.centerCoordinate)
        XCTAssertEqual(center.x, boundary.mapRect.minX, accuracy: 1e-3, "clamped to the west edge")
        XCTAssertEqual(map.centerCoordinate.latitude, 43.74, accuracy: 1e-6, "latitude inside, kept")
        map.setCenter(CLLocationCoordinate2D(latitude: 60, longitude: 7.42), animated: false)
        XCTAssertEqual(MKMapPoint(map.centerCoordinate).y, boundary.mapRect.minY, accuracy: 1e-3)
        XCTAssertNil(MKMapView.CameraBoundary(mapRect: .null))
        XCTAssertNil(MKMapView.CameraBoundary(coordinateRegion: MKCoordinateRegion(center: CLLocationCoordinate2D(latitude: 95, longitude: 0),
                                                                                   span: MKCoordinateSpan(latitudeDelta: 1, longitudeDelta: 1))))
    }

    func testBoundaryAcrossTheAntimeridianIsReachedTheShortWay() {
        let map = map()
        // Fiji: 177° E … 178° W, stored past the world's right edge.
        let fiji = MKCoordinateRegion(center: CLLocationCoordinate2D(latitude: -17.5, longitude: 179.5),
                                      span: MKCoordinateSpan(latitudeDelta: 4, longitudeDelta: 5))
        map.region = fiji
        map.cameraBoundary = MKMapView.CameraBoundary(coordinateRegion: fiji)
        map.setCenter(CLLocationCoordinate2D(latitude: -17.5, longitude: -177), animated: false)  // just east, past the meridian
        XCTAssertEqual(map.centerCoordinate.longitude, -178, accuracy: 1e-6, "clamped to the east edge, not swung round the world")
    }

    func testAnimatedRegionEndsWhereTheImmediateOneDoes() {
        let immediate = map(), animated = map()
        let target = MKCoordinateRegion(center: MapViewFixtures.nice, span: MKCoordinateSpan(latitudeDelta: 0.05, longitudeDelta: 0.05))
        immediate.setRegion(target, animated: false)
        animated.setRegion(target, animated: true)
        XCTAssertNotEqual(animated.region, immediate.region)
        animated.clockFinish()
        XCTAssertEqual(animated.viewport, immediate.viewport)
    }

    func testLayingOutAnUnpositionedMapShowsTheWorldAndAPendingPointIsCentred() {
        let map = MKMapView(frame: .zero, clock: MKManualMapViewClock())
        map.frame = CGRect(x: 0, y: 0, width: 300, height: 200)
        XCTAssertEqual(map.zoomLevel, log2(200.0 / 512), accuracy: 1e-9, "the whole world across the shorter side")
        map.frame = CGRect(x: 0, y: 0, width: 600, height: 400)
        XCTAssertEqual(map.zoomLevel, log2(400.0 / 512), accuracy: 1e-9, "still the whole world: nothing has moved it")
        let pointMap = MKMapView(frame: .zero, clock: MKManualMapViewClock())
        pointMap.setRegion(MKCoordinateRegion(center: MapViewFixtures.monaco, span: MKCoordinateSpan()), animated: false)
        pointMap.frame = CGRect(x: 0, y: 0, width: 300, height: 200)
        XCTAssertEqual(pointMap.centerCoordinate.latitude, MapViewFixtures.monaco.latitude, accuracy: 1e-9)
        XCTAssertEqual(pointMap.zoomLevel, MKMapView.maximumZoomLevel)
    }

    // MARK: - Hostile input

    func testInvalidRegionsRectsAndCamerasAreIgnored() {
        let (map, delegate, _) = MapViewFixtures.map()
        let before = map.viewport
        let center = MapViewFixtures.monaco
        let badRegions = [
            MKCoordinateRegion(center: CLLocationCoordinate2D(latitude: .nan, longitude: 0), span: MKCoordinateSpan(latitudeDelta: 1, longitudeDelta: 1)),
            MKCoordinateRegion(center: CLLocationCoordinate2D(latitude: 91, longitude: 0), span: MKCoordinateSpan(latitudeDelta: 1, longitudeDelta: 1)),
            MKCoordinateRegion(center: center, span: MKCoordinateSpan(latitudeDelta: -1, longitudeDelta: 1)),
            MKCoordinateRegion(center: center, span: MKCoordinateSpan(latitudeDelta: 1, longitudeDelta: .infinity)),
            MKCoordinateRegion(center: center, span: MKCoordinateSpan(latitudeDelta: 200, longitudeDelta: 1)),
        ]
        for region in badRegions {
            map.region = region
            map.setRegion(region, animated: true)
            XCTAssertEqual(String(describing: map.regionThatFits(region)), String(describing: region), "an invalid region comes back as given")
        }
        for rect in [MKMapRect.null, MKMapRect(x: .nan, y: 0, width: 10, height: 10), MKMapRect(x: 0, y: 0, width: -5, height: 10),
                     MKMapRect(x: 0, y: 0, width: .infinity, height: 10)] {
            map.visibleMapRect = rect
            map.setVisibleMapRect(rect, edgePadding: MKEdgeInsets(top: .nan, left: -3, bottom: 0, right: 0), animated: true)
        }
        map.camera = MKMapCamera(lookingAtCenter: CLLocationCoordinate2D(latitude: .nan, longitude: 0), fromDistance: 100, pitch: 0, heading: 0)
        map.camera = MKMapCamera(lookingAtCenter: center, fromDistance: .infinity, pitch: 0, heading: 0)
        map.camera = MKMapCamera(lookingAtCenter: center, fromDistance: 100, pitch: .nan, heading: 0)
        map.camera = MKMapCamera(lookingAtCenter: center, fromDistance: 100, pitch: 0, heading: -.infinity)
        map.centerCoordinate = CLLocationCoordinate2D(latitude: -100, longitude: 0)
        map.centerCoordinate = CLLocationCoordinate2D(latitude: 0, longitude: .nan)
        map.setZoomLevel(.nan, animated: true)
        XCTAssertEqual(map.viewport, before)
        XCTAssertEqual(delegate.log, [], "ignored input calls nothing")
        XCTAssertFalse(map.isAnimating)
    }

    func testExtremeButValidInputIsClamped() {
        let map = map()
        map.centerCoordinate = CLLocationCoordinate2D(latitude: 89.9, longitude: 541)
        XCTAssertEqual(map.centerCoordinate.latitude, MKMercatorMaximumLatitude, accuracy: 1e-9)
        XCTAssertEqual(map.centerCoordinate.longitude, -179, accuracy: 1e-9)
        map.camera = MKMapCamera(lookingAtCenter: MapViewFixtures.monaco, fromDistance: 0, pitch: 0, heading: 0)
        XCTAssertEqual(map.zoomLevel, MKMapView.maximumZoomLevel, "distance 0 is the nearest allowed")
        map.region = MKCoordinateRegion(center: MapViewFixtures.monaco, span: MKCoordinateSpan(latitudeDelta: 0, longitudeDelta: 0))
        XCTAssertEqual(map.zoomLevel, MKMapView.maximumZoomLevel, "an empty region centres as near as allowed")
        XCTAssertEqual(map.centerCoordinate.latitude, MapViewFixtures.monaco.latitude, accuracy: 1e-9)
        map.region = MKCoordinateRegion(center: CLLocationCoordinate2D(), span: MKCoordinateSpan(latitudeDelta: 180, longitudeDelta: 360))
        XCTAssertEqual(map.zoomLevel, log2(400.0 / 512), accuracy: 1e-9, "no farther than the whole world")
    }

    func testZeroSizeFrameKeepsTheFramingUntilLaidOut() {
        let delegate = RecordingMapViewDelegate()
        let map = MKMapView(frame: CGRect(x: 0, y: 0, width: CGFloat.nan, height: -20), clock: MKManualMapViewClock())
        map.delegate = delegate
        XCTAssertEqual(map.frame.size, .zero, "a non-finite or negative size is zero")
        map.region = MapViewFixtures.monacoRegion
        XCTAssertEqual(map.region.center.latitude, MapViewFixtures.monacoRegion.center.latitude, accuracy: 1e-9,
                       "kept as given until there is a frame to fit")
        XCTAssertEqual(map.region.span.latitudeDelta, MapViewFixtures.monacoRegion.span.latitudeDelta, accuracy: 1e-9)
        XCTAssertTrue(map.convert(MapViewFixtures.monaco, toPointTo: map).x.isNaN)
        XCTAssertEqual(map.convert(CGPoint(x: 1, y: 1), toCoordinateFrom: map), kCLLocationCoordinate2DInvalid)
        XCTAssertTrue(map.convert(MapViewFixtures.monacoRegion, toRectTo: map).isNull)
        map.setRegion(MapViewFixtures.monacoRegion, animated: true)
        XCTAssertFalse(map.isAnimating)
        map.frame = CGRect(x: 0, y: 0, width: 300, height: 600)
        XCTAssertEqual(delegate.log, ["will(false)", "visible", "did(false)"])
        XCTAssertEqual(map.region.center.latitude, MapViewFixtures.monacoRegion.center.latitude, accuracy: 1e-9)
        XCTAssertGreaterThanOrEqual(map.region.span.latitudeDelta, MapViewFixtures.monacoRegion.span.latitudeDelta - 1e-9)
        XCTAssertEqual(map.region.span.longitudeDelta, MapViewFixtures.monacoRegion.span.longitudeDelta, accuracy: 1e-9)
        // Shrinking back to nothing keeps the centre and shows nothing.
        map.frame = .zero
        XCTAssertEqual(map.centerCoordinate.latitude, MapViewFixtures.monacoRegion.center.latitude, accuracy: 1e-9)
    }
}
