import Foundation
import GRDB
import MapGeometry

extension PlaceIndex {
    /// How far an address may be from the coordinate to be its reverse geocode.
    public static let reverseAddressRadius = 50.0
    /// How far a street may be.
    public static let reverseStreetRadius = 250.0

    /// The places at `coordinate`, nearest first: addresses (buildings, address nodes) within
    /// 50 m, else streets within 250 m, then the areas containing it (smallest first) — so in the
    /// countryside the answer is the locality or region. Each result carries its address with
    /// the locality hierarchy. An invalid coordinate is an `invalidQuery` error.
    public func reverse(_ coordinate: CLLocationCoordinate2D, limit: Int = 1) throws(PlaceIndexError) -> [PlaceMatch] {
        try Self.validate(coordinate)
        guard limit > 0 else { return [] }
        let limit = min(limit, 100)
        return try read { db in
            var matches: [PlaceMatch] = []
            // Addresses: distance 0 inside a building's box, else to its point.
            let near = Box(around: coordinate, meters: Self.reverseAddressRadius + 10)
            var addresses: [(Int64, Double)] = []
            for row in try cachedRows(db, sql: """
                SELECT p.rowid, p.lat, p.lon, r.min_lon, r.max_lon, r.min_lat, r.max_lat FROM place_rtree r
                JOIN places p ON p.rowid = r.id
                WHERE r.max_lon >= ? AND r.min_lon <= ? AND r.max_lat >= ? AND r.min_lat <= ? AND p.kind = 'address'
                """, arguments: [near.west, near.east, near.south, near.north]) {
                let box = Box(west: row["min_lon"], south: row["min_lat"], east: row["max_lon"], north: row["max_lat"])
                let point = CLLocationCoordinate2D(latitude: row["lat"], longitude: row["lon"])
                var d = haversineMeters(coordinate, point)
                if box.east > box.west, box.contains(coordinate), box.halfDiagonalMeters < 150 { d = min(d, 1) }
                if d <= Self.reverseAddressRadius { addresses.append((row["rowid"], d)) }
            }
            addresses.sort { ($0.1, $0.0) < ($1.1, $1.0) }
            var tiers: [[(Int64, Double)]] = [Array(addresses.prefix(limit))]
            if matches.count + addresses.count < limit || addresses.isEmpty {
                let around = Box(around: coordinate, meters: Self.reverseStreetRadius)
                var streets: [(Int64, Double)] = []
                for row in try cachedRows(db, sql: """
                    SELECT p.rowid, p.lat, p.lon, g.shape, g.data FROM place_rtree r
                    JOIN places p ON p.rowid = r.id LEFT JOIN place_geometry g ON g.rowid = p.rowid
                    WHERE r.max_lon >= ? AND r.min_lon <= ? AND r.max_lat >= ? AND r.min_lat <= ? AND p.kind = 'street'
                    """, arguments: [around.west, around.east, around.south, around.north]) {
                    var d = haversineMeters(coordinate, CLLocationCoordinate2D(latitude: row["lat"], longitude: row["lon"]))
                    if let data: Data = row["data"], let shapeRaw: Int = row["shape"], let shape = PlaceGeometry.Shape(rawValue: shapeRaw),
                       let geometry = PlaceGeometry(shape: shape, encoded: data) {
                        d = geometry.distance(to: coordinate)
                    }
                    if d <= Self.reverseStreetRadius { streets.append((row["rowid"], d)) }
                }
                streets.sort { ($0.1, $0.0) < ($1.1, $1.0) }
                tiers.append(Array(streets.prefix(limit)))
            }
            let chosen = tiers.flatMap { $0 }.prefix(limit)
            let records = try self.records(db, rowids: chosen.map(\.0))
            for (rowid, distance) in chosen {
                if let record = records[rowid] {
                    matches.append(PlaceMatch(record: record, score: 1 / (1 + distance), distance: distance))
                }
            }
            if matches.count < limit {
                matches += try containingAreas(db, coordinate).prefix(limit - matches.count)
            }
            return matches
        }
    }

    /// The areas containing `coordinate`, smallest first, as places with the hierarchy above them.
    func containingAreas(_ db: Database, _ coordinate: CLLocationCoordinate2D) throws -> [PlaceMatch] {
        var areas: [(id: String, field: PlaceAddressField, name: String, countryCode: String?, timeZone: String?)] = []
        var covered = Set<Int>()
        for row in try cachedRows(db, sql: """
            SELECT a.id, a.field, a.name, a.country_code, a.time_zone, a.fallback, a.data FROM area_rtree r JOIN areas a ON a.rowid = r.id
            WHERE r.max_lon >= ? AND r.min_lon <= ? AND r.max_lat >= ? AND r.min_lat <= ? ORDER BY a.fallback, a.box_area
            """, arguments: [coordinate.longitude, coordinate.longitude, coordinate.latitude, coordinate.latitude]) {
            guard let geometry = PlaceGeometry(shape: .rings, encoded: row["data"]), geometry.contains(coordinate),
                  let field = PlaceAddressField(rawValue: row["field"]) else { continue }
            let fallback: Bool = row["fallback"]
            if fallback, covered.contains(field.rawValue) { continue }
            if !fallback { covered.insert(field.rawValue) }
            areas.append((row["id"], field, row["name"], row["country_code"], row["time_zone"]))
        }
        guard !areas.isEmpty else { return [] }
        var address = PlaceAddress()
        var timeZone: String? = nil
        for area in areas {
            switch area.field {
            case .country: if address.country == nil { address.country = area.name }
            case .administrativeArea: if address.administrativeArea == nil { address.administrativeArea = area.name }
            case .subAdministrativeArea: if address.subAdministrativeArea == nil { address.subAdministrativeArea = area.name }
            case .locality: if address.locality == nil { address.locality = area.name }
            case .subLocality: if address.subLocality == nil { address.subLocality = area.name }
            case .postalCode: if address.postalCode == nil { address.postalCode = area.name }
            }
            if address.countryCode == nil { address.countryCode = area.countryCode }
            if timeZone == nil { timeZone = area.timeZone }
        }
        if address.country == nil, let code = address.countryCode { address.country = CountryFacts.name(countryCode: code) }
        if timeZone == nil, let code = address.countryCode { timeZone = CountryFacts.timeZone(countryCode: code, near: coordinate) }
        var matches: [PlaceMatch] = []
        for (rank, area) in areas.enumerated() where area.field != .postalCode {
            var record: PlaceRecord
            if let data = try Data.fetchOne(db.cachedStatement(sql: "SELECT record FROM places WHERE id = ?"), arguments: [area.id]),
               let stored = try? PlaceRecordCodec.decode(data) {
                record = stored
            } else {
                record = PlaceRecord(id: area.id, kind: area.field == .locality || area.field == .subLocality ? .locality : .administrativeArea,
                                     name: area.name, coordinate: coordinate)
            }
            // The address of the point itself: everything from this area upwards.
            var scoped = address
            if area.field.rawValue < PlaceAddressField.subLocality.rawValue { scoped.subLocality = nil }
            if area.field.rawValue < PlaceAddressField.locality.rawValue { scoped.locality = nil }
            if area.field.rawValue < PlaceAddressField.subAdministrativeArea.rawValue { scoped.subAdministrativeArea = nil }
            if area.field.rawValue < PlaceAddressField.administrativeArea.rawValue { scoped.administrativeArea = nil }
            record.address = scoped
            if record.timeZone == nil { record.timeZone = timeZone }
            matches.append(PlaceMatch(record: record, score: 1 / Double(2 + rank), distance: 0))
        }
        return matches
    }
}
