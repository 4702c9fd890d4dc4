import Foundation
import MapFormats
import MapGeometry
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
        let builder = TileBuilder()
        builder.add(layer: .place, minimumZoom: 4, attributes: [("name", .string("Monaco")), ("rank", .int(3))], geometry: .point(monaco))
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
        let builder = TileBuilder(options: options)
        let tile = TileID(containing: monaco, zoom: 14).mapRect
        // A horizontal line from the middle of one tile to the middle of its eastern neighbour.
        let line = [MKMapPoint(x: tile.midX, y: tile.midY), MKMapPoint(x: tile.midX + tile.width, y: tile.midY)]
        builder.add(layer: .transportation, minimumZoom: 4, attributes: [("class", .string("primary"))], geometry: .line(line))
        let tiles = try decoded(builder)
        XCTAssertEqual(tiles.count, 2)
        let west = try XCTUnwrap(tiles[TileID(containing: monaco, zoom: 14)]?[layer: "transportation"]?.features.first)
        guard case .lines(let lines) = west.geometry else { return XCTFail("not a line") }
        XCTAssertEqual(lines[0].map(\.x), [2048, 4096 + 64], "runs on into the 64-unit buffer")
        XCTAssertEqual(lines[0].map(\.y), [2048, 2048])
    }

    func testPolygonCoveringTilesAndSmallPolygonsDropped() throws {
        let builder = TileBuilder()
        let big = TileID(containing: monaco, zoom: 10).mapRect.insetBy(dx: -10, dy: -10)
        let square = [MKMapPoint(x: big.minX, y: big.minY), MKMapPoint(x: big.maxX, y: big.minY),
                      MKMapPoint(x: big.maxX, y: big.maxY), MKMapPoint(x: big.minX, y: big.maxY)]
        builder.add(layer: .landcover, minimumZoom: 7, attributes: [("class", .string("wood"))], geometry: .polygon([square]))
        // A 10 m building: at zoom 13 it would be 1.4 × 1.4 points (11.6 tile units), under the
        // 2 × 2-point minimum, so it shows from zoom 14 only.
        let side = 10 * MKMapPointsPerMeterAtLatitude(43.7384)
        let house = [monaco, MKMapPoint(x: monaco.x + side, y: monaco.y), MKMapPoint(x: monaco.x + side, y: monaco.y + side),
                     MKMapPoint(x: monaco.x, y: monaco.y + side)]
        builder.add(layer: .building, minimumZoom: 13, attributes: [("render_height", .int(10))], geometry: .polygon([house]))
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
        XCTAssertEqual(builder.tileCounts[7], 1)
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
        let builder = TileBuilder()
        let tile = TileID(containing: monaco, zoom: 14)
        let rect = tile.mapRect
        // 10 tile units inside the tile's east edge: also within the 64-unit buffer of its east neighbour.
        let point = MKMapPoint(x: rect.maxX - rect.width * 10 / 4096, y: rect.midY)
        builder.add(layer: .poi, minimumZoom: 14, attributes: [("class", .string("cafe"))], geometry: .point(point))
        let tiles = try decoded(builder)
        XCTAssertEqual(Set(tiles.keys), [tile, TileID(z: 14, x: tile.x + 1, y: tile.y)!])
        guard case .points(let points)? = tiles[TileID(z: 14, x: tile.x + 1, y: tile.y)!]?[layer: "poi"]?.features.first?.geometry else {
            return XCTFail("no point in the neighbour")
        }
        XCTAssertEqual(points[0].x, -10)
    }
}
