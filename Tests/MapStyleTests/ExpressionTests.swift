import XCTest
@testable import MapStyle

/// Focused checks of the expression engine's public API, beyond the conformance suite.
final class ExpressionTests: XCTestCase {
    private func json(_ text: String) throws -> JSONValue { try JSONValue.parse(text) }

    func testCompiledExpressionEvaluatesPerFeature() throws {
        let expression = try MapStyle.Expression.parse(json("""
            ["match", ["get", "highway"], ["motorway", "trunk"], ["*", 2, ["coalesce", ["get", "lanes"], 1]],
             "residential", 1, 0.5]
            """), expected: .number)
        XCTAssertEqual(expression.type, .number)
        XCTAssertFalse(expression.isFeatureConstant)
        XCTAssertTrue(expression.isZoomConstant)
        let cases: [([String: JSONValue], Double)] = [
            (["highway": .string("motorway"), "lanes": .number(3)], 6),
            (["highway": .string("trunk")], 2),
            (["highway": .string("residential")], 1),
            (["highway": .string("footway")], 0.5),
            ([:], 0.5),
        ]
        for (properties, want) in cases {
            let value = try expression.evaluate(EvaluationContext(properties: properties))
            XCTAssertEqual(value, .number(want), "\(properties)")
        }
    }

    func testZoomCurveAndColorInterpolation() throws {
        let spec = ExpressionPropertySpec(type: .color)
        let expression = try MapStyle.Expression.parse(json(##"["interpolate", ["linear"], ["zoom"], 10, "black", 20, "#ffffff"]"##), propertySpec: spec)
        XCTAssertFalse(expression.isZoomConstant)
        XCTAssertTrue(expression.isFeatureConstant)
        XCTAssertEqual(try expression.evaluate(EvaluationContext(zoom: 15)), .color(StyleColor(r: 0.5, g: 0.5, b: 0.5, a: 1)))
        XCTAssertEqual(try expression.evaluate(EvaluationContext(zoom: 5)), .color(.black))
    }

    func testConstantFoldingProducesConstantValue() throws {
        let expression = try MapStyle.Expression.parse(json(#"["+", 1, ["*", 2, 3]]"#))
        XCTAssertEqual(expression.constantValue, .number(7))
    }

    func testLegacyFunctionBecomesExpression() throws {
        let spec = ExpressionPropertySpec(type: .number, interpolated: true)
        let expression = try MapStyle.Expression.parse(json(#"{"stops": [[0, 0], [10, 100]]}"#), propertySpec: spec)
        XCTAssertEqual(try expression.evaluate(EvaluationContext(zoom: 2.5)), .number(25))
    }

    func testTypedParseErrorCarriesKeyAndMessage() throws {
        XCTAssertThrowsError(try MapStyle.Expression.parse(json(#"["+", 1, ["FAKE", 2]]"#))) { error in
            guard let error = error as? ExpressionError else { return XCTFail("wrong error type \(error)") }
            XCTAssertFalse(error.isRuntime)
            XCTAssertEqual(error.items.first?.key, "[2][0]")
            XCTAssertEqual(error.message, #"Unknown expression "FAKE". If you wanted a literal array, use ["literal", [...]]."#)
        }
        let bad = try json(#"["number", "not a number"]"#)
        do {
            _ = try MapStyle.Expression.parse(bad)
            XCTFail("expected an error")
        } catch {
            // Typed throws: `error` is an ExpressionError here without casting.
            XCTAssertEqual(error.message, "Expected value to be of type number, but found string instead.")
        }
    }

    func testRuntimeErrorIsReportedPerFeature() throws {
        let expression = try MapStyle.Expression.parse(json(#"["to-color", ["get", "c"]]"#))
        XCTAssertEqual(try expression.evaluate(EvaluationContext(properties: ["c": .string("red")])), .color(StyleColor(r: 1, g: 0, b: 0, a: 1)))
        XCTAssertThrowsError(try expression.evaluate(EvaluationContext(properties: ["c": .string("nope")]))) { error in
            XCTAssertEqual((error as? ExpressionError)?.isRuntime, true)
            XCTAssertEqual((error as? ExpressionError)?.message, "Could not parse color from value 'nope'")
        }
    }

    func testJavaScriptNumberStrings() {
        XCTAssertEqual(jsNumberString(1), "1")
        XCTAssertEqual(jsNumberString(0.1), "0.1")
        XCTAssertEqual(jsNumberString(-2.5), "-2.5")
        XCTAssertEqual(jsNumberString(1e21), "1e+21")
        XCTAssertEqual(jsNumberString(1e-7), "1e-7")
        XCTAssertEqual(jsNumberString(0.000001), "0.000001")
    }
}
