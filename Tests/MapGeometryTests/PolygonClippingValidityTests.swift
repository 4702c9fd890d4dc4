import Foundation
import TestSupport
import XCTest
@testable import MapGeometry

/// `Clipping.clipPolygonParts` must give valid polygons (OGC simple features): no zero-area joins
/// along the boundary, parts and holes touching at points at most, and the same area as `clipPolygon`.
final class PolygonClippingValidityTests: XCTestCase {
    private func pts(_ xy: [(Double, Double)]) -> [MKMapPoint] { xy.map { MKMapPoint(x: $0.0, y: $0.1) } }
    private let rect = MKMapRect(x: 0, y: 0, width: 10, height: 10)

    // MARK: Helpers

    /// The ring without its closing vertex.
    private func open(_ ring: [MKMapPoint]) -> [MKMapPoint] {
        ring.count >= 2 && ring.first == ring.last ? Array(ring.dropLast()) : ring
    }

    /// A ring written from its smallest vertex (x, then y), so rings compare whatever their start.
    private func canonical(_ ring: [MKMapPoint]) -> [MKMapPoint] {
        let r = open(ring)
        guard let start = r.indices.min(by: { (r[$0].x, r[$0].y) < (r[$1].x, r[$1].y) }) else { return r }
        return Array(r[start...] + r[..<start])
    }

    /// Parts with canonical rings, in a fixed order, for exact comparisons.
    private func canonical(_ parts: [[[MKMapPoint]]]) -> [[[MKMapPoint]]] {
        parts.map { $0.map(canonical) }.sorted { ($0[0][0].x, $0[0][0].y) < ($1[0][0].x, $1[0][0].y) }
    }

    private func area(_ parts: [[[MKMapPoint]]]) -> Double {
        parts.reduce(0) { $0 + PlanarPolygon.area($1) }
    }

    /// Asserts everything a valid clip must satisfy, and returns its area.
    @discardableResult
    private func checkValid(_ parts: [[[MKMapPoint]]], input: [[MKMapPoint]], rect box: MKMapRect,
                            file: StaticString = #filePath, line: UInt = #line) -> Double {
        let exteriorSign = PlanarPolygon.signedArea(input[0]) > 0
        let inputClosed = input[0].count >= 2 && input[0].first == input[0].last
        // A polygon wholly inside comes back as it is, holes wound and closed however they came.
        let unchanged = parts == [input]
        var edges: [(MKMapPoint, MKMapPoint)] = []
        for part in parts {
            XCTAssertFalse(part.isEmpty, file: file, line: line)
            let exteriorBounds = MKMapRect(boundingPoints: part[0])
            for (index, ring) in part.enumerated() {
                if !unchanged {
                    XCTAssertEqual(ring.count >= 2 && ring.first == ring.last, inputClosed, "closing follows the input", file: file, line: line)
                }
                let r = open(ring)
                XCTAssertGreaterThanOrEqual(Set(r).count, 3, "ring \(r)", file: file, line: line)
                let a = PlanarPolygon.signedArea(r)
                XCTAssertNotEqual(a, 0, file: file, line: line)
                // Otherwise exteriors wind as the input's exterior does, holes the other way.
                if !unchanged {
                    XCTAssertEqual(a > 0, index == 0 ? exteriorSign : !exteriorSign, "orientation of ring \(index)", file: file, line: line)
                }
                if index > 0 {
                    let b = MKMapRect(boundingPoints: r)
                    XCTAssertTrue(exteriorBounds.contains(b), "hole outside its exterior's bounds", file: file, line: line)
                }
                for p in r {
                    XCTAssertTrue(p.x >= box.minX && p.x <= box.maxX && p.y >= box.minY && p.y <= box.maxY,
                                  "\(p) outside \(box)", file: file, line: line)
                }
                let n = r.count
                for i in 0..<n {
                    let p0 = r[i], p1 = r[(i + 1) % n], p2 = r[(i + 2) % n]
                    XCTAssertNotEqual(p0, p1, "repeated vertex", file: file, line: line)
                    // No spike: the next edge does not run straight back over this one.
                    let d1x = p1.x - p0.x, d1y = p1.y - p0.y, d2x = p2.x - p1.x, d2y = p2.y - p1.y
                    let cross = d1x * d2y - d1y * d2x
                    let scale = (d1x * d1x + d1y * d1y).squareRoot() * (d2x * d2x + d2y * d2y).squareRoot()
                    let isSpike = abs(cross) <= 1e-12 * scale && d1x * d2x + d1y * d2y < 0
                    XCTAssertFalse(isSpike, "spike at \(p1) in \(r)", file: file, line: line)
                    edges.append((p0, p1))
                }
            }
        }
        // No edge overlaps another along a stretch of positive length: not in the same ring, not in
        // another ring of the same part, not in another part. Such overlaps are exactly the zero-area
        // joins clipPolygon makes.
        let bounds = edges.map { (min($0.0.x, $0.1.x), max($0.0.x, $0.1.x), min($0.0.y, $0.1.y), max($0.0.y, $0.1.y)) }
        for i in edges.indices {
            for j in (i + 1)..<edges.count {
                let bi = bounds[i], bj = bounds[j]
                guard bi.0 <= bj.1 && bj.0 <= bi.1 && bi.2 <= bj.3 && bj.2 <= bi.3 else { continue }
                if overlap(edges[i], edges[j]) {
                    XCTFail("edges \(edges[i]) and \(edges[j]) overlap", file: file, line: line)
                    return area(parts)
                }
            }
        }
        return area(parts)
    }

    /// Whether two segments are collinear and share a stretch of positive length.
    private func overlap(_ e: (MKMapPoint, MKMapPoint), _ f: (MKMapPoint, MKMapPoint)) -> Bool {
        let dx = e.1.x - e.0.x, dy = e.1.y - e.0.y
        let length2 = dx * dx + dy * dy
        guard length2 > 0 else { return false }
        let length = length2.squareRoot()
        func offLine(_ p: MKMapPoint) -> Bool {
            let c = dx * (p.y - e.0.y) - dy * (p.x - e.0.x)
            return abs(c) > 1e-9 * length * max(length, abs(p.x - e.0.x) + abs(p.y - e.0.y))
        }
        if offLine(f.0) || offLine(f.1) { return false }
        // Positions along e, in units of e's length.
        let t0 = ((f.0.x - e.0.x) * dx + (f.0.y - e.0.y) * dy) / length2
        let t1 = ((f.1.x - e.0.x) * dx + (f.1.y - e.0.y) * dy) / length2
        let lo = max(0, min(t0, t1)), hi = min(1, max(t0, t1))
        return hi - lo > 1e-9
    }

    /// Checks validity and that the area matches clipPolygon's.
    private func checkAgainstClipPolygon(_ polygon: [[MKMapPoint]], _ box: MKMapRect, label: String = "",
                                         file: StaticString = #filePath, line: UInt = #line) -> [[[MKMapPoint]]] {
        let parts = Clipping.clipPolygonParts(polygon, to: box)
        let a = checkValid(parts, input: polygon, rect: box, file: file, line: line)
        let reference = PlanarPolygon.area(Clipping.clipPolygon(polygon, to: box))
        XCTAssertEqual(a, reference, accuracy: 1e-6 * max(a, reference) + 1e-9 * box.width * box.height,
                       "area \(label)", file: file, line: line)
        return parts
    }

    // MARK: Shapes

    func testUShapeCutAcrossBothArmsGivesTwoSquares() {
        // clipPolygon joins these along the bottom of the rectangle (see ClippingTests).
        let u = pts([(0, 0), (10, 0), (10, 20), (20, 20), (20, 0), (30, 0), (30, 30), (0, 30)])
        let cut = MKMapRect(x: -5, y: -5, width: 40, height: 15)
        let parts = Clipping.clipPolygonParts([u], to: cut)
        XCTAssertEqual(canonical(parts), [[pts([(0, 0), (10, 0), (10, 10), (0, 10)])],
                                          [pts([(20, 0), (30, 0), (30, 10), (20, 10)])]])
        XCTAssertEqual(parts.map { PlanarPolygon.signedArea($0[0]) }, [100, 100])
        checkValid(parts, input: [u], rect: cut)
        // Reversed and closed: the same squares, reversed and closed.
        var reversed = Array(u.reversed())
        reversed.append(reversed[0])
        let other = Clipping.clipPolygonParts([reversed], to: cut)
        XCTAssertEqual(other.count, 2)
        for part in other {
            XCTAssertEqual(part.count, 1)
            XCTAssertEqual(part[0].count, 5)
            XCTAssertEqual(part[0].first, part[0].last)
            XCTAssertEqual(PlanarPolygon.signedArea(part[0]), -100)
        }
        checkValid(other, input: [reversed], rect: cut)
    }

    func testCombWithTeethAcrossOneEdge() {
        for teeth in 1...7 {
            // Teeth 10 wide rising from a base at y 20…30 to y 0, 10 apart; the rectangle holds the
            // top 10 of every tooth.
            var comb = pts([(0, 30)])
            for i in 0..<teeth {
                let x = Double(i) * 20
                comb += pts([(x, 20), (x, 0), (x + 10, 0), (x + 10, 20)])
            }
            comb += pts([(Double(teeth) * 20 - 10, 30)])
            comb = Array(comb.reversed())  // either winding
            let cut = MKMapRect(x: -1, y: -1, width: Double(teeth) * 20 + 2, height: 11)
            let parts = checkAgainstClipPolygon([comb], cut)
            XCTAssertEqual(parts.count, teeth)
            for part in parts { XCTAssertEqual(PlanarPolygon.area(part), 100, accuracy: 1e-9) }

            // A zigzag of triangles crossing the left edge.
            var zigzag = pts([(20, 0)])
            for i in 0..<teeth {
                let y = Double(i) * 4
                zigzag += pts([(-10, y + 1), (5, y + 2), (-10, y + 3)])
            }
            zigzag += pts([(20, Double(teeth) * 4)])
            let saw = checkAgainstClipPolygon([zigzag], MKMapRect(x: 0, y: -5, width: 10, height: Double(teeth) * 4 + 10))
            // The teeth reach in from outside, so the inside is one piece; the other way round, cutting
            // the inner end off, the teeth come apart.
            XCTAssertEqual(saw.count, 1)
            let tips = checkAgainstClipPolygon([zigzag], MKMapRect(x: -20, y: -5, width: 18, height: Double(teeth) * 4 + 10))
            // Wedges between the teeth: one more than the teeth.
            XCTAssertEqual(tips.count, teeth + 1)
        }
    }

    func testHoleAcrossTheBoundaryOpensIntoTheExterior() {
        let exterior = pts([(-10, -10), (20, -10), (20, 20), (-10, 20)])
        let hole = pts([(8, 4), (8, 6), (12, 6), (12, 4)])
        let parts = checkAgainstClipPolygon([exterior, hole], rect)
        XCTAssertEqual(parts.count, 1)
        XCTAssertEqual(parts[0].count, 1, "no separate hole ring")
        XCTAssertEqual(PlanarPolygon.signedArea(parts[0][0]), 96)
        XCTAssertEqual(canonical(parts[0][0]),
                       pts([(0, 0), (10, 0), (10, 4), (8, 4), (8, 6), (10, 6), (10, 10), (0, 10)]))
        // A hole across a corner, and one across two opposite sides (which cuts the rest in two).
        let corner = pts([(8, 8), (12, 8), (12, 12), (8, 12)])
        XCTAssertEqual(checkAgainstClipPolygon([exterior, corner], rect).count, 1)
        let band = pts([(-5, 4), (15, 4), (15, 6), (-5, 6)])
        let halves = checkAgainstClipPolygon([exterior, band], rect)
        XCTAssertEqual(canonical(halves), [[pts([(0, 0), (10, 0), (10, 4), (0, 4)])],
                                           [pts([(0, 6), (10, 6), (10, 10), (0, 10)])]])
    }

    func testHolesWhollyInsideGoToTheirPart() {
        let u = pts([(0, 0), (10, 0), (10, 20), (20, 20), (20, 0), (30, 0), (30, 30), (0, 30)])
        let inRight = pts([(24, 2), (24, 4), (26, 4), (26, 2)])
        let inLeft = pts([(2, 6), (2, 8), (4, 8), (4, 6)])
        let outside = pts([(2, 22), (2, 24), (4, 24), (4, 22)])  // in the base, below the cut
        let cut = MKMapRect(x: -5, y: -5, width: 40, height: 15)
        let polygon = [u, inRight, outside, inLeft]
        let parts = checkAgainstClipPolygon(polygon, cut)
        XCTAssertEqual(parts.count, 2)
        let left = parts.first { $0[0].contains(MKMapPoint(x: 0, y: 0)) }!
        let right = parts.first { $0[0].contains(MKMapPoint(x: 30, y: 0)) }!
        XCTAssertEqual(left.count, 2)
        XCTAssertEqual(Set(left[1]), Set(inLeft))
        XCTAssertEqual(right.count, 2)
        XCTAssertEqual(Set(right[1]), Set(inRight))
        XCTAssertEqual(PlanarPolygon.area(left), 96)
        XCTAssertEqual(PlanarPolygon.area(right), 96)
        // Holes run against the exterior whichever way they came in.
        XCTAssertLessThan(PlanarPolygon.signedArea(right[1]), 0)
    }

    func testRectInsideHoleOrInsideExterior() {
        let exterior = pts([(-10, -10), (20, -10), (20, 20), (-10, 20)])
        let around = pts([(-5, -5), (-5, 15), (15, 15), (15, -5)])
        XCTAssertEqual(Clipping.clipPolygonParts([exterior, around], to: rect), [])
        let inside = Clipping.clipPolygonParts([exterior], to: rect)
        XCTAssertEqual(canonical(inside), [[pts([(0, 0), (10, 0), (10, 10), (0, 10)])]])
        XCTAssertEqual(PlanarPolygon.signedArea(inside[0][0]), 100)
        // Winding and closing follow the exterior.
        var reversed = Array(exterior.reversed())
        reversed.append(reversed[0])
        let other = Clipping.clipPolygonParts([reversed], to: rect)
        XCTAssertEqual(other[0][0].count, 5)
        XCTAssertEqual(PlanarPolygon.signedArea(other[0][0]), -100)
        // With a hole inside the rectangle, and one elsewhere.
        let hole = pts([(2, 2), (4, 2), (4, 4), (2, 4)])
        let far = pts([(15, 15), (17, 15), (17, 17), (15, 17)])
        let holed = checkAgainstClipPolygon([exterior, hole, far], rect)
        XCTAssertEqual(holed.count, 1)
        XCTAssertEqual(holed[0].count, 2)
        XCTAssertEqual(PlanarPolygon.area(holed[0]), 96)
        // Wholly outside, and wholly inside (unchanged).
        XCTAssertEqual(Clipping.clipPolygonParts([pts([(20, 20), (30, 20), (30, 30)])], to: rect), [])
        let small = [pts([(1, 1), (9, 1), (9, 9), (1, 9), (1, 1)]), pts([(2, 2), (2, 3), (3, 3), (3, 2), (2, 2)])]
        XCTAssertEqual(Clipping.clipPolygonParts(small, to: rect), [small])
        XCTAssertEqual(Clipping.clipPolygonParts([], to: rect), [])
        XCTAssertEqual(Clipping.clipPolygonParts([exterior], to: .null), [])
    }

    // MARK: Degenerate input

    func testVerticesOnTheBoundary() {
        // A diamond with its corners on the sides: the whole diamond, unchanged.
        let diamond = pts([(5, 0), (10, 5), (5, 10), (0, 5)])
        XCTAssertEqual(Clipping.clipPolygonParts([diamond], to: rect), [[diamond]])
        // Crossing at vertices exactly on the boundary.
        let crossing = pts([(5, -5), (10, 0), (15, 5), (10, 10), (5, 15), (0, 10), (-5, 5), (0, 0)])
        let parts = checkAgainstClipPolygon([crossing], rect)
        XCTAssertEqual(parts.count, 1)
        XCTAssertEqual(area(parts), 100)
        // A notch reaching in from the left whose tip touches the bottom edge: the sliver between the
        // notch and the bottom edge meets the rest at that vertex only, so they are two parts.
        let notch = pts([(-5, -5), (15, -5), (15, 15), (-5, 15), (-5, 8), (5, 10), (-5, 2)])
        for ring in [notch, notch.reversed()] {
            let pieces = checkAgainstClipPolygon([ring], rect)
            XCTAssertEqual(pieces.map { PlanarPolygon.area($0) }.sorted(), [2.5, 90])
        }
        // A V reaching down from the top to touch the bottom edge splits the square in two.
        let v = pts([(-5, -5), (15, -5), (15, 15), (-5, 15), (-5, -5)])
        let wedge = pts([(2, -2), (5, 10), (8, -2)])
        let split = checkAgainstClipPolygon([v, wedge], rect)
        XCTAssertEqual(split.count, 2)
        for part in split { XCTAssertEqual(part.count, 1) }
        // A hole touching the boundary at one vertex stays a hole; at two it splits the part.
        let touchOnce = pts([(0, 5), (3, 3), (3, 7)])
        let once = checkAgainstClipPolygon([v, touchOnce], rect)
        XCTAssertEqual(once.count, 1)
        XCTAssertEqual(once[0].count, 2)
        let touchTwice = pts([(0, 5), (5, 2), (10, 5), (5, 8)])
        let twice = checkAgainstClipPolygon([v, touchTwice], rect)
        XCTAssertEqual(twice.count, 2)
        XCTAssertEqual(area(twice), 100 - 30)
    }

    func testEdgesAlongTheBoundary() {
        // The polygon shares the rectangle's left edge from outside: nothing.
        XCTAssertEqual(Clipping.clipPolygonParts([pts([(-10, 0), (0, 0), (0, 10), (-10, 10)])], to: rect), [])
        // From inside, reaching out: the part of it inside.
        let inside = pts([(0, 0), (20, 0), (20, 5), (0, 5)])
        let parts = checkAgainstClipPolygon([inside], rect)
        XCTAssertEqual(canonical(parts), [[pts([(0, 0), (10, 0), (10, 5), (0, 5)])]])
        // Along part of an edge, with notches reaching in from it.
        let notched = pts([(-5, -5), (15, -5), (15, 15), (8, 15), (8, 10), (6, 10), (6, 6), (4, 6), (4, 10), (2, 10), (2, 15), (-5, 15)])
        let notchParts = checkAgainstClipPolygon([notched], rect)
        XCTAssertEqual(notchParts.count, 1)
        XCTAssertEqual(area(notchParts), 92)
        // A hole sharing part of the boundary opens into the exterior.
        let exterior = pts([(-10, -10), (20, -10), (20, 20), (-10, 20)])
        let edgeHole = pts([(10, 2), (7, 2), (7, 4), (10, 4)])
        let opened = checkAgainstClipPolygon([exterior, edgeHole], rect)
        XCTAssertEqual(opened.count, 1)
        XCTAssertEqual(opened[0].count, 1)
        XCTAssertEqual(area(opened), 94)
        // A hole that is the rectangle itself leaves nothing.
        XCTAssertEqual(Clipping.clipPolygonParts([exterior, pts([(0, 0), (10, 0), (10, 10), (0, 10)])], to: rect), [])
        // The exterior running along the whole top edge from outside to outside.
        let below = pts([(-5, 0), (15, 0), (15, 15), (-5, 15)])
        XCTAssertEqual(canonical(checkAgainstClipPolygon([below], rect)), [[pts([(0, 0), (10, 0), (10, 10), (0, 10)])]])
        let above = pts([(-5, 0), (15, 0), (15, -15), (-5, -15)])
        XCTAssertEqual(Clipping.clipPolygonParts([above], to: rect), [])
    }

    func testTouchingAtACorner() {
        XCTAssertEqual(Clipping.clipPolygonParts([pts([(10, 10), (20, 10), (20, 20), (10, 20)])], to: rect), [])
        XCTAssertEqual(Clipping.clipPolygonParts([pts([(10, 10), (20, 5), (15, 15)])], to: rect), [])
        // An edge through two corners: the triangle on one side.
        let diagonal = pts([(-5, -5), (15, 15), (15, -5)])
        let parts = checkAgainstClipPolygon([diagonal], rect)
        XCTAssertEqual(canonical(parts), [[pts([(0, 0), (10, 10), (10, 0)])]])  // the input's winding
        // Two triangles meeting at the centre, each crossing the rectangle: two parts touching at a point.
        let bowtieLeft = pts([(-5, -5), (5, 5), (-5, 15)])
        let left = checkAgainstClipPolygon([bowtieLeft], rect)
        XCTAssertEqual(area(left), 25)
    }

    func testNonFiniteVertices() {
        let u = pts([(0, 0), (10, 0), (10, 20), (.nan, 25), (20, 20), (20, 0), (30, 0), (30, 30), (.infinity, 30), (0, 30)])
        let cut = MKMapRect(x: -5, y: -5, width: 40, height: 15)
        let parts = Clipping.clipPolygonParts([u], to: cut)
        XCTAssertEqual(parts.count, 2)
        XCTAssertEqual(area(parts), 200)
        for part in parts { for ring in part { XCTAssertTrue(ring.allSatisfy { $0.x.isFinite && $0.y.isFinite }) } }
        XCTAssertEqual(Clipping.clipPolygonParts([pts([(.nan, .nan), (.nan, 1), (1, .nan)])], to: rect), [])
        let exterior = pts([(-10, -10), (20, -10), (.nan, 0), (20, 20), (-10, 20)])
        let hole = pts([(8, 4), (8, 6), (.nan, .nan), (12, 6), (12, 4)])
        let holed = Clipping.clipPolygonParts([exterior, hole], to: rect)
        XCTAssertEqual(area(holed), 96)
        // A degenerate exterior (no area) gives nothing rather than a crash.
        XCTAssertEqual(Clipping.clipPolygonParts([pts([(-5, 5), (15, 5), (20, 5)])], to: rect), [])
        XCTAssertEqual(Clipping.clipPolygonParts([pts([(-5, 5), (-5, 5), (15, 5)])], to: rect), [])
    }

    func testSharedEdgeCutsAtTheSamePointFromBothSides() {
        let a = MKMapPoint(x: -0.3, y: 0.1), b = MKMapPoint(x: 0.7, y: 0.37)
        let box = MKMapRect(x: 0, y: -1, width: 1, height: 2)
        let first = Clipping.clipPolygonParts([[a, b, MKMapPoint(x: -1, y: 1)]], to: box)
        let second = Clipping.clipPolygonParts([[b, a, MKMapPoint(x: 0.5, y: -0.9)]], to: box)
        func onCut(_ p: MKMapPoint) -> Bool { p.x == 0 && p.y > 0.1 && p.y < 0.37 }
        let cutFirst: [MKMapPoint] = first.flatMap { (part: [[MKMapPoint]]) in part[0] }.filter(onCut)
        let cutSecond: [MKMapPoint] = second.flatMap { (part: [[MKMapPoint]]) in part[0] }.filter(onCut)
        XCTAssertEqual(cutFirst.count, 1)
        XCTAssertEqual(cutFirst, cutSecond)
        // And at clipPolygon's point.
        let old = Clipping.clipPolygon([[a, b, MKMapPoint(x: -1, y: 1)]], to: box)[0]
        XCTAssertEqual(old.filter(onCut), cutFirst)
    }

    // MARK: Properties

    /// A star-shaped ring around `centre` (so simple), with `n` vertices at radii from `radius`.
    private func star(_ random: inout SplitMix64, centre: MKMapPoint, n: Int, radius: (inout SplitMix64) -> Double) -> [MKMapPoint] {
        (0..<n).map { i in
            let angle = (Double(i) + random.uniform(-0.3, 0.3)) / Double(n) * 2 * .pi
            let r = radius(&random)
            return MKMapPoint(x: centre.x + r * cos(angle), y: centre.y + r * sin(angle))
        }
    }

    private func randomlyOriented(_ ring: [MKMapPoint], _ random: inout SplitMix64, closed: Bool) -> [MKMapPoint] {
        var r = random.next() % 2 == 0 ? ring : Array(ring.reversed())
        if closed { r.append(r[0]) }
        return r
    }

    /// A comb: teeth of random widths and heights on a base, with quadrilateral holes inside the
    /// teeth, turned by a random angle about `centre`. Simple, holes inside, nothing touching.
    private func comb(_ random: inout SplitMix64, centre: MKMapPoint, size: Double) -> [[MKMapPoint]] {
        let teeth = Int(random.next() % 6) + 2
        let unit = size / Double(teeth)
        var exterior: [MKMapPoint] = [MKMapPoint(x: 0, y: 0.3 * size)]
        var holes: [[MKMapPoint]] = []
        var x = 0.0
        for _ in 0..<teeth {
            let width = random.uniform(0.4, 0.7) * unit, height = random.uniform(0.3, 1) * size
            exterior.append(MKMapPoint(x: x, y: -height))
            exterior.append(MKMapPoint(x: x + width, y: -height))
            exterior.append(MKMapPoint(x: x + width, y: 0))
            exterior.append(MKMapPoint(x: x + unit, y: 0))
            // Holes stacked up the tooth, corners jittered inside their cells.
            let count = Int(random.next() % 3)
            for h in 0..<count {
                let cell = height / Double(count)
                let top = -Double(h + 1) * cell, bottom = -Double(h) * cell
                func jitter(_ r: inout SplitMix64) -> Double { r.uniform(0.15, 0.3) }
                holes.append([
                    MKMapPoint(x: x + jitter(&random) * width, y: top + jitter(&random) * cell),
                    MKMapPoint(x: x + (1 - jitter(&random)) * width, y: top + jitter(&random) * cell),
                    MKMapPoint(x: x + (1 - jitter(&random)) * width, y: bottom - jitter(&random) * cell),
                    MKMapPoint(x: x + jitter(&random) * width, y: bottom - jitter(&random) * cell),
                ])
            }
            x += unit
        }
        exterior.removeLast()
        exterior.append(MKMapPoint(x: x - unit + 0.7 * unit, y: 0.3 * size))
        let angle = random.uniform(0, 2 * .pi), c = cos(angle), s = sin(angle)
        let mid = MKMapPoint(x: x / 2, y: 0)
        return ([exterior] + holes).map { ring in
            ring.map { p in
                let dx = p.x - mid.x, dy = p.y - mid.y
                return MKMapPoint(x: centre.x + c * dx - s * dy, y: centre.y + s * dx + c * dy)
            }
        }
    }

    func testRandomPolygonsGiveValidPartsWithTheSameArea() {
        var random = SplitMix64(seed: 2024)
        let box = MKMapRect(x: 100, y: 200, width: 50, height: 30)
        var partCounts: [Int: Int] = [:]
        var holesAmongParts = 0
        for trial in 0..<400 {
            let size = [0.3, 1, 2, 4][trial % 4] * 40
            let centre = MKMapPoint(x: random.uniform(box.minX - size, box.maxX + size),
                                    y: random.uniform(box.minY - size, box.maxY + size))
            let closed = random.next() % 2 == 0
            var polygon: [[MKMapPoint]]
            if trial % 3 == 2 {
                // Combs with a hole or two in each tooth, turned to a random angle: cut across the
                // teeth, the holes must go to the right tooth.
                polygon = comb(&random, centre: centre, size: size).map { randomlyOriented($0, &random, closed: closed) }
            } else if trial % 3 == 0 {
                // Spiky stars, which leave and re-enter the rectangle often.
                let n = Int(random.next() % 60) + 3
                let spiky = random.next() % 2 == 0
                let exterior = star(&random, centre: centre, n: n) { r in
                    spiky ? r.uniform(0.05, 1) * size : r.uniform(0.6, 1) * size
                }
                polygon = [randomlyOriented(exterior, &random, closed: closed)]
            } else {
                // Stars with holes: annular sectors well inside the exterior.
                let n = Int(random.next() % 50) + 8
                let exterior = star(&random, centre: centre, n: n) { r in r.uniform(0.5, 1) * size }
                polygon = [randomlyOriented(exterior, &random, closed: closed)]
                let holes = Int(random.next() % 5)
                for h in 0..<holes {
                    let sector: Double = 2 * Double.pi / Double(holes)
                    let a0: Double = Double(h) * sector + 0.1
                    let a1: Double = Double(h + 1) * sector - 0.1
                    let inner: Double = random.uniform(0.05, 0.2) * size
                    let outer: Double = random.uniform(0.25, 0.45) * size
                    let steps = Int(random.next() % 6) + 1
                    var ring: [MKMapPoint] = []
                    for s in 0...steps {
                        let angle = a0 + (a1 - a0) * Double(s) / Double(steps)
                        ring.append(MKMapPoint(x: centre.x + outer * cos(angle), y: centre.y + outer * sin(angle)))
                    }
                    for s in (0...steps).reversed() {
                        let angle = a0 + (a1 - a0) * Double(s) / Double(steps)
                        ring.append(MKMapPoint(x: centre.x + inner * cos(angle), y: centre.y + inner * sin(angle)))
                    }
                    polygon.append(randomlyOriented(ring, &random, closed: random.next() % 2 == 0))
                }
            }
            let parts = checkAgainstClipPolygon(polygon, box, label: "trial \(trial)")
            partCounts[parts.count, default: 0] += 1
            if parts.count >= 2 { holesAmongParts += parts.reduce(0) { $0 + $1.count - 1 } }
        }
        XCTAssertGreaterThan(holesAmongParts, 5, "whole holes placed among several parts")
        // The trials must exercise re-entry, not just the easy cases.
        XCTAssertGreaterThan(partCounts.filter { $0.key >= 2 }.values.reduce(0, +), 30, "\(partCounts)")
        XCTAssertGreaterThan(partCounts[0] ?? 0, 10)
    }

    func testRandomGridPolygonsOnTheBoundaryStayValid() {
        // Histogram-shaped polygons on an integer grid, clipped to an integer rectangle: vertices on
        // the boundary, edges along it and teeth touching it all happen often.
        var random = SplitMix64(seed: 7)
        let box = MKMapRect(x: 4, y: 3, width: 8, height: 6)
        var partCounts: [Int: Int] = [:]
        for trial in 0..<300 {
            let columns = Int(random.next() % 12) + 1
            let x0 = Double(Int(random.next() % 8))
            let base = Double(Int(random.next() % 14)) - 1
            var ring = pts([(x0, base)])
            for c in 0..<columns {
                let h = base - Double(Int(random.next() % 10)) - 1  // teeth rise towards −y
                ring += pts([(x0 + Double(c), h), (x0 + Double(c + 1), h)])
            }
            ring += pts([(x0 + Double(columns), base)])
            // Neighbouring columns of the same height repeat a vertex.
            ring = ring.enumerated().filter { $0.offset == 0 || $0.element != ring[$0.offset - 1] }.map(\.element)
            if trial % 3 == 0 {
                // Flip it over so the teeth hang down, and sometimes add a hole in the base strip.
                ring = ring.map { MKMapPoint(x: $0.x, y: 2 * base - $0.y) }
            }
            var polygon = [random.next() % 2 == 0 ? ring : Array(ring.reversed())]
            if trial % 4 == 1 {
                // A box enclosing everything, with the histogram as its hole.
                polygon = [pts([(-5, -20), (30, -20), (30, 30), (-5, 30)]), polygon[0]]
            }
            let parts = checkAgainstClipPolygon(polygon, box, label: "grid trial \(trial)")
            partCounts[parts.count, default: 0] += 1
        }
        XCTAssertGreaterThan(partCounts.filter { $0.key >= 2 }.values.reduce(0, +), 30, "\(partCounts)")
    }

    func testRandomGridPolygonsWithHolesOnTheBoundaryStayValid() {
        // Histograms on a grid of 4, with square holes inside their columns, clipped to rectangles on
        // the grid: holes and teeth cross, touch and run along the boundary.
        var random = SplitMix64(seed: 99)
        var partCounts: [Int: Int] = [:]
        for trial in 0..<300 {
            let columns = Int(random.next() % 8) + 1
            let base = 40.0
            var heights: [Double] = []
            var ring = pts([(0, base)])
            for c in 0..<columns {
                let h = base - 4 * Double(Int(random.next() % 8) + 2)
                heights.append(h)
                let x = 4 * Double(c)
                if c > 0 && heights[c - 1] == h { ring.removeLast() } else { ring += pts([(x, h)]) }
                ring += pts([(x + 4, h)])
            }
            ring += pts([(4 * Double(columns), base)])
            var polygon = [random.next() % 2 == 0 ? ring : Array(ring.reversed())]
            for c in 0..<columns where random.next() % 2 == 0 {
                // A hole one to three units tall, somewhere in the column.
                let x = 4 * Double(c) + Double(Int(random.next() % 2)) + 1
                let top = heights[c] + Double(Int(random.next() % UInt64(base - heights[c] - 2))) + 1
                let bottom = min(top + Double(Int(random.next() % 3)) + 1, base - 1)
                let hole = pts([(x, top), (x + Double(Int(random.next() % 2)) + 1, top), (x + 1, bottom), (x, bottom)])
                polygon.append(random.next() % 2 == 0 ? hole : Array(hole.reversed()))
            }
            let x0 = Double(Int(random.next() % 30)) - 4, y0 = Double(Int(random.next() % 40)) - 4
            let box = MKMapRect(x: x0, y: y0, width: Double(Int(random.next() % 20) + 1), height: Double(Int(random.next() % 20) + 1))
            let parts = checkAgainstClipPolygon(polygon, box, label: "grid trial \(trial)")
            partCounts[parts.count, default: 0] += 1
        }
        XCTAssertGreaterThan(partCounts.filter { $0.key >= 2 }.values.reduce(0, +), 5, "\(partCounts)")
    }
}
