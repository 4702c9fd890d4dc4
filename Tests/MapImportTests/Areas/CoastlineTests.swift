import Foundation
import MapBundle
import MapFormats
import MapGeometry
import TestSupport
import XCTest
@testable import MapImport

/// The sea built from coastline ways: synthetic coasts in a one-degree box, then the real Monaco
/// and Andorra extracts.
final class CoastlineTests: XCTestCase {
    /// The extract's box: 43–44 N, 7–8 E. Coordinates below are offsets in degrees from its south-west corner.
    let box = GeographicBounds(west: 7, south: 43, east: 8, north: 44)!.mapRect

    func location(_ lat: Double, _ lon: Double) -> OSMLocation { OSMLocation(latitude: 43 + lat, longitude: 7 + lon)! }
    func point(_ lat: Double, _ lon: Double) -> MKMapPoint { MKMapPoint(CLLocationCoordinate2D(latitude: 43 + lat, longitude: 7 + lon)) }

    /// Ways along `path` (lat, lon offsets), split into pieces of `size` segments, ids from `firstID`.
    func ways(_ path: [(Double, Double)], size: Int = 100, firstID: Int64 = 1) -> [CoastlineWay] {
        var result: [CoastlineWay] = []
        var start = 0
        while start < path.count - 1 {
            let end = min(start + size, path.count - 1)
            result.append(CoastlineWay(id: firstID + Int64(result.count), locations: path[start...end].map { location($0.0, $0.1) }))
            start = end
        }
        return result
    }

    func assemble(_ ways: [CoastlineWay], maximumVertices: Int = 20_000) -> SeaAssembly {
        var assembler = CoastlineAssembler(bounds: box)
        assembler.maximumVertices = maximumVertices
        return assembler.assemble(ways)
    }

    func isSea(_ sea: SeaAssembly, _ lat: Double, _ lon: Double) -> Bool {
        sea.polygons.contains { PlanarPolygon.contains(point(lat, lon), in: $0) }
    }

    func seaArea(_ sea: SeaAssembly) -> Double {
        sea.polygons.reduce(0) { total, polygon in total + polygon.reduce(0) { $0 + PlanarPolygon.signedArea($1) } }
    }

    /// A coast running west to east across the box: land north (left), sea south.
    let straight: [(Double, Double)] = [(0.5, -0.5), (0.45, 0.1), (0.55, 0.3), (0.5, 0.5), (0.45, 0.7), (0.5, 0.9), (0.5, 1.5)]

    func testStraightCoastHasSeaOnTheRight() {
        let sea = assemble(ways(straight))
        XCTAssertEqual(sea.warnings, [])
        XCTAssertEqual(sea.polygons.count, 1)
        XCTAssertTrue(isSea(sea, 0.2, 0.5))
        XCTAssertTrue(isSea(sea, 0.01, 0.01))
        XCTAssertFalse(isSea(sea, 0.8, 0.5))
        XCTAssertFalse(isSea(sea, 0.99, 0.99))
        // Exteriors run clockwise on the map (positive area), as the tile cutter expects; about half the box.
        let fraction = seaArea(sea) / (box.width * box.height)
        XCTAssertGreaterThan(fraction, 0.4)
        XCTAssertLessThan(fraction, 0.6)
        // Every vertex lies within the box.
        for ring in sea.polygons.flatMap({ $0 }) {
            for p in ring { XCTAssertTrue(CoastlineAssembler.closedContains(box, p), "\(p) outside") }
        }
    }

    func testCoastSplitIntoShuffledWaysJoins() {
        var generator = SplitMix64(seed: 7)
        let path = (0...60).map { i -> (Double, Double) in (0.5 + 0.1 * sin(Double(i) / 5), -0.5 + 2 * Double(i) / 60) }
        let shuffled = ways(path, size: 4).shuffled(using: &generator)
        XCTAssertGreaterThan(shuffled.count, 10)
        let sea = assemble(shuffled)
        XCTAssertEqual(sea.warnings, [])
        XCTAssertEqual(sea.polygons.count, 1)
        XCTAssertTrue(isSea(sea, 0.1, 0.5))
        XCTAssertFalse(isSea(sea, 0.9, 0.5))
        // The same sea as from the coast in one way.
        XCTAssertEqual(seaArea(sea), seaArea(assemble(ways(path))), accuracy: 1e-6 * box.width * box.height)
    }

    /// An island drawn counter-clockwise (land on the left), with no other coast: sea all round it.
    let island: [(Double, Double)] = [(0.4, 0.4), (0.4, 0.6), (0.6, 0.6), (0.6, 0.4), (0.4, 0.4)]

    func testIslandAloneMakesSeaWithAHole() {
        let sea = assemble(ways(island))
        XCTAssertEqual(sea.warnings, [])
        XCTAssertEqual(sea.polygons.count, 1)
        XCTAssertEqual(sea.polygons.first?.count, 2, "the box with the island as a hole")
        XCTAssertTrue(isSea(sea, 0.1, 0.1))
        XCTAssertTrue(isSea(sea, 0.9, 0.5))
        XCTAssertFalse(isSea(sea, 0.5, 0.5))
        XCTAssertEqual(seaArea(sea) / (box.width * box.height), 0.96, accuracy: 0.01)
    }

    func testIslandOffAStraightCoastIsAHoleInItsSea() {
        let offshore: [(Double, Double)] = [(0.1, 0.4), (0.1, 0.6), (0.3, 0.6), (0.3, 0.4), (0.1, 0.4)]
        let sea = assemble(ways(straight) + ways(offshore, firstID: 100))
        XCTAssertEqual(sea.warnings, [])
        XCTAssertEqual(sea.polygons.count, 1)
        XCTAssertEqual(sea.polygons.first?.count, 2)
        XCTAssertFalse(isSea(sea, 0.2, 0.5))
        XCTAssertTrue(isSea(sea, 0.05, 0.5))
        XCTAssertFalse(isSea(sea, 0.8, 0.5))
    }

    func testIslandDrawnClockwiseInTheSeaIsStillAnIsland() {
        let offshore: [(Double, Double)] = [(0.1, 0.4), (0.3, 0.4), (0.3, 0.6), (0.1, 0.6), (0.1, 0.4)]
        let sea = assemble(ways(straight) + ways(offshore, firstID: 100))
        XCTAssertFalse(isSea(sea, 0.2, 0.5))
        XCTAssertTrue(isSea(sea, 0.05, 0.5))
        XCTAssertTrue(sea.warnings.contains { $0.contains("drawn clockwise") }, "\(sea.warnings)")
        // A clockwise ring inside an island is a lagoon: sea, with no warning.
        let lagoon: [(Double, Double)] = [(0.15, 0.45), (0.25, 0.45), (0.25, 0.55), (0.15, 0.55), (0.15, 0.45)]
        let island: [(Double, Double)] = [(0.1, 0.4), (0.1, 0.6), (0.3, 0.6), (0.3, 0.4), (0.1, 0.4)]
        let withLagoon = assemble(ways(straight) + ways(island, firstID: 100) + ways(lagoon, firstID: 200))
        XCTAssertEqual(withLagoon.warnings, [])
        XCTAssertTrue(isSea(withLagoon, 0.2, 0.5))
        XCTAssertFalse(isSea(withLagoon, 0.12, 0.5))
        XCTAssertTrue(isSea(withLagoon, 0.05, 0.5))
    }

    func testClockwiseRingIsAnEnclosedSea() {
        // Drawn clockwise, land lies outside: a lagoon-like sea inside, land all round.
        let sea = assemble(ways(Array(island.reversed())))
        XCTAssertEqual(sea.warnings, [])
        XCTAssertTrue(isSea(sea, 0.5, 0.5))
        XCTAssertFalse(isSea(sea, 0.1, 0.1))
    }

    /// The coast comes in from the west, leaves through the north edge, comes back in and leaves
    /// east: two pieces of land in the north with a strip of sea between them.
    let reentering: [[(Double, Double)]] = [
        [(0.3, -0.5), (0.3, 0.5), (1.5, 0.5), (1.5, 0.6)],
        [(1.5, 0.6), (1.5, 0.7), (0.6, 0.7), (0.6, 1.5)],
    ]

    func testCoastLeavingAndReenteringTheBox() {
        let sea = assemble(ways(reentering[0]) + ways(reentering[1], firstID: 10))
        XCTAssertEqual(sea.warnings, [])
        XCTAssertEqual(sea.polygons.count, 1)
        XCTAssertTrue(isSea(sea, 0.1, 0.5))
        XCTAssertTrue(isSea(sea, 0.8, 0.6), "the strip between the two pieces of land")
        XCTAssertFalse(isSea(sea, 0.8, 0.2))
        XCTAssertFalse(isSea(sea, 0.8, 0.9))
        // Without the outside part joining them the two chains still make the same sea.
        let apart = assemble([CoastlineWay(id: 1, locations: reentering[0].prefix(3).map { location($0.0, $0.1) }),
                              CoastlineWay(id: 2, locations: reentering[1].dropFirst().map { location($0.0, $0.1) })])
        XCTAssertEqual(apart.warnings, [])
        XCTAssertEqual(seaArea(apart), seaArea(sea), accuracy: 1e-9 * box.width * box.height)
    }

    func testReversedCoastPutsSeaOnTheOtherSide() {
        let sea = assemble(ways(Array(straight.reversed())))
        XCTAssertEqual(sea.warnings, [])
        XCTAssertTrue(isSea(sea, 0.8, 0.5))
        XCTAssertFalse(isSea(sea, 0.2, 0.5))
    }

    func testOneChainDrawnBackwardsIsReportedNotGuessed() {
        // The second chain runs against the first: the walk along the edge meets two exits in a row.
        let sea = assemble(ways(reentering[0]) + ways(Array(reentering[1].reversed()), firstID: 10))
        XCTAssertEqual(sea.polygons.count, 0)
        XCTAssertTrue(sea.warnings.contains { $0.contains("directions disagree") }, "\(sea.warnings)")
    }

    func testBrokenChainWarnsAndMakesNoSea() {
        // A gap of about 0.2° (16 km) in the middle of the coast: which side is sea is unknown there.
        let west = ways([(0.5, -0.5), (0.5, 0.4)])
        let east = ways([(0.5, 0.6), (0.5, 1.5)], firstID: 10)
        let sea = assemble(west + east)
        XCTAssertEqual(sea.polygons.count, 0)
        XCTAssertTrue(sea.warnings.contains { $0.contains("could not be closed") }, "\(sea.warnings)")
        XCTAssertTrue(sea.warnings.contains { $0.contains("way 1 ") }, "the warning names a way: \(sea.warnings)")
    }

    func testSmallGapIsBridged() {
        // About 80 m between the two ways' ends.
        let west = ways([(0.5, -0.5), (0.5, 0.5)])
        let east = ways([(0.5, 0.501), (0.5, 1.5)], firstID: 10)
        let sea = assemble(west + east)
        XCTAssertEqual(sea.polygons.count, 1)
        XCTAssertTrue(isSea(sea, 0.2, 0.5))
        XCTAssertFalse(isSea(sea, 0.8, 0.5))
        XCTAssertTrue(sea.warnings.contains { $0.contains("bridged a gap") }, "\(sea.warnings)")
    }

    func testWayCutOffByTheExtractIsCarriedToTheEdge() {
        // The extract kept only the nodes inside: the way stops short of the edges, its other nodes missing.
        var way = ways([(0.5, 0.02), (0.5, 0.98)])[0]
        way.cutAtStart = true
        way.cutAtEnd = true
        let sea = assemble([way])
        XCTAssertEqual(sea.warnings.filter { $0.contains("carried to its edge") }.count, 2, "\(sea.warnings)")
        XCTAssertTrue(isSea(sea, 0.2, 0.5))
        XCTAssertTrue(isSea(sea, 0.2, 0.01))
        XCTAssertFalse(isSea(sea, 0.8, 0.5))
        // A cut end is carried out however far from the edge it stops (an extract cut along a
        // polygon with its nodes outside dropped); an uncut end as far in is a break.
        var short = ways([(0.5, 0.02), (0.5, 0.6)])[0]
        short.cutAtStart = true
        XCTAssertEqual(assemble([short]).polygons.count, 0, "the uncut end 0.4° from the edge")
        short.cutAtEnd = true
        let carried = assemble([short])
        XCTAssertTrue(isSea(carried, 0.2, 0.9))
        XCTAssertFalse(isSea(carried, 0.8, 0.9))
    }

    func testCoastEndingShortOfTheBoxIsCarriedOut() {
        // A polygon-cut extract: the coast stops 0.05° inside the box at both ends, with no node
        // missing; each end is carried on the way the coast was heading.
        let sea = assemble(ways([(0.5, 0.05), (0.5, 0.5), (0.45, 0.95)]))
        XCTAssertEqual(sea.warnings.filter { $0.contains("carried to its edge") }.count, 2, "\(sea.warnings)")
        XCTAssertTrue(isSea(sea, 0.2, 0.5))
        XCTAssertTrue(isSea(sea, 0.3, 0.99))
        XCTAssertFalse(isSea(sea, 0.8, 0.5))
        XCTAssertTrue(isSea(sea, 0.49, 0.01))
        XCTAssertFalse(isSea(sea, 0.51, 0.01))
        // A stub that dips out of the box 20 m after its end is left out rather than carried out.
        let stub = assemble(ways([(0.0002, 0.3), (-0.01, 0.29)]) + ways([(-0.01, 0.31), (0.5, 0.5), (1.5, 0.5)], firstID: 10))
        XCTAssertTrue(stub.warnings.contains { $0.contains("stub of coast") }, "\(stub.warnings)")
        XCTAssertTrue(isSea(stub, 0.5, 0.9))
        XCTAssertFalse(isSea(stub, 0.5, 0.1))
        XCTAssertFalse(isSea(stub, 0.0001, 0.2))
    }

    func testIslandCrossingTheBoxEdge() {
        // A closed island ring half outside the box: the sea surrounds the part inside.
        let big: [(Double, Double)] = [(0.4, -0.5), (0.4, 0.5), (0.6, 0.5), (0.6, -0.5), (0.4, -0.5)]
        let sea = assemble(ways(big))
        XCTAssertEqual(sea.warnings, [])
        XCTAssertFalse(isSea(sea, 0.5, 0.2))
        XCTAssertTrue(isSea(sea, 0.5, 0.8))
        XCTAssertTrue(isSea(sea, 0.1, 0.2))
        XCTAssertTrue(isSea(sea, 0.9, 0.2))
    }

    func testNoCoastlineNoSea() {
        let sea = assemble([])
        XCTAssertEqual(sea.polygons.count, 0)
        XCTAssertEqual(sea.warnings, [])
    }

    func testHostileInputDoesNotCrash() {
        let hostile: [CoastlineWay] = [
            CoastlineWay(id: 1, locations: []),
            CoastlineWay(id: 2, locations: [location(0.5, 0.5)]),
            CoastlineWay(id: 3, locations: [location(0.5, 0.5), location(0.5, 0.5)]),
            // A self-intersecting figure eight, and the same way twice.
            CoastlineWay(id: 4, locations: [(0.2, 0.2), (0.4, 0.4), (0.4, 0.2), (0.2, 0.4), (0.2, 0.2)].map { location($0.0, $0.1) }),
            CoastlineWay(id: 5, locations: [(0.7, -0.5), (0.7, 1.5)].map { location($0.0, $0.1) }),
            CoastlineWay(id: 6, locations: [(0.7, -0.5), (0.7, 1.5)].map { location($0.0, $0.1) }),
        ]
        for count in 0...hostile.count {
            let sea = assemble(Array(hostile.prefix(count)))
            for polygon in sea.polygons { XCTAssertFalse(polygon.isEmpty) }
        }
        XCTAssertTrue(assemble(Array(hostile.prefix(3))).warnings.contains { $0.contains("fewer than two nodes") })
        // No bounds, or bounds at the pole: a warning, not a crash.
        XCTAssertEqual(CoastlineAssembler(bounds: .null).assemble(ways(straight)).polygons.count, 0)
        _ = CoastlineAssembler(bounds: GeographicBounds(west: 0, south: 89, east: 1, north: 90)!.mapRect)
            .assemble(ways(straight))
        // A scatter of coastline scraps: ends everywhere, none of them closable.
        var generator = SplitMix64(seed: 3)
        let scraps = (0..<40).map { id in
            CoastlineWay(id: Int64(id), locations: (0..<3).map { _ in
                location(Double.random(in: -0.2...1.2, using: &generator), Double.random(in: -0.2...1.2, using: &generator))
            })
        }
        let scattered = assemble(scraps)
        XCTAssertEqual(scattered.polygons.count, 0)
        XCTAssertTrue(scattered.warnings.contains { $0.contains("no sea was made") }, "\(scattered.warnings)")
        XCTAssertLessThanOrEqual(scattered.warnings.count, CoastlineAssembler.warningLimit + 2)
    }

    func testLargeSeaIsSplitAlongTileBoundaries() {
        let path = (0...400).map { i -> (Double, Double) in (0.5 + 0.05 * sin(Double(i)), -0.5 + 2 * Double(i) / 400) }
        let whole = assemble(ways(path), maximumVertices: 1_000_000)
        let split = assemble(ways(path), maximumVertices: 50)
        XCTAssertEqual(whole.polygons.count, 1)
        XCTAssertGreaterThan(split.polygons.count, 4)
        for polygon in split.polygons { XCTAssertLessThanOrEqual(polygon.reduce(0) { $0 + $1.count }, 200) }
        XCTAssertEqual(seaArea(split), seaArea(whole), accuracy: 1e-6 * box.width * box.height)
        for (lat, lon) in [(0.1, 0.1), (0.3, 0.9), (0.8, 0.5), (0.95, 0.05)] {
            XCTAssertEqual(isSea(split, lat, lon), isSea(whole, lat, lon))
        }
    }

    // MARK: Real extracts

    func testMonacoHasSeaAndHarbour() throws {
        let monaco = TestData.shared("data/osm/monaco.osm.pbf")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coast-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundle = folder.appendingPathComponent("monaco.omk")
        let report = try BundleImporter().importPBF(at: monaco, to: bundle)
        // Geofabrik cuts Monaco along a polygon: the coast stops short of the header's box at both
        // ends. The east end is carried out to it; the west end's first 20 m dip out of the box
        // and back, and that stub is left out. Nothing else is wrong with it.
        XCTAssertEqual(report.coastlineWarnings.count, 2, "\(report.coastlineWarnings)")
        XCTAssertEqual(report.coastlineWarnings.filter { $0.contains("carried to its edge") }.count, 1, "\(report.coastlineWarnings)")
        XCTAssertEqual(report.coastlineWarnings.filter { $0.contains("stub of coast") }.count, 1, "\(report.coastlineWarnings)")
        XCTAssertGreaterThan(report.featuresPerLayer["water"] ?? 0, 0)
        let archive = try MBTilesArchive(url: bundle.appendingPathComponent("tiles.mbtiles"))

        let places: [(name: String, lat: Double, lon: Double, sea: Bool)] = [
            // Port Hercule's basin (43.7347 N, 7.4215 E is on its western quay, 7.4230 E on a pier).
            ("Port Hercule", 43.7342, 7.4245, true), ("Port Hercule, north", 43.7360, 7.4235, true), ("open sea", 43.725, 7.44, true),
            ("Prince's Palace", 43.7314, 7.4199, false), ("Casino", 43.7393, 7.4277, false),
        ]
        for place in places {
            let p = MKMapPoint(CLLocationCoordinate2D(latitude: place.lat, longitude: place.lon))
            for zoom in [14, 12, 10] {
                let id = TileID(containing: p, zoom: zoom)
                let data = try XCTUnwrap(try archive.tile(id), "no tile \(id)")
                let tile = try VectorTile(decoding: try Compression.inflate(data))
                let inOcean = Self.oceanContains(tile, p, tile: id)
                if zoom == 14 {
                    XCTAssertEqual(inOcean, place.sea, "\(place.name) at z14")
                } else if place.sea && place.name == "open sea" {
                    XCTAssertTrue(inOcean, "\(place.name) at z\(zoom)")
                }
            }
        }
    }

    func testAndorraHasNoOcean() throws {
        let andorra = TestData.shared("data/osm/andorra.osm.pbf")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coast-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundle = folder.appendingPathComponent("andorra.omk")
        let importer = BundleImporter()
        importer.tileOptions.maximumZoom = 10  // the ocean would show from zoom 0; deeper tiles add nothing here
        let report = try importer.importPBF(at: andorra, to: bundle)
        XCTAssertEqual(report.coastlineWarnings, [])
        let archive = try MBTilesArchive(url: bundle.appendingPathComponent("tiles.mbtiles"))
        var oceans = 0, waters = 0
        try archive.forEachTile { _, data in
            guard let water = try VectorTile(decoding: try Compression.inflate(data))[layer: "water"] else { return }
            waters += water.features.count
            oceans += water.features.filter { $0["class"] == .string("ocean") }.count
        }
        XCTAssertGreaterThan(waters, 0, "Andorra's lakes are water")
        XCTAssertEqual(oceans, 0)
    }

    func testReportDecodesWithoutCoastlineWarnings() throws {
        let old = try JSONDecoder().decode(ImportReport.self, from: Data(#"{"source": "old.pbf", "nodes": 3}"#.utf8))
        XCTAssertEqual(old.coastlineWarnings, [])
        var report = ImportReport()
        report.coastlineWarnings = ["coastline: test"]
        let again = try JSONDecoder().decode(ImportReport.self, from: JSONEncoder().encode(report))
        XCTAssertEqual(again.coastlineWarnings, ["coastline: test"])
    }

    /// Whether `point` lies inside a `water` feature of class ocean in the decoded tile.
    static func oceanContains(_ tile: VectorTile, _ point: MKMapPoint, tile id: TileID) -> Bool {
        guard let water = tile[layer: "water"] else { return false }
        let rect = id.mapRect
        let scale = Double(water.extent) / rect.width
        let local = MKMapPoint(x: (point.x - rect.minX) * scale, y: (point.y - rect.minY) * scale)
        for feature in water.features where feature["class"] == .string("ocean") {
            guard case .polygons(let polygons) = feature.geometry else { continue }
            for polygon in polygons {
                let rings = polygon.map { $0.map { MKMapPoint(x: Double($0.x), y: Double($0.y)) } }
                if PlanarPolygon.contains(local, in: rings) { return true }
            }
        }
        return false
    }
}
