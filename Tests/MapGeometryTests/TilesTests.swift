import XCTest
import MapGeometry

final class TilesTests: XCTestCase {
    func testTileRectsAndRows() throws {
        let root = try XCTUnwrap(TileID(z: 0, x: 0, y: 0))
        XCTAssertEqual(root.mapRect, .world)
        XCTAssertNil(root.parent)
        XCTAssertEqual(root.children.map(\.description), ["1/0/0", "1/1/0", "1/0/1", "1/1/1"])

        // Monaco at zoom 14 is tile 14/8529/5974 (x = ⌊(lon+180)/360·2^14⌋, y from the Mercator row).
        let monaco = MKMapPoint(CLLocationCoordinate2D(latitude: 43.7384, longitude: 7.4246))
        let tile = TileID(containing: monaco, zoom: 14)
        XCTAssertEqual(tile.description, "14/8529/5974")
        XCTAssertTrue(tile.mapRect.contains(monaco))
        XCTAssertEqual(tile.mapRect.width, MKMapSize.worldWidth / 16384)
        XCTAssertEqual(tile.tmsY, 16383 - 5974)
        XCTAssertEqual(TileID(z: 14, x: 8529, tmsY: tile.tmsY), tile)
        XCTAssertEqual(tile.parent, TileID(z: 13, x: 4264, y: 2987))
        XCTAssertTrue(tile.parent!.mapRect.contains(tile.mapRect))
        XCTAssertEqual(tile.region.center.latitude, 43.73, accuracy: 0.02)
    }

    func testInvalidTiles() {
        XCTAssertNil(TileID(z: -1, x: 0, y: 0))
        XCTAssertNil(TileID(z: 29, x: 0, y: 0))
        XCTAssertNil(TileID(z: 2, x: 4, y: 0))
        XCTAssertNil(TileID(z: 2, x: 0, y: -1))
        XCTAssertNil(TileID(z: 3, x: 0, tmsY: 8))
        XCTAssertNil(TileID("1/2"))
        XCTAssertNil(TileID("a/b/c"))
        XCTAssertEqual(TileID("3/2/1"), TileID(z: 3, x: 2, y: 1))
    }

    func testContainingWrapsAndClamps() {
        let w = MKMapSize.worldWidth
        XCTAssertEqual(TileID(containing: MKMapPoint(x: w + 1, y: 10), zoom: 1), TileID(z: 1, x: 0, y: 0))
        XCTAssertEqual(TileID(containing: MKMapPoint(x: -1, y: 10), zoom: 1), TileID(z: 1, x: 1, y: 0))
        XCTAssertEqual(TileID(containing: MKMapPoint(x: 1, y: w * 3), zoom: 1), TileID(z: 1, x: 0, y: 1))
        XCTAssertEqual(TileID(containing: MKMapPoint(x: .nan, y: .infinity), zoom: 2).z, 2)
    }

    func testQuadkey() {
        XCTAssertEqual(TileID(z: 3, x: 3, y: 5)?.quadkey, "213")
        XCTAssertEqual(TileID(z: 0, x: 0, y: 0)?.quadkey, "")
    }

    func testRangeCoveringARect() throws {
        let tileSize = MKMapSize.worldWidth / 8
        // Exactly tile 3/2/1: the touching neighbours are not included.
        let exact = try XCTUnwrap(TileRange(covering: MKMapRect(x: 2 * tileSize, y: tileSize, width: tileSize, height: tileSize), zoom: 3))
        XCTAssertEqual(exact.tiles.map(\.description), ["3/2/1"])
        let wider = try XCTUnwrap(TileRange(covering: MKMapRect(x: 2 * tileSize - 1, y: tileSize, width: tileSize + 2, height: 1), zoom: 3))
        XCTAssertEqual(wider.tiles.map(\.description), ["3/1/1", "3/2/1", "3/3/1"])
        XCTAssertEqual(wider.count, 3)
        XCTAssertNil(TileRange(covering: .null, zoom: 3))
        XCTAssertNil(TileRange(covering: MKMapRect(x: 0, y: -10, width: 5, height: 5), zoom: 3))
        let world = try XCTUnwrap(TileRange(covering: MKMapRect(x: -5, y: -5, width: MKMapSize.worldWidth * 2, height: MKMapSize.worldWidth * 2), zoom: 2))
        XCTAssertEqual(world.count, 16)
    }

    func testRangeAcrossTheAntimeridian() throws {
        let region = MKCoordinateRegion(center: CLLocationCoordinate2D(latitude: 0.5, longitude: 180),
                                        span: MKCoordinateSpan(latitudeDelta: 1, longitudeDelta: 10))
        let range = try XCTUnwrap(TileRange(covering: MKMapRect(region), zoom: 4))
        XCTAssertTrue(range.wrapsAntimeridian)
        XCTAssertEqual(range.columns, [15, 0])
        XCTAssertTrue(range.contains(TileID(z: 4, x: 15, y: 7)!))
        XCTAssertTrue(range.contains(TileID(z: 4, x: 0, y: 7)!))
        XCTAssertFalse(range.contains(TileID(z: 4, x: 7, y: 7)!))
        XCTAssertEqual(Set(range.tiles.map(\.x)), [15, 0])
    }
}
