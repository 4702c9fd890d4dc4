import XCTest
@testable import MapGeometry

final class LabelPointTests: XCTestCase {
    private func pts(_ xy: [(Double, Double)]) -> [MKMapPoint] { xy.map { MKMapPoint(x: $0.0, y: $0.1) } }

    func testSquareLabelsAtItsCentre() throws {
        let square = pts([(0, 0), (10, 0), (10, 10), (0, 10), (0, 0)])
        let label = try XCTUnwrap(poleOfInaccessibility(polygon: [square], precision: 0.01))
        XCTAssertEqual(label.point, MKMapPoint(x: 5, y: 5))
        XCTAssertEqual(label.distance, 5)
        XCTAssertEqual(labelPoint(polygon: [square], precision: 0.01), MKMapPoint(x: 5, y: 5))
        // Far from the origin, in either winding.
        let offset = square.reversed().map { MKMapPoint(x: $0.x + 200_000_000, y: $0.y + 100_000_000) }
        let far = try XCTUnwrap(poleOfInaccessibility(polygon: [offset], precision: 0.01))
        XCTAssertEqual(far.point.x, 200_000_005, accuracy: 0.01)
        XCTAssertEqual(far.point.y, 100_000_005, accuracy: 0.01)
        XCTAssertEqual(far.distance, 5, accuracy: 0.01)
    }

    func testLShapeLabelsInTheThickerArm() throws {
        // A vertical arm 20 wide (x 0–20, y 0–40) and a horizontal arm 10 thick (y 0–10, x 0–40).
        // The best points are x = 10, 10 ≤ y ≤ 30, at distance 10; the centroid is less central.
        let l = pts([(0, 0), (40, 0), (40, 10), (20, 10), (20, 40), (0, 40)])
        let precision = 0.1
        let label = try XCTUnwrap(poleOfInaccessibility(polygon: [l], precision: precision))
        XCTAssertLessThanOrEqual(label.distance, 10)
        XCTAssertGreaterThanOrEqual(label.distance, 10 - precision)
        XCTAssertEqual(label.point.x, 10, accuracy: precision)
        XCTAssertGreaterThanOrEqual(label.point.y, 10 - precision)
        XCTAssertLessThanOrEqual(label.point.y, 30 + precision)
        XCTAssertTrue(PlanarPolygon.contains(label.point, in: [l]))
        // The reported distance is the true distance to the outline.
        let check = LabelSearch(polygon: [l]).signedDistance(label.point)
        XCTAssertEqual(label.distance, check)
    }

    func testBigHoleKeepsTheLabelOutOfTheHole() throws {
        // A frame 10 thick: the centroid (50,50) is in the hole. Along the sides the best distance is 5,
        // but each corner fits a larger circle, centred at (t,t) with t = √2·(10 − t).
        let outer = pts([(0, 0), (100, 0), (100, 100), (0, 100)])
        let hole = pts([(10, 10), (10, 90), (90, 90), (90, 10)])
        XCTAssertEqual(PlanarPolygon.centroid([outer, hole]), MKMapPoint(x: 50, y: 50))
        let precision = 0.05
        let label = try XCTUnwrap(poleOfInaccessibility(polygon: [outer, hole], precision: precision))
        XCTAssertTrue(PlanarPolygon.contains(label.point, in: [outer, hole]))
        let best = 10 * 2.0.squareRoot() / (1 + 2.0.squareRoot())
        XCTAssertLessThanOrEqual(label.distance, best + 1e-9)
        XCTAssertGreaterThanOrEqual(label.distance, best - precision)
        XCTAssertEqual(LabelSearch(polygon: [outer, hole]).signedDistance(label.point), label.distance)
    }

    func testConcavePolygonBeatsItsCentroid() throws {
        // A C shape whose centroid lies in the mouth, outside the polygon.
        let c = pts([(0, 0), (30, 0), (30, 8), (8, 8), (8, 22), (30, 22), (30, 30), (0, 30)])
        let centroid = try XCTUnwrap(PlanarPolygon.centroid([c]))
        XCTAssertFalse(PlanarPolygon.contains(centroid, in: [c]))
        let label = try XCTUnwrap(poleOfInaccessibility(polygon: [c], precision: 0.01))
        XCTAssertTrue(PlanarPolygon.contains(label.point, in: [c]))
        // The spine and arms are 8 wide, but where the spine meets an arm a circle fits between the
        // outer corner and the inner corner (8,8): centre (t,t) with t = √2·(8 − t), t = 8√2/(1+√2).
        let best = 8 * 2.0.squareRoot() / (1 + 2.0.squareRoot())
        XCTAssertLessThanOrEqual(label.distance, best + 1e-9)
        XCTAssertGreaterThanOrEqual(label.distance, best - 0.01)
    }

    func testDegenerateLineLikePolygon() throws {
        // No area: the label is on the outline, at distance 0.
        let flat = pts([(0, 0), (10, 0), (5, 0)])
        let label = try XCTUnwrap(poleOfInaccessibility(polygon: [flat], precision: 0.1))
        XCTAssertEqual(label.point, MKMapPoint(x: 5, y: 0))
        XCTAssertEqual(label.distance, 0)
        // Diagonal, so its bounding box has area but the polygon does not.
        let diagonal = pts([(0, 0), (10, 10), (4, 4), (0, 0)])
        let onLine = try XCTUnwrap(poleOfInaccessibility(polygon: [diagonal], precision: 0.000_001))
        XCTAssertEqual(onLine.point.x, onLine.point.y, accuracy: 1e-12)
        XCTAssertEqual(onLine.distance, 0)
        // A single point and a repeated point.
        XCTAssertEqual(labelPoint(polygon: [pts([(3, 4)])], precision: 1), MKMapPoint(x: 3, y: 4))
        XCTAssertEqual(labelPoint(polygon: [pts([(3, 4), (3, 4), (3, 4)])], precision: 1), MKMapPoint(x: 3, y: 4))
    }

    func testEmptyAndNonFiniteInput() throws {
        XCTAssertNil(labelPoint(polygon: [], precision: 1))
        XCTAssertNil(labelPoint(polygon: [[]], precision: 1))
        XCTAssertNil(labelPoint(polygon: [pts([(.nan, .nan), (.infinity, 0)])], precision: 1))
        // A NaN vertex in a square is ignored.
        let square = pts([(0, 0), (10, 0), (.nan, 3), (10, 10), (0, 10)])
        let label = try XCTUnwrap(poleOfInaccessibility(polygon: [square], precision: 0.01))
        XCTAssertEqual(label.point, MKMapPoint(x: 5, y: 5))
        XCTAssertEqual(label.distance, 5)
        // A NaN or negative precision is bounded by the cell budget.
        XCTAssertNotNil(labelPoint(polygon: [square], precision: .nan))
        XCTAssertNotNil(labelPoint(polygon: [square], precision: -1))
    }

    func testHostileInputStopsAtTheCellBudget() throws {
        // The whole world at a precision far below the coordinates' resolution.
        let world = pts([(0, 0), (268_435_456, 0), (268_435_456, 268_435_456), (0, 268_435_456)])
        let label = try XCTUnwrap(poleOfInaccessibility(polygon: [world], precision: 1e-12, maximumCellCount: 2_000))
        XCTAssertEqual(label.distance, 134_217_728, accuracy: 1)
        // A sliver a million times longer than it is wide.
        let sliver = pts([(0, 0), (1_000_000, 0), (1_000_000, 1), (0, 1)])
        let thin = try XCTUnwrap(poleOfInaccessibility(polygon: [sliver], precision: 0, maximumCellCount: 2_000))
        XCTAssertEqual(thin.distance, 0.5, accuracy: 0.01)
        XCTAssertTrue(PlanarPolygon.contains(thin.point, in: [sliver]))
        // A zero budget still returns the better of the starting points.
        let zero = try XCTUnwrap(poleOfInaccessibility(polygon: [world], precision: 1, maximumCellCount: 0))
        XCTAssertEqual(zero.point, MKMapPoint(x: 134_217_728, y: 134_217_728))
    }

    func testZigzagPolygonOfManyVertices() throws {
        // A comb with 100 teeth: every tooth is 4 wide, the spine 20 thick. The best point sits over a
        // tooth, just below the spine's middle: 10 + δ from the top edge and √(2² + (10 − δ)²) from the
        // tooth's corners, equal at δ = 0.1, so the optimum is 10.1.
        var ring: [MKMapPoint] = [MKMapPoint(x: 0, y: 0)]
        for i in 0..<100 {
            let x = Double(i) * 8
            ring.append(MKMapPoint(x: x, y: -30))
            ring.append(MKMapPoint(x: x + 4, y: -30))
            ring.append(MKMapPoint(x: x + 4, y: 0))
            ring.append(MKMapPoint(x: x + 8, y: 0))
        }
        ring.append(MKMapPoint(x: 800, y: 20))
        ring.append(MKMapPoint(x: 0, y: 20))
        let label = try XCTUnwrap(poleOfInaccessibility(polygon: [ring], precision: 0.5))
        XCTAssertGreaterThanOrEqual(label.distance, 10.1 - 0.5)
        XCTAssertLessThanOrEqual(label.distance, 10.1 + 1e-9)
        XCTAssertTrue(PlanarPolygon.contains(label.point, in: [ring]))
    }
}
