import ArgumentParser
import Foundation
import MapFormats
import MapBundle
import OpenMapKit

/// `openmapkit tiles export --pmtiles OUT`, `openmapkit tiles inspect Z/X/Y` and `openmapkit tiles render Z/X/Y`.
struct TilesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tiles",
        abstract: "Export a bundle's tiles, look inside one tile or render one as a PNG.",
        subcommands: [Export.self, Inspect.self, Render.self]
    )

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Write the bundle's tiles as a PMTiles v3 archive.")

        @OptionGroup var data: BundleOptions

        @Option(help: "The PMTiles file to write.")
        var pmtiles: String

        @OptionGroup var format: JSONOption

        func run() throws {
            let source = try data.firstBundle()
            let archive = try source.tiles()
            let metadata = try archive.metadata()
            let writer = try PMTilesWriter(url: URL(fileURLWithPath: pmtiles), tileType: .mvt, tileCompression: .gzip)
            // PMTiles keeps TileJSON-style metadata as one JSON object: the MBTiles rows, with `json` unpacked.
            var tileJSON: [String: Any] = metadata.filter { $0.key != "json" }
            if let layers = metadata["json"].flatMap({ try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }) {
                tileJSON.merge(layers) { $1 }
            }
            writer.metadata = try JSONSerialization.data(withJSONObject: tileJSON, options: [.sortedKeys])
            if let bounds = metadata["bounds"]?.split(separator: ",").compactMap({ Double($0) }), bounds.count == 4 {
                writer.bounds = (bounds[0], bounds[1], bounds[2], bounds[3])
            }
            var count = 0
            try archive.forEachTile { id, data in
                try writer.addTile(z: id.z, x: id.x, y: id.y, bytes: [UInt8](data))
                count += 1
            }
            try writer.finish()
            let bytes = (try? FileManager.default.attributesOfItem(atPath: pmtiles)[.size] as? Int) ?? 0
            try WrittenFile(output: pmtiles, bytes: bytes, tiles: count).report(json: format.json, text: "Wrote \(count) tiles to \(pmtiles)")
        }
    }

    struct Inspect: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the layers, features and properties of one tile.")

        @OptionGroup var data: BundleOptions

        @Argument(help: "The tile, Z/X/Y (XYZ rows, from the north).")
        var tile: String

        @OptionGroup var format: JSONOption

        @Option(help: "How many features to list per layer.")
        var features = 3

        func run() throws {
            guard let id = TileID(tile) else { throw ValidationError("\(tile) is not a tile: write Z/X/Y with 0 ≤ X, Y < 2^Z") }
            let source = try data.firstBundle()
            guard let data = try source.tiles().tile(id) else {
                throw CommandFailure("\(id): no tile in \(source.url.path)")
            }
            let raw = Compression.isGzip(data) ? try Compression.inflate(data) : [UInt8](data)
            let decoded = try VectorTile(decoding: raw)
            let summary = TileSummary(tile: id.description, bytes: data.count, uncompressedBytes: raw.count,
                                      layers: decoded.layers.map { layer in
                TileSummary.Layer(name: layer.name, extent: Int(layer.extent), features: layer.features.count,
                                  samples: layer.features.prefix(max(features, 0)).map { feature in
                    TileSummary.Feature(type: "\(feature.type)", properties: Dictionary(feature.properties.map { ($0.key, $0.value.description) },
                                                                                      uniquingKeysWith: { a, _ in a }))
                })
            })
            if format.json {
                try printJSON(summary)
            } else {
                print("\(summary.tile): \(summary.bytes) bytes (\(summary.uncompressedBytes) uncompressed), \(summary.layers.count) layers")
                for layer in summary.layers {
                    print("  \(layer.name): \(layer.features) features, extent \(layer.extent)")
                    for sample in layer.samples {
                        let properties = sample.properties.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
                        print("    \(sample.type) \(properties)")
                    }
                }
            }
        }
    }
}

/// What `tiles inspect` prints.
struct TileSummary: Encodable {
    struct Feature: Encodable {
        var type: String
        var properties: [String: String]
    }

    struct Layer: Encodable {
        var name: String
        var extent: Int
        var features: Int
        var samples: [Feature]
    }

    var tile: String
    var bytes: Int
    var uncompressedBytes: Int
    var layers: [Layer]
}
