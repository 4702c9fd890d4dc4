import XCTest
import MapBundle
import MapGeometry
@testable import MapRouting
import TestSupport

/// Routes on the real Monaco extract, imported once per test process.
final class MonacoRoutingTests: XCTestCase {
    let casino = CLLocationCoordinate2D(latitude: 43.7396, longitude: 7.4276)
    let fontvieille = CLLocationCoordinate2D(latitude: 43.7290, longitude: 7.4150)

    func graph(_ mode: TravelMode) throws -> RoadGraph {
        let bundle = try MapBundle(url: SampleBundle.monaco())
        return try RoadGraph(url: bundle.roadGraphURL(for: mode))
    }

    func testCarRouteBetweenKnownStreets() throws {
        let car = try graph(.automobile)
        XCTAssertEqual(car.mode, .automobile)
        let route = try XCTUnwrap(car.route(from: casino, to: fontvieille).first)
        let straight = metresE7(Int32(casino.latitude * 1e7), Int32(casino.longitude * 1e7),
                                Int32(fontvieille.latitude * 1e7), Int32(fontvieille.longitude * 1e7))
        XCTAssertGreaterThan(route.distance, straight)
        XCTAssertLessThan(route.distance, straight * 3)
        XCTAssertTrue(route.segments.contains { $0.name == "Avenue de Fontvieille" }, "\(route.segments.map { $0.name ?? "-" })")
        XCTAssertGreaterThan(route.travelTime, route.distance / (130 / 3.6))
        // The shape starts and ends at the snapped points and the segments chain.
        XCTAssertEqual(route.coordinates.first!.latitude, try car.snap(casino).coordinate.latitude, accuracy: 1e-9)
        XCTAssertEqual(route.coordinates.last!.longitude, try car.snap(fontvieille).coordinate.longitude, accuracy: 1e-9)
        for (a, b) in zip(route.segments, route.segments.dropFirst()) {
            XCTAssertEqual(a.coordinateRange.upperBound - 1, b.coordinateRange.lowerBound)
        }
        XCTAssertEqual(route.segments.last?.coordinateRange.upperBound, route.coordinates.count)
        XCTAssertEqual(route.segments.reduce(0) { $0 + $1.distance }, route.distance, accuracy: 0.01)
        let junction = try XCTUnwrap(route.segments.flatMap(\.junctions).first)
        XCTAssertGreaterThanOrEqual(junction.bearings.count, 3)
        XCTAssertEqual(junction.bearings.count, junction.exitAllowed.count)
        let eta = try car.travelTime(from: casino, to: fontvieille)
        XCTAssertEqual(eta.distance, route.distance, accuracy: 0.5)
        XCTAssertEqual(eta.travelTime, route.travelTime, accuracy: 0.5)
    }

    func testWalkingIsShorterThanDriving() throws {
        let car = try graph(.automobile).route(from: casino, to: fontvieille)[0]
        let walk = try graph(.walking).route(from: casino, to: fontvieille)[0]
        let bike = try graph(.cycling).route(from: casino, to: fontvieille)[0]
        XCTAssertLessThan(walk.distance, car.distance)
        XCTAssertGreaterThan(walk.travelTime, car.travelTime)
        XCTAssertGreaterThan(walk.travelTime, bike.travelTime)
        XCTAssertEqual(walk.mode, .walking)
    }

    /// Every named oneway edge long enough: driving along it costs its own length, driving
    /// against it must go round (or find no way), never straight back along it.
    func testCarRespectsOneways() throws {
        let car = try graph(.automobile)
        let g = car.g
        var checked = 0
        for e in 0..<g.edgeCount where checked < 20 {
            let edge = g.edge(e)
            guard edge.forwardMs != .max, edge.backwardMs == .max else { continue }
            // The edge's first stretch longer than 40 m, with points a fifth of the way in from each end.
            guard let k = (0..<edge.geometryCount - 1).first(where: {
                metresE7(g.geometry[2 * (edge.geometryStart + $0)], g.geometry[2 * (edge.geometryStart + $0) + 1],
                         g.geometry[2 * (edge.geometryStart + $0 + 1)], g.geometry[2 * (edge.geometryStart + $0 + 1) + 1]) > 40
            }) else { continue }
            let a = g.point(edge.geometryStart + k), b = g.point(edge.geometryStart + k + 1)
            let stretch = metresE7(g.geometry[2 * (edge.geometryStart + k)], g.geometry[2 * (edge.geometryStart + k) + 1],
                                   g.geometry[2 * (edge.geometryStart + k + 1)], g.geometry[2 * (edge.geometryStart + k + 1) + 1])
            let p = CLLocationCoordinate2D(latitude: a.latitude + (b.latitude - a.latitude) * 0.2, longitude: a.longitude + (b.longitude - a.longitude) * 0.2)
            let q = CLLocationCoordinate2D(latitude: a.latitude + (b.latitude - a.latitude) * 0.8, longitude: a.longitude + (b.longitude - a.longitude) * 0.8)
            guard let along = try? car.route(from: p, to: q).first else { continue }
            guard abs(along.distance - stretch * 0.6) < 2 else { continue }   // snapped elsewhere (a parallel road)
            checked += 1
            if let against = try? car.route(from: q, to: p).first {
                XCTAssertGreaterThan(against.distance, along.distance + 1, "edge \(e) driven against its oneway")
            }
        }
        XCTAssertGreaterThan(checked, 3, "found too few straight oneway edges to check")
    }

    /// The contraction hierarchy finds exactly the costs a plain Dijkstra over the turn graph finds,
    /// for 200 random pairs per mode (whatever node order and witness limits the build used).
    func testHierarchyMatchesDijkstra() throws {
        for mode in TravelMode.allCases {
            let graph = try graph(mode)
            var random = SplitMix64(seed: 42)
            var compared = 0
            for _ in 0..<200 {
                let from = CLLocationCoordinate2D(latitude: 43.725 + Double(random.next() % 1000) / 1000 * 0.02,
                                                  longitude: 7.410 + Double(random.next() % 1000) / 1000 * 0.03)
                let to = CLLocationCoordinate2D(latitude: 43.725 + Double(random.next() % 1000) / 1000 * 0.02,
                                                longitude: 7.410 + Double(random.next() % 1000) / 1000 * 0.03)
                guard let s = graph.g.nearest(from), let t = graph.g.nearest(to), s.edge != t.edge else { continue }
                let query = RouteQuery(g: graph.g, source: s, target: t)
                let ch = query.shortest()
                let plain = query.dijkstra(avoiding: 0)
                XCTAssertEqual(ch?.cost, plain?.cost, "\(mode) \(from) → \(to)")
                if ch != nil { compared += 1 }
            }
            XCTAssertGreaterThan(compared, 80, "\(mode): too few connected pairs")
        }
    }

    func testAlternativesAreDifferent() throws {
        let car = try graph(.automobile)
        var options = RouteOptions()
        options.alternatives = 2
        let routes = try car.route(from: casino, to: fontvieille, options: options)
        XCTAssertGreaterThanOrEqual(routes.count, 2)
        XCTAssertLessThanOrEqual(routes.count, 3)
        let best = Set(routes[0].segments.flatMap(\.wayIDs))
        for alternative in routes.dropFirst() {
            XCTAssertGreaterThanOrEqual(alternative.travelTime, routes[0].travelTime - 0.01)
            XCTAssertNotEqual(Set(alternative.segments.flatMap(\.wayIDs)), best)
        }
    }

    func testBadInput() throws {
        let car = try graph(.automobile)
        XCTAssertThrowsError(try car.route(from: CLLocationCoordinate2D(latitude: .nan, longitude: 7.42), to: casino)) { error in
            guard case RoutingError.invalidInput = error else { return XCTFail("\(error)") }
        }
        // Far out at sea, 40 km south.
        XCTAssertThrowsError(try car.route(from: CLLocationCoordinate2D(latitude: 43.38, longitude: 7.42), to: casino)) { error in
            guard case RoutingError.noRoadNearby = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try car.route(from: casino, to: casino)) { error in
            guard case RoutingError.invalidInput = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try car.snap(CLLocationCoordinate2D(latitude: 91, longitude: 0)))
    }

    func testDamagedFilesAreCorrupt() throws {
        let bundle = try MapBundle(url: SampleBundle.monaco())
        let data = try Data(contentsOf: bundle.roadGraphURL(for: .walking))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("damaged-graphs-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func open(_ bytes: Data) -> RoutingError? {
            let url = folder.appendingPathComponent(UUID().uuidString)
            try? bytes.write(to: url)
            do { _ = try RoadGraph(url: url); return nil } catch { return error }
        }
        for cut in [0, 10, 100, data.count / 2, data.count - 1] {
            guard case .corrupt = open(data.prefix(cut)) else { return XCTFail("truncated at \(cut) opened") }
        }
        var version = data
        version[8] = 99
        guard case .incompatibleVersion(let message) = open(version) else { return XCTFail("other version opened") }
        XCTAssertTrue(message.contains("version 99") && message.contains("re-import"), message)
        // Random bytes over the arcs: the open must catch them or the graph must stay usable.
        var random = SplitMix64(seed: 7)
        for _ in 0..<20 {
            var damaged = data
            for _ in 0..<50 { damaged[Int(random.next() % UInt64(data.count - 200)) + 200] = UInt8(truncatingIfNeeded: random.next()) }
            let url = folder.appendingPathComponent(UUID().uuidString)
            try damaged.write(to: url)
            if let graph = try? RoadGraph(url: url) { _ = try? graph.route(from: casino, to: fontvieille) }
        }
        do {
            _ = try RoadGraph(url: folder.appendingPathComponent("none.graph"))
            XCTFail("a missing file opened")
        } catch {
            guard case .missingGraph = error else { return XCTFail("\(error)") }
        }
    }
}
