import Foundation
import GRDB
import MapFormats
import MapGeometry

/// The scene file's schema (version ``version``).
///
/// - `meta`: `version` (this schema's), `complete` (set by ``StreetSceneWriter/finish()``; a file
///   without it was never finished) and the object counts.
/// - `objects`: one row per object; `type` is a ``SceneObjectType``, `data` its blob (``SceneCodec``).
/// - `object_rtree`: R*Tree of each object's bounding box in degrees (points have zero size); a
///   query reads it joined with `objects` in one statement.
enum SceneSchema {
    static let version = "1"
    static let create = """
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
        CREATE TABLE objects (id INTEGER PRIMARY KEY, type INTEGER NOT NULL, data BLOB NOT NULL);
        CREATE VIRTUAL TABLE object_rtree USING rtree(id, min_lon, max_lon, min_lat, max_lat);
        """
}

/// Writes a scene file (`scene.sqlite`); used by the import.
///
/// Objects go straight into the file in batched transactions (a transaction stays open across
/// calls so thousands of inserts share one commit); ``finish()`` records the counts and marks the
/// file complete. Objects without a valid coordinate are skipped, not written.
public final class StreetSceneWriter {
    /// Where the file is written.
    public let url: URL
    private let writer: BulkSQLiteWriter
    private var finished = false
    /// Objects written so far, by type.
    public private(set) var buildingCount = 0, roadCount = 0, areaCount = 0, pointCount = 0

    /// Creates the file, replacing any file at `url`.
    public init(url: URL) throws(StreetSceneError) {
        self.url = url
        do {
            writer = try BulkSQLiteWriter(url: url, cacheKilobytes: 32768) { db in
                try db.execute(sql: SceneSchema.create)
                try db.execute(sql: "INSERT INTO meta VALUES ('version', ?)", arguments: [SceneSchema.version])
            }
        } catch {
            throw .cannotWrite("cannot create \(url.path): \(error)")
        }
    }

    /// The centres of the parts' boxes, for marking the outlines they stand in (``finish()``).
    private var partCentres: [CLLocationCoordinate2D] = []

    /// Adds a building or building part.
    public func add(_ building: SceneBuilding) throws(StreetSceneError) {
        guard let box = Self.box(building.rings.first ?? []) else { return }
        try insert(.building, SceneCodec.encode(building), box)
        buildingCount += 1
        if building.isPart { partCentres.append(CLLocationCoordinate2D(latitude: (box.1 + box.3) / 2, longitude: (box.0 + box.2) / 2)) }
    }

    /// Adds a road, path or railway.
    public func add(_ road: SceneRoad) throws(StreetSceneError) {
        guard road.line.count >= 2, let box = Self.box(road.line) else { return }
        try insert(.road, SceneCodec.encode(road), box)
        roadCount += 1
    }

    /// Adds an area of ground cover.
    public func add(_ area: SceneArea) throws(StreetSceneError) {
        guard let box = Self.box(area.rings.first ?? []) else { return }
        try insert(.area, SceneCodec.encode(area), box)
        areaCount += 1
    }

    /// Adds a tree, lamp, sign or other point.
    public func add(_ point: ScenePoint) throws(StreetSceneError) {
        guard let box = Self.box([point.coordinate]) else { return }
        try insert(.point, SceneCodec.encode(point), box)
        pointCount += 1
    }

    /// Adds every object of `objects`.
    public func add(_ objects: SceneObjects) throws(StreetSceneError) {
        for b in objects.buildings { try add(b) }
        for r in objects.roads { try add(r) }
        for a in objects.areas { try add(a) }
        for p in objects.points { try add(p) }
    }

    /// Marks every outline that has a `building:part` inside it (``SceneBuilding/hasParts``),
    /// records the counts, marks the file complete and closes it. Adding afterwards is an error.
    ///
    /// A part belongs to an outline when the centre of the part's box lies inside the outline.
    /// Parts are few, so each one's centre is looked up in the R*Tree (the outlines whose boxes
    /// hold it) rather than every outline compared with every part; an outline added with
    /// `hasParts` already set keeps it.
    public func finish() throws(StreetSceneError) {
        guard !finished else { return }
        finished = true
        do {
            try writer.finish { db in
                try db.execute(sql: "BEGIN")
                var marked = Set<Int64>()
                let candidates = try db.makeStatement(sql: """
                    SELECT o.id, o.data FROM object_rtree r JOIN objects o ON o.id = r.id
                    WHERE o.type = \(SceneObjectType.building.rawValue) AND r.min_lon <= ? AND r.max_lon >= ? AND r.min_lat <= ? AND r.max_lat >= ?
                    """)
                let update = try db.makeStatement(sql: "UPDATE objects SET data = ? WHERE id = ?")
                for centre in partCentres {
                    let rows = try Row.fetchAll(candidates, arguments: [centre.longitude, centre.longitude, centre.latitude, centre.latitude])
                    for row in rows {
                        let id: Int64 = row[0]
                        guard !marked.contains(id), let data = row[1] as Data? else { continue }
                        var outline = try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) throws -> SceneBuilding in try SceneCodec.decodeBuilding(bytes) }
                        guard !outline.isPart, !outline.hasParts, Self.contains(outline.rings, centre) else { continue }
                        outline.hasParts = true
                        marked.insert(id)
                        try update.execute(arguments: [Data(SceneCodec.encode(outline)), id])
                    }
                }
                partCentres = []
                try db.execute(sql: "COMMIT")
                for (key, value) in [("buildings", buildingCount), ("roads", roadCount), ("areas", areaCount), ("points", pointCount)] {
                    try db.execute(sql: "INSERT INTO meta VALUES (?, ?)", arguments: [key, String(value)])
                }
                try db.execute(sql: "INSERT INTO meta VALUES ('complete', '1')")
            }
        } catch {
            throw .cannotWrite("cannot finish \(url.path): \(error)")
        }
    }

    /// Whether `point` lies inside the outer ring of `rings` and outside its holes (even-odd rule).
    static func contains(_ rings: [[CLLocationCoordinate2D]], _ point: CLLocationCoordinate2D) -> Bool {
        var inside = false
        for ring in rings {
            var j = ring.count - 1
            for i in ring.indices {
                let a = ring[i], b = ring[j]
                if (a.latitude > point.latitude) != (b.latitude > point.latitude),
                   point.longitude < (b.longitude - a.longitude) * (point.latitude - a.latitude) / (b.latitude - a.latitude) + a.longitude {
                    inside.toggle()
                }
                j = i
            }
        }
        return inside
    }

    /// The bounding box of `points` (west, south, east, north), nil when empty or invalid.
    static func box(_ points: [CLLocationCoordinate2D]) -> (Double, Double, Double, Double)? {
        var west = Double.infinity, south = Double.infinity, east = -Double.infinity, north = -Double.infinity
        for p in points {
            guard p.latitude.isFinite, p.longitude.isFinite, CLLocationCoordinate2DIsValid(p) else { return nil }
            west = min(west, p.longitude); east = max(east, p.longitude)
            south = min(south, p.latitude); north = max(north, p.latitude)
        }
        return west <= east ? (west, south, east, north) : nil
    }

    private func insert(_ type: SceneObjectType, _ blob: [UInt8], _ box: (Double, Double, Double, Double)) throws(StreetSceneError) {
        guard !finished else { throw .cannotWrite("\(url.lastPathComponent): writer already finished") }
        do {
            try writer.insert { db in
                try db.cachedStatement(sql: "INSERT INTO objects (type, data) VALUES (?, ?)")
                    .execute(arguments: [type.rawValue, Data(blob)])
                let id = db.lastInsertedRowID
                try db.cachedStatement(sql: "INSERT INTO object_rtree VALUES (?, ?, ?, ?, ?)")
                    .execute(arguments: [id, box.0, box.2, box.1, box.3])
            }
        } catch {
            throw .cannotWrite("cannot add to \(url.path): \(error)")
        }
    }
}
