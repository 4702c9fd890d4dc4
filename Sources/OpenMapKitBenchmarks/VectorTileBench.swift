import Foundation
import MapFormats

/// Vector tile decoding and encoding over mvt-fixtures' real-world tiles (shared/, beside the
/// checkout). The gzip-compressed ones are inflated once up front so the figures measure the codec.
func vectorTileBenchmarks() -> [Benchmark] {
    let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("shared/conformance/mvt-fixtures/real-world")
    guard let walker = FileManager.default.enumerator(atPath: root.path) else {
        print("vector tile benchmarks skipped: no tiles at \(root.path)")
        return []
    }
    var tiles: [[UInt8]] = []
    for case let file as String in walker where file.hasSuffix(".mvt") || file.hasSuffix(".mvt.gz") {
        guard let data = try? Data(contentsOf: root.appendingPathComponent(file)) else { continue }
        let bytes = file.hasSuffix(".gz") ? ((try? Compression.inflate(data)) ?? []) : [UInt8](data)
        tiles.append(bytes)
    }
    let decoded = tiles.compactMap { try? VectorTile(decoding: $0) }
    guard decoded.count == tiles.count, !tiles.isEmpty else {
        print("vector tile benchmarks skipped: \(tiles.count - decoded.count) of \(tiles.count) tiles do not decode")
        return []
    }
    let features = decoded.reduce(0) { $0 + $1.layers.reduce(0) { $0 + $1.features.count } }
    let bytes = tiles.reduce(0) { $0 + $1.count }
    let rounds = 5
    return [
        Benchmark(name: "VectorTile decode (\(tiles.count) real-world tiles)", unit: "feature", operations: features * rounds) {
            for _ in 0..<rounds {
                for tile in tiles { blackHole(try? VectorTile(decoding: tile)) }
            }
        },
        Benchmark(name: "VectorTile decode bytes", unit: "byte", operations: bytes * rounds) {
            for _ in 0..<rounds {
                for tile in tiles { blackHole(try? VectorTile(decoding: tile)) }
            }
        },
        Benchmark(name: "VectorTile encode (\(tiles.count) real-world tiles)", unit: "feature", operations: features * rounds) {
            for _ in 0..<rounds {
                for tile in decoded { blackHole(tile.encoded()) }
            }
        },
    ]
}
