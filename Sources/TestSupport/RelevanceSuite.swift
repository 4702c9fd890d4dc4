import Foundation
import MapGeometry
import MapSearch

/// The search relevance suite (`Tests/MapSearchTests/Relevance/*.json`, one file per sample
/// extract; see the README there for how each case was chosen): queries with the place a person
/// would expect first, checked against a place index. Shared by `RelevanceTests` (hit rate floor)
/// and `OpenMapKitBenchmarks search` (latency over the same queries, hit rate at scale).
public struct RelevanceSuite: Decodable, Sendable {
    /// "monaco", "andorra", "liechtenstein".
    public var extract: String
    /// The extract, relative to `../shared`.
    public var pbf: String
    /// Side of the square bias region built around a case's `near` point, in degrees.
    public var nearSpanDegrees: Double
    public var cases: [RelevanceCase]

    /// The folder holding the suite's files.
    public static let folder = TestData.packageRoot.appendingPathComponent("Tests/MapSearchTests/Relevance")

    /// The names of the extracts that have a suite file.
    public static var extracts: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }

    /// The suite of one extract ("monaco").
    public static func load(_ extract: String) throws -> RelevanceSuite {
        let url = folder.appendingPathComponent(extract + ".json")
        return try JSONDecoder().decode(RelevanceSuite.self, from: Data(contentsOf: url))
    }
}

/// One query of the suite and the place expected first.
public struct RelevanceCase: Decodable, Sendable {
    public enum Kind: String, Decodable, Sendable, CaseIterable {
        /// `PlaceIndex.search`, as MKLocalSearch runs it.
        case search
        /// `PlaceIndex.search` with an address as text, as MKGeocodingRequest runs it.
        case geocode
        /// `PlaceIndex.complete` (the first suggestion that is a place), as the completer runs it.
        case complete
        /// `PlaceIndex.reverse`, as MKReverseGeocodingRequest runs it.
        case reverse
    }

    /// What the first result must be. Search-like cases name an OSM id (`id`, or any of `accept`:
    /// the same place mapped twice, a street's other ways, the admin boundary of a town);
    /// address cases (and reverse cases on a building, whose `id` is the building) also pass
    /// when the first result has the expected street and house number; reverse cases name the street, house number and/or an area (a locality, parish or
    /// municipality) that must appear in the first result's address.
    public struct Expectation: Decodable, Sendable {
        public var id: String?
        public var name: String?
        public var accept: [String]?
        public var street: String?
        public var houseNumber: String?
        public var area: String?
    }

    public var id: String
    /// "town", "street", "address", "poi", "category", "prefix", "typo", "diacritics", "language",
    /// "reverse-building", …
    public var group: String
    public var kind: Kind
    public var query: String?
    /// [latitude, longitude] of a reverse case.
    public var coordinate: [Double]?
    /// [latitude, longitude] the search is biased towards.
    public var near: [Double]?
    public var expect: Expectation
    public var note: String?

    /// The text query this case sends (nil for reverse cases).
    public func placeQuery(nearSpanDegrees: Double) -> PlaceQuery? {
        guard let query else { return nil }
        var placeQuery = PlaceQuery(text: query)
        if let near, near.count == 2 {
            placeQuery.region = MKCoordinateRegion(center: CLLocationCoordinate2D(latitude: near[0], longitude: near[1]),
                                                   span: MKCoordinateSpan(latitudeDelta: nearSpanDegrees, longitudeDelta: nearSpanDegrees))
        }
        return placeQuery
    }

    /// Runs the case once and returns the first result (nil when there is none).
    public func firstResult(in index: PlaceIndex, nearSpanDegrees: Double) throws -> PlaceRecord? {
        switch kind {
        case .search, .geocode:
            guard let query = placeQuery(nearSpanDegrees: nearSpanDegrees) else { return nil }
            return try index.search(query).first?.record
        case .complete:
            guard let query = placeQuery(nearSpanDegrees: nearSpanDegrees) else { return nil }
            return try index.complete(query, includeQuerySuggestions: false).first(where: { $0.record != nil })?.record
        case .reverse:
            guard let coordinate, coordinate.count == 2 else { return nil }
            return try index.reverse(CLLocationCoordinate2D(latitude: coordinate[0], longitude: coordinate[1]), limit: 1).first?.record
        }
    }

    /// Whether `record` is what the case expects first.
    public func accepts(_ record: PlaceRecord?) -> Bool {
        guard let record else { return false }
        if let id = expect.id {
            let wanted = Set([id] + (expect.accept ?? []))
            if wanted.contains(record.id) || !wanted.isDisjoint(with: record.alternateIDs) { return true }
            // An address is found when its street and number are, whichever object carries them
            // (the building, or a shop inside it with the same address).
            guard kind == .geocode || kind == .reverse, expect.street != nil, expect.houseNumber != nil else { return false }
        }
        if let street = expect.street {
            let found = record.address.street ?? (record.kind == .street ? record.name : nil)
            guard let found, Self.fold(found) == Self.fold(street) else { return false }
        }
        if let number = expect.houseNumber {
            guard let found = record.address.houseNumber, Self.fold(found) == Self.fold(number) else { return false }
        }
        if let area = expect.area {
            let address = record.address
            let names = [record.name, address.subLocality, address.locality, address.subAdministrativeArea, address.administrativeArea]
            guard names.contains(where: { $0.map(Self.fold) == Self.fold(area) }) else { return false }
        }
        return expect.id != nil || expect.street != nil || expect.houseNumber != nil || expect.area != nil
    }

    /// One line describing a result, for the miss list.
    public static func describe(_ record: PlaceRecord?) -> String {
        guard let record else { return "nothing" }
        var parts = ["\(record.id) \"\(record.displayName)\" \(record.kind.rawValue)"]
        if let category = record.category { parts.append(category) }
        let address = record.address
        let line = [address.streetLine, address.locality, address.administrativeArea].compactMap { $0 }.joined(separator: ", ")
        if !line.isEmpty { parts.append("(\(line))") }
        return parts.joined(separator: " ")
    }

    /// The suite's own folding (independent of the engine's, so a folding bug there is a miss
    /// here): case, diacritics, ß, and punctuation runs as one space.
    static func fold(_ text: String) -> String {
        let folded = text.replacingOccurrences(of: "ß", with: "ss")
            .folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        return folded.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).joined(separator: " ")
    }
}

/// The outcome of running a suite on one index.
public struct RelevanceReport: Sendable {
    public struct Outcome: Sendable {
        public var testCase: RelevanceCase
        public var hit: Bool
        public var first: PlaceRecord?
        public var error: String?
    }

    public var extract: String
    public var outcomes: [Outcome]

    /// Runs every case of `suite` on `index` once.
    public init(suite: RelevanceSuite, index: PlaceIndex) {
        extract = suite.extract
        outcomes = suite.cases.map { testCase in
            do {
                let first = try testCase.firstResult(in: index, nearSpanDegrees: suite.nearSpanDegrees)
                return Outcome(testCase: testCase, hit: testCase.accepts(first), first: first)
            } catch {
                return Outcome(testCase: testCase, hit: false, first: nil, error: "\(error)")
            }
        }
    }

    public var hits: Int { outcomes.filter(\.hit).count }
    public var hitRate: Double { outcomes.isEmpty ? 0 : Double(hits) / Double(outcomes.count) }

    /// Hits and totals per key (the case's kind or group).
    public func tally(by key: (RelevanceCase) -> String) -> [(key: String, hits: Int, total: Int)] {
        var counts: [String: (Int, Int)] = [:]
        for outcome in outcomes {
            let k = key(outcome.testCase)
            let (h, t) = counts[k] ?? (0, 0)
            counts[k] = (h + (outcome.hit ? 1 : 0), t + 1)
        }
        return counts.keys.sorted().map { (key: $0, hits: counts[$0]!.0, total: counts[$0]!.1) }
    }

    /// A readable summary: hit rate overall, per kind and per group, then every miss with what
    /// came first instead.
    public var summary: String {
        var lines = [String(format: "%@: %d/%d first-result hits (%.1f%%)", extract, hits, outcomes.count, 100 * hitRate)]
        lines.append("  by kind:  " + tally(by: { $0.kind.rawValue }).map { "\($0.key) \($0.hits)/\($0.total)" }.joined(separator: ", "))
        lines.append("  by group: " + tally(by: { $0.group }).map { "\($0.key) \($0.hits)/\($0.total)" }.joined(separator: ", "))
        for outcome in outcomes where !outcome.hit {
            let c = outcome.testCase
            let asked = c.query.map { "\"\($0)\"" } ?? c.coordinate.map { "\($0[0]),\($0[1])" } ?? "?"
            var wanted = [c.expect.id, c.expect.name.map { "\"\($0)\"" }].compactMap { $0 }.joined(separator: " ")
            let reverse = [c.expect.houseNumber, c.expect.street, c.expect.area].compactMap { $0 }.joined(separator: " ")
            if c.expect.id == nil { wanted = reverse }
            let got = outcome.error.map { "error \($0)" } ?? RelevanceCase.describe(outcome.first)
            lines.append("  miss \(c.id) [\(c.group)] \(c.kind.rawValue) \(asked): expected \(wanted); got \(got)")
        }
        return lines.joined(separator: "\n")
    }
}
