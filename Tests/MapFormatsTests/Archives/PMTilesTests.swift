import Foundation
import TestSupport
import XCTest
@testable import MapFormats

final class PMTilesTests: XCTestCase {
    /// /work/shared/conformance/pmtiles, found beside the package root.
    static let fixtures = TestData.shared("conformance/pmtiles")

    private func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("pmtiles-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    private func reason(_ body: () throws -> Void) -> PMTilesError.Reason? {
        do {
            try body()
            return nil
        } catch let error as PMTilesError {
            return error.reason
        } catch {
            XCTFail("untyped error \(error)")
            return nil
        }
    }

    // MARK: Tile ids

    func testHilbertTileIDsKnownValues() throws {
        // The spec's table, then values cross-checked with the reference Python implementation.
        let known: [(Int, Int, Int, UInt64)] = [
            (0, 0, 0, 0), (1, 0, 0, 1), (1, 0, 1, 2), (1, 1, 1, 3), (1, 1, 0, 4), (2, 0, 0, 5),
            (2, 1, 0, 6), (2, 1, 1, 7), (2, 0, 1, 8), (2, 3, 3, 15), (2, 2, 0, 19), (2, 3, 0, 20),
            (3, 7, 0, 84), (12, 3423, 1763, 19_078_479), (20, 1_000_000, 500_000, 1_194_873_097_215),
            (26, 67_108_863, 0, 6_004_799_503_160_660),
        ]
        for (z, x, y, id) in known {
            XCTAssertEqual(try PMTilesTileID.id(z: z, x: x, y: y), id, "\(z)/\(x)/\(y)")
            let back = try PMTilesTileID.coordinates(of: id)
            XCTAssertEqual([back.z, back.x, back.y], [z, x, y], "id \(id)")
        }
        XCTAssertEqual(PMTilesTileID.base(zoom: 12), 5_592_405)
        // The extremes of zoom 31, the deepest whose ids fit in 64 bits.
        let corner = (1 << 31) - 1
        for (x, y) in [(0, 0), (corner, 0), (corner, corner), (0, corner)] {
            let id = try PMTilesTileID.id(z: 31, x: x, y: y)
            let back = try PMTilesTileID.coordinates(of: id)
            XCTAssertEqual([back.z, back.x, back.y], [31, x, y])
        }
        XCTAssertEqual(reason { _ = try PMTilesTileID.id(z: 1, x: 2, y: 0) }, .invalidTileCoordinates(z: 1, x: 2, y: 0))
        XCTAssertEqual(reason { _ = try PMTilesTileID.id(z: 32, x: 0, y: 0) }, .invalidTileCoordinates(z: 32, x: 0, y: 0))
        XCTAssertEqual(reason { _ = try PMTilesTileID.id(z: 3, x: -1, y: 0) }, .invalidTileCoordinates(z: 3, x: -1, y: 0))
        XCTAssertEqual(reason { _ = try PMTilesTileID.coordinates(of: .max) }, .invalidTileID(.max))
    }

    func testHilbertRoundTripEveryTileToZoom5AndRandomTilesToZoom20() throws {
        // Zooms 0…5: ids are consecutive from 0, each z/x/y exactly once, and neighbours along
        // the curve are adjacent cells (the defining property of a Hilbert curve).
        var expected: UInt64 = 0
        for z in 0...5 {
            var seen = Set<Int>()
            var previous: (Int, Int)?
            for position in 0..<(1 << (2 * z)) {
                let (zz, x, y) = try PMTilesTileID.coordinates(of: expected)
                XCTAssertEqual(zz, z)
                XCTAssertTrue(seen.insert(x << 8 | y).inserted)
                XCTAssertEqual(try PMTilesTileID.id(z: z, x: x, y: y), expected)
                if let (px, py) = previous { XCTAssertEqual(abs(px - x) + abs(py - y), 1, "step \(position) at z\(z)") }
                previous = (x, y)
                expected += 1
            }
            XCTAssertEqual(seen.count, 1 << (2 * z))
        }
        var random = SplitMix64(seed: 0x504D_5469)
        for _ in 0..<20_000 {
            let z = Int(random.next() % 21)
            let x = Int(random.next() % (UInt64(1) << UInt64(z)))
            let y = Int(random.next() % (UInt64(1) << UInt64(z)))
            let id = try PMTilesTileID.id(z: z, x: x, y: y)
            XCTAssertTrue(id >= PMTilesTileID.base(zoom: z) && id < PMTilesTileID.base(zoom: z + 1))
            let back = try PMTilesTileID.coordinates(of: id)
            XCTAssertEqual([back.z, back.x, back.y], [z, x, y])
        }
    }

    // MARK: Directories

    func testDirectoryEncodingFollowsTheSpec() throws {
        let entries = [
            PMTilesEntry(tileID: 5, offset: 0, length: 42, runLength: 1),
            PMTilesEntry(tileID: 42, offset: 42, length: 10, runLength: 3),     // contiguous: offset code 0
            PMTilesEntry(tileID: 69, offset: 0, length: 42, runLength: 1),      // deduplicated: offset + 1
        ]
        let encoded = PMTilesDirectory.encode(entries)
        XCTAssertEqual(encoded, [3, 5, 37, 27, 1, 3, 1, 42, 10, 42, 1, 0, 1])
        let decoded = try encoded.withUnsafeBytes { try PMTilesDirectory.decode($0) }
        XCTAssertEqual(decoded, entries)
        XCTAssertEqual(PMTilesDirectory.find(43, in: decoded)?.tileID, 42)
        XCTAssertEqual(PMTilesDirectory.find(44, in: decoded)?.tileID, 42)
        XCTAssertNil(PMTilesDirectory.find(45, in: decoded))
        XCTAssertNil(PMTilesDirectory.find(4, in: decoded))
        XCTAssertEqual(PMTilesDirectory.find(69, in: decoded)?.tileID, 69)
        XCTAssertNil(PMTilesDirectory.find(70, in: decoded))
    }

    func testHostileDirectoriesAreRejected() {
        let cases: [(String, [UInt8], Int)] = [
            ("empty", [], 0),
            ("truncated count varint", [0x80], 0),
            ("count larger than the bytes", [0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 1, 1, 1, 1], 0),
            ("varint past 64 bits", [1] + [UInt8](repeating: 0xFF, count: 10) + [1, 1, 1, 1], 1),
            ("repeated tile id", [2, 1, 0, 1, 1, 1, 1, 1, 0], 2),
            ("zero length", [1, 0, 1, 0, 1], 3),
            ("first offset code 0", [1, 0, 1, 1, 0], 4),
            ("trailing bytes", [1, 0, 1, 1, 1, 9], 5),
            ("overlapping runs", [2, 0, 1, 5, 1, 1, 1, 1, 0], 3),
            ("run length past 32 bits", [1, 0, 0x80, 0x80, 0x80, 0x80, 0x10, 1, 1], 2),
        ]
        var failures: [String] = []
        for (name, bytes, byte) in cases {
            let outcome = reason { _ = try bytes.withUnsafeBytes { try PMTilesDirectory.decode($0, section: .leafDirectory, archiveOffset: 99) } }
            if case let .malformedDirectory(section, detail, at)? = outcome, section == .leafDirectory, at == byte {
                print("PMTiles hostile directory \(name): rejected (\(detail) at byte \(at))")
            } else {
                failures.append("\(name): \(String(describing: outcome))")
            }
        }
        XCTAssertEqual(failures, [])
    }

    // MARK: Fixtures

    func testConformanceFixtures() throws {
        var results: [String] = []
        for name in ["test_fixture_1", "test_fixture_2"] {
            let archive = try PMTilesArchive(url: Self.fixtures.appendingPathComponent("\(name).pmtiles"))
            let header = archive.header
            print("PMTiles \(name): \(header)")
            let metadata = try archive.metadata()
            print("PMTiles \(name) metadata: \(String(decoding: try archive.metadataData(), as: UTF8.self))")
            XCTAssertEqual(metadata["name"] as? String, "\(name).pmtiles")
            let layers = metadata["vector_layers"] as? [[String: Any]]
            XCTAssertEqual(layers?.first?["id"] as? String, "\(name)pmtiles")
            XCTAssertEqual(header.tileType, .mvt)
            XCTAssertEqual(header.tileCompression, .gzip)
            XCTAssertEqual(header.internalCompression, .gzip)
            XCTAssertFalse(header.clustered)
            XCTAssertEqual([header.minZoom, header.maxZoom, header.centerZoom], [0, 0, 0])
            XCTAssertEqual(header.maxLatitudeE7, 10_000_000)
            XCTAssertEqual(header.maxLongitudeE7, 9_999_999)
            XCTAssertEqual([header.addressedTilesCount, header.tileEntriesCount, header.tileContentsCount], [1, 1, 1])

            var tiles: [String] = []
            try archive.forEachTile { z, x, y, _ in tiles.append("\(z)/\(x)/\(y)") }
            XCTAssertEqual(tiles, ["0/0/0"])
            let counts = try archive.countTiles()
            XCTAssertEqual(counts.addressed, 1)
            let tile = try XCTUnwrap(try archive.tile(z: 0, x: 0, y: 0))
            XCTAssertEqual(UInt64(tile.count), header.tileDataLength)
            // gzip-compressed MVT: gzip magic, and the inflated bytes start with field 3 (a layer).
            XCTAssertEqual(Array(tile.prefix(2)), [0x1F, 0x8B])
            let mvt = try archive.decompressTile(tile)
            XCTAssertEqual(mvt.first, 0x1A)
            XCTAssertTrue(String(decoding: mvt, as: UTF8.self).contains("\(name)pmtiles"), "layer name inside the tile")
            XCTAssertNil(try archive.tile(z: 1, x: 0, y: 0))
            results.append("\(name): pass (\(tile.count)-byte gzip MVT at 0/0/0, \(mvt.count) bytes inflated)")
        }

        // MapLibre Tile fixture: Monaco's bounds and a header naming MLT, but its root directory
        // holds no entries, so it reads as an archive with no tiles.
        let mlt = try PMTilesArchive(url: Self.fixtures.appendingPathComponent("test_fixture_mlt.pmtiles"))
        print("PMTiles test_fixture_mlt: \(mlt.header)")
        XCTAssertEqual(mlt.header.tileType, .mlt)
        XCTAssertEqual(mlt.header.tileType.mimeType, "application/vnd.maplibre-vector-tile")
        XCTAssertEqual(mlt.header.centerZoom, 14)
        XCTAssertEqual(mlt.header.bounds.minLongitude, 7.4078, accuracy: 1e-9)
        XCTAssertEqual(mlt.header.bounds.maxLatitude, 43.7527, accuracy: 1e-9)
        XCTAssertEqual(mlt.header.center.latitude, 43.7374499, accuracy: 1e-9)
        XCTAssertEqual((try mlt.metadata())["name"] as? String, "Overture")
        XCTAssertEqual(mlt.rootDirectory.count, 0)
        var mltTiles = 0
        try mlt.forEachTile { _, _, _, _ in mltTiles += 1 }
        XCTAssertEqual(mltTiles, 0)
        XCTAssertNil(try mlt.tile(z: 14, x: 8529, y: 5974))
        results.append("test_fixture_mlt: pass (MLT header, Monaco bounds, no tile entries)")

        // empty.pmtiles is a zero-byte file: no header at all, so it is rejected as truncated.
        let rejections: [(String, PMTilesError.Reason)] = [
            ("empty", .truncated(.header, needed: 127, available: 0)),
            ("invalid", .badMagic),
            ("invalid_v4", .unsupportedVersion(4)),
        ]
        for (name, expected) in rejections {
            let outcome = reason { _ = try PMTilesArchive(url: Self.fixtures.appendingPathComponent("\(name).pmtiles")) }
            XCTAssertEqual(outcome, expected, name)
            results.append("\(name): \(outcome == expected ? "pass" : "FAIL"), rejected: \(outcome.map { PMTilesError($0).description } ?? "accepted")")
        }
        print("PMTiles conformance fixtures:\n  " + results.joined(separator: "\n  "))
        print("PMTiles conformance: \(results.filter { $0.contains("pass") }.count) passed, \(results.filter { !$0.contains("pass") }.count) failed")
    }

    // MARK: Writer

    /// 5 000 tiles in shuffled order: a run of 1 000 identical ocean tiles at z10, 1 000 tiles
    /// cycling through 7 contents, and 3 000 distinct tiles.
    func testWriterRoundTripWithDeduplicationAndRuns() throws {
        var tiles: [(z: Int, x: Int, y: Int, bytes: [UInt8])] = []
        let oceanStart = PMTilesTileID.base(zoom: 10) + 5_000
        for i in 0..<1_000 {
            let (z, x, y) = try PMTilesTileID.coordinates(of: oceanStart + UInt64(i))
            tiles.append((z, x, y, Array("ocean".utf8)))
        }
        for i in 0..<1_000 {
            let (z, x, y) = try PMTilesTileID.coordinates(of: PMTilesTileID.base(zoom: 11) + UInt64(2 * i))
            tiles.append((z, x, y, Array("pattern \(i % 7)".utf8)))
        }
        for i in 0..<3_000 {
            let (z, x, y) = try PMTilesTileID.coordinates(of: PMTilesTileID.base(zoom: 12) + UInt64(i))
            tiles.append((z, x, y, Array("tile \(i) ".utf8) + [UInt8](repeating: UInt8(i % 251), count: i % 40)))
        }
        var random = SplitMix64(seed: 7)
        tiles.shuffle(using: &random)

        let folder = try temporaryDirectory()
        let url = folder.appendingPathComponent("round-trip.pmtiles")
        let writer = try PMTilesWriter(url: url, tileType: .mvt, tileCompression: .gzip)
        writer.metadata = Data(#"{"name":"round trip","vector_layers":[]}"#.utf8)
        for tile in tiles { try writer.addTile(z: tile.z, x: tile.x, y: tile.y, bytes: tile.bytes) }
        try writer.finish()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["round-trip.pmtiles"],
                       "no temporary or spool file is left behind")

        let archive = try PMTilesArchive(url: url)
        let header = archive.header
        XCTAssertEqual(header.addressedTilesCount, 5_000)
        // One entry for the ocean run, 1 000 pattern entries (ids two apart never merge), 3 000 distinct.
        XCTAssertEqual(header.tileEntriesCount, 1 + 1_000 + 3_000)
        XCTAssertEqual(header.tileContentsCount, 1 + 7 + 3_000)
        XCTAssertTrue(header.clustered)
        XCTAssertEqual([header.minZoom, header.maxZoom], [10, 12])
        XCTAssertEqual(header.tileType, .mvt)
        XCTAssertEqual(header.tileCompression, .gzip)
        XCTAssertEqual(header.rootDirectoryOffset, 127)
        XCTAssertLessThanOrEqual(header.rootDirectoryOffset + header.rootDirectoryLength, 16_384)
        XCTAssertEqual((try archive.metadata())["name"] as? String, "round trip")
        XCTAssertTrue(header.bounds.minLongitude < header.bounds.maxLongitude && header.bounds.minLatitude < header.bounds.maxLatitude)
        XCTAssertTrue((Int(header.minZoom)...Int(header.maxZoom)).contains(Int(header.centerZoom)))

        for tile in tiles {
            XCTAssertEqual(try archive.tile(z: tile.z, x: tile.x, y: tile.y), tile.bytes, "\(tile.z)/\(tile.x)/\(tile.y)")
        }
        let gap = try PMTilesTileID.coordinates(of: PMTilesTileID.base(zoom: 11) + 1)
        XCTAssertNil(try archive.tile(z: gap.z, x: gap.x, y: gap.y))
        XCTAssertNil(try archive.tile(z: 0, x: 0, y: 0))
        var visited = 0
        var previous: UInt64?
        try archive.forEachTile { z, x, y, _ in
            let id = try PMTilesTileID.id(z: z, x: x, y: y)
            if let previous { XCTAssertGreaterThan(id, previous) }
            previous = id
            visited += 1
        }
        XCTAssertEqual(visited, 5_000)

        // Clustered layout: blobs in tile-id order, so first-seen offsets only ever grow.
        var nextOffset: UInt64 = 0
        try archive.forEachEntry { entry, _ in
            if entry.offset >= nextOffset {
                XCTAssertEqual(entry.offset, nextOffset)
                nextOffset = entry.offset + UInt64(entry.length)
            }
        }
        XCTAssertEqual(nextOffset, header.tileDataLength)

        // The in-memory archive is byte-identical to the file.
        let memory = PMTilesWriter(tileType: .mvt, tileCompression: .gzip)
        memory.metadata = writer.metadata
        for tile in tiles.reversed() { try memory.addTile(z: tile.z, x: tile.x, y: tile.y, bytes: tile.bytes) }
        XCTAssertEqual(try memory.encoded(), [UInt8](try Data(contentsOf: url)))
    }

    func testWriterSplitsLargeArchivesIntoLeafDirectories() throws {
        // 200 000 distinct tiny tiles over zooms 9 and 10: the root alone would be far past 16 KiB.
        let writer = PMTilesWriter(tileType: .png, tileCompression: .none)
        var random = SplitMix64(seed: 2026)
        let first = PMTilesTileID.base(zoom: 9)
        let span = PMTilesTileID.base(zoom: 11) - first
        var chosen = Set<UInt64>()
        while chosen.count < 200_000 { chosen.insert(first + random.next() % span) }
        for id in chosen {
            let (z, x, y) = try PMTilesTileID.coordinates(of: id)
            try writer.addTile(z: z, x: x, y: y, bytes: withUnsafeBytes(of: id.littleEndian) { Array($0) })
        }
        let bytes = try writer.encoded()
        let summary = try XCTUnwrap(writer.summary)
        print("PMTiles large archive: \(bytes.count) bytes, root \(summary.rootDirectoryBytes) bytes, \(summary.leafDirectoryCount) leaves")
        XCTAssertGreaterThan(summary.leafDirectoryCount, 1)

        let archive = try PMTilesArchive(bytes: bytes)
        XCTAssertLessThanOrEqual(Int(archive.header.rootDirectoryLength) + PMTilesHeader.size, PMTilesHeader.rootLimit)
        XCTAssertGreaterThan(archive.header.leafDirectoriesLength, 0)
        XCTAssertTrue(archive.rootDirectory.allSatisfy(\.isLeaf))
        XCTAssertEqual(archive.header.addressedTilesCount, 200_000)
        XCTAssertEqual([archive.header.minZoom, archive.header.maxZoom], [9, 10])
        // Every tile through leaf directories, and sampled point look-ups, present and absent.
        // Each tile's bytes are its own id, so one comparison checks both the bytes and the walk.
        var count = 0, mismatches = 0
        try archive.forEachTile { z, x, y, tile in
            let id = try PMTilesTileID.id(z: z, x: x, y: y)
            if tile.count != 8 || tile.withUnsafeBytes({ $0.loadUnaligned(as: UInt64.self) }) != id.littleEndian { mismatches += 1 }
            count += 1
        }
        XCTAssertEqual(count, 200_000)
        XCTAssertEqual(mismatches, 0)
        for _ in 0..<3_000 {
            let id = first + random.next() % span
            let (z, x, y) = try PMTilesTileID.coordinates(of: id)
            let tile = try archive.tile(z: z, x: x, y: y)
            XCTAssertEqual(tile, chosen.contains(id) ? withUnsafeBytes(of: id.littleEndian) { Array($0) } : nil)
        }
    }

    func testWriterRejectsBadInput() throws {
        let writer = PMTilesWriter(tileType: .mvt, tileCompression: .gzip)
        XCTAssertEqual(reason { _ = try writer.encoded() }, .noTiles)
        XCTAssertEqual(reason { try writer.addTile(z: 2, x: 4, y: 0, bytes: [1]) }, .invalidTileCoordinates(z: 2, x: 4, y: 0))
        XCTAssertEqual(reason { try writer.addTile(z: 2, x: 1, y: 0, bytes: []) }, .emptyTile(z: 2, x: 1, y: 0))
        try writer.addTile(z: 2, x: 1, y: 0, bytes: [1])
        try writer.addTile(z: 2, x: 1, y: 0, bytes: [2])
        XCTAssertEqual(reason { _ = try writer.encoded() }, .duplicateTile(z: 2, x: 1, y: 0))

        let metadata = PMTilesWriter(tileType: .mvt, tileCompression: .gzip)
        try metadata.addTile(z: 0, x: 0, y: 0, bytes: [1])
        metadata.metadata = Data("[1, 2]".utf8)
        guard case .malformedMetadata? = reason({ _ = try metadata.encoded() }) else { return XCTFail("metadata array accepted") }

        // A failed write leaves an existing archive untouched.
        let folder = try temporaryDirectory()
        let url = folder.appendingPathComponent("kept.pmtiles")
        try Data("previous".utf8).write(to: url)
        let failing = try PMTilesWriter(url: url, tileType: .mvt, tileCompression: .gzip)
        XCTAssertEqual(reason { try failing.finish() }, .noTiles)
        XCTAssertEqual(try Data(contentsOf: url), Data("previous".utf8))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["kept.pmtiles"])
    }

    // MARK: Hostile archives

    /// A small valid archive with leaf directories, built by hand so its structure is known.
    private func archiveWithLeaves() throws -> [UInt8] {
        let writer = PMTilesWriter(tileType: .mvt, tileCompression: .none, internalCompression: .none)
        for i in 0..<5_000 {
            let (z, x, y) = try PMTilesTileID.coordinates(of: PMTilesTileID.base(zoom: 8) + UInt64(i * 3))
            try writer.addTile(z: z, x: x, y: y, bytes: [UInt8(i & 0xFF), UInt8(i >> 8)])
        }
        return try writer.encoded()
    }

    /// Builds an archive from parts: header fields filled in from the sections given.
    private func assemble(root: [UInt8], leaves: [UInt8] = [], data: [UInt8] = [], compression: PMTilesCompression = .none,
                          adjust: (inout PMTilesHeader) -> Void = { _ in }) -> [UInt8] {
        var header = PMTilesHeader()
        header.internalCompression = compression
        header.rootDirectoryOffset = 127
        header.rootDirectoryLength = UInt64(root.count)
        header.metadataOffset = 127 + UInt64(root.count)
        header.leafDirectoriesOffset = header.metadataOffset
        header.leafDirectoriesLength = UInt64(leaves.count)
        header.tileDataOffset = header.leafDirectoriesOffset + UInt64(leaves.count)
        header.tileDataLength = UInt64(data.count)
        adjust(&header)
        return header.encoded() + root + leaves + data
    }

    func testHostileArchivesFailWithTypedErrors() throws {
        var report: [String] = []
        func expect(_ name: String, _ bytes: [UInt8], lookup: (z: Int, x: Int, y: Int)? = nil,
                    _ matches: (PMTilesError.Reason) -> Bool) {
            let outcome = reason {
                let archive = try PMTilesArchive(bytes: bytes)
                if let lookup { _ = try archive.tile(z: lookup.z, x: lookup.x, y: lookup.y) }
                try archive.forEachTile { _, _, _, _ in }
            }
            if let outcome, matches(outcome) {
                report.append("pass \(name): \(PMTilesError(outcome))")
            } else {
                report.append("FAIL \(name): \(String(describing: outcome))")
            }
        }
        let tile = PMTilesDirectory.encode([PMTilesEntry(tileID: 0, offset: 0, length: 4, runLength: 1)])
        expect("root past the end", assemble(root: tile, data: [1, 2, 3, 4]) { $0.rootDirectoryLength = 10_000 }) {
            if case .outOfBounds(.rootDirectory, _, _, _) = $0 { return true } else { return false }
        }
        expect("offset overflow", assemble(root: tile, data: [1, 2, 3, 4]) { $0.metadataOffset = .max; $0.metadataLength = 1 }) {
            if case .outOfBounds(.metadata, _, _, _) = $0 { return true } else { return false }
        }
        expect("tile past the data section", assemble(root: tile, data: [1, 2])) {
            if case .outOfBounds(.tile, _, _, _) = $0 { return true } else { return false }
        }
        expect("truncated header", Array(assemble(root: tile).prefix(60))) {
            if case .truncated(.header, _, _) = $0 { return true } else { return false }
        }
        expect("varint garbage root", assemble(root: [0xFF, 0xFF, 0xFF])) {
            if case .malformedDirectory(.rootDirectory, _, _) = $0 { return true } else { return false }
        }
        expect("absurd entry count", assemble(root: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F, 0, 0, 0, 0])) {
            if case .malformedDirectory(.rootDirectory, _, _) = $0 { return true } else { return false }
        }
        expect("brotli directories", assemble(root: tile, data: [1, 2, 3, 4], compression: .brotli)) {
            $0 == .unsupportedCompression(.brotli)
        }
        expect("corrupt gzip root", assemble(root: [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3, 0xFF, 0xFF], compression: .gzip)) {
            if case .decompressionFailed(.rootDirectory, _) = $0 { return true } else { return false }
        }
        // A leaf directory that points at itself: the reader must stop at its depth limit.
        let loop = PMTilesDirectory.encode([PMTilesEntry(tileID: 0, offset: 0, length: 5, runLength: 0)])
        XCTAssertEqual(loop.count, 5)
        expect("leaf loop", assemble(root: loop, leaves: loop), lookup: (0, 0, 0)) { $0 == .leafDepthExceeded(limit: 4) }
        expect("leaf loop enumerated", assemble(root: loop, leaves: loop)) { $0 == .leafDepthExceeded(limit: 4) }
        expect("leaf past its section", assemble(root: loop, leaves: [1, 2])) {
            if case .outOfBounds(.leafDirectory, _, _, _) = $0 { return true } else { return false }
        }
        // Zero-length leaf entries are malformed (lengths are positive).
        expect("zero-length leaf", assemble(root: [1, 0, 0, 0, 1])) {
            if case .malformedDirectory(.rootDirectory, _, _) = $0 { return true } else { return false }
        }
        print("PMTiles hostile archives:\n  " + report.joined(separator: "\n  "))
        XCTAssertEqual(report.filter { $0.hasPrefix("FAIL") }, [])

        // Truncating a valid archive with leaves anywhere never crashes and fails with a typed error
        // or (when only the tail of the tile data is lost) at the first missing tile.
        let valid = try archiveWithLeaves()
        XCTAssertGreaterThan(try PMTilesArchive(bytes: valid).header.leafDirectoriesLength, 0)
        for cut in stride(from: 0, to: valid.count, by: 97) {
            let outcome = reason { try PMTilesArchive(bytes: Array(valid.prefix(cut))).forEachTile { _, _, _, _ in } }
            XCTAssertNotNil(outcome, "cut at \(cut)")
        }
    }

    func testMutatedArchivesNeverCrashOrHang() throws {
        let valid = try archiveWithLeaves()
        let gzipped: [UInt8] = try {
            let writer = PMTilesWriter(tileType: .mvt, tileCompression: .gzip)
            for i in 0..<40 { try writer.addTile(z: 3, x: i % 8, y: i / 8, bytes: [UInt8(i % 5)]) }
            return try writer.encoded()
        }()
        var random = SplitMix64(seed: 99)
        var outcomes: [String: Int] = [:]
        for round in 0..<400 {
            var bytes = round % 3 == 0 ? gzipped : valid
            // Most flips land in the header and directories, where the parsing is.
            let hot = min(bytes.count, round % 3 == 0 ? bytes.count : 600)
            for _ in 0..<(1 + Int(random.next() % 4)) {
                bytes[Int(random.next() % UInt64(hot))] = UInt8(truncatingIfNeeded: random.next())
            }
            do {
                let archive = try PMTilesArchive(bytes: bytes)
                var seen = 0
                try archive.forEachTile { _, _, _, _ in
                    seen += 1
                    if seen > 1_000_000 { throw PMTilesError(.io("too many tiles")) }
                }
                _ = try archive.tile(z: 8, x: 3, y: 5)
                _ = try? archive.metadata()
                outcomes["read", default: 0] += 1
            } catch let error as PMTilesError {
                outcomes["\(error.reason)".prefix { $0 != "(" }.description, default: 0] += 1
            }
        }
        print("PMTiles mutation outcomes: \(outcomes.sorted { $0.key < $1.key })")
        XCTAssertGreaterThan(outcomes.count, 3)
    }

    // MARK: Interoperability

    /// Reads our archive with the reference Python implementation (`pip install pmtiles`) and
    /// reads an archive the Python writer made with ours.
    func testInteroperabilityWithPythonPMTiles() throws {
        let probe = try runPython("import pmtiles")
        guard probe.status == 0 else {
            return XCTFail("the Python module pmtiles is missing: run `pip install pmtiles` (\(probe.output))")
        }
        let folder = try temporaryDirectory()
        let ours = folder.appendingPathComponent("ours.pmtiles")
        let writer = try PMTilesWriter(url: ours, tileType: .mvt, tileCompression: .gzip)
        writer.metadata = Data(#"{"name":"interop","vector_layers":[]}"#.utf8)
        var expected: [String] = []
        var random = SplitMix64(seed: 5)
        var id = PMTilesTileID.base(zoom: 9)
        let started = Date()
        for i in 0..<20_000 {
            // Leaves (irregular gaps and lengths defeat gzip), duplicates and runs, as a real archive has.
            id += i % 4 == 0 ? 1 : 1 + random.next() % 9
            let (z, x, y) = try PMTilesTileID.coordinates(of: id)
            let bytes: [UInt8] = i % 4 == 0 ? [0xAA] : [UInt8(i & 0xFF), UInt8(i >> 8)] + [UInt8](repeating: 1, count: Int(random.next() % 300))
            try writer.addTile(z: z, x: x, y: y, bytes: bytes)
            if i % 997 == 0 { expected.append("\(z) \(x) \(y) \(bytes.map { String(format: "%02x", $0) }.joined())") }
        }
        try writer.finish()
        XCTAssertGreaterThan(writer.summary?.leafDirectoryCount ?? 0, 0)
        let script = """
        import sys
        from pmtiles.reader import Reader, MmapSource, all_tiles
        with open(sys.argv[1], 'rb') as f:
            r = Reader(MmapSource(f))
            h = r.header()
            print(h['addressed_tiles_count'], h['tile_entries_count'], h['tile_contents_count'], h['min_zoom'], h['max_zoom'], int(h['clustered']))
            print(r.metadata()['name'])
            for line in sys.stdin:
                z, x, y = map(int, line.split()[:3])
                t = r.get(z, x, y)
                print(z, x, y, t.hex() if t is not None else 'none')
            print(sum(1 for _ in all_tiles(r.get_bytes)))
        """
        let input = expected.map { $0.split(separator: " ").prefix(3).joined(separator: " ") }.joined(separator: "\n") + "\n"
        let run = try runPython(script, arguments: [ours.path], input: input)
        XCTAssertEqual(run.status, 0, run.output)
        let lines = run.output.split(separator: "\n").map(String.init)
        let header = try XCTUnwrap(lines.first)
        let h = writer.summary!.header
        XCTAssertEqual(header, "\(h.addressedTilesCount) \(h.tileEntriesCount) \(h.tileContentsCount) \(h.minZoom) \(h.maxZoom) 1")
        XCTAssertEqual(lines.dropFirst().first, "interop")
        XCTAssertEqual(Array(lines.dropFirst(2).prefix(expected.count)), expected)
        XCTAssertEqual(lines.last, "20000")
        let pythonRead = Date()

        // The other way: the Python writer's archive (its own leaf layout) read by ours.
        let theirs = folder.appendingPathComponent("theirs.pmtiles")
        let writeScript = """
        import sys
        from pmtiles.writer import write
        from pmtiles.tile import zxy_to_tileid, TileType, Compression
        with write(sys.argv[1]) as w:
            for i in range(60000):
                w.write_tile(zxy_to_tileid(10, 0, 0) + 3 * i + (i * i) % 3, bytes([i % 256, (i // 256) % 256]) * (1 + (i * 37) % 101) if i % 5 else b'same')
            w.finalize({'tile_type': TileType.MVT, 'tile_compression': Compression.NONE, 'min_lon_e7': -1800000000,
                        'min_lat_e7': -850000000, 'max_lon_e7': 1800000000, 'max_lat_e7': 850000000, 'center_zoom': 10,
                        'center_lon_e7': 0, 'center_lat_e7': 0}, {'name': 'from python'})
        """
        let made = try runPython(writeScript, arguments: [theirs.path])
        XCTAssertEqual(made.status, 0, made.output)
        let pythonWrote = Date()
        let archive = try PMTilesArchive(url: theirs)
        XCTAssertEqual((try archive.metadata())["name"] as? String, "from python")
        XCTAssertEqual(archive.header.addressedTilesCount, 60_000)
        var count = 0
        let base = PMTilesTileID.base(zoom: 10)
        try archive.forEachTile { z, x, y, bytes in
            let i = count
            XCTAssertEqual(try PMTilesTileID.id(z: z, x: x, y: y) - base, UInt64(3 * i + (i * i) % 3))
            if i % 5 == 0 {
                XCTAssertEqual(bytes, Array("same".utf8))
            } else if i % 7 == 1 {
                let pattern = Array(repeatElement([UInt8(i % 256), UInt8((i / 256) % 256)], count: 1 + (i * 37) % 101).joined())
                XCTAssertEqual(bytes, pattern)
            } else {
                XCTAssertEqual(bytes.count, 2 * (1 + (i * 37) % 101))
            }
            count += 1
        }
        XCTAssertGreaterThan(archive.header.leafDirectoriesLength, 0, "the Python archive should have leaf directories")
        XCTAssertEqual(count, 60_000)
        print("PMTiles interoperability: Python read \(lines.count) lines from ours; ours read \(count) tiles from Python's (\(archive.header.leafDirectoriesLength) bytes of leaves)")
        print(String(format: "PMTiles interoperability timing: write+python read %.1f s, python write %.1f s, our read %.1f s",
                     pythonRead.timeIntervalSince(started), pythonWrote.timeIntervalSince(pythonRead), Date().timeIntervalSince(pythonWrote)))
    }

    private func runPython(_ script: String, arguments: [String] = [], input: String = "") throws -> (status: Int32, output: String) {
        let result = try runProcess("python3", ["-c", script] + arguments, input: Data(input.utf8))
        return (result.status, result.stdout + result.stderr)
    }
}
