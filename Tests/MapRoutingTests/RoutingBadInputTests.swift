import XCTest
import MapBundle
import MapGeometry
import MapFormats
@testable import MapImport
@testable import MapRouting
import TestSupport

/// Hostile and awkward queries: cancellation, islands, private roads, points far from roads, and
/// the profile's minor service ways. Each asserts the typed error (or the documented fallback).
final class RoutingBadInputTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("routing-bad-input-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(at: folder) }

    /// Nodes on a grid of 0.001° (about 110 m): id → (row, column); ways open to cars at the given speeds.
    func build(_ grid: [Int64: (Int, Int)], ways: [(Int64, [Int64], String, Float, Float)]) throws -> RoadGraph {
        let network = RoadNetwork()
        for (id, nodes, name, forward, backward) in ways {
            network.addWay(id: id, nodes: nodes, info: RoadNetwork.WayInfo(name: name, ref: nil, roadClass: "residential"),
                           access: [.automobile: RoadNetwork.Access(forwardSpeed: forward, backwardSpeed: backward)])
        }
        for (id, (r, c)) in grid { network.setLocation(id, latitudeE7: Int32(r * 10_000), longitudeE7: Int32(c * 10_000)) }
        let url = folder.appendingPathComponent(UUID().uuidString + ".graph")
        try RoadGraphBuilder(mode: .automobile).build(network, to: url)
        return try RoadGraph(url: url)
    }

    func at(_ r: Double, _ c: Double) -> CLLocationCoordinate2D { CLLocationCoordinate2D(latitude: r * 0.001, longitude: c * 0.001) }

    func monaco(_ mode: TravelMode) throws -> RoadGraph {
        try RoadGraph(url: MapBundle(url: SampleBundle.monaco()).roadGraphURL(for: mode))
    }

    /// A cancelled query stops with `.cancelled` — also inside the searches, polled as they run.
    func testCancelledQueriesStop() throws {
        let car = try monaco(.automobile)
        let casino = CLLocationCoordinate2D(latitude: 43.7396, longitude: 7.4276)
        let fontvieille = CLLocationCoordinate2D(latitude: 43.7290, longitude: 7.4150)
        XCTAssertThrowsError(try car.route(from: casino, to: fontvieille, isCancelled: { true })) { error in
            guard case RoutingError.cancelled = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try car.travelTime(from: casino, to: fontvieille, isCancelled: { true })) { error in
            guard case RoutingError.cancelled = error else { return XCTFail("\(error)") }
        }
        // Cancelled while running: the flag goes up after the first poll, inside the alternatives'
        // Dijkstra searches (the longest part of this query).
        var polls = 0
        var options = RouteOptions()
        options.alternatives = 3
        XCTAssertThrowsError(try car.route(from: casino, to: fontvieille, options: options, isCancelled: {
            polls += 1
            return polls > 2
        })) { error in
            guard case RoutingError.cancelled = error else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(polls, 3, "the searches stop at the first poll that says cancelled")
        // Not cancelled: the same query answers.
        XCTAssertFalse(try car.route(from: casino, to: fontvieille, options: options, isCancelled: { false }).isEmpty)
    }

    /// The destination lies on a tiny island (a car park's road) nearer than the main road: the
    /// route goes to the main road instead of failing. A far island still has no route.
    func testIslandsSnapToTheConnectedNetwork() throws {
        let graph = try build([1: (0, 0), 7: (0, 15), 2: (0, 20), 8: (-5, 15), 3: (1, 8), 4: (1, 12), 5: (30, 0), 6: (30, 4)], ways: [
            (10, [1, 7, 2], "Main Street", 50, 50),
            (13, [7, 8], "Side Street", 50, 50),
            (11, [3, 4], "Car Park", 20, 20),      // 110 m north of Main Street, joined to nothing
            (12, [5, 6], "Far Island", 20, 20),    // 3.3 km north
        ])
        let routes = try graph.route(from: at(0, 2), to: at(0.9, 10))
        XCTAssertEqual(routes[0].segments.map { $0.name ?? "" }, ["Main Street"])
        XCTAssertEqual(routes[0].coordinates.last!.latitude, 0, accuracy: 1e-7, "the end moved onto Main Street")
        XCTAssertEqual(try graph.travelTime(from: at(0, 2), to: at(0.9, 10)).distance, routes[0].distance, accuracy: 0.5)
        // Both ends on the island still route on it.
        XCTAssertEqual(try graph.route(from: at(1, 9), to: at(1, 11))[0].segments.map { $0.name ?? "" }, ["Car Park"])
        XCTAssertThrowsError(try graph.route(from: at(0, 2), to: at(30, 2))) { error in
            guard case RoutingError.noRoute(let message) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("not connected"), message)
        }
    }

    /// A point on a private road (closed to cars, so not in the car graph) snaps to the public
    /// road when one is near, and is `.noRoadNearby` deep inside a large private estate.
    func testPrivateRoadsAndPointsFarFromRoads() throws {
        let graph = try build([1: (0, 0), 2: (0, 10)], ways: [(10, [1, 2], "Public Road", 50, 50)])
        let nearGate = try graph.route(from: at(0, 1), to: at(2, 5))   // 220 m up the private drive
        XCTAssertEqual(nearGate[0].coordinates.last!.latitude, 0, accuracy: 1e-7)
        XCTAssertEqual(try graph.snap(at(2, 5)).distance, 222, accuracy: 3)
        XCTAssertThrowsError(try graph.route(from: at(0, 1), to: at(60, 5))) { error in   // 6.7 km away
            guard case RoutingError.noRoadNearby(let message) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("destination"), message)
        }
        XCTAssertThrowsError(try graph.route(from: at(-60, 5), to: at(0, 1))) { error in
            guard case RoutingError.noRoadNearby(let message) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("source"), message)
        }
        // NaN, infinities and out-of-range coordinates, at either end.
        for bad in [CLLocationCoordinate2D(latitude: .nan, longitude: 0), CLLocationCoordinate2D(latitude: 0, longitude: .infinity),
                    CLLocationCoordinate2D(latitude: -91, longitude: 0), CLLocationCoordinate2D(latitude: 0, longitude: 181)] {
            for (from, to) in [(bad, at(0, 1)), (at(0, 1), bad)] {
                XCTAssertThrowsError(try graph.route(from: from, to: to)) { error in
                    guard case RoutingError.invalidInput = error else { return XCTFail("\(error)") }
                }
                XCTAssertThrowsError(try graph.travelTime(from: from, to: to)) { error in
                    guard case RoutingError.invalidInput = error else { return XCTFail("\(error)") }
                }
            }
        }
        // The same place twice, and two points a few centimetres apart on the same road.
        for (from, to) in [(at(0, 3), at(0, 3)), (at(0, 3), at(0, 3.000_001))] {
            XCTAssertThrowsError(try graph.route(from: from, to: to)) { error in
                guard case RoutingError.invalidInput(let message) = error else { return XCTFail("\(error)") }
                XCTAssertTrue(message.contains("same place"), message)
            }
        }
    }

    /// A point exactly on a junction may leave by any of its roads: the road snapping picked (A,
    /// whose turn into B is forbidden) must not force a detour round the dead end of C.
    func testStartOnAJunctionIgnoresTheSnappedRoadsTurnRules() throws {
        let network = RoadNetwork()
        let car = RoadNetwork.Access(forwardSpeed: 30, backwardSpeed: 30)
        for (id, nodes, name) in [(Int64(10), [Int64(1), 2], "A"), (11, [2, 3], "B"), (12, [2, 4], "C")] {
            network.addWay(id: id, nodes: nodes, info: RoadNetwork.WayInfo(name: name, ref: nil, roadClass: "residential"),
                           access: [.automobile: car])
        }
        for (id, (r, c)) in [Int64(1): (0, 0), 2: (0, 5), 3: (0, 10), 4: (5, 5)] {
            network.setLocation(id, latitudeE7: Int32(r * 10_000), longitudeE7: Int32(c * 10_000))
        }
        network.addRestriction(RoadNetwork.Restriction(fromWay: 10, viaNode: 2, viaWays: [], toWay: 11, isOnly: false, modes: [.automobile]))
        let url = folder.appendingPathComponent("junction.graph")
        try RoadGraphBuilder(mode: .automobile).build(network, to: url)
        let graph = try RoadGraph(url: url)
        let route = try graph.route(from: at(0, 5), to: at(0, 9))[0]
        XCTAssertEqual(route.distance, 4 * 111.2, accuracy: 3)
        XCTAssertEqual(route.segments.map { $0.name ?? "" }, ["B"])
        // And arriving on a junction: from B to the node, whatever road the end snapped to.
        XCTAssertEqual(try graph.route(from: at(0, 9), to: at(0, 5))[0].distance, 4 * 111.2, accuracy: 3)
        // Coming along A the restriction still holds.
        XCTAssertGreaterThan(try graph.route(from: at(0, 1), to: at(0, 9))[0].distance, 15 * 111.2)
    }

    /// Parking aisles, driveways and garage entrances are marked so guidance does not count them
    /// as a roundabout's exits; ordinary service roads are not.
    func testMinorServiceWays() {
        func info(_ tags: [(String, String)]) -> RoadNetwork.WayInfo { RoadProfiles.info(for: tags.map { (key: $0.0, value: $0.1) }) }
        XCTAssertTrue(info([("highway", "service"), ("service", "parking_aisle")]).isMinorService)
        XCTAssertTrue(info([("highway", "service"), ("service", "driveway")]).isMinorService)
        XCTAssertTrue(info([("highway", "service"), ("amenity", "parking")]).isMinorService)
        XCTAssertTrue(info([("highway", "service"), ("building", "garages")]).isMinorService)
        XCTAssertFalse(info([("highway", "service")]).isMinorService)
        XCTAssertFalse(info([("highway", "service"), ("service", "alley")]).isMinorService)
        XCTAssertFalse(info([("highway", "residential"), ("service", "parking_aisle")]).isMinorService)
    }

    /// The flag reaches the route's junctions, for guidance to read.
    func testJunctionsMarkMinorExits() throws {
        let network = RoadNetwork()
        let road = RoadNetwork.WayInfo(name: "Road", ref: nil, roadClass: "residential")
        let aisle = RoadNetwork.WayInfo(name: nil, ref: nil, roadClass: "service", isMinorService: true)
        let car = RoadNetwork.Access(forwardSpeed: 30, backwardSpeed: 30)
        network.addWay(id: 1, nodes: [1, 2, 3], info: road, access: [.automobile: car])
        network.addWay(id: 2, nodes: [2, 4], info: aisle, access: [.automobile: car])
        for (id, (r, c)) in [Int64(1): (0, 0), 2: (0, 5), 3: (0, 10), 4: (3, 5)] {
            network.setLocation(id, latitudeE7: Int32(r * 10_000), longitudeE7: Int32(c * 10_000))
        }
        let url = folder.appendingPathComponent("aisle.graph")
        try RoadGraphBuilder(mode: .automobile).build(network, to: url)
        let route = try RoadGraph(url: url).route(from: at(0, 1), to: at(0, 9))[0]
        let junction = try XCTUnwrap(route.segments.flatMap(\.junctions).first)
        XCTAssertEqual(junction.exitIsMinor.count, junction.bearings.count)
        XCTAssertEqual(junction.exitIsMinor.filter { $0 }.count, 1)
        let north = try XCTUnwrap(junction.bearings.firstIndex { abs($0) < 1 || abs($0 - 360) < 1 })
        XCTAssertTrue(junction.exitIsMinor[north], "the aisle leaves northwards")
    }
}
