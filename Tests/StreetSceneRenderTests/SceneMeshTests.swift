import MapGeometry
import MapRender
import StreetScene
@testable import StreetSceneRender
import XCTest

/// The meshes built from scene objects: footprints to walls and roofs, roads to surfaces, words to labels.
final class SceneMeshTests: XCTestCase {
    private let rectangle = [ScenePoint2(x: 0, y: 0), ScenePoint2(x: 10, y: 0), ScenePoint2(x: 10, y: 6), ScenePoint2(x: 0, y: 6)]

    private func area(_ points: [ScenePoint2], _ triangles: [UInt32]) -> Double {
        stride(from: 0, to: triangles.count, by: 3).reduce(0.0) { sum, i in
            let a = points[Int(triangles[i])], b = points[Int(triangles[i + 1])], c = points[Int(triangles[i + 2])]
            return sum + abs((b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y)) / 2
        }
    }

    func testTessellatorCutsHoles() {
        let outer = [ScenePoint2(x: 0, y: 0), ScenePoint2(x: 10, y: 0), ScenePoint2(x: 10, y: 10), ScenePoint2(x: 0, y: 10)]
        let hole = [ScenePoint2(x: 3, y: 3), ScenePoint2(x: 3, y: 7), ScenePoint2(x: 7, y: 7), ScenePoint2(x: 7, y: 3)]
        let (points, triangles) = Tessellator.triangulate([outer, hole])
        XCTAssertEqual(triangles.count % 3, 0)
        XCTAssertEqual(area(points, triangles), 100 - 16, accuracy: 1e-6)
        // A concave L-shape keeps its notch empty.
        let l = [ScenePoint2(x: 0, y: 0), ScenePoint2(x: 4, y: 0), ScenePoint2(x: 4, y: 1), ScenePoint2(x: 1, y: 1), ScenePoint2(x: 1, y: 4), ScenePoint2(x: 0, y: 4)]
        let (lp, lt) = Tessellator.triangulate([l])
        XCTAssertEqual(area(lp, lt), 7, accuracy: 1e-6)
        XCTAssertTrue(Tessellator.triangulate([[ScenePoint2(x: 0, y: 0), ScenePoint2(x: 1, y: 1)]]).triangles.isEmpty)
    }

    private func roofVertices(_ shape: RoofShape, direction: Double? = nil) -> (roof: [SceneVertex], all: SceneMesh) {
        var mesh = SceneMesh()
        let building = SceneBuilding(rings: [], height: 9, roofShape: shape, roofHeight: 3, roofDirection: direction, kind: "house")
        BuildingMesh.append(building, rings: [rectangle], to: &mesh)
        // Roof vertices are those with an upward-leaning normal.
        return (mesh.vertices.filter { $0.nz > 0.1 }, mesh)
    }

    func testFlatRoofIsAtTheTop() {
        let (roof, _) = roofVertices(.flat)
        XCTAssertFalse(roof.isEmpty)
        XCTAssertTrue(roof.allSatisfy { $0.z == 9 })
    }

    func testGabledRoofRidgeRunsAlongTheLongSide() {
        let (roof, mesh) = roofVertices(.gabled)
        let top = roof.filter { abs($0.z - 9) < 1e-3 }
        XCTAssertFalse(top.isEmpty)
        // The ridge is the line y = 3 along the whole 10 m length.
        XCTAssertTrue(top.allSatisfy { abs($0.y - 3) < 1e-3 })
        XCTAssertEqual(top.map(\.x).min() ?? -1, 0, accuracy: 1e-3)
        XCTAssertEqual(top.map(\.x).max() ?? -1, 10, accuracy: 1e-3)
        XCTAssertEqual(roof.map(\.z).min() ?? 0, 6, accuracy: 1e-3)
        // The gable ends: walls reach the ridge's height at x = 0 and x = 10.
        let gableTops = mesh.vertices.filter { abs($0.nz) < 1e-3 && abs($0.z - 9) < 1e-3 }
        XCTAssertEqual(Set(gableTops.map { Int($0.x.rounded()) }), [0, 10])
    }

    func testGabledRoofFollowsRoofDirection() {
        // Slopes facing east and west: the ridge runs north–south across the 6 m side, at x = 5.
        let (roof, _) = roofVertices(.gabled, direction: 90)
        let top = roof.filter { abs($0.z - 9) < 1e-3 }
        XCTAssertFalse(top.isEmpty)
        XCTAssertTrue(top.allSatisfy { abs($0.x - 5) < 1e-3 })
    }

    func testHippedRoofRidgeIsInsetFromTheEnds() {
        let (roof, _) = roofVertices(.hipped)
        let top = roof.filter { abs($0.z - 9) < 1e-3 }
        XCTAssertEqual(top.map(\.x).min() ?? -1, 3, accuracy: 1e-3)
        XCTAssertEqual(top.map(\.x).max() ?? -1, 7, accuracy: 1e-3)
    }

    func testPyramidalRoofMeetsAtTheCentre() {
        let (roof, _) = roofVertices(.pyramidal)
        let top = roof.filter { abs($0.z - 9) < 1e-3 }
        XCTAssertFalse(top.isEmpty)
        XCTAssertTrue(top.allSatisfy { abs($0.x - 5) < 1e-3 && abs($0.y - 3) < 1e-3 })
    }

    func testSkillionRoofFallsTowardItsDirection() {
        // Facing south: high at the north wall (y = 6), low at the south (y = 0).
        let (roof, _) = roofVertices(.skillion, direction: 180)
        let high = roof.filter { abs($0.z - 9) < 1e-3 }, low = roof.filter { abs($0.z - 6) < 1e-3 }
        XCTAssertTrue(!high.isEmpty && high.allSatisfy { abs($0.y - 6) < 1e-3 })
        XCTAssertTrue(!low.isEmpty && low.allSatisfy { abs($0.y) < 1e-3 })
    }

    func testWallsCarryFacadeCoordinates() {
        let (_, mesh) = roofVertices(.flat)
        let walls = mesh.vertices.filter { abs($0.nz) < 1e-3 }
        XCTAssertTrue(walls.allSatisfy { $0.material == SceneMaterial.facade.rawValue })
        // u runs along the outline: 32 m around a 10 × 6 m footprint.
        XCTAssertEqual(Double(walls.map(\.u).max() ?? 0), 32, accuracy: 1e-3)
        XCTAssertEqual(Double(walls.map(\.v).max() ?? 0), 9, accuracy: 1e-3)
        // Walls face outward: the south wall's normal points south.
        XCTAssertTrue(walls.contains { abs($0.y) < 1e-3 && abs($0.ny + 1) < 1e-3 })
        XCTAssertFalse(walls.contains { abs($0.y) < 1e-3 && $0.ny > 0.5 })
    }

    func testLocalFrameMetres() {
        let frame = LocalFrame(origin: CLLocationCoordinate2D(latitude: 45, longitude: 7))
        // WGS84 at 45°: 111 132 m per degree of latitude, 78 847 m per degree of longitude.
        XCTAssertEqual(frame.metresPerDegreeLatitude, 111_132, accuracy: 2)
        XCTAssertEqual(frame.metresPerDegreeLongitude, 78_847, accuracy: 2)
        let back = frame.coordinate(frame.point(CLLocationCoordinate2D(latitude: 45.001, longitude: 7.002)))
        XCTAssertEqual(back.latitude, 45.001, accuracy: 1e-12)
        XCTAssertEqual(back.longitude, 7.002, accuracy: 1e-12)
    }

    func testRoadWidthsFromTags() {
        XCTAssertEqual(GroundMesh.width(of: SceneRoad(line: [], kind: .residential, width: 7.5)), 7.5)
        XCTAssertEqual(GroundMesh.width(of: SceneRoad(line: [], kind: .primary, lanes: 4)), 13)
        XCTAssertEqual(GroundMesh.width(of: SceneRoad(line: [], kind: .footway, lanes: 4)), 2)
        XCTAssertEqual(GroundMesh.width(of: SceneRoad(line: [], kind: .residential, width: .nan)), 5.5)
    }

    func testSceneHasSignsHouseNumbersAndStreetNames() throws {
        let origin = CLLocationCoordinate2D(latitude: 43.7, longitude: 7.4)
        let frame = LocalFrame(origin: origin)
        func c(_ x: Double, _ y: Double) -> CLLocationCoordinate2D { frame.coordinate(ScenePoint2(x: x, y: y)) }
        // A street running east with a shop on its north side.
        let objects = SceneObjects(
            buildings: [SceneBuilding(rings: [[c(-5, 8), c(5, 8), c(5, 18), c(-5, 18)]], height: 12, kind: "apartments")],
            roads: [SceneRoad(line: [c(-50, 0), c(50, 0)], kind: .residential, sidewalks: .both, name: "Rue Test")],
            points: [ScenePoint(coordinate: c(0, 9), kind: .business, name: "Boulangerie", category: "shop=bakery"),
                     ScenePoint(coordinate: c(3, 9), kind: .houseNumber, name: "12"),
                     ScenePoint(coordinate: c(20, 4), kind: .tree)])
        let meshes = StreetSceneMeshes.build(objects, frame: frame, radius: 200, eye: ScenePoint2(x: 0, y: -10),
                                             fonts: FontCatalog(entries: FontCatalog.installed.entries))
        XCTAssertEqual(meshes.buildingCount, 1)
        XCTAssertEqual(meshes.treeCount, 1)
        XCTAssertEqual(meshes.labelCount, 2)
        XCTAssertEqual(meshes.mesh.labelIndices.count, 12)
        let atlas = try XCTUnwrap(meshes.atlas)
        XCTAssertEqual(atlas.rgba.count, atlas.width * atlas.height * 4)
        XCTAssertTrue(atlas.rgba.enumerated().contains { $0.offset % 4 == 3 && $0.element > 200 }, "the atlas has drawn text")
        // The sign hangs on the wall facing the street (y = 8); the street's name is shown where the
        // street passes nearest the viewer, and the building's wall can hide it.
        let sign = meshes.mesh.labelVertices[0..<4]
        XCTAssertTrue(sign.allSatisfy { abs($0.y - 7.9) < 0.1 && $0.z > 2 })
        XCTAssertEqual(meshes.streetLabels.map(\.name), ["Rue Test"])
        XCTAssertEqual(meshes.streetLabels.first?.point.y ?? 99, 0, accuracy: 1e-6)
        XCTAssertEqual(meshes.wallLines.count, 4)
        // Hidden businesses are not signed.
        let filtered = StreetSceneMeshes.build(objects, frame: frame, radius: 200, eye: ScenePoint2(x: 0, y: -10),
                                               fonts: FontCatalog(entries: FontCatalog.installed.entries), showsBusiness: { $0 != "shop=bakery" })
        XCTAssertEqual(filtered.labelCount, 1)
    }
}
