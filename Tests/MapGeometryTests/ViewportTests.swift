import Foundation
import XCTest
import MapGeometry

final class ViewportTests: XCTestCase {
    let monaco = CLLocationCoordinate2D(latitude: 43.7384, longitude: 7.4246)

    func testZoomConventionIs512PointWorldAtZoomZero() {
        let world = MapViewport(size: CGSize(width: 512, height: 512), centerCoordinate: CLLocationCoordinate2D(), zoomLevel: 0)
        let rect = world.visibleMapRect
        XCTAssertEqual(rect.minX, 0, accuracy: 1e-6)
        XCTAssertEqual(rect.minY, 0, accuracy: 1e-6)
        XCTAssertEqual(rect.width, MKMapSize.worldWidth, accuracy: 1e-6)
        XCTAssertEqual(rect.height, MKMapSize.worldWidth, accuracy: 1e-6)
        // At zoom 19 one screen point is one map point; each level halves it.
        XCTAssertEqual(MapViewport(size: CGSize(width: 1, height: 1), centerCoordinate: monaco, zoomLevel: 19).mapPointsPerPoint, 1)
        XCTAssertEqual(MapViewport(size: CGSize(width: 1, height: 1), centerCoordinate: monaco, zoomLevel: 17).mapPointsPerPoint, 4)
        // Metres per point at the equator, zoom 0: the equator's 40 075 016.686 m over 512 points.
        XCTAssertEqual(world.metersPerPoint, 40_075_016.686 / 512, accuracy: 1e-3)
    }

    func testCameraDistanceAndZoomAreInverse() {
        let viewport = MapViewport(size: CGSize(width: 800, height: 600), centerCoordinate: monaco, zoomLevel: 14.5)
        // 1.5 view heights at the centre's scale.
        XCTAssertEqual(viewport.centerCoordinateDistance, 1.5 * 600 * viewport.metersPerPoint, accuracy: 1e-9)
        let zoom = MapViewport.zoomLevel(forCenterCoordinateDistance: viewport.centerCoordinateDistance,
                                         latitude: monaco.latitude, viewHeight: 600)
        XCTAssertEqual(zoom, 14.5, accuracy: 1e-12)
        let camera = MKMapCamera(lookingAtCenter: monaco, fromDistance: viewport.centerCoordinateDistance, pitch: 30, heading: 45)
        let fromCamera = MapViewport(size: CGSize(width: 800, height: 600), camera: camera)
        XCTAssertEqual(fromCamera.zoomLevel, 14.5, accuracy: 1e-12)
        XCTAssertEqual(fromCamera.heading, 45)
        XCTAssertEqual(fromCamera.pitch, 30)
        XCTAssertEqual(fromCamera.camera.centerCoordinateDistance, camera.centerCoordinateDistance, accuracy: 1e-6)
        // Twice the distance is one zoom level out.
        XCTAssertEqual(MapViewport.zoomLevel(forCenterCoordinateDistance: 2 * viewport.centerCoordinateDistance,
                                             latitude: monaco.latitude, viewHeight: 600), 13.5, accuracy: 1e-12)
    }

    func testRegionThatFitsKeepsCentreAndGrowsToAspect() {
        let viewport = MapViewport(size: CGSize(width: 400, height: 200), centerCoordinate: monaco, zoomLevel: 10)
        let region = MKCoordinateRegion(center: monaco, latitudinalMeters: 5000, longitudinalMeters: 1000)
        let fitted = viewport.regionThatFits(region)
        XCTAssertEqual(fitted.center.latitude, region.center.latitude, accuracy: 1e-9)
        XCTAssertEqual(fitted.center.longitude, region.center.longitude, accuracy: 1e-9)
        XCTAssertEqual(fitted.span.latitudeDelta, region.span.latitudeDelta, accuracy: 1e-9) // the tall side binds
        XCTAssertGreaterThan(fitted.span.longitudeDelta, region.span.longitudeDelta)
        let rect = MKMapRect(fitted)
        XCTAssertEqual(rect.width / rect.height, 2, accuracy: 1e-9) // aspect ratio in projected space
        XCTAssertTrue(rect.insetBy(dx: -1e-6, dy: -1e-6).contains(MKMapRect(region)))
    }

    func testSettingARegionReadsBackTheFittedRegion() {
        let region = MKCoordinateRegion(center: monaco, latitudinalMeters: 2000, longitudinalMeters: 2000)
        let viewport = MapViewport(size: CGSize(width: 600, height: 300), region: region)
        let read = viewport.region
        XCTAssertNotEqual(read, region)
        XCTAssertEqual(read.center.latitude, monaco.latitude, accuracy: 1e-9)
        XCTAssertEqual(read.center.longitude, monaco.longitude, accuracy: 1e-9)
        XCTAssertEqual(read.span.latitudeDelta, region.span.latitudeDelta, accuracy: 1e-9)
        XCTAssertEqual(read.span.longitudeDelta, viewport.regionThatFits(region).span.longitudeDelta, accuracy: 1e-9)
    }

    func testMapRectThatFitsWithEdgePadding() {
        let viewport = MapViewport(size: CGSize(width: 300, height: 300), centerCoordinate: monaco, zoomLevel: 10)
        let target = MKMapRect(x: 1000, y: 2000, width: 800, height: 400)
        let padding = MKEdgeInsets(top: 10, left: 50, bottom: 90, right: 50)
        let fitted = viewport.mapRectThatFits(target, edgePadding: padding)
        // 200 × 200 points remain: the 800-wide rect binds, 4 map points per point.
        XCTAssertEqual(fitted, MKMapRect(x: 1000 - 50 * 4, y: 2200 - (10 + 100) * 4, width: 1200, height: 1200))
        let padded = MapViewport(size: CGSize(width: 300, height: 300), visibleMapRect: target, edgePadding: padding)
        let p = padded.point(for: MKMapPoint(x: target.minX, y: target.midY))
        XCTAssertEqual(Double(p.x), 50, accuracy: 1e-6)
        XCTAssertEqual(Double(p.y), 10 + 100, accuracy: 1e-6)
        // Padding wider than the view is ignored rather than inverting the rectangle.
        let silly = viewport.mapRectThatFits(target, edgePadding: MKEdgeInsets(top: 0, left: 400, bottom: 0, right: 0))
        XCTAssertEqual(silly, viewport.mapRectThatFits(target))
        XCTAssertTrue(viewport.mapRectThatFits(.null).isNull)
    }

    func testFittingWithoutAScaleKeepsTheCentre() {
        let target = MKMapRect(MKCoordinateRegion(center: monaco, span: MKCoordinateSpan(latitudeDelta: 0.02, longitudeDelta: 0.02)))
        // A zero-size view cannot fit a scale, but it still looks at the rect.
        let unsized = MapViewport(size: CGSize(width: 0, height: 0), visibleMapRect: target)
        XCTAssertEqual(unsized.centerCoordinate.latitude, monaco.latitude, accuracy: 1e-6)
        XCTAssertEqual(unsized.centerCoordinate.longitude, monaco.longitude, accuracy: 1e-6)
        XCTAssertEqual(unsized.zoomLevel, 0)
        // A point (zero-area rect) in a sized view: centred there.
        let point = MKMapPoint(monaco)
        let atPoint = MapViewport(size: CGSize(width: 300, height: 200), visibleMapRect: MKMapRect(x: point.x, y: point.y, width: 0, height: 0))
        XCTAssertEqual(atPoint.centerCoordinate.longitude, monaco.longitude, accuracy: 1e-9)
        XCTAssertEqual(atPoint.zoomLevel, 0)
        // Null and non-finite rects leave the default viewport.
        XCTAssertEqual(MapViewport(size: CGSize(width: 300, height: 200), visibleMapRect: .null).centerCoordinate.latitude, 0)
        let nan = MapViewport(size: CGSize(width: 300, height: 200), visibleMapRect: MKMapRect(x: .nan, y: 0, width: 10, height: 10))
        XCTAssertEqual(nan.centerCoordinate.longitude, 0)
        XCTAssertTrue(nan.zoomLevel.isFinite)
    }

    func testPointCoordinateConversionNorthUp() {
        let viewport = MapViewport(size: CGSize(width: 400, height: 300), centerCoordinate: monaco, zoomLevel: 15)
        let center = viewport.convert(monaco)
        XCTAssertEqual(Double(center.x), 200, accuracy: 1e-9)
        XCTAssertEqual(Double(center.y), 150, accuracy: 1e-9)
        let east = viewport.convert(CLLocationCoordinate2D(latitude: monaco.latitude, longitude: monaco.longitude + 0.001))
        XCTAssertGreaterThan(Double(east.x), 200)
        XCTAssertEqual(Double(east.y), 150, accuracy: 1e-9)
        // The top-left corner of the view is the visible rect's top-left corner.
        let corner = viewport.convert(CGPoint(x: 0, y: 0))
        let rect = viewport.visibleMapRect
        XCTAssertEqual(MKMapPoint(corner).x, rect.minX, accuracy: 1e-6)
        XCTAssertEqual(MKMapPoint(corner).y, rect.minY, accuracy: 1e-6)
        XCTAssertEqual(rect.width, 400 * viewport.mapPointsPerPoint, accuracy: 1e-6)
    }

    func testHeadingTurnsTheMap() {
        let viewport = MapViewport(size: CGSize(width: 400, height: 400), centerCoordinate: monaco, zoomLevel: 15, heading: 90)
        // Facing east: a point east of the centre appears straight above it.
        let east = viewport.convert(CLLocationCoordinate2D(latitude: monaco.latitude, longitude: monaco.longitude + 0.001))
        XCTAssertEqual(Double(east.x), 200, accuracy: 1e-6)
        XCTAssertLessThan(Double(east.y), 200)
        // …and north is to the left.
        let north = viewport.convert(CLLocationCoordinate2D(latitude: monaco.latitude + 0.001, longitude: monaco.longitude))
        XCTAssertLessThan(Double(north.x), 200)
        XCTAssertEqual(Double(north.y), 200, accuracy: 1e-6)
        // A rotated view's bounding rectangle is larger than the north-up one (√2 at 45°).
        let turned = MapViewport(size: CGSize(width: 400, height: 400), centerCoordinate: monaco, zoomLevel: 15, heading: 45)
        let flat = MapViewport(size: CGSize(width: 400, height: 400), centerCoordinate: monaco, zoomLevel: 15)
        XCTAssertEqual(turned.visibleMapRect.width / flat.visibleMapRect.width, 2.0.squareRoot(), accuracy: 1e-9)
    }

    func testRoundTripsWithHeadingAndPitch() {
        for (heading, pitch) in [(0.0, 0.0), (30, 0), (0, 45), (217, 60), (359, 20)] {
            let viewport = MapViewport(size: CGSize(width: 640, height: 480), centerCoordinate: monaco, zoomLevel: 14,
                                       heading: heading, pitch: pitch)
            for point in [CGPoint(x: 0, y: 0), CGPoint(x: 640, y: 0), CGPoint(x: 320, y: 240), CGPoint(x: 17, y: 470)] {
                let back = viewport.convert(viewport.convert(point))
                XCTAssertEqual(Double(back.x), Double(point.x), accuracy: 1e-6, "heading \(heading) pitch \(pitch)")
                XCTAssertEqual(Double(back.y), Double(point.y), accuracy: 1e-6, "heading \(heading) pitch \(pitch)")
            }
        }
    }

    func testPitchShowsMoreGroundTowardTheTop() {
        let flat = MapViewport(size: CGSize(width: 400, height: 400), centerCoordinate: monaco, zoomLevel: 15)
        let pitched = MapViewport(size: CGSize(width: 400, height: 400), centerCoordinate: monaco, zoomLevel: 15, pitch: 45)
        // The centre stays put; the top edge shows ground much farther away than the bottom edge
        // (the ground is foreshortened by cos(pitch) at the centre, so even the bottom reaches
        // a little farther than when flat).
        let centerY = MKMapPoint(monaco).y
        XCTAssertEqual(MKMapPoint(pitched.convert(CGPoint(x: 200, y: 200))).x, MKMapPoint(monaco).x, accuracy: 1e-6)
        let topFlat = MKMapPoint(flat.convert(CGPoint(x: 200, y: 0))).y
        let topPitched = MKMapPoint(pitched.convert(CGPoint(x: 200, y: 0))).y
        XCTAssertLessThan(topPitched, topFlat)
        let bottomPitched = MKMapPoint(pitched.convert(CGPoint(x: 200, y: 400))).y
        // Exact for H = 600 points, p = 45°: 200 points below the centre is 212.13 points of ground, above it 424.26.
        XCTAssertEqual((bottomPitched - centerY) / pitched.mapPointsPerPoint, 150 * 2.0.squareRoot(), accuracy: 1e-6)
        XCTAssertEqual((centerY - topPitched) / pitched.mapPointsPerPoint, 300 * 2.0.squareRoot(), accuracy: 1e-6)
        XCTAssertTrue(pitched.visibleMapRect.height > flat.visibleMapRect.height)
        // Pitch beyond the maximum is clamped, so every ray still meets the ground.
        let steep = MapViewport(size: CGSize(width: 400, height: 400), centerCoordinate: monaco, zoomLevel: 15, pitch: 89)
        XCTAssertEqual(steep.camera.pitch, MapViewport.maximumPitch)
        XCTAssertTrue(steep.visibleMapRect.height.isFinite)
    }

    func testRegionAndRectConversions() {
        let viewport = MapViewport(size: CGSize(width: 500, height: 500), centerCoordinate: monaco, zoomLevel: 13)
        let region = MKCoordinateRegion(center: monaco, latitudinalMeters: 1000, longitudinalMeters: 1000)
        let rect = viewport.convert(region)
        XCTAssertEqual(Double(rect.midX), 250, accuracy: 1e-6)
        XCTAssertEqual(Double(rect.midY), 250, accuracy: 1e-6)
        let back = viewport.convert(rect)
        XCTAssertEqual(back.span.latitudeDelta, region.span.latitudeDelta, accuracy: 1e-9)
        XCTAssertEqual(back.span.longitudeDelta, region.span.longitudeDelta, accuracy: 1e-9)
        XCTAssertEqual(back.center.latitude, region.center.latitude, accuracy: 1e-9)
    }

    func testAntimeridianViewport() {
        let center = CLLocationCoordinate2D(latitude: -17, longitude: 179.9)
        let viewport = MapViewport(size: CGSize(width: 800, height: 400), centerCoordinate: center, zoomLevel: 8)
        XCTAssertTrue(viewport.visibleMapRect.spans180thMeridian)
        // Fiji's far side: −179.9° sits just right of the centre, not a world away.
        let across = viewport.convert(CLLocationCoordinate2D(latitude: -17, longitude: -179.9))
        XCTAssertGreaterThan(Double(across.x), 400)
        XCTAssertLessThan(Double(across.x), 800)
        let back = viewport.convert(across)
        XCTAssertEqual(back.longitude, -179.9, accuracy: 1e-9)
    }
}
