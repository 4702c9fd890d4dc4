import Foundation
import TestSupport
import XCTest

/// `openmapkit route` and `openmapkit eta` as a user runs them, on the Monaco bundle.
final class RouteCommandTests: XCTestCase {
    var binary: URL { Bundle.main.bundleURL.appendingPathComponent("openmapkit") }
    let palace = "43.73135,7.42005", casino = "43.7393,7.4277", larvotto = "43.74781,7.43495"

    func run(_ arguments: [String]) throws -> ProcessResult {
        try runProcess(binary.path, arguments)
    }

    func json(_ result: ProcessResult) throws -> [String: Any] {
        XCTAssertEqual(result.status, 0, result.stderr)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], result.stdout)
    }

    func testRouteTextAndJSON() throws {
        let bundle = try SampleBundle.monaco().path
        let text = try run(["route", palace, casino, "--bundle", bundle])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.hasPrefix("Route 1"), text.stdout)
        XCTAssertTrue(text.stdout.contains("(automobile)"), text.stdout)
        XCTAssertTrue(text.stdout.contains("- Head "), text.stdout)
        XCTAssertTrue(text.stdout.contains("- Arrive at the destination"), text.stdout)
        XCTAssertFalse(text.stdout.contains("Route 2"), "alternates only with --alternatives")

        let output = try json(run(["route", palace, casino, "--bundle", bundle, "--mode", "walking", "--json"]))
        let routes = try XCTUnwrap(output["routes"] as? [[String: Any]])
        XCTAssertEqual(routes.count, 1)
        let route = routes[0]
        XCTAssertEqual(route["transportType"] as? String, "walking")
        let distance = try XCTUnwrap(route["distance"] as? Double)
        XCTAssertGreaterThan(distance, 500)
        let steps = try XCTUnwrap(route["steps"] as? [[String: Any]])
        XCTAssertEqual(steps.first?["instructions"] as? String, "")
        XCTAssertEqual(steps.compactMap { $0["distance"] as? Double }.reduce(0, +), distance, accuracy: 1)
        let coordinates = try XCTUnwrap(route["coordinates"] as? [[Double]])
        XCTAssertGreaterThan(coordinates.count, 2)
        XCTAssertEqual(coordinates[0][0], 43.73135, accuracy: 0.001)
        XCTAssertEqual((output["source"] as? [String: Any])?["latitude"] as? Double, 43.73135)

        let alternatives = try json(run(["route", "43.72885,7.4146", larvotto, "--bundle", bundle, "--alternatives", "--json"]))
        let count = (alternatives["routes"] as? [Any])?.count ?? 0
        XCTAssertTrue((1...3).contains(count), "\(count) routes")
    }

    func testPlaceNamesAreGeocoded() throws {
        let bundle = try SampleBundle.monaco().path
        let output = try json(run(["route", "Casino de Monte-Carlo", larvotto, "--bundle", bundle, "--mode", "walking", "--json"]))
        let source = try XCTUnwrap(output["source"] as? [String: Any])
        XCTAssertTrue((source["name"] as? String ?? "").contains("Casino"), "\(source)")
        // The casino is on Place du Casino, a few hundred metres from the Larvotto point.
        let latitude = try XCTUnwrap(source["latitude"] as? Double), longitude = try XCTUnwrap(source["longitude"] as? Double)
        XCTAssertEqual(latitude, 43.7395, accuracy: 0.002)
        XCTAssertEqual(longitude, 7.4280, accuracy: 0.002)
        XCTAssertEqual((output["routes"] as? [Any])?.count, 1)

        let unknown = try run(["eta", "Nowhereville Xyzzy", larvotto, "--bundle", bundle])
        XCTAssertNotEqual(unknown.status, 0)
        XCTAssertTrue(unknown.stderr.contains("no place called"), unknown.stderr)
    }

    func testETADepartAndArrive() throws {
        let bundle = try SampleBundle.monaco().path
        let depart = try json(run(["eta", palace, larvotto, "--bundle", bundle, "--depart", "2027-01-15T08:00:00Z", "--json"]))
        XCTAssertEqual(depart["expectedDepartureDate"] as? String, "2027-01-15T08:00:00Z")
        let time = try XCTUnwrap(depart["expectedTravelTime"] as? Double)
        XCTAssertGreaterThan(time, 30)
        let formatter = ISO8601DateFormatter()
        let arrival = try XCTUnwrap(formatter.date(from: depart["expectedArrivalDate"] as? String ?? ""))
        XCTAssertEqual(arrival.timeIntervalSince(formatter.date(from: "2027-01-15T08:00:00Z")!), time, accuracy: 1)

        let arrive = try json(run(["eta", palace, larvotto, "--bundle", bundle, "--mode", "cycling", "--arrive", "2027-01-15T08:00:00Z", "--json"]))
        XCTAssertEqual(arrive["expectedArrivalDate"] as? String, "2027-01-15T08:00:00Z")
        XCTAssertEqual(arrive["transportType"] as? String, "cycling")

        let text = try run(["eta", palace, larvotto, "--bundle", bundle])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.contains("(automobile)") && text.stdout.contains("arrive"), text.stdout)
    }

    func testMistakesGetOneLineReasons() throws {
        let bundle = try SampleBundle.monaco().path
        func fails(_ arguments: [String], mentioning word: String, file: StaticString = #filePath, line: UInt = #line) throws {
            let result = try run(arguments + ["--bundle", bundle])
            XCTAssertNotEqual(result.status, 0, result.stdout, file: file, line: line)
            XCTAssertTrue(result.stderr.lowercased().contains(word.lowercased()), result.stderr, file: file, line: line)
            XCTAssertFalse(result.stderr.contains("Fatal error"), result.stderr, file: file, line: line)
        }
        try fails(["route", palace, casino, "--mode", "transit"], mentioning: "timetables")
        try fails(["route", "91,7.42", casino], mentioning: "not a valid coordinate")
        try fails(["route", "nan,7.42", casino], mentioning: "not a valid coordinate")
        try fails(["route", palace, palace], mentioning: "same place")
        try fails(["route", palace, "43.3,7.8"], mentioning: "road")
        try fails(["eta", palace, casino, "--depart", "tomorrow"], mentioning: "--depart")
        try fails(["route", palace, casino, "--mode", "boat"], mentioning: "mode")

        let noBundle = try run(["route", palace, casino, "--bundle", "/nonexistent/bundle.omk"])
        XCTAssertNotEqual(noBundle.status, 0)
        XCTAssertTrue(noBundle.stderr.contains("manifest") || noBundle.stderr.contains("bundle"), noBundle.stderr)
    }
}
