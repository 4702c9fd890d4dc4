import XCTest
import MapGeometry

final class RegionTests: XCTestCase {
    func testMetresAreFullExtents() {
        // Apple's behaviour: 1000 m north–south is about 0.009° of latitude (the full extent).
        let region = MKCoordinateRegion(center: CLLocationCoordinate2D(latitude: 0, longitude: 0),
                                        latitudinalMeters: 1000, longitudinalMeters: 1000)
        XCTAssertEqual(region.span.latitudeDelta, 0.009, accuracy: 0.0001)
        // WGS84: the meridian arc is 110 574.3 m per degree at the equator, the parallel 111 319.5 m.
        XCTAssertEqual(region.span.latitudeDelta, 1000 / 110_574.27, accuracy: 1e-8)
        XCTAssertEqual(region.span.longitudeDelta, 1000 / 111_319.49, accuracy: 1e-8)
    }

    func testLongitudeDegreesShrinkWithLatitude() {
        let at60 = MKCoordinateRegion(center: CLLocationCoordinate2D(latitude: 60, longitude: 10),
                                      latitudinalMeters: 2000, longitudinalMeters: 2000)
        // A degree of longitude at 60° is about half as long as at the equator: N cos φ · π/180
        // = 55 800.0 m on WGS84 (the sphere's 55 659.7 m would be 0.25 % off).
        XCTAssertEqual(at60.span.longitudeDelta, 2000 / 55_800.0, accuracy: 1e-6 * at60.span.longitudeDelta)
        XCTAssertEqual(at60.span.latitudeDelta, 2000 / 111_412.0, accuracy: 1e-6)
    }

    func testRegionRectRoundTripsAtHighLatitudes() {
        for latitude in [-70.0, 0, 43.7384, 60, 80] {
            let region = MKCoordinateRegion(center: CLLocationCoordinate2D(latitude: latitude, longitude: 7.4),
                                            span: MKCoordinateSpan(latitudeDelta: 3, longitudeDelta: 5))
            let back = MKCoordinateRegion(MKMapRect(region))
            XCTAssertEqual(back.center.latitude, latitude, accuracy: 1e-9, "latitude \(latitude)")
            XCTAssertEqual(back.center.longitude, 7.4, accuracy: 1e-9)
            XCTAssertEqual(back.span.latitudeDelta, 3, accuracy: 1e-9, "latitude \(latitude)")
            XCTAssertEqual(back.span.longitudeDelta, 5, accuracy: 1e-9)

            let rect = MKMapRect(x: 1e8, y: MKMapPoint(CLLocationCoordinate2D(latitude: latitude, longitude: 0)).y, width: 3e5, height: 2e5)
            let again = MKMapRect(MKCoordinateRegion(rect))
            XCTAssertEqual(again.minX, rect.minX, accuracy: 1e-4)
            XCTAssertEqual(again.minY, rect.minY, accuracy: 1e-4)
            XCTAssertEqual(again.width, rect.width, accuracy: 1e-4)
            XCTAssertEqual(again.height, rect.height, accuracy: 1e-4)
        }
    }

    func testRegionOfTheWorld() {
        let world = MKCoordinateRegion(MKMapRect.world)
        XCTAssertEqual(world.center.latitude, 0, accuracy: 1e-12)
        XCTAssertEqual(world.center.longitude, 0, accuracy: 1e-12)
        XCTAssertEqual(world.span.latitudeDelta, 2 * MKMercatorMaximumLatitude, accuracy: 1e-9)
        XCTAssertEqual(world.span.longitudeDelta, 360, accuracy: 1e-12)
        // A region taller than Mercator can show is cut at the world's edges.
        let tall = MKMapRect(MKCoordinateRegion(center: CLLocationCoordinate2D(latitude: 80, longitude: 0),
                                                span: MKCoordinateSpan(latitudeDelta: 60, longitudeDelta: 10)))
        XCTAssertEqual(tall.minY, 0, accuracy: 1e-6)
        XCTAssertLessThanOrEqual(tall.maxY, MKMapSize.worldWidth)
    }

    func testValidity() {
        XCTAssertTrue(MKCoordinateRegion(center: CLLocationCoordinate2D(), span: MKCoordinateSpan(latitudeDelta: 180, longitudeDelta: 360)).isValid)
        XCTAssertFalse(MKCoordinateRegion(center: CLLocationCoordinate2D(latitude: 91, longitude: 0), span: MKCoordinateSpan()).isValid)
        XCTAssertFalse(MKCoordinateRegion(center: CLLocationCoordinate2D(), span: MKCoordinateSpan(latitudeDelta: -1, longitudeDelta: 1)).isValid)
        XCTAssertFalse(MKCoordinateRegion(center: CLLocationCoordinate2D(), span: MKCoordinateSpan(latitudeDelta: 1, longitudeDelta: 361)).isValid)
        XCTAssertFalse(MKCoordinateRegion(center: CLLocationCoordinate2D(), span: MKCoordinateSpan(latitudeDelta: .nan, longitudeDelta: 1)).isValid)
        XCTAssertTrue(MKCoordinateRegion(MKMapRect.null).span == MKCoordinateSpan())
    }

    func testHostileSpansDoNotHang() {
        for delta in [Double.nan, .infinity, -5, 1e300] {
            let rect = MKMapRect(MKCoordinateRegion(center: CLLocationCoordinate2D(latitude: 10, longitude: 10),
                                                    span: MKCoordinateSpan(latitudeDelta: delta, longitudeDelta: 1)))
            XCTAssertTrue(rect.height == 0 || rect.height <= MKMapSize.worldWidth, "\(delta)")
        }
    }
}
