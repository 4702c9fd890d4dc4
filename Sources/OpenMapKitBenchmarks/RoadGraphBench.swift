import Foundation
import MapFormats
import MapGeometry
import MapImport
import MapRouting
import TestSupport

/// `OpenMapKitBenchmarks roadgraph [EXTRACT.osm.pbf] [--pairs N]`: the road graph's own figures —
/// per mode, contraction build time, graph size, and query latency (median, p99) for random pairs
/// inside the extract's bounds, with and without the route's shape and segments.
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
    for mode in TravelMode.allCases {
        let url = folder.appendingPathComponent("\(mode.rawValue).graph")
        let summary = try RoadGraphBuilder(mode: mode).build(collector.network, to: url)
        let graph = try RoadGraph(url: url)
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
        full.sort()
        eta.sort()
        print(String(format: "%@: build %.2f s (%d edges, %d graph nodes, %d turns, %d shortcuts, %.1f MB); %d/%d pairs routed; "
                     + "query with shape median %.3f ms p99 %.3f ms, without median %.3f ms p99 %.3f ms",
                     mode.rawValue, summary.seconds, summary.edges, summary.graphNodes, summary.arcs, summary.shortcuts,
                     Double(summary.bytes) / 1e6, found, pairs, quantile(full, 0.5), quantile(full, 0.99),
                     quantile(eta, 0.5), quantile(eta, 0.99)))
    }
}

private func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}
