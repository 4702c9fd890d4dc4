import TestSupport
import XCTest
@_spi(OpenMapKitInternal) @testable import MapGeometry

final class SimplificationTests: XCTestCase {
    private func pts(_ xy: [(Double, Double)]) -> [MKMapPoint] { xy.map { MKMapPoint(x: $0.0, y: $0.1) } }

    // (2,1) is 1 from the chord (0,0)–(4,0); (4,0) is 12/√45 ≈ 1.789 from (0,0)–(6,3); (6,3) is 3 from
    // the first chord (0,0)–(8,0).
    private var zigzag: [MKMapPoint] { pts([(0, 0), (2, 1), (4, 0), (6, 3), (8, 0)]) }

    // MARK: Douglas–Peucker

    func testDouglasPeuckerHandWorked() {
        XCTAssertEqual(Simplification.douglasPeucker(zigzag, tolerance: 1.5), pts([(0, 0), (4, 0), (6, 3), (8, 0)]))
        XCTAssertEqual(Simplification.douglasPeucker(zigzag, tolerance: 1.788), pts([(0, 0), (4, 0), (6, 3), (8, 0)]))
        XCTAssertEqual(Simplification.douglasPeucker(zigzag, tolerance: 1.789), pts([(0, 0), (6, 3), (8, 0)]))
        XCTAssertEqual(Simplification.douglasPeucker(zigzag, tolerance: 0.5), zigzag)
        XCTAssertEqual(Simplification.douglasPeucker(zigzag, tolerance: 3), pts([(0, 0), (8, 0)]))
    }

    func testDouglasPeuckerRemovesCollinearPoints() {
        let diagonal = pts([(0, 0), (1, 1), (2, 2), (3, 3), (7, 7)])
        XCTAssertEqual(Simplification.douglasPeucker(diagonal, tolerance: 0), pts([(0, 0), (7, 7)]))
        // Far from the origin (map points reach 2^28) collinear points still measure exactly 0.
        let far = pts([(200_000_000, 100_000_000), (200_000_003, 100_000_001), (200_000_006, 100_000_002)])
        XCTAssertEqual(Simplification.douglasPeucker(far, tolerance: 0), [far[0], far[2]])
    }

    func testDouglasPeuckerKeepsPointsThatDoubleBack() {
        // (10,0) lies on the line through (0,0) and (5,0) but outside the segment: a real spike.
        let spike = pts([(0, 0), (10, 0), (5, 0)])
        XCTAssertEqual(Simplification.douglasPeucker(spike, tolerance: 1), spike)
    }

    func testToleranceZeroKeepsAllButDuplicates() {
        let line = pts([(0, 0), (0, 0), (1, 1), (1, 1), (1, 1), (2, 0), (3, 1), (3, 1), (4, 0)])
        let expected = pts([(0, 0), (1, 1), (2, 0), (3, 1), (4, 0)])
        XCTAssertEqual(Simplification.douglasPeucker(line, tolerance: 0), expected)
        XCTAssertEqual(Simplification.douglasPeucker(line, tolerance: -1), expected)
        XCTAssertEqual(Simplification.douglasPeucker(line, tolerance: .nan), expected)
        XCTAssertEqual(Simplification.visvalingamWhyatt(line, minimumArea: 0), expected)
    }

    func testDegenerateLines() {
        let p = MKMapPoint(x: 3, y: 4), q = MKMapPoint(x: 5, y: 6)
        for method in [SimplificationMethod.douglasPeucker(tolerance: 1), .visvalingamWhyatt(minimumArea: 1)] {
            XCTAssertEqual(Simplification.simplify([], method: method), [])
            XCTAssertEqual(Simplification.simplify([p], method: method), [p])
            XCTAssertEqual(Simplification.simplify([p, q], method: method), [p, q])
            XCTAssertEqual(Simplification.simplify([p, p], method: method), [p, p])
            // First and last are kept even when they are equal.
            XCTAssertEqual(Simplification.simplify([p, p, p, p], method: method), [p, p])
            XCTAssertEqual(Simplification.simplify([p, p, p, p], method: method, radialPrepassTolerance: 1), [p, p])
        }
        XCTAssertEqual(Simplification.radialDistance([p, p, p], tolerance: 0), [p, p])
        XCTAssertEqual(Simplification.radialDistance([], tolerance: 1), [])
    }

    func testInfiniteToleranceKeepsEndpoints() {
        XCTAssertEqual(Simplification.douglasPeucker(zigzag, tolerance: .infinity), pts([(0, 0), (8, 0)]))
        XCTAssertEqual(Simplification.visvalingamWhyatt(zigzag, minimumArea: .infinity), pts([(0, 0), (8, 0)]))
    }

    func testNonFinitePointsDoNotCrash() {
        // NaN points never measure farther than the tolerance, so they go; the endpoints stay.
        let line = pts([(0, 0), (.nan, 1), (2, 1), (.nan, .nan), (3, 0)])
        XCTAssertEqual(Simplification.douglasPeucker(line, tolerance: 0.5), pts([(0, 0), (2, 1), (3, 0)]))
        let infinite = pts([(0, 0), (.nan, 1), (2, .infinity), (3, 0)])
        for result in [Simplification.douglasPeucker(infinite, tolerance: 1),
                       Simplification.visvalingamWhyatt(infinite, minimumArea: 1),
                       Simplification.simplify(infinite, method: .douglasPeucker(tolerance: 1), radialPrepassTolerance: 1)] {
            XCTAssertEqual(result.first, infinite[0])
            XCTAssertEqual(result.last, infinite[3])
        }
        XCTAssertNotNil(Simplification.simplifyRing(pts([(0, 0), (10, 0), (.nan, 5), (10, 10), (0, 0)]),
                                                    method: .visvalingamWhyatt(minimumArea: 1)))
    }

    func testDouglasPeuckerDeepSplitting() {
        // A sawtooth on a horizontal chord: every tooth ties, the first wins, so each split peels off
        // one point and a recursive implementation would nest once per point.
        var line: [MKMapPoint] = []
        for i in 0..<2_001 { line.append(MKMapPoint(x: Double(i), y: i % 2 == 0 ? 0 : 10)) }
        XCTAssertEqual(Simplification.douglasPeucker(line, tolerance: 1), line)
        // A gentle curve where each point is just over tolerance: the range splits one point at a time.
        var curve: [MKMapPoint] = []
        for i in 0..<3_000 { curve.append(MKMapPoint(x: Double(i), y: Double(i * i) / 10)) }
        XCTAssertEqual(Simplification.douglasPeucker(curve, tolerance: 0).count, curve.count)
    }

    // MARK: Visvalingam–Whyatt

    func testVisvalingamWhyattHandWorked() {
        // Effective areas: (2,1) → 2, (4,0) → 4, (6,3) → 6. Removing (2,1) makes (4,0)'s triangle
        // (0,0),(4,0),(6,3) of area 6; then removing (4,0) makes (6,3)'s triangle of area 12.
        XCTAssertEqual(Simplification.visvalingamWhyatt(zigzag, minimumArea: 1.9), zigzag)
        XCTAssertEqual(Simplification.visvalingamWhyatt(zigzag, minimumArea: 2), pts([(0, 0), (4, 0), (6, 3), (8, 0)]))
        XCTAssertEqual(Simplification.visvalingamWhyatt(zigzag, minimumArea: 5.9), pts([(0, 0), (4, 0), (6, 3), (8, 0)]))
        // At 6 the tie between (4,0) and (6,3) goes to the earlier point.
        XCTAssertEqual(Simplification.visvalingamWhyatt(zigzag, minimumArea: 6), pts([(0, 0), (6, 3), (8, 0)]))
        XCTAssertEqual(Simplification.visvalingamWhyatt(zigzag, minimumArea: 12), pts([(0, 0), (8, 0)]))
    }

    func testVisvalingamWhyattUpdatesNeighbours() {
        // Areas: (1,1) 0.5, (2,1) 0.5, (3,0) 3.75. (1,1) goes first (tie, earlier index); (2,1)'s
        // triangle becomes (0,0),(2,1),(3,0) of area 1.5. Removing (2,1) leaves (3,0) with the
        // triangle (0,0),(3,0),(10,0.5) of area 0.75, which counts as 1.5 (never less than a point
        // already removed).
        let line = pts([(0, 0), (1, 1), (2, 1), (3, 0), (10, 0.5)])
        XCTAssertEqual(Simplification.visvalingamWhyatt(line, minimumArea: 0.5), pts([(0, 0), (2, 1), (3, 0), (10, 0.5)]))
        XCTAssertEqual(Simplification.visvalingamWhyatt(line, minimumArea: 1.4), pts([(0, 0), (2, 1), (3, 0), (10, 0.5)]))
        XCTAssertEqual(Simplification.visvalingamWhyatt(line, minimumArea: 1.5), pts([(0, 0), (10, 0.5)]))
    }

    // MARK: Radial distance

    func testRadialDistance() {
        let line = pts([(0, 0), (0.5, 0), (1, 0), (3, 0), (3.2, 0), (5, 0), (5.5, 0)])
        // Strictly farther than the tolerance; the last point always stays.
        XCTAssertEqual(Simplification.radialDistance(line, tolerance: 1), pts([(0, 0), (3, 0), (5, 0), (5.5, 0)]))
        XCTAssertEqual(Simplification.simplify(line, method: .douglasPeucker(tolerance: 1), radialPrepassTolerance: 1),
                       pts([(0, 0), (5.5, 0)]))
    }

    func testRadialPrepassThenDouglasPeucker() {
        // Alone, Douglas–Peucker keeps (0.5,3) (3 from the chord, first of a tie with (6,3)), after
        // which (6,3) is only 16.5/√141.25 ≈ 1.39 from (0.5,3)–(12,0). The pre-pass drops (0.5,3)
        // (within 4 of the start), and then (6,3) is kept instead.
        let line = pts([(0, 0), (0.5, 3), (6, 3), (12, 0)])
        XCTAssertEqual(Simplification.simplify(line, method: .douglasPeucker(tolerance: 2)), pts([(0, 0), (0.5, 3), (12, 0)]))
        XCTAssertEqual(Simplification.simplify(line, method: .douglasPeucker(tolerance: 2), radialPrepassTolerance: 4),
                       pts([(0, 0), (6, 3), (12, 0)]))
    }

    // MARK: Rings

    func testRingDouglasPeucker() {
        let square = pts([(0, 0), (5, 0), (10, 0), (10, 10), (5, 10.2), (0, 10), (0, 0)])
        XCTAssertEqual(Simplification.simplifyRing(square, method: .douglasPeucker(tolerance: 1)),
                       pts([(0, 0), (10, 0), (10, 10), (0, 10), (0, 0)]))
        // An open ring stays open.
        XCTAssertEqual(Simplification.simplifyRing(Array(square.dropLast()), method: .douglasPeucker(tolerance: 1)),
                       pts([(0, 0), (10, 0), (10, 10), (0, 10)]))
        // At 0.1 the bulge (5,10.2) stays but (5,0), exactly on its edge, still goes.
        XCTAssertEqual(Simplification.simplifyRing(square, method: .douglasPeucker(tolerance: 0.1)),
                       pts([(0, 0), (10, 0), (10, 10), (5, 10.2), (0, 10), (0, 0)]))
    }

    func testRingDoesNotCollapseBelowATriangle() {
        // Douglas–Peucker alone would keep (0,0) and (4,0) only; the ring keeps its spanning triangle.
        let small = pts([(0, 0), (4, 0), (3, 2), (1, 2), (0, 0)])
        let simplified = Simplification.simplifyRing(small, method: .douglasPeucker(tolerance: 100))
        XCTAssertEqual(simplified, pts([(0, 0), (4, 0), (3, 2), (0, 0)]))
        XCTAssertEqual(PlanarPolygon.isClockwise(simplified!), PlanarPolygon.isClockwise(small))
        let viaVW = Simplification.simplifyRing(small, method: .visvalingamWhyatt(minimumArea: 1_000))
        XCTAssertEqual(viaVW?.count, 4)
        // The triangle keeps the ring's winding even when ring order would flip it.
        let reversed = Array(small.reversed())
        let reversedSimplified = Simplification.simplifyRing(reversed, method: .douglasPeucker(tolerance: 100))!
        XCTAssertEqual(reversedSimplified.count, 4)
        XCTAssertEqual(PlanarPolygon.isClockwise(reversedSimplified), PlanarPolygon.isClockwise(reversed))
        // With a pre-pass that leaves a single vertex, the triangle still comes from the original ring.
        XCTAssertEqual(Simplification.simplifyRing(small, method: .douglasPeucker(tolerance: 100),
                                                   radialPrepassTolerance: 100)?.count, 4)
    }

    func testRingVisvalingamWhyatt() {
        // A square with a shallow notch: the notch (area 1) goes, the corners (areas 25 and 50, then
        // 50 each) stay.
        let ring = pts([(0, 0), (5, 0.2), (10, 0), (10, 10), (0, 10)])
        XCTAssertEqual(Simplification.simplifyRing(ring, method: .visvalingamWhyatt(minimumArea: 2)),
                       pts([(0, 0), (10, 0), (10, 10), (0, 10)]))
        // All four corners tie at 50; ties go to the lower index, so (0,0) goes first, then the
        // ring stops at three vertices.
        let square = pts([(0, 0), (10, 0), (10, 10), (0, 10), (0, 0)])
        XCTAssertEqual(Simplification.simplifyRing(square, method: .visvalingamWhyatt(minimumArea: 1_000)),
                       pts([(10, 0), (10, 10), (0, 10), (10, 0)]))
    }

    func testCollapsedRings() {
        let method = SimplificationMethod.douglasPeucker(tolerance: 1)
        XCTAssertNil(Simplification.simplifyRing([], method: method))
        XCTAssertNil(Simplification.simplifyRing(pts([(0, 0), (1, 1), (0, 0)]), method: method))
        // No area at all: every vertex on one line.
        XCTAssertNil(Simplification.simplifyRing(pts([(0, 0), (10, 0), (5, 0), (0, 0)]), method: method))
        XCTAssertNil(Simplification.simplifyRing(pts([(0, 0), (10, 0), (5, 0), (0, 0)]),
                                                 method: .visvalingamWhyatt(minimumArea: 0)))
        XCTAssertNil(Simplification.simplifyRing(pts([(2, 2), (2, 2), (2, 2), (2, 2)]), method: method))
    }

    func testLargeRingIsQuick() {
        var ring: [MKMapPoint] = []
        for i in 0..<20_000 {
            let a = Double(i) / 20_000 * 2 * .pi
            let r = 1_000 + 3 * sin(a * 40)
            ring.append(MKMapPoint(x: r * cos(a), y: r * sin(a)))
        }
        ring.append(ring[0])
        let dp = Simplification.simplifyRing(ring, method: .douglasPeucker(tolerance: 5))!
        let vw = Simplification.simplifyRing(ring, method: .visvalingamWhyatt(minimumArea: 25))!
        XCTAssertLessThan(dp.count, 200)
        XCTAssertLessThan(vw.count, 500)
        XCTAssertEqual(dp.first, dp.last)
        XCTAssertEqual(vw.first, vw.last)
        // Simplification stays close to the original area (π·1000²).
        XCTAssertEqual(abs(PlanarPolygon.signedArea(dp)), .pi * 1_000_000, accuracy: 0.01 * .pi * 1_000_000)
    }

    // MARK: Against plain reference implementations

    /// Douglas–Peucker written the textbook way (recursive, fine for small test inputs). It shares the
    /// distance function, whose exactness on collinear points the tests above check, so this compares
    /// the explicit-stack traversal and tie-breaking.
    private func referenceDouglasPeucker(_ p: [MKMapPoint], tolerance: Double) -> [MKMapPoint] {
        guard p.count > 2 else { return p }
        var keep = [Bool](repeating: false, count: p.count)
        func run(_ lo: Int, _ hi: Int) {
            guard hi - lo > 1 else { return }
            var best = -1, bestDistance = tolerance * tolerance
            for i in (lo + 1)..<hi {
                let d = PlanarPolygon.squaredSegmentDistance(p[i], p[lo], p[hi])
                if d > bestDistance { bestDistance = d; best = i }
            }
            guard best >= 0 else { return }
            keep[best] = true
            run(lo, best)
            run(best, hi)
        }
        keep[0] = true
        keep[p.count - 1] = true
        run(0, p.count - 1)
        return p.indices.filter { keep[$0] }.map { p[$0] }
    }

    /// Visvalingam–Whyatt in O(n²): rescans for the smallest effective area after every removal.
    private func referenceVisvalingamWhyatt(_ p: [MKMapPoint], minimumArea: Double) -> [MKMapPoint] {
        guard p.count > 2 else { return p }
        func area(_ a: MKMapPoint, _ b: MKMapPoint, _ c: MKMapPoint) -> Double {
            abs((a.x - b.x) * (c.y - b.y) - (a.y - b.y) * (c.x - b.x)) / 2
        }
        var alive = Array(p.indices)
        var effective = [Double](repeating: 0, count: p.count)
        for k in 1..<(alive.count - 1) { effective[alive[k]] = area(p[alive[k - 1]], p[alive[k]], p[alive[k + 1]]) }
        while alive.count > 2 {
            var bestK = 1
            for k in 2..<(alive.count - 1) where effective[alive[k]] < effective[alive[bestK]] { bestK = k }
            let removed = effective[alive[bestK]]
            guard removed <= minimumArea else { break }
            alive.remove(at: bestK)
            for k in [bestK - 1, bestK] where k > 0 && k < alive.count - 1 {
                effective[alive[k]] = max(area(p[alive[k - 1]], p[alive[k]], p[alive[k + 1]]), removed)
            }
        }
        return alive.map { p[$0] }
    }

    func testMatchesReferenceImplementationsOnRandomLines() {
        var random = SplitMix64(seed: 7)
        for round in 0..<300 {
            let n = Int(random.next() % 60)
            var line: [MKMapPoint] = []
            var x = 0.0, y = 0.0
            for _ in 0..<n {
                // Integer steps give ties and exact collinearity, the cases most likely to differ.
                x += Double(Int(random.next() % 7) - 2)
                y += Double(Int(random.next() % 7) - 3)
                line.append(MKMapPoint(x: x, y: y))
            }
            let tolerance = Double(random.next() % 8) / 2
            XCTAssertEqual(Simplification.douglasPeucker(line, tolerance: tolerance),
                           referenceDouglasPeucker(line, tolerance: tolerance), "round \(round)")
            XCTAssertEqual(Simplification.visvalingamWhyatt(line, minimumArea: tolerance * 2),
                           referenceVisvalingamWhyatt(line, minimumArea: tolerance * 2), "round \(round)")
        }
    }

    // MARK: Heap

    func testAreaHeapUpdatesInPlace() {
        var heap = AreaHeap(count: 6)
        for (i, a) in [5.0, 1, 4, 2, 3, 0.5].enumerated() { heap.append(AreaEntry(area: a, index: i)) }
        heap.heapify()
        XCTAssertEqual(heap.popMin()?.index, 5)
        heap.update(0, area: 0.1)   // moves up
        heap.update(1, area: 10)    // moves down
        heap.update(5, area: 0)     // already popped: ignored
        var order: [Int] = []
        while let e = heap.popMin() { order.append(e.index) }
        XCTAssertEqual(order, [0, 3, 4, 2, 1])
    }

    func testBinaryHeapOrdersAndDrains() {
        var heap = BinaryHeap<Int>(capacity: 4)
        let values = [5, 3, 9, 1, 1, 7, -2, 8, 0]
        for v in values { heap.push(v) }
        XCTAssertEqual(heap.count, values.count)
        var out: [Int] = []
        while let v = heap.popMin() { out.append(v) }
        XCTAssertEqual(out, values.sorted())
        XCTAssertTrue(heap.isEmpty)
        XCTAssertNil(heap.popMin())
    }
}
