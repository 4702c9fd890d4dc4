import Foundation
import GRDB
import MapGeometry
import StreetScene
import TestSupport
import XCTest

/// The scene file: what is written is read back, by area, and a damaged or foreign file is a
/// typed error.
final class SceneFileTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("scene-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func c(_ latitude: Double, _ longitude: Double) -> CLLocationCoordinate2D {
        CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
    }

    /// A square ring of `size` degrees with its south-west corner at (latitude, longitude).
    private func square(_ latitude: Double, _ longitude: Double, _ size: Double) -> [CLLocationCoordinate2D] {
        [c(latitude, longitude), c(latitude, longitude + size), c(latitude + size, longitude + size), c(latitude + size, longitude), c(latitude, longitude)]
    }

    private var fullBuilding: SceneBuilding {
        SceneBuilding(rings: [[c(43.7396001, 7.4276001), c(43.7396001, 7.4278), c(43.7398, 7.4278), c(43.7396001, 7.4276001)],
                              [c(43.73965, 7.42765), c(43.73966, 7.42770), c(43.73970, 7.42770), c(43.73965, 7.42765)]],
                      height: 23.45, minHeight: 3.5, levels: 6, roofShape: .halfHipped, roofHeight: 4.25, roofDirection: 112.5, roofAcross: true,
                      wallColour: SceneColour(red: 250, green: 235, blue: 215), roofColour: SceneColour(red: 1, green: 2, blue: 3),
                      wallMaterial: "brick", roofMaterial: "roof_tiles", kind: "apartments", isPart: true, hasParts: false,
                      name: "Résidence « Le Métropole »", houseNumber: "17 bis")
    }

    private func assertEqual(_ a: [[CLLocationCoordinate2D]], _ b: [[CLLocationCoordinate2D]], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.map(\.count), b.map(\.count), file: file, line: line)
        for (ra, rb) in zip(a, b) {
            for (pa, pb) in zip(ra, rb) {
                XCTAssertEqual(pa.latitude, pb.latitude, accuracy: 1e-9, file: file, line: line)
                XCTAssertEqual(pa.longitude, pb.longitude, accuracy: 1e-9, file: file, line: line)
            }
        }
    }

    func testEveryFieldRoundTrips() throws {
        let url = folder.appendingPathComponent("scene.sqlite")
        let writer = try StreetSceneWriter(url: url)
        let road = SceneRoad(line: [c(43.7395, 7.4270), c(43.7396, 7.4275), c(43.7397, 7.4282)], kind: .tertiary, width: 7.5, lanes: 2,
                             sidewalks: .left, isOneway: true, layer: -2, isBridge: true, isTunnel: true, name: "Avenue de Monte-Carlo",
                             hasTramRails: true)
        let plain = SceneRoad(line: [c(43.7390, 7.4270), c(43.7391, 7.4271)], kind: .steps)
        let area = SceneArea(rings: [square(43.7393, 7.4272, 0.0003), square(43.73935, 7.42725, 0.0001)], kind: .garden, name: "Jardins du Casino")
        let point = ScenePoint(coordinate: c(43.7396, 7.4276), kind: .business, name: "Café de Paris", category: "amenity=cafe",
                               height: 12.5, isFromBuilding: true)
        let tree = ScenePoint(coordinate: c(43.73961, 7.42761), kind: .tree)
        try writer.add(fullBuilding)
        try writer.add(road)
        try writer.add(plain)
        try writer.add(area)
        try writer.add(point)
        try writer.add(tree)
        try writer.finish()
        XCTAssertThrowsError(try writer.add(tree), "adding after finish") { XCTAssertTrue($0 is StreetSceneError) }

        let file = try StreetSceneFile(url: url)
        let counts = try file.counts()
        XCTAssertEqual(counts.buildings, 1)
        XCTAssertEqual(counts.roads, 2)
        XCTAssertEqual(counts.areas, 1)
        XCTAssertEqual(counts.points, 2)
        let objects = try file.objects(minLatitude: 43.73, minLongitude: 7.42, maxLatitude: 43.75, maxLongitude: 7.43)
        XCTAssertEqual(objects.buildings.count, 1)
        let b = try XCTUnwrap(objects.buildings.first)
        assertEqual(b.rings, fullBuilding.rings)
        XCTAssertEqual(b.height, 23.45, accuracy: 1e-9)
        XCTAssertEqual(b.minHeight, 3.5)
        XCTAssertEqual(b.levels, 6)
        XCTAssertEqual(b.roofShape, .halfHipped)
        XCTAssertEqual(b.roofHeight, 4.25)
        XCTAssertEqual(b.roofDirection, 112.5)
        XCTAssertTrue(b.roofAcross)
        XCTAssertEqual(b.wallColour, SceneColour(red: 250, green: 235, blue: 215))
        XCTAssertEqual(b.roofColour, SceneColour(red: 1, green: 2, blue: 3))
        XCTAssertEqual(b.wallMaterial, "brick")
        XCTAssertEqual(b.roofMaterial, "roof_tiles")
        XCTAssertEqual(b.kind, "apartments")
        XCTAssertTrue(b.isPart)
        XCTAssertFalse(b.hasParts)
        XCTAssertEqual(b.name, "Résidence « Le Métropole »")
        XCTAssertEqual(b.houseNumber, "17 bis")

        XCTAssertEqual(objects.roads.count, 2)
        let r = try XCTUnwrap(objects.roads.first { $0.kind == .tertiary })
        assertEqual([r.line], [road.line])
        XCTAssertEqual(r.width, 7.5)
        XCTAssertEqual(r.lanes, 2)
        XCTAssertEqual(r.sidewalks, .left)
        XCTAssertTrue(r.isOneway)
        XCTAssertEqual(r.layer, -2)
        XCTAssertTrue(r.isBridge)
        XCTAssertTrue(r.isTunnel)
        XCTAssertEqual(r.name, "Avenue de Monte-Carlo")
        XCTAssertTrue(r.hasTramRails)
        let steps = try XCTUnwrap(objects.roads.first { $0.kind == .steps })
        XCTAssertNil(steps.width)
        XCTAssertNil(steps.lanes)
        XCTAssertNil(steps.name)
        XCTAssertEqual(steps.sidewalks, [])
        XCTAssertFalse(steps.isOneway || steps.isBridge || steps.isTunnel || steps.hasTramRails)

        let a = try XCTUnwrap(objects.areas.first)
        XCTAssertEqual(a.kind, .garden)
        XCTAssertEqual(a.name, "Jardins du Casino")
        assertEqual(a.rings, area.rings)

        XCTAssertEqual(objects.points.count, 2)
        let p = try XCTUnwrap(objects.points.first { $0.kind == .business })
        XCTAssertEqual(p.coordinate.latitude, 43.7396, accuracy: 1e-9)
        XCTAssertEqual(p.coordinate.longitude, 7.4276, accuracy: 1e-9)
        XCTAssertEqual(p.name, "Café de Paris")
        XCTAssertEqual(p.category, "amenity=cafe")
        XCTAssertEqual(p.height, 12.5)
        XCTAssertTrue(p.isFromBuilding)
        let t = try XCTUnwrap(objects.points.first { $0.kind == .tree })
        XCTAssertNil(t.name)
        XCTAssertNil(t.height)
        XCTAssertFalse(t.isFromBuilding)
    }

    /// Every kind of every enum survives the trip.
    func testEveryKindRoundTrips() throws {
        let url = folder.appendingPathComponent("scene.sqlite")
        let writer = try StreetSceneWriter(url: url)
        for (i, shape) in RoofShape.allCases.enumerated() {
            try writer.add(SceneBuilding(rings: [square(43, 7 + Double(i) * 0.01, 0.001)], height: Double(i + 1), roofShape: shape))
        }
        for kind in SceneRoadKind.allCases { try writer.add(SceneRoad(line: [c(43, 7), c(43.001, 7.001)], kind: kind, name: "\(kind)")) }
        for kind in SceneAreaKind.allCases { try writer.add(SceneArea(rings: [square(43, 7, 0.001)], kind: kind, name: "\(kind)")) }
        for kind in ScenePointKind.allCases { try writer.add(ScenePoint(coordinate: c(43, 7), kind: kind, name: "\(kind)")) }
        try writer.finish()
        let objects = try StreetSceneFile(url: url).objects(minLatitude: 42, minLongitude: 6, maxLatitude: 44, maxLongitude: 8)
        XCTAssertEqual(objects.buildings.map(\.roofShape), RoofShape.allCases)
        XCTAssertEqual(Set(objects.roads.map { "\($0.kind)" }), Set(objects.roads.compactMap(\.name)))
        XCTAssertEqual(objects.roads.count, SceneRoadKind.allCases.count)
        XCTAssertEqual(Set(objects.areas.map { "\($0.kind)" }), Set(SceneAreaKind.allCases.map { "\($0)" }))
        XCTAssertEqual(Set(objects.points.map { "\($0.kind)" }), Set(ScenePointKind.allCases.map { "\($0)" }))
        XCTAssertTrue(objects.points.allSatisfy { "\($0.kind)" == $0.name })
    }

    /// A box returns what intersects it and nothing else; reading from many threads at once works.
    func testQueriesByBoxFromManyThreads() throws {
        let url = folder.appendingPathComponent("scene.sqlite")
        let writer = try StreetSceneWriter(url: url)
        // A 10 × 10 grid of small buildings 0.001° apart, and a road along the grid's first row.
        for i in 0..<10 {
            for j in 0..<10 {
                try writer.add(SceneBuilding(rings: [square(43.0 + Double(i) * 0.001, 7.0 + Double(j) * 0.001, 0.0002)], height: Double(i * 10 + j + 1)))
            }
        }
        try writer.add(SceneRoad(line: [c(43.0001, 6.999), c(43.0001, 7.011)], kind: .residential))
        try writer.finish()
        let file = try StreetSceneFile(url: url)
        // The box over the 2 × 3 buildings of rows 2–3, columns 4–6.
        let some = try file.objects(minLatitude: 43.0021, minLongitude: 7.0041, maxLatitude: 43.0031, maxLongitude: 7.0061)
        XCTAssertEqual(Set(some.buildings.map(\.height)), [25, 26, 27, 35, 36, 37])
        XCTAssertTrue(some.roads.isEmpty)
        let firstRow = try file.objects(minLatitude: 43.00005, minLongitude: 7.0053, maxLatitude: 43.00015, maxLongitude: 7.0055)
        XCTAssertEqual(firstRow.roads.count, 1)
        XCTAssertTrue(firstRow.buildings.isEmpty)
        XCTAssertTrue(try file.objects(minLatitude: 10, minLongitude: 10, maxLatitude: 11, maxLongitude: 11).isEmpty)
        XCTAssertThrowsError(try file.objects(minLatitude: 44, minLongitude: 7, maxLatitude: 43, maxLongitude: 8)) {
            guard case .invalidQuery = $0 as? StreetSceneError else { return XCTFail("\($0)") }
        }
        XCTAssertThrowsError(try file.objects(minLatitude: .nan, minLongitude: 7, maxLatitude: 43, maxLongitude: 8))

        let counts = UnsafeMutableBufferPointer<Int>.allocate(capacity: 64)
        defer { counts.deallocate() }
        nonisolated(unsafe) let shared = counts
        DispatchQueue.concurrentPerform(iterations: 64) { k in
            shared[k] = (try? file.objects(minLatitude: 42, minLongitude: 6, maxLatitude: 44, maxLongitude: 8).buildings.count) ?? -1
        }
        XCTAssertEqual(Set(counts), [100])
    }

    /// An outline with a `building:part` whose centre lies inside it is marked; one beside it is not.
    func testOutlinesWithPartsAreMarked() throws {
        let url = folder.appendingPathComponent("scene.sqlite")
        let writer = try StreetSceneWriter(url: url)
        try writer.add(SceneBuilding(rings: [square(43.0, 7.0, 0.001)], height: 20, kind: "church"))
        try writer.add(SceneBuilding(rings: [square(43.0, 7.002, 0.001)], height: 10, kind: "house"))
        // An L-shaped outline whose box holds the part's centre, but not the outline itself.
        try writer.add(SceneBuilding(rings: [[c(43.0, 6.990), c(43.0, 6.992), c(43.0005, 6.992), c(43.0005, 6.9905), c(43.002, 6.9905),
                                              c(43.002, 6.990), c(43.0, 6.990)]], height: 10, kind: "L"))
        try writer.add(SceneBuilding(rings: [square(43.0002, 7.0002, 0.0002)], height: 40, kind: "tower", isPart: true))
        try writer.add(SceneBuilding(rings: [square(43.0015, 6.9915, 0.0002)], height: 40, kind: "lpart", isPart: true))
        try writer.finish()
        let buildings = try StreetSceneFile(url: url).objects(minLatitude: 42, minLongitude: 6, maxLatitude: 44, maxLongitude: 8).buildings
        XCTAssertEqual(buildings.count, 5)
        XCTAssertEqual(buildings.first { $0.kind == "church" }?.hasParts, true)
        XCTAssertEqual(buildings.first { $0.kind == "house" }?.hasParts, false)
        XCTAssertEqual(buildings.first { $0.kind == "L" }?.hasParts, false)
        XCTAssertEqual(buildings.first { $0.kind == "tower" }?.hasParts, false)
    }

    func testMissingFileIsATypedError() {
        XCTAssertThrowsError(try StreetSceneFile(url: folder.appendingPathComponent("none.sqlite"))) { error in
            guard case .missing = error as? StreetSceneError else { return XCTFail("\(error)") }
            XCTAssertTrue("\(error)".contains("re-import"), "\(error)")
        }
    }

    func testCorruptFileIsATypedError() throws {
        let url = folder.appendingPathComponent("garbage.sqlite")
        try Data((0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: url)
        XCTAssertThrowsError(try StreetSceneFile(url: url)) { error in
            guard case .corrupt = error as? StreetSceneError else { return XCTFail("\(error)") }
            XCTAssertTrue("\(error)".contains("garbage.sqlite"), "\(error)")
        }
        // An SQLite file that is not a scene file.
        let other = folder.appendingPathComponent("other.sqlite")
        try execute(other, "CREATE TABLE t (x); INSERT INTO t VALUES (1);")
        XCTAssertThrowsError(try StreetSceneFile(url: other)) { error in
            guard case .corrupt = error as? StreetSceneError else { return XCTFail("\(error)") }
        }
        // A scene file cut short.
        let whole = folder.appendingPathComponent("scene.sqlite")
        let writer = try StreetSceneWriter(url: whole)
        for i in 0..<2000 { try writer.add(ScenePoint(coordinate: c(43 + Double(i) * 1e-5, 7), kind: .tree)) }
        try writer.finish()
        let cut = folder.appendingPathComponent("cut.sqlite")
        try Data(try Data(contentsOf: whole).prefix(8192)).write(to: cut)
        XCTAssertThrowsError(try StreetSceneFile(url: cut).objects(minLatitude: 42, minLongitude: 6, maxLatitude: 44, maxLongitude: 8)) { error in
            XCTAssertTrue(error is StreetSceneError, "\(error)")
        }
    }

    func testAnotherVersionIsATypedError() throws {
        let url = folder.appendingPathComponent("scene.sqlite")
        let writer = try StreetSceneWriter(url: url)
        try writer.finish()
        XCTAssertNoThrow(try StreetSceneFile(url: url))
        try execute(url, "UPDATE meta SET value = '99' WHERE key = 'version';")
        XCTAssertThrowsError(try StreetSceneFile(url: url)) { error in
            guard case .unsupportedVersion(let found, _, _) = error as? StreetSceneError else { return XCTFail("\(error)") }
            XCTAssertEqual(found, "99")
            XCTAssertTrue("\(error)".contains("re-import"), "\(error)")
        }
    }

    func testUnfinishedFileIsATypedError() throws {
        let url = folder.appendingPathComponent("scene.sqlite")
        let writer = try StreetSceneWriter(url: url)
        try writer.add(ScenePoint(coordinate: c(43, 7), kind: .bench))
        try writer.finish()
        try execute(url, "DELETE FROM meta WHERE key = 'complete';")
        XCTAssertThrowsError(try StreetSceneFile(url: url)) { error in
            guard case .corrupt = error as? StreetSceneError else { return XCTFail("\(error)") }
        }
    }

    /// A damaged object blob fails the query with a typed error, whatever its bytes.
    func testDamagedObjectsAreTypedErrors() throws {
        let url = folder.appendingPathComponent("scene.sqlite")
        let writer = try StreetSceneWriter(url: url)
        try writer.add(fullBuilding)
        try writer.finish()
        let whole = try XCTUnwrap(try DatabaseQueue(path: url.path).read { try Data.fetchOne($0, sql: "SELECT data FROM objects") })
        var generator = SplitMix64(seed: 24)
        let blobs = ["X'FF'", "X''", "X'FFFFFFFFFFFFFFFFFFFFFF01'", "X'00'", "X'000000000900'", "X'0000000000FFFFFFFF0F'"]
            + (0..<50).map { _ in "randomblob(\(1 + generator.next() % 200))" }
        for blob in blobs {
            try execute(url, "UPDATE objects SET data = \(blob);")
            // Any outcome but a crash will do: the errors are typed (`throws(StreetSceneError)`).
            _ = try? StreetSceneFile(url: url).objects(minLatitude: 43, minLongitude: 7, maxLatitude: 44, maxLongitude: 8)
        }
        try execute(url, "UPDATE objects SET data = X'FF';")
        XCTAssertThrowsError(try StreetSceneFile(url: url).objects(minLatitude: 43, minLongitude: 7, maxLatitude: 44, maxLongitude: 8)) {
            guard case .corrupt = $0 as? StreetSceneError else { return XCTFail("\($0)") }
        }
        // The building's blob cut at every length is an error, never a building.
        for length in 0..<whole.count {
            let hex = whole.prefix(length).map { String(format: "%02X", $0) }.joined()
            try execute(url, "UPDATE objects SET data = X'\(hex)';")
            XCTAssertThrowsError(try StreetSceneFile(url: url).objects(minLatitude: 43, minLongitude: 7, maxLatitude: 44, maxLongitude: 8),
                                 "cut at \(length)") { XCTAssertTrue($0 is StreetSceneError, "\($0)") }
        }
    }

    private func execute(_ url: URL, _ sql: String) throws {
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { try $0.execute(sql: sql) }
        try queue.close()
    }
}
