import Foundation
import MapFormats
import MapGeometry
import MapBundle
import MapRender
import MapStyle
import TestSupport
import XCTest

/// Raster tiles of a real bundle (Monaco, imported once per test process): sizes, the seams between
/// neighbours, and the MapLibre zoom convention that makes a 256-point tile a quarter of a
/// 512-point one.
final class TileRendererTests: XCTestCase {
    /// Tiles over the harbour of Monaco (La Condamine, the palace, Fontvieille): roads, buildings
    /// and labels cross their edges.
    private static let harbour = (z: 16, x: 34120, y: 23897)

    private func loader() throws -> StyleResourceLoader { try MonacoTiles.loader() }

    /// The default style without its labels: everything in it is drawn from geometry alone, so
    /// tiles must match a larger view pixel for pixel.
    private var baseStyle: Style { DefaultStyle.standard.style.splitAtFirstSymbolLayer().base }

    // MARK: Sizes and errors

    func testTileSizeAndScaleGiveThePixelSize() throws {
        let renderer = try TileRenderer(style: baseStyle, loader: loader())
        let (z, x, y) = Self.harbour
        for (size, scale, pixels) in [(256, 1.0, 256), (256, 2.0, 512), (512, 1.0, 512), (512, 2.0, 1024), (256, 3.0, 768), (256, 1.5, 384)] {
            let canvas = try renderer.render(z: z, x: x, y: y, tileSize: size, scale: scale)
            XCTAssertEqual(canvas.pixelWidth, pixels, "\(size) @\(scale)")
            XCTAssertEqual(canvas.pixelHeight, pixels, "\(size) @\(scale)")
            let png = try renderer.pngData(z: z, x: x, y: y, tileSize: size, scale: scale)
            XCTAssertEqual(Array(png.prefix(4)), [0x89, 0x50, 0x4E, 0x47])
            // IHDR width, big-endian at byte 16.
            XCTAssertEqual(png[16..<20].reduce(0) { $0 << 8 | Int($1) }, pixels)
        }
    }

    func testInvalidTilesSizesAndScalesAreTypedErrors() throws {
        let renderer = try TileRenderer(style: baseStyle, loader: loader())
        for (z, x, y) in [(25, 0, 0), (-1, 0, 0), (2, 4, 0), (2, 0, 4), (2, -1, 0), (0, 1, 0), (30, 1, 1), (Int.max, 0, 0)] {
            XCTAssertThrowsError(try renderer.render(z: z, x: x, y: y)) { error in
                XCTAssertEqual(error as? TileRenderError, .invalidTile(z: z, x: x, y: y))
            }
        }
        XCTAssertThrowsError(try renderer.render(z: 1, x: 0, y: 0, tileSize: 300)) { error in
            XCTAssertEqual(error as? TileRenderError, .unsupportedTileSize(300))
        }
        for scale in [0, -1, .nan, .infinity, 5, 0.3] {
            XCTAssertThrowsError(try renderer.render(z: 1, x: 0, y: 0, scale: scale), "\(scale)") { error in
                guard case .unsupportedScale = error as? TileRenderError else { return XCTFail("\(error)") }
            }
        }
    }

    /// The deepest zoom renders (over the harbour, the z24 tile inside the harbour tile).
    func testDeepestZoomRenders() throws {
        let renderer = try TileRenderer(style: baseStyle, loader: loader())
        let (z, x, y) = Self.harbour
        let shift = TileRenderer.maximumZoom - z
        let canvas = try renderer.render(z: TileRenderer.maximumZoom, x: x << shift + 100, y: y << shift + 100)
        XCTAssertEqual(canvas.pixel(x: 128, y: 128).alpha, 255, "the background at least")
    }

    // MARK: Seams

    /// Horizontal and vertical neighbours: the last column (row) of one tile continues into the
    /// first of the next as smoothly as two adjacent columns inside a tile do.
    func testNeighbouringTilesContinueAcrossTheirEdges() throws {
        let renderer = try TileRenderer(style: DefaultStyle.standard.style, loader: loader())
        let (z, x, y) = Self.harbour
        let a = try renderer.render(z: z, x: x, y: y, scale: 2).rgbaPixels()
        let right = try renderer.render(z: z, x: x + 1, y: y, scale: 2).rgbaPixels()
        let below = try renderer.render(z: z, x: x, y: y + 1, scale: 2).rgbaPixels()
        let side = 512
        func pixel(_ rgba: [UInt8], _ px: Int, _ py: Int) -> [Int] { (0..<4).map { Int(rgba[(py * side + px) * 4 + $0]) } }
        func difference(_ p: [Int], _ q: [Int]) -> Int { zip(p, q).map { abs($0 - $1) }.reduce(0, +) }
        // How much a pair of lines of pixels differ: the mean over the line.
        func mean(_ pairs: [(Int, Int, Int, Int)], _ first: [UInt8], _ second: [UInt8]) -> Double {
            Double(pairs.map { difference(pixel(first, $0.0, $0.1), pixel(second, $0.2, $0.3)) }.reduce(0, +)) / Double(pairs.count)
        }
        let seamX = mean((0..<side).map { (side - 1, $0, 0, $0) }, a, right)
        let insideX = mean((0..<side).map { (side - 2, $0, side - 1, $0) }, a, a)
        let seamY = mean((0..<side).map { ($0, side - 1, $0, 0) }, a, below)
        let insideY = mean((0..<side).map { ($0, side - 2, $0, side - 1) }, a, a)
        XCTAssertGreaterThan(insideX + insideY, 0, "the tiles have detail along their edges")
        XCTAssertLessThanOrEqual(seamX, 2 * insideX + 4, "vertical seam")
        XCTAssertLessThanOrEqual(seamY, 2 * insideY + 4, "horizontal seam")
    }

    /// Without labels, two neighbouring tiles are exactly the two halves of a view centred on
    /// their shared edge: nothing is cut or drawn twice at the seam.
    func testNeighboursAreHalvesOfTheViewAcrossThem() throws {
        let loader = try loader()
        let tiles = try TileRenderer(style: baseStyle, loader: loader)
        let view = try StyleRenderer(style: baseStyle, loader: loader)
        let (z, x, y) = Self.harbour
        let left = try tiles.render(z: z, x: x, y: y).rgbaPixels()
        let right = try tiles.render(z: z, x: x + 1, y: y).rgbaPixels()
        let n = Double(1 << z)
        let edge = MKMapPoint(x: Double(x + 1) / n * MKMapSize.worldWidth, y: (Double(y) + 0.5) / n * MKMapSize.worldWidth)
        let whole = try view.render(center: edge.coordinate, zoom: Double(z - 1), width: 512, height: 256).rgbaPixels()
        var differing = 0, total = 0
        for row in 0..<256 {
            for column in 0..<512 {
                let tile = column < 256 ? left : right
                let i = (row * 256 + column % 256) * 4, j = (row * 512 + column) * 4
                total += 1
                if (0..<4).contains(where: { abs(Int(tile[i + $0]) - Int(whole[j + $0])) > 2 }) { differing += 1 }
            }
        }
        XCTAssertLessThan(Double(differing) / Double(total), 0.001, "\(differing) of \(total) pixels differ")
    }

    /// MapLibre's zoom convention: the 256-point tile z/x/y is the matching quarter of the
    /// 512-point tile (z−1)/(x/2)/(y/2), labels included, within a small tolerance (a label near
    /// the quarter's edge can collide differently).
    func test256PointTileIsAQuarterOfThe512PointParent() throws {
        let renderer = try TileRenderer(style: DefaultStyle.standard.style, loader: loader())
        let (z, x, y) = Self.harbour
        let parent = try renderer.render(z: z - 1, x: x / 2, y: y / 2, tileSize: 512).rgbaPixels()
        for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            let child = try renderer.render(z: z, x: x / 2 * 2 + dx, y: y / 2 * 2 + dy, tileSize: 256).rgbaPixels()
            var differing = 0
            for row in 0..<256 {
                for column in 0..<256 {
                    let i = (row * 256 + column) * 4, j = ((row + dy * 256) * 512 + column + dx * 256) * 4
                    if (0..<4).contains(where: { abs(Int(child[i + $0]) - Int(parent[j + $0])) > 8 }) { differing += 1 }
                }
            }
            XCTAssertLessThan(Double(differing) / 65536, 0.02, "quarter (\(dx), \(dy)): \(differing) pixels differ")
        }
    }

    // MARK: Crop

    /// The crop copies pixels unchanged at every scale, and what lies outside the source is
    /// transparent.
    func testCropCopiesPixels() throws {
        for scale in [1.0, 2.0, 3.0] {
            let canvas = try RenderCanvas(width: 40, height: 30, scale: scale)
            canvas.fill(rings: [[(10, 10), (20, 10), (20, 20), (10, 20)]], color: RenderColor(red: 1, green: 0, blue: 0))
            canvas.fillCircle(x: 25, y: 12, radius: 4, color: RenderColor(red: 0, green: 0, blue: 1, alpha: 0.5))
            let crop = try canvas.cropped(x: 8, y: 5, width: 20, height: 20)
            XCTAssertEqual(crop.pixelWidth, Int(20 * scale))
            XCTAssertEqual(crop.scale, scale)
            let s = Int(scale)
            for py in 0..<crop.pixelHeight {
                for px in 0..<crop.pixelWidth {
                    let p = crop.pixel(x: px, y: py), q = canvas.pixel(x: px + 8 * s, y: py + 5 * s)
                    XCTAssertTrue(p == q, "scale \(scale) pixel (\(px), \(py))")
                }
            }
            let beyond = try canvas.cropped(x: 30, y: 0, width: 20, height: 10)
            XCTAssertEqual(beyond.pixel(x: beyond.pixelWidth - 1, y: 0).alpha, 0, "outside the source")
        }
    }
}
