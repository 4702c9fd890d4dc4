import Foundation
import MapFormats
import MapGeometry
import MapImport
import MapRouting
import TestSupport

/// `OpenMapKitBenchmarks roadgraph [EXTRACT.osm.pbf] [--pairs N]`: the road graph's own figures —
/// per mode, build time (node order, contraction, customization), graph size, and query latency
/// (median, p99) for random pairs inside the extract's bounds, with and without the route's shape
/// and segments; then, after an edit of the network like an update's, the rebuild that reuses
/// the previous order, and after a speed change alone, the re-customization.
///
/// The extract is read with MapImport's ``RoadNetworkCollector`` (the import's own code) but node
/// locations are held in a dictionary, so this suits small extracts (Andorra, Liechtenstein).
func runRoadGraphBenchmarks(arguments: [String]) throws {
    var path = TestData.shared("data/osm/andorra.osm.pbf").path
    var pairs = 1000
    var index = 0
    while index < arguments.count {
        if arguments[index] == "--pairs", index + 1 < arguments.count {
            pairs = Int(arguments[index + 1]) ?? pairs
            index += 2
            continue
        }
        path = arguments[index]
        index += 1
    }
    let reader = try OSMPBFReader(url: URL(fileURLWithPath: path))
    let collector = RoadNetworkCollector()
    var locations: [Int64: OSMLocation] = [:]
    let readStart = ContinuousClock.now
    try reader.forEachBlock(options: OSMPBFReadOptions(kinds: .all)) { block in
        block.forEachRelation { collector.add(relation: $0) }
        collector.addNodes(of: block)
        for i in 0..<block.nodes.count { locations[block.nodes.ids[i]] = block.nodes.locations[i] }
        collector.addWays(of: block)
    }
    collector.resolveLocations { locations[$0] }
    let latitudes = locations.values.map(\.latitude).sorted(), longitudes = locations.values.map(\.longitude).sorted()
    locations = [:]
    print("read \(URL(fileURLWithPath: path).lastPathComponent): \(collector.network.wayCount) routable ways in \(seconds(ContinuousClock.now - readStart)) s")
    // Pairs inside the middle 90% of the nodes' spread, so most land near roads.
    func quantile(_ values: [Double], _ q: Double) -> Double { values[min(values.count - 1, Int(Double(values.count) * q))] }
    let box = (quantile(latitudes, 0.05), quantile(latitudes, 0.95), quantile(longitudes, 0.05), quantile(longitudes, 0.95))
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("roadgraph-bench-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    /// Route (with shape) and travel-time latencies in ms over the same seeded pairs, sorted.
    func latencies(_ graph: RoadGraph) -> (full: [Double], eta: [Double], found: Int) {
        var random = SplitMix64(seed: 2024)
        func point() -> CLLocationCoordinate2D {
            CLLocationCoordinate2D(latitude: box.0 + (box.1 - box.0) * Double(random.next() % 1_000_000) / 1e6,
                                   longitude: box.2 + (box.3 - box.2) * Double(random.next() % 1_000_000) / 1e6)
        }
        var full: [Double] = [], eta: [Double] = [], found = 0
        for _ in 0..<pairs {
            let a = point(), b = point()
            let t0 = ContinuousClock.now
            let routes = try? graph.route(from: a, to: b)
            let t1 = ContinuousClock.now
            _ = try? graph.travelTime(from: a, to: b)
            let t2 = ContinuousClock.now
            full.append(seconds(t1 - t0) * 1000)
            eta.append(seconds(t2 - t1) * 1000)
            if routes != nil { found += 1 }
        }
        return (full.sorted(), eta.sorted(), found)
    }
    func phases(_ s: RoadGraphBuilder.Summary) -> String {
        String(format: "%.2f s (order %.3f s, contraction %.3f s, customization %.3f s)", s.seconds, s.orderSeconds,
               s.contractionSeconds, s.customizationSeconds)
    }
    var built: [TravelMode: URL] = [:]
    for mode in TravelMode.allCases {
        let url = folder.appendingPathComponent("\(mode.rawValue).graph")
        let summary = try RoadGraphBuilder(mode: mode).build(collector.network, to: url)
        built[mode] = url
        let (full, eta, found) = latencies(try RoadGraph(url: url))
        print(String(format: "%@: build %@ (%d edges, %d graph nodes, %d turns, %d chordal arcs, %d shortcuts, %.1f MB); %d/%d pairs routed; "
                     + "query with shape median %.3f ms p99 %.3f ms, without median %.3f ms p99 %.3f ms",
                     mode.rawValue, phases(summary), summary.edges, summary.graphNodes, summary.arcs, summary.chordalArcs,
                     summary.shortcuts, Double(summary.bytes) / 1e6, found, pairs, quantile(full, 0.5), quantile(full, 0.99),
                     quantile(eta, 0.5), quantile(eta, 0.99)))
    }

    // An update as a change file brings one: every 100th way removed, every 20th retagged (its
    // speeds × 0.8), 50 new roads each joining two nodes of existing ways through a new node.
    let network = collector.network
    var random = SplitMix64(seed: 7)
    let ids = network.wayIDs
    network.removeWays(Set(ids.enumerated().filter { $0.offset % 100 == 99 }.map { $0.element }))
    func slowDown(every n: Int, by factor: Float) {
        for (i, id) in network.wayIDs.enumerated() where i % n == 0 {
            for mode in TravelMode.allCases {
                guard var access = network.access(for: mode, onWay: id), access.isOpen else { continue }
                access.forwardSpeed *= factor
                access.backwardSpeed *= factor
                network.setAccess(access, for: mode, onWay: id)
            }
        }
    }
    slowDown(every: 20, by: 0.8)
    let remaining = network.wayIDs
    var added = 0, nextID: Int64 = 9_000_000_000_000
    while added < 50 {
        let first = remaining[Int(random.next() % UInt64(remaining.count))], second = remaining[Int(random.next() % UInt64(remaining.count))]
        guard let a = network.nodes(ofWay: first)?.first, let b = network.nodes(ofWay: second)?.last, a != b,
              let la = network.location(of: a), let lb = network.location(of: b) else { continue }
        // Ends under ~1 km apart (0.008° in latitude plus longitude).
        let apart: Int = abs(Int(la.latitudeE7) - Int(lb.latitudeE7)) + abs(Int(la.longitudeE7) - Int(lb.longitudeE7))
        guard apart < 80_000 else { continue }
        network.setLocation(nextID, latitudeE7: la.latitudeE7 / 2 + lb.latitudeE7 / 2 + 500, longitudeE7: la.longitudeE7 / 2 + lb.longitudeE7 / 2)
        network.addWay(id: nextID + 1, nodes: [a, nextID, b], info: RoadNetwork.WayInfo(name: "New \(added)", ref: nil, roadClass: "residential"),
                       access: [.automobile: .init(forwardSpeed: 30, backwardSpeed: 30), .walking: .init(forwardSpeed: 5, backwardSpeed: 5),
                                .cycling: .init(forwardSpeed: 15, backwardSpeed: 15)])
        nextID += 2
        added += 1
    }
    var updated: [TravelMode: URL] = [:]
    for mode in TravelMode.allCases {
        let freshURL = folder.appendingPathComponent("\(mode.rawValue)-updated-fresh.graph")
        let url = folder.appendingPathComponent("\(mode.rawValue)-updated.graph")
        let fresh = try RoadGraphBuilder(mode: mode).build(network, to: freshURL)
        let reused = try RoadGraphBuilder(mode: mode).build(network, to: url, reusingOrderFrom: built[mode])
        updated[mode] = url
        let (_, eta, _) = latencies(try RoadGraph(url: url))
        print(String(format: "%@ after an update (1%% of ways removed, 5%% retagged, 50 added): rebuild with the reused order %@, "
                     + "%d persisting and %d new nodes, %d shortcuts, travel time median %.3f ms p99 %.3f ms; "
                     + "from scratch %@, %d shortcuts",
                     mode.rawValue, phases(reused), reused.persistingNodes, reused.newNodes, reused.shortcuts,
                     quantile(eta, 0.5), quantile(eta, 0.99), phases(fresh), fresh.shortcuts))
    }
    // Speeds only (every 10th way 10% slower): the same topology, so re-customization alone.
    slowDown(every: 10, by: 0.9)
    for mode in TravelMode.allCases {
        let url = folder.appendingPathComponent("\(mode.rawValue)-recustomized.graph")
        let summary = try RoadGraphBuilder(mode: mode).build(network, to: url, reusingOrderFrom: updated[mode])
        print(String(format: "%@ after a speed change: %@ build %@ (chordal graph reused: %@)", mode.rawValue,
                     summary.reusedContraction ? "re-customization" : "rebuild", phases(summary),
                     summary.reusedContraction ? "yes" : "no"))
    }
}

private func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}
