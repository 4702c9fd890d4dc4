import XCTest
import MapGeometry

/// Spherical Mercator against the numbers in the MapKit inventory (section 25) and MapKit's
/// documented rectangle rules.
final class MapProjectionTests: XCTestCase {
    func testWorldSize() {
        XCTAssertEqual(MKMapSize.world, MKMapSize(width: 268_435_456, height: 268_435_456))
        XCTAssertEqual(MKMapRect.world, MKMapRect(x: 0, y: 0, width: 268_435_456, height: 268_435_456))
        XCTAssertEqual(MKMapRect.worldRect, MKMapRect.world)
    }

    func testReferencePoints() {
        let origin = MKMapPoint(CLLocationCoordinate2D(latitude: 0, longitude: 0))
        XCTAssertEqual(origin.x, 134_217_728, accuracy: 1e-6)
        XCTAssertEqual(origin.y, 134_217_728, accuracy: 1e-6)

        let corner = MKMapPoint(CLLocationCoordinate2D(latitude: 85.0511287798, longitude: -180))
        XCTAssertEqual(corner.x, 0, accuracy: 1e-6)
        XCTAssertEqual(corner.y, 0, accuracy: 0.01)

        let centralPark = MKMapPoint(CLLocationCoordinate2D(latitude: 40.773957, longitude: -73.970974))
        XCTAssertEqual(centralPark.x, 79_060_972.07, accuracy: 0.01)
        XCTAssertEqual(centralPark.y, 100_866_387.56, accuracy: 0.01)
    }

    func testLatitudesBeyondMercatorLimitClamp() {
        let north = MKMapPoint(CLLocationCoordinate2D(latitude: 89.9, longitude: 0))
        let pole = MKMapPoint(CLLocationCoordinate2D(latitude: 90, longitude: 0))
        XCTAssertEqual(north.y, 0, accuracy: 1e-6)
        XCTAssertEqual(pole.y, 0, accuracy: 1e-6)
        let south = MKMapPoint(CLLocationCoordinate2D(latitude: -90, longitude: 0))
        XCTAssertEqual(south.y, MKMapSize.worldWidth, accuracy: 1e-6)
        XCTAssertEqual(MKMapPoint(x: 0, y: 0).coordinate.latitude, MKMercatorMaximumLatitude, accuracy: 1e-12)
    }

    func testRoundTripsAtHighLatitudes() {
        for latitude in [-85.0, -80, -60, -33.87, 0, 1e-9, 43.7384, 60, 80, 85] {
            for longitude in [-180.0, -179.999, -73.97, 0, 7.4246, 179.999] {
                let c = CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
                let back = MKMapPoint(c).coordinate
                XCTAssertEqual(back.latitude, latitude, accuracy: 1e-9)
                XCTAssertEqual(back.longitude, longitude, accuracy: 1e-9)
            }
        }
    }

    func testScaleWithLatitude() {
        XCTAssertEqual(MKMapPointsPerMeterAtLatitude(0), 6.6983, accuracy: 1e-4)
        XCTAssertEqual(MKMapPointsPerMeterAtLatitude(45), 9.4729, accuracy: 1e-4)
        XCTAssertEqual(MKMapPointsPerMeterAtLatitude(60), 13.3966, accuracy: 1e-4)
        XCTAssertEqual(MKMapPointsPerMeterAtLatitude(80), 38.574, accuracy: 1e-3)
        XCTAssertEqual(MKMetersPerMapPointAtLatitude(0), 0.149291, accuracy: 1e-6)
        // Southern latitudes mirror northern ones.
        XCTAssertEqual(MKMetersPerMapPointAtLatitude(-60), MKMetersPerMapPointAtLatitude(60), accuracy: 1e-15)
        // 1° of latitude on the Mercator sphere ≈ 111 319.49 m, Apple's "about 111 km".
        let oneDegree = MKMapPoint(CLLocationCoordinate2D(latitude: 0, longitude: 1)).x - MKMapPoint(CLLocationCoordinate2D(latitude: 0, longitude: 0)).x
        XCTAssertEqual(oneDegree * MKMetersPerMapPointAtLatitude(0), 111_319.49, accuracy: 0.01)
    }

    func testMercatorMidpointIsNotTheAverageLatitude() {
        let rect = MKMapRect(MKCoordinateRegion(center: CLLocationCoordinate2D(latitude: 70, longitude: 0),
                                                span: MKCoordinateSpan(latitudeDelta: 20, longitudeDelta: 20)))
        let north = MKMapPoint(x: rect.minX, y: rect.minY).coordinate.latitude
        let south = MKMapPoint(x: rect.minX, y: rect.maxY).coordinate.latitude
        XCTAssertEqual(north - south, 20, accuracy: 1e-9)
        XCTAssertEqual(MKMapPoint(x: rect.midX, y: rect.midY).coordinate.latitude, 70, accuracy: 1e-9)
        // Mercator stretches the north, so fewer degrees fit above the centre than below it:
        // the edges are about 77.73° and 57.73°, not 70 ± 10.
        XCTAssertEqual(north, 77.7312555, accuracy: 1e-6)
        XCTAssertGreaterThan(70 - south, north - 70)
    }

    // MARK: - MKMapRect

    func testNullRect() {
        XCTAssertTrue(MKMapRect.null.isNull)
        XCTAssertTrue(MKMapRect.null.isEmpty)
        XCTAssertEqual(MKMapRect.null.minX, .infinity)
        XCTAssertEqual(MKMapRect.null.size, MKMapSize(width: 0, height: 0))
        XCTAssertFalse(MKMapRect().isNull)
        XCTAssertTrue(MKMapRect().isEmpty)
        let r = MKMapRect(x: 1, y: 2, width: 3, height: 4)
        XCTAssertEqual(r.union(.null), r)
        XCTAssertEqual(MKMapRect.null.union(r), r)
        XCTAssertTrue(r.intersection(.null).isNull)
        XCTAssertFalse(r.intersects(.null))
        XCTAssertFalse(r.contains(MKMapRect.null))
    }

    func testGeometryAccessors() {
        let r = MKMapRect(x: 10, y: 20, width: 30, height: 40)
        XCTAssertEqual([r.minX, r.midX, r.maxX, r.minY, r.midY, r.maxY, r.width, r.height], [10, 25, 40, 20, 40, 60, 30, 40])
        XCTAssertFalse(r.isEmpty)
        XCTAssertTrue(MKMapRect(x: 0, y: 0, width: 5, height: 0).isEmpty)
    }

    func testBoundingRect() {
        XCTAssertTrue(MKMapRect(boundingPoints: [MKMapPoint]()).isNull)
        XCTAssertEqual(MKMapRect(boundingPoints: [MKMapPoint(x: 3, y: 9), MKMapPoint(x: -1, y: 4), MKMapPoint(x: 2, y: 5)]),
                       MKMapRect(x: -1, y: 4, width: 4, height: 5))
        XCTAssertEqual(MKMapRect(boundingPoints: [MKMapPoint(x: 7, y: 7)]), MKMapRect(x: 7, y: 7, width: 0, height: 0))
    }

    func testContainsIsHalfOpen() {
        let r = MKMapRect(x: 0, y: 0, width: 10, height: 10)
        XCTAssertTrue(r.contains(MKMapPoint(x: 0, y: 0)))
        XCTAssertTrue(r.contains(MKMapPoint(x: 9.999, y: 5)))
        XCTAssertFalse(r.contains(MKMapPoint(x: 10, y: 5)))
        XCTAssertFalse(r.contains(MKMapPoint(x: 5, y: 10)))
        XCTAssertTrue(r.contains(r))
        XCTAssertTrue(r.contains(MKMapRect(x: 2, y: 2, width: 8, height: 8)))
        XCTAssertFalse(r.contains(MKMapRect(x: 2, y: 2, width: 9, height: 8)))
    }

    func testUnionAndIntersection() {
        let a = MKMapRect(x: 0, y: 0, width: 10, height: 10)
        let b = MKMapRect(x: 5, y: -5, width: 10, height: 10)
        XCTAssertEqual(a.union(b), MKMapRect(x: 0, y: -5, width: 15, height: 15))
        XCTAssertEqual(a.intersection(b), MKMapRect(x: 5, y: 0, width: 5, height: 5))
        XCTAssertTrue(a.intersects(b))
        let far = MKMapRect(x: 20, y: 20, width: 1, height: 1)
        XCTAssertTrue(a.intersection(far).isNull)
        XCTAssertFalse(a.intersects(far))
        // Touching along an edge: an empty intersection, and no overlap.
        let touching = MKMapRect(x: 10, y: 0, width: 5, height: 5)
        XCTAssertEqual(a.intersection(touching), MKMapRect(x: 10, y: 0, width: 0, height: 5))
        XCTAssertFalse(a.intersects(touching))
    }

    func testInsetOffsetDivide() {
        let r = MKMapRect(x: 0, y: 0, width: 10, height: 20)
        XCTAssertEqual(r.insetBy(dx: 2, dy: 3), MKMapRect(x: 2, y: 3, width: 6, height: 14))
        XCTAssertEqual(r.insetBy(dx: -1, dy: -1), MKMapRect(x: -1, y: -1, width: 12, height: 22))
        XCTAssertTrue(r.insetBy(dx: 6, dy: 0).isNull)
        XCTAssertEqual(r.offsetBy(dx: 5, dy: -5), MKMapRect(x: 5, y: -5, width: 10, height: 20))

        let (slice, rest) = r.divided(atDistance: 4, from: .minXEdge)
        XCTAssertEqual(slice, MKMapRect(x: 0, y: 0, width: 4, height: 20))
        XCTAssertEqual(rest, MKMapRect(x: 4, y: 0, width: 6, height: 20))
        let (top, bottom) = r.divided(atDistance: 5, from: .maxYEdge)
        XCTAssertEqual(top, MKMapRect(x: 0, y: 15, width: 10, height: 5))
        XCTAssertEqual(bottom, MKMapRect(x: 0, y: 0, width: 10, height: 15))
        let (all, none) = r.divided(atDistance: 50, from: .maxXEdge)
        XCTAssertEqual(all, r)
        XCTAssertEqual(none.width, 0)
    }

    // MARK: - The 180th meridian

    func testSpans180thMeridianAndRemainder() {
        let w = MKMapSize.worldWidth
        let inside = MKMapRect(x: 100, y: 100, width: 1000, height: 1000)
        XCTAssertFalse(inside.spans180thMeridian)
        XCTAssertTrue(inside.remainder.isNull)
        XCTAssertFalse(MKMapRect.world.spans180thMeridian)

        let east = MKMapRect(x: w - 1000, y: 50, width: 3000, height: 10)
        XCTAssertTrue(east.spans180thMeridian)
        XCTAssertEqual(east.remainder, MKMapRect(x: 0, y: 50, width: 2000, height: 10))
        XCTAssertEqual(east.worldPieces, [MKMapRect(x: w - 1000, y: 50, width: 1000, height: 10),
                                          MKMapRect(x: 0, y: 50, width: 2000, height: 10)])

        let west = MKMapRect(x: -500, y: 0, width: 1500, height: 10)
        XCTAssertTrue(west.spans180thMeridian)
        XCTAssertEqual(west.remainder, MKMapRect(x: w - 500, y: 0, width: 500, height: 10))
    }

    func testRegionAcrossTheAntimeridian() {
        // A region centred at 179° with longitudeDelta 4 covers 177° … 181°, that is 177° … −179°.
        // (The inventory's "177° … −177°" is an arithmetic slip: 179 + 2 = 181 = −179.)
        let region = MKCoordinateRegion(center: CLLocationCoordinate2D(latitude: 10, longitude: 179),
                                        span: MKCoordinateSpan(latitudeDelta: 2, longitudeDelta: 4))
        let rect = MKMapRect(region)
        XCTAssertTrue(rect.spans180thMeridian)
        let pieces = rect.worldPieces
        XCTAssertEqual(pieces.count, 2)
        XCTAssertEqual(MKMapPoint(x: pieces[0].minX, y: 0).coordinate.longitude, 177, accuracy: 1e-9)
        XCTAssertEqual(MKMapPoint(x: pieces[0].maxX, y: 0).coordinate.longitude, 180, accuracy: 1e-9)
        XCTAssertEqual(MKMapPoint(x: pieces[1].minX, y: 0).coordinate.longitude, -180, accuracy: 1e-9)
        XCTAssertEqual(MKMapPoint(x: pieces[1].maxX, y: 0).coordinate.longitude, -179, accuracy: 1e-9)
        // Back to a region: the centre longitude is wrapped into −180…180.
        let back = MKCoordinateRegion(rect)
        XCTAssertEqual(back.center.longitude, 179, accuracy: 1e-9)
        XCTAssertEqual(back.span.longitudeDelta, 4, accuracy: 1e-9)
        // A point just across the meridian is inside one of the pieces.
        let across = MKMapPoint(CLLocationCoordinate2D(latitude: 10, longitude: -179.5))
        XCTAssertFalse(rect.contains(across))
        XCTAssertTrue(pieces.contains { $0.contains(across) })
    }

    func testNormalizedLongitude() {
        XCTAssertEqual(normalizedLongitude(181), -179, accuracy: 1e-12)
        XCTAssertEqual(normalizedLongitude(-181), 179, accuracy: 1e-12)
        XCTAssertEqual(normalizedLongitude(540), -180, accuracy: 1e-12)
        XCTAssertEqual(normalizedLongitude(180), 180)
        XCTAssertEqual(normalizedLongitude(-180), -180)
        XCTAssertEqual(normalizedLongitude(725), 5, accuracy: 1e-12)
        XCTAssertTrue(normalizedLongitude(.nan).isNaN)
    }

    func testCoordinateValidity() {
        XCTAssertTrue(CLLocationCoordinate2DIsValid(CLLocationCoordinate2D(latitude: 90, longitude: -180)))
        XCTAssertFalse(CLLocationCoordinate2DIsValid(kCLLocationCoordinate2DInvalid))
        XCTAssertFalse(CLLocationCoordinate2DIsValid(CLLocationCoordinate2D(latitude: .nan, longitude: 0)))
        XCTAssertFalse(CLLocationCoordinate2DIsValid(CLLocationCoordinate2D(latitude: 0, longitude: 180.0001)))
    }

    func testCoordinateCodableAndHashable() throws {
        let c = CLLocationCoordinate2D(latitude: 43.7384, longitude: 7.4246)
        let data = try JSONEncoder().encode(c)
        XCTAssertEqual(try JSONDecoder().decode(CLLocationCoordinate2D.self, from: data), c)
        XCTAssertEqual(Set([c, c, CLLocationCoordinate2D()]).count, 2)
    }
}
