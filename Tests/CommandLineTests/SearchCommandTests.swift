import Foundation
import TestSupport
import XCTest

/// `openmapkit search`, `geocode` and `reverse` as a user runs them, on the Monaco bundle.
final class SearchCommandTests: XCTestCase {
    var binary: URL { Bundle.main.bundleURL.appendingPathComponent("openmapkit") }

    func run(_ arguments: [String], environment: [String: String]? = nil) throws -> ProcessResult {
        guard let environment else { return try runProcess(binary.path, arguments) }
        return try runProcess("/usr/bin/env", ["-i"] + environment.map { "\($0)=\($1)" } + [binary.path] + arguments)
    }

    func json(_ result: ProcessResult) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], result.stdout)
    }

    func testSearchPrintsPlacesAndJSON() throws {
        let bundle = try SampleBundle.monaco().path
        let text = try run(["search", "Casino de Monte Carlo", "--bundle", bundle])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.hasPrefix("1. Casino de Monte Carlo"), text.stdout)
        XCTAssertTrue(text.stdout.contains("id n4416197079"), text.stdout)

        let near = try run(["search", "pharmacy", "--near", "43.743728,7.428506", "--limit", "3", "--json", "--bundle", bundle])
        XCTAssertEqual(near.status, 0, near.stderr)
        let object = try json(near)
        XCTAssertEqual(object["query"] as? String, "pharmacy")
        let results = try XCTUnwrap(object["results"] as? [[String: Any]])
        XCTAssertFalse(results.isEmpty)
        XCTAssertLessThanOrEqual(results.count, 3)
        for result in results {
            // Apple's `Place`, as the server's /v1 answers write it.
            XCTAssertEqual(result["poiCategory"] as? String, "Pharmacy", "\(result)")
            XCTAssertEqual(result["countryCode"] as? String, "MC", "\(result)")
            let latitude = try XCTUnwrap((result["coordinate"] as? [String: Any])?["latitude"] as? Double)
            XCTAssertEqual(latitude, 43.74, accuracy: 0.03)
            XCTAssertNotNil(result["id"] as? String)
        }
        XCTAssertNotNil(object["boundingRegion"] as? [String: Any])

        // The bundle from the environment, as every verb takes it.
        let fromEnvironment = try run(["search", "Casino de Monte Carlo", "--json"], environment: ["OPENMAPKIT_BUNDLE": bundle])
        XCTAssertEqual(fromEnvironment.status, 0, fromEnvironment.stderr)
    }

    func testCompletions() throws {
        let bundle = try SampleBundle.monaco().path
        let result = try run(["search", "Casino de Mo", "--complete", "--json", "--bundle", bundle])
        XCTAssertEqual(result.status, 0, result.stderr)
        let completions = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]], result.stdout)
        let titles = completions.compactMap { $0["title"] as? String }
        XCTAssertTrue(titles.contains("Casino de Monte Carlo"), "\(titles)")
    }

    func testGeocodeAndReverse() throws {
        let bundle = try SampleBundle.monaco().path
        let geocoded = try run(["geocode", "26 Avenue de la Costa", "--json", "--bundle", bundle])
        XCTAssertEqual(geocoded.status, 0, geocoded.stderr)
        let first = try XCTUnwrap((try json(geocoded)["results"] as? [[String: Any]])?.first)
        let address = try XCTUnwrap(first["structuredAddress"] as? [String: Any])
        XCTAssertEqual(address["thoroughfare"] as? String, "Avenue de la Costa")
        XCTAssertEqual(address["subThoroughfare"] as? String, "26")

        let reversed = try run(["reverse", "43.7395091,7.4251634", "--bundle", bundle])
        XCTAssertEqual(reversed.status, 0, reversed.stderr)
        XCTAssertTrue(reversed.stdout.contains("Avenue de la Costa"), reversed.stdout)

        let reversedJSON = try run(["reverse", "43.7395091,7.4251634", "--json", "--bundle", bundle])
        let place = try XCTUnwrap((try json(reversedJSON)["results"] as? [[String: Any]])?.first)
        XCTAssertEqual(place["countryCode"] as? String, "MC")
        XCTAssertNotNil((place["formattedAddressLines"] as? [String])?.first)
    }

    func testMistakesGetOneLineReasons() throws {
        let bundle = try SampleBundle.monaco().path
        let cases: [([String], String)] = [
            (["search", "", "--bundle", bundle], "no text"),
            (["search", "cafe", "--limit", "0", "--bundle", bundle], "--limit"),
            (["search", "cafe", "--near", "95,7", "--bundle", bundle], "near"),
            (["search", "cafe", "--required", "--bundle", bundle], "--near"),
            (["search", "qqqxxzzv wwwkkj", "--bundle", bundle], "no place matches"),
            (["geocode", " ", "--bundle", bundle], "empty"),
            (["reverse", "nan,7", "--bundle", bundle], "coordinate"),
            (["reverse", "48.85,2.35", "--bundle", bundle], "no place"),
            (["search", "cafe", "--bundle", "/nonexistent/bundle"], "not a map bundle"),
        ]
        for (arguments, words) in cases {
            let result = try run(arguments)
            XCTAssertNotEqual(result.status, 0, "\(arguments)")
            XCTAssertTrue(result.stderr.contains(words), "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stdout.isEmpty, "\(arguments): \(result.stdout)")
        }
        let unset = try run(["search", "cafe"], environment: [:])
        XCTAssertNotEqual(unset.status, 0)
        XCTAssertTrue(unset.stderr.contains("OPENMAPKIT_BUNDLE"), unset.stderr)
    }
}
