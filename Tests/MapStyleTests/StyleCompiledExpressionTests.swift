import Foundation
import MapStyle
import TestSupport
import XCTest

/// Property values and filters come out of `Style` compiled, ready to evaluate per feature and zoom.
final class StyleCompiledExpressionTests: XCTestCase {
    static let style = """
    {
      "version": 8,
      "sources": {"osm": {"type": "vector", "tiles": ["https://example.com/{z}/{x}/{y}.pbf"]}},
      "layers": [
        {"id": "roads", "type": "line", "source": "osm", "source-layer": "transportation",
         "filter": ["in", ["get", "class"], ["literal", ["primary", "secondary"]]],
         "paint": {"line-width": ["interpolate", ["linear"], ["zoom"], 10, 1, 14, 5], "line-color": "#336699"}},
        {"id": "landuse", "type": "fill", "source": "osm", "source-layer": "landuse",
         "filter": ["==", "class", "park"],
         "paint": {"fill-color": ["match", ["get", "kind"], "forest", "#00ff00", "lake", "blue", "gray"],
                   "fill-opacity": {"stops": [[10, 0.2], [16, 1]]}}}
      ]
    }
    """

    func testEvaluatesCompiledPropertiesAndFilters() throws {
        let style = try Style(text: Self.style)
        let roads = try XCTUnwrap(style.layer("roads"))
        let landuse = try XCTUnwrap(style.layer("landuse"))
        let primary: [String: JSONValue] = ["class": .string("primary"), "kind": .string("forest")]
        let track: [String: JSONValue] = ["class": .string("track"), "kind": .string("lake")]

        let width = try XCTUnwrap(roads.paint["line-width"]?.expression)
        XCTAssertTrue(width.isFeatureConstant)
        XCTAssertFalse(width.isZoomConstant)
        for (zoom, expected) in [(10.0, 1.0), (12.0, 3.0)] {
            for properties in [primary, track] {
                XCTAssertEqual(try width.evaluate(EvaluationContext(zoom: zoom, properties: properties)), .number(expected))
            }
        }

        let filter = try XCTUnwrap(roads.filterExpression)
        for zoom in [10.0, 12.0] {
            XCTAssertEqual(try filter.evaluate(EvaluationContext(zoom: zoom, properties: primary)), .boolean(true))
            XCTAssertEqual(try filter.evaluate(EvaluationContext(zoom: zoom, properties: track)), .boolean(false))
        }

        // A constant is compiled too, so a renderer has one code path.
        let lineColor = try XCTUnwrap(roads.paint["line-color"]?.expression)
        XCTAssertEqual(lineColor.constantValue, .color(try XCTUnwrap(StyleColor.parse("#336699"))))

        let fill = try XCTUnwrap(landuse.paint["fill-color"]?.expression)
        XCTAssertFalse(fill.isFeatureConstant)
        XCTAssertTrue(fill.isZoomConstant)
        for zoom in [10.0, 16.0] {
            XCTAssertEqual(try fill.evaluate(EvaluationContext(zoom: zoom, properties: primary)), .color(StyleColor(r: 0, g: 1, b: 0, a: 1)))
            XCTAssertEqual(try fill.evaluate(EvaluationContext(zoom: zoom, properties: track)), .color(StyleColor(r: 0, g: 0, b: 1, a: 1)))
        }

        // Legacy functions and legacy filters are converted before compiling.
        let opacity = try XCTUnwrap(landuse.paint["fill-opacity"]?.expression)
        XCTAssertEqual(try opacity.evaluate(EvaluationContext(zoom: 10)), .number(0.2))
        XCTAssertEqual(try opacity.evaluate(EvaluationContext(zoom: 16)), .number(1))
        let park = try XCTUnwrap(landuse.filterExpression)
        XCTAssertEqual(try park.evaluate(EvaluationContext(zoom: 12, properties: ["class": .string("park")])), .boolean(true))
        XCTAssertEqual(try park.evaluate(EvaluationContext(zoom: 12, properties: ["class": .string("farm")])), .boolean(false))
    }

    func testLegacyNullComparisonsNeedTheKey() throws {
        var layer = try XCTUnwrap(try Style(text: Self.style).layer("landuse"))
        layer.filter = .array([.string("=="), .string("name"), .null])
        let filter = try XCTUnwrap(layer.filterExpression)
        XCTAssertEqual(try filter.evaluate(EvaluationContext(properties: ["name": .null])), .boolean(true))
        XCTAssertEqual(try filter.evaluate(EvaluationContext(properties: [:])), .boolean(false))
        layer.filter = .array([.string("!="), .string("name"), .null])
        let negated = try XCTUnwrap(layer.filterExpression)
        XCTAssertEqual(try negated.evaluate(EvaluationContext(properties: ["name": .null])), .boolean(false))
        XCTAssertEqual(try negated.evaluate(EvaluationContext(properties: [:])), .boolean(true))
    }

    func testChangingAValueRecompilesIt() throws {
        var layer = try XCTUnwrap(try Style(text: Self.style).layer("roads"))
        var width = try XCTUnwrap(layer.paint["line-width"])
        width.value = .number(7)
        XCTAssertEqual(width.expression?.constantValue, .number(7))
        layer.filter = .bool(false)
        XCTAssertEqual(try layer.filterExpression?.evaluate(EvaluationContext()), .boolean(false))
        layer.filter = .array([.string("+"), .number(1), .number(2)])
        XCTAssertEqual(try layer.filterExpression?.evaluate(EvaluationContext()), .boolean(false), "not a boolean: matches nothing")
        layer.filter = nil
        XCTAssertNil(layer.filterExpression)
    }

    /// The render fixtures' styles are real published styles: all of them must validate cleanly
    /// and compile completely, or the renderer would silently drop their properties.
    func testRealWorldStylesValidateAndCompile() throws {
        let root = TestData.shared("conformance/render")
        let files = try XCTUnwrap(FileManager.default.enumerator(atPath: root.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix("style.json") }.sorted()
        XCTAssertGreaterThanOrEqual(files.count, 45, "render fixtures missing")
        for file in files {
            let data = try Data(contentsOf: root.appendingPathComponent(file))
            let problems = Style.validate(bytes: data).filter { $0.severity == .error }
            XCTAssertEqual(problems, [], file)
            guard problems.isEmpty else { continue }
            let style = try Style(data: data)
            for layer in style.layers {
                if layer.filter != nil { XCTAssertNotNil(layer.filterExpression, "\(file) \(layer.id) filter") }
                for property in layer.layout + layer.paint where property.spec?.acceptsExpressions == true {
                    XCTAssertNotNil(property.expression, "\(file) \(layer.id) \(property.name)")
                }
            }
        }
    }
}
