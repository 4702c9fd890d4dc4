import TestSupport
import XCTest
@testable import MapGeometry

final class ClippingTests: XCTestCase {
    private func pts(_ xy: [(Double, Double)]) -> [MKMapPoint] { xy.map { MKMapPoint(x: $0.0, y: $0.1) } }
    private let rect = MKMapRect(x: 0, y: 0, width: 10, height: 10)

    // MARK: Polygons

    func testRingEnclosingTheRectBecomesTheRect() {
        // Passes run left, right, top, bottom; worked by hand, the corners come out starting at (0,10).
        let enclosing = pts([(-10, -10), (20, -10), (20, 20), (-10, 20), (-10, -10)])
        let clipped = Clipping.clipRing(enclosing, to: rect)
        XCTAssertEqual(clipped, pts([(0, 10), (0, 0), (10, 0), (10, 10), (0, 10)]))
        // Orientation is kept: clockwise on the map (positive in y-down space) both times.
        XCTAssertEqual(PlanarPolygon.signedArea(clipped!), 100)
        let reversed = Clipping.clipRing(Array(enclosing.reversed()), to: rect)!
        XCTAssertEqual(PlanarPolygon.signedArea(reversed), -100)
    }

    func testRingWhollyInsideIsUnchanged() {
        let inside = pts([(1, 1), (1, 1), (9, 1), (9, 9), (1, 1)])
        XCTAssertEqual(Clipping.clipRing(inside, to: rect), inside)
        // The rectangle itself: every vertex on an edge counts as inside.
        let same = pts([(0, 0), (10, 0), (10, 10), (0, 10)])
        XCTAssertEqual(Clipping.clipRing(same, to: rect), same)
    }

    func testRingWhollyOutsideVanishes() {
        XCTAssertNil(Clipping.clipRing(pts([(20, 20), (30, 20), (30, 30), (20, 30), (20, 20)]), to: rect))
        // Outside, but not beyond any single edge (it wraps round a corner).
        XCTAssertNil(Clipping.clipRing(pts([(-5, 5), (-5, -5), (5, -5), (-1, -1)]), to: rect))
        // Touching an edge from outside leaves a zero-area sliver, which is dropped.
        XCTAssertNil(Clipping.clipRing(pts([(-10, 0), (0, 0), (0, 10), (-10, 10)]), to: rect))
        XCTAssertEqual(Clipping.clipPolygon([pts([(-10, 0), (0, 0), (0, 10), (-10, 10)])], to: rect), [])
    }

    func testTriangleCrossingAnEdgeKeepsOrientation() {
        // (2,2) → (14,5) → (2,8) meets x = 10 at (10,4) and (10,6).
        let triangle = pts([(2, 2), (14, 5), (2, 8)])
        let clipped = Clipping.clipRing(triangle, to: rect)!
        XCTAssertEqual(clipped, pts([(2, 2), (10, 4), (10, 6), (2, 8)]))
        XCTAssertEqual(PlanarPolygon.signedArea(clipped), 32)  // a trapezoid: (6 + 2) / 2 · 8
        let reversed = Clipping.clipRing(Array(triangle.reversed()), to: rect)!
        XCTAssertEqual(reversed, pts([(2, 8), (10, 6), (10, 4), (2, 2)]))
        XCTAssertEqual(PlanarPolygon.signedArea(reversed), -32)
    }

    func testUShapeIsJoinedAlongTheEdge() {
        // A U whose arms (x 0–10 and 20–30) rise from a base at y 20–30; the rectangle keeps the
        // top of both arms. Sutherland–Hodgman returns ONE ring: two squares joined by the zero-area
        // edges (10,10)–(20,10) and (30,10)–(0,10) along the rectangle's bottom edge.
        let u = pts([(0, 0), (10, 0), (10, 20), (20, 20), (20, 0), (30, 0), (30, 30), (0, 30)])
        let cut = MKMapRect(x: -5, y: -5, width: 40, height: 15)
        let clipped = Clipping.clipPolygon([u], to: cut)
        XCTAssertEqual(clipped, [pts([(0, 10), (0, 0), (10, 0), (10, 10), (20, 10), (20, 0), (30, 0), (30, 10)])])
        XCTAssertEqual(PlanarPolygon.signedArea(clipped[0]), 200)
    }

    func testPolygonWithHoles() {
        let exterior = pts([(-10, -10), (20, -10), (20, 20), (-10, 20)])
        let holeInside = pts([(2, 2), (2, 4), (4, 4), (4, 2)])
        let holeOutside = pts([(30, 30), (30, 40), (40, 40), (40, 30)])
        let holeAcross = pts([(8, 4), (8, 6), (12, 6), (12, 4)])
        let clipped = Clipping.clipPolygon([exterior, holeInside, holeOutside, holeAcross], to: rect)
        XCTAssertEqual(clipped, [pts([(0, 10), (0, 0), (10, 0), (10, 10)]),
                                 holeInside,
                                 pts([(10, 4), (8, 4), (8, 6), (10, 6)])])
        // With the exterior gone, so is everything.
        let far = pts([(100, 100), (110, 100), (110, 110), (100, 110)])
        XCTAssertEqual(Clipping.clipPolygon([far, holeInside], to: rect), [])
        XCTAssertEqual(Clipping.clipPolygon([], to: rect), [])
    }

    func testSharedEdgeCutsAtTheSamePoint() {
        // Two triangles share the edge a–b, traversed in opposite directions; both must cut it at the
        // bit-identical point so the tile shows no crack.
        let a = MKMapPoint(x: -0.3, y: 0.1), b = MKMapPoint(x: 0.7, y: 0.37)
        let box = MKMapRect(x: 0, y: -1, width: 1, height: 2)
        let first = Clipping.clipRing([a, b, MKMapPoint(x: -1, y: 1)], to: box)!
        let second = Clipping.clipRing([b, a, MKMapPoint(x: 0.5, y: -0.9)], to: box)!
        let cutFirst = first.filter { $0.x == 0 && $0.y > 0.1 && $0.y < 0.37 }
        let cutSecond = second.filter { $0.x == 0 && $0.y > 0.1 && $0.y < 0.37 }
        XCTAssertEqual(cutFirst.count, 1)
        XCTAssertEqual(cutFirst, cutSecond)
    }

    func testNonFiniteVerticesNeverReachTheOutput() {
        let ring = pts([(-5, -5), (15, -5), (.nan, 3), (15, 15), (.infinity, 20), (-5, 15)])
        let clipped = Clipping.clipRing(ring, to: rect)!
        XCTAssertTrue(clipped.allSatisfy { $0.x.isFinite && $0.y.isFinite })
        XCTAssertEqual(abs(PlanarPolygon.signedArea(clipped)), 100)
        let line = pts([(1, 1), (.nan, 5), (5, 5), (6, 6), (-.infinity, 7), (8, 8), (9, 9)])
        let pieces = Clipping.clipPolyline(line, to: rect)
        XCTAssertEqual(pieces, [pts([(5, 5), (6, 6)]), pts([(8, 8), (9, 9)])])
        XCTAssertNil(Clipping.clipRing(pts([(.nan, .nan), (.nan, 1), (1, .nan)]), to: rect))
    }

    func testNullOrDegenerateRect() {
        let square = pts([(1, 1), (9, 1), (9, 9), (1, 9)])
        XCTAssertNil(Clipping.clipRing(square, to: .null))
        XCTAssertEqual(Clipping.clipPolyline(square, to: .null), [])
        // A rectangle without area leaves no polygon area.
        XCTAssertNil(Clipping.clipRing(square, to: MKMapRect(x: 5, y: 0, width: 0, height: 10)))
    }

    // MARK: Polylines

    func testLineLeavingAndReenteringGivesTwoPieces() {
        let line = pts([(-5, 5), (5, 5), (5, 15), (8, 15), (8, 5), (15, 5)])
        XCTAssertEqual(Clipping.clipPolyline(line, to: rect),
                       [pts([(0, 5), (5, 5), (5, 10)]), pts([(8, 10), (8, 5), (10, 5)])])
    }

    func testLineWhollyInsideIsUnchanged() {
        let line = pts([(1, 1), (2, 2), (2, 2), (3, 1)])
        XCTAssertEqual(Clipping.clipPolyline(line, to: rect), [line])
        XCTAssertEqual(Clipping.clipPolyline(pts([(1, 1)]), to: rect), [])
        XCTAssertEqual(Clipping.clipPolyline(pts([(1, 1), (1, 1)]), to: rect), [])
        XCTAssertEqual(Clipping.clipPolyline([], to: rect), [])
    }

    func testLineWhollyOutside() {
        XCTAssertEqual(Clipping.clipPolyline(pts([(-5, -5), (-1, 20), (20, 20)]), to: rect), [])
    }

    func testLinesTouchingEdges() {
        // Along an edge: inside (the rectangle is closed).
        XCTAssertEqual(Clipping.clipPolyline(pts([(0, -5), (0, 15)]), to: rect), [pts([(0, 0), (0, 10)])])
        XCTAssertEqual(Clipping.clipPolyline(pts([(-5, 10), (15, 10)]), to: rect), [pts([(0, 10), (10, 10)])])
        // Through a corner only: a single point, no piece.
        XCTAssertEqual(Clipping.clipPolyline(pts([(-5, 5), (5, -5)]), to: rect), [])
        // Ending exactly on an edge and leaving: the edge point is not doubled.
        XCTAssertEqual(Clipping.clipPolyline(pts([(5, 5), (10, 5), (15, 5)]), to: rect), [pts([(5, 5), (10, 5)])])
        // Arriving on an edge from outside and going in.
        XCTAssertEqual(Clipping.clipPolyline(pts([(15, 5), (10, 5), (5, 5)]), to: rect), [pts([(10, 5), (5, 5)])])
        // Touching an edge from inside and turning back stays one piece.
        XCTAssertEqual(Clipping.clipPolyline(pts([(5, 5), (10, 5), (5, 6)]), to: rect), [pts([(5, 5), (10, 5), (5, 6)])])
        // Touching an edge from outside at a vertex: nothing.
        XCTAssertEqual(Clipping.clipPolyline(pts([(15, 0), (10, 5), (15, 10)]), to: rect), [])
    }

    func testLineCrossingTheWholeRect() {
        XCTAssertEqual(Clipping.clipPolyline(pts([(-10, -5), (20, 10)]), to: rect), [pts([(0, 0), (10, 5)])])
        // Diagonal through two corners.
        XCTAssertEqual(Clipping.clipPolyline(pts([(-5, -5), (15, 15)]), to: rect), [pts([(0, 0), (10, 10)])])
    }

    func testBufferedTileRect() {
        // A 4096-unit tile with a 64-unit buffer, as a tile builder would pass it.
        let tile = MKMapRect(x: -64, y: -64, width: 4096 + 128, height: 4096 + 128)
        let line = pts([(-1000, 2048), (5000, 2048)])
        XCTAssertEqual(Clipping.clipPolyline(line, to: tile), [pts([(-64, 2048), (4160, 2048)])])
    }

    // MARK: Properties

    func testRandomGeometryStaysInsideTheRect() {
        var random = SplitMix64(seed: 42)
        let box = MKMapRect(x: 100, y: 200, width: 50, height: 30)
        for _ in 0..<300 {
            // A star-shaped ring around a random centre, so it is simple.
            let cx = random.uniform(60, 190), cy = random.uniform(160, 260)
            let n = Int(random.next() % 20) + 3
            var ring: [MKMapPoint] = []
            for i in 0..<n {
                let angle = Double(i) / Double(n) * 2 * .pi
                let r = random.uniform(5, 60)
                ring.append(MKMapPoint(x: cx + r * cos(angle), y: cy + r * sin(angle)))
            }
            if let clipped = Clipping.clipRing(ring, to: box) {
                for p in clipped {
                    XCTAssertTrue(p.x >= box.minX && p.x <= box.maxX && p.y >= box.minY && p.y <= box.maxY)
                }
                let a = abs(PlanarPolygon.signedArea(clipped))
                XCTAssertLessThanOrEqual(a, abs(PlanarPolygon.signedArea(ring)) * (1 + 1e-12))
                XCTAssertLessThanOrEqual(a, box.width * box.height * (1 + 1e-12))
                XCTAssertEqual(PlanarPolygon.signedArea(clipped) > 0, PlanarPolygon.signedArea(ring) > 0)
            }
            for piece in Clipping.clipPolyline(ring, to: box) {
                XCTAssertGreaterThanOrEqual(piece.count, 2)
                for p in piece {
                    XCTAssertTrue(p.x >= box.minX && p.x <= box.maxX && p.y >= box.minY && p.y <= box.maxY)
                }
            }
        }
    }
}
