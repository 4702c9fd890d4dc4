import XCTest
import MapGeometry
import MapBundle
import MapImport
import TestSupport
@testable import MapSearch

/// The place index of the real Monaco extract, as `openmapkit import` builds it.
final class MonacoSearchTests: XCTestCase {
    nonisolated(unsafe) static var shared: PlaceIndex?

    func index() throws -> PlaceIndex {
        if let index = Self.shared { return index }
        let bundle = try MapBundle(url: SampleBundle.monaco())
        XCTAssertEqual(bundle.manifest.places, "places.sqlite")
        XCTAssertGreaterThan(bundle.manifest.report.places, 1000)
        XCTAssertGreaterThan(bundle.manifest.report.placeIndexBytes, 100_000)
        XCTAssertTrue(bundle.manifest.report.phases.contains { $0.phase == ImportPhase.places.rawValue })
        let index = try PlaceIndex(url: bundle.placesURL)
        Self.shared = index
        return index
    }

    func testCasinoFindsTheCasinoDeMonteCarlo() throws {
        let results = try index().search(PlaceQuery(text: "Casino"))
        // The landmark (OSM spells it "Casino de Monte Carlo") before the supermarket called "Casino".
        let casino = try XCTUnwrap(results.first).record
        XCTAssertEqual(casino.name, "Casino de Monte Carlo", "\(results.map(\.record.displayName))")
        XCTAssertEqual(casino.kind, .pointOfInterest)
        XCTAssertEqual(casino.osmClass, "amenity=casino")
        XCTAssertEqual(casino.address.countryCode, "MC")
        XCTAssertEqual(casino.timeZone, "Europe/Monaco")
        // Its German name, a typo, and completion of a prefix find it too.
        XCTAssertEqual(try index().search(PlaceQuery(text: "Kasino Monte Carlo")).first?.record.id, casino.id)
        XCTAssertEqual(try index().search(PlaceQuery(text: "Casnio de Monte Carlo")).first?.record.id, casino.id)
        let completions = try index().complete(PlaceQuery(text: "casino de mon"), includeQuerySuggestions: false)
        XCTAssertEqual(completions.first?.record?.id, casino.id)
        XCTAssertEqual(completions.first?.titleHighlights.first, NSRange(location: 0, length: 6))
    }

    func testAvenueDeLaCostaFindsTheStreetWithAbbreviations() throws {
        for text in ["Avenue de la Costa", "av. de la costa", "AVENUE DE LA COSTA, Monaco", "avenue costa"] {
            let first = try XCTUnwrap(try index().search(PlaceQuery(text: text)).first, text)
            XCTAssertEqual(first.record.kind, .street, text)
            XCTAssertEqual(first.record.name, "Avenue de la Costa", text)
            XCTAssertFalse(first.record.alternateIDs.isEmpty, "its ways are merged into one street")
        }
    }

    func testHouseNumberOnAStreet() throws {
        for text in ["26 Avenue Princesse Grace", "Avenue Princesse Grace 26"] {
            let first = try XCTUnwrap(try index().search(PlaceQuery(text: text)).first, text)
            XCTAssertEqual(first.record.address.houseNumber, "26", text)
            XCTAssertEqual(first.record.address.street, "Avenue Princesse Grace", text)
        }
    }

    func testReverseGeocodeInTheHarbour() throws {
        // Port Hercule, on the quay.
        let results = try index().reverse(CLLocationCoordinate2D(latitude: 43.7350, longitude: 7.4222), limit: 3)
        let first = try XCTUnwrap(results.first)
        XCTAssertEqual(first.record.address.locality, "Monaco")
        XCTAssertEqual(first.record.address.countryCode, "MC")
        XCTAssertEqual(first.record.address.country, "Monaco")
        XCTAssertLessThanOrEqual(try XCTUnwrap(first.distance), PlaceIndex.reverseStreetRadius)
    }

    func testReverseGeocodeOnABuildingGivesItsAddress() throws {
        // Beside the address node of 7 Rue du Gabian (Fontvieille).
        let gabian = try XCTUnwrap(try index().search(PlaceQuery(text: "7 rue du gabian")).first).record
        XCTAssertEqual(gabian.address.houseNumber, "7")
        let nearby = CLLocationCoordinate2D(latitude: gabian.coordinate.latitude + 0.00005, longitude: gabian.coordinate.longitude)
        let first = try XCTUnwrap(try index().reverse(nearby).first)
        XCTAssertEqual(first.record.kind, .address)
        XCTAssertEqual(first.record.address.street, "Rue du Gabian")
        XCTAssertEqual(first.record.address.subLocality, "Fontvieille")
    }

    func testCafeReturnsCafes() throws {
        let region = MKCoordinateRegion(center: CLLocationCoordinate2D(latitude: 43.7397, longitude: 7.4270),
                                        span: MKCoordinateSpan(latitudeDelta: 0.02, longitudeDelta: 0.02))
        let results = try index().search(PlaceQuery(text: "cafe", region: region))
        XCTAssertGreaterThanOrEqual(results.count, 5)
        for match in results.prefix(5) {
            XCTAssertEqual(match.record.category, "MKPOICategoryCafe", match.record.displayName)
        }
        let pois = try index().pointsOfInterest(in: region, includedCategories: ["MKPOICategoryRestaurant"], excludedCategories: [], limit: 20)
        XCTAssertEqual(pois.count, 20)
        XCTAssertTrue(pois.allSatisfy { $0.category == "MKPOICategoryRestaurant" })
    }

    func testCategoryNearAPlace() throws {
        let results = try index().search(PlaceQuery(text: "restaurant in Fontvieille"))
        XCTAssertFalse(results.isEmpty)
        for match in results {
            XCTAssertEqual(match.record.category, "MKPOICategoryRestaurant")
            XCTAssertEqual(match.record.coordinate.latitude, 43.728, accuracy: 0.01, match.record.displayName)
        }
    }

    func testPostalCodeIsAPlace() throws {
        let first = try XCTUnwrap(try index().search(PlaceQuery(text: "98000")).first)
        XCTAssertEqual(first.record.kind, .postalCode)
        XCTAssertEqual(first.record.address.postalCode, "98000")
        XCTAssertEqual(first.record.coordinate.latitude, 43.735, accuracy: 0.02)
    }

    func testHostileQueriesOnARealIndex() throws {
        for text in ["\"", "casino\" OR name:*", "NEAR(casino monaco, 2)", "'; DELETE FROM places; --", "casino AND NOT monaco",
                     String(repeating: "a", count: 100_000), "\u{202E}\u{0}\u{FEFF}", "🎰 casino 🎰"] {
            XCTAssertNoThrow(try index().search(PlaceQuery(text: text)), String(text.prefix(30)))
            XCTAssertNoThrow(try index().complete(PlaceQuery(text: text), includeQuerySuggestions: true), String(text.prefix(30)))
        }
        XCTAssertFalse(try index().search(PlaceQuery(text: "🎰 casino 🎰")).isEmpty)
    }

    /// Addresses and names the data does not have find nothing, typo correction included (it
    /// rewrites each unknown word to indexed words one or two edits away and tries again), while a
    /// misspelt real street still answers. (MKGeocodingRequest then retries without the house
    /// numbers, streets only; OpenMapKitTests cover that.)
    func testUnknownAddressesFindNothing() throws {
        let unknown = ["Qwxzv Plkjhg Zzyzx", "qqqxxzzv wwwkkj", "99 Rue Qwxzv", "Zzyzx Road 12 in Qwxzv",
                       "12 Xkqwrtz Boulevard, 98000 Monaco", "Avenue Qwxzvbnm 26", "Wxqzq"]
        for text in unknown {
            XCTAssertEqual(try index().search(PlaceQuery(text: text)).map(\.record.id), [], text)
            XCTAssertEqual(try index().complete(PlaceQuery(text: text), includeQuerySuggestions: false).compactMap(\.record?.id), [], text)
        }
        XCTAssertEqual(try index().search(PlaceQuery(text: "Avenue de la Cotsa")).first?.record.name, "Avenue de la Costa")
    }

    /// A long typed prefix is matched as the indexed words it begins, which FTS5 reads lazily
    /// instead of merging every list first: the same places, in the same order.
    func testPrefixExpansionMatchesWhatThePrefixMatches() throws {
        let index = try index()
        for text in ["casi", "boulev", "prin", "avenue de la cost", "monte-carl", "qwxz"] {
            let words = try XCTUnwrap(ParsedQuery(text)).subject
            let (expansions, asPrefix, expanded) = try index.read { db in
                let expansions = try index.prefixExpansions(db, words: words, prefixLast: true, alternatives: [:])
                let sql = "SELECT rowid FROM place_fts WHERE place_fts MATCH ? ORDER BY rowid"
                return (expansions,
                        try Int64.fetchAll(db, sql: sql, arguments: [MatchExpression.make(words, prefixLast: true)]),
                        try Int64.fetchAll(db, sql: sql, arguments: [MatchExpression.make(words, prefixLast: true, expansions: expansions)]))
            }
            XCTAssertEqual(expanded, asPrefix, text)
            if text == "qwxz" {
                XCTAssertTrue(expansions.isEmpty && asPrefix.isEmpty)
            } else {
                XCTAssertFalse(asPrefix.isEmpty, text)
                XCTAssertFalse(expansions.isEmpty, text)
            }
        }
    }

    /// The ways a region search finds its full-text matches agree: through the set of the
    /// region's places (R*Tree), by joining each match to its row, and (for words few places
    /// have) by listing every match once.
    func testRegionMatchesAgreeWithTheJoin() throws {
        let index = try index()
        let region = Box(around: CLLocationCoordinate2D(latitude: 43.7384, longitude: 7.4246), meters: 700)
        for text in ["a", "re", "casino", "avenue", "rue gr"] {
            let expression = try XCTUnwrap(MatchExpression.make(try XCTUnwrap(ParsedQuery(text)).subject, prefixLast: true))
            // Monaco's words have fewer places than the threshold: lower it so the set is used,
            // and check that the default leaves these to the join.
            let (viaSet, viaDefault, viaJoin) = try index.read { db in
                (try index.regionMatches(db, expression: expression, region: region, kinds: nil, fewMatches: 0),
                 try index.regionMatches(db, expression: expression, region: region, kinds: nil),
                 try Int64.fetchAll(db, sql: """
                    SELECT p.ord FROM (SELECT rowid AS ord FROM place_fts WHERE place_fts MATCH ? ORDER BY rowid LIMIT \(PlaceIndex.regionScanLimit)) f
                    JOIN places p ON p.ord = f.ord WHERE p.lat BETWEEN ? AND ? AND p.lon BETWEEN ? AND ?
                    ORDER BY f.ord LIMIT \(PlaceIndex.candidateLimit)
                    """, arguments: [expression, region.south, region.north, region.west, region.east]))
            }
            guard case .inRegion(let inRegion) = viaSet, case .all(let every) = viaDefault else {
                return XCTFail("\(text): \(viaSet), \(viaDefault)")
            }
            XCTAssertEqual(inRegion, viaJoin, text)
            XCTAssertFalse(viaJoin.isEmpty, text)
            // The few-match answer is every match, which the search then tests against the region.
            let matchCount = try index.read { db in
                try Int.fetchOne(db, sql: "SELECT count(*) FROM place_fts WHERE place_fts MATCH ?", arguments: [expression])
            }
            XCTAssertEqual(every.count, matchCount, text)
            XCTAssertTrue(Set(viaJoin).isSubset(of: Set(every)), text)
        }
    }

    /// The rest of the bad-input list: "near"/"in" with nothing around them, bare FTS5
    /// operators, numbers longer than any house number, limits out of range, and the largest
    /// region there is.
    func testOperatorsLimitsAndEdgesOfTheWorld() throws {
        for text in ["near", "in", "near near", "casino in", "in monaco", "near me", "*", "-", ":", "AND", "OR NOT", "NEAR(",
                     "a:b:c", "\"\"\"", "12345678901234567890", "\u{0}in\u{0}monaco", "casino NEAR/3 monte", "casino^2"] {
            XCTAssertNoThrow(try index().search(PlaceQuery(text: text)), text)
            XCTAssertNoThrow(try index().complete(PlaceQuery(text: text), includeQuerySuggestions: true), text)
        }
        let casino = CLLocationCoordinate2D(latitude: 43.7393, longitude: 7.4278)
        XCTAssertLessThanOrEqual(try index().reverse(casino, limit: .max).count, 100)
        XCTAssertTrue(try index().reverse(casino, limit: -1).isEmpty)
        XCTAssertTrue(try index().reverse(casino, limit: 0).isEmpty)
        var negative = PlaceQuery(text: "casino")
        negative.limit = -5
        XCTAssertTrue(try index().search(negative).isEmpty)
        XCTAssertTrue(try index().complete(negative, includeQuerySuggestions: true).isEmpty)
        var everything = PlaceQuery(text: "rue")
        everything.limit = .max
        XCTAssertFalse(try index().search(everything).isEmpty)
        XCTAssertFalse(try index().complete(everything, includeQuerySuggestions: true).isEmpty)
        let world = MKCoordinateRegion(center: CLLocationCoordinate2D(latitude: 0, longitude: 0),
                                       span: MKCoordinateSpan(latitudeDelta: 180, longitudeDelta: 360))
        XCTAssertFalse(try index().search(PlaceQuery(text: "casino", region: world)).isEmpty)
        XCTAssertTrue(try index().pointsOfInterest(in: world, includedCategories: nil, excludedCategories: [], limit: -1).isEmpty)
        XCTAssertLessThanOrEqual(try index().pointsOfInterest(in: world, includedCategories: nil, excludedCategories: [], limit: .max).count,
                                 10_000)
        for pole in [CLLocationCoordinate2D(latitude: 90, longitude: 180), CLLocationCoordinate2D(latitude: -90, longitude: -180)] {
            XCTAssertTrue(try index().reverse(pole).isEmpty, "\(pole)")
        }
        for bad in [CLLocationCoordinate2D(latitude: .infinity, longitude: 0), CLLocationCoordinate2D(latitude: 0, longitude: -.nan),
                    CLLocationCoordinate2D(latitude: 0, longitude: 180.000001)] {
            XCTAssertThrowsError(try index().reverse(bad)) {
                guard case .invalidQuery = $0 as? PlaceIndexError else { return XCTFail("\($0)") }
            }
        }
    }
}
