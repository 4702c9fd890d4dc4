import Foundation
import GRDB
import MapFormats
import MapGeometry

/// The place index schema (version 2; version 1 stored records as JSON).
///
/// - `places`: one row per place; `record` is the ``PlaceRecord`` (``PlaceRecordCodec``), the other columns are
///   what queries filter and rank on without decoding it. `names` holds the folded search names,
///   one per `|`-separated entry, for match-quality scoring; `key` the first of them (the exact
///   name), so an exact match is found even among thousands of places sharing its words.
/// - `place_ids`: alternate ids → place rowid.
/// - `place_fts`: contentless FTS5, rowid = `places.ord` (the place's rank by importance), over pre-folded words (``TextFolding``): `names` (the place's
///   names, and for addresses its house number and street) and `context` (its address: street,
///   localities, areas, country, postal code). Prefix indexes on 1, 2 and 3 characters serve the completer (without one, a prefix query merges the document lists of every word it could start, all the words of the index for one typed letter).
/// - `place_terms`: every word of `place_fts` with its document count, for typo tolerance.
/// - `place_rtree`: R*Tree of each place's bounds in degrees (points have zero size).
/// - `place_geometry`: lines or rings of streets and areas (reverse geocoding).
/// - `areas` + `area_rtree`: the administrative areas that filled addresses, with their rings.
enum PlaceSchema {
    static let version = "2"
    static let create = """
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
        CREATE TABLE places (rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, kind TEXT NOT NULL,
            category TEXT, osm_class TEXT, importance REAL NOT NULL, lat REAL NOT NULL, lon REAL NOT NULL,
            names TEXT NOT NULL, key TEXT NOT NULL, ord INTEGER, record BLOB NOT NULL);
        CREATE TABLE place_ids (alt TEXT PRIMARY KEY, place INTEGER NOT NULL) WITHOUT ROWID;
        CREATE VIRTUAL TABLE place_rtree USING rtree(id, min_lon, max_lon, min_lat, max_lat);
        CREATE TABLE place_geometry (rowid INTEGER PRIMARY KEY, shape INTEGER NOT NULL, data BLOB NOT NULL);
        CREATE TABLE areas (rowid INTEGER PRIMARY KEY, id TEXT NOT NULL, field INTEGER NOT NULL, name TEXT NOT NULL,
            country_code TEXT, time_zone TEXT, fallback INTEGER NOT NULL, box_area REAL NOT NULL, data BLOB NOT NULL);
        CREATE VIRTUAL TABLE area_rtree USING rtree(id, min_lon, max_lon, min_lat, max_lat);
        """
    static let createText = """
        CREATE VIRTUAL TABLE place_fts USING fts5(names, context, content='', prefix='1 2 3',
            tokenize="unicode61 remove_diacritics 0");
        CREATE TABLE place_terms (term TEXT PRIMARY KEY, documents INTEGER NOT NULL) WITHOUT ROWID;
        """
}

/// Writes a place index file; used by the import.
///
/// Records go straight into the `places` table (batched transactions); ``finish()`` then fills
/// each record's missing address fields from the ``PlaceArea``s that contain it, and builds the
/// full-text index from the completed records, so a place is findable by its town's name.
public final class PlaceIndexWriter {
    public let url: URL
    private let writer: BulkSQLiteWriter
    private var finished = false
    /// Records added (duplicates by id are skipped).
    public private(set) var count = 0
    /// Countries and postcodes the added places carry, for places that lack them.
    private var hints = AddressHints()

    /// Creates the file, replacing any file at `url`.
    public init(url: URL) throws(PlaceIndexError) {
        self.url = url
        do {
            writer = try BulkSQLiteWriter(url: url, cacheKilobytes: 65536) { db in
                try db.execute(sql: PlaceSchema.create)
                try db.cachedStatement(sql: "INSERT INTO meta VALUES ('schema', ?)").execute(arguments: [PlaceSchema.version])
            }
        } catch {
            throw .corrupt("cannot create \(url.path): \(error)")
        }
    }

    /// Adds one place. `searchNames` are the extra names it should be found by (other languages,
    /// `alt_name`, `old_name`, …) besides `record.name` and `record.names`.
    public func add(_ record: PlaceRecord, searchNames: [String]) throws(PlaceIndexError) {
        try add(record, searchNames: searchNames, geometry: nil)
    }

    /// Adds one place with the lines or rings reverse geocoding measures against (streets, areas).
    public func add(_ record: PlaceRecord, searchNames: [String], geometry: PlaceGeometry?) throws(PlaceIndexError) {
        guard !finished else { throw .invalidQuery("writer already finished") }
        let c = record.coordinate
        guard c.latitude.isFinite, c.longitude.isFinite, CLLocationCoordinate2DIsValid(c) else {
            throw .invalidQuery("place \(record.id) has an invalid coordinate \(c)")
        }
        var allNames: [String] = []
        var seen = Set<String>()
        var sources = [record.name].compactMap({ $0 }) + record.names.keys.sorted().compactMap({ record.names[$0] }) + searchNames
        if record.kind != .street, let number = record.address.houseNumber, let street = record.address.street {
            // Addresses are found by "12 Avenue de la Costa" (and the parser moves a trailing number first),
            // with the number as people type it ("36b" for "36 B", "32a" for "32 a-b").
            for spelling in TextFolding.houseNumberForms(number) { sources.append("\(spelling) \(street)") }
        }
        for name in sources {
            let folded = TextFolding.tokens(name).joined(separator: " ")
            if !folded.isEmpty, seen.insert(folded).inserted { allNames.append(folded) }
        }
        var box = (west: c.longitude, south: c.latitude, east: c.longitude, north: c.latitude)
        if let bounds = record.bounds, !bounds.isNull, !bounds.isEmpty {
            let nw = MKMapPoint(x: bounds.minX, y: bounds.minY).coordinate
            let se = MKMapPoint(x: bounds.maxX, y: bounds.maxY).coordinate
            box = (min(nw.longitude, c.longitude), min(se.latitude, c.latitude),
                   max(se.longitude, c.longitude), max(nw.latitude, c.latitude))
        }
        do {
            let encoded = PlaceRecordCodec.encode(record)
            try writer.insert { db in
                try db.cachedStatement(sql: """
                    INSERT OR IGNORE INTO places (id, kind, category, osm_class, importance, lat, lon, names, key, record)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """).execute(arguments: [record.id, record.kind.rawValue, record.category, record.osmClass,
                                     record.importance.isFinite ? record.importance : 0, c.latitude, c.longitude,
                                     allNames.joined(separator: "|"), allNames.first ?? "", encoded])
                guard db.changesCount > 0 else { return }
                let rowid = db.lastInsertedRowID
                count += 1
                hints.add(record)
                try db.cachedStatement(sql: "INSERT INTO place_rtree VALUES (?, ?, ?, ?, ?)").execute(arguments: [rowid, box.west, box.east, box.south, box.north])
                for alt in record.alternateIDs where alt != record.id {
                    try db.cachedStatement(sql: "INSERT OR IGNORE INTO place_ids VALUES (?, ?)").execute(arguments: [alt, rowid])
                }
                if let geometry, !geometry.parts.isEmpty {
                    try db.cachedStatement(sql: "INSERT INTO place_geometry VALUES (?, ?, ?)").execute(arguments: [rowid, geometry.shape.rawValue, geometry.encoded])
                }
            }
        } catch let error as PlaceIndexError {
            throw error
        } catch {
            throw .corrupt("cannot add \(record.id): \(error)")
        }
    }

    /// Adds an area whose name fills `area.field` in the address of every place inside it
    /// (where the importer left that field empty). The smallest containing area wins.
    public func addArea(_ area: PlaceArea) throws(PlaceIndexError) {
        guard !finished else { throw .invalidQuery("writer already finished") }
        guard let box = area.geometry.box, area.geometry.shape == .rings else { return }
        do {
            try writer.insert { db in
                try db.cachedStatement(sql: "INSERT INTO areas (id, field, name, country_code, time_zone, fallback, box_area, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?)").execute(arguments: [area.id, area.field.rawValue, area.name, area.countryCode, area.timeZone, area.isFallback,
                                           (box.east - box.west) * (box.north - box.south), area.geometry.encoded])
                try db.cachedStatement(sql: "INSERT INTO area_rtree VALUES (?, ?, ?, ?, ?)").execute(arguments: [db.lastInsertedRowID, box.west, box.east, box.south, box.north])
            }
        } catch {
            throw .corrupt("cannot add area \(area.id): \(error)")
        }
    }

    /// Fills addresses from areas, builds the full-text index and the typo vocabulary, analyses
    /// the tables and closes the file.
    public func finish() throws(PlaceIndexError) {
        guard !finished else { return }
        finished = true
        do {
            try writer.finish { db in
                // Areas no country boundary holds (an extract cut inside its country) take the
                // country their places' `addr:country` tags give.
                for row in try Row.fetchAll(db, sql: """
                    SELECT a.rowid, r.min_lon, r.max_lon, r.min_lat, r.max_lat FROM areas a JOIN area_rtree r ON r.id = a.rowid
                    WHERE a.country_code IS NULL
                    """) {
                    let west: Double = row["min_lon"], east: Double = row["max_lon"], south: Double = row["min_lat"], north: Double = row["max_lat"]
                    let centre = CLLocationCoordinate2D(latitude: (south + north) / 2, longitude: (west + east) / 2)
                    if let code = hints.countryCode(near: centre) {
                        try db.execute(sql: "UPDATE areas SET country_code = ? WHERE rowid = ?", arguments: [code, row["rowid"] as Int64])
                    }
                }
                let areas = try AreaLookup(db: db, hints: hints)
                let streets = try NameAliases.streets(db), towns = try NameAliases.areas(db)
                try db.execute(sql: PlaceSchema.createText)
                // Full-text rowids follow importance (`ord`), so a query takes its most important
                // matches by reading the FTS in rowid order and stopping early, however many match.
                let order = try Int64.fetchAll(db, sql: "SELECT rowid FROM places ORDER BY importance DESC, rowid")
                var position: Int64 = 0
                for chunkStart in stride(from: 0, to: order.count, by: 2000) {
                    let chunk = order[chunkStart..<min(order.count, chunkStart + 2000)]
                    let rows = try Row.fetchAll(db, sql: "SELECT rowid, names, record FROM places WHERE rowid IN ("
                                                + chunk.map(String.init).joined(separator: ",") + ")")
                    let byRowid = Dictionary(rows.map { ($0["rowid"] as Int64, $0) }, uniquingKeysWith: { a, _ in a })
                    try db.execute(sql: "BEGIN")
                    for rowid in chunk {
                        guard let row = byRowid[rowid] else { continue }
                        position += 1
                        let data: Data = row["record"]
                        var record = try PlaceRecordCodec.decode(data)
                        var otherNames: [String] = []
                        if areas.fill(&record, otherNames: &otherNames) {
                            try db.cachedStatement(sql: "UPDATE places SET record = ?, ord = ? WHERE rowid = ?").execute(arguments: [PlaceRecordCodec.encode(record), position, rowid])
                        } else {
                            try db.cachedStatement(sql: "UPDATE places SET ord = ? WHERE rowid = ?").execute(arguments: [position, rowid])
                        }
                        var namesText: String = row["names"]
                        if let number = record.address.houseNumber, let street = record.address.street,
                           record.kind == .address || record.kind == .pointOfInterest {
                            // The street's other names ("Alexandersgatan" for the Aleksanterinkatu
                            // of `addr:street`) find the address too.
                            let numbers = TextFolding.houseNumberForms(number).map { TextFolding.tokens($0).joined(separator: " ") }
                            let extra = streets.aliases(of: street, near: record.coordinate).flatMap { alias in numbers.map { "\($0) \(alias)" } }
                            if !extra.isEmpty {
                                namesText += "|" + extra.joined(separator: "|")
                                try db.cachedStatement(sql: "UPDATE places SET names = ? WHERE rowid = ?").execute(arguments: [namesText, rowid])
                            }
                        }
                        let names = namesText.replacingOccurrences(of: "|", with: " ")
                        let a = record.address
                        var contextParts = [a.subLocality, a.locality, a.subAdministrativeArea, a.administrativeArea,
                                            a.country, a.postalCode]
                        if record.kind != .address { contextParts.insert(a.street, at: 0) }
                        contextParts += otherNames.map(Optional.some)
                        // The towns' and areas' other names: "Helsingfors" finds what is in Helsinki.
                        for name in [a.subLocality, a.locality, a.subAdministrativeArea, a.administrativeArea].compactMap({ $0 }) {
                            contextParts += towns.aliases(of: name, near: record.coordinate).map(Optional.some)
                        }
                        let context = TextFolding.tokens(contextParts.compactMap { $0 }.joined(separator: " ")).joined(separator: " ")
                        try db.cachedStatement(sql: "INSERT INTO place_fts (rowid, names, context) VALUES (?, ?, ?)").execute(arguments: [position, names, context])
                    }
                    try db.execute(sql: "COMMIT")
                }
                // places_class carries importance like places_category: "pic" takes the most
                // important peaks straight off the index instead of sorting every peak's row.
                try db.execute(sql: """
                    CREATE VIRTUAL TABLE temp.vocabulary USING fts5vocab(main, place_fts, 'row');
                    INSERT INTO place_terms SELECT term, doc FROM temp.vocabulary;
                    DROP TABLE temp.vocabulary;
                    INSERT INTO place_fts(place_fts) VALUES ('optimize');
                    CREATE INDEX places_category ON places(category, importance);
                    CREATE INDEX places_class ON places(osm_class, importance);
                    CREATE INDEX places_key ON places(key);
                    CREATE UNIQUE INDEX places_ord ON places(ord);
                    INSERT INTO meta VALUES ('places', (SELECT count(*) FROM places));
                    ANALYZE;
                    """)
            }
        } catch let error as PlaceIndexError {
            throw error
        } catch {
            throw .corrupt("cannot finish \(url.path): \(error)")
        }
    }
}

/// Areas in memory with a coarse grid over their boxes, for filling addresses by containment.
struct AreaLookup {
    struct Area {
        var id: String, field: PlaceAddressField, name: String, countryCode: String?, timeZone: String?
        var isFallback: Bool, boxArea: Double, geometry: PlaceGeometry
        var west: Double, south: Double, east: Double, north: Double
    }
    var areas: [Area] = []
    var grid: [Int64: [Int]] = [:]
    static let cell = 0.25
    /// What the places themselves say about their surroundings (countries, postcodes).
    let hints: AddressHints

    init(db: Database, hints: AddressHints) throws {
        self.hints = hints
        for row in try Row.fetchAll(db, sql: """
            SELECT a.id, a.field, a.name, a.country_code, a.time_zone, a.fallback, a.box_area, a.data,
                   r.min_lon, r.max_lon, r.min_lat, r.max_lat
            FROM areas a JOIN area_rtree r ON r.id = a.rowid ORDER BY a.fallback, a.box_area
            """) {
            let fieldRaw: Int = row["field"]
            guard let field = PlaceAddressField(rawValue: fieldRaw),
                  let geometry = PlaceGeometry(shape: .rings, encoded: row["data"]) else { continue }
            let area = Area(id: row["id"], field: field, name: row["name"], countryCode: row["country_code"],
                            timeZone: row["time_zone"], isFallback: row["fallback"], boxArea: row["box_area"], geometry: geometry,
                            west: row["min_lon"], south: row["min_lat"], east: row["max_lon"], north: row["max_lat"])
            let index = areas.count
            areas.append(area)
            for key in Self.cells(west: area.west, south: area.south, east: area.east, north: area.north) {
                grid[key, default: []].append(index)
            }
        }
    }

    static func key(_ x: Int, _ y: Int) -> Int64 { Int64(x) << 32 | Int64(UInt32(bitPattern: Int32(y))) }

    static func cells(west: Double, south: Double, east: Double, north: Double) -> [Int64] {
        let x0 = Int((west / cell).rounded(.down)), x1 = Int((east / cell).rounded(.down))
        let y0 = Int((south / cell).rounded(.down)), y1 = Int((north / cell).rounded(.down))
        guard (x1 - x0 + 1) * (y1 - y0 + 1) <= 1_000_000 else { return [] }
        var keys: [Int64] = []
        for x in x0...x1 { for y in y0...y1 { keys.append(key(x, y)) } }
        return keys
    }

    /// The areas containing `point`, smallest box first.
    func containing(_ point: CLLocationCoordinate2D) -> [Area] {
        let k = Self.key(Int((point.longitude / Self.cell).rounded(.down)), Int((point.latitude / Self.cell).rounded(.down)))
        guard let candidates = grid[k] else { return [] }
        return candidates.sorted().map { areas[$0] }.filter {
            point.longitude >= $0.west && point.longitude <= $0.east && point.latitude >= $0.south
                && point.latitude <= $0.north && $0.geometry.contains(point)
        }
    }

    /// Fills the empty address fields of `record` from the areas containing it, then its country
    /// from the `addr:country` of the places around it where no country boundary holds it, the
    /// country's name (CLDR) and time zone (tzdata) where no boundary gave them, and a postcode
    /// from the addressed places nearby. `otherNames` receives the names of boundaries that say
    /// otherwise than the object's own `addr:*` tags (a postal town that is not the municipality),
    /// so the place is found by both. Whether anything changed.
    func fill(_ record: inout PlaceRecord, otherNames: inout [String]) -> Bool {
        let before = record
        var countryFromBoundary = false
        var covered = Set<Int>()
        // An area never lies inside a smaller one: the country's label point falls in some
        // parish, but Andorra is not "in Encamp".
        var ownBoxArea = 0.0
        if record.kind == .locality || record.kind == .administrativeArea, let bounds = record.bounds, !bounds.isNull, !bounds.isEmpty {
            let nw = MKMapPoint(x: bounds.minX, y: bounds.minY).coordinate, se = MKMapPoint(x: bounds.maxX, y: bounds.maxY).coordinate
            ownBoxArea = (se.longitude - nw.longitude) * (nw.latitude - se.latitude)
        }
        for area in containing(record.coordinate) where area.id != record.id && area.boxArea >= ownBoxArea {
            // An estimated area never overrides what a real boundary says (or deliberately left out).
            if area.isFallback, covered.contains(area.field.rawValue) { continue }
            if !area.isFallback { covered.insert(area.field.rawValue) }
            var a = record.address
            switch area.field {
            case .country:
                // The boundary the place lies in decides its country over its `addr:country` tag.
                if !countryFromBoundary, !area.isFallback, let code = area.countryCode {
                    countryFromBoundary = true
                    if a.countryCode != code { a.country = nil }
                    a.countryCode = code
                }
                if a.country == nil { a.country = area.name }
                if a.countryCode == nil { a.countryCode = area.countryCode }
            case .administrativeArea: if a.administrativeArea == nil { a.administrativeArea = area.name }
            case .subAdministrativeArea: if a.subAdministrativeArea == nil { a.subAdministrativeArea = area.name }
            case .locality:
                if a.locality == nil { a.locality = area.name }
                else if !area.isFallback, a.locality != area.name, !covered.contains(-1) {
                    // `addr:city` names another town than the municipality's boundary (a postal
                    // town): the address keeps the tag, the search knows both.
                    covered.insert(-1)
                    otherNames.append(area.name)
                }
            case .subLocality: if a.subLocality == nil, area.name != a.locality { a.subLocality = area.name }
            case .postalCode: if a.postalCode == nil { a.postalCode = area.name }
            }
            if a.countryCode == nil, let code = area.countryCode { a.countryCode = code }
            if record.timeZone == nil, let zone = area.timeZone { record.timeZone = zone }
            record.address = a
        }
        if record.address.countryCode == nil, let code = hints.countryCode(near: record.coordinate) {
            record.address.countryCode = code
        }
        if record.address.country == nil, let code = record.address.countryCode, let name = CountryFacts.name(countryCode: code) {
            record.address.country = name
        }
        if record.timeZone == nil, let code = record.address.countryCode {
            record.timeZone = CountryFacts.timeZone(countryCode: code, near: record.coordinate)
        }
        if record.address.postalCode == nil, record.kind == .address || record.kind == .pointOfInterest || record.kind == .street,
           let code = hints.postalCode(near: record.coordinate, street: record.address.street) {
            record.address.postalCode = code
        }
        return record != before
    }
}


/// The other names of the extract's streets and towns (`name:xx`, `alt_name`, `old_name`, …), so
/// that an address is found by any of them: `addr:street` and the boundaries' `name` are one
/// language (in Helsinki the Finnish one, "Aleksanterinkatu, Helsinki"), while the street way and
/// the town also carry the others (`name:sv=Alexandersgatan`, `Helsingfors`), and a Swedish speaker
/// types those. Nominatim likewise matches an address's parts by all their names.
struct NameAliases {
    /// Folded name → each place of that name: its box in degrees and its other folded names.
    private var places: [String: [(west: Double, south: Double, east: Double, north: Double, aliases: [String])]] = [:]
    /// How far outside the place's box a place in or on it may lie, in degrees north–south (twice
    /// that in longitude, whose degrees narrow away from the equator).
    let margin: Double

    /// For streets: about 550 m, as an address point sits beside its street and a namesake in the
    /// next town is farther.
    static func streets(_ db: Database) throws -> NameAliases { try NameAliases(db, kinds: ["street"], margin: 0.005) }
    /// For towns, districts and regions: about 11 km, as a town's place node is a point in its middle.
    static func areas(_ db: Database) throws -> NameAliases {
        try NameAliases(db, kinds: ["locality", "administrativeArea"], margin: 0.1)
    }

    init(_ db: Database, kinds: [String], margin: Double) throws {
        self.margin = margin
        for row in try Row.fetchAll(db, sql: """
            SELECT p.names, r.min_lon, r.max_lon, r.min_lat, r.max_lat FROM places p JOIN place_rtree r ON r.id = p.rowid
            WHERE p.kind IN (\(kinds.map { "'\($0)'" }.joined(separator: ",")))
            """) {
            // The first name is the place's `name` (what `addr:street` or a boundary says), the others its aliases.
            let names = (row["names"] as String).split(separator: "|").map(String.init)
            guard names.count > 1 else { continue }
            places[names[0], default: []].append((row["min_lon"], row["min_lat"], row["max_lon"], row["max_lat"], Array(names.dropFirst())))
        }
    }

    /// The other folded names of the place called `name` that lies near `coordinate`.
    func aliases(of name: String, near coordinate: CLLocationCoordinate2D) -> [String] {
        guard !places.isEmpty else { return [] }
        let folded = TextFolding.tokens(name).joined(separator: " ")
        var result: [String] = []
        for entry in places[folded] ?? [] where coordinate.longitude >= entry.west - margin * 2
            && coordinate.longitude <= entry.east + margin * 2
            && coordinate.latitude >= entry.south - margin && coordinate.latitude <= entry.north + margin {
            for alias in entry.aliases where !result.contains(alias) { result.append(alias) }
        }
        return result
    }
}

/// What the places of an extract say about where they are, for the places that do not say it:
/// their `addr:country` (an extract cut inside its country has no country boundary to give one)
/// and their postcodes (most objects carry none; the addressed objects nearby do).
struct AddressHints {
    /// Grid cell → country code → how many places in the cell carry it.
    private var countries: [Int64: [String: Int]] = [:]
    /// Grid cell → addressed places with a postcode: where, on which (folded) street, which code.
    private var postcodes: [Int64: [(coordinate: CLLocationCoordinate2D, street: String?, code: String)]] = [:]
    /// 0.1° cells for countries (about 11 km by 5 km at 60° N); a country is asked of its cell and
    /// the eight around it.
    static let countryCell = 0.1
    /// 0.005° cells for postcodes (about 550 m by 280 m at 60° N).
    static let postcodeCell = 0.005
    /// How far the addressed place giving a postcode may be: on the same street, and on any.
    static let sameStreetRadius = 300.0
    static let anyStreetRadius = 60.0

    static func key(_ coordinate: CLLocationCoordinate2D, cell: Double, dx: Int = 0, dy: Int = 0) -> Int64 {
        AreaLookup.key(Int((coordinate.longitude / cell).rounded(.down)) + dx, Int((coordinate.latitude / cell).rounded(.down)) + dy)
    }

    mutating func add(_ record: PlaceRecord) {
        let a = record.address
        // Only what the object itself says: areas and streets carry codes the importer derived.
        guard record.kind == .address || record.kind == .pointOfInterest else { return }
        if let code = a.countryCode {
            countries[Self.key(record.coordinate, cell: Self.countryCell), default: [:]][code, default: 0] += 1
        }
        if let code = a.postalCode?.trimmingCharacters(in: .whitespaces), !code.isEmpty {
            let street = a.street.map { TextFolding.tokens($0).joined(separator: " ") }
            postcodes[Self.key(record.coordinate, cell: Self.postcodeCell), default: []].append((record.coordinate, street, code))
        }
    }

    /// The country code most places around `coordinate` carry; nil when none nearby carries one.
    func countryCode(near coordinate: CLLocationCoordinate2D) -> String? {
        var counts: [String: Int] = [:]
        for dx in -1...1 { for dy in -1...1 {
            for (code, n) in countries[Self.key(coordinate, cell: Self.countryCell, dx: dx, dy: dy)] ?? [:] { counts[code, default: 0] += n }
        } }
        return counts.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
    }

    /// The postcode of the nearest addressed place on the same street within 300 m, else of the
    /// nearest one on any street within 60 m (a postcode area follows streets and blocks; a
    /// corner building may be on the next street's code, a block away it seldom is).
    func postalCode(near coordinate: CLLocationCoordinate2D, street: String?) -> String? {
        guard !postcodes.isEmpty else { return nil }
        let folded = street.map { TextFolding.tokens($0).joined(separator: " ") }
        let reach = Int((Self.sameStreetRadius / 111_000 / cos(coordinate.latitude * .pi / 180) / Self.postcodeCell).rounded(.up))
        var sameStreet: (Double, String)? = nil, anyStreet: (Double, String)? = nil
        for dx in -reach...reach { for dy in -reach...reach {
            for point in postcodes[Self.key(coordinate, cell: Self.postcodeCell, dx: dx, dy: dy)] ?? [] {
                let d = haversineMeters(coordinate, point.coordinate)
                if folded != nil, point.street == folded, d <= Self.sameStreetRadius, d < sameStreet?.0 ?? .infinity { sameStreet = (d, point.code) }
                if d <= Self.anyStreetRadius, d < anyStreet?.0 ?? .infinity { anyStreet = (d, point.code) }
            }
        } }
        return sameStreet?.1 ?? anyStreet?.1
    }
}
