import Foundation
import MapBundle
import MapFormats
import MapGeometry
import TestSupport
import XCTest
@testable import MapImport

/// The whole import on the real Monaco extract, checked against our own decoder and GDAL's.
final class ImportTests: XCTestCase {
    let monaco = TestData.shared("data/osm/monaco.osm.pbf")
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.fileExists(atPath: monaco.path), "missing \(monaco.path)")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func testImportMonaco() throws {
        let bundle = folder.appendingPathComponent("monaco.omk")
        let importer = BundleImporter()
        var phases: [ImportPhase] = []
        importer.progress = { phase, _ in if phases.last != phase { phases.append(phase) } }
        let report = try importer.importPBF(at: monaco, to: bundle)

        XCTAssertEqual(phases, ImportPhase.allCases)
        // Every phase's cost is reported; the node store's scratch file is on disk while ways are
        // read (16 bytes a node) and gone once the areas are assembled.
        XCTAssertEqual(report.phases.map(\.phase), ImportPhase.allCases.map(\.rawValue))
        XCTAssertTrue(report.phases.allSatisfy { ($0.peakMemoryBytes ?? 0) > 1 << 20 }, "\(report.phases)")
        let nodesAndWays = try XCTUnwrap(report.phases.first { $0.phase == ImportPhase.nodesAndWays.rawValue })
        XCTAssertGreaterThanOrEqual(nodesAndWays.diskBytes, report.nodes * 16)
        let areas = try XCTUnwrap(report.phases.first { $0.phase == ImportPhase.areas.rawValue })
        XCTAssertLessThan(areas.diskBytes, nodesAndWays.diskBytes - report.nodes * 16 / 2)
        // While tiles are written, the archive being built counts too (as far as SQLite has written it).
        let tiles = try XCTUnwrap(report.phases.first { $0.phase == ImportPhase.tiles.rawValue })
        XCTAssertGreaterThan(tiles.diskBytes, areas.diskBytes)
        XCTAssertGreaterThan(report.nodes, 20_000)
        XCTAssertGreaterThan(report.ways, 3_000)
        XCTAssertEqual(Set(report.tilesPerZoom.keys), Set(0...14))
        XCTAssertGreaterThan(report.featuresPerLayer["building"] ?? 0, 1000)
        XCTAssertGreaterThan(report.featuresPerLayer["transportation"] ?? 0, 1000)
        XCTAssertGreaterThan(report.featuresPerLayer["poi"] ?? 0, 100)

        let manifest = try JSONDecoder.iso8601.decode(BundleManifest.self, from: Data(contentsOf: bundle.appendingPathComponent("manifest.json")))
        XCTAssertEqual(manifest.tiles, "tiles.mbtiles")
        XCTAssertEqual(manifest.maximumZoom, 14)

        let archive = try MBTilesArchive(url: bundle.appendingPathComponent("tiles.mbtiles"))
        let metadata = try archive.metadata()
        XCTAssertEqual(metadata["format"], "pbf")
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try XCTUnwrap(metadata["json"]).utf8)) as? [String: Any])
        XCTAssertEqual((json["vector_layers"] as? [Any])?.count, 15)
        XCTAssertEqual(try archive.tileCounts(), report.tilesPerZoom)

        // The tile over the Prince's Palace holds buildings, roads and POIs, gzip-compressed.
        let palace = MKMapPoint(CLLocationCoordinate2D(latitude: 43.7314, longitude: 7.4200))
        let data = try XCTUnwrap(try archive.tile(TileID(containing: palace, zoom: 14)))
        XCTAssertTrue(data.withUnsafeBytes(Compression.isGzip))
        let tile = try VectorTile(decoding: try Compression.inflate(data))
        for layer in ["building", "transportation", "poi"] { XCTAssertNotNil(tile[layer: layer], "no \(layer) layer") }

        // GDAL's MVT reader sees the same z14 building features as our decoder.
        var buildings = 0
        try archive.forEachTile { id, data in
            guard id.z == 14 else { return }
            buildings += try VectorTile(decoding: try Compression.inflate(data))[layer: "building"]?.features.count ?? 0
        }
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: "/usr/bin/ogrinfo"), "ogrinfo is missing: apt-get install gdal-bin (make test installs it)")
        let ogr = try runProcess("/usr/bin/ogrinfo", ["-ro", "-so", bundle.appendingPathComponent("tiles.mbtiles").path, "building"]).stdout
        XCTAssertTrue(ogr.contains("Feature Count: \(buildings)"), "ogrinfo (gdal-bin) says:\n\(ogr)\nwe count \(buildings)")
    }

    /// A tiles-only import (`--tiles-only`, what the tilemaker comparison times) skips the place
    /// index, the road graphs and the street scene: their phases are not run and the manifest
    /// names none of them, and the tiles are the same as a whole import's.
    func testTilesOnlyImportSkipsPlacesAndRoadGraphs() throws {
        let whole = folder.appendingPathComponent("whole.omk"), tilesOnly = folder.appendingPathComponent("tiles.omk")
        let full = try BundleImporter().importPBF(at: monaco, to: whole)
        let importer = BundleImporter()
        importer.buildsPlaceIndex = false
        importer.buildsRoadGraphs = false
        importer.buildsStreetScene = false
        importer.keepsElements = false
        let report = try importer.importPBF(at: monaco, to: tilesOnly)
        XCTAssertEqual(report.phases.map(\.phase),
                       ImportPhase.allCases.filter { ![.places, .roadGraphs, .streetScene, .elements].contains($0) }.map(\.rawValue))
        let manifest = try MapBundle(url: tilesOnly).manifest
        XCTAssertNil(manifest.roads)
        XCTAssertNil(manifest.places)
        XCTAssertNil(manifest.scene)
        XCTAssertNil(try MapBundle(url: tilesOnly).streetScene())
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tilesOnly.path).sorted(), ["manifest.json", "tiles.mbtiles"])
        XCTAssertEqual(report.tilesPerZoom, full.tilesPerZoom)
        XCTAssertEqual(report.featuresPerLayer, full.featuresPerLayer)
    }

    func testCancelledImportLeavesTheOldBundle() throws {
        let bundle = folder.appendingPathComponent("kept.omk")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        try Data("old".utf8).write(to: bundle.appendingPathComponent("manifest.json"))
        let importer = BundleImporter()
        importer.cancellation.cancel()
        XCTAssertThrowsError(try importer.importPBF(at: monaco, to: bundle)) { error in
            guard case ImportError.cancelled = error else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(try Data(contentsOf: bundle.appendingPathComponent("manifest.json")), Data("old".utf8))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["kept.omk"])
    }

    /// A staging folder left by an import that was killed outright goes at the next import; one
    /// whose process still runs stays.
    func testAbandonedStagingIsCleared() throws {
        let bundle = folder.appendingPathComponent("monaco.omk")
        let dead = folder.appendingPathComponent(".monaco.omk.partial-2147483646")
        let running = folder.appendingPathComponent(".monaco.omk.partial-1")
        for staging in [dead, running] { try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true) }
        _ = try BundleImporter().importPBF(at: monaco, to: bundle)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), [".monaco.omk.partial-1", "monaco.omk"])
    }

    /// Ways are turned into geometry as they stream past, so they must come after every node; an
    /// extract that has a node after a way is refused with a typed error, not imported with holes.
    func testNodesAfterWaysAreATypedError() throws {
        func frame(_ type: String, _ payload: [UInt8]) -> [UInt8] {
            var blob = ProtobufWriter()
            blob.writeBytesField(1, payload)  // raw (uncompressed) data
            var header = ProtobufWriter()
            header.writeStringField(1, type)
            header.writeVarintField(3, UInt64(blob.bytes.count))
            let n = header.bytes.count
            return [0, 0, UInt8(n >> 8), UInt8(n & 0xFF)] + header.bytes + blob.bytes
        }
        func block(_ group: (inout ProtobufWriter) -> Void) -> [UInt8] {
            var block = ProtobufWriter()
            block.writeMessageField(1) { table in table.writeStringField(1, "") }
            block.writeMessageField(2, group)
            return block.bytes
        }
        var header = ProtobufWriter()
        header.writeStringField(4, "OsmSchema-V0.6")
        let way = block { group in
            group.writeMessageField(3) { way in
                way.writeVarintField(1, 10)
                way.writePackedVarints(8, [ProtobufWriter.zigzag(1), ProtobufWriter.zigzag(1)])  // refs 1, 2 (delta coded)
            }
        }
        let nodes = block { group in
            for id in [Int64(1), 2] {
                group.writeMessageField(1) { node in
                    node.writeSInt64Field(1, id)
                    node.writeSInt64Field(8, 437_000_000 + id)
                    node.writeSInt64Field(9, 74_000_000 + id)
                }
            }
        }
        let file = folder.appendingPathComponent("unsorted.osm.pbf")
        try Data(frame("OSMHeader", header.bytes) + frame("OSMData", way) + frame("OSMData", nodes)).write(to: file)
        XCTAssertThrowsError(try BundleImporter().importPBF(at: file, to: folder.appendingPathComponent("u.omk"))) { error in
            guard case ImportError.source(let message) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("nodes after ways"), message)
            XCTAssertTrue(message.contains("osmium sort"), message)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["unsorted.osm.pbf"])
    }

    /// A manifest written before the per-phase costs existed still reads.
    func testOlderManifestsStillRead() throws {
        let older = #"""
        {"formatVersion": 1, "source": "monaco.osm.pbf", "created": "2026-11-21T10:00:00Z", "minimumZoom": 0, "maximumZoom": 14,
         "tiles": "tiles.mbtiles", "report": {"source": "monaco.osm.pbf", "nodes": 25423, "ways": 4106, "relations": 80,
         "missingNodeReferences": 0, "missingWayReferences": 3, "invalidAreas": 0, "featuresPerLayer": {"building": 3000},
         "tilesPerZoom": {"14": 12}, "tileBytes": 1000, "phaseSeconds": {"reading relations": 0.1}}}
        """#
        let manifest = try JSONDecoder.iso8601.decode(BundleManifest.self, from: Data(older.utf8))
        XCTAssertEqual(manifest.report.nodes, 25423)
        XCTAssertEqual(manifest.report.tilesPerZoom[14], 12)
        XCTAssertEqual(manifest.report.phases.count, 0)
    }

    func testNotAnExtract() throws {
        let text = folder.appendingPathComponent("notes.osm.pbf")
        try Data("just some text, not protobuf".utf8).write(to: text)
        XCTAssertThrowsError(try BundleImporter().importPBF(at: text, to: folder.appendingPathComponent("x.omk"))) { error in
            guard case ImportError.source(let message) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("notes.osm.pbf"), message)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("x.omk").path))
    }
}

private extension JSONDecoder {
    static var iso8601: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
