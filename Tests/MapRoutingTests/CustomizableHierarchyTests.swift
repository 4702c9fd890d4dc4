import XCTest
import MapFormats
@_spi(OpenMapKitInternal) import MapGeometry
import MapImport
@testable import MapRouting
import TestSupport

/// The customizable contraction hierarchy on real extracts: exact against a plain Dijkstra on the
/// uncontracted turn graph, the same answers with a reused order as with a fresh one (also after
/// roads were added, removed and retagged), the same bytes from the same input, and old files refused.
final class CustomizableHierarchyTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("cch-tests-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(at: folder) }

    /// An extract's road network as the import collects it (fresh each time: tests edit it).
    static func network(_ name: String) throws -> RoadNetwork { try collector(name).network }

    static func collector(_ name: String) throws -> RoadNetworkCollector {
        let reader = try OSMPBFReader(url: TestData.shared("data/osm/\(name).osm.pbf"))
        let collector = RoadNetworkCollector()
        var locations: [Int64: OSMLocation] = [:]
        try reader.forEachBlock(options: OSMPBFReadOptions(kinds: .all)) { block in
            block.forEachRelation { collector.add(relation: $0) }
            collector.addNodes(of: block)
            for i in 0..<block.nodes.count { locations[block.nodes.ids[i]] = block.nodes.locations[i] }
            collector.addWays(of: block)
        }
        collector.resolveLocations { locations[$0] }
        return collector
    }

    @discardableResult
    func build(_ network: RoadNetwork, _ mode: TravelMode = .automobile, _ name: String = UUID().uuidString,
               reusing previous: URL? = nil) throws -> (url: URL, summary: RoadGraphBuilder.Summary) {
        let url = folder.appendingPathComponent(name + ".graph")
        let summary = try RoadGraphBuilder(mode: mode).build(network, to: url, reusingOrderFrom: previous)
        return (url, summary)
    }

    /// Random points inside the junctions' middle 90% spread, snapped; pairs on one spot left out.
    func pairs(_ g: GraphData, count: Int, seed: UInt64) -> [(Snap, Snap)] {
        let latitudes = (0..<g.junctionCount).map { Double(g.junctionCoordinates[2 * $0]) / 1e7 }.sorted()
        let longitudes = (0..<g.junctionCount).map { Double(g.junctionCoordinates[2 * $0 + 1]) / 1e7 }.sorted()
        func quantile(_ values: [Double], _ q: Double) -> Double { values[min(values.count - 1, Int(Double(values.count) * q))] }
        var random = SplitMix64(seed: seed)
        func point() -> CLLocationCoordinate2D {
            CLLocationCoordinate2D(
                latitude: quantile(latitudes, 0.05) + (quantile(latitudes, 0.95) - quantile(latitudes, 0.05)) * Double(random.next() % 1_000_000) / 1e6,
                longitude: quantile(longitudes, 0.05) + (quantile(longitudes, 0.95) - quantile(longitudes, 0.05)) * Double(random.next() % 1_000_000) / 1e6)
        }
        var result: [(Snap, Snap)] = []
        while result.count < count {
            guard let a = g.nearest(point()), let b = g.nearest(point()), a.edge != b.edge else { continue }
            result.append((a, b))
        }
        return result
    }

    /// The reference: Dijkstra over the base turn graph (arrays, no hierarchy), from the query's
    /// start costs to its end costs, as RouteQuery defines them.
    func referenceCost(_ query: RouteQuery) -> Int64? {
        let g = query.g
        var distance = [Int64](repeating: .max, count: g.nodeCount)
        var heap = BinaryHeap<QueueEntry>()
        for (node, cost) in query.sources where cost < distance[Int(node)] {
            distance[Int(node)] = cost
            heap.push(QueueEntry(key: UInt64(cost), value: node))
        }
        var endCost: [UInt32: Int64] = [:]
        for (node, cost) in query.targets { endCost[node] = min(endCost[node] ?? .max, cost) }
        let startCost = Dictionary(query.sources, uniquingKeysWith: min)
        var best = Int64.max
        while let entry = heap.popMin() {
            let d = Int64(entry.key), node = entry.value
            guard d == distance[Int(node)] else { continue }
            if d - query.shift >= best { break }
            if let t = endCost[node] {
                // Met at a start node: only where the target lies ahead on the same edge.
                if !(startCost[node] == d && !query.directMeetingAllowed(node)) { best = Swift.min(best, d + t - query.shift) }
            }
            for k in Int(g.turnOffsets[Int(node)])..<Int(g.turnOffsets[Int(node) + 1]) {
                let next = Int(g.turnArcs[2 * k]), nd = d + Int64(g.turnArcs[2 * k + 1])
                if nd < distance[next] {
                    distance[next] = nd
                    heap.push(QueueEntry(key: UInt64(nd), value: UInt32(next)))
                }
            }
        }
        return best == .max ? nil : best
    }

    /// The cost of a found path, added up from the base graph's turns: the unpacked shortcuts
    /// must be a real walk through the turn graph with the hierarchy's cost.
    func walkCost(_ path: FoundPath, _ query: RouteQuery) -> Int64? {
        let g = query.g
        guard let first = path.nodes.first, let last = path.nodes.last,
              let start = query.sources.filter({ $0.0 == first }).map(\.1).min(),
              let end = query.targets.filter({ $0.0 == last }).map(\.1).min() else { return nil }
        var cost = start + end - query.shift
        for (a, b) in zip(path.nodes, path.nodes.dropFirst()) {
            var turn: UInt32? = nil
            for k in Int(g.turnOffsets[Int(a)])..<Int(g.turnOffsets[Int(a) + 1]) where g.turnArcs[2 * k] == b {
                turn = min(turn ?? .max, g.turnArcs[2 * k + 1])
            }
            guard let turn else { return nil }
            cost += Int64(turn)
        }
        return cost
    }

    /// Checks `count` random pairs on `graph` against the reference; returns how many were connected.
    @discardableResult
    func checkAgainstDijkstra(_ graph: RoadGraph, count: Int, seed: UInt64, _ label: String) -> Int {
        var connected = 0
        for (i, (a, b)) in pairs(graph.g, count: count, seed: seed).enumerated() {
            let query = RouteQuery(g: graph.g, source: a, target: b)
            let expected = referenceCost(query)
            let found = query.shortest()
            XCTAssertEqual(found?.cost, expected, "\(label) pair \(i): hierarchy and Dijkstra disagree")
            if let found {
                connected += 1
                XCTAssertEqual(walkCost(found, query), found.cost, "\(label) pair \(i): the unpacked path does not cost what was found")
            }
        }
        return connected
    }

    func testRoutesEqualDijkstraOnAndorraAndMonaco() throws {
        let andorra = try Self.network("andorra")
        for mode in [TravelMode.automobile, .cycling] {
            let graph = try RoadGraph(url: build(andorra, mode).url)
            let connected = checkAgainstDijkstra(graph, count: 200, seed: 11, "andorra \(mode.rawValue)")
            XCTAssertGreaterThan(connected, 100, "most random Andorra pairs connect")
        }
        let monaco = try Self.network("monaco")
        for mode in TravelMode.allCases {
            let graph = try RoadGraph(url: build(monaco, mode).url)
            let connected = checkAgainstDijkstra(graph, count: 200, seed: 5, "monaco \(mode.rawValue)")
            XCTAssertGreaterThan(connected, 100, "most random Monaco pairs connect")
        }
    }

    /// Every pair's cost and route on two graphs of the same network must agree exactly.
    func assertSameAnswers(_ one: RoadGraph, _ other: RoadGraph, count: Int, _ label: String) throws {
        var compared = 0
        for (i, (a, b)) in pairs(one.g, count: count, seed: 3).enumerated() {
            let first = RouteQuery(g: one.g, source: a, target: b).shortest()
            let second = RouteQuery(g: other.g, source: a, target: b).shortest()
            XCTAssertEqual(first?.cost, second?.cost, "\(label) pair \(i)")
            if let first, let second {
                compared += 1
                let query = RouteQuery(g: other.g, source: a, target: b)
                XCTAssertEqual(walkCost(second, query), second.cost, "\(label) pair \(i): unpacking")
                XCTAssertEqual(walkCost(first, RouteQuery(g: one.g, source: a, target: b)), first.cost, "\(label) pair \(i): unpacking")
            }
            // The public answers too: travel times to the millisecond (equal-cost paths may add up
            // their fractional end stretches in another order).
            let x = try? one.travelTime(from: a.point, to: b.point), y = try? other.travelTime(from: a.point, to: b.point)
            XCTAssertEqual(x == nil, y == nil, "\(label) pair \(i): routed on one graph only")
            if let x, let y { XCTAssertEqual(x.travelTime, y.travelTime, accuracy: 0.001, "\(label) pair \(i): travel time") }
        }
        XCTAssertGreaterThan(compared, count / 2, label)
    }

    func testReusedOrderOnSameNetworkGivesSameFile() throws {
        let monaco = try Self.network("monaco")
        let fresh = try build(monaco, .automobile, "fresh")
        XCTAssertEqual(fresh.summary.newNodes, fresh.summary.graphNodes)
        XCTAssertFalse(fresh.summary.reusedContraction)
        let again = try build(monaco, .automobile, "again", reusing: fresh.url)
        XCTAssertEqual(again.summary.persistingNodes, again.summary.graphNodes)
        XCTAssertEqual(again.summary.newNodes, 0)
        XCTAssertTrue(again.summary.reusedContraction, "nothing changed: customization alone")
        XCTAssertEqual(try Data(contentsOf: fresh.url), try Data(contentsOf: again.url), "same network, same order: same bytes")
        // Reusing the file being replaced works too (it is read before the new one is renamed over it).
        let inPlace = try build(monaco, .automobile, "again", reusing: folder.appendingPathComponent("again.graph"))
        XCTAssertTrue(inPlace.summary.reusedContraction)
        XCTAssertEqual(try Data(contentsOf: fresh.url), try Data(contentsOf: inPlace.url))
    }

    /// The import's entry point takes the previous bundle's graphs too.
    func testImportBuildReusesPreviousGraphs() throws {
        let collector = try Self.collector("monaco")
        let first = folder.appendingPathComponent("first"), second = folder.appendingPathComponent("second")
        try FileManager.default.createDirectory(at: first, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: second, withIntermediateDirectories: true)
        let files = try collector.build(into: first)
        XCTAssertEqual(try collector.build(into: second, reusingGraphsIn: first), files)
        XCTAssertEqual(files.count, TravelMode.allCases.count)
        for name in files.values {
            let a = try Data(contentsOf: first.appendingPathComponent(name)), b = try Data(contentsOf: second.appendingPathComponent(name))
            XCTAssertEqual(a, b, "\(name): same network, reused order: same bytes")
        }
        // A folder without graphs (a bundle from before routing) is a fresh build, not an error.
        XCTAssertEqual(try collector.build(into: second, reusingGraphsIn: folder.appendingPathComponent("none")), files)
    }

    func testDeterministicBuild() throws {
        let andorra = try Self.network("andorra")
        for mode in TravelMode.allCases {
            let one = try build(andorra, mode, "one-\(mode.rawValue)"), two = try build(andorra, mode, "two-\(mode.rawValue)")
            XCTAssertGreaterThan(one.summary.shortcuts, 0)
            XCTAssertEqual(try Data(contentsOf: one.url), try Data(contentsOf: two.url), "\(mode.rawValue): two builds differ")
        }
    }

    /// A copy of `network` with every `removeEvery`-th way removed, every `retagEvery`-th way's
    /// speeds scaled, and `added` new roads joining existing nodes through a new middle node.
    static func edited(_ network: RoadNetwork, removeEvery: Int, retagEvery: Int, added: Int, seed: UInt64) -> RoadNetwork {
        let copy = RoadNetwork()
        for (i, way) in network.ways.enumerated() {
            if removeEvery > 0 && i % removeEvery == removeEvery - 1 { continue }
            var access: [TravelMode: RoadNetwork.Access] = [:]
            for mode in TravelMode.allCases {
                var a = way.access[mode.index]
                if retagEvery > 0 && i % retagEvery == 0 { a.forwardSpeed *= 0.7; a.backwardSpeed *= 0.7 }
                access[mode] = a
            }
            copy.addWay(id: way.id, nodes: Array(network.wayNodes[way.nodeStart..<(way.nodeStart + way.nodeCount)]),
                        info: network.infos[Int(way.info)], access: access, duration: way.duration.map { Double($0) })
        }
        for (node, location) in network.locations { copy.setLocation(node, latitudeE7: location.x, longitudeE7: location.y) }
        for (node, modes) in network.barriers { copy.addBarrier(node: node, modes: modes) }
        for restriction in network.restrictions { copy.addRestriction(restriction) }
        // New roads: between two nodes of existing ways a few hundred metres apart, bent through a new node.
        var random = SplitMix64(seed: seed)
        let used = network.wayNodes.filter { network.locations[$0] != nil }
        var made = 0
        var nextID: Int64 = 9_000_000_000_000
        while made < added {
            let a = used[Int(random.next() % UInt64(used.count))], b = used[Int(random.next() % UInt64(used.count))]
            let la = network.locations[a]!, lb = network.locations[b]!
            let d = metres(la, lb)
            guard a != b, d > 50, d < 800 else { continue }
            let middle = nextID
            nextID += 1
            copy.setLocation(middle, latitudeE7: (la.x / 2 + lb.x / 2) + 300, longitudeE7: la.y / 2 + lb.y / 2)
            copy.addWay(id: nextID, nodes: [a, middle, b], info: RoadNetwork.WayInfo(name: "New Road \(made)", ref: nil, roadClass: "residential"),
                        access: [.automobile: .init(forwardSpeed: 40, backwardSpeed: 40), .walking: .init(forwardSpeed: 5, backwardSpeed: 5),
                                 .cycling: .init(forwardSpeed: 15, backwardSpeed: 15)])
            nextID += 1
            made += 1
        }
        return copy
    }

    func testReusedOrderAfterRoadsAddedRemovedRetagged() throws {
        let andorra = try Self.network("andorra")
        let before = try build(andorra, .automobile, "before")
        let changed = Self.edited(andorra, removeEvery: 40, retagEvery: 9, added: 60, seed: 17)
        let fresh = try build(changed, .automobile, "fresh")
        let reused = try build(changed, .automobile, "reused", reusing: before.url)
        XCTAssertGreaterThan(reused.summary.persistingNodes, reused.summary.graphNodes * 8 / 10, "most nodes persist")
        XCTAssertGreaterThan(reused.summary.newNodes, 0, "new roads and split stretches are new nodes")
        XCTAssertFalse(reused.summary.reusedContraction, "roads were added: the chordal graph is built anew")
        XCTAssertEqual(reused.summary.graphNodes, fresh.summary.graphNodes)
        XCTAssertNotEqual(try Data(contentsOf: fresh.url), try Data(contentsOf: reused.url), "the orders differ")
        let one = try RoadGraph(url: fresh.url), other = try RoadGraph(url: reused.url)
        try assertSameAnswers(one, other, count: 150, "edited andorra")
        checkAgainstDijkstra(other, count: 100, seed: 23, "edited andorra, reused order")
    }

    func testRecustomizationWhenOnlySpeedsChange() throws {
        let monaco = try Self.network("monaco")
        let before = try build(monaco, .automobile, "before")
        let slower = Self.edited(monaco, removeEvery: 0, retagEvery: 3, added: 0, seed: 1)
        let fresh = try build(slower, .automobile, "fresh")
        let recustomized = try build(slower, .automobile, "recustomized", reusing: before.url)
        XCTAssertTrue(recustomized.summary.reusedContraction, "same roads: only the customization runs")
        XCTAssertEqual(recustomized.summary.newNodes, 0)
        // New weights really arrived: the old graph's times differ from the new one's somewhere.
        let old = try RoadGraph(url: before.url), new = try RoadGraph(url: recustomized.url)
        var slowerSomewhere = false
        for (a, b) in pairs(old.g, count: 30, seed: 9) {
            let x = RouteQuery(g: old.g, source: a, target: b).shortest(), y = RouteQuery(g: new.g, source: a, target: b).shortest()
            if let x, let y, y.cost > x.cost { slowerSomewhere = true }
        }
        XCTAssertTrue(slowerSomewhere, "the re-customized graph still has the old speeds")
        try assertSameAnswers(try RoadGraph(url: fresh.url), new, count: 150, "recustomized monaco")
        checkAgainstDijkstra(new, count: 100, seed: 29, "recustomized monaco")
    }

    func testOldFormatIsRefusedAndNotReused() throws {
        let monaco = try Self.network("monaco")
        let current = try build(monaco, .automobile, "current")
        var old = try Data(contentsOf: current.url)
        withUnsafeBytes(of: UInt32(2).littleEndian) { old.replaceSubrange(8..<12, with: $0) }
        let oldURL = folder.appendingPathComponent("old.graph")
        try old.write(to: oldURL)
        do {
            _ = try RoadGraph(url: oldURL)
            XCTFail("a version 2 file opened")
        } catch {
            guard case .incompatibleVersion(let message) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("version 2,") && message.contains("reads version \(GraphFormat.version)")
                          && message.contains("re-import"), message)
        }
        // As a previous build it only costs the reuse: a fresh order, the same file.
        let rebuilt = try build(monaco, .automobile, "rebuilt", reusing: oldURL)
        XCTAssertEqual(rebuilt.summary.persistingNodes, 0)
        XCTAssertEqual(try Data(contentsOf: rebuilt.url), try Data(contentsOf: current.url))
        // Another mode's file is refused.
        XCTAssertThrowsError(try build(monaco, .walking, "walking", reusing: current.url)) { error in
            guard case RoutingError.invalidInput = error else { return XCTFail("\(error)") }
        }
    }
}
