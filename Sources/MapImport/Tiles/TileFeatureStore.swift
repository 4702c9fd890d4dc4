import Foundation
import GRDB
import MapFormats
import MapGeometry

// The tile features of a bundle, kept so that an update can re-cut the tiles a change touches
// rather than the whole pyramid. Tiles are cut bucket by bucket (see TileBuilder): a bucket's
// tiles depend only on the features whose bounds touch the bucket, in source order. So an update
// that knows which features it removed and added knows which buckets changed, and re-cuts each of
// them from the features now touching it, with the import's own cutting code.
//
// One SQLite file (`features.sqlite`), written by the import beside the element store:
//
// - every feature, in the tile spill's record format (fixed-point geometry, exactly what the
//   import cut), with its source element, its place among that element's features, its first
//   zoom, its bounds and its properties;
// - an R*Tree over the bounds, to find the features touching a bucket;
// - the coastline ways, since the sea is made from all of them at once;
// - the cut's plan: the tile options and bucket levels the import used, and the box the sea is
//   closed in, so an update cuts exactly as the import did.

/// The schema shared by ``TileFeatureStoreWriter`` and ``TileFeatureStore``.
enum TileFeatureSchema {
    /// Bumped when the tables change; a store of another version is refused with a reason.
    static let version = 1

    static func create(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE metadata (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE features (id INTEGER PRIMARY KEY, kind INTEGER NOT NULL, source INTEGER NOT NULL, seq INTEGER NOT NULL,
                                   first_zoom INTEGER NOT NULL, min_x INTEGER NOT NULL, min_y INTEGER NOT NULL,
                                   max_x INTEGER NOT NULL, max_y INTEGER NOT NULL, record BLOB NOT NULL, properties BLOB NOT NULL);
            CREATE TABLE coastlines (way INTEGER PRIMARY KEY);
            """)
        try db.execute(sql: "INSERT INTO metadata (key, value) VALUES ('schema', ?)", arguments: [String(version)])
    }

    /// The indexes, built once the features are in (one pass, rather than kept through every insert).
    static func createIndexes(_ db: Database) throws {
        try db.execute(sql: """
            CREATE UNIQUE INDEX features_by_source ON features (kind, source, seq);
            CREATE INDEX features_by_zoom ON features (first_zoom);
            CREATE VIRTUAL TABLE feature_bounds USING rtree(id, min_x, max_x, min_y, max_y);
            INSERT INTO feature_bounds (id, min_x, max_x, min_y, max_y) SELECT id, min_x, max_x, min_y, max_y FROM features;
            """)
    }
}

/// The bucket levels and options an import cut its tiles with, and the box its sea is closed in.
struct TileCutPlan: Codable, Equatable {
    var options: TileBuilder.Options
    var levels: [TileBuilder.Level]
    /// The box coastlines are closed within (nil when the extract had no bounds).
    var seaBounds: MKMapRect?

    enum CodingKeys: String, CodingKey { case options, levels, seaBounds }

    init(options: TileBuilder.Options, levels: [TileBuilder.Level], seaBounds: MKMapRect?) {
        self.options = options
        self.levels = levels
        self.seaBounds = seaBounds
    }

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        options = try container.decode(TileBuilder.Options.self, forKey: .options)
        levels = try container.decode([TileBuilder.Level].self, forKey: .levels)
        seaBounds = try container.decodeIfPresent([Double].self, forKey: .seaBounds).flatMap { box in
            box.count == 4 ? MKMapRect(x: box[0], y: box[1], width: box[2], height: box[3]) : nil
        }
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(options, forKey: .options)
        try container.encode(levels, forKey: .levels)
        try container.encodeIfPresent(seaBounds.map { [$0.minX, $0.minY, $0.width, $0.height] }, forKey: .seaBounds)
    }
}

/// One feature as the store keeps it.
struct StoredTileFeature {
    var source: FeatureSource
    var seq: Int
    var firstZoom: Int
    var bounds: TileFeatureSpill.FixedRect
    /// The spill record (its attribute-set word unused: the properties are kept beside it).
    var record: [UInt32]
    var properties: [VectorTile.Property]
}

/// Writes a bundle's tile features during an import, on a queue of its own (SQLite's work overlaps
/// the import's), in batches; indexes them in ``finish(plan:)``. The first error stops the writing
/// and is thrown by the next call.
final class TileFeatureStoreWriter: @unchecked Sendable {
    /// Features per batch handed to the queue, and batches waiting at most.
    static let batchSize = 2048, maximumPendingBatches = 8

    private let writer: BulkSQLiteWriter
    private let queue = DispatchQueue(label: "TileFeatureStoreWriter")
    private let pending = DispatchSemaphore(value: TileFeatureStoreWriter.maximumPendingBatches)
    private let lock = NSLock()
    private var failure: (any Error)?
    private var batch: [StoredTileFeature] = []
    private var coastlines: [Int64] = []
    let url: URL

    init(url: URL) throws {
        self.url = url
        writer = try BulkSQLiteWriter(url: url, cacheKilobytes: 32 * 1024, create: TileFeatureSchema.create)
    }

    func add(_ feature: StoredTileFeature) throws {
        batch.append(feature)
        if batch.count >= Self.batchSize { try flush() }
    }

    /// A way the sea is made from.
    func addCoastline(_ id: Int64) { coastlines.append(id) }

    private func flush() throws {
        if let error = lock.withLock({ failure }) { throw error }
        guard !batch.isEmpty || !coastlines.isEmpty else { return }
        let features = batch, coastlines = self.coastlines
        batch = []
        self.coastlines = []
        pending.wait()
        queue.async { [self] in
            defer { pending.signal() }
            guard lock.withLock({ failure == nil }) else { return }
            do {
                for feature in features { try writer.insert { try TileFeatureStore.insert(feature, into: $0, schema: "main") } }
                for way in coastlines {
                    try writer.insert { try $0.execute(sql: "INSERT OR IGNORE INTO coastlines (way) VALUES (?)", arguments: [way]) }
                }
            } catch {
                lock.withLock { failure = failure ?? error }
            }
        }
    }

    /// Writes what is left, records the cut's plan, builds the indexes and closes the file.
    func finish(plan: TileCutPlan) throws {
        try flush()
        queue.sync {}
        if let error = lock.withLock({ failure }) { throw error }
        let planJSON = String(decoding: try JSONEncoder().encode(plan), as: UTF8.self)
        try writer.finish { db in
            try db.inTransaction {
                try db.execute(sql: "INSERT OR REPLACE INTO metadata (key, value) VALUES ('plan', ?)", arguments: [planJSON])
                try TileFeatureSchema.createIndexes(db)
                return .commit
            }
        }
    }

    /// Stops writing (an import that failed or was cancelled).
    func abandon() {
        lock.withLock { failure = failure ?? ImportError.cancelled }
        queue.sync {}
    }
}

/// Errors of a bundle's tile feature store.
public enum TileFeatureStoreError: Error, CustomStringConvertible, Equatable {
    /// The store was written by another version of the schema.
    case version(found: String, expected: Int)
    /// A record or row that cannot be read.
    case corrupt(String)

    public var description: String {
        switch self {
        case .version(let found, let expected): "the tile feature store has schema \(found); this version reads \(expected): import the extract again"
        case .corrupt(let reason): "the tile feature store is damaged: \(reason)"
        }
    }
}

/// Reads and changes a tile feature store inside an update's transaction, where it is attached
/// to the element store's connection under the name `schema`.
struct TileFeatureStore {
    let db: Database
    let schema: String

    /// The plan the import cut with, after checking the store's version.
    func plan() throws -> TileCutPlan {
        let version = try String.fetchOne(db, sql: "SELECT value FROM \(schema).metadata WHERE key = 'schema'")
        guard version == String(TileFeatureSchema.version) else {
            throw TileFeatureStoreError.version(found: version ?? "none", expected: TileFeatureSchema.version)
        }
        guard let json = try String.fetchOne(db, sql: "SELECT value FROM \(schema).metadata WHERE key = 'plan'"),
              let plan = try? JSONDecoder().decode(TileCutPlan.self, from: Data(json.utf8)) else {
            throw TileFeatureStoreError.corrupt("no readable cutting plan")
        }
        return plan
    }

    /// The record and properties as the store keeps them (the attribute-set word zeroed).
    static func stored(_ feature: StoredTileFeature) -> (record: Data, properties: Data) {
        var record = feature.record
        if record.count > 1 { record[1] = 0 }
        return (record.withUnsafeBytes { Data($0) }, Data(VectorTile.encodeProperties(feature.properties)))
    }

    static func insert(_ feature: StoredTileFeature, into db: Database, schema: String) throws {
        let (blob, properties) = stored(feature)
        try db.cachedStatement(sql: """
            INSERT INTO \(schema).features (kind, source, seq, first_zoom, min_x, min_y, max_x, max_y, record, properties)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [Int(feature.source.kind.rawValue), feature.source.id, feature.seq, feature.firstZoom,
                                     Int64(feature.bounds.minX), Int64(feature.bounds.minY), Int64(feature.bounds.maxX), Int64(feature.bounds.maxY),
                                     blob, properties])
    }

    /// Adds a feature (and its bounds to the R*Tree).
    func insert(_ feature: StoredTileFeature) throws {
        try Self.insert(feature, into: db, schema: schema)
        try db.cachedStatement(sql: "INSERT INTO \(schema).feature_bounds (id, min_x, max_x, min_y, max_y) VALUES (?, ?, ?, ?, ?)")
            .execute(arguments: [db.lastInsertedRowID, Int64(feature.bounds.minX), Int64(feature.bounds.maxX),
                                 Int64(feature.bounds.minY), Int64(feature.bounds.maxY)])
    }

    /// A feature as stored, to tell whether one made again is the same.
    struct Removed: Equatable {
        var firstZoom: Int
        var bounds: TileFeatureSpill.FixedRect
        var record: Data
        var properties: Data
    }

    /// Removes a source's features; returns them in order (where they were drawn, and what).
    func remove(_ source: FeatureSource) throws -> [Removed] {
        let rows = try Row.fetchAll(db.cachedStatement(sql: """
            SELECT id, first_zoom, min_x, min_y, max_x, max_y, record, properties FROM \(schema).features
            WHERE kind = ? AND source = ? ORDER BY seq
            """), arguments: [Int(source.kind.rawValue), source.id])
        for row in rows {
            try db.cachedStatement(sql: "DELETE FROM \(schema).feature_bounds WHERE id = ?").execute(arguments: [row[0] as Int64])
        }
        try db.cachedStatement(sql: "DELETE FROM \(schema).features WHERE kind = ? AND source = ?")
            .execute(arguments: [Int(source.kind.rawValue), source.id])
        return rows.map { row in
            Removed(firstZoom: row[1], bounds: TileFeatureSpill.FixedRect(minX: UInt32(row[2] as Int64), minY: UInt32(row[3] as Int64),
                                                                          maxX: UInt32(row[4] as Int64), maxY: UInt32(row[5] as Int64)),
                    record: row[6], properties: row[7])
        }
    }

    /// The sources with features of `kind`, in id order.
    func sources(of kind: FeatureSource.Kind) throws -> [Int64] {
        try Int64.fetchAll(db.cachedStatement(sql: "SELECT DISTINCT source FROM \(schema).features WHERE kind = ? ORDER BY source"),
                           arguments: [Int(kind.rawValue)])
    }

    /// Calls `body` with each feature shown below `zoomLimit` whose bounds may touch `rect`
    /// (fixed-point map coordinates; the caller decides exactly), or every such feature when
    /// `rect` is nil, in source order.
    func forEachFeature(touching rect: TileFeatureSpill.FixedRect?, shownBelow zoomLimit: Int,
                        _ body: (_ header: TileFeatureSpill.Header, _ geometry: SourceGeometry, _ properties: [VectorTile.Property]) throws -> Void) throws {
        // The whole world (the lowest level's one bucket) is read by zoom; anything smaller by the R*Tree.
        let statement = rect == nil
            ? try db.cachedStatement(sql: """
                SELECT record, properties FROM \(schema).features WHERE first_zoom < ? ORDER BY kind, source, seq
                """)
            : try db.cachedStatement(sql: """
                SELECT f.record, f.properties FROM \(schema).feature_bounds b JOIN \(schema).features f ON f.id = b.id
                WHERE b.min_x <= ? AND b.max_x >= ? AND b.min_y <= ? AND b.max_y >= ? AND f.first_zoom < ?
                ORDER BY f.kind, f.source, f.seq
                """)
        let arguments: StatementArguments = rect.map { [Int64($0.maxX), Int64($0.minX), Int64($0.maxY), Int64($0.minY), zoomLimit] } ?? [zoomLimit]
        let rows = try Row.fetchCursor(statement, arguments: arguments)
        while let row = try rows.next() {
            let record: Data = row[0], properties: Data = row[1]
            guard record.count >= 32, record.count % 4 == 0 else { throw TileFeatureStoreError.corrupt("a feature record of \(record.count) bytes") }
            let (header, geometry) = record.withUnsafeBytes { bytes in
                let reader = TileFeatureSpill.Reader(bytes: bytes, offsets: [0])
                return (reader.header(0), reader.geometry(0))
            }
            let decoded: [VectorTile.Property]
            do { decoded = try properties.withUnsafeBytes { try VectorTile.decodeProperties($0) } } catch {
                throw TileFeatureStoreError.corrupt("feature properties: \(error)")
            }
            try body(header, geometry, decoded)
        }
    }

    /// The coastline ways the sea is made from, in id order.
    func coastlines() throws -> [Int64] {
        try Int64.fetchAll(db, sql: "SELECT way FROM \(schema).coastlines ORDER BY way")
    }

    func setCoastline(_ way: Int64, _ isCoastline: Bool) throws {
        if isCoastline {
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO \(schema).coastlines (way) VALUES (?)").execute(arguments: [way])
        } else {
            try db.cachedStatement(sql: "DELETE FROM \(schema).coastlines WHERE way = ?").execute(arguments: [way])
        }
    }

    func isCoastline(_ way: Int64) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM \(schema).coastlines WHERE way = ?"), arguments: [way]) ?? false
    }
}
