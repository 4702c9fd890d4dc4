import Foundation
import GRDB
import MapFormats
import MapGeometry

/// Reads a place index (`places.sqlite`): text search, completion, reverse geocoding, lookup by
/// id and points of interest in a region. Safe to share between threads (a pool of read-only
/// SQLite connections).
///
/// **Ranking.** A candidate's score adds: how well the query matches one of its names (×100:
/// exact name 1, name starting with the query 0.9, every word present 0.75, a typo-corrected
/// match 0.8 of that), its importance (×40: population, place rank, admin level, having a
/// website…), a small bonus by kind (towns before streets before addresses), an exact house
/// number (+20), and, when the query has a region, a distance decay `25·r/(r+d)` with r the
/// region's half-diagonal (at least 500 m) and d the distance from its centre. With
/// `regionIsRequired`, places outside the region are dropped instead.
public final class PlaceIndex: Sendable {
    let reader: DatabasePool
    public let url: URL

    /// Opens the index read-only.
    public init(url: URL) throws(PlaceIndexError) {
        self.url = url
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw .missing("\(url.path): no such file; the bundle has no place index (made before search existed?), re-import it with `openmapkit import`")
        }
        do {
            reader = try DatabasePool.readOnly(at: url, mapBytes: 1 << 30)
            let version = try reader.read { db in
                try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'schema'")
            }
            guard version == PlaceSchema.version else {
                throw PlaceIndexError.corrupt("\(url.path): schema version \(version ?? "none"), expected \(PlaceSchema.version); re-import the bundle")
            }
            let complete = try reader.read { db in try db.tableExists("place_fts") }
            guard complete else { throw PlaceIndexError.corrupt("\(url.path): the index was never finished") }
        } catch let error as PlaceIndexError {
            throw error
        } catch {
            throw .corrupt("\(url.path): not a place index (\(error))")
        }
    }

    /// Number of places in the index.
    public func count() throws(PlaceIndexError) -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM places") ?? 0 }
    }

    func read<T>(_ body: (Database) throws -> T) throws(PlaceIndexError) -> T {
        do {
            return try reader.read(body)
        } catch let error as PlaceIndexError {
            throw error
        } catch {
            throw .corrupt("\(url.lastPathComponent): \(error)")
        }
    }

    // MARK: - Validation

    static func validate(_ region: MKCoordinateRegion) throws(PlaceIndexError) {
        let c = region.center, s = region.span
        guard c.latitude.isFinite, c.longitude.isFinite, CLLocationCoordinate2DIsValid(c) else {
            throw .invalidQuery("region centre \(c.latitude), \(c.longitude) is not a valid coordinate")
        }
        guard s.latitudeDelta.isFinite, s.longitudeDelta.isFinite, s.latitudeDelta > 0, s.longitudeDelta > 0,
              s.latitudeDelta <= 180, s.longitudeDelta <= 360 else {
            throw .invalidQuery("region span \(s.latitudeDelta) × \(s.longitudeDelta) must be positive and at most 180 × 360 degrees")
        }
    }

    static func validate(_ coordinate: CLLocationCoordinate2D) throws(PlaceIndexError) {
        guard coordinate.latitude.isFinite, coordinate.longitude.isFinite, CLLocationCoordinate2DIsValid(coordinate) else {
            throw .invalidQuery("\(coordinate.latitude), \(coordinate.longitude) is not a valid coordinate")
        }
    }

    static func validate(_ query: PlaceQuery) throws(PlaceIndexError) {
        if let region = query.region { try validate(region) }
        if query.regionIsRequired, query.region == nil {
            throw .invalidQuery("a required region needs a region")
        }
    }

    // MARK: - Lookup

    public func place(id: String) throws(PlaceIndexError) -> PlaceRecord? {
        guard !id.isEmpty, id.utf8.count <= 64 else { return nil }
        return try read { db in
            let data = try Data.fetchOne(db, sql: "SELECT record FROM places WHERE id = ?", arguments: [id])
                ?? Data.fetchOne(db, sql: "SELECT p.record FROM place_ids a JOIN places p ON p.rowid = a.place WHERE a.alt = ?",
                                 arguments: [id])
            return try data.map { data throws(PlaceIndexError) in try PlaceRecordCodec.decode(data) }
        }
    }

    func records(_ db: Database, rowids: [Int64]) throws -> [Int64: PlaceRecord] {
        guard !rowids.isEmpty else { return [:] }
        var result: [Int64: PlaceRecord] = [:]
        let list = rowids.map(String.init).joined(separator: ",")
        for row in try Row.fetchAll(db, sql: "SELECT rowid, record FROM places WHERE rowid IN (\(list))") {
            result[row["rowid"]] = try PlaceRecordCodec.decode(row["record"] as Data)
        }
        return result
    }

    // MARK: - Points of interest

    public func pointsOfInterest(in region: MKCoordinateRegion, includedCategories: Set<String>?,
                                 excludedCategories: Set<String>, limit: Int) throws(PlaceIndexError) -> [PlaceRecord] {
        try Self.validate(region)
        guard limit > 0 else { return [] }
        let box = Box(region)
        return try read { db in
            var sql = """
                SELECT p.rowid, p.importance, p.lat, p.lon FROM places p
                WHERE p.rowid IN (SELECT id FROM place_rtree WHERE max_lon >= ? AND min_lon <= ? AND max_lat >= ? AND min_lat <= ?)
                  AND p.category IS NOT NULL AND p.lat BETWEEN ? AND ? AND p.lon BETWEEN ? AND ?
                """
            var arguments: StatementArguments = [box.west, box.east, box.south, box.north, box.south, box.north, box.west, box.east]
            if let included = includedCategories {
                guard !included.isEmpty else { return [] }
                sql += " AND p.category IN (\(included.map { _ in "?" }.joined(separator: ",")))"
                arguments += StatementArguments(included.sorted())
            }
            if !excludedCategories.isEmpty {
                sql += " AND p.category NOT IN (\(excludedCategories.map { _ in "?" }.joined(separator: ",")))"
                arguments += StatementArguments(excludedCategories.sorted())
            }
            sql += " AND p.kind IN ('pointOfInterest', 'physicalFeature')"
            let center = region.center
            var rows: [(Int64, Double)] = []
            for row in try cachedRows(db, sql: sql, arguments: arguments) {
                let c = CLLocationCoordinate2D(latitude: row["lat"], longitude: row["lon"])
                let d = haversineMeters(center, c)
                let importance: Double = row["importance"]
                rows.append((row["rowid"], d / 1000 - importance * 0.5))
            }
            rows.sort { $0.1 < $1.1 }
            let chosen = rows.prefix(min(limit, 10_000)).map(\.0)
            let records = try self.records(db, rowids: chosen)
            return chosen.compactMap { records[$0] }
        }
    }
}

/// A latitude/longitude box.
struct Box {
    var west: Double, south: Double, east: Double, north: Double

    init(west: Double, south: Double, east: Double, north: Double) {
        self.west = west; self.south = south; self.east = east; self.north = north
    }

    init(_ region: MKCoordinateRegion) {
        let c = region.center, s = region.span
        west = c.longitude - s.longitudeDelta / 2
        east = c.longitude + s.longitudeDelta / 2
        south = max(-90, c.latitude - s.latitudeDelta / 2)
        north = min(90, c.latitude + s.latitudeDelta / 2)
    }

    init(around c: CLLocationCoordinate2D, meters: Double) {
        let dLat = meters / 111_132
        let dLon = meters / max(1, 111_320 * cos(c.latitude * .pi / 180))
        self.init(west: c.longitude - dLon, south: c.latitude - dLat, east: c.longitude + dLon, north: c.latitude + dLat)
    }

    func contains(_ c: CLLocationCoordinate2D) -> Bool {
        c.latitude >= south && c.latitude <= north && c.longitude >= west && c.longitude <= east
    }

    var halfDiagonalMeters: Double {
        haversineMeters(CLLocationCoordinate2D(latitude: south, longitude: west),
                        CLLocationCoordinate2D(latitude: north, longitude: east)) / 2
    }
}

/// The rows of `sql` through the connection's statement cache. A query runs a handful of
/// statements whose text repeats from query to query; compiling one (with GRDB's authorizer
/// callback for every column) cost more than running it against the index.
func cachedRows(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> [Row] {
    try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
}
