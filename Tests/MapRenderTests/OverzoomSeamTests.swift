import Foundation
import MapFormats
import MapGeometry
import MapBundle
import MapRender
import MapStyle
import TestSupport
import XCTest

/// Views of a real bundle (Monaco, imported once for the class) far above its deepest tiles
/// (zoom 14), where one tile covers 2 048–8 192 points: the pixels along a tile edge must continue
/// the map on either side of it, with no line of background or doubled colour where the two
/// tiles' clips meet — whether the edge falls between two pixel columns or across a pixel row.
final class OverzoomSeamTests: XCTestCase {
    /// The z14 tile over La Condamine; its top-left corner is the edge crossing tested.
    private static let tile = (x: 8530, y: 5974)

    func testNoSeamsAlongTileEdgesWhenOverzoomed() throws {
        let loader = try MonacoTiles.loader()
        // Dashed lines are left out: their pattern restarts in each tile (as in MapLibre, where a
        // tile's line starts at its buffer), so a dash may legitimately end at a tile edge.
        var style = DefaultStyle.standard.style.splitAtFirstSymbolLayer().base
        style.layers.removeAll { $0.paint["line-dasharray"] != nil }
        XCTAssertFalse(style.layers.isEmpty)
        let renderer = try StyleRenderer(style: style, loader: loader)
        let side = 512
        // The vertical edge falls between columns 199 and 200, the horizontal one across row 170.
        let edgeX = 200.0, edgeY = 170.4
        // Places where the pixels beyond the edge agree exactly but a pixel at the edge differs
        // from them: a few are real features ending there (about 0.4 %); blending the two clips'
        // coverage (an antialiased clip) shows as 3 % of them.
        var totalChecked = 0, totalBroken = 0
        for zoom in [16.0, 17.0, 18.0] {
            let worldSize = 512 * exp2(zoom)
            let cornerX = Double(Self.tile.x) / 16384, cornerY = Double(Self.tile.y) / 16384
            let centerX = cornerX + (Double(side) / 2 - edgeX) / worldSize, centerY = cornerY + (Double(side) / 2 - edgeY) / worldSize
            let center = MKMapPoint(x: centerX * MKMapSize.worldWidth, y: centerY * MKMapSize.worldWidth).coordinate
            let canvas = try renderer.render(center: center, zoom: zoom, width: Double(side), height: Double(side))
            let pixels = canvas.rgbaPixels()
            func pixel(_ x: Int, _ y: Int) -> [Int] { (0..<4).map { Int(pixels[(y * side + x) * 4 + $0]) } }
            func distance(_ a: [Int], _ b: [Int]) -> Int { zip(a, b).map { abs($0 - $1) }.max() ?? 0 }
            /// Across the edge between `inner` pixels, where the two pixels beyond them agree, the
            /// inner ones must agree with them too (to within 3 levels).
            func seams(_ outerA: (Int, Int), _ innerA: (Int, Int), _ innerB: (Int, Int), _ outerB: (Int, Int)) -> (checked: Int, seams: Int) {
                let a = pixel(outerA.0, outerA.1), b = pixel(outerB.0, outerB.1)
                guard distance(a, b) <= 1 else { return (0, 0) }
                let broken = distance(pixel(innerA.0, innerA.1), a) > 3 || distance(pixel(innerB.0, innerB.1), b) > 3
                return (1, broken ? 1 : 0)
            }
            var checked = 0, broken = 0
            for y in 0..<side where abs(Double(y) - edgeY) > 3 {
                let result = seams((198, y), (199, y), (200, y), (201, y))
                checked += result.checked
                broken += result.seams
            }
            for x in 0..<side where abs(Double(x) - edgeX) > 3 {
                let result = seams((x, 168), (x, 169), (x, 170), (x, 171))
                checked += result.checked
                broken += result.seams
            }
            XCTAssertGreaterThan(checked, side, "zoom \(zoom): the map continues across the edges in most places")
            totalChecked += checked
            totalBroken += broken
            // The view really shows the bundle's map, not one flat colour.
            let colours = Set((0..<side).map { pixel($0, 300) })
            XCTAssertGreaterThan(colours.count, 3, "zoom \(zoom)")
        }
        XCTAssertLessThanOrEqual(totalBroken, totalChecked / 100, "\(totalBroken) of \(totalChecked) places along the edges show a seam")
    }
}
