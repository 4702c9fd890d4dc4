import Foundation
import MapFormats
import TestSupport
import XCTest

@testable import MapImport

/// Builds relations from a compact description: nodes on an integer grid (1 unit = 1e-5 degrees), ways
/// as node-id lists.
private struct Fixture {
    var locations: [Int64: OSMLocation] = [:]
    var ways: [Int64: OSMWay] = [:]
    var members: [OSMRelation.Member] = []
    private var nextNode: Int64 = 1
    private var nextWay: Int64 = 1000

    /// A node at grid position (x, y); reuses the node already there unless `fresh`.
    mutating func node(_ x: Int, _ y: Int, fresh: Bool = false) -> Int64 {
        let location = OSMLocation(latitudeE7: Int32(y * 100), longitudeE7: Int32(x * 100))
        if !fresh, let existing = locations.first(where: { $0.value == location })?.key { return existing }
        let id = nextNode
        nextNode += 1
        locations[id] = location
        return id
    }

    @discardableResult
    mutating func way(_ points: [(Int, Int)], role: String = "outer", id: Int64? = nil) -> Int64 {
        let refs = points.map { node($0.0, $0.1) }
        return way(refs: refs, role: role, id: id)
    }

    @discardableResult
    mutating func way(refs: [Int64], role: String = "outer", id: Int64? = nil) -> Int64 {
        let wayID = id ?? nextWay
        if id == nil { nextWay += 1 }
        ways[wayID] = OSMWay(id: wayID, nodeRefs: refs)
        members.append(.init(type: .way, ref: wayID, role: role))
        return wayID
    }

    mutating func square(_ x: Int, _ y: Int, _ size: Int, role: String = "outer") {
        way([(x, y), (x + size, y), (x + size, y + size), (x, y + size), (x, y)], role: role)
    }

    func assemble(id: Int64 = 1) -> AreaAssembly {
        let relation = OSMRelation(id: id, members: members, tags: [("type", "multipolygon")])
        return MultipolygonAssembler().assemble(relation: relation, way: { ways[$0] }, location: { locations[$0] })
    }
}

final class MultipolygonTests: XCTestCase {

    // MARK: Helpers

    private func signedArea(_ ring: [OSMLocation]) -> Double {
        guard let o = ring.first, ring.count > 1 else { return 0 }
        var sum = 0.0
        for i in 0..<(ring.count - 1) {
            let ax = Double(ring[i].longitudeE7 - o.longitudeE7), ay = Double(ring[i].latitudeE7 - o.latitudeE7)
            let bx = Double(ring[i + 1].longitudeE7 - o.longitudeE7), by = Double(ring[i + 1].latitudeE7 - o.latitudeE7)
            sum += ax * by - bx * ay
        }
        return sum / 2
    }

    /// Every ring closed with at least four points, outers counter-clockwise, holes clockwise.
    private func assertWellFormed(_ area: AreaAssembly, file: StaticString = #filePath, line: UInt = #line) {
        for polygon in area.polygons {
            for (i, ring) in polygon.enumerated() {
                XCTAssertGreaterThanOrEqual(ring.count, 4, file: file, line: line)
                XCTAssertEqual(ring.first, ring.last, "ring not closed", file: file, line: line)
                let a = signedArea(ring)
                if i == 0 {
                    XCTAssertGreaterThan(a, 0, "outer ring not counter-clockwise", file: file, line: line)
                } else {
                    XCTAssertLessThan(a, 0, "hole not clockwise", file: file, line: line)
                }
            }
        }
    }

    /// Even–odd parity of a horizontal ray from (px, py) to +x over segments given as coordinate pairs.
    private func parity(_ px: Double, _ py: Double, _ segments: [(Double, Double, Double, Double)]) -> Bool? {
        var inside = false
        for (ax, ay, bx, by) in segments {
            let cross = (bx - ax) * (py - ay) - (by - ay) * (px - ax)
            if cross == 0 && min(ax, bx) <= px && px <= max(ax, bx) && min(ay, by) <= py && py <= max(ay, by) {
                return nil  // on a segment: no answer
            }
            if (ay > py) != (by > py) {
                if (by > ay) ? (cross > 0) : (cross < 0) { inside.toggle() }
            }
        }
        return inside
    }

    /// The built polygons cover exactly the even–odd region of the member ways' segments (where copies of a
    /// segment cancel, as the assembler's model says), sampled on a grid of points.
    private func assertSameRegion(_ area: AreaAssembly, _ f: Fixture, file: StaticString = #filePath, line: UInt = #line) {
        var input: [(Double, Double, Double, Double)] = []
        var seenWays = Set<Int64>()
        var seenShapes = Set<[Int64]>()
        for member in f.members where seenWays.insert(member.ref).inserted {
            guard let way = f.ways[member.ref] else { continue }
            // Duplicate ways are dropped by the assembler before segments cancel; mirror that.
            var refs: [Int64] = []
            for r in way.nodeRefs where r != refs.last { refs.append(r) }
            var shape = refs
            if refs.count >= 4, refs.first == refs.last {
                let ring = Array(refs.dropLast())
                let rotations = ring.indices.map { Array(ring[$0...] + ring[..<$0]) }
                shape = (rotations + rotations.map { Array($0.reversed()) }).min { $0.lexicographicallyPrecedes($1) } ?? ring
                shape.append(Int64.min)
            } else if refs.reversed().lexicographicallyPrecedes(refs) {
                shape = refs.reversed()
            }
            guard seenShapes.insert(shape).inserted else { continue }
            let points = way.nodeRefs.compactMap { f.locations[$0] }
            for (a, b) in zip(points, points.dropFirst()) {
                input.append((Double(a.longitudeE7), Double(a.latitudeE7), Double(b.longitudeE7), Double(b.latitudeE7)))
            }
        }
        var output: [(Double, Double, Double, Double)] = []
        for ring in area.polygons.joined() {
            for (a, b) in zip(ring, ring.dropFirst()) {
                output.append((Double(a.longitudeE7), Double(a.latitudeE7), Double(b.longitudeE7), Double(b.latitudeE7)))
            }
        }
        let xs = input.flatMap { [$0.0, $0.2] }, ys = input.flatMap { [$0.1, $0.3] }
        guard let x0 = xs.min(), let x1 = xs.max(), let y0 = ys.min(), let y1 = ys.max() else { return }
        for i in 0..<60 {
            for j in 0..<60 {
                let px = x0 + (x1 - x0) * (Double(i) + 0.37) / 60, py = y0 + (y1 - y0) * (Double(j) + 0.61) / 60
                guard let expected = parity(px, py, input), let actual = parity(px, py, output) else { continue }
                if expected != actual {
                    XCTFail("region differs at \(px), \(py)", file: file, line: line)
                    return
                }
            }
        }
    }

    private func kinds(_ area: AreaAssembly) -> [AreaProblem.Kind] { area.report.problems.map(\.kind) }

    // MARK: Ring joining

    func testJoinsWaysInAnyDirectionAndOrder() {
        var f = Fixture()
        // A 10×10 square cut into three ways, listed out of order, one reversed.
        f.way([(10, 0), (10, 10), (0, 10)])
        f.way([(0, 0), (10, 0)])
        f.way([(0, 0), (0, 10)])
        let area = f.assemble()
        XCTAssertTrue(area.isValid)
        XCTAssertEqual(area.polygons.count, 1)
        XCTAssertEqual(area.polygons[0].count, 1)
        XCTAssertEqual(area.polygons[0][0].count, 5)
        XCTAssertEqual(signedArea(area.polygons[0][0]), 100 * 100 * 100, accuracy: 1e-6)
        XCTAssertTrue(area.report.problems.isEmpty, "\(area.report.problems)")
        assertWellFormed(area)
    }

    func testRingClosedByTwoWaysInOppositeDirections() {
        var f = Fixture()
        f.way([(0, 0), (5, 0), (5, 5)])
        f.way([(0, 0), (0, 5), (5, 5)])
        let area = f.assemble()
        XCTAssertEqual(area.polygons.count, 1)
        XCTAssertEqual(area.polygons[0][0].count, 5)
        assertWellFormed(area)
    }

    func testIslandsInLakesInIslands() {
        var f = Fixture()
        // Roles deliberately all "outer": nesting decides, not roles.
        f.square(0, 0, 100)
        f.square(10, 10, 80)
        f.square(20, 20, 60)
        f.square(30, 30, 40)
        f.square(200, 0, 10)  // a separate island
        let area = f.assemble()
        XCTAssertTrue(area.isValid)
        XCTAssertEqual(area.polygons.count, 3)
        let sorted = area.polygons.sorted { signedArea($0[0]) > signedArea($1[0]) }
        XCTAssertEqual(sorted.map(\.count), [2, 2, 1])
        XCTAssertEqual(signedArea(sorted[0][0]), 100 * 100 * 10_000, accuracy: 1e-3)
        XCTAssertEqual(signedArea(sorted[0][1]), -80 * 80 * 10_000, accuracy: 1e-3)
        XCTAssertEqual(signedArea(sorted[1][0]), 60 * 60 * 10_000, accuracy: 1e-3)
        XCTAssertEqual(signedArea(sorted[1][1]), -40 * 40 * 10_000, accuracy: 1e-3)
        assertWellFormed(area)
        // The two lakes carry role "outer": reported, geometry kept.
        let mismatches = kinds(area).filter {
            if case .roleMismatch(role: "outer", actual: "inner") = $0 { return true }
            return false
        }
        XCTAssertEqual(mismatches.count, 2)
    }

    func testHoleGoesToTheSmallestOuterAroundIt() {
        var f = Fixture()
        f.square(0, 0, 100)
        f.square(10, 10, 80, role: "inner")
        f.square(20, 20, 60)
        f.square(30, 30, 10, role: "inner")  // inside the middle island, not the big outer
        let area = f.assemble()
        let islands = area.polygons.sorted { signedArea($0[0]) < signedArea($1[0]) }
        XCTAssertEqual(islands.count, 2)
        XCTAssertEqual(islands[0].count, 2)
        XCTAssertEqual(signedArea(islands[0][1]), -10 * 10 * 10_000, accuracy: 1e-3)
        XCTAssertTrue(area.report.problems.isEmpty, "\(area.report.problems)")
        assertSameRegion(area, f)
    }

    func testTouchingInnerRingsSharingAnEdgeMerge() {
        var f = Fixture()
        f.square(0, 0, 100)
        f.way([(20, 20), (50, 20), (50, 80), (20, 80), (20, 20)], role: "inner")
        f.way([(50, 20), (80, 20), (80, 80), (50, 80), (50, 20)], role: "inner")
        let area = f.assemble()
        XCTAssertEqual(area.polygons.count, 1)
        XCTAssertEqual(area.polygons[0].count, 2)
        // The merged hole has the shared edge's end nodes as straight-through points: 6 + closing.
        XCTAssertEqual(area.polygons[0][1].count, 7)
        XCTAssertEqual(signedArea(area.polygons[0][1]), -60 * 60 * 10_000, accuracy: 1e-3)
        XCTAssertTrue(kinds(area).contains(.duplicateSegment))
        XCTAssertFalse(area.report.hasFatalProblems)
        assertWellFormed(area)
        assertSameRegion(area, f)
    }

    func testOuterRingsTouchingInANodeStaySeparate() {
        var f = Fixture()
        f.square(0, 0, 10)
        f.square(10, 10, 10)
        let area = f.assemble()
        XCTAssertEqual(area.polygons.count, 2)
        XCTAssertEqual(area.polygons.map(\.count), [1, 1])
        assertWellFormed(area)
    }

    func testHoleTouchingOuterInANodeIsSplitOff() {
        var f = Fixture()
        // One way: the outline, then a loop inside it from the same corner node.
        f.way([(0, 0), (10, 0), (10, 10), (0, 10), (0, 0), (3, 5), (5, 5), (5, 3), (0, 0)])
        let area = f.assemble()
        XCTAssertEqual(area.polygons.count, 1)
        XCTAssertEqual(area.polygons[0].count, 2)
        XCTAssertEqual(area.polygons[0][1].count, 5)
        assertWellFormed(area)
        assertSameRegion(area, f)
    }

    // MARK: Problems

    func testOpenRingAndMissingWayAreReported() {
        var f = Fixture()
        f.way([(0, 0), (10, 0), (10, 10)])
        f.members.append(.init(type: .way, ref: 99, role: "outer"))  // not in the data
        let area = f.assemble(id: 42)
        XCTAssertFalse(area.isValid)
        XCTAssertEqual(area.report.source, AreaSource(type: .relation, id: 42))
        XCTAssertEqual(area.report.missingWayCount, 1)
        XCTAssertTrue(area.report.problems.contains { $0.kind == .missingWay && $0.wayIDs == [99] })
        let ends = area.report.problems.filter { $0.kind == .openRing }
        XCTAssertEqual(Set(ends.compactMap(\.location)), [OSMLocation(latitudeE7: 0, longitudeE7: 0),
                                                        OSMLocation(latitudeE7: 1000, longitudeE7: 1000)])
        XCTAssertTrue(area.report.hasFatalProblems)
    }

    func testMissingNodesAreCountedAndSkipped() {
        var f = Fixture()
        let refs = [f.node(0, 0), f.node(10, 0), 777, f.node(10, 10), f.node(0, 10), f.node(0, 0)]
        f.way(refs: refs)
        let area = f.assemble()
        XCTAssertEqual(area.report.missingNodeCount, 1)
        XCTAssertTrue(kinds(area).contains(.missingNodes(count: 1)))
        XCTAssertTrue(area.isValid, "the ring still closes without the node")
    }

    func testSelfCrossingRingIsRejectedWithTheCrossingPoint() {
        var f = Fixture()
        f.way([(0, 0), (10, 10), (10, 0), (0, 10), (0, 0)])
        let area = f.assemble()
        XCTAssertFalse(area.isValid)
        let crossing = area.report.problems.first { $0.kind == .segmentsCross }
        XCTAssertEqual(crossing?.location, OSMLocation(latitudeE7: 500, longitudeE7: 500))
    }

    func testRingsTouchingWithoutSharedNodeAreRejected() {
        var f = Fixture()
        f.square(0, 0, 10)
        f.way([(10, 5), (20, 0), (20, 10), (10, 5)])  // a corner on the square's edge, not a node of it
        let area = f.assemble()
        XCTAssertFalse(area.isValid)
        XCTAssertTrue(kinds(area).contains(.segmentTouches))
    }

    func testOverlappingEdgesAreRejected() {
        var f = Fixture()
        f.square(0, 0, 10)
        f.way([(10, 2), (20, 2), (20, 8), (10, 8), (10, 2)])  // shares part of the square's edge x=10
        let area = f.assemble()
        XCTAssertFalse(area.isValid)
        XCTAssertTrue(kinds(area).contains(.segmentsOverlap))
    }

    func testRepairsRepeatedNodesAndDuplicateWays() {
        var f = Fixture()
        let a = f.node(0, 0), b = f.node(10, 0), c = f.node(10, 10), d = f.node(0, 10)
        let first = f.way(refs: [a, b, b, c, d, a])
        f.members.append(.init(type: .way, ref: first, role: "outer"))       // the same member twice
        f.way(refs: [c, d, a, b, c])                                        // same ring, other start
        f.way(refs: [a, d, c, b, a])                                        // same ring, reversed
        let area = f.assemble()
        XCTAssertTrue(area.isValid)
        XCTAssertEqual(area.polygons.count, 1)
        XCTAssertEqual(area.polygons.first?.first?.count, 5)
        let found = kinds(area)
        XCTAssertTrue(found.contains(.duplicateNode))
        XCTAssertTrue(found.contains(.duplicateMember))
        XCTAssertEqual(found.filter { $0 == .duplicateWay }.count, 2)
    }

    func testDistinctNodesAtOneLocationAreJoined() {
        var f = Fixture()
        let a = f.node(0, 0), twin = f.node(0, 0, fresh: true)
        f.way(refs: [a, f.node(10, 0), f.node(10, 10)])
        f.way(refs: [f.node(10, 10), f.node(0, 10), twin])
        let area = f.assemble()
        XCTAssertTrue(area.isValid)
        XCTAssertTrue(kinds(area).contains(.nodesShareLocation))
    }

    func testClosedWays() {
        let assembler = MultipolygonAssembler()
        var locations: [Int64: OSMLocation] = [:]
        for (i, (x, y)) in [(0, 0), (10, 0), (10, 10), (0, 10)].enumerated() {
            locations[Int64(i + 1)] = OSMLocation(latitudeE7: Int32(y), longitudeE7: Int32(x))
        }
        let square = assembler.assemble(closedWay: OSMWay(id: 5, nodeRefs: [1, 4, 3, 2, 1]), location: { locations[$0] })
        XCTAssertEqual(square.source, AreaSource(type: .way, id: 5))
        XCTAssertEqual(square.polygons.count, 1)
        XCTAssertGreaterThan(signedArea(square.polygons[0][0]), 0, "clockwise input comes out counter-clockwise")

        let open = assembler.assemble(closedWay: OSMWay(id: 6, nodeRefs: [1, 2, 3]), location: { locations[$0] })
        XCTAssertEqual(open.report.problems.map(\.kind), [.wayNotClosed])
        XCTAssertFalse(open.isValid)

        let sliver = assembler.assemble(closedWay: OSMWay(id: 7, nodeRefs: [1, 2, 1]), location: { locations[$0] })
        XCTAssertFalse(sliver.isValid)
        XCTAssertTrue(sliver.report.problems.contains { $0.kind == .noArea })

        let unlocated = assembler.assemble(closedWay: OSMWay(id: 8, nodeRefs: [1, 90, 91, 1]), location: { locations[$0] })
        XCTAssertFalse(unlocated.isValid)
        XCTAssertEqual(unlocated.report.missingNodeCount, 2)
    }

    // MARK: Scale

    /// A boundary of 5 000 ways (55 000 nodes) in shuffled order, half of them reversed, with 400 lakes.
    func testFiveThousandWayBoundary() {
        var rng = SplitMix64(seed: 7)
        var locations: [Int64: OSMLocation] = [:]
        let wayCount = 5000, nodesPerWay = 11
        let ringNodes = wayCount * (nodesPerWay - 1)
        for i in 0..<ringNodes {
            let angle = Double(i) / Double(ringNodes) * 2 * Double.pi
            // A wobbly circle of radius ~1 degree around (10, 50).
            let r = 1.0 + 0.05 * sin(angle * 37)
            locations[Int64(i)] = OSMLocation(latitude: 50 + r * sin(angle), longitude: 10 + r * cos(angle))
        }
        var ways: [Int64: OSMWay] = [:]
        var members: [OSMRelation.Member] = []
        for w in 0..<wayCount {
            var refs = (0..<nodesPerWay).map { Int64((w * (nodesPerWay - 1) + $0) % ringNodes) }
            if rng.next() & 1 == 0 { refs.reverse() }
            ways[Int64(100_000 + w)] = OSMWay(id: Int64(100_000 + w), nodeRefs: refs)
            members.append(.init(type: .way, ref: Int64(100_000 + w), role: "outer"))
        }
        var nextNode = Int64(1_000_000)
        for k in 0..<400 {
            let cx = 9.5 + Double(k % 20) * 0.05, cy = 49.5 + Double(k / 20) * 0.05
            var refs: [Int64] = []
            for (dx, dy) in [(0.0, 0.0), (0.0, 0.02), (0.02, 0.02), (0.02, 0.0)] {
                locations[nextNode] = OSMLocation(latitude: cy + dy, longitude: cx + dx)
                refs.append(nextNode)
                nextNode += 1
            }
            refs.append(refs[0])
            ways[Int64(200_000 + k)] = OSMWay(id: Int64(200_000 + k), nodeRefs: refs)
            members.append(.init(type: .way, ref: Int64(200_000 + k), role: "inner"))
        }
        members.shuffle(using: &rng)
        let relation = OSMRelation(id: 9, members: members, tags: [("type", "boundary")])
        let start = Date()
        let area = MultipolygonAssembler().assemble(relation: relation, way: { ways[$0] }, location: { locations[$0] })
        let seconds = Date().timeIntervalSince(start)
        XCTAssertTrue(area.isValid, "\(area.report.problems.prefix(5))")
        XCTAssertTrue(area.report.problems.isEmpty, "\(area.report.problems.prefix(5))")
        XCTAssertEqual(area.polygons.count, 1)
        XCTAssertEqual(area.polygons.first?.count, 401)
        XCTAssertEqual(area.polygons.first?.first?.count, ringNodes + 1)
        assertWellFormed(area)
        print("5 000-way boundary with 400 holes assembled in \(String(format: "%.3f", seconds)) s")
    }

    /// A 40×40 checkerboard: 800 squares touching only at corners, 741 nodes where four segments meet.
    func testCheckerboardOfCornerTouchingSquares() {
        var f = Fixture()
        var refsAt: [Int: Int64] = [:]
        var nextID: Int64 = 1
        func node(_ x: Int, _ y: Int) -> Int64 {
            if let id = refsAt[x * 1000 + y] { return id }
            let id = nextID
            nextID += 1
            refsAt[x * 1000 + y] = id
            f.locations[id] = OSMLocation(latitudeE7: Int32(y * 100), longitudeE7: Int32(x * 100))
            return id
        }
        for i in 0..<40 {
            for j in 0..<40 where (i + j) % 2 == 0 {
                f.way(refs: [node(i, j), node(i + 1, j), node(i + 1, j + 1), node(i, j + 1), node(i, j)])
            }
        }
        let area = f.assemble()
        XCTAssertEqual(area.polygons.count, 800)
        XCTAssertTrue(area.polygons.allSatisfy { $0.count == 1 && $0[0].count == 5 })
        XCTAssertFalse(area.report.hasFatalProblems)
        assertWellFormed(area)
    }

    // MARK: Hostile input

    /// Random ways over a small grid (so nodes coincide and segments cross): never crashes, and whatever
    /// it builds is well-formed; whatever it rejects carries a fatal problem.
    func testRandomWaysNeverCrashAndStayWellFormed() {
        var rng = SplitMix64(seed: 2024)
        var built = 0
        for round in 0..<400 {
            var f = Fixture()
            let wayCount = 1 + Int(rng.next() % 5)
            for _ in 0..<wayCount {
                let n = 2 + Int(rng.next() % 6)
                var points = (0..<n).map { _ in (Int(rng.next() % 6), Int(rng.next() % 6)) }
                if rng.next() % 2 == 0, let first = points.first { points.append(first) }
                f.way(points, role: ["outer", "inner", "", "weird"][Int(rng.next() % 4)])
            }
            if round % 10 == 0 { f.members.append(.init(type: .way, ref: 5, role: "outer")) }
            let area = f.assemble()
            if area.isValid {
                built += 1
                XCTAssertFalse(area.report.hasFatalProblems)
                assertWellFormed(area)
                assertSameRegion(area, f)
            } else {
                XCTAssertFalse(area.report.problems.isEmpty, "rejected without a reason")
            }
        }
        XCTAssertGreaterThan(built, 10)
    }

    func testProblemDescriptionsNameKindPlaceAndWays() {
        let problem = AreaProblem(kind: .openRing, location: OSMLocation(latitudeE7: 15_000_000, longitudeE7: 70_000_000),
                                  wayIDs: [3, 4])
        XCTAssertEqual(problem.description, "open ring end at 7.0 1.5 (ways 3, 4)")
        XCTAssertTrue(problem.isFatal)
        XCTAssertFalse(AreaProblem(kind: .duplicateSegment).isFatal)
    }
}
