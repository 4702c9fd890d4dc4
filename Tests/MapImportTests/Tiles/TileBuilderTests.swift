import Foundation
import MapFormats
import MapGeometry
import TestSupport
import XCTest
@testable import MapImport

final class TileBuilderTests: XCTestCase {
    let monaco = MKMapPoint(CLLocationCoordinate2D(latitude: 43.7384, longitude: 7.4246))

    private func decoded(_ builder: TileBuilder) throws -> [TileID: VectorTile] {
        var result: [TileID: VectorTile] = [:]
        for (id, bytes) in try builder.tiles() { result[id] = try VectorTile(decoding: bytes) }
        return result
    }

    func testPointAppearsOnceAtEveryZoom() throws {
        let builder = try TileBuilder()
        try builder.add(layer: .place, minimumZoom: 4, attributes: [("name", .string("Monaco")), ("rank", .int(3))], geometry: .point(monaco))
        let tiles = try decoded(builder)
        XCTAssertEqual(Set(tiles.keys.map(\.z)), Set(4...14))
        XCTAssertEqual(tiles.count, 11, "a point far from tile edges is in one tile per zoom")
        let z14 = TileID(containing: monaco, zoom: 14)
        let layer = try XCTUnwrap(tiles[z14]?[layer: "place"])
        XCTAssertEqual(layer.extent, 4096)
        let feature = try XCTUnwrap(layer.features.first)
        XCTAssertEqual(feature["name"], .string("Monaco"))
        XCTAssertEqual(feature["rank"], .uint(3))
        guard case .points(let points) = feature.geometry else { return XCTFail("not a point") }
        let rect = z14.mapRect
        XCTAssertEqual(Double(points[0].x), ((monaco.x - rect.minX) / rect.width * 4096).rounded())
        XCTAssertEqual(Double(points[0].y), ((monaco.y - rect.minY) / rect.width * 4096).rounded())
    }

    func testLineAcrossATileEdgeIsClippedWithABuffer() throws {
        var options = TileBuilder.Options()
        options.minimumZoom = 14
        let builder = try TileBuilder(options: options)
        let tile = TileID(containing: monaco, zoom: 14).mapRect
        // A horizontal line from the middle of one tile to the middle of its eastern neighbour.
        let line = [MKMapPoint(x: tile.midX, y: tile.midY), MKMapPoint(x: tile.midX + tile.width, y: tile.midY)]
        try builder.add(layer: .transportation, minimumZoom: 4, attributes: [("class", .string("primary"))], geometry: .line(line))
        let tiles = try decoded(builder)
        XCTAssertEqual(tiles.count, 2)
        let west = try XCTUnwrap(tiles[TileID(containing: monaco, zoom: 14)]?[layer: "transportation"]?.features.first)
        guard case .lines(let lines) = west.geometry else { return XCTFail("not a line") }
        XCTAssertEqual(lines[0].map(\.x), [2048, 4096 + 64], "runs on into the 64-unit buffer")
        XCTAssertEqual(lines[0].map(\.y), [2048, 2048])
    }

    func testPolygonCoveringTilesAndSmallPolygonsDropped() throws {
        let builder = try TileBuilder()
        let big = TileID(containing: monaco, zoom: 10).mapRect.insetBy(dx: -10, dy: -10)
        let square = [MKMapPoint(x: big.minX, y: big.minY), MKMapPoint(x: big.maxX, y: big.minY),
                      MKMapPoint(x: big.maxX, y: big.maxY), MKMapPoint(x: big.minX, y: big.maxY)]
        try builder.add(layer: .landcover, minimumZoom: 7, attributes: [("class", .string("wood"))], geometry: .polygon([square]))
        // A 10 m building: at zoom 13 it would be 1.4 × 1.4 points (11.6 tile units), under the
        // 2 × 2-point minimum, so it shows from zoom 14 only.
        let side = 10 * MKMapPointsPerMeterAtLatitude(43.7384)
        let house = [monaco, MKMapPoint(x: monaco.x + side, y: monaco.y), MKMapPoint(x: monaco.x + side, y: monaco.y + side),
                     MKMapPoint(x: monaco.x, y: monaco.y + side)]
        try builder.add(layer: .building, minimumZoom: 13, attributes: [("render_height", .int(10))], geometry: .polygon([house]))
        let tiles = try decoded(builder)
        // The square is one z10 tile plus a sliver: at z14 it covers the 16 × 16 tiles of that z10 tile and their edges.
        let z14 = tiles.filter { $0.key.z == 14 && $0.value[layer: "landcover"] != nil }
        XCTAssertGreaterThanOrEqual(z14.count, 256)
        let inner = try XCTUnwrap(tiles[TileID(containing: MKMapPoint(x: big.midX, y: big.midY), zoom: 14)]?[layer: "landcover"]?.features.first)
        guard case .polygons(let polygons) = inner.geometry else { return XCTFail("not a polygon") }
        let xs = polygons[0][0].map(\.x), ys = polygons[0][0].map(\.y)
        XCTAssertEqual([xs.min(), xs.max(), ys.min(), ys.max()], [-64, 4096 + 64, -64, 4096 + 64], "clipped to the buffered tile")
        XCTAssertNil(tiles[TileID(containing: monaco, zoom: 13)]?[layer: "building"])
        XCTAssertNotNil(tiles[TileID(containing: monaco, zoom: 14)]?[layer: "building"])
        XCTAssertEqual(tiles.keys.filter { $0.z == 7 }.count, 1)
    }

    func testSameNamedSegmentsMergeBelowTheMaximumZoom() {
        typealias P = VectorTile.TilePoint
        let a = P(0, 0), b = P(10, 0), c = P(20, 0), d = P(30, 0), e = P(10, 10)
        let street = [VectorTile.Property("class", .string("minor")), VectorTile.Property("name", .string("Rue Grimaldi"))]
        func feature(_ line: [P], _ properties: [VectorTile.Property]) -> VectorTile.Feature {
            VectorTile.Feature(properties: properties, geometry: .lines([line]))
        }
        // A→B, B→C and D→C (drawn the other way) join into one line A…D.
        let merged = TileBuilder.mergeLines([feature([a, b], street), feature([b, c], street), feature([d, c], street)])
        XCTAssertEqual(merged.count, 1)
        XCTAssertEqual(merged[0].geometry, .lines([[a, b, c, d]]))
        // One-way segments are not reversed to fit.
        let oneway = street + [VectorTile.Property("oneway", .uint(1))]
        let directed = TileBuilder.mergeLines([feature([a, b], oneway), feature([b, c], oneway), feature([d, c], oneway)])
        XCTAssertEqual(directed.count, 1)
        XCTAssertEqual(directed[0].geometry, .lines([[a, b, c], [d, c]]))
        // Three ends meeting at B is a junction: nothing is joined there. Other names stay apart.
        let junction = TileBuilder.mergeLines([feature([a, b], street), feature([b, c], street), feature([b, e], street),
                                           feature([c, d], [VectorTile.Property("class", .string("minor"))])])
        XCTAssertEqual(junction.count, 2)
        XCTAssertEqual(junction[0].geometry, .lines([[a, b], [b, c], [b, e]]))
    }

    func testFeaturesNearATileEdgeReachTheNeighboursBuffer() throws {
        let builder = try TileBuilder()
        let tile = TileID(containing: monaco, zoom: 14)
        let rect = tile.mapRect
        // 10 tile units inside the tile's east edge: also within the 64-unit buffer of its east neighbour.
        let point = MKMapPoint(x: rect.maxX - rect.width * 10 / 4096, y: rect.midY)
        try builder.add(layer: .poi, minimumZoom: 14, attributes: [("class", .string("cafe"))], geometry: .point(point))
        let tiles = try decoded(builder)
        XCTAssertEqual(Set(tiles.keys), [tile, TileID(z: 14, x: tile.x + 1, y: tile.y)!])
        guard case .points(let points)? = tiles[TileID(z: 14, x: tile.x + 1, y: tile.y)!]?[layer: "poi"]?.features.first?.geometry else {
            return XCTFail("no point in the neighbour")
        }
        XCTAssertEqual(points[0].x, -10)
    }

    func testLevelsDeepenForSmallExtracts() throws {
        let builder = try TileBuilder()
        let monacoRect = MKMapRect(boundingPoints: [monaco, MKMapPoint(x: monaco.x + 3000, y: monaco.y + 3000)])
        let small = builder.levels(bounds: monacoRect, cores: 2)
        XCTAssertEqual(small.map(\.bucketZoom).prefix(3), [0, 6, 10])
        XCTAssertEqual(small.count, 4, "a city gets a deeper level so that both cores have buckets")
        XCTAssertEqual(small.last?.zooms.upperBound, 15)
        // Zooms are covered once each, in order.
        XCTAssertEqual(small.flatMap { Array($0.zooms) }, Array(0...14))
        let country = MKMapRect(boundingPoints: [MKMapPoint(CLLocationCoordinate2D(latitude: 47, longitude: 5)),
                                                 MKMapPoint(CLLocationCoordinate2D(latitude: 55, longitude: 15))])
        XCTAssertEqual(builder.levels(bounds: country, cores: 2).map(\.bucketZoom), [0, 6, 10])
    }

    /// Bucketing changes where features are cut, never what a tile holds: the same features cut
    /// with one level from the root give the same tiles.
    func testBucketedCutMatchesACutFromTheRoot() throws {
        var single = TileBuilder.Options()
        single.bucketZooms = []
        let bucketed = try TileBuilder(), reference = try TileBuilder(options: single)
        var random = SplitMix64(seed: 3)
        func near(_ spread: Double) -> MKMapPoint {
            MKMapPoint(x: monaco.x + (Double(random.next() % 1_000_000) / 1_000_000 - 0.5) * spread,
                       y: monaco.y + (Double(random.next() % 1_000_000) / 1_000_000 - 0.5) * spread)
        }
        for index in 0..<300 {
            // Lines and polygons of every size, from a street to a region crossing many z6 tiles.
            let spread = [2_000.0, 50_000, 2_000_000][index % 3]
            let line = (0..<6).map { _ in near(spread) }
            let center = near(spread)
            let r = spread / 20
            let square = [MKMapPoint(x: center.x - r, y: center.y - r), MKMapPoint(x: center.x + r, y: center.y - r),
                          MKMapPoint(x: center.x + r, y: center.y + r), MKMapPoint(x: center.x - r, y: center.y + r)]
            let point = near(spread)
            for builder in [bucketed, reference] {
                try builder.add(layer: .transportation, minimumZoom: index % 15, attributes: [("class", .string("primary")), ("i", .int(Int64(index)))], geometry: .line(line))
                try builder.add(layer: .landuse, minimumZoom: 4, attributes: [("class", .string("residential"))], geometry: .polygon([square]))
                try builder.add(layer: .poi, minimumZoom: 12, attributes: [("name", .string("P\(index)"))], geometry: .point(point))
            }
        }
        let a = try bucketed.tiles(), b = try reference.tiles()
        XCTAssertGreaterThan(a.count, 1000)
        XCTAssertEqual(a.map(\.0), b.map(\.0))
        // Clipping in other steps may start a ring at another vertex; the shapes must be the same.
        func normalized(_ bytes: [UInt8]) throws -> VectorTile {
            var tile = try VectorTile(decoding: bytes)
            for l in tile.layers.indices {
                for f in tile.layers[l].features.indices {
                    guard case .polygons(let polygons) = tile.layers[l].features[f].geometry else { continue }
                    tile.layers[l].features[f].geometry = .polygons(polygons.map { $0.map { ring in
                        let start = ring.indices.min { (ring[$0].x, ring[$0].y) < (ring[$1].x, ring[$1].y) } ?? 0
                        return Array(ring[start...] + ring[..<start])
                    } })
                }
            }
            return tile
        }
        var identical = 0
        for (x, y) in zip(a, b) {
            if x.1 == y.1 { identical += 1; continue }
            XCTAssertEqual(try normalized(x.1), try normalized(y.1), "tile \(x.0)")
        }
        XCTAssertGreaterThan(identical, a.count * 9 / 10, "most tiles are byte for byte the same")
    }

    /// A U whose bend lies outside the tile comes into it as two separate polygons of one
    /// feature, not one ring joined by a zero-area edge along the buffer's border.
    func testPolygonReenteringATileBecomesSeparateParts() throws {
        let builder = try TileBuilder()
        let tile = TileID(containing: monaco, zoom: 14)
        let r = tile.mapRect, w = r.width
        func p(_ x: Double, _ y: Double) -> MKMapPoint { MKMapPoint(x: r.minX + x * w, y: r.minY + y * w) }
        let u = [p(-0.5, 0.2), p(0.3, 0.2), p(0.3, 0.3), p(-0.4, 0.3), p(-0.4, 0.6), p(0.3, 0.6), p(0.3, 0.7), p(-0.5, 0.7)]
        try builder.add(layer: .landuse, minimumZoom: 14, attributes: [("class", .string("residential"))], geometry: .polygon([u]))
        // The same U added as a two-part multipolygon (each arm alone) gives the same tile.
        let arms: [[[MKMapPoint]]] = [[[p(-0.5, 0.2), p(0.3, 0.2), p(0.3, 0.3), p(-0.5, 0.3)]], [[p(-0.5, 0.6), p(0.3, 0.6), p(0.3, 0.7), p(-0.5, 0.7)]]]
        try builder.add(layer: .park, minimumZoom: 14, attributes: [("class", .string("park"))], geometry: .polygons(arms))
        let tiles = try decoded(builder)
        for layer in ["landuse", "park"] {
            let feature = try XCTUnwrap(tiles[tile]?[layer: layer]?.features.first, layer)
            guard case .polygons(let polygons) = feature.geometry else { return XCTFail("\(layer): not a polygon") }
            XCTAssertEqual(polygons.count, 2, "\(layer): one part per arm")
            for polygon in polygons {
                XCTAssertEqual(polygon.count, 1)
                XCTAssertEqual(Set(polygon[0].map(\.x)), [-64, 1229], "\(layer): from the buffer's edge to the arm's end")
            }
        }
    }
}
