import XCTest
import MapBundle
import MapGeometry
@testable import MapRouting
import TestSupport

/// The sparse snapping grid: graphs whose roads lie in far-apart places (as Liechtenstein's PBF
/// with its piece of Alabama), exactness against a search of every segment, the snapping
/// distance limit, and files of the old format or with a damaged grid.
final class SnappingGridTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("snapping-grid-tests-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(at: folder) }

    /// A 6 × 6 lattice of streets 0.003° apart with its south-west corner at (lat, lon), plus
    /// in Alabama a 30 km diagonal road well away from the lattice there.
    func twoAreaNetwork() -> RoadNetwork {
        let network = RoadNetwork()
        var nextNode: Int64 = 1, nextWay: Int64 = 1
        func node(_ lat: Double, _ lon: Double) -> Int64 {
            defer { nextNode += 1 }
            network.setLocation(nextNode, latitudeE7: Int32((lat * 1e7).rounded()), longitudeE7: Int32((lon * 1e7).rounded()))
            return nextNode
        }
        func way(_ nodes: [Int64], _ name: String) {
            network.addWay(id: nextWay, nodes: nodes, info: RoadNetwork.WayInfo(name: name, ref: nil, roadClass: "residential"),
                           access: [.automobile: RoadNetwork.Access(forwardSpeed: 30, backwardSpeed: 30)])
            nextWay += 1
        }
        for (area, lat, lon) in [("Vaduz", 47.14, 9.51), ("Birmingham", 33.50, -86.82)] {
            var ids: [[Int64]] = []
            for r in 0..<6 { ids.append((0..<6).map { c in node(lat + Double(r) * 0.003, lon + Double(c) * 0.003) }) }
            for r in 0..<6 { way(ids[r], "\(area) Row \(r)") }
            for c in 0..<6 { way(ids.map { $0[c] }, "\(area) Column \(c)") }
        }
        way([node(33.00, -87.50), node(33.20, -87.25)], "Diagonal")
        return network
    }

    func build(_ network: RoadNetwork) throws -> (RoadGraph, URL) {
        let url = folder.appendingPathComponent(UUID().uuidString + ".graph")
        try RoadGraphBuilder(mode: .automobile).build(network, to: url)
        return (try RoadGraph(url: url), url)
    }

    /// The nearest segment by measuring every one, in the same local plane as the grid's search.
    func bruteForceDistance(_ g: GraphData, _ c: CLLocationCoordinate2D) -> Double {
        let scale = cos(c.latitude * .pi / 180)
        var best = Double.infinity
        for e in 0..<g.edgeCount {
            let edge = g.edge(e)
            for s in 0..<(edge.geometryCount - 1) {
                let a = g.point(edge.geometryStart + s), b = g.point(edge.geometryStart + s + 1)
                let px = (c.longitude - a.longitude) * scale, py = c.latitude - a.latitude
                let dx = (b.longitude - a.longitude) * scale, dy = b.latitude - a.latitude
                let len2 = dx * dx + dy * dy
                let t = len2 > 0 ? min(1, max(0, (px * dx + py * dy) / len2)) : 0
                best = min(best, hypot(px - t * dx, py - t * dy) * 111_195)
            }
        }
        return best
    }

    func testFarApartAreasSnapExactly() throws {
        let (graph, _) = try build(twoAreaNetwork())
        // Named points in both areas and on the long diagonal (its middle lies hundreds of cells
        // from either end).
        let vaduz = try graph.snap(CLLocationCoordinate2D(latitude: 47.1401, longitude: 9.5145))
        XCTAssertEqual(vaduz.name, "Vaduz Row 0")
        XCTAssertEqual(vaduz.distance, 11.1, accuracy: 0.2)
        let birmingham = try graph.snap(CLLocationCoordinate2D(latitude: 33.5075, longitude: -86.8168))
        XCTAssertEqual(birmingham.name, "Birmingham Column 1")
        XCTAssertEqual(birmingham.distance, 0.0002 * cos(33.5075 * .pi / 180) * 111_195, accuracy: 0.5)
        let diagonal = try graph.snap(CLLocationCoordinate2D(latitude: 33.1010, longitude: -87.375))
        XCTAssertEqual(diagonal.name, "Diagonal")
        XCTAssertLessThan(diagonal.distance, 120)
        // Random points in and around both lattices and along the diagonal: the ring search
        // finds the same distance as measuring every segment.
        var random = SplitMix64(seed: 11)
        func uniform(_ range: ClosedRange<Double>) -> Double {
            range.lowerBound + Double(random.next() % 1_000_000) / 1_000_000 * (range.upperBound - range.lowerBound)
        }
        var checked = 0
        for (lat, lon) in [(47.14, 9.51), (33.50, -86.82)] {
            for _ in 0..<200 {
                let c = CLLocationCoordinate2D(latitude: lat + uniform(-0.02...0.035), longitude: lon + uniform(-0.02...0.035))
                guard let snap = graph.g.nearest(c) else { return XCTFail("\(c) did not snap") }
                XCTAssertEqual(snap.distance, bruteForceDistance(graph.g, c), accuracy: 1e-6, "\(c)")
                checked += 1
            }
        }
        for _ in 0..<100 {
            let t = uniform(0...1)
            let c = CLLocationCoordinate2D(latitude: 33.00 + 0.2 * t + uniform(-0.01...0.01), longitude: -87.50 + 0.25 * t + uniform(-0.01...0.01))
            guard let snap = graph.g.nearest(c) else { return XCTFail("\(c) did not snap") }
            XCTAssertEqual(snap.distance, bruteForceDistance(graph.g, c), accuracy: 1e-6, "\(c)")
            checked += 1
        }
        XCTAssertEqual(checked, 500)
        // A route inside each area, so the snapped ends are usable.
        XCTAssertEqual(try graph.route(from: CLLocationCoordinate2D(latitude: 47.1401, longitude: 9.511),
                                       to: CLLocationCoordinate2D(latitude: 47.155, longitude: 9.524)).first?.segments.isEmpty, false)
        XCTAssertEqual(try graph.route(from: CLLocationCoordinate2D(latitude: 33.5001, longitude: -86.819),
                                       to: CLLocationCoordinate2D(latitude: 33.515, longitude: -86.806)).first?.segments.isEmpty, false)
    }

    /// On real roads (Monaco, imported once per test process) the grid finds what measuring every
    /// segment finds, for points on and between the streets.
    func testMonacoSnapsMatchEverySegment() throws {
        let bundle = try MapBundle(url: SampleBundle.monaco())
        let graph = try RoadGraph(url: bundle.roadGraphURL(for: .automobile))
        var random = SplitMix64(seed: 5)
        for _ in 0..<300 {
            let c = CLLocationCoordinate2D(latitude: 43.724 + Double(random.next() % 10_000) / 10_000 * 0.028,
                                           longitude: 7.405 + Double(random.next() % 10_000) / 10_000 * 0.035)
            guard let snap = graph.g.nearest(c) else { return XCTFail("\(c) did not snap") }
            XCTAssertEqual(snap.distance, bruteForceDistance(graph.g, c), accuracy: 1e-6, "\(c)")
        }
    }

    func testSnapDistanceLimit() throws {
        let (graph, _) = try build(twoAreaNetwork())
        // Vaduz's top row is at 47.155: 4.5 km north of it still snaps, 5.5 km does not.
        let near = try graph.snap(CLLocationCoordinate2D(latitude: 47.155 + 4_500 / 111_195.0, longitude: 9.515))
        XCTAssertEqual(near.name, "Vaduz Row 5")
        XCTAssertEqual(near.distance, 4_500, accuracy: 1)
        for far in [CLLocationCoordinate2D(latitude: 47.155 + 5_500 / 111_195.0, longitude: 9.515),
                    CLLocationCoordinate2D(latitude: 40, longitude: -40),           // mid-Atlantic
                    CLLocationCoordinate2D(latitude: -89.9, longitude: 179.9)] {    // no cell anywhere near
            XCTAssertThrowsError(try graph.snap(far), "\(far)") { error in
                guard case RoutingError.noRoadNearby = error else { return XCTFail("\(error)") }
            }
            XCTAssertThrowsError(try graph.route(from: far, to: CLLocationCoordinate2D(latitude: 47.1401, longitude: 9.511))) { error in
                guard case RoutingError.noRoadNearby = error else { return XCTFail("\(error)") }
            }
        }
    }

    /// A long diagonal segment is listed in the cells along it, not in its whole bounding box,
    /// and in every cell it passes through.
    func testLongSegmentCellsFollowTheSegment() {
        let size = SpatialGrid.defaultCellSize
        var keys = Set<UInt64>()
        SpatialGridBuilder.forEachCell(33.00, -87.50, 33.20, -87.25, cellSize: size) { keys.insert($0) }
        let boundingBoxCells = Int((0.2 / size).rounded() + 1) * Int((0.25 / size).rounded() + 1)
        XCTAssertLessThan(keys.count, boundingBoxCells / 20, "\(keys.count) of \(boundingBoxCells)")
        for i in 0...10_000 {
            let t = Double(i) / 10_000
            let (y, x) = SpatialGrid.position(latitude: 33.00 + 0.2 * t, longitude: -87.50 + 0.25 * t, cellSize: size)
            XCTAssertTrue(keys.contains(SpatialGrid.key(row: Int(floor(y)), column: Int(floor(x)))), "t = \(t)")
        }
    }

    func testOldVersionAndDamagedGridAreRejected() throws {
        let (_, url) = try build(twoAreaNetwork())
        let data = try Data(contentsOf: url)
        func open(_ bytes: Data) -> RoutingError? {
            let damaged = folder.appendingPathComponent(UUID().uuidString)
            try? bytes.write(to: damaged)
            do { _ = try RoadGraph(url: damaged); return nil } catch { return error }
        }
        func put(_ value: UInt32, at offset: Int, in bytes: inout Data) {
            withUnsafeBytes(of: value.littleEndian) { bytes.replaceSubrange(offset..<offset + 4, with: $0) }
        }
        func section(_ s: GraphSection) -> (offset: Int, length: Int) {
            let entry = GraphFormat.headerSize + s.rawValue * 16
            let offset = data.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: entry, as: UInt64.self).littleEndian }
            let length = data.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: entry + 8, as: UInt64.self).littleEndian }
            return (Int(offset), Int(length))
        }
        XCTAssertNil(open(data))
        // A file of the dense-grid format (version 1).
        var old = data
        put(1, at: 8, in: &old)
        guard case .incompatibleVersion(let message) = open(old) else { return XCTFail("a version 1 file opened") }
        XCTAssertTrue(message.contains("version 1,") && message.contains("reads version \(GraphFormat.version)")
                      && message.contains("re-import"), message)
        // A slot naming a missing cell, an entry's segment past its edge (UInt32.max must not
        // overflow), cells out of order.
        let slots = section(.gridSlots), entries = section(.gridEntries), keys = section(.gridKeys)
        XCTAssertGreaterThan(slots.length, 0)
        XCTAssertGreaterThan(entries.length, 8)
        XCTAssertGreaterThanOrEqual(keys.length, 16)
        var badSlot = data
        put(0xFFFF, at: slots.offset, in: &badSlot)
        var badEntry = data
        put(.max, at: entries.offset + 4, in: &badEntry)
        var badOrder = data
        badOrder.replaceSubrange(keys.offset..<keys.offset + 8, with: data[(keys.offset + 8)..<(keys.offset + 16)])
        for (name, bytes) in [("slot", badSlot), ("entry", badEntry), ("order", badOrder)] {
            guard case .corrupt = open(bytes) else { return XCTFail("a damaged grid (\(name)) opened") }
        }
    }
}
