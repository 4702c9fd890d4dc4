import MapRender
import MapStyle
import XCTest

/// Legacy filters (converted to expressions by MapStyle) select the features the renderer draws.
final class LegacyFilterTests: XCTestCase {
    private func matches(_ filter: String, _ properties: [String: JSONValue], type: String = "Polygon") throws -> Bool {
        let style = try Style(text: """
            {"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},
             "layers": [{"id": "l", "type": "fill", "source": "s", "filter": \(filter)}]}
            """)
        let expression = try XCTUnwrap(style.layers[0].filterExpression, filter)
        return (try? expression.evaluate(EvaluationContext(zoom: 4, properties: properties, geometryType: type)))?.booleanValue ?? false
    }

    func testComparisonsMembershipAndHas() throws {
        XCTAssertTrue(try matches(#"["==", "class", "park"]"#, ["class": .string("park")]))
        XCTAssertFalse(try matches(#"["==", "class", "park"]"#, ["class": .string("wood")]))
        XCTAssertTrue(try matches(#"["in", "class", "park", "wood"]"#, ["class": .string("wood")]))
        XCTAssertTrue(try matches(#"["!in", "class", "park", "wood"]"#, [:]))
        XCTAssertTrue(try matches(#"[">=", "rank", 3]"#, ["rank": .number(3)]))
        // A legacy ordering comparison on a value of another type is false, not an error.
        XCTAssertFalse(try matches(#"["<", "rank", 3]"#, ["rank": .string("2")]))
        XCTAssertTrue(try matches(#"["!has", "rank"]"#, [:]))
        XCTAssertTrue(try matches(#"["all", ["has", "rank"], ["==", "$type", "LineString"]]"#, ["rank": .number(1)], type: "LineString"))
        XCTAssertFalse(try matches(#"["none", ["==", "$type", "Polygon"]]"#, [:]))
    }

    func testExpressionFiltersAreLeftAlone() throws {
        XCTAssertTrue(try matches(#"["==", ["get", "class"], "park"]"#, ["class": .string("park")]))
    }
}
