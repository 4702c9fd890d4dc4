import Foundation
import GRDB
import MapGeometry
import XCTest
@testable import MapFormats

final class MBTilesTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("mbtiles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func testWriteAndReadBack() throws {
        let url = folder.appendingPathComponent("test.mbtiles")
        let writer = try MBTilesWriter(destination: url)
        writer.batchSize = 7
        try writer.setMetadata(["name": "test", "format": "pbf", "minzoom": "0", "maxzoom": "3", "bounds": "-180,-85,180,85"])
        var expected: [TileID: Data] = [:]
        for z in 0...3 {
            for x in 0..<(1 << z) {
                for y in 0..<(1 << z) {
                    let id = TileID(z: z, x: x, y: y)!
                    // Many duplicates of one small "empty" tile, and a few distinct ones.
                    let data = (x + y) % 3 == 0 ? Data("tile \(id)".utf8) : Data("empty".utf8)
                    expected[id] = data
                    try writer.add(id, data: data)
                }
            }
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: url.path), "nothing at the destination before finish()")
        try writer.finish()

        let archive = try MBTilesArchive(url: url)
        XCTAssertEqual(try archive.metadata()["format"], "pbf")
        XCTAssertEqual(try archive.tileCounts(), [0: 1, 1: 4, 2: 16, 3: 64])
        for (id, data) in expected { XCTAssertEqual(try archive.tile(id), data, "\(id)") }
        XCTAssertNil(try archive.tile(TileID(z: 4, x: 0, y: 0)!))
        var seen = 0
        try archive.forEachTile { id, data in
            XCTAssertEqual(expected[id], data)
            seen += 1
        }
        XCTAssertEqual(seen, 85)

        // Rows are stored in the TMS scheme, and duplicates share one image.
        let db = try DatabaseQueue(path: url.path)
        try db.read { db in
            let row = try Int.fetchOne(db, sql: "SELECT tile_row FROM tiles WHERE zoom_level = 3 AND tile_column = 1 AND tile_data = ?",
                                       arguments: [Data("tile 3/1/2".utf8)])
            XCTAssertEqual(row, 7 - 2)
            XCTAssertLessThan(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM images")!, 40)
        }
        XCTAssertTrue(try FileManager.default.contentsOfDirectory(atPath: folder.path).allSatisfy { !$0.hasSuffix(".partial") })
    }

    /// Deduplication remembers a bounded number of small tiles; past that, tiles are stored as
    /// they come, and every tile still reads back as written.
    func testDeduplicationIsBounded() throws {
        let url = folder.appendingPathComponent("bounded.mbtiles")
        let writer = try MBTilesWriter(destination: url)
        writer.deduplicationCapacity = 3
        var expected: [TileID: Data] = [:]
        for x in 0..<64 {
            let id = TileID(z: 6, x: x, y: 0)!
            let data = Data("tile \(x % 8)".utf8)  // 8 distinct contents, each 8 times
            expected[id] = data
            try writer.add(id, data: data)
        }
        try writer.finish()
        let archive = try MBTilesArchive(url: url)
        for (id, data) in expected { XCTAssertEqual(try archive.tile(id), data) }
        let queue = try DatabaseQueue(path: url.path)
        // Three contents remembered (stored once each), five stored every time they come.
        XCTAssertEqual(try queue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM images") }, 3 + 5 * 8)
    }

    func testUnfinishedWriterLeavesTheOldArchive() throws {
        let url = folder.appendingPathComponent("kept.mbtiles")
        let first = try MBTilesWriter(destination: url)
        try first.add(TileID(z: 0, x: 0, y: 0)!, data: Data("old".utf8))
        try first.finish()
        do {
            let second = try MBTilesWriter(destination: url)
            try second.add(TileID(z: 0, x: 0, y: 0)!, data: Data("new".utf8))
            // Abandoned without finish(), as when an import is interrupted.
        }
        XCTAssertEqual(try MBTilesArchive(url: url).tile(TileID(z: 0, x: 0, y: 0)!), Data("old".utf8))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["kept.mbtiles"])
    }

    func testRejectsFilesThatAreNotMBTiles() throws {
        let text = folder.appendingPathComponent("text.mbtiles")
        try Data("this is not SQLite".utf8).write(to: text)
        XCTAssertThrowsError(try MBTilesArchive(url: text)) { error in
            XCTAssertEqual((error as? MBTilesError)?.kind, .notMBTiles, "\(error)")
        }
        let empty = folder.appendingPathComponent("empty.sqlite")
        try DatabaseQueue(path: empty.path).write { db in try db.execute(sql: "CREATE TABLE other (x)") }
        XCTAssertThrowsError(try MBTilesArchive(url: empty)) { error in
            XCTAssertEqual((error as? MBTilesError)?.kind, .notMBTiles, "\(error)")
        }
        XCTAssertThrowsError(try MBTilesArchive(url: folder.appendingPathComponent("missing.mbtiles"))) { error in
            XCTAssertEqual((error as? MBTilesError)?.kind, .cannotOpen, "\(error)")
        }
    }
}
