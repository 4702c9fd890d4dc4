import Foundation
import MapBundle
import MapSearch
import TestSupport
import XCTest

/// The relevance suite (Relevance/*.json, README there): for each sample extract, queries a person
/// would type — towns, streets, addresses, POIs by name and category, prefixes, misspellings,
/// diacritics, other-language names, reverse geocoding — each with the place expected first.
/// Each test imports its extract once, runs every case through `PlaceIndex`, prints the hit rate
/// per kind and group with every miss, and compares the misses with the exact list below.
///
/// Liechtenstein's extract (with Autauga County, Alabama) takes minutes of CPU to import whole in a
/// debug build, so its test imports the place index alone (`SampleBundle.liechtensteinPlaces`).
final class RelevanceTests: XCTestCase {
    /// The cases each extract misses today, by id: a ratchet, not a floor. A new miss fails the
    /// test (a ranking regression), and so does a listed case that starts passing (take it off the
    /// list, so it cannot silently regress again). Whether a miss is the engine's or the case's is
    /// settled by the OSM data (Relevance/README.md, "Changing the suite").
    static let knownMisses: [String: [String]] = [
        "monaco": ["monaco-031", "monaco-032", "monaco-061"],
        "andorra": [],
        "liechtenstein": ["liechtenstein-058"],  // a typo in the second word of two: "Lichtenstein" finds nothing
    ]

    func testMonacoRelevance() throws {
        try check("monaco", bundle: SampleBundle.monaco())
    }

    func testAndorraRelevance() throws {
        try check("andorra", bundle: SampleBundle.andorra())
    }

    func testLiechtensteinRelevance() throws {
        try check("liechtenstein", bundle: SampleBundle.liechtensteinPlaces())
    }

    /// The suite files themselves: every case can run and names what it expects, ids are unique,
    /// and each extract has the groups the issue asks for.
    func testSuiteFilesAreWellFormed() throws {
        XCTAssertEqual(RelevanceSuite.extracts, ["andorra", "liechtenstein", "monaco"])
        var ids = Set<String>()
        for extract in RelevanceSuite.extracts {
            let suite = try RelevanceSuite.load(extract)
            XCTAssertEqual(suite.extract, extract)
            XCTAssertTrue(FileManager.default.fileExists(atPath: TestData.shared(suite.pbf).path), suite.pbf)
            XCTAssertGreaterThanOrEqual(suite.cases.count, 40, extract)
            for c in suite.cases {
                XCTAssertTrue(ids.insert(c.id).inserted, "duplicate case id \(c.id)")
                switch c.kind {
                case .reverse:
                    XCTAssertEqual(c.coordinate?.count, 2, c.id)
                    XCTAssertTrue(c.expect.street != nil || c.expect.area != nil, c.id)
                case .search, .geocode, .complete:
                    XCTAssertFalse((c.query ?? "").trimmingCharacters(in: .whitespaces).isEmpty, c.id)
                    XCTAssertNotNil(c.expect.id, c.id)
                    XCTAssertTrue(c.expect.id.map { $0.range(of: #"^[nwr][0-9]+$"#, options: .regularExpression) != nil } ?? false, c.id)
                }
            }
            let groups = Set(suite.cases.map(\.group))
            for wanted in ["town", "street", "poi", "category", "prefix", "typo", "diacritics", "language", "reverse-road"] {
                XCTAssertTrue(groups.contains(wanted), "\(extract) has no \(wanted) case")
            }
        }
    }

    private func check(_ extract: String, bundle url: URL) throws {
        let suite = try RelevanceSuite.load(extract)
        let bundle = try MapBundle(url: url)
        let index = try PlaceIndex(url: bundle.placesURL)
        let report = RelevanceReport(suite: suite, index: index)
        print(report.summary)
        let known = try XCTUnwrap(Self.knownMisses[extract], "no miss list for \(extract)")
        let misses = report.outcomes.filter { !$0.hit }.map(\.testCase.id)
        XCTAssertEqual(misses, known, "\(extract): the misses changed (new misses fail; new hits come off the list)\n" + report.summary)
        XCTAssertEqual(report.hits, report.outcomes.count - known.count)
        XCTAssertTrue(report.outcomes.allSatisfy { $0.error == nil },
                      "queries failed: " + report.outcomes.compactMap(\.error).joined(separator: "; "))
    }
}
