import Foundation
import MapFormats
import MapGeometry
import MapRender
import MapStyle
import XCTest

final class StyleRendererTests: XCTestCase {
    private let noFiles = StyleResourceLoader(tile: { _, _ in nil })

    private func renderer(_ json: String) throws -> StyleRenderer {
        try StyleRenderer(style: Style(text: json), loader: noFiles)
    }

    /// A GeoJSON square around (0, 0) filled with a colour interpolated on the zoom and a colour
    /// matched on a property: both change between zoom 2 and zoom 4, and the square scales.
    func testDataDrivenFillAtTwoZooms() throws {
        let style = """
        {"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "Feature", "properties": {"kind": "park"},
          "geometry": {"type": "Polygon", "coordinates": [[[-10, -10], [10, -10], [10, 10], [-10, 10], [-10, -10]]]}}}},
         "layers": [
          {"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
          {"id": "f", "type": "fill", "source": "s", "paint": {
            "fill-color": ["interpolate", ["linear"], ["zoom"], 2, ["match", ["get", "kind"], "park", "#ff0000", "#000000"],
                           4, ["match", ["get", "kind"], "park", "#0000ff", "#000000"]]}}]}
        """
        let renderer = try renderer(style)
        let center = CLLocationCoordinate2D(latitude: 0, longitude: 0)
        // At zoom 2 the square is 20/360 · 2048 ≈ 114 points wide: pixel (100, 100) is inside.
        let low = try renderer.render(center: center, zoom: 2, width: 200, height: 200)
        XCTAssertEqual(rgb(low.pixel(x: 100, y: 100)), [255, 0, 0])
        XCTAssertEqual(rgb(low.pixel(x: 20, y: 20)), [255, 255, 255], "outside the square at zoom 2")
        let high = try renderer.render(center: center, zoom: 4, width: 200, height: 200)
        XCTAssertEqual(rgb(high.pixel(x: 100, y: 100)), [0, 0, 255])
        XCTAssertEqual(rgb(high.pixel(x: 20, y: 20)), [0, 0, 255], "the square covers the view at zoom 4")
    }

    /// line-dasharray is in line widths: width 4 with [2, 2] gives 8-point dashes and gaps.
    func testDashedLine() throws {
        let style = """
        {"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "LineString", "coordinates": [[-40, 0], [40, 0]]}}},
         "layers": [{"id": "l", "type": "line", "source": "s", "paint": {"line-color": "#000000", "line-width": 4, "line-dasharray": [2, 2]}}]}
        """
        // At zoom 0 the world is 512 points: the line runs from x = 100 - 56.9 to 100 + 56.9.
        let canvas = try renderer(style).render(center: .init(latitude: 0, longitude: 0), zoom: 0, width: 200, height: 20)
        let start = 100 - 80.0 / 360 * 512 / 2
        XCTAssertEqual(canvas.pixel(x: Int(start + 4), y: 10).alpha, 255, "first dash")
        XCTAssertEqual(canvas.pixel(x: Int(start + 12), y: 10).alpha, 0, "first gap")
        XCTAssertEqual(canvas.pixel(x: Int(start + 20), y: 10).alpha, 255, "second dash")
        XCTAssertEqual(canvas.pixel(x: Int(start + 4), y: 4).alpha, 0, "beyond the line's half width")
    }

    /// With bearing 90 east is up: a red point east of the centre is drawn above it, a blue one
    /// north of it to its left.
    func testBearingNinetyPutsEastUp() throws {
        let style = """
        {"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [
           {"type": "Feature", "properties": {"c": "#ff0000"}, "geometry": {"type": "Point", "coordinates": [20, 0]}},
           {"type": "Feature", "properties": {"c": "#0000ff"}, "geometry": {"type": "Point", "coordinates": [0, 20]}}]}}},
         "layers": [{"id": "c", "type": "circle", "source": "s", "paint": {"circle-radius": 5, "circle-color": ["get", "c"]}}]}
        """
        let canvas = try renderer(style).render(center: .init(latitude: 0, longitude: 0), zoom: 1, bearing: 90, width: 200, height: 200)
        // 20° of longitude at zoom 1 is 20/360 · 1024 ≈ 56.9 points.
        XCTAssertEqual(rgb(canvas.pixel(x: 100, y: 43)), [255, 0, 0], "east is up")
        XCTAssertEqual(canvas.pixel(x: 157, y: 100).alpha, 0, "nothing east of the centre on screen")
        XCTAssertEqual(canvas.pixel(x: 41, y: 100).blue, 255, "north is left")
    }

    /// Vector tiles: a polygon in a z0 tile is drawn at zoom 1 (overzoomed), and a filter in the
    /// legacy syntax picks the feature.
    func testVectorTileWithLegacyFilter() throws {
        let square = VectorTile.Geometry.polygons([[[.init(1024, 1024), .init(3072, 1024), .init(3072, 3072), .init(1024, 3072)]]])
        let tile = VectorTile(layers: [VectorTile.Layer(name: "water", features: [
            VectorTile.Feature(properties: [.init("class", .string("lake"))], geometry: square),
        ])])
        let bytes = tile.encoded()
        let style = """
        {"version": 8, "sources": {"v": {"type": "vector", "tiles": ["x/{z}/{x}/{y}"], "minzoom": 0, "maxzoom": 0}},
         "layers": [{"id": "w", "type": "fill", "source": "v", "source-layer": "water", "filter": ["==", "class", "lake"],
                     "paint": {"fill-color": "#00ff00"}},
                    {"id": "x", "type": "fill", "source": "v", "source-layer": "water", "filter": ["==", "class", "sea"],
                     "paint": {"fill-color": "#ff0000"}}]}
        """
        let loader = StyleResourceLoader(tile: { _, id in id.z == 0 ? bytes : nil })
        let renderer = try StyleRenderer(style: Style(text: style), loader: loader)
        let canvas = try renderer.render(center: .init(latitude: 0, longitude: 0), zoom: 1, width: 200, height: 200)
        XCTAssertEqual(rgb(canvas.pixel(x: 100, y: 100)), [0, 255, 0])
        // The square spans half the world (1024 points at zoom 1): the view's corners are inside too.
        XCTAssertEqual(rgb(canvas.pixel(x: 5, y: 5)), [0, 255, 0])
    }

    /// A GeoJSON source whose file is missing fails when the renderer is made, with a typed error.
    func testMissingGeoJSONIsATypedError() throws {
        let style = try Style(text: """
        {"version": 8, "sources": {"s": {"type": "geojson", "data": "missing.geojson"}},
         "layers": [{"id": "f", "type": "fill", "source": "s"}]}
        """)
        XCTAssertThrowsError(try StyleRenderer(style: style, loader: noFiles)) { error in
            XCTAssertTrue(error is RenderError)
            XCTAssertTrue("\(error)".contains("missing.geojson"), "\(error)")
        }
    }

    private func rgb(_ pixel: (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8)) -> [UInt8] {
        [pixel.red, pixel.green, pixel.blue]
    }
}

/// The built-in styles are valid documents the renderer accepts.
final class DefaultStyleTests: XCTestCase {
    func testDefaultStylesValidateAndCompile() throws {
        for style in DefaultStyle.allCases {
            XCTAssertEqual(Style.validate(try JSONValue.parse(style.json)).filter { $0.severity == .error }.map(\.message), [], style.rawValue)
            _ = try StyleRenderer(style: style.style, loader: StyleResourceLoader(tile: { _, _ in nil }))
        }
    }
}
