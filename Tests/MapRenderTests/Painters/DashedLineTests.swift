import Foundation
import MapGeometry
@testable import MapRender
import MapStyle
import XCTest

/// Dashes laid out the way MapLibre's line shader does (see `DashedLine`): in units of the line
/// width at the integer zoom, stretched with the map between integer zooms, restarting where a
/// GeoJSON line enters a tile's buffered square.
final class DashedLineTests: XCTestCase {
    func testPatternIntervalsJoinOddArrays() throws {
        let even = try XCTUnwrap(DashPattern([2, 1]))
        XCTAssertEqual(even.intervals(upTo: 7).map { [$0.start, $0.end] }, [[0, 2], [3, 5], [6, 7]])
        // [1, 1, 1]: the last dash of a period runs into the first of the next.
        let odd = try XCTUnwrap(DashPattern([1, 1, 1]))
        XCTAssertEqual(odd.intervals(upTo: 7).map { [$0.start, $0.end] }, [[0, 1], [2, 4], [5, 7]])
        XCTAssertNil(DashPattern([]), "an empty array is a solid line")
        XCTAssertNil(DashPattern([0, 0]), "nothing to repeat")
        XCTAssertNil(DashPattern([1, -1]), "negative lengths are refused")
        XCTAssertNil(DashPattern([3]), "a single length is one endless dash")
    }

    /// An offset line takes its dashes from the centre line's distances, vertex for vertex.
    func testDashesFollowTheReferenceDistances() throws {
        let pattern = try XCTUnwrap(DashPattern([2, 2]))
        let centre: [(x: Double, y: Double)] = [(0, 0), (10, 0), (10, 10)]
        let dashes = DashedLine.dashes(of: centre, closed: false, pattern: pattern, unit: 2)
        // Units of 2 points: dashes [0, 4], [8, 12] (round the corner at 10), [16, 20].
        XCTAssertEqual(dashes.count, 3)
        XCTAssertEqual(dashes[1].points.map { [$0.x, $0.y] }, [[8, 0], [10, 0], [10, 2]])
        XCTAssertTrue(dashes[0].startsLine)
        XCTAssertTrue(dashes[2].endsLine)
        XCTAssertEqual(dashes[2].endDirection.y, 1)
        let shifted = centre.map { (x: $0.x, y: $0.y - 3) }
        let offsetDashes = DashedLine.dashes(of: shifted, reference: centre, closed: false, pattern: pattern, unit: 2)
        XCTAssertEqual(offsetDashes.map(\.points.count), dashes.map(\.points.count))
        XCTAssertEqual(offsetDashes[0].points.last?.x, 4)
    }

    /// A GeoJSON line crossing a tile edge is cut at the neighbour's buffer (128 of 512 points
    /// beyond the edge), so the second tile's pattern starts there, not at the line's start.
    func testGeoJSONLinesRestartInEachTile() throws {
        // Zoom 1: tiles are half the world; a line along y = 0.3 from x = 0.05 to 0.95.
        let line: [(x: Double, y: Double)] = [(0.05, 0.3), (0.95, 0.3)]
        let tiles = GeoJSONLineTiling.tiles(of: line, closed: false, z: 1, maxZoom: 18, bounds: (0, 0, 1, 1))
        XCTAssertEqual(tiles.map { [$0.x, $0.y] }, [[0, 0], [1, 0]])
        let left = try XCTUnwrap(tiles.first?.pieces.first), right = try XCTUnwrap(tiles.last?.pieces.first)
        // Points are snapped to the tile's 8192-unit grid, so compare to a fraction of a unit.
        XCTAssertEqual(left.first?.x ?? 0, 0.05, accuracy: 1e-4, "the line starts in the left tile")
        XCTAssertEqual(left.last?.x ?? 0, 0.5 + 0.125, accuracy: 1e-4, "cut at the left tile's buffer")
        XCTAssertEqual(right.first?.x ?? 0, 0.5 - 0.125, accuracy: 1e-4, "the right tile's piece starts at its buffer")
        XCTAssertEqual(right.last?.x ?? 0, 0.95, accuracy: 1e-4)
    }

    /// Between integer zooms the pattern grows with the map: at zoom 0.5 a [2, 2] pattern on a
    /// 4-point line repeats every 16 · √2 ≈ 22.6 points, not 16.
    func testPatternStretchesBetweenIntegerZooms() throws {
        let style = """
        {"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "LineString", "coordinates": [[-60, 0], [60, 0]]}}},
         "layers": [{"id": "l", "type": "line", "source": "s", "paint": {"line-color": "#000000", "line-width": 4, "line-dasharray": [2, 2]}}]}
        """
        let renderer = try StyleRenderer(style: Style(text: style), loader: StyleResourceLoader(tile: { _, _ in nil }))
        let canvas = try renderer.render(center: .init(latitude: 0, longitude: 0), zoom: 0.5, width: 300, height: 20)
        let start = 150 - 120.0 / 360 * 512 * 2.0.squareRoot() / 2
        let unit = 4 * 2.0.squareRoot()
        // Dash [0, 2u], gap [2u, 4u], dash [4u, 6u]: sample the middle of each.
        XCTAssertEqual(canvas.pixel(x: Int(start + 1 * unit), y: 10).alpha, 255, "first dash")
        XCTAssertEqual(canvas.pixel(x: Int(start + 3 * unit), y: 10).alpha, 0, "first gap")
        XCTAssertEqual(canvas.pixel(x: Int(start + 5 * unit), y: 10).alpha, 255, "second dash")
        XCTAssertEqual(canvas.pixel(x: Int(start + 7 * unit), y: 10).alpha, 0, "second gap")
    }

    /// With round caps each dash gets rounded ends half a unit long, reaching into the gap: in a
    /// [2, 2] pattern the gap's middle stays empty while its quarter points are covered.
    func testRoundCapsRoundEveryDash() throws {
        let style = """
        {"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "LineString", "coordinates": [[-60, 0], [60, 0]]}}},
         "layers": [{"id": "l", "type": "line", "source": "s", "layout": {"line-cap": "round"},
           "paint": {"line-color": "#000000", "line-width": 8, "line-dasharray": [2, 2]}}]}
        """
        let renderer = try StyleRenderer(style: Style(text: style), loader: StyleResourceLoader(tile: { _, _ in nil }))
        let canvas = try renderer.render(center: .init(latitude: 0, longitude: 0), zoom: 0, width: 300, height: 20)
        let start = 150 - 120.0 / 360 * 512 / 2
        // Units of 8 points: the first gap is [16, 32]; caps (radius 4) reach to 20 and from 28.
        XCTAssertEqual(canvas.pixel(x: Int(start + 24), y: 10).alpha, 0, "the gap's middle")
        XCTAssertGreaterThan(canvas.pixel(x: Int(start + 19), y: 10).alpha, 200, "the first dash's rounded end")
        XCTAssertLessThan(canvas.pixel(x: Int(start + 19), y: 6).alpha, 100, "rounded, not square: off-centre the cap is shorter")
    }
}
