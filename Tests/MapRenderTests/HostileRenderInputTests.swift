import Foundation
import MapFormats
import MapGeometry
import MapRender
import MapStyle
import TestSupport
import XCTest

/// Bad styles, tiles and cameras: each one gives a typed error or a documented fallback that is
/// named in `StyleRenderer.warnings` — never a crash, never a silently blank image.
final class HostileRenderInputTests: XCTestCase {
    private let center = CLLocationCoordinate2D(latitude: 0, longitude: 0)

    /// A style with a background and a fill of the vector source's `water` layer.
    private let vectorStyle = """
    {"version": 8, "sources": {"v": {"type": "vector", "tiles": ["t/{z}/{x}/{y}"], "minzoom": 0, "maxzoom": 0}},
     "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                {"id": "w", "type": "fill", "source": "v", "source-layer": "water", "paint": {"fill-color": "#0000ff"}}]}
    """

    /// A z0 tile whose `water` layer is one square over the middle of the world.
    private func waterTile() -> [UInt8] {
        let square = VectorTile.Geometry.polygons([[[.init(1024, 1024), .init(3072, 1024), .init(3072, 3072), .init(1024, 3072)]]])
        return VectorTile(layers: [VectorTile.Layer(name: "water", features: [VectorTile.Feature(geometry: square)])]).encoded()
    }

    private func render(_ style: String, tile: [UInt8]?) throws -> (canvas: RenderCanvas, warnings: [String]) {
        let renderer = try StyleRenderer(style: Style(text: style), loader: StyleResourceLoader(tile: { _, _ in tile }))
        let canvas = try renderer.render(center: center, zoom: 0, width: 256, height: 256)
        return (canvas, renderer.warnings)
    }

    private func isBlue(_ canvas: RenderCanvas) -> Bool {
        let p = canvas.pixel(x: 128, y: 128)
        return p.red == 0 && p.green == 0 && p.blue == 255
    }

    // MARK: Styles

    func testInvalidStyleJSONIsATypedError() {
        for text in ["", "{", "{\"version\": 8, \"sources\": {}, \"layers\": [}", "[1, 2]", "null", "\u{FEFF}\u{0}"] {
            XCTAssertThrowsError(try Style(text: text), "\(text.debugDescription)") { error in
                XCTAssertTrue(error is StyleError, "\(error)")
            }
        }
    }

    func testUnknownLayerTypesAndPropertiesAreRefusedByTheStyle() {
        let unknownType = """
        {"version": 8, "sources": {}, "layers": [{"id": "x", "type": "sparkles"}]}
        """
        let unknownPaint = """
        {"version": 8, "sources": {}, "layers": [{"id": "x", "type": "background", "paint": {"background-sparkle": 1}}]}
        """
        let wrongType = """
        {"version": 8, "sources": {}, "layers": [{"id": "x", "type": "background", "paint": {"background-color": 12}}]}
        """
        for text in [unknownType, unknownPaint, wrongType] {
            XCTAssertThrowsError(try Style(text: text)) { error in
                guard case StyleError.invalid(let problems) = error else { return XCTFail("\(error)") }
                XCTAssertFalse(problems.isEmpty)
            }
        }
    }

    /// The validator refuses a layer naming a source the style lacks; a style edited in code
    /// (sources removed after loading) is drawn without that layer, and the warning says why.
    func testMissingSourceIsRefusedOrNamedInWarnings() throws {
        let text = """
        {"version": 8, "sources": {}, "layers": [{"id": "w", "type": "fill", "source": "nowhere", "source-layer": "water"}]}
        """
        XCTAssertThrowsError(try Style(text: text)) { error in XCTAssertTrue("\(error)".contains("nowhere"), "\(error)") }

        var style = try Style(text: vectorStyle)
        style.sources = []
        let renderer = try StyleRenderer(style: style, loader: StyleResourceLoader(tile: { _, _ in nil }))
        let canvas = try renderer.render(center: center, zoom: 0, width: 64, height: 64)
        XCTAssertEqual(canvas.pixel(x: 32, y: 32).red, 255, "the background is still drawn")
        XCTAssertEqual(renderer.warnings.count, 1, "\(renderer.warnings)")
        XCTAssertTrue(renderer.warnings.first?.contains("no source v") ?? false, "\(renderer.warnings)")
    }

    /// GeoJSON data that is missing or not JSON fails the renderer's creation, naming the source.
    func testUnreadableGeoJSONIsATypedError() throws {
        let style = try Style(text: """
        {"version": 8, "sources": {"g": {"type": "geojson", "data": "points.geojson"}},
         "layers": [{"id": "c", "type": "circle", "source": "g"}]}
        """)
        for bytes in [nil, Array("{\"type\": \"FeatureCollection\", \"features\": [".utf8), [0xFF, 0xFE, 0x00]] as [[UInt8]?] {
            let loader = StyleResourceLoader(tile: { _, _ in nil }, resource: { _ in bytes })
            XCTAssertThrowsError(try StyleRenderer(style: style, loader: loader)) { error in
                XCTAssertTrue("\(error)".contains("source g"), "\(error)")
            }
        }
    }

    /// A sprite that does not exist and a font the machine lacks: the label is still drawn (with
    /// an installed font), and the missing sprite is named.
    func testMissingSpriteAndFontsFallBack() throws {
        let style = """
        {"version": 8, "sprite": "nowhere/sprite", "glyphs": "nowhere/{fontstack}/{range}.pbf",
         "sources": {"p": {"type": "geojson", "data": {"type": "Feature", "properties": {"name": "Hello"},
                                                        "geometry": {"type": "Point", "coordinates": [0, 0]}}}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                    {"id": "l", "type": "symbol", "source": "p",
                     "layout": {"text-field": ["get", "name"], "text-font": ["No Such Font Regular"], "text-size": 24,
                                "icon-image": "no-such-icon"},
                     "paint": {"text-color": "#000000"}}]}
        """
        let renderer = try StyleRenderer(style: Style(text: style), loader: StyleResourceLoader(tile: { _, _ in nil }))
        let canvas = try renderer.render(center: center, zoom: 2, width: 200, height: 100)
        var dark = 0
        for y in 30..<70 { for x in 40..<160 where canvas.pixel(x: x, y: y).red < 128 { dark += 1 } }
        XCTAssertGreaterThan(dark, 30, "the label is drawn with a fallback font")
        XCTAssertTrue(renderer.warnings.contains { $0.contains("sprite") }, "\(renderer.warnings)")
    }

    /// Expression parsing recurses once per level, so nesting is capped at
    /// `ParsingContext.maximumDepth` (64): a 60-deep expression compiles and evaluates on a
    /// thread with a 2 MiB stack (debug builds spend roughly 20 KB of stack a level between the
    /// JSON parser, validation and expression parsing; 1 MiB is not enough there), a 400-deep one
    /// is a typed error rather than a stack overflow, and deeper than the JSON parser's 512 levels
    /// is refused by the JSON parser.
    func testDeeplyNestedExpressions() throws {
        func nested(_ depth: Int) -> String {
            String(repeating: "[\"+\", 1, ", count: depth) + "0" + String(repeating: "]", count: depth)
        }
        let style = { (depth: Int) in """
            {"version": 8, "sources": {}, "layers": [{"id": "bg", "type": "background",
             "paint": {"background-color": "#ff0000", "background-opacity": ["/", \(nested(depth)), \(depth)]}}]}
            """
        }
        final class Outcome: @unchecked Sendable { var alpha: UInt8?; var error: String? }
        let outcome = Outcome(), done = DispatchSemaphore(value: 0)
        let text = style(60)
        let thread = Thread {
            do {
                let renderer = try StyleRenderer(style: Style(text: text), loader: StyleResourceLoader(tile: { _, _ in nil }))
                outcome.alpha = try renderer.render(center: .init(latitude: 0, longitude: 0), zoom: 0, width: 8, height: 8).pixel(x: 4, y: 4).alpha
            } catch {
                outcome.error = "\(error)"
            }
            done.signal()
        }
        thread.stackSize = 2 << 20
        thread.start()
        XCTAssertEqual(done.wait(timeout: .now() + 60), .success)
        XCTAssertNil(outcome.error)
        XCTAssertEqual(outcome.alpha, 255, "opacity 60/60")
        XCTAssertThrowsError(try StyleRenderer(style: Style(text: style(400)), loader: StyleResourceLoader(tile: { _, _ in nil }))) { error in
            XCTAssertTrue("\(error)".contains("nested"), "\(error)")
        }
        XCTAssertThrowsError(try Style(text: style(600))) { error in
            guard case StyleError.json = error else { return XCTFail("\(error)") }
        }
    }

    // MARK: Vector tiles

    func testGoodTileDrawsWithoutWarnings() throws {
        let (canvas, warnings) = try render(vectorStyle, tile: waterTile())
        XCTAssertTrue(isBlue(canvas))
        XCTAssertEqual(warnings, [])
    }

    /// Garbage, truncated and bit-flipped tiles: nothing from them is drawn, the background is,
    /// and the warning names the source, the tile and the reason.
    func testCorruptVectorTilesAreNamedInWarnings() throws {
        let good = waterTile()
        var flipped = good
        for i in stride(from: 3, to: flipped.count, by: 7) { flipped[i] ^= 0x5A }
        var random = SplitMix64(seed: 7)
        let garbage = (0..<4096).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let gzipHeaderOnly: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0, 0xFF]
        let gzippedTruncated = Array(try Compression.deflate(good).prefix(20))
        for (name, bytes) in [("truncated", Array(good.prefix(good.count / 2))), ("bit-flipped", flipped), ("garbage", garbage),
                              ("gzip header only", gzipHeaderOnly), ("truncated gzip", gzippedTruncated)] {
            let (canvas, warnings) = try render(vectorStyle, tile: bytes)
            XCTAssertFalse(isBlue(canvas), name)
            XCTAssertEqual(canvas.pixel(x: 2, y: 2).red, 255, "\(name): the background is drawn")
            XCTAssertEqual(warnings.count, 1, "\(name): \(warnings)")
            XCTAssertTrue(warnings.first?.hasPrefix("source v: 1 of 1 tiles could not be read") ?? false, "\(name): \(warnings)")
            XCTAssertTrue(warnings.first?.contains("0/0/0") ?? false, "\(name): \(warnings)")
        }
    }

    /// A gzip stream that inflates beyond the renderer's limit (a decompression bomb; 64 MiB by
    /// default, lowered here so that the test stays quick): refused once inflating reaches the
    /// limit, and named; a tile under the limit still draws.
    func testGzipBombIsRefused() throws {
        let bomb = try Compression.deflate([UInt8](repeating: 0, count: 8 << 20))
        XCTAssertLessThan(bomb.count, 20_000)
        let renderer = try StyleRenderer(style: Style(text: vectorStyle), loader: StyleResourceLoader(tile: { _, _ in bomb }))
        XCTAssertEqual(renderer.maximumInflatedTileSize, 64 << 20)
        renderer.maximumInflatedTileSize = 1 << 20
        let canvas = try renderer.render(center: center, zoom: 0, width: 256, height: 256)
        XCTAssertFalse(isBlue(canvas))
        XCTAssertTrue(renderer.warnings.first?.contains("limit of 1048576 bytes") ?? false, "\(renderer.warnings)")

        let gzipped = try Compression.deflate(waterTile())
        let small = try StyleRenderer(style: Style(text: vectorStyle), loader: StyleResourceLoader(tile: { _, _ in gzipped }))
        small.maximumInflatedTileSize = 1 << 20
        XCTAssertTrue(isBlue(try small.render(center: center, zoom: 0, width: 256, height: 256)))
        XCTAssertEqual(small.warnings, [])
    }

    /// Every tile missing (a view outside the extract) draws the background and says so.
    func testNoTilesAtAllIsNamedInWarnings() throws {
        let (canvas, warnings) = try render(vectorStyle, tile: nil)
        XCTAssertEqual(canvas.pixel(x: 128, y: 128).red, 255)
        XCTAssertEqual(warnings, ["source v: none of the 1 tiles covering the view exist"])
    }

    /// The warnings describe the latest render: a corrupt tile is named again when it is drawn
    /// from the cache, and not in the render of a style without tiles.
    func testWarningsAreRepeatedForCachedCorruptTiles() throws {
        let renderer = try StyleRenderer(style: Style(text: vectorStyle), loader: StyleResourceLoader(tile: { _, _ in [1, 2, 3] }))
        _ = try renderer.render(center: center, zoom: 0, width: 64, height: 64)
        let first = renderer.warnings
        _ = try renderer.render(center: center, zoom: 0, width: 64, height: 64)
        XCTAssertEqual(renderer.warnings, first)
        XCTAssertEqual(first.count, 1)
    }

    // MARK: Raster tiles

    private let rasterStyle = """
    {"version": 8, "sources": {"r": {"type": "raster", "tiles": ["r/{z}/{x}/{y}.png"], "tileSize": 256, "minzoom": 0, "maxzoom": 0}},
     "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                {"id": "r", "type": "raster", "source": "r"}]}
    """

    private func greenPNG(side: Int = 256) throws -> [UInt8] {
        let canvas = try RenderCanvas(width: Double(side), height: Double(side))
        canvas.fill(RenderColor(red: 0, green: 1, blue: 0))
        return try canvas.pngData()
    }

    func testGoodRasterTileDraws() throws {
        let (canvas, warnings) = try render(rasterStyle, tile: greenPNG())
        XCTAssertEqual(canvas.pixel(x: 128, y: 128).green, 255)
        XCTAssertEqual(canvas.pixel(x: 128, y: 128).red, 0)
        XCTAssertEqual(warnings, [])
    }

    /// Garbage, truncated PNGs, a vector tile where a PNG belongs, and a valid PNG header that
    /// claims 30000 × 30000 pixels (3.6 GB once decoded): refused and named.
    func testCorruptAndOversizedPNGTilesAreNamedInWarnings() throws {
        let png = try greenPNG()
        var huge = try greenPNG(side: 8)
        for offset in [16, 20] { huge.replaceSubrange(offset..<offset + 4, with: bigEndian(30000)) }
        huge.replaceSubrange(29..<33, with: bigEndian(Compression.crc32(Array(huge[12..<29]))))
        for (name, bytes, reason) in [("truncated", Array(png.prefix(png.count / 2)), "PNG"), ("garbage", [UInt8](repeating: 0x42, count: 300), "PNG"),
                                      ("vector tile", waterTile(), "PNG"), ("huge", huge, "larger than 4096")] {
            let (canvas, warnings) = try render(rasterStyle, tile: bytes)
            XCTAssertEqual(canvas.pixel(x: 128, y: 128).red, 255, "\(name): the background shows")
            XCTAssertEqual(warnings.count, 1, "\(name): \(warnings)")
            XCTAssertTrue(warnings.first?.contains(reason) ?? false, "\(name): \(warnings)")
        }
    }

    // MARK: Cameras and sizes

    func testInvalidCamerasAreTypedErrors() throws {
        let renderer = try StyleRenderer(style: Style(text: vectorStyle), loader: StyleResourceLoader(tile: { _, _ in nil }))
        let nan = Double.nan, inf = Double.infinity
        let cases: [(String, CLLocationCoordinate2D, Double, Double, Double, Double, Double)] = [
            ("NaN latitude", .init(latitude: nan, longitude: 0), 1, 0, 100, 100, 1),
            ("latitude 91", .init(latitude: 91, longitude: 0), 1, 0, 100, 100, 1),
            ("longitude 540", .init(latitude: 0, longitude: 540), 1, 0, 100, 100, 1),
            ("infinite longitude", .init(latitude: 0, longitude: -inf), 1, 0, 100, 100, 1),
            ("NaN zoom", center, nan, 0, 100, 100, 1),
            ("infinite zoom", center, inf, 0, 100, 100, 1),
            ("zoom -5", center, -5, 0, 100, 100, 1),
            ("zoom 40", center, 40, 0, 100, 100, 1),
            ("NaN bearing", center, 1, nan, 100, 100, 1),
            ("infinite bearing", center, 1, inf, 100, 100, 1),
            ("zero width", center, 1, 0, 0, 100, 1),
            ("negative height", center, 1, 0, 100, -5, 1),
            ("NaN width", center, 1, 0, nan, 100, 1),
            ("huge width", center, 1, 0, 1e300, 100, 1),
            ("width beyond the pixel limit", center, 1, 0, 20000, 100, 1),
            ("width beyond the pixel limit at 2x", center, 1, 0, 9000, 100, 2),
            ("zero pixel ratio", center, 1, 0, 100, 100, 0),
            ("negative pixel ratio", center, 1, 0, 100, 100, -2),
            ("NaN pixel ratio", center, 1, 0, 100, 100, nan),
            ("pixel ratio 1000", center, 1, 0, 100, 100, 1000),
        ]
        for (name, center, zoom, bearing, width, height, ratio) in cases {
            XCTAssertThrowsError(try renderer.render(center: center, zoom: zoom, bearing: bearing, width: width, height: height,
                                                     pixelRatio: ratio), name) { error in
                XCTAssertFalse("\(error)".isEmpty, name)
            }
        }
    }

    /// Documented fallbacks: latitudes beyond Web Mercator's limit are clamped to it (the view
    /// shows the northern edge of the map, above which nothing is drawn), bearings wrap.
    func testPolarLatitudeIsClampedAndBearingsWrap() throws {
        let style = """
        {"version": 8, "sources": {}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#00ff00"}}]}
        """
        let renderer = try StyleRenderer(style: Style(text: style), loader: StyleResourceLoader(tile: { _, _ in nil }))
        let polar = try renderer.render(center: .init(latitude: 90, longitude: 0), zoom: 3, width: 64, height: 64)
        let edge = try renderer.render(center: .init(latitude: 85.051128779806604, longitude: 0), zoom: 3, width: 64, height: 64)
        XCTAssertEqual(polar.rgbaPixels(), edge.rgbaPixels())
        XCTAssertEqual(polar.pixel(x: 32, y: 32).green, 255)

        let dot = """
        {"version": 8, "sources": {"p": {"type": "geojson", "data": {"type": "Point", "coordinates": [10, 0]}}},
         "layers": [{"id": "c", "type": "circle", "source": "p", "paint": {"circle-radius": 4, "circle-color": "#000000"}}]}
        """
        let turned = try StyleRenderer(style: Style(text: dot), loader: StyleResourceLoader(tile: { _, _ in nil }))
        let a = try turned.render(center: center, zoom: 1, bearing: 30, width: 128, height: 128).rgbaPixels()
        let b = try turned.render(center: center, zoom: 1, bearing: 30 + 720, width: 128, height: 128).rgbaPixels()
        XCTAssertEqual(a, b)
        XCTAssertTrue(a.contains { $0 != 0 }, "the point is drawn")
    }

    // MARK: Helpers

    private func bigEndian(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
}
