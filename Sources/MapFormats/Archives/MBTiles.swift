import Foundation
import GRDB
import MapGeometry

/// Errors from reading or writing MBTiles archives.
public struct MBTilesError: Error, CustomStringConvertible {
    public enum Kind: Sendable {
        /// The file does not exist or cannot be opened.
        case cannotOpen
        /// The file is not an SQLite database, or lacks the `tiles`/`metadata` tables.
        case notMBTiles
        /// An SQLite error while reading or writing.
        case database
        /// A tile id outside the pyramid.
        case invalidTile
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}

/// An MBTiles 1.3 archive (https://github.com/mapbox/mbtiles-spec/blob/master/1.3/spec.md): an SQLite
/// file with a `metadata` table of name/value pairs and a `tiles` table whose rows are counted in the
/// TMS scheme (from the south). `MBTilesArchive` reads; ``MBTilesWriter`` writes.
///
/// Reading is safe from several threads at once (a GRDB database pool with read-only connections).
public final class MBTilesArchive: Sendable {
    private let reader: DatabasePool
    public let url: URL

    /// Opens an archive read-only.
    public init(url: URL) throws(MBTilesError) {
        self.url = url
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw MBTilesError(.cannotOpen, "\(url.path): no such file")
        }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.maximumReaderCount = max(2, ProcessInfo.processInfo.activeProcessorCount)
        do {
            reader = try DatabasePool(path: url.path, configuration: configuration)
            let tables = try reader.read { db in
                try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")
            }
            guard tables.contains("tiles"), tables.contains("metadata") else {
                throw MBTilesError(.notMBTiles, "\(url.path): no tiles or metadata table (found \(tables.joined(separator: ", ")))")
            }
        } catch let error as MBTilesError {
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw MBTilesError(.notMBTiles, "\(url.path): not an SQLite database")
        } catch {
            throw MBTilesError(.cannotOpen, "\(url.path): \(error)")
        }
    }

    /// Every `metadata` row.
    public func metadata() throws(MBTilesError) -> [String: String] {
        try read { db in
            var result: [String: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT name, value FROM metadata") {
                if let name: String = row["name"], let value: String = row["value"] { result[name] = value }
            }
            return result
        }
    }

    /// The tile at z/x/y (XYZ rows, counted from the north), or nil if the archive has none.
    public func tile(_ id: TileID) throws(MBTilesError) -> Data? {
        try read { db in
            try Data.fetchOne(db, sql: "SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?",
                              arguments: [id.z, id.x, id.tmsY])
        }
    }

    /// How many tiles each zoom level holds.
    public func tileCounts() throws(MBTilesError) -> [Int: Int] {
        try read { db in
            var counts: [Int: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT zoom_level, COUNT(*) AS n FROM tiles GROUP BY zoom_level") {
                counts[row["zoom_level"]] = row["n"]
            }
            return counts
        }
    }

    /// Calls `body` with every tile, in zoom, column, row order; rows with ids outside the pyramid are skipped.
    public func forEachTile(_ body: (TileID, Data) throws -> Void) throws {
        try reader.read { db in
            let cursor = try Row.fetchCursor(db, sql: "SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles ORDER BY zoom_level, tile_column, tile_row")
            while let row = try cursor.next() {
                guard let id = TileID(z: row["zoom_level"], x: row["tile_column"], tmsY: row["tile_row"]),
                      let data: Data = row["tile_data"] else { continue }
                try body(id, data)
            }
        }
    }

    private func read<T>(_ body: (Database) throws -> T) throws(MBTilesError) -> T {
        do {
            return try reader.read(body)
        } catch {
            throw MBTilesError(.database, "\(url.lastPathComponent): \(error)")
        }
    }
}

/// Writes an MBTiles 1.3 archive beside its destination and moves it into place on ``finish()``,
/// so readers never see a half-written archive and an earlier archive survives a failed write.
///
/// Tiles go in through one transaction per batch of ``batchSize``. Identical small tiles (the
/// empty sea and land tiles that make up much of a pyramid) are stored once, in the `map`/`images`
/// layout with a `tiles` view that MBTiles readers query as usual. Tiles up to
/// ``deduplicationLimit`` bytes are remembered for that by hash and length only (a match is
/// confirmed against the stored bytes), and at most ``deduplicationCapacity`` of them, so memory
/// stays bounded whatever the archive's size.
public final class MBTilesWriter {
    public let destination: URL
    private let temporaryURL: URL
    private let queue: DatabaseQueue
    private var pending: [(TileID, Data)] = []
    /// Small tiles stored so far, by content hash and length; each hash lists the images with it.
    private var imageIDs: [TileDigest: [Int64]] = [:]
    private var rememberedImages = 0
    private var nextImageID: Int64 = 1
    private var finished = false
    /// Tiles per transaction.
    public var batchSize = 2000
    /// Tiles larger than this many bytes are not deduplicated.
    public var deduplicationLimit = 2048
    /// How many distinct small tiles are remembered for deduplication (about 40 bytes each).
    public var deduplicationCapacity = 4_000_000

    /// Starts an archive that will replace `destination` when finished.
    public init(destination: URL) throws(MBTilesError) {
        self.destination = destination
        temporaryURL = FileReplacement.stagingURL(for: destination)
        FileReplacement.removeAbandonedStaging(for: destination)
        do {
            var configuration = Configuration()
            configuration.prepareDatabase { db in
                // A fresh file written once: no journal needed until it is renamed into place.
                // Tiles arrive in no particular order, so the map table's B-tree is written all over:
                // a 64 MiB page cache keeps that from turning into reads of evicted pages.
                try db.execute(sql: "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA page_size = 4096; PRAGMA cache_size = -65536")
            }
            queue = try DatabaseQueue(path: temporaryURL.path, configuration: configuration)
            try queue.write { db in
                try db.execute(sql: """
                    CREATE TABLE metadata (name TEXT NOT NULL PRIMARY KEY, value TEXT);
                    CREATE TABLE map (zoom_level INTEGER NOT NULL, tile_column INTEGER NOT NULL, tile_row INTEGER NOT NULL,
                                      tile_id INTEGER NOT NULL, PRIMARY KEY (zoom_level, tile_column, tile_row)) WITHOUT ROWID;
                    CREATE TABLE images (tile_id INTEGER PRIMARY KEY, tile_data BLOB NOT NULL);
                    CREATE VIEW tiles AS SELECT map.zoom_level AS zoom_level, map.tile_column AS tile_column,
                        map.tile_row AS tile_row, images.tile_data AS tile_data
                        FROM map JOIN images ON images.tile_id = map.tile_id;
                    """)
            }
        } catch {
            throw MBTilesError(.database, "cannot create \(temporaryURL.path): \(error)")
        }
    }

    deinit {
        if !finished { try? FileManager.default.removeItem(at: temporaryURL) }
    }

    /// Sets metadata rows (name, format, bounds, center, minzoom, maxzoom, json, attribution, …).
    public func setMetadata(_ metadata: [String: String]) throws(MBTilesError) {
        do {
            try queue.write { db in
                for (name, value) in metadata.sorted(by: { $0.key < $1.key }) {
                    try db.execute(sql: "INSERT OR REPLACE INTO metadata (name, value) VALUES (?, ?)", arguments: [name, value])
                }
            }
        } catch {
            throw MBTilesError(.database, "writing metadata: \(error)")
        }
    }

    /// Adds a tile (replacing an earlier one with the same id).
    public func add(_ id: TileID, data: Data) throws(MBTilesError) {
        pending.append((id, data))
        if pending.count >= batchSize { try flush() }
    }

    private func flush() throws(MBTilesError) {
        guard !pending.isEmpty else { return }
        do {
            try queue.write { db in
                let insertImage = try db.makeStatement(sql: "INSERT INTO images (tile_id, tile_data) VALUES (?, ?)")
                let insertMap = try db.makeStatement(sql: "INSERT OR REPLACE INTO map (zoom_level, tile_column, tile_row, tile_id) VALUES (?, ?, ?, ?)")
                let readImage = try db.makeStatement(sql: "SELECT tile_data FROM images WHERE tile_id = ?")
                for (id, data) in pending {
                    let digest = data.count <= deduplicationLimit ? TileDigest(data) : nil
                    var imageID: Int64?
                    if let digest, let candidates = imageIDs[digest] {
                        // Equal hashes are confirmed byte for byte: a collision must not swap tiles.
                        imageID = try candidates.first { try Data.fetchOne(readImage, arguments: [$0]) == data }
                    }
                    if imageID == nil {
                        imageID = nextImageID
                        nextImageID += 1
                        if let digest, rememberedImages < deduplicationCapacity {
                            imageIDs[digest, default: []].append(imageID!)
                            rememberedImages += 1
                        }
                        try insertImage.execute(arguments: [imageID, data])
                    }
                    try insertMap.execute(arguments: [id.z, id.x, id.tmsY, imageID!])
                }
            }
            pending.removeAll(keepingCapacity: true)
        } catch {
            throw MBTilesError(.database, "writing tiles: \(error)")
        }
    }

    /// Writes the remaining tiles, indexes the archive and moves it over `destination`.
    public func finish() throws(MBTilesError) {
        try flush()
        do {
            try queue.close()
        } catch {
            throw MBTilesError(.database, "finishing \(destination.path): \(error)")
        }
        // Written with SQLite's journal and syncs off: FileReplacement flushes the file before it
        // takes the destination's name, so a crash cannot leave a torn archive there, and rename(2)
        // replaces the destination atomically: readers see the old archive or the new one.
        do {
            try FileReplacement.replaceFile(at: destination, with: temporaryURL)
        } catch {
            throw MBTilesError(error.kind == .flush ? .database : .cannotOpen, error.message)
        }
        finished = true
    }
}

/// A small tile's identity for deduplication: its length and a 64-bit hash of its bytes.
private struct TileDigest: Hashable {
    var count: Int
    var hash: Int

    init(_ data: Data) {
        count = data.count
        var hasher = Hasher()
        data.withUnsafeBytes { hasher.combine(bytes: $0) }
        hash = hasher.finalize()
    }
}

/// Changes the tiles of an MBTiles archive in place, inside a transaction the caller holds on
/// `db`, where the archive is attached under the name `schema`: the archive gains or loses tiles
/// together with whatever else that transaction changes, or not at all.
///
/// Works on the layout ``MBTilesWriter`` makes (a `map` of tile ids to `images`). A changed tile
/// gets an image of its own; the image it leaves behind is deleted once nothing else shows it
/// (identical tiles share one image), which an index of the map by image finds.
public struct MBTilesEditor {
    let db: Database
    let schema: String
    private var nextImageID: Int64
    /// Images that lost a tile, to delete in ``finish()`` when no tile shows them any more.
    private var released: Set<Int64> = []

    public init(db: Database, schema: String) throws(MBTilesError) {
        self.db = db
        self.schema = schema
        do {
            let tables = try String.fetchAll(db, sql: "SELECT name FROM \(schema).sqlite_master WHERE type = 'table'")
            guard tables.contains("map"), tables.contains("images") else {
                throw MBTilesError(.database, "the archive has no map and images tables (made by another tool?): it cannot be updated in place")
            }
            try db.execute(sql: "CREATE INDEX IF NOT EXISTS \(schema).map_by_image ON map (tile_id)")
            nextImageID = (try Int64.fetchOne(db, sql: "SELECT max(tile_id) FROM \(schema).images") ?? 0) + 1
        } catch let error as MBTilesError {
            throw error
        } catch {
            throw MBTilesError(.database, "opening the archive for changes: \(error)")
        }
    }

    /// The tiles of zoom `z` within the columns and rows (XYZ) given.
    public func tiles(z: Int, columns: ClosedRange<Int>, rows: ClosedRange<Int>) throws(MBTilesError) -> [TileID: Data] {
        let n = 1 << z
        do {
            let cursor = try Row.fetchCursor(db.cachedStatement(sql: """
                SELECT m.tile_column, m.tile_row, i.tile_data FROM \(schema).map m JOIN \(schema).images i ON i.tile_id = m.tile_id
                WHERE m.zoom_level = ? AND m.tile_column BETWEEN ? AND ? AND m.tile_row BETWEEN ? AND ?
                """), arguments: [z, columns.lowerBound, columns.upperBound, n - 1 - rows.upperBound, n - 1 - rows.lowerBound])
            var result: [TileID: Data] = [:]
            while let row = try cursor.next() {
                guard let id = TileID(z: z, x: row[0], tmsY: row[1]) else { continue }
                result[id] = row[2]
            }
            return result
        } catch {
            throw MBTilesError(.database, "reading tiles: \(error)")
        }
    }

    /// Sets a tile's data, adding the tile if it was missing.
    public mutating func put(_ id: TileID, data: Data) throws(MBTilesError) {
        do {
            try release(id)
            try db.cachedStatement(sql: "INSERT INTO \(schema).images (tile_id, tile_data) VALUES (?, ?)").execute(arguments: [nextImageID, data])
            try db.cachedStatement(sql: "INSERT OR REPLACE INTO \(schema).map (zoom_level, tile_column, tile_row, tile_id) VALUES (?, ?, ?, ?)")
                .execute(arguments: [id.z, id.x, id.tmsY, nextImageID])
            nextImageID += 1
        } catch {
            throw MBTilesError(.database, "writing tile \(id): \(error)")
        }
    }

    /// Removes a tile.
    public mutating func delete(_ id: TileID) throws(MBTilesError) {
        do {
            try release(id)
            try db.cachedStatement(sql: "DELETE FROM \(schema).map WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?")
                .execute(arguments: [id.z, id.x, id.tmsY])
        } catch {
            throw MBTilesError(.database, "deleting tile \(id): \(error)")
        }
    }

    private mutating func release(_ id: TileID) throws {
        if let image = try Int64.fetchOne(db.cachedStatement(sql: "SELECT tile_id FROM \(schema).map WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?"),
                                          arguments: [id.z, id.x, id.tmsY]) {
            released.insert(image)
        }
    }

    /// Deletes the images no tile shows any more.
    public mutating func finish() throws(MBTilesError) {
        do {
            for image in released.sorted() {
                try db.cachedStatement(sql: """
                    DELETE FROM \(schema).images WHERE tile_id = ? AND NOT EXISTS (SELECT 1 FROM \(schema).map WHERE tile_id = ?)
                    """).execute(arguments: [image, image])
            }
            released = []
        } catch {
            throw MBTilesError(.database, "deleting unused images: \(error)")
        }
    }
}
