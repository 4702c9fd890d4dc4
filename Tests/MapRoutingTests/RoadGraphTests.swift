import XCTest
import MapGeometry
@testable import MapRouting

/// Small hand-made networks: avoidance, restrictions, barriers and the file's round trip.
final class RoadGraphTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("road-graph-tests-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(at: folder) }

    /// Nodes on a grid of 0.001° (about 110 m): id → (row, column).
    func network(_ grid: [Int64: (Int, Int)], ways: [(Int64, [Int64], RoadNetwork.WayInfo, Float, Float)]) -> RoadNetwork {
        let network = RoadNetwork()
        for (id, nodes, info, forward, backward) in ways {
            network.addWay(id: id, nodes: nodes, info: info,
                           access: [.automobile: RoadNetwork.Access(forwardSpeed: forward, backwardSpeed: backward)])
        }
        for (id, (r, c)) in grid { network.setLocation(id, latitudeE7: Int32(r * 10_000), longitudeE7: Int32(c * 10_000)) }
        return network
    }

    func build(_ network: RoadNetwork) throws -> RoadGraph {
        let url = folder.appendingPathComponent(UUID().uuidString + ".graph")
        try RoadGraphBuilder(mode: .automobile).build(network, to: url)
        return try RoadGraph(url: url)
    }

    func at(_ r: Double, _ c: Double) -> CLLocationCoordinate2D { CLLocationCoordinate2D(latitude: r * 0.001, longitude: c * 0.001) }

    /// A direct toll motorway from 1 to 2 and a longer free road round by 3.
    func tollNetwork() -> RoadNetwork {
        network([1: (0, 0), 2: (0, 10), 3: (4, 5), 4: (0, -2), 5: (0, 12)], ways: [
            (10, [1, 2], RoadNetwork.WayInfo(name: "Toll Motorway", ref: "A1", roadClass: "motorway", isToll: true, isMotorway: true), 100, 100),
            (11, [1, 3, 2], RoadNetwork.WayInfo(name: "Old Road", ref: nil, roadClass: "secondary"), 100, 100),
            (12, [4, 1], RoadNetwork.WayInfo(name: "Start Street", ref: nil, roadClass: "residential"), 30, 30),
            (13, [2, 5], RoadNetwork.WayInfo(name: "End Street", ref: nil, roadClass: "residential"), 30, 30),
        ])
    }

    func testAvoidTollsAndMotorways() throws {
        let graph = try build(tollNetwork())
        let best = try graph.route(from: at(0, -1.5), to: at(0, 11.5), options: RouteOptions())[0]
        XCTAssertTrue(best.hasTolls)
        XCTAssertTrue(best.hasMotorways)
        XCTAssertEqual(best.segments.map { $0.name ?? "" }, ["Start Street", "Toll Motorway", "End Street"])
        XCTAssertEqual(best.segments[1].ref, "A1")
        for avoid in [\RouteOptions.avoidTolls, \RouteOptions.avoidMotorways] {
            var options = RouteOptions()
            options[keyPath: avoid] = true
            let free = try graph.route(from: at(0, -1.5), to: at(0, 11.5), options: options)[0]
            XCTAssertFalse(free.hasTolls)
            XCTAssertEqual(free.segments.map { $0.name ?? "" }, ["Start Street", "Old Road", "End Street"])
            XCTAssertGreaterThan(free.distance, best.distance)
        }
        // Avoidance is a preference: with only the toll road, it is still used.
        let only = try build(network([1: (0, 0), 2: (0, 10)], ways: [
            (10, [1, 2], RoadNetwork.WayInfo(name: "Toll", ref: nil, roadClass: "motorway", isToll: true), 100, 100)]))
        var options = RouteOptions()
        options.avoidTolls = true
        XCTAssertTrue(try only.route(from: at(0, 1), to: at(0, 9), options: options)[0].hasTolls)
    }

    func testAlternativeRoute() throws {
        let graph = try build(tollNetwork())
        var options = RouteOptions()
        options.alternatives = 3
        let routes = try graph.route(from: at(0, -1.5), to: at(0, 11.5), options: options)
        XCTAssertEqual(routes.count, 2, "the motorway and the old road, nothing else")
        guard routes.count == 2 else { return }
        XCTAssertEqual(routes[1].segments.map { $0.name ?? "" }, ["Start Street", "Old Road", "End Street"])
    }

    func testOnewayAndNoRoute() throws {
        let graph = try build(network([1: (0, 0), 2: (0, 10), 3: (20, 0), 4: (20, 10)], ways: [
            (10, [1, 2], RoadNetwork.WayInfo(name: "One", ref: nil, roadClass: "primary"), 50, 0),
            (11, [3, 4], RoadNetwork.WayInfo(name: "Island", ref: nil, roadClass: "primary"), 50, 50),
        ]))
        XCTAssertEqual(try graph.route(from: at(0, 1), to: at(0, 9))[0].distance, 8 * 111.2, accuracy: 3)
        XCTAssertThrowsError(try graph.route(from: at(0, 9), to: at(0, 1))) { error in
            guard case RoutingError.noRoute = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try graph.route(from: at(0, 1), to: at(20, 5))) { error in
            guard case RoutingError.noRoute = error else { return XCTFail("\(error)") }
        }
    }

    func testBarrierAndViaWayRestriction() throws {
        // 1 —a— 2 —b— 3 —c— 4 with a side road 2–5–3 (longer); a barrier on 6 in the middle of b
        // leaves only the side road.
        let network = network([1: (0, 0), 2: (0, 5), 6: (0, 7), 3: (0, 10), 4: (0, 15), 5: (5, 7)], ways: [
            (10, [1, 2], RoadNetwork.WayInfo(name: "a", ref: nil, roadClass: "primary"), 50, 50),
            (11, [2, 6, 3], RoadNetwork.WayInfo(name: "b", ref: nil, roadClass: "primary"), 50, 50),
            (12, [3, 4], RoadNetwork.WayInfo(name: "c", ref: nil, roadClass: "primary"), 50, 50),
            (13, [2, 5, 3], RoadNetwork.WayInfo(name: "side", ref: nil, roadClass: "primary"), 50, 50),
        ])
        let open = try build(network)
        XCTAssertEqual(try open.route(from: at(0, 1), to: at(0, 14))[0].segments.map { $0.name ?? "" }, ["a", "b", "c"])
        // No a → b → c (via way b): the route takes the side road.
        network.addRestriction(RoadNetwork.Restriction(fromWay: 10, viaNode: nil, viaWays: [11], toWay: 12, isOnly: false, modes: [.automobile]))
        let restricted = try build(network)
        XCTAssertEqual(try restricted.route(from: at(0, 1), to: at(0, 14))[0].segments.map { $0.name ?? "" }, ["a", "side", "c"])
        // b itself stays usable from a: a → b ending on b.
        XCTAssertEqual(try restricted.route(from: at(0, 1), to: at(0, 9))[0].segments.map { $0.name ?? "" }, ["a", "b"])
        network.addBarrier(node: 6, modes: [.automobile])
        let blocked = try build(network)
        XCTAssertEqual(try blocked.route(from: at(0, 1), to: at(0, 9))[0].segments.map { $0.name ?? "" }, ["a", "side", "b"])
    }
}
