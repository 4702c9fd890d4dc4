import Foundation
import MapStyle
import TestSupport
import XCTest

final class StyleTests: XCTestCase {
    static let smallStyle = """
    {
      "version": 8,
      "name": "Small",
      "center": [7.42, 43.73],
      "zoom": 13,
      "pitch": 30,
      "sprite": "https://example.com/sprites/basic",
      "glyphs": "https://example.com/fonts/{fontstack}/{range}.pbf",
      "transition": {"duration": 500},
      "sources": {
        "openmaptiles": {
          "type": "vector",
          "tiles": ["https://example.com/tiles/{z}/{x}/{y}.pbf"],
          "minzoom": 0,
          "maxzoom": 14,
          "bounds": [7.40, 43.72, 7.44, 43.76],
          "attribution": "© OpenStreetMap contributors"
        },
        "pins": {
          "type": "geojson",
          "data": {"type": "FeatureCollection", "features": []}
        }
      },
      "layers": [
        {"id": "background", "type": "background", "paint": {"background-color": "#f8f4f0"}},
        {
          "id": "water",
          "type": "fill",
          "source": "openmaptiles",
          "source-layer": "water",
          "filter": ["==", "$type", "Polygon"],
          "paint": {"fill-color": "hsl(205, 56%, 73%)", "fill-opacity": {"stops": [[5, 0.5], [10, 1]]}}
        },
        {
          "id": "roads",
          "type": "line",
          "source": "openmaptiles",
          "source-layer": "transportation",
          "minzoom": 5,
          "filter": ["all", ["==", ["get", "class"], "primary"], ["has", "name"]],
          "layout": {"line-cap": "round", "line-join": "round"},
          "paint": {"line-color": "rgba(255, 255, 255, 0.8)",
                    "line-width": ["interpolate", ["exponential", 1.2], ["zoom"], 5, 0.5, 18, 20],
                    "line-color-transition": {"duration": 0}}
        },
        {
          "id": "pin-labels",
          "type": "symbol",
          "source": "pins",
          "layout": {"text-field": "{name}", "text-font": ["Noto Sans Regular"], "text-size": 12, "visibility": "none"},
          "paint": {"text-color": "#333", "text-halo-color": "white"}
        }
      ]
    }
    """

    func testParsesASmallStyle() throws {
        let style = try Style(text: Self.smallStyle)
        XCTAssertEqual(style.version, 8)
        XCTAssertEqual(style.name, "Small")
        XCTAssertEqual(style.center?.longitude, 7.42)
        XCTAssertEqual(style.center?.latitude, 43.73)
        XCTAssertEqual(style.zoom, 13)
        XCTAssertEqual(style.pitch, 30)
        XCTAssertEqual(style.bearing, 0)
        XCTAssertEqual(style.glyphs, "https://example.com/fonts/{fontstack}/{range}.pbf")
        XCTAssertEqual(style.transition, StyleTransition(duration: 500, delay: 0))
        guard case .url(let sprite)? = style.sprite else { return XCTFail("sprite") }
        XCTAssertEqual(sprite, "https://example.com/sprites/basic")
        XCTAssertTrue(style.warnings.isEmpty, "\(style.warnings)")

        XCTAssertEqual(style.sources.map(\.id), ["openmaptiles", "pins"])
        let vector = try XCTUnwrap(style.source("openmaptiles"))
        XCTAssertEqual(vector.type, .vector)
        XCTAssertEqual(vector.tiles, ["https://example.com/tiles/{z}/{x}/{y}.pbf"])
        XCTAssertEqual(vector.maxzoom, 14)
        XCTAssertEqual(vector.scheme, "xyz")
        XCTAssertEqual(vector.bounds, [7.40, 43.72, 7.44, 43.76])
        XCTAssertEqual(vector.attribution, "© OpenStreetMap contributors")
        let pins = try XCTUnwrap(style.source("pins"))
        XCTAssertEqual(pins.type, .geojson)
        XCTAssertEqual(pins.data?["type"], .string("FeatureCollection"))

        XCTAssertEqual(style.layers.map(\.id), ["background", "water", "roads", "pin-labels"])
        XCTAssertEqual(style.layers.map(\.type), [.background, .fill, .line, .symbol])
        let water = try XCTUnwrap(style.layer("water"))
        XCTAssertEqual(water.source, "openmaptiles")
        XCTAssertEqual(water.sourceLayer, "water")
        XCTAssertEqual(water.filter, .array([.string("=="), .string("$type"), .string("Polygon")]))
        XCTAssertEqual(water.paintValue("fill-color"), .string("hsl(205, 56%, 73%)"))
        XCTAssertEqual(water.paint.first?.spec?.type, "color")
        let roads = try XCTUnwrap(style.layer("roads"))
        XCTAssertEqual(roads.minzoom, 5)
        XCTAssertNil(roads.maxzoom)
        XCTAssertEqual(roads.layout.map(\.name), ["line-cap", "line-join"])
        XCTAssertEqual(roads.paint.map(\.name), ["line-color", "line-width", "line-color-transition"])
        XCTAssertTrue(roads.paint[2].isTransition)
        XCTAssertNil(roads.paint[2].spec)
        XCTAssertEqual(roads.paint[1].line, 43)
        let labels = try XCTUnwrap(style.layer("pin-labels"))
        XCTAssertFalse(labels.isVisible)
        XCTAssertEqual(labels.layoutValue("text-font"), .array([.string("Noto Sans Regular")]))
    }

    func testNotJSONIsATypedErrorWithPosition() {
        XCTAssertThrowsError(try Style(text: "{\n  \"version\": 8,\n  \"sources\": {,\n}")) { error in
            guard case .json(let parseError)? = error as? StyleError else { return XCTFail("\(error)") }
            XCTAssertEqual(parseError.line, 3)
            XCTAssertGreaterThan(parseError.column, 1)
        }
        let problems = Style.validate(text: "[1, 2")
        XCTAssertEqual(problems.count, 1)
        XCTAssertEqual(problems.first?.line, 1)
    }

    func testInvalidStyleThrowsEveryError() {
        let text = """
        {
          "version": 8,
          "sources": {"v": {"type": "vector", "url": "https://example.com/tiles.json"}},
          "layers": [
            {"id": "a", "type": "fill", "source": "v", "source-layer": "x",
             "paint": {"fill-color": [1, 2, 3], "fill-opacity": 2}},
            {"id": "a", "type": "line", "source": "missing"},
            {"id": "b", "type": "circle", "source": "v"}
          ]
        }
        """
        XCTAssertThrowsError(try Style(text: text)) { error in
            guard case .invalid(let problems)? = error as? StyleError else { return XCTFail("\(error)") }
            XCTAssertEqual(problems.map(\.message), [
                "layers[0].paint.fill-color: color expected, array found",
                "layers[0].paint.fill-opacity: 2 is greater than the maximum value 1",
                "layers[1]: duplicate layer id \"a\", previously used at line 5",
                "layers[1]: source \"missing\" not found",
                "layers[2]: layer \"b\" must specify a \"source-layer\"",
            ])
            XCTAssertEqual(problems.map(\.line), [6, 6, 7, 7, 8])
        }
    }

    func testValidatingParsedJSONUsesObjectLines() throws {
        let json = try JSONValue.parse("{\n\"version\": 7,\n\"sources\": {},\n\"layers\": []\n}")
        let problems = Style.validate(json)
        XCTAssertEqual(problems, [StyleValidationError(message: "version: expected one of [8], 7 found", line: 2)])
        XCTAssertThrowsError(try Style(json: json))
    }

    func testColors() throws {
        func check(_ color: String) -> [String] {
            let text = """
            {"version": 8, "sources": {}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": \(color)}}]}
            """
            return Style.validate(text: text).map(\.message)
        }
        for good in ["\"#abc\"", "\"#abcd\"", "\"#aabbcc\"", "\"#aabbccdd\"", "\"red\"", "\"Transparent\"", "\"rgb(1, 2, 3)\"",
                     "\"rgba(1, 2, 3, 0.5)\"", "\"rgb(10% 20% 30% / 50%)\"", "\"hsl(120, 50%, 50%)\"", "\"hsla(120deg, 50%, 50%, 1)\"",
                     "[\"interpolate\", [\"linear\"], [\"zoom\"], 5, \"red\", 10, \"blue\"]"] {
            XCTAssertEqual(check(good), [], good)
        }
        XCTAssertEqual(check("[\"get\", \"color\"]"), ["layers[0].paint.background-color: data expressions not supported"],
                       "background-color cannot depend on features")
        for bad in ["\"#ab\"", "\"#abcde\"", "\"redd\"", "\"rgb(1, 2)\"", "\"hsl(1, 2, 3)\"", "\"valueOf\"", "\"\"",
                    // The expression language's parser decides: no NaN, no space before "(", no
                    // fourth component without a slash, no percent hue.
                    "\"rgb(nan, 0, 0)\"", "\"rgb (1, 2, 3)\"", "\"rgb(1 2 3 4)\"", "\"hsl(10%, 50%, 50%)\""] {
            XCTAssertEqual(check(bad).count, 1, bad)
        }
    }

    func testStrictModeWarnsAboutUnknownKeys() {
        let text = """
        {"version": 8, "sources": {}, "extra": 1,
         "layers": [{"id": "bg", "type": "background", "paitn": {}}]}
        """
        XCTAssertEqual(Style.validate(text: text), [], "MapLibre ignores unknown root and layer keys")
        XCTAssertEqual(Style.validate(text: text, strict: true), [
            StyleValidationError(message: "unknown property \"extra\"", line: 1, severity: .warning),
            StyleValidationError(message: "layers[0]: unknown property \"paitn\"", line: 2, severity: .warning),
        ])
        XCTAssertNoThrow(try Style(text: text), "warnings do not stop loading")
    }

    func testLoadsRealWorldStyles() throws {
        // The render fixtures' styles are real published styles (OpenMapTiles schema).
        let url = TestData.shared("conformance/render/realworld/chicago-z13/style.json")
        let data = try Data(contentsOf: url)
        XCTAssertEqual(Style.validate(bytes: data), [])
        let style = try Style(data: data)
        XCTAssertGreaterThan(style.layers.count, 10)
        for layer in style.layers where layer.type != .background {
            let source = try XCTUnwrap(layer.source.flatMap(style.source), layer.id)
            if source.type == .vector { XCTAssertNotNil(layer.sourceLayer, layer.id) }
        }
    }
}
