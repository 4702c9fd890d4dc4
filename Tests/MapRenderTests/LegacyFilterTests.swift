@testable import MapRender
import MapStyle
import XCTest

/// Legacy filters are rewritten to expressions before MapStyle compiles them.
final class LegacyFilterTests: XCTestCase {
    private func matches(_ filter: String, _ properties: [String: JSONValue], type: String = "Polygon") throws -> Bool {
        let compiled = try CompiledFilter(JSONValue.parse(filter), layerID: "test")
        return compiled.matches(EvaluationContext(zoom: 4, properties: properties, geometryType: type))
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
        XCTAssertFalse(CompiledFilter.isLegacy(.array([.string("=="), .array([.string("get"), .string("k")]), .string("v")])))
        XCTAssertTrue(try matches(#"["==", ["get", "class"], "park"]"#, ["class": .string("park")]))
    }
}
