import Foundation
import MapFormats

/// OSM PBF reading on liechtenstein.osm.pbf (shared/data/osm beside the checkout), in elements per
/// second: the columnar block API on all cores and on one, ways and relations only, and the entity
/// API that builds `OSMNode`/`OSMWay`/`OSMRelation` values with `String` tags.
func osmPBFBenchmarks() -> [Benchmark] {
    let url = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/data/osm/liechtenstein.osm.pbf")
    guard let reader = try? OSMPBFReader(url: url), let summary = try? reader.forEachBlock({ _ in }) else {
        print("osm pbf: \(url.path) is missing or unreadable; skipped")
        return []
    }
    let elements = summary.nodes + summary.ways + summary.relations
    func scan(_ options: OSMPBFReadOptions, concurrency: Int) -> () -> Void {
        {
            var total = 0
            _ = try? reader.forEachBlock(options: options, concurrency: concurrency) { block in
                total &+= block.elementCount &+ block.nodes.tags.count
            }
            blackHole(total)
        }
    }
    return [
        Benchmark(name: "OSM PBF blocks, all cores (liechtenstein)", unit: "element", operations: elements,
                  body: scan(OSMPBFReadOptions(), concurrency: ProcessInfo.processInfo.activeProcessorCount)),
        Benchmark(name: "OSM PBF blocks, one core", unit: "element", operations: elements,
                  body: scan(OSMPBFReadOptions(), concurrency: 1)),
        Benchmark(name: "OSM PBF blocks, ways+relations only", unit: "way/rel",
                  operations: summary.ways + summary.relations,
                  body: scan(OSMPBFReadOptions(kinds: [.ways, .relations]), concurrency: ProcessInfo.processInfo.activeProcessorCount)),
        Benchmark(name: "OSM PBF entities (OSMNode/OSMWay/OSMRelation)", unit: "element", operations: elements) {
            var total = 0
            _ = try? reader.read(nodes: { total &+= $0.tags.count }, ways: { total &+= $0.nodeRefs.count },
                                 relations: { total &+= $0.members.count })
            blackHole(total)
        },
    ]
}
