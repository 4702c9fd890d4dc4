import Foundation
import MapRouting
@testable import OpenMapKit
import TestSupport
import XCTest

/// MKDirections on the Monaco bundle's road graphs: routes, steps, alternates, ETA, the
/// completion form, cancellation and every kind of bad request.
final class DirectionsTests: XCTestCase {
    // Places in Monaco, each a few metres from a street.
    static let palace = CLLocationCoordinate2D(latitude: 43.73135, longitude: 7.42005)      // Place du Palais
    static let casino = CLLocationCoordinate2D(latitude: 43.73930, longitude: 7.42770)      // Place du Casino
    static let larvotto = CLLocationCoordinate2D(latitude: 43.74781, longitude: 7.43495)    // Avenue Princesse Grace
    static let fontvieille = CLLocationCoordinate2D(latitude: 43.72885, longitude: 7.41460) // Avenue de Fontvieille

    private func request(_ from: CLLocationCoordinate2D, _ to: CLLocationCoordinate2D,
                         _ type: MKDirectionsTransportType = .automobile) -> MKDirections.Request {
        let request = MKDirections.Request()
        request.source = MKMapItem(placemark: MKPlacemark(coordinate: from))
        request.destination = MKMapItem(placemark: MKPlacemark(coordinate: to))
        request.transportType = type
        return request
    }

    private func directions(_ request: MKDirections.Request) throws -> MKDirections {
        MKDirections(request: request, dataSource: try MonacoBundle.dataSource())
    }

    private func assertFails(_ request: MKDirections.Request, _ code: MKError.Code, mentioning words: [String] = [],
                             file: StaticString = #filePath, line: UInt = #line) async throws {
        do {
            let response = try await directions(request).calculate()
            XCTFail("expected \(code), got \(response.routes.count) route(s)", file: file, line: line)
        } catch let error as MKError {
            XCTAssertEqual(error.code, code, "\(error)", file: file, line: line)
            for word in words {
                XCTAssertTrue(error.localizedDescription.lowercased().contains(word.lowercased()), "\(error.localizedDescription)",
                              file: file, line: line)
            }
        }
    }

    /// The checks every route must pass: shape, totals, and steps that chain into the shape.
    private func assertWellFormed(_ route: MKRoute, from: CLLocationCoordinate2D, to: CLLocationCoordinate2D,
                                  file: StaticString = #filePath, line: UInt = #line) {
        let coordinates = route.polyline.coordinates
        XCTAssertGreaterThan(coordinates.count, 1, file: file, line: line)
        let straight = RouteGuidance.distance(from, to)
        XCTAssertGreaterThan(route.distance, straight * 0.9, "a route shorter than the straight line", file: file, line: line)
        XCTAssertLessThan(route.distance, straight * 5, "a detour beyond belief", file: file, line: line)
        XCTAssertGreaterThan(route.expectedTravelTime, 0, file: file, line: line)
        XCTAssertLessThan(RouteGuidance.distance(coordinates[0], from), 100, "the route starts far from the source", file: file, line: line)
        XCTAssertLessThan(RouteGuidance.distance(coordinates[coordinates.count - 1], to), 100, file: file, line: line)

        let steps = route.steps
        XCTAssertGreaterThanOrEqual(steps.count, 3, file: file, line: line)
        XCTAssertEqual(steps.first?.instructions, "", file: file, line: line)
        XCTAssertTrue(steps[1].instructions.hasPrefix("Head ") || steps[1].instructions.hasPrefix("Take the ferry"),
                      steps[1].instructions, file: file, line: line)
        XCTAssertTrue(steps.last?.instructions.hasPrefix("Arrive at the destination") ?? false, file: file, line: line)
        XCTAssertEqual(steps.last?.distance, 0, file: file, line: line)
        for step in steps.dropFirst() { XCTAssertFalse(step.instructions.isEmpty, file: file, line: line) }
        var joined: [CLLocationCoordinate2D] = []
        for step in steps {
            let points = step.polyline.coordinates
            XCTAssertFalse(points.isEmpty, file: file, line: line)
            if let last = joined.last {
                XCTAssertEqual(points.first, last, "step \"\(step.instructions)\" does not start where the previous ended", file: file, line: line)
                joined += points.dropFirst()
            } else {
                joined = points
            }
            XCTAssertEqual(step.transportType, route.transportType, file: file, line: line)
        }
        XCTAssertEqual(joined, coordinates, "the steps do not trace the route", file: file, line: line)
        XCTAssertEqual(steps.reduce(0) { $0 + $1.distance }, route.distance, accuracy: max(1, route.distance * 1e-6), file: file, line: line)
    }

    func testDrivingAcrossMonacoGivesTurnByTurnSteps() async throws {
        let response = try await directions(request(Self.palace, Self.casino)).calculate()
        XCTAssertEqual(response.routes.count, 1, "alternates only when asked for")
        XCTAssertEqual(response.source.placemark.coordinate, Self.palace)
        XCTAssertEqual(response.destination.placemark.coordinate, Self.casino)
        let route = response.routes[0]
        assertWellFormed(route, from: Self.palace, to: Self.casino)
        XCTAssertEqual(route.transportType, .automobile)
        XCTAssertFalse(route.name.isEmpty, "Monaco's streets have names")
        XCTAssertFalse(route.hasHighways, "no motorway inside Monaco")
        // A drive from the Rock to Monte-Carlo turns somewhere, onto named streets.
        XCTAssertTrue(route.steps.contains { $0.instructions.hasPrefix("Turn ") || $0.instructions.hasPrefix("Keep ")
                || $0.instructions.hasPrefix("At the roundabout") }, route.steps.map(\.instructions).joined(separator: "\n"))
        XCTAssertTrue(route.steps.contains { $0.instructions.contains(" onto ") }, route.steps.map(\.instructions).joined(separator: "\n"))
        print("palace → casino by car, \(Int(route.distance)) m, \(Int(route.expectedTravelTime)) s, via \(route.name):")
        for step in route.steps { print("  \(step.instructions) (\(Int(step.distance)) m)") }
    }

    func testWalkingIsSlowerThanDrivingAndAnyMeansAutomobile() async throws {
        let walk = try await directions(request(Self.larvotto, Self.fontvieille, .walking)).calculate().routes[0]
        let drive = try await directions(request(Self.larvotto, Self.fontvieille, .automobile)).calculate().routes[0]
        let any = try await directions(request(Self.larvotto, Self.fontvieille, .any)).calculate().routes[0]
        let cycle = try await directions(request(Self.larvotto, Self.fontvieille, .cycling)).calculate().routes[0]
        assertWellFormed(walk, from: Self.larvotto, to: Self.fontvieille)
        assertWellFormed(cycle, from: Self.larvotto, to: Self.fontvieille)
        XCTAssertEqual(walk.transportType, .walking)
        XCTAssertEqual(cycle.transportType, .cycling)
        XCTAssertEqual(any.transportType, .automobile)
        XCTAssertEqual(any.distance, drive.distance, accuracy: 0.001)
        XCTAssertGreaterThan(walk.expectedTravelTime, drive.expectedTravelTime * 1.5)
        XCTAssertGreaterThan(walk.expectedTravelTime, cycle.expectedTravelTime)
        // Walking ignores oneways and may use steps and paths: never much longer than driving.
        XCTAssertLessThan(walk.distance, drive.distance * 1.2)
    }

    func testAlternateRoutesWhenAsked() async throws {
        let asked = request(Self.fontvieille, Self.larvotto)
        asked.requestsAlternateRoutes = true
        let routes = try await directions(asked).calculate().routes
        XCTAssertTrue((1...3).contains(routes.count), "\(routes.count) routes")
        for route in routes { assertWellFormed(route, from: Self.fontvieille, to: Self.larvotto) }
        // The best route comes first; the others differ from it.
        for other in routes.dropFirst() {
            XCTAssertGreaterThanOrEqual(other.expectedTravelTime, routes[0].expectedTravelTime - 0.001)
            XCTAssertNotEqual(other.polyline.coordinates, routes[0].polyline.coordinates)
        }
        let single = try await directions(request(Self.fontvieille, Self.larvotto)).calculate().routes
        XCTAssertEqual(single.count, 1)
        XCTAssertEqual(single[0].distance, routes[0].distance, accuracy: 0.001)
    }

    func testETAMatchesTheRouteAndShiftsDates() async throws {
        let route = try await directions(request(Self.palace, Self.larvotto)).calculate().routes[0]
        let departing = request(Self.palace, Self.larvotto)
        let departure = Date(timeIntervalSince1970: 1_800_000_000)
        departing.departureDate = departure
        let eta = try await directions(departing).calculateETA()
        XCTAssertEqual(eta.expectedTravelTime, route.expectedTravelTime, accuracy: max(1, route.expectedTravelTime * 0.01))
        XCTAssertEqual(eta.distance, route.distance, accuracy: max(1, route.distance * 0.01))
        XCTAssertEqual(eta.expectedDepartureDate, departure)
        XCTAssertEqual(eta.expectedArrivalDate.timeIntervalSince(departure), eta.expectedTravelTime, accuracy: 0.001)
        XCTAssertEqual(eta.transportType, .automobile)

        let arriving = request(Self.palace, Self.larvotto, .walking)
        arriving.arrivalDate = departure
        let back = try await directions(arriving).calculateETA()
        XCTAssertEqual(back.expectedArrivalDate.timeIntervalSince1970, departure.timeIntervalSince1970, accuracy: 0.001)
        XCTAssertEqual(back.expectedDepartureDate.timeIntervalSince(departure), -back.expectedTravelTime, accuracy: 0.001)
        XCTAssertEqual(back.transportType, .walking)
        XCTAssertGreaterThan(back.expectedTravelTime, eta.expectedTravelTime)

        // Neither date: leaving now.
        let now = try await directions(request(Self.palace, Self.larvotto)).calculateETA()
        XCTAssertLessThan(abs(now.expectedDepartureDate.timeIntervalSinceNow), 60)
    }

    func testCompletionHandlersRunOnTheMainQueue() throws {
        let directions = try directions(request(Self.casino, Self.palace, .walking))
        let routed = expectation(description: "routes"), timed = expectation(description: "eta")
        directions.calculate { response, error in
            XCTAssertTrue(Thread.isMainThread)
            XCTAssertNil(error)
            XCTAssertEqual(response?.routes.count, 1)
            routed.fulfill()
        }
        XCTAssertTrue(directions.isCalculating)
        wait(for: [routed], timeout: 60)
        XCTAssertFalse(directions.isCalculating)
        directions.calculateETA { eta, error in
            XCTAssertTrue(Thread.isMainThread)
            XCTAssertNil(error)
            XCTAssertGreaterThan(eta?.expectedTravelTime ?? 0, 0)
            timed.fulfill()
        }
        wait(for: [timed], timeout: 60)
    }

    func testCancelledCalculationFailsAndTheObjectRunsAgain() async throws {
        let directions = try directions(request(Self.casino, Self.palace))
        // Cancelling an idle object does nothing to the next calculation.
        directions.cancel()
        let task = Task { () async throws -> MKDirections.Response in
            withUnsafeCurrentTask { $0?.cancel() }
            return try await directions.calculate()
        }
        do {
            _ = try await task.value
            XCTFail("a cancelled calculation succeeded")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertFalse(directions.isCalculating)
        let again = try await directions.calculate()
        XCTAssertEqual(again.routes.count, 1)
    }

    func testBadRequestsFailWithMapKitErrors() async throws {
        // Transit: no timetables in OpenStreetMap.
        try await assertFails(request(Self.palace, Self.casino, .transit), .directionsNotFound, mentioning: ["timetables"])
        try await assertFails(request(Self.palace, Self.casino, []), .directionsNotFound, mentioning: ["transport type"])
        // NaN, out of range, missing and unknown-location endpoints.
        try await assertFails(request(CLLocationCoordinate2D(latitude: .nan, longitude: 7.42), Self.casino), .directionsNotFound,
                              mentioning: ["source"])
        try await assertFails(request(Self.palace, CLLocationCoordinate2D(latitude: 95, longitude: 7.42)), .directionsNotFound,
                              mentioning: ["destination"])
        let missing = MKDirections.Request()
        missing.destination = MKMapItem(placemark: MKPlacemark(coordinate: Self.casino))
        try await assertFails(missing, .directionsNotFound, mentioning: ["no source"])
        let here = request(Self.palace, Self.casino)
        here.source = MKMapItem.forCurrentLocation()
        try await assertFails(here, .directionsNotFound, mentioning: ["current location"])
        // The same place twice.
        try await assertFails(request(Self.casino, Self.casino), .directionsNotFound, mentioning: ["same place"])
        // Far out in the Mediterranean, and Paris (outside the bundle).
        try await assertFails(request(Self.palace, CLLocationCoordinate2D(latitude: 43.3, longitude: 7.8)), .directionsNotFound)
        try await assertFails(request(CLLocationCoordinate2D(latitude: 48.8566, longitude: 2.3522), Self.casino), .directionsNotFound)
        // The ETA checks the same way.
        do {
            _ = try await directions(request(Self.palace, Self.casino, .transit)).calculateETA()
            XCTFail("transit ETA")
        } catch let error as MKError {
            XCTAssertEqual(error.code, .directionsNotFound)
        }
    }

    /// A bundle made before road graphs existed (no `roads` in its manifest) and one whose graph
    /// files are damaged: a `serverFailure` that says to re-import.
    func testBundleWithoutOrWithDamagedGraphs() async throws {
        let monaco = try SampleBundle.monaco()
        let manifestData = try Data(contentsOf: monaco.appendingPathComponent("manifest.json"))
        guard var manifest = try JSONSerialization.jsonObject(with: manifestData) as? [String: Any] else { return XCTFail("manifest") }
        let roads = manifest["roads"] as? [String: String] ?? [:]
        XCTAssertFalse(roads.isEmpty, "the Monaco bundle has road graphs")
        let tiles = try XCTUnwrap(manifest["tiles"] as? String)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("directions-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }

        // Old bundle: same tiles, no graphs.
        let old = folder.appendingPathComponent("old.omk")
        try FileManager.default.createDirectory(at: old, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: old.appendingPathComponent(tiles), withDestinationURL: monaco.appendingPathComponent(tiles))
        manifest.removeValue(forKey: "roads")
        try JSONSerialization.data(withJSONObject: manifest).write(to: old.appendingPathComponent("manifest.json"))
        let oldSource = try MapDataSource(bundleURL: old)
        do {
            _ = try await MKDirections(request: request(Self.palace, Self.casino), dataSource: oldSource).calculate()
            XCTFail("routed without a graph")
        } catch let error as MKError {
            XCTAssertEqual(error.code, .serverFailure)
            XCTAssertTrue(error.localizedDescription.contains("re-import"), error.localizedDescription)
        }

        // Damaged: each graph file replaced by garbage.
        let damaged = folder.appendingPathComponent("damaged.omk")
        try FileManager.default.createDirectory(at: damaged, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: damaged.appendingPathComponent(tiles), withDestinationURL: monaco.appendingPathComponent(tiles))
        try manifestData.write(to: damaged.appendingPathComponent("manifest.json"))
        for file in Set(roads.values) { try Data(repeating: 0x5A, count: 4096).write(to: damaged.appendingPathComponent(file)) }
        do {
            _ = try await MKDirections(request: request(Self.palace, Self.casino), dataSource: try MapDataSource(bundleURL: damaged)).calculate()
            XCTFail("routed on a damaged graph")
        } catch let error as MKError {
            XCTAssertEqual(error.code, .serverFailure)
            XCTAssertTrue(error.localizedDescription.contains("re-import"), error.localizedDescription)
        }
    }

    /// A graph file written by another version of the format, and a bundle with graphs for some
    /// modes only: `serverFailure` naming the cause; the modes that have data still route.
    func testGraphFromAnotherVersionAndAModeWithoutData() async throws {
        let monaco = try SampleBundle.monaco()
        let manifestData = try Data(contentsOf: monaco.appendingPathComponent("manifest.json"))
        guard var manifest = try JSONSerialization.jsonObject(with: manifestData) as? [String: Any],
              var roads = manifest["roads"] as? [String: String], let tiles = manifest["tiles"] as? String else { return XCTFail("manifest") }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("directions-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundle = folder.appendingPathComponent("mixed.omk")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: bundle.appendingPathComponent(tiles), withDestinationURL: monaco.appendingPathComponent(tiles))
        // Walking: the real file with another format version in its header. Cycling: none.
        let walking = try XCTUnwrap(roads["walking"]), automobile = try XCTUnwrap(roads["automobile"])
        var data = try Data(contentsOf: monaco.appendingPathComponent(walking))
        data[8] = 0xEE
        try data.write(to: bundle.appendingPathComponent(walking))
        try FileManager.default.createSymbolicLink(at: bundle.appendingPathComponent(automobile),
                                                   withDestinationURL: monaco.appendingPathComponent(automobile))
        roads.removeValue(forKey: "cycling")
        manifest["roads"] = roads
        try JSONSerialization.data(withJSONObject: manifest).write(to: bundle.appendingPathComponent("manifest.json"))
        let source = try MapDataSource(bundleURL: bundle)
        func failure(_ type: MKDirectionsTransportType) async -> MKError? {
            do {
                _ = try await MKDirections(request: request(Self.palace, Self.casino, type), dataSource: source).calculate()
                return nil
            } catch {
                return error as? MKError
            }
        }
        let version = await failure(.walking)
        XCTAssertEqual(version?.code, .serverFailure)
        XCTAssertTrue(version?.localizedDescription.contains("another version") ?? false, "\(String(describing: version))")
        XCTAssertTrue(version?.localizedDescription.contains("re-import") ?? false, "\(String(describing: version))")
        let cycling = await failure(.cycling)
        XCTAssertEqual(cycling?.code, .serverFailure)
        XCTAssertTrue(cycling?.localizedDescription.contains("cycling") ?? false, "\(String(describing: cycling))")
        let car = try await MKDirections(request: request(Self.palace, Self.casino), dataSource: source).calculate()
        XCTAssertEqual(car.routes.count, 1)
    }

    /// `cancel()` on a running completion-handler calculation: the handler gets CancellationError.
    func testCancelStopsARunningCalculation() throws {
        let walk = request(Self.fontvieille, Self.larvotto, .walking)
        walk.requestsAlternateRoutes = true
        let directions = try directions(walk)
        let done = expectation(description: "cancelled")
        directions.calculate { response, error in
            XCTAssertNil(response)
            XCTAssertTrue(error is CancellationError, "\(String(describing: error))")
            done.fulfill()
        }
        directions.cancel()
        wait(for: [done], timeout: 60)
        XCTAssertFalse(directions.isCalculating)
    }

    /// The README's example runs as shown (through the default data source) and is still shown.
    func testReadmeExampleRuns() async throws {
        MapDataSource.default = try MonacoBundle.dataSource()
        defer { MapDataSource.default = nil }
        // README directions begin
        let request = MKDirections.Request()
        request.source = MKMapItem(placemark: MKPlacemark(coordinate: CLLocationCoordinate2D(latitude: 43.73135, longitude: 7.42005)))
        request.destination = MKMapItem(placemark: MKPlacemark(coordinate: CLLocationCoordinate2D(latitude: 43.7393, longitude: 7.4277)))
        request.transportType = .automobile
        let route = try await MKDirections(request: request).calculate().routes[0]
        let eta = try await MKDirections(request: request).calculateETA()   // distance, time, departure and arrival dates
        // README directions end
        XCTAssertEqual(eta.distance, route.distance, accuracy: max(1, route.distance * 0.01))
        XCTAssertEqual(route.steps.first?.instructions, "")

        let readme = try String(contentsOf: TestData.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let begin = try XCTUnwrap(source.range(of: "// README directions begin\n")), end = try XCTUnwrap(source.range(of: "// README directions end"))
        let lines = source[begin.upperBound..<end.lowerBound].split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertEqual(lines.filter { !$0.isEmpty }.count, 6)
        for line in lines where !line.isEmpty {
            XCTAssertTrue(readme.contains(line), "README lacks: \(line)")
        }
    }

    func testRequestFromAMapsDirectionsURL() throws {
        let url = try XCTUnwrap(URL(string: "https://maps.apple.com/directions?source=43.73135,7.42005&destination=43.7393,7.4277&mode=walking&avoid=tolls"))
        XCTAssertTrue(MKDirections.Request.isDirectionsRequest(url))
        let request = MKDirections.Request(contentsOf: url)
        XCTAssertEqual(request.source?.placemark.coordinate, Self.palace)
        XCTAssertEqual(request.destination?.placemark.coordinate, Self.casino)
        XCTAssertEqual(request.transportType, .walking)
        XCTAssertEqual(request.tollPreference, .avoid)
        XCTAssertEqual(request.highwayPreference, .any)

        let here = try XCTUnwrap(URL(string: "https://maps.apple.com/directions?destination=Casino%20de%20Monte-Carlo"))
        let fromHere = MKDirections.Request(contentsOf: here)
        XCTAssertTrue(fromHere.source?.isCurrentLocation ?? false)
        XCTAssertEqual(fromHere.destination?.name, "Casino de Monte-Carlo")
        XCTAssertEqual(fromHere.transportType, .any)

        let frame = try XCTUnwrap(URL(string: "https://maps.apple.com/frame?center=43.73,7.42"))
        XCTAssertFalse(MKDirections.Request.isDirectionsRequest(frame))
        XCTAssertNil(MKDirections.Request(contentsOf: frame).destination)
        XCTAssertFalse(MKDirections.Request.isDirectionsRequest(URL(fileURLWithPath: "/tmp/x")))
    }

    func testTransportTypeRawValuesMatchMapKit() {
        XCTAssertEqual(MKDirectionsTransportType.automobile.rawValue, 1)
        XCTAssertEqual(MKDirectionsTransportType.walking.rawValue, 2)
        XCTAssertEqual(MKDirectionsTransportType.transit.rawValue, 4)
        XCTAssertEqual(MKDirectionsTransportType.cycling.rawValue, 8)
        XCTAssertEqual(MKDirectionsTransportType.any.rawValue, 0x0FFF_FFFF)
        XCTAssertEqual(MKDirections.RoutePreference.avoid.rawValue, 1)
        let request = MKDirections.Request()
        XCTAssertEqual(request.transportType, .any)
        XCTAssertEqual(request.tollPreference, .any)
        XCTAssertFalse(request.requestsAlternateRoutes)
        XCTAssertEqual(try DirectionsEngine.mode(for: [.walking, .cycling]), .walking)
        XCTAssertEqual(try DirectionsEngine.mode(for: [.cycling, .transit]), .cycling)
    }
}
