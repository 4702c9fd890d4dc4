import Foundation
import GRDB
import MapGeometry

/// A place found by the text or category step, before its record is decoded (decoding only the
/// few that make the final list keeps completion fast).
struct Candidate {
    var rowid: Int64
    var kind: PlaceKind
    var category: String?
    var osmClass: String?
    var importance: Double
    var coordinate: CLLocationCoordinate2D
    var names: String
    /// 0…1: how well the query's words match this place's names.
    var text: Double
    var score: Double = 0

    /// A row selecting ``PlaceIndex/candidateColumns`` first, read by position (GRDB's lookup by
    /// name lower-cases the name for every value read).
    init(row: Row) {
        rowid = row[0]
        kind = PlaceKind(rawValue: row[1]) ?? .pointOfInterest
        category = row[2]
        osmClass = row[3]
        importance = row[4]
        coordinate = CLLocationCoordinate2D(latitude: row[5], longitude: row[6])
        names = row[7]
        text = 0
    }
}

extension PlaceIndex {
    static let candidateColumns = "p.rowid, p.kind, p.category, p.osm_class, p.importance, p.lat, p.lon, p.names"
    /// How many candidates each step fetches before ranking; bounds the work of a broad prefix.
    static let candidateLimit = 150

    /// Places matching the query text, best first.
    ///
    /// Empty or whitespace-only text gives no results (not an error). A category word ("coffee",
    /// "pharmacie", "playground") finds places of that category; "X near Y" / "X in Y" looks for X
    /// around the place Y. When no place matches every word exactly or as a prefix, words are
    /// corrected to the closest indexed words (one edit, two for long words).
    public func search(_ query: PlaceQuery) throws(PlaceIndexError) -> [PlaceMatch] {
        try Self.validate(query)
        guard query.limit > 0, let parsed = ParsedQuery(query.text) else { return [] }
        return try read { db in
            let ranked = try self.rank(db, parsed: parsed, query: query, prefixLast: true)
            let chosen = Array(ranked.prefix(query.limit))
            let records = try self.records(db, rowids: chosen.map(\.rowid))
            let center = query.region?.center
            return chosen.compactMap { candidate in
                records[candidate.rowid].map {
                    PlaceMatch(record: $0, score: candidate.score, distance: center.map { haversineMeters($0, candidate.coordinate) })
                }
            }
        }
    }

    /// Completions for a partly typed query: places (the last word may be a prefix), and, with
    /// `includeQuerySuggestions`, category searches such as "Cafes" whose words start with it.
    public func complete(_ query: PlaceQuery, includeQuerySuggestions: Bool) throws(PlaceIndexError) -> [PlaceSuggestion] {
        try Self.validate(query)
        guard query.limit > 0, let parsed = ParsedQuery(query.text) else { return [] }
        return try read { db in
            var suggestions: [PlaceSuggestion] = []
            if includeQuerySuggestions, parsed.anchor == nil {
                let prefix = parsed.rawSubject.joined(separator: " ")
                for (phrase, meaning) in CategoryWords.suggestions(prefix: prefix).prefix(2) {
                    let title = meaning.title
                    suggestions.append(PlaceSuggestion(
                        title: title, subtitle: "Search Nearby",
                        titleHighlights: Highlighter.ranges(in: title, words: parsed.rawSubject, prefixLast: true),
                        record: nil, queryText: phrase))
                }
            }
            let ranked = try self.rank(db, parsed: parsed, query: query, prefixLast: true)
            let chosen = Array(ranked.prefix(query.limit))
            let records = try self.records(db, rowids: chosen.map(\.rowid))
            for candidate in chosen {
                guard let record = records[candidate.rowid] else { continue }
                let title = record.displayName
                let subtitle = Self.subtitle(for: record)
                suggestions.append(PlaceSuggestion(
                    title: title, subtitle: subtitle,
                    titleHighlights: Highlighter.ranges(in: title, words: parsed.rawSubject, prefixLast: true),
                    subtitleHighlights: Highlighter.ranges(in: subtitle, words: parsed.rawSubject + (parsed.anchor ?? []), prefixLast: true),
                    record: record, queryText: nil))
            }
            // (A limit of Int.max must not overflow.)
            return Array(suggestions.prefix(min(query.limit, 100_000) + (includeQuerySuggestions ? 2 : 0)))
        }
    }

    /// The line under a completion's title: for an address or street the lines below the street
    /// as the country writes them ("00100 Helsinki", "Cupertino, CA 95014", "London, SW1A 2AA"),
    /// for a place the street line and locality; then the country.
    static func subtitle(for record: PlaceRecord) -> String {
        let a = record.address
        let title = record.displayName
        var parts: [String] = []
        switch record.kind {
        case .address, .street:
            var place = a
            (place.houseNumber, place.street) = (nil, nil)
            // No country name: the country comes last, once, after the lines.
            let lines = AddressFormat(countryCode: a.countryCode).lines(of: place, countryName: nil)
            parts = lines + [a.country].compactMap { $0 }
        case .locality, .administrativeArea, .postalCode:
            parts = [a.administrativeArea, a.country].compactMap { $0 }
        case .pointOfInterest, .physicalFeature:
            parts = [a.streetLine, a.locality, a.country].compactMap { $0 }
        }
        var seen: Set<String> = [title]
        return parts.filter { seen.insert($0).inserted }.joined(separator: ", ")
    }

    /// Candidates for a parsed query, scored and sorted (best first).
    func rank(_ db: Database, parsed: ParsedQuery, query: PlaceQuery, prefixLast: Bool) throws -> [Candidate] {
        var region = query.region.map(Box.init)
        var required = query.regionIsRequired
        var subject = parsed
        var anchorArea: PlaceGeometry? = nil
        if let anchorWords = parsed.anchor {
            if let anchor = try resolveAnchor(db, words: anchorWords) {
                if required, let existing = region, !(existing.contains(anchor.coordinate)) {
                    return []
                }
                region = anchor.box
                anchorArea = anchor.area
                required = true
            } else if let whole = ParsedQuery(query.text, splitAnchor: false) {
                subject = whole
            }
        }
        let kinds = query.kinds
        var candidates: [Int64: Candidate] = [:]
        func merge(_ list: [Candidate]) {
            for c in list where candidates[c.rowid].map({ $0.text < c.text }) ?? true { candidates[c.rowid] = c }
        }
        let meaning = CategoryWords.meaning(of: subject.rawSubject) ?? CategoryWords.meaning(of: subject.subject)
        if let meaning, kinds?.contains(.pointOfInterest) ?? true || kinds?.contains(.physicalFeature) ?? false {
            merge(try categoryCandidates(db, meaning: meaning, region: region, required: required, kinds: kinds))
        }
        merge(try textCandidates(db, parsed: subject, prefixLast: prefixLast, region: region, required: required, kinds: kinds))
        if candidates.isEmpty {
            merge(try textCandidates(db, parsed: subject, prefixLast: prefixLast, region: region, required: required,
                                     kinds: kinds, corrected: true))
        }
        var list = Array(candidates.values)
        if let included = query.includedCategories {
            list.removeAll { $0.category.map { !included.contains($0) } ?? true }
        }
        if !query.excludedCategories.isEmpty {
            list.removeAll { $0.category.map { query.excludedCategories.contains($0) } ?? false }
        }
        if required, let region { list.removeAll { !region.contains($0.coordinate) } }
        // Inside the anchor's outline, or on its edge (the shop across the boundary street).
        if let anchorArea { list.removeAll { !anchorArea.contains($0.coordinate) && anchorArea.distance(to: $0.coordinate) > 150 } }
        let reach = max(500, region?.halfDiagonalMeters ?? 0)
        let center = region.map { CLLocationCoordinate2D(latitude: ($0.south + $0.north) / 2, longitude: ($0.west + $0.east) / 2) }
        for index in list.indices {
            var c = list[index]
            var score = 100 * c.text + 40 * c.importance + Self.kindBonus(c.kind)
            if let number = subject.houseNumber, c.kind == .address || c.kind == .pointOfInterest {
                let words = c.names.split(separator: "|").map { $0.split(separator: " ") }
                if words.contains(where: { $0.first.map(String.init) == number }) { score += 20 }
            }
            // A category word asks for the category: the car-sharing spot "Triesen VP Bank" or the
            // hotel "Beach Plaza" only has the word in its name.
            if let meaning, !(c.category.map(meaning.categories.contains) ?? false), !(c.osmClass.map(meaning.osmClasses.contains) ?? false) {
                score -= 15
            }
            if let center {
                let d = haversineMeters(center, c.coordinate)
                score += (c.text < 0.71 && c.category != nil ? 60 : 25) * reach / (reach + d)
            }
            c.score = score
            list[index] = c
        }
        // A point of interest named after the town or street it is in (the station "Nendeln", the
        // car park "Städtle") comes after that town or street when both match the name exactly:
        // the bare name means the place, as in Apple Maps and Nominatim.
        var placeScores: [Substring: Double] = [:]
        for c in list where c.text >= 0.95 && (c.kind == .locality || c.kind == .administrativeArea || c.kind == .street) {
            let key = c.names.prefix { $0 != "|" }
            placeScores[key] = max(placeScores[key] ?? -.infinity, c.score)
        }
        if !placeScores.isEmpty {
            for index in list.indices where list[index].kind == .pointOfInterest && list[index].text >= 0.95 {
                let key = list[index].names.prefix { $0 != "|" }
                if let placeScore = placeScores[key], list[index].score >= placeScore { list[index].score = placeScore - 0.01 }
            }
        }
        list.sort { $0.score != $1.score ? $0.score > $1.score : $0.rowid < $1.rowid }
        return list
    }

    static func kindBonus(_ kind: PlaceKind) -> Double {
        switch kind {
        case .locality: return 8
        case .administrativeArea: return 6
        case .pointOfInterest, .physicalFeature: return 5
        case .street: return 4
        case .address: return 2
        case .postalCode: return 1
        }
    }

    /// The place an "in Y"/"near Y" clause names, as a box to look in: localities and areas first.
    func resolveAnchor(_ db: Database, words: [String]) throws -> (coordinate: CLLocationCoordinate2D, box: Box, area: PlaceGeometry?)? {
        let parsed = ParsedQuery(subject: words, rawSubject: words)
        var best = try textCandidates(db, parsed: parsed, prefixLast: false, region: nil, required: false,
                                      kinds: [.locality, .administrativeArea, .postalCode])
        if best.isEmpty {
            best = try textCandidates(db, parsed: parsed, prefixLast: false, region: nil, required: false, kinds: nil)
        }
        guard let top = best.max(by: { ($0.text + 0.15 * $0.importance, -$0.rowid) < ($1.text + 0.15 * $1.importance, -$1.rowid) }),
              top.text >= 0.7 else { return nil }
        let box = try cachedRows(db, sql: "SELECT min_lon, max_lon, min_lat, max_lat FROM place_rtree WHERE id = ?",
                                   arguments: [top.rowid]).first
        var result = Box(around: top.coordinate, meters: 2_000)
        if let box {
            let b = Box(west: box["min_lon"], south: box["min_lat"], east: box["max_lon"], north: box["max_lat"])
            if b.halfDiagonalMeters > 1_000 {
                // A little margin: "restaurants in Vaduz" includes the one across the boundary street.
                let mx = (b.east - b.west) * 0.1, my = (b.north - b.south) * 0.1
                result = Box(west: b.west - mx, south: b.south - my, east: b.east + mx, north: b.north + my)
            }
        }
        // A municipality's box can take in half its neighbour ("bank in Triesen" finding one in
        // Balzers): where the anchor is an area with a boundary, its outline decides.
        let area = try cachedRows(db, sql: "SELECT a.data FROM areas a JOIN places p ON p.id = a.id WHERE p.rowid = ? ORDER BY a.fallback LIMIT 1",
                                  arguments: [top.rowid]).first.flatMap { row -> PlaceGeometry? in
            PlaceGeometry(shape: .rings, encoded: row[0])
        }
        return (top.coordinate, result, area)
    }

    func kindClause(_ kinds: Set<PlaceKind>?) -> String {
        guard let kinds else { return "" }
        if kinds.isEmpty { return " AND 0" }
        return " AND p.kind IN (" + kinds.map { "'\($0.rawValue)'" }.sorted().joined(separator: ",") + ")"
    }

    func boxClause(_ box: Box) -> (String, StatementArguments) {
        (" AND p.rowid IN (SELECT id FROM place_rtree WHERE max_lon >= ? AND min_lon <= ? AND max_lat >= ? AND min_lat <= ?)",
         [box.west, box.east, box.south, box.north])
    }

    func categoryCandidates(_ db: Database, meaning: CategoryWords.Meaning, region: Box?, required: Bool,
                            kinds: Set<PlaceKind>?) throws -> [Candidate] {
        var conditions: [String] = []
        var arguments: StatementArguments = []
        if !meaning.categories.isEmpty {
            conditions.append("p.category IN (" + meaning.categories.map { _ in "?" }.joined(separator: ",") + ")")
            arguments += StatementArguments(meaning.categories.sorted())
        }
        if !meaning.osmClasses.isEmpty {
            conditions.append("p.osm_class IN (" + meaning.osmClasses.map { _ in "?" }.joined(separator: ",") + ")")
            arguments += StatementArguments(meaning.osmClasses.sorted())
        }
        guard !conditions.isEmpty else { return [] }
        let base = "SELECT \(Self.candidateColumns) FROM places p WHERE (" + conditions.joined(separator: " OR ") + ")" + kindClause(kinds)
        var rows: [Row] = []
        if let region {
            let (clause, boxArguments) = boxClause(region)
            rows = try cachedRows(db, sql: base + clause + " ORDER BY p.importance DESC LIMIT \(Self.candidateLimit)",
                                    arguments: arguments + boxArguments)
        }
        if !required, rows.count < 10 {
            rows += try cachedRows(db, sql: base + " ORDER BY p.importance DESC LIMIT \(Self.candidateLimit)", arguments: arguments)
        }
        return rows.map { row in
            var c = Candidate(row: row)
            c.text = 0.7
            return c
        }
    }

    /// Places whose indexed words contain every query word (the last as a prefix when
    /// `prefixLast`), best-known first, plus the same within the region when there is one.
    func textCandidates(_ db: Database, parsed: ParsedQuery, prefixLast: Bool, region: Box?, required: Bool,
                        kinds: Set<PlaceKind>?, corrected: Bool = false) throws -> [Candidate] {
        var words = parsed.subject
        var alternatives = try inflectedAlternatives(db, parsed.abbreviationAlternatives)
        if corrected {
            var changed = false
            for (offset, word) in words.enumerated() {
                let prefix = prefixLast && offset == words.count - 1
                guard word.count >= 3, !ParsedQuery.isHouseNumber(word), !TextFolding.stopWords.contains(word) else { continue }
                if try termExists(db, word, prefix: prefix) {
                    // A misspelling can be a word of some other name ("Carol", "Lichtenstein"):
                    // then it stays an option beside its neighbours one edit away.
                    guard word.count >= 4 else { continue }
                    let neighbours = try self.corrections(db, word, prefix: prefix, excludingExact: true)
                    guard !neighbours.isEmpty else { continue }
                    alternatives[word] = [word] + neighbours
                } else {
                    let corrections = try self.corrections(db, word, prefix: prefix)
                    guard !corrections.isEmpty else { return [] }
                    alternatives[word] = corrections
                }
                changed = true
            }
            guard changed else { return [] }
            words = parsed.subject
        }
        let expansions = try prefixExpansions(db, words: words, prefixLast: prefixLast, alternatives: alternatives)
        guard let expression = MatchExpression.make(words, prefixLast: prefixLast, alternatives: alternatives,
                                                    expansions: expansions) else { return [] }
        // The FTS is read in rowid (= importance) order and stops early: the work is bounded
        // however many places share a common word.
        func matches(_ limit: Int) -> String {
            "SELECT \(Self.candidateColumns) FROM (SELECT rowid AS ord FROM place_fts WHERE place_fts MATCH ? ORDER BY rowid LIMIT \(limit)) f"
                + " JOIN places p ON p.ord = f.ord WHERE 1" + kindClause(kinds)
        }
        let queryWords = parsed.numberFirstSubject.map { alternatives[$0] ?? TextFolding.alternatives(of: $0) }
        let matcher = NameMatch(query: queryWords, prefixLast: prefixLast)
        // Each place once (the region's matches are often among the others): its names are
        // scored once, and rows are read straight off the statement without copying them.
        var found: [Candidate] = []
        var seen = Set<Int64>()
        func add(_ statement: Statement, _ arguments: StatementArguments) throws {
            let rows = try Row.fetchCursor(statement, arguments: arguments)
            while let row = try rows.next() {
                guard seen.insert(row[0]).inserted else { continue }
                var c = Candidate(row: row)
                c.text = matcher.quality(names: c.names) * (corrected ? 0.8 : 1)
                found.append(c)
            }
        }
        if let region {
            let inRegion = " AND p.lat BETWEEN ? AND ? AND p.lon BETWEEN ? AND ?"
            let bounds: StatementArguments = [region.south, region.north, region.west, region.east]
            switch try regionMatches(db, expression: expression, region: region, kinds: kinds) {
            case .inRegion(let ords):
                if !ords.isEmpty {
                    try add(db.makeStatement(sql: "SELECT \(Self.candidateColumns) FROM places p WHERE p.ord IN ("
                                             + ords.map(String.init).joined(separator: ",") + ") ORDER BY p.ord"), [])
                }
            case .all(let ords):
                // Every match is known already: test those places, without reading the full text again.
                if !ords.isEmpty {
                    try add(db.makeStatement(sql: "SELECT \(Self.candidateColumns) FROM places p WHERE p.ord IN ("
                                             + ords.map(String.init).joined(separator: ",") + ")" + kindClause(kinds) + inRegion
                                             + " ORDER BY p.ord LIMIT \(Self.candidateLimit)"), bounds)
                }
            case .tooMany:
                try add(db.cachedStatement(sql: matches(Self.regionScanLimit) + inRegion + " ORDER BY f.ord LIMIT \(Self.candidateLimit)"),
                        [expression] + bounds)
            }
        }
        if !required {
            try add(db.cachedStatement(sql: matches(kinds == nil ? Self.candidateLimit : 2_000) + " ORDER BY f.ord LIMIT \(Self.candidateLimit)"),
                    [expression])
        }
        if !corrected {
            // Exact names, which the importance order above may not reach when many places share the words.
            let keys = Set([parsed.subject.joined(separator: " "), parsed.numberFirstSubject.joined(separator: " ")])
            for key in keys.sorted() {
                try add(db.cachedStatement(sql: "SELECT \(Self.candidateColumns) FROM places p WHERE p.key = ?" + kindClause(kinds)
                                           + " ORDER BY p.importance DESC LIMIT 50"), [key])
            }
        }
        return found
    }

    /// The most indexed words a typed prefix is replaced by (more, and it stays a prefix).
    static let expansionLimit = 64

    /// For each spelling of the last word, when it is a prefix longer than the FTS prefix
    /// indexes (3 characters): the indexed words it begins, if there are 1…``expansionLimit``.
    /// "andorra*" in Andorra ×100 begins 3 words but 63 000 documents; FTS5 reads and merges all
    /// of them before it can return the first match in rowid order, whereas the same words as
    /// whole terms are read lazily and skipped through (3 ms against 0.2 ms with "auditori").
    /// `alternatives` of abbreviated words with the indexed words that inflect a written-out
    /// spelling: "Drottningg." is "drottninggata", which the index holds in the definite form
    /// "drottninggatan" (Swedish, Danish and Norwegian street names end in an article). Up to
    /// three letters longer, as many as ``inflectionLimit`` per spelling.
    func inflectedAlternatives(_ db: Database, _ alternatives: [String: [String]]) throws -> [String: [String]] {
        var result = alternatives
        for (word, options) in alternatives {
            var all = options
            for option in options where option != word && option.unicodeScalars.count >= 4 {
                let terms = try String.fetchAll(db.cachedStatement(sql: "SELECT term FROM place_terms WHERE term > ? AND term < ? LIMIT \(Self.inflectionLimit)"),
                                                arguments: [option, option + "\u{10FFFF}"])
                for term in terms where term.unicodeScalars.count <= option.unicodeScalars.count + 3 && !all.contains(term) { all.append(term) }
            }
            result[word] = all
        }
        return result
    }

    /// The most inflected forms an abbreviation's spelling adds to a query.
    static let inflectionLimit = 8

    func prefixExpansions(_ db: Database, words: [String], prefixLast: Bool,
                          alternatives: [String: [String]]) throws -> [String: [String]] {
        guard prefixLast, let last = words.last else { return [:] }
        var expansions: [String: [String]] = [:]
        for option in alternatives[last] ?? TextFolding.alternatives(of: last) where option.unicodeScalars.count > 3 {
            let terms = try String.fetchAll(db.cachedStatement(sql: "SELECT term FROM place_terms WHERE term >= ? AND term < ? LIMIT \(Self.expansionLimit + 1)"),
                                            arguments: [option, option + "\u{10FFFF}"])
            if (1...Self.expansionLimit).contains(terms.count) { expansions[option] = terms }
        }
        return expansions
    }

    /// How many full-text matches, best first, a region search looks through for ones inside the region.
    static let regionScanLimit = 5_000
    /// Up to this many full-text matches, a region search checks each against the region
    /// instead of listing the places inside it.
    static let fewMatches = 1_000
    /// Regions holding at most this many places are searched through the set of their places.
    static let regionSetLimit = 4_000

    /// What ``regionMatches(_:expression:region:kinds:fewMatches:)`` found out.
    enum RegionMatches {
        /// The `ord`s of the matches inside the region (at most ``candidateLimit``), best first.
        case inRegion([Int64])
        /// The words match at most `fewMatches` places: all their `ord`s, to be tested against
        /// the region one by one (cheaper than listing the region's places).
        case all([Int64])
        /// Many matches and a region holding too many places for a set: scan the matches.
        case tooMany
    }

    /// The `ord`s of the first ``candidateLimit`` of the first ``regionScanLimit`` full-text matches
    /// that lie in `region`, found by reading the full-text rowids alone and looking each up in the set of the
    /// region's places (from the R*Tree); or every match when the words match few places; or
    /// neither when the region holds too many places, for which testing each match's coordinate is cheaper.
    /// Joining every full-text match to its place row to test its coordinate cost a random read
    /// of `places` per match: 15 ms for a short prefix in a 2 km box of Andorra ×100, where the
    /// box holds 75 places.
    func regionMatches(_ db: Database, expression: String, region: Box, kinds: Set<PlaceKind>?,
                       fewMatches: Int = PlaceIndex.fewMatches) throws -> RegionMatches {
        // A word few places have: checking each of its places against the region is cheaper than
        // listing the region's places (a category word over all of Monaco read 3,000 rows).
        let few = try Int64.fetchAll(db.cachedStatement(sql: "SELECT rowid FROM place_fts WHERE place_fts MATCH ? LIMIT ?"),
                                     arguments: [expression, fewMatches + 1])
        guard few.count > fewMatches else { return .all(few) }
        let inside = try Int64.fetchAll(db.cachedStatement(sql: """
            SELECT p.ord FROM place_rtree r JOIN places p ON p.rowid = r.id
            WHERE r.max_lon >= ? AND r.min_lon <= ? AND r.max_lat >= ? AND r.min_lat <= ?
              AND p.lat BETWEEN ? AND ? AND p.lon BETWEEN ? AND ?\(kindClause(kinds)) LIMIT \(Self.regionSetLimit + 1)
            """), arguments: [region.west, region.east, region.south, region.north, region.south, region.north, region.west, region.east])
        guard inside.count <= Self.regionSetLimit else { return .tooMany }
        guard !inside.isEmpty else { return .inRegion([]) }
        let places = Set(inside)
        var chosen: [Int64] = []
        let matches = try Int64.fetchCursor(db.cachedStatement(
            sql: "SELECT rowid FROM place_fts WHERE place_fts MATCH ? ORDER BY rowid LIMIT \(Self.regionScanLimit)"), arguments: [expression])
        while let ord = try matches.next() {
            guard places.contains(ord) else { continue }
            chosen.append(ord)
            if chosen.count == Self.candidateLimit || chosen.count == places.count { break }
        }
        return .inRegion(chosen)
    }

    func termExists(_ db: Database, _ word: String, prefix: Bool) throws -> Bool {
        if prefix {
            return try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM place_terms WHERE term >= ? AND term < ?)"),
                                     arguments: [word, word + "\u{10FFFF}"]) ?? false
        }
        return try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM place_terms WHERE term = ?)"), arguments: [word]) ?? false
    }

    /// Indexed words within one edit of `word` (two when it is 8 letters or longer); for a
    /// prefix, words whose beginning is. Candidates share the first letter or, for a typo in the
    /// first letter, the second; at most 6, the most frequent first. `excludingExact` leaves out
    /// `word` itself (and, for a prefix, the words it begins).
    func corrections(_ db: Database, _ word: String, prefix: Bool, excludingExact: Bool = false) throws -> [String] {
        let scalars = word.unicodeScalars.map(\.value)
        let limit = scalars.count >= 8 ? 2 : 1
        var found: [(term: String, distance: Int, documents: Int)] = []
        var starts = [String(word.prefix(1))]
        if word.count > 3 { starts.append(String(word.dropFirst().prefix(1))) }
        var seen = Set<String>()
        for start in starts {
            let rows = try cachedRows(db, sql: """
                SELECT term, documents FROM place_terms WHERE term >= ? AND term < ?
                  AND length(term) BETWEEN ? AND ? ORDER BY documents DESC LIMIT 20000
                """, arguments: [start, start + "\u{10FFFF}", scalars.count - limit, prefix ? 1000 : scalars.count + limit])
            for row in rows {
                let term: String = row["term"]
                guard seen.insert(term).inserted else { continue }
                var other = term.unicodeScalars.map(\.value)
                if prefix, other.count > scalars.count { other = Array(other.prefix(scalars.count)) }
                let d = editDistance(scalars, other, limit: limit)
                if d <= limit, !(excludingExact && d == 0) { found.append((term, d, row["documents"])) }
            }
        }
        found.sort { ($0.distance, -$0.documents, $0.term) < ($1.distance, -$1.documents, $1.term) }
        let best = found.first?.distance ?? 0
        return found.filter { $0.distance == best }.prefix(6).map(\.term)
    }
}

/// How well query words match a place's names (see ``PlaceIndex`` ranking).
///
/// Works on the UTF-8 bytes of the folded names: a candidate's `names` holds every spelling of
/// every language (fifty names for a capital), and splitting them into `Character`s for each of
/// the few hundred candidates of a query cost more than all of the query's SQL.
/// Writer and reader fold text the same way, so equal words are equal bytes.
struct NameMatch {
    /// Every query word's spellings, as ranges into `bytes`.
    private let bytes: [UInt8]
    private let options: [[Range<Int>]]
    /// Offsets of the words that count (stop words are optional unless they are all there is).
    private let significant: [Int]
    private let prefixLast: Bool
    private static let stopWordBytes: [[UInt8]] = TextFolding.stopWords.map { Array($0.utf8) }
    private static let longestStopWord = stopWordBytes.map(\.count).max() ?? 0

    /// `query`: per query word, the spellings it may match.
    init(query: [[String]], prefixLast: Bool) {
        var bytes: [UInt8] = []
        var options: [[Range<Int>]] = []
        for spellings in query {
            var ranges: [Range<Int>] = []
            for spelling in spellings {
                let start = bytes.count
                bytes.append(contentsOf: spelling.utf8)
                ranges.append(start..<bytes.count)
            }
            options.append(ranges)
        }
        self.bytes = bytes
        self.options = options
        self.prefixLast = prefixLast
        significant = query.indices.filter { query.count == 1 || !(query[$0].first.map(TextFolding.stopWords.contains) ?? false) }
    }

    /// `query`: per query word, the spellings it may match. `names`: `|`-separated folded names.
    static func quality(query: [[String]], names: String, prefixLast: Bool) -> Double {
        NameMatch(query: query, prefixLast: prefixLast).quality(names: names)
    }

    /// The best match over the `|`-separated folded `names`; at least 0.3 (every query word
    /// matched somewhere, the full-text search said so, perhaps only in the address).
    func quality(names: String) -> Double {
        guard !options.isEmpty else { return 0 }
        var text = names
        let best = text.withUTF8 { name in
            bytes.withUnsafeBufferPointer { query in
                var best = 0.0
                var words: [Range<Int>] = []
                var significantWords: [Range<Int>] = []
                words.reserveCapacity(16)
                significantWords.reserveCapacity(16)
                // A name none of whose words any query word matches (the last as a prefix) scores
                // at most the 0.3 every candidate gets: most of a capital's fifty names, in other
                // scripts. (Stop words count: "Sant Julià de L" ends with "Llumeneres", 0.74.)
                var worthScoring = significant.isEmpty
                var wordStart = 0
                var index = 0
                // One pass over the bytes: words end at spaces, names at bars (and at the end).
                while index <= name.count {
                    let byte: UInt8 = index < name.count ? name[index] : UInt8(ascii: "|")
                    if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "|") {
                        if index > wordStart {
                            let word = wordStart..<index
                            words.append(word)
                            if !worthScoring {
                                worthScoring = options.indices.contains { matches(query, $0, name, word, prefix: prefixLast && $0 == options.count - 1) }
                            }
                        }
                        wordStart = index + 1
                        if byte == UInt8(ascii: "|"), !words.isEmpty {
                            if worthScoring {
                                best = max(best, quality(query: query, name: name, words: words, significantWords: &significantWords))
                                if best >= 1 { break }
                            }
                            words.removeAll(keepingCapacity: true)
                            worthScoring = significant.isEmpty
                        }
                    }
                    index += 1
                }
                return best
            }
        }
        return max(best, 0.3)
    }

    private func matches(_ query: UnsafeBufferPointer<UInt8>, _ word: Int, _ name: UnsafeBufferPointer<UInt8>,
                         _ range: Range<Int>, prefix: Bool) -> Bool {
        for option in options[word] {
            let length = option.count
            guard prefix ? range.count >= length : range.count == length else { continue }
            if length == 0 { return true }
            // Most words differ in their first byte: no call for those.
            if query[option.lowerBound] == name[range.lowerBound], memcmp(query.baseAddress! + option.lowerBound, name.baseAddress! + range.lowerBound, length) == 0 {
                return true
            }
        }
        return false
    }

    private static func isStopWord(_ name: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        guard range.count <= longestStopWord else { return false }
        return stopWordBytes.contains { stop in
            stop.count == range.count && stop.withUnsafeBufferPointer { memcmp($0.baseAddress!, name.baseAddress! + range.lowerBound, stop.count) == 0 }
        }
    }

    /// `significantWords` is scratch space, kept between calls.
    private func quality(query: UnsafeBufferPointer<UInt8>, name: UnsafeBufferPointer<UInt8>, words: [Range<Int>],
                         significantWords: inout [Range<Int>]) -> Double {
        let count = options.count
        let lastIndex = count - 1
        // Exact: same words in the same order.
        if words.count == count, (0..<count).allSatisfy({ matches(query, $0, name, words[$0], prefix: false) }) {
            return 1
        }
        significantWords.removeAll(keepingCapacity: true)
        for word in words where !Self.isStopWord(name, word) { significantWords.append(word) }
        let nameSignificant = significantWords
        if significant.count == nameSignificant.count,
           zip(significant, nameSignificant).allSatisfy({ matches(query, $0.0, name, $0.1, prefix: prefixLast && $0.0 == lastIndex) }) {
            return prefixLast ? 0.97 : 0.95
        }
        let extra = Double(max(0, nameSignificant.count - significant.count))
        // Starts with the query.
        if words.count >= count,
           (0..<count).allSatisfy({ matches(query, $0, name, words[$0], prefix: prefixLast && $0 == lastIndex) }) {
            return 0.9 - min(0.1, 0.01 * extra)
        }
        // The whole name, then (or after) words of its address, which the full-text match found in
        // its context: "Dorfstrasse Triesen", "Kirchstrasse Ruggell", "Vaduz Liechtenstein".
        if words.count < count, !nameSignificant.isEmpty {
            let k = words.count
            let leading = (0..<k).allSatisfy { matches(query, $0, name, words[$0], prefix: false) }
            let trailing = leading || (0..<k).allSatisfy {
                matches(query, count - k + $0, name, words[$0], prefix: prefixLast && $0 == k - 1)
            }
            // Just below "every word in the name": a place whose whole name is the query wins.
            if leading || trailing { return 0.74 }
        }
        // Every significant word somewhere in the name.
        var hits = 0
        var prefixOnly = false
        for offset in significant {
            if words.contains(where: { matches(query, offset, name, $0, prefix: false) }) { hits += 1 }
            else if prefixLast, offset == lastIndex, words.contains(where: { matches(query, offset, name, $0, prefix: true) }) {
                hits += 1; prefixOnly = true
            }
        }
        if hits == significant.count, hits > 0 {
            return (prefixOnly ? 0.7 : 0.75) - min(0.1, 0.01 * extra)
        }
        return 0.3 + 0.35 * Double(hits) / Double(max(1, significant.count))
    }
}

/// UTF-16 ranges of a display string's words that the query's words match (whole word, or the
/// beginning for the last, partly typed word).
enum Highlighter {
    static func ranges(in text: String, words: [String], prefixLast: Bool) -> [NSRange] {
        guard !words.isEmpty else { return [] }
        var result: [NSRange] = []
        var wordStart: String.Index? = nil
        var index = text.startIndex
        func close(_ end: String.Index) {
            guard let start = wordStart else { return }
            wordStart = nil
            let original = text[start..<end]
            let folded = TextFolding.fold(String(original))
            for (offset, word) in words.enumerated() where !word.isEmpty {
                let canPrefix = prefixLast && offset == words.count - 1
                if folded == word || TextFolding.canonical(folded) == TextFolding.canonical(word) {
                    result.append(NSRange(start..<end, in: text))
                    return
                }
                if canPrefix, folded.hasPrefix(word) {
                    // Find how many original characters fold to the typed prefix.
                    var cut = start
                    while cut < end, TextFolding.fold(String(text[start..<cut])).count < word.count {
                        cut = text.index(after: cut)
                    }
                    result.append(NSRange(start..<cut, in: text))
                    return
                }
            }
        }
        while index < text.endIndex {
            let character = text[index]
            let isWord = character.unicodeScalars.contains { $0.properties.isAlphabetic || $0.properties.numericType != nil }
            if isWord {
                if wordStart == nil { wordStart = index }
            } else {
                close(index)
            }
            index = text.index(after: index)
        }
        close(text.endIndex)
        return result
    }
}
