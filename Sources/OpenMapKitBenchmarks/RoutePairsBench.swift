import Foundation
import MapFormats
import MapGeometry
import MapImport
import MapRouting
import OpenMapKit

// Two verbs for Benchmarks/compare-routing.py, which sets our router beside OSRM and Valhalla:
//
//   `routebuild EXTRACT.osm.pbf FOLDER [--modes automobile,walking,cycling]`
//      reads the extract the way `openmapkit import` does (RoadNetworkCollector, node locations in
//      the import's NodeLocationStore), builds each mode's graph into FOLDER and prints one JSON
//      object: read and build seconds, graph sizes, and the process's peak resident memory.
//      OMK_SNAP_CELL=degrees sets the snapping grid's cell size (snapCellDegrees) without a rebuild.
//   `routepairs GRAPH PAIRS.json [--out FILE]`
//      routes every pair of a bench_peers.py PAIRS file in process, one query at a time after an
//      untimed warm-up pass, "bare" (distance and time only), "full" (shape, segments and the
//      MKRoute with its steps, as MKDirections.calculate() builds it) and "encoded" (that route with
//      its steps and geometries encoded as OSRM's polyline6 answer, as JSON text: the like-for-like
//      figure beside the peers' "full"), and prints/writes per-pair
//      distance, duration, snap distances and step count with the latency figures.

func runRouteBuildBenchmark(arguments: [String]) throws {
    var positional: [String] = []
    var modes = TravelMode.allCases
    var index = 0
    while index < arguments.count {
        if arguments[index] == "--modes", index + 1 < arguments.count {
            modes = arguments[index + 1].split(separator: ",").compactMap { TravelMode(rawValue: String($0)) }
            index += 2
            continue
        }
        positional.append(arguments[index])
        index += 1
    }
    guard positional.count == 2 else { throw BenchUsage("routebuild EXTRACT.osm.pbf FOLDER [--modes automobile,walking,cycling]") }
    let folder = URL(fileURLWithPath: positional[1])
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let started = ContinuousClock.now
    let reader = try OSMPBFReader(url: URL(fileURLWithPath: positional[0]))
    let collector = RoadNetworkCollector()
    let store = try NodeLocationStore(directory: folder.path)
    defer { store.close() }
    try reader.forEachBlock(options: OSMPBFReadOptions(kinds: .relations)) { block in
        block.forEachRelation { collector.add(relation: $0) }
    }
    try reader.forEachBlock(options: OSMPBFReadOptions(kinds: [.nodes, .ways])) { block in
        if block.nodes.count > 0 {
            collector.addNodes(of: block)
            for i in 0..<block.nodes.count { try store.append(id: block.nodes.ids[i], location: block.nodes.locations[i]) }
        }
        if block.ways.count > 0 { collector.addWays(of: block) }
    }
    try store.prepareForLookups()
    collector.resolveLocations(store.location(of:))
    store.close()
    let readSeconds = benchSeconds(ContinuousClock.now - started)
    let readPeak = peakResidentMB()
    var results: [String: Any] = [:]
    for mode in modes {
        var builder = RoadGraphBuilder(mode: mode)
        // The snapping grid's cell size, for trying it without a rebuild.
        let environment = ProcessInfo.processInfo.environment
        if let degrees = environment["OMK_SNAP_CELL"].flatMap(Double.init) { builder.snapCellDegrees = degrees }
        let summary = try builder.build(collector.network, to: folder.appendingPathComponent("\(mode.rawValue).graph"))
        results[mode.rawValue] = ["build_s": summary.seconds, "edges": summary.edges, "graph_nodes": summary.graphNodes,
                                  "turns": summary.arcs, "shortcuts": summary.shortcuts, "bytes": summary.bytes]
    }
    let output: [String: Any] = ["extract": positional[0], "ways": collector.network.wayCount, "read_s": readSeconds,
                                 "total_s": benchSeconds(ContinuousClock.now - started), "peak_rss_mb_after_read": readPeak,
                                 "peak_rss_mb": peakResidentMB(), "modes": results]
    let data = try JSONSerialization.data(withJSONObject: output, options: [.sortedKeys])
    print(String(decoding: data, as: UTF8.self))
}

func runRoutePairsBenchmark(arguments: [String]) throws {
    var positional: [String] = []
    var outPath: String?
    var index = 0
    while index < arguments.count {
        if arguments[index] == "--out", index + 1 < arguments.count {
            outPath = arguments[index + 1]
            index += 2
            continue
        }
        positional.append(arguments[index])
        index += 1
    }
    guard positional.count == 2 else { throw BenchUsage("routepairs GRAPH PAIRS.json [--out FILE]") }
    let rssBefore = currentResidentMB()
    let loadStart = ContinuousClock.now
    let graph = try RoadGraph(url: URL(fileURLWithPath: positional[0]))
    let loadSeconds = benchSeconds(ContinuousClock.now - loadStart)
    let pairsJSON = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: positional[1]))) as? [String: Any]
    guard let rawPairs = pairsJSON?["pairs"] as? [[String: Any]] else { throw BenchUsage("\(positional[1]) has no \"pairs\" list") }
    let pairs: [(CLLocationCoordinate2D, CLLocationCoordinate2D)] = rawPairs.compactMap { pair in
        guard let from = pair["from"] as? [Double], let to = pair["to"] as? [Double], from.count == 2, to.count == 2 else { return nil }
        return (CLLocationCoordinate2D(latitude: from[0], longitude: from[1]), CLLocationCoordinate2D(latitude: to[0], longitude: to[1]))
    }

    func bare(_ pair: (CLLocationCoordinate2D, CLLocationCoordinate2D)) -> (distance: Double, travelTime: Double)? {
        try? graph.travelTime(from: pair.0, to: pair.1)
    }
    func full(_ pair: (CLLocationCoordinate2D, CLLocationCoordinate2D)) -> MKRoute? {
        guard let path = (try? graph.route(from: pair.0, to: pair.1))?.first else { return nil }
        return MKRoute.make(path: path, destination: pair.1)
    }
    // What OSRM's steps=true overview=full geometries=polyline6 hands back, as text: the route with
    // its steps and every geometry encoded, so both sides do the same work (see EncodedRoute).
    let encoder = JSONEncoder()
    func encoded(_ pair: (CLLocationCoordinate2D, CLLocationCoordinate2D)) -> Data? {
        guard let route = full(pair) else { return nil }
        return try? encoder.encode(EncodedRoute(route))
    }
    func time<T>(_ body: ((CLLocationCoordinate2D, CLLocationCoordinate2D)) -> T?) -> (ms: [Double], failures: Int) {
        for pair in pairs { blackHole(body(pair)) }   // warm-up: page cache, allocator
        var ms: [Double] = [], failures = 0
        ms.reserveCapacity(pairs.count)
        for pair in pairs {
            let t0 = DispatchTime.now().uptimeNanoseconds
            let result = body(pair)
            ms.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
            if result == nil { failures += 1 }
            blackHole(result)
        }
        return (ms, failures)
    }
    let bareTimes = time(bare)
    let fullTimes = time(full)
    let encodedTimes = time(encoded)

    var perPair: [Any] = []
    for pair in pairs {
        guard let path = (try? graph.route(from: pair.0, to: pair.1))?.first,
              let first = path.coordinates.first, let last = path.coordinates.last else {
            var reason = "no route"
            do { _ = try graph.route(from: pair.0, to: pair.1) } catch { reason = "\(error)" }
            perPair.append(["error": reason])
            continue
        }
        let route = MKRoute.make(path: path, destination: pair.1)
        perPair.append(["distance": path.distance, "duration": path.travelTime, "steps": route.steps.count,
                        "snap_m": [haversineMetres(pair.0, first), haversineMetres(pair.1, last)],
                        "ways": Array(Set(path.segments.flatMap(\.wayIDs))).sorted()])
    }
    func stats(_ values: (ms: [Double], failures: Int)) -> [String: Any] {
        let v = values.ms.sorted()
        func pct(_ q: Double) -> Double { v.isEmpty ? .nan : v[max(0, min(v.count - 1, Int((q / 100 * Double(v.count)).rounded(.up)) - 1))] }
        return ["n": v.count, "median_ms": v.isEmpty ? Double.nan : (v.count % 2 == 1 ? v[v.count / 2] : (v[v.count / 2 - 1] + v[v.count / 2]) / 2),
                "p90_ms": pct(90), "p99_ms": pct(99), "mean_ms": v.reduce(0, +) / Double(max(v.count, 1)),
                "max_ms": v.last ?? .nan, "failures": values.failures]
    }
    let output: [String: Any] = ["graph": positional[0], "mode": graph.mode.rawValue, "n_pairs": pairs.count,
                                 "load_s": loadSeconds, "rss_delta_mb": currentResidentMB() - rssBefore,
                                 "latency": ["bare": stats(bareTimes), "full": stats(fullTimes), "encoded": stats(encodedTimes)],
                                 "per_pair": perPair]
    let data = try JSONSerialization.data(withJSONObject: output, options: [.sortedKeys])
    if let outPath { try data.write(to: URL(fileURLWithPath: outPath)) }
    let bareStats = stats(bareTimes), fullStats = stats(fullTimes), encodedStats = stats(encodedTimes)
    print(String(format: "%@: %d pairs; bare median %.4f ms p99 %.4f ms (%d failed); full median %.4f ms p99 %.4f ms; encoded median %.4f ms p99 %.4f ms",
                 graph.mode.rawValue, pairs.count, bareStats["median_ms"] as! Double, bareStats["p99_ms"] as! Double,
                 bareTimes.failures, fullStats["median_ms"] as! Double, fullStats["p99_ms"] as! Double,
                 encodedStats["median_ms"] as! Double, encodedStats["p99_ms"] as! Double))
}

/// A route as OSRM's route service returns it with `steps=true&overview=full&geometries=polyline6`:
/// distance, duration, the whole line and each step's line as precision-6 encoded polylines, and
/// each step's instruction, encoded as JSON text. Timing this beside OSRM's in-process answer (which
/// converts the same fields to Python objects) and Valhalla's JSON string compares like with like.
struct EncodedRoute: Encodable {
    struct Step: Encodable {
        var distance: Double
        var instructions: String
        var geometry: String
    }
    var distance: Double
    var duration: Double
    var geometry: String
    var steps: [Step]

    init(_ route: MKRoute) {
        distance = route.distance
        duration = route.expectedTravelTime
        geometry = (try? EncodedPolyline.encode(route.polyline.coordinates, precision: 6)) ?? ""
        steps = route.steps.map {
            Step(distance: $0.distance, instructions: $0.instructions,
                 geometry: (try? EncodedPolyline.encode($0.polyline.coordinates, precision: 6)) ?? "")
        }
    }
}

struct BenchUsage: Error, CustomStringConvertible {
    var description: String
    init(_ usage: String) { description = "usage: OpenMapKitBenchmarks \(usage)" }
}

private func benchSeconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// The kernel's high-water mark of this process's resident memory (what `time -v` reports).
private func peakResidentMB() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_maxrss) / 1024
}

private func currentResidentMB() -> Double {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return .nan }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Double(fields[1]) else { return .nan }
    return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
}

private func haversineMetres(_ a: CLLocationCoordinate2D, _ b: CLLocationCoordinate2D) -> Double {
    let rad = Double.pi / 180
    let dphi = (b.latitude - a.latitude) * rad, dl = (b.longitude - a.longitude) * rad
    let h = sin(dphi / 2) * sin(dphi / 2) + cos(a.latitude * rad) * cos(b.latitude * rad) * sin(dl / 2) * sin(dl / 2)
    return 2 * 6_371_008.8 * asin(min(1, sqrt(h)))
}
