import XCTest
@testable import MapGeometry

final class PolygonMeasuresTests: XCTestCase {
    private func pts(_ xy: [(Double, Double)]) -> [MKMapPoint] { xy.map { MKMapPoint(x: $0.0, y: $0.1) } }
    private func coords(_ latLon: [(Double, Double)]) -> [CLLocationCoordinate2D] {
        latLon.map { CLLocationCoordinate2D(latitude: $0.0, longitude: $0.1) }
    }

    /// Top-left, top-right, bottom-right, bottom-left on screen: clockwise on a north-up map.
    private let clockwiseSquare: [MKMapPoint] = [MKMapPoint(x: 0, y: 0), MKMapPoint(x: 10, y: 0),
                                                 MKMapPoint(x: 10, y: 10), MKMapPoint(x: 0, y: 10)]

    // MARK: Signed area and orientation

    func testSignedAreaSignConventionInMapPoints() {
        XCTAssertEqual(PlanarPolygon.signedArea(clockwiseSquare), 100)
        XCTAssertEqual(PlanarPolygon.signedArea(Array(clockwiseSquare.reversed())), -100)
        XCTAssertEqual(PlanarPolygon.signedArea(clockwiseSquare + [clockwiseSquare[0]]), 100)
        XCTAssertTrue(PlanarPolygon.isClockwise(clockwiseSquare))
        XCTAssertFalse(PlanarPolygon.isClockwise(Array(clockwiseSquare.reversed())))
        XCTAssertEqual(PlanarPolygon.signedArea(pts([(0, 0), (4, 0), (0, 3)])), 6)
    }

    func testSignedAreaSignConventionInCoordinates() {
        // (lon, lat): (0,0) → (10,0) → (10,10) → (0,10) goes east then north: counter-clockwise.
        let ring = coords([(0, 0), (0, 10), (10, 10), (10, 0)])
        XCTAssertEqual(PlanarPolygon.signedArea(ring), 100)
        XCTAssertFalse(PlanarPolygon.isClockwise(ring))
        XCTAssertTrue(PlanarPolygon.isClockwise(Array(ring.reversed())))
        // Projected, the same ring has the opposite sign but the same orientation on the map.
        let projected = ring.map(MKMapPoint.init)
        XCTAssertLessThan(PlanarPolygon.signedArea(projected), 0)
        XCTAssertFalse(PlanarPolygon.isClockwise(projected))
    }

    func testDegenerateAreas() {
        XCTAssertEqual(PlanarPolygon.signedArea([MKMapPoint]()), 0)
        XCTAssertEqual(PlanarPolygon.signedArea(pts([(1, 1), (2, 2)])), 0)
        XCTAssertEqual(PlanarPolygon.signedArea(pts([(0, 0), (10, 0), (5, 0)])), 0)
        XCTAssertFalse(PlanarPolygon.isClockwise(pts([(0, 0), (10, 0), (5, 0)])))
        XCTAssertEqual(PlanarPolygon.signedArea([CLLocationCoordinate2D]()), 0)
        XCTAssertEqual(PlanarPolygon.area([]), 0)
    }

    func testAreaKeepsPrecisionFarFromTheOrigin() {
        // A unit square near the map's bottom-right corner (coordinates ≈ 2^28): summing raw products
        // of ~7·10^16 would lose the answer entirely.
        let x = 268_435_400.25, y = 268_435_300.75
        let square = pts([(x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1)])
        XCTAssertEqual(PlanarPolygon.signedArea(square), 1)
        XCTAssertEqual(PlanarPolygon.centroid([square]), MKMapPoint(x: x + 0.5, y: y + 0.5))
    }

    func testAreaWithHolesIgnoresHoleWinding() {
        let hole = pts([(6, 6), (8, 6), (8, 8), (6, 8)])
        XCTAssertEqual(PlanarPolygon.area([clockwiseSquare, hole]), 96)
        XCTAssertEqual(PlanarPolygon.area([clockwiseSquare, Array(hole.reversed())]), 96)
        XCTAssertEqual(PlanarPolygon.area([Array(clockwiseSquare.reversed()), hole]), 96)
    }

    // MARK: Orientation normalisation

    func testOrientForBothConventionsInMapPoints() {
        let hole = pts([(6, 6), (8, 6), (8, 8), (6, 8)])  // clockwise, like the exterior
        let flat = pts([(0, 0), (1, 0), (2, 0)])           // no area: left alone
        let polygon = [clockwiseSquare, hole, flat]

        let geoJSON = PlanarPolygon.oriented(polygon, winding: .rfc7946)
        XCTAssertEqual(geoJSON[0], Array(clockwiseSquare.reversed()))  // exterior counter-clockwise on the map
        XCTAssertEqual(geoJSON[1], hole)                                // holes clockwise
        XCTAssertEqual(geoJSON[2], flat)

        let tile = PlanarPolygon.oriented(polygon, winding: .mapboxVectorTile)
        XCTAssertEqual(tile[0], clockwiseSquare)                        // exterior positive in y-down space
        XCTAssertEqual(tile[1], Array(hole.reversed()))                 // holes negative
        XCTAssertGreaterThan(PlanarPolygon.signedArea(tile[0]), 0)
        XCTAssertLessThan(PlanarPolygon.signedArea(tile[1]), 0)

        var inPlace = polygon
        PlanarPolygon.orient(&inPlace, winding: .rfc7946)
        XCTAssertEqual(inPlace, geoJSON)
        // Idempotent, and closed rings stay closed.
        XCTAssertEqual(PlanarPolygon.oriented(geoJSON, winding: .rfc7946), geoJSON)
        let closed = PlanarPolygon.oriented([clockwiseSquare + [clockwiseSquare[0]]], winding: .rfc7946)[0]
        XCTAssertEqual(closed.first, closed.last)
    }

    func testOrientCoordinates() {
        let ccw = coords([(0, 0), (0, 10), (10, 10), (10, 0)])           // counter-clockwise
        let hole = coords([(2, 2), (3, 2), (3, 3), (2, 3)])              // (lon,lat) (2,2),(2,3),(3,3),(3,2): clockwise
        XCTAssertTrue(PlanarPolygon.isClockwise(hole))
        XCTAssertEqual(PlanarPolygon.oriented([ccw, hole], winding: .rfc7946), [ccw, hole])
        XCTAssertEqual(PlanarPolygon.oriented([ccw, hole], winding: .mapboxVectorTile),
                       [Array(ccw.reversed()), Array(hole.reversed())])
        // The two conventions agree with the map-point versions after projection.
        let projected = PlanarPolygon.oriented([ccw, hole], winding: .mapboxVectorTile).map { $0.map(MKMapPoint.init) }
        XCTAssertEqual(PlanarPolygon.oriented(projected, winding: .mapboxVectorTile), projected)
    }

    // MARK: Centroid

    func testCentroids() {
        XCTAssertEqual(PlanarPolygon.centroid([clockwiseSquare]), MKMapPoint(x: 5, y: 5))
        // An L of two 200-unit rectangles centred at (10,5) and (5,20).
        let l = pts([(0, 0), (20, 0), (20, 10), (10, 10), (10, 30), (0, 30)])
        XCTAssertEqual(PlanarPolygon.centroid([l]), MKMapPoint(x: 7.5, y: 12.5))
        XCTAssertEqual(PlanarPolygon.centroid([Array(l.reversed())]), MKMapPoint(x: 7.5, y: 12.5))
    }

    func testCentroidWithHole() throws {
        // (100·5 − 4·7) / 96 = 59/12 on both axes, whichever way the hole winds.
        let hole = pts([(6, 6), (8, 6), (8, 8), (6, 8)])
        for h in [hole, Array(hole.reversed())] {
            let c = try XCTUnwrap(PlanarPolygon.centroid([clockwiseSquare, h]))
            XCTAssertEqual(c.x, 59.0 / 12, accuracy: 1e-12)
            XCTAssertEqual(c.y, 59.0 / 12, accuracy: 1e-12)
        }
    }

    func testDegenerateCentroids() {
        XCTAssertNil(PlanarPolygon.centroid([]))
        XCTAssertNil(PlanarPolygon.centroid([[]]))
        // No area: the centre of the outline, edges weighted by length (5·2.5 + 10·5 + 5·7.5) / 20.
        XCTAssertEqual(PlanarPolygon.centroid([pts([(0, 0), (10, 0), (5, 0)])]), MKMapPoint(x: 5, y: 0))
        XCTAssertEqual(PlanarPolygon.centroid([pts([(3, 4), (3, 4), (3, 4)])]), MKMapPoint(x: 3, y: 4))
        XCTAssertNil(PlanarPolygon.centroid([pts([(0, 0), (.nan, 0), (5, 5)])]))
    }

    // MARK: Point in polygon

    func testContainsWithHoles() {
        let hole = pts([(4, 4), (6, 4), (6, 6), (4, 6)])
        let polygon = [clockwiseSquare, hole]
        XCTAssertTrue(PlanarPolygon.contains(MKMapPoint(x: 2, y: 2), in: polygon))
        XCTAssertFalse(PlanarPolygon.contains(MKMapPoint(x: 5, y: 5), in: polygon))
        XCTAssertFalse(PlanarPolygon.contains(MKMapPoint(x: 11, y: 5), in: polygon))
        XCTAssertFalse(PlanarPolygon.contains(MKMapPoint(x: -1, y: 5), in: polygon))
        XCTAssertTrue(PlanarPolygon.contains(MKMapPoint(x: 5, y: 7), in: polygon))
        XCTAssertFalse(PlanarPolygon.contains(MKMapPoint(x: 5, y: 5), in: []))
        XCTAssertFalse(PlanarPolygon.contains(MKMapPoint(x: .nan, y: 5), in: polygon))
    }

    func testContainsConcave() {
        // A U: the gap between the arms is outside.
        let u = pts([(0, 0), (10, 0), (10, 20), (20, 20), (20, 0), (30, 0), (30, 30), (0, 30)])
        XCTAssertTrue(PlanarPolygon.contains(MKMapPoint(x: 5, y: 5), in: [u]))
        XCTAssertFalse(PlanarPolygon.contains(MKMapPoint(x: 15, y: 5), in: [u]))
        XCTAssertTrue(PlanarPolygon.contains(MKMapPoint(x: 15, y: 25), in: [u]))
        // A ray through a vertex (y = 20 meets (10,20) and (20,20)) is counted once per crossing.
        XCTAssertTrue(PlanarPolygon.contains(MKMapPoint(x: 5, y: 20), in: [u]))
        XCTAssertFalse(PlanarPolygon.contains(MKMapPoint(x: 15, y: 19.999), in: [u]))
    }

    func testSharedEdgeBelongsToOneSide() {
        let left = pts([(0, 0), (10, 0), (10, 10), (0, 10)])
        let right = pts([(10, 0), (20, 0), (20, 10), (10, 10)])
        for y in [0.5, 3.0, 7.25, 9.5] {
            let p = MKMapPoint(x: 10, y: y)
            let count = [left, right].filter { PlanarPolygon.contains(p, in: [$0]) }.count
            XCTAssertEqual(count, 1, "y = \(y)")
        }
    }

    // MARK: Segment distance (shared by simplification and label placement)

    func testSquaredSegmentDistance() {
        let a = MKMapPoint(x: 0, y: 0), b = MKMapPoint(x: 10, y: 0)
        XCTAssertEqual(PlanarPolygon.squaredSegmentDistance(MKMapPoint(x: 5, y: 5), a, b), 25)
        XCTAssertEqual(PlanarPolygon.squaredSegmentDistance(MKMapPoint(x: 13, y: 4), a, b), 25)   // past b
        XCTAssertEqual(PlanarPolygon.squaredSegmentDistance(MKMapPoint(x: -3, y: -4), a, b), 25)  // before a
        XCTAssertEqual(PlanarPolygon.squaredSegmentDistance(MKMapPoint(x: 3, y: 4), a, a), 25)    // no length
        // (0,5) is |cross| / |b − a| = 40 / 10 = 4 from the segment (0,0)–(8,6).
        XCTAssertEqual(PlanarPolygon.squaredSegmentDistance(MKMapPoint(x: 0, y: 5), a, MKMapPoint(x: 8, y: 6)), 16)
    }

    // MARK: Square metres

    func testAreaInSquareMetersAtTheEquator() {
        // 100 × 100 map points centred on the equator; a map point there is 2π·6 378 137 / 2^28 m.
        let c = MKMapSize.worldWidth / 2
        let square = pts([(c - 50, c - 50), (c + 50, c - 50), (c + 50, c + 50), (c - 50, c + 50)])
        let metersPerPoint = 2 * Double.pi * 6_378_137 / 268_435_456
        XCTAssertEqual(metersPerPoint, 0.149_291_070_869_484_87, accuracy: 1e-15)
        XCTAssertEqual(PlanarPolygon.areaInSquareMeters([square]), 10_000 * metersPerPoint * metersPerPoint,
                       accuracy: 1e-9)
        XCTAssertEqual(PlanarPolygon.areaInSquareMeters([square]), 222.878_238_413_575_5, accuracy: 1e-9)
    }

    func testAreaInSquareMetersAtSixtyDegrees() {
        // At 60° a map point spans half as many metres, so the same square covers a quarter.
        let centre = MKMapPoint(CLLocationCoordinate2D(latitude: 60, longitude: 10))
        let square = pts([(centre.x - 50, centre.y - 50), (centre.x + 50, centre.y - 50),
                          (centre.x + 50, centre.y + 50), (centre.x - 50, centre.y + 50)])
        let hole = pts([(centre.x - 10, centre.y - 10), (centre.x + 10, centre.y - 10),
                        (centre.x + 10, centre.y + 10), (centre.x - 10, centre.y + 10)])
        let metersPerPoint = 2 * Double.pi * 6_378_137 / 268_435_456 * 0.5
        XCTAssertEqual(PlanarPolygon.areaInSquareMeters([square]), 10_000 * metersPerPoint * metersPerPoint,
                       accuracy: 1e-6)
        XCTAssertEqual(PlanarPolygon.areaInSquareMeters([square, hole]), 9_600 * metersPerPoint * metersPerPoint,
                       accuracy: 1e-6)
        XCTAssertEqual(PlanarPolygon.areaInSquareMeters([]), 0)
        XCTAssertEqual(PlanarPolygon.areaInSquareMeters([pts([(0, 0), (1, 1), (2, 2)])]), 0)
    }
}
