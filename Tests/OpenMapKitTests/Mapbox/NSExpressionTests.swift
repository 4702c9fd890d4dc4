import Foundation
import MapStyle
@testable import OpenMapKit
// Foundation declares (unavailable) classes of these names too: the scoped imports make the names
// OpenMapKit's in type positions, as the NSExpression documentation describes.
import class OpenMapKit.NSComparisonPredicate
import class OpenMapKit.NSCompoundPredicate
import class OpenMapKit.NSExpression
import class OpenMapKit.NSPredicate
import XCTest

/// JSON text as MapStyle's JSON value (test tables are written as JSON, as Mapbox's tests write
/// Foundation literals).
func json(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> JSONValue {
    do { return try JSONValue.parse(text) } catch {
        XCTFail("bad JSON in the test: \(text): \(error)", file: file, line: line)
        return .null
    }
}

/// The expectations of Mapbox's `MGLExpressionTests` and of the "Predicates and expressions" and
/// "Migrating to expressions" guides, written again here: format strings and constructed
/// expressions to the JSON they convert to, JSON back to the same expression, and every converted
/// expression parsed (and where it is constant, evaluated) by MapStyle's expression engine.
final class NSExpressionTests: XCTestCase {
    private func constant(_ value: Any?) -> NSExpression { NSExpression(forConstantValue: value) }

    /// Checks `expression` converts to `expected`; that `expected` converts back to an equal
    /// expression (unless `roundTrip` is false); and that MapStyle parses the JSON (unless `parses`
    /// is false: Mapbox's tests include expressions the style language would reject).
    private func check(_ expression: NSExpression, _ expected: String, roundTrip: Bool = true, parses: Bool = true,
                       file: StaticString = #filePath, line: UInt = #line) {
        let expectedJSON = json(expected, file: file, line: line)
        do {
            let converted = try expression.mglJSON()
            XCTAssertEqual(converted, expectedJSON, "\(expression)", file: file, line: line)
            if parses {
                do { _ = try MapStyle.Expression.parse(converted) } catch {
                    XCTFail("MapStyle rejects \(expected): \(error)", file: file, line: line)
                }
            }
        } catch {
            XCTFail("\(expression) does not convert: \(error)", file: file, line: line)
        }
        if roundTrip {
            do {
                let back = try NSExpression(mglJSON: expectedJSON)
                XCTAssertEqual(back, expression, "\(expected) reads back as \(back), not \(expression)", file: file, line: line)
            } catch {
                XCTFail("\(expected) does not read back: \(error)", file: file, line: line)
            }
        }
    }

    private func value(_ expression: NSExpression, _ object: Any? = nil, context: [String: Any] = [:]) -> Any? {
        let dictionary = NSMutableDictionary()
        for (k, v) in context { dictionary[k] = v }
        return expression.expressionValue(with: object, context: dictionary)
    }

    private func assertValue(_ expression: NSExpression, _ expected: Double, _ object: Any? = nil, context: [String: Any] = [:],
                             accuracy: Double = 1e-9, file: StaticString = #filePath, line: UInt = #line) {
        guard let actual = value(expression, object, context: context) as? Double else {
            XCTFail("\(expression) has no number value: \(String(describing: value(expression, object, context: context)))", file: file, line: line)
            return
        }
        XCTAssertEqual(actual, expected, accuracy: accuracy, "\(expression)", file: file, line: line)
    }

    // MARK: - Variables

    func testVariables() {
        let variables: [(String, NSExpression, String)] = [
            ("zoomLevel", .zoomLevelVariable, #"["zoom"]"#),
            ("heatmapDensity", .heatmapDensityVariable, #"["heatmap-density"]"#),
            ("lineProgress", .lineProgressVariable, #"["line-progress"]"#),
            ("featureAccumulated", .featureAccumulatedVariable, #"["accumulated"]"#),
            ("geometryType", .geometryTypeVariable, #"["geometry-type"]"#),
            ("featureIdentifier", .featureIdentifierVariable, #"["id"]"#),
            ("featureAttributes", .featureAttributesVariable, #"["properties"]"#),
        ]
        for (name, variable, expected) in variables {
            XCTAssertEqual(variable, NSExpression(forVariable: name))
            XCTAssertEqual(NSExpression(format: "$" + name), variable)
            XCTAssertEqual(variable.description, "$" + name)
            check(variable, expected)
        }
        check(NSExpression(forVariable: "loremIpsum"), #"["var", "loremIpsum"]"#, parses: false)
        XCTAssertEqual(NSExpression(forMGLVariable: "zoomLevel"), .zoomLevelVariable)
        assertValue(.zoomLevelVariable, 16, context: ["zoomLevel": 16])
        assertValue(.heatmapDensityVariable, 1, context: ["heatmapDensity": 1])
        XCTAssertEqual(value(NSExpression(forVariable: "loremIpsum"), context: ["loremIpsum": "Lorem ipsum dolor sit amet"]) as? String,
                       "Lorem ipsum dolor sit amet")
    }

    func testLet() {
        let expected = #"["let", "loremIpsum", "Lorem ipsum dolor sit amet", ["upcase", ["var", "loremIpsum"]]]"#
        check(NSExpression(format: "MGL_LET('loremIpsum', 'Lorem ipsum dolor sit amet', uppercase($loremIpsum))"), expected)
        let context = ["loremIpsum": constant("Lorem ipsum dolor sit amet")]
        check(NSExpression(format: "FUNCTION(uppercase($loremIpsum), 'mgl_expressionWithContext:', %@)", context), expected, roundTrip: false)
        XCTAssertEqual(value(NSExpression(mglJSONObject: FoundationJSON.object(json(expected)))) as? String, "LOREM IPSUM DOLOR SIT AMET")
        // The guide's example names the variable bare, as Swift code does.
        let floors = NSExpression(format: "MGL_LET(floorCount, 2, $floorCount + 1)")
        check(floors, #"["let", "floorCount", 2, ["+", ["var", "floorCount"], 1]]"#, roundTrip: false)
        assertValue(floors, 3)
        // Both spellings Mapbox installs convert alike.
        let arguments = [constant("one"), constant(1), NSExpression(forVariable: "one")]
        XCTAssertEqual(try NSExpression(forFunction: "MGL_LET", arguments: arguments).mglJSON(),
                       try NSExpression(forFunction: "MGL_LET:", arguments: arguments).mglJSON())
    }

    // MARK: - Constants

    func testConstants() {
        check(constant(nil), "null")
        check(NSExpression(format: "nil"), "null")
        XCTAssertNil(value(constant(nil)))
        check(constant(1), "1")
        check(NSExpression(format: "1"), "1")
        assertValue(constant(1), 1)
        check(constant(true), "true")
        check(NSExpression(format: "TRUE"), "true")
        XCTAssertEqual(value(constant(true)) as? Bool, true)
        check(constant("🆔🆗🇦🇶"), #""🆔🆗🇦🇶""#)
        // Insets are Mapbox's padding: top, right, bottom, left.
        check(constant(UIEdgeInsets(top: 1, left: 2, bottom: 3, right: 4)), #"["literal", [1, 4, 3, 2]]"#, roundTrip: false)
        XCTAssertEqual(try NSExpression(mglJSON: json(#"["literal", [1, 4, 3, 2]]"#)).collection as? [NSExpression],
                       [constant(1), constant(4), constant(3), constant(2)])
        check(NSExpression(format: "noindex(513)"), "513", roundTrip: false)
        assertValue(NSExpression(format: "noindex(513)"), 513)
        check(constant(["a", "b"]), #"["literal", ["a", "b"]]"#, roundTrip: false)
        check(constant(["a": 1]), #"["literal", {"a": 1}]"#)
        check(constant(M_E), #"["e"]"#)
        check(constant(Double.pi), #"["pi"]"#)
        assertValue(constant(M_E), M_E)
    }

    func testColors() {
        let papayaWhip = UIColor(red: 255.0 / 255, green: 239.0 / 255, blue: 213.0 / 255, alpha: 1)
        check(constant(papayaWhip), #"["rgb", 255, 239, 213]"#)
        // Components are straight (not premultiplied), as UIColor's are.
        let halfPapayaWhip = UIColor(red: 127.5 / 255, green: 119.5 / 255, blue: 106.5 / 255, alpha: 0.5)
        check(constant(halfPapayaWhip), #"["rgba", 127.5, 119.5, 106.5, 0.5]"#)
        XCTAssertEqual(value(constant(papayaWhip)) as? UIColor, papayaWhip)
        check(constant(UIColor.red), #"["rgb", 255, 0, 0]"#)
        // A colour that is not constant, and out-of-range components, stay functions for the style language to check.
        check(try! NSExpression(validatingMGLJSONObject: ["rgba", ["get", "r"], 0, 0, 1] as [Any]), #"["rgba", ["get", "r"], 0, 0, 1]"#)
        check(try! NSExpression(validatingMGLJSONObject: ["rgb", 300, 0, 0] as [Any]), #"["rgb", 300, 0, 0]"#, parses: false)
        // An opaque rgba reads as the colour, which Mapbox writes as rgb.
        XCTAssertEqual(try NSExpression(mglJSON: json(#"["rgba", 255, 0, 0, 1]"#)), constant(UIColor.red))
        // Colours inside JSON objects are the constants Mapbox reads them as.
        XCTAssertEqual(NSExpression(mglJSONObject: ["to-string", UIColor.blue] as [Any]),
                       NSExpression(format: "CAST(%@, 'NSString')", UIColor.blue))
    }

    func testKeyPaths() {
        check(NSExpression(forKeyPath: "highway"), #"["get", "highway"]"#)
        check(NSExpression(format: "highway"), #"["get", "highway"]"#)
        check(NSExpression(format: "%@.population", ["population": constant(12000)]),
              #"["get", "population", ["literal", {"population": 12000}]]"#)
        check(NSExpression(format: "%@.uppercase('population')", ["POPULATION": constant(12000)]),
              #"["get", ["upcase", "population"], ["literal", {"POPULATION": 12000}]]"#)
        check(NSExpression(forKeyPath: "lineStyle.color"), #"["get", "color", ["get", "lineStyle"]]"#)
        check(NSExpression(forKeyPath: "map.box.gl"), #"["get", "gl", ["get", "box", ["get", "map"]]]"#)
        check(NSExpression(format: "%K", "ISO 3166-1:2006"), #"["get", "ISO 3166-1:2006"]"#)
        check(NSExpression(format: "name:en"), #"["get", "name:en"]"#)
        check(NSExpression(format: "#size"), #"["get", "size"]"#)
        // A key with a dot stays one key.
        check(try! NSExpression(validatingMGLJSONObject: ["get", "a.b"] as [Any]), #"["get", "a.b"]"#)
        check(try! NSExpression(validatingMGLJSONObject: ["get", "b.c", ["get", "a"]] as [Any]), #"["get", "b.c", ["get", "a"]]"#)
        XCTAssertEqual(value(NSExpression(forKeyPath: "lineStyle.color"), ["lineStyle": ["color": "red"]]) as? String, "red")
    }

    // MARK: - Functions

    func testStatisticalFunctions() {
        let average = NSExpression(format: "average({1, 2, 2, 3, 4, 7, 9})")
        check(average, #"["/", ["+", 1, 2, 2, 3, 4, 7, 9], ["length", ["literal", [1, 2, 2, 3, 4, 7, 9]]]]"#, roundTrip: false)
        assertValue(average, 4)
        let sum = NSExpression(format: "sum({1, 2, 2, 3, 4, 7, 9})")
        check(sum, #"["+", 1, 2, 2, 3, 4, 7, 9]"#)
        assertValue(sum, 28)
        let count = NSExpression(format: "count({1, 2, 2, 3, 4, 7, 9})")
        check(count, #"["length", ["literal", [1, 2, 2, 3, 4, 7, 9]]]"#)
        assertValue(count, 7)
        check(NSExpression(format: "min({1, 2, 2, 3, 4, 7, 9})"), #"["min", 1, 2, 2, 3, 4, 7, 9]"#)
        assertValue(NSExpression(format: "min({1, 2, 2, 3, 4, 7, 9})"), 1)
        check(NSExpression(format: "max({1, 2, 2, 3, 4, 7, 9})"), #"["max", 1, 2, 2, 3, 4, 7, 9]"#)
        assertValue(NSExpression(format: "max({1, 2, 2, 3, 4, 7, 9})"), 9)
        // The arguments may also be given directly; JSON reads back as an aggregate.
        let direct = NSExpression(forFunction: "max:", arguments: [constant(1), constant(1)])
        check(direct, #"["max", 1, 1]"#, roundTrip: false)
        XCTAssertEqual(try NSExpression(mglJSON: json(#"["max", 1, 1]"#)).arguments?.first?.collection as? [NSExpression], direct.arguments)
    }

    func testArithmetic() {
        let ones = [constant(1), constant(1)]
        check(NSExpression(forFunction: "add:to:", arguments: ones), #"["+", 1, 1]"#)
        check(NSExpression(format: "1 + 1"), #"["+", 1, 1]"#)
        XCTAssertEqual(NSExpression(format: "sum:({1, 1, 2})"),
                       NSExpression(forFunction: "sum:", arguments: [NSExpression(forAggregate: [constant(1), constant(1), constant(2)])]))
        check(NSExpression(format: "sum:({1, 1, 2})"), #"["+", 1, 1, 2]"#)
        check(NSExpression(forFunction: "add:to:", arguments: [constant(1), constant(1), constant(1)]), #"["+", 1, 1, 1]"#, roundTrip: false)
        check(NSExpression(format: "1 + 1 + 1"), #"["+", ["+", 1, 1], 1]"#)
        check(NSExpression(format: "1 - 1"), #"["-", 1, 1]"#)
        check(NSExpression(forFunction: "from:subtract:", arguments: ones), #"["-", 1, 1]"#)
        check(NSExpression(format: "1 * 1"), #"["*", 1, 1]"#)
        check(NSExpression(format: "1 / 1"), #"["/", 1, 1]"#)
        check(NSExpression(format: "modulus:by:(1, 1)"), #"["%", 1, 1]"#)
        check(NSExpression(format: "7 % 4"), #"["%", 7, 4]"#)
        assertValue(NSExpression(format: "7 % 4"), 3)
        check(NSExpression(format: "1 ** 1"), #"["^", 1, 1]"#)
        // Precedence: * and / before + and -, ** before both, parentheses first.
        check(NSExpression(format: "1 + 2 * 3"), #"["+", 1, ["*", 2, 3]]"#)
        check(NSExpression(format: "(1 + 2) * 3"), #"["*", ["+", 1, 2], 3]"#)
        check(NSExpression(format: "2 * 3 ** 2"), #"["*", 2, ["^", 3, 2]]"#)
        check(NSExpression(format: "10 - 4 - 3"), #"["-", ["-", 10, 4], 3]"#)
        assertValue(NSExpression(format: "10 - 4 - 3"), 3)
        assertValue(NSExpression(format: "2 ** 3 ** 2"), 512)
        check(NSExpression(format: "-2"), "-2")
        check(NSExpression(format: "-x"), #"["-", 0, ["get", "x"]]"#)

        let cases: [(String, Double, String, Double)] = [
            ("ceiling:", 1.5, #"["ceil", 1.5]"#, 2), ("ceiling:", -1.5, #"["ceil", -1.5]"#, -1),
            ("ceiling:", 2, #"["ceil", 2]"#, 2), ("ceiling:", -2, #"["ceil", -2]"#, -2),
            ("abs:", 2, #"["abs", 2]"#, 2), ("abs:", -2, #"["abs", -2]"#, 2),
            ("floor:", 1.5, #"["floor", 1.5]"#, 1), ("floor:", -1.5, #"["floor", -1.5]"#, -2),
            ("floor:", 2, #"["floor", 2]"#, 2), ("floor:", -2, #"["floor", -2]"#, -2),
            ("mgl_round:", 1.5, #"["round", 1.5]"#, 2), ("mgl_round:", -1.5, #"["round", -1.5]"#, -2),
            ("mgl_round:", 2.5, #"["round", 2.5]"#, 3), ("mgl_round:", -2.5, #"["round", -2.5]"#, -3),
            ("mgl_log2:", 1024, #"["log2", 1024]"#, 10), ("mgl_acos:", 1, #"["acos", 1]"#, 0), ("mgl_cos:", 0, #"["cos", 0]"#, 1),
            ("mgl_asin:", 0, #"["asin", 0]"#, 0), ("mgl_sin:", 0, #"["sin", 0]"#, 0), ("mgl_tan:", 0, #"["tan", 0]"#, 0),
            ("sqrt:", 4, #"["sqrt", 4]"#, 2), ("log:", 100, #"["log10", 100]"#, 2), ("ln:", 1, #"["ln", 1]"#, 0),
        ]
        for (function, argument, expected, result) in cases {
            let expression = NSExpression(forFunction: function, arguments: [constant(argument)])
            check(expression, expected)
            assertValue(expression, result)
        }
        let atan = NSExpression(forFunction: "mgl_atan:", arguments: [constant(20)])
        check(atan, #"["atan", 20]"#)
        assertValue(atan, 1.52, accuracy: 0.001)
        // trunc: has no operator of its own.
        check(NSExpression(forFunction: "trunc:", arguments: [constant(1.5)]), #"["-", 1.5, ["%", 1.5, 1]]"#, roundTrip: false)
        assertValue(NSExpression(forFunction: "trunc:", arguments: [constant(1.5)]), 1)
        assertValue(NSExpression(forFunction: "trunc:", arguments: [constant(-1.5)]), -1)
        let exp = NSExpression(forFunction: "exp:", arguments: [constant(0)])
        check(exp, #"["^", ["e"], 0]"#)
        assertValue(exp, 1)
        // Mapbox's tests pass two arguments to one-argument functions; they convert as given.
        check(NSExpression(forFunction: "sqrt:", arguments: ones), #"["sqrt", 1, 1]"#, parses: false)
        check(NSExpression(forFunction: "ln:", arguments: ones), #"["ln", 1, 1]"#, parses: false)
    }

    func testStrings() {
        let appended = NSExpression(format: "FUNCTION('Old', 'stringByAppendingString:', 'MacDonald')")
        let joined = NSExpression(format: "mgl_join({'Old', 'MacDonald'})")
        check(appended, #"["concat", "Old", "MacDonald"]"#, roundTrip: false)
        check(joined, #"["concat", "Old", "MacDonald"]"#)
        XCTAssertEqual(value(appended) as? String, "OldMacDonald")
        XCTAssertEqual(value(joined) as? String, "OldMacDonald")
        check(NSExpression(forFunction: "mgl_join:", arguments: ["Old", "MacDonald"]), #"["concat", "Old", "MacDonald"]"#, roundTrip: false)
        check(constant("Old").mgl_appending(constant("MacDonald")), #"["concat", "Old", "MacDonald"]"#)
        check(NSExpression(forMGLJoining: [constant("Old"), NSExpression(forKeyPath: "name")]), #"["concat", "Old", ["get", "name"]]"#)
        check(NSExpression(forFunction: "uppercase:", arguments: [constant("MacDonald")]), #"["upcase", "MacDonald"]"#)
        check(NSExpression(forFunction: "lowercase:", arguments: [constant("MacDonald")]), #"["downcase", "MacDonald"]"#)
        check(NSExpression(forFunction: "length:", arguments: [constant("MacDonald")]), #"["length", "MacDonald"]"#)
        assertValue(NSExpression(format: "length('Wapakoneta')"), 10)
    }

    func testTypeConversions() {
        check(NSExpression(format: "FUNCTION(number, 'boolValue')"), #"["to-boolean", ["get", "number"]]"#)
        for selector in ["mgl_number", "doubleValue", "floatValue", "decimalValue"] {
            check(NSExpression(format: "FUNCTION(postalCode, '\(selector)')"), #"["to-number", ["get", "postalCode"]]"#, roundTrip: false)
            check(NSExpression(format: "FUNCTION(postalCode, '\(selector)', zipCode)"),
                  #"["to-number", ["get", "postalCode"], ["get", "zipCode"]]"#, roundTrip: false)
        }
        XCTAssertEqual(try NSExpression(mglJSON: json(#"["to-number", ["get", "postalCode"]]"#)), NSExpression(format: "CAST(postalCode, 'NSNumber')"))
        check(NSExpression(format: "FUNCTION(postalCode, 'mgl_numberWithFallbackValues:', zipCode)"),
              #"["to-number", ["get", "postalCode"], ["get", "zipCode"]]"#)
        let number = NSExpression(format: "CAST(postalCode, 'NSNumber')")
        check(number, #"["to-number", ["get", "postalCode"]]"#)
        assertValue(number, 2134, ["postalCode": "02134"])
        let string = NSExpression(format: "CAST(number, 'NSString')")
        check(string, #"["to-string", ["get", "number"]]"#)
        check(NSExpression(format: "FUNCTION(number, 'stringValue')"), #"["to-string", ["get", "number"]]"#, roundTrip: false)
        XCTAssertEqual(value(string, ["number": 1.5]) as? String, "1.5")
        check(NSExpression(format: "CAST(x, 'UIColor')"), #"["to-color", ["get", "x"]]"#)
        check(NSExpression(format: "CAST(x, 'NSColor')"), #"["to-color", ["get", "x"]]"#, roundTrip: false)
        check(NSExpression(format: "MGL_FUNCTION('to-color', x, y, z)"), #"["to-color", ["get", "x"], ["get", "y"], ["get", "z"]]"#)
        check(NSExpression(format: "CAST(noindex(x), 'NSArray')"), #"["to-rgba", ["get", "x"]]"#)
        check(NSExpression(format: "CAST(noindex(%@), 'NSArray')", constant(UIColor.blue)), #"["to-rgba", ["rgb", 0, 0, 255]]"#)
        XCTAssertThrowsError(try NSExpression(format: "CAST(noindex('x'), 'NSArray')").validatedMGLJSONObject())
        XCTAssertThrowsError(try NSExpression(format: "CAST(x, 'NSDate')").validatedMGLJSONObject())
        // The style language's type assertions stay assertions (Mapbox reads them as conversions).
        check(try! NSExpression(validatingMGLJSONObject: ["number", ["get", "x"]] as [Any]), #"["number", ["get", "x"]]"#)
        check(try! NSExpression(validatingMGLJSONObject: ["string", ["get", "x"], "fallback"] as [Any]), #"["string", ["get", "x"], "fallback"]"#)
    }

    // MARK: - Interpolation, steps, matches

    func testInterpolation() {
        let linearStops = [0: constant(100), 10: constant(200)]
        let linear = NSExpression(format: "mgl_interpolate:withCurveType:parameters:stops:(x, 'linear', nil, %@)", linearStops)
        let expected = #"["interpolate", ["linear"], ["get", "x"], 0, 100, 10, 200]"#
        check(linear, expected)
        check(NSExpression(format: "FUNCTION(x, 'mgl_interpolateWithCurveType:parameters:stops:', 'linear', nil, %@)", linearStops),
              expected, roundTrip: false)
        check(NSExpression(forMGLInterpolating: NSExpression(forKeyPath: "x"), curveType: .linear, parameters: nil,
                           stops: constant(linearStops)), expected)
        assertValue(linear, 150, ["x": 5])
        check(NSExpression(format: "mgl_interpolate:withCurveType:parameters:stops:(x, 'exponential', 2, %@)", [1: constant(2), 3: constant(6)]),
              #"["interpolate", ["exponential", 2], ["get", "x"], 1, 2, 3, 6]"#)
        check(NSExpression(format: "mgl_interpolate:withCurveType:parameters:stops:(x, 'cubic-bezier', { 0.42, 0, 0.58, 1 }, %@)",
                           [0: constant(0), 100: constant(100)]),
              #"["interpolate", ["cubic-bezier", 0.42, 0, 0.58, 1], ["get", "x"], 0, 0, 100, 100]"#)
        // Empty stops have no style-language counterpart.
        XCTAssertThrowsError(try NSExpression(format: "mgl_interpolate:withCurveType:parameters:stops:(x, 'cubic-bezier', { 0.42, 0, 0.58, 1 }, %@)",
                                              [Int: NSExpression]()).validatedMGLJSONObject())
        XCTAssertThrowsError(try NSExpression(format: "mgl_interpolate:withCurveType:parameters:stops:(x, 'quadratic', nil, %@)",
                                              linearStops).validatedMGLJSONObject())
    }

    /// Interpolation over the zoom level: the style language's top-level zoom curve, as a layer
    /// property reads it, evaluated at zoom levels between and beyond the stops.
    func testZoomInterpolationEvaluates() throws {
        let radius = NSExpression(format: "mgl_interpolate:withCurveType:parameters:stops:($zoomLevel, 'exponential', 1.5, %@)",
                                  [12: 0.5, 14: 2, 18: 18])
        let radiusJSON = try radius.mglJSON()
        XCTAssertEqual(radiusJSON, json(#"["interpolate", ["exponential", 1.5], ["zoom"], 12, 0.5, 14, 2, 18, 18]"#))
        let property = try MapStyle.Expression.parse(radiusJSON, propertySpec: ExpressionPropertySpec(type: .number))
        XCTAssertFalse(property.isZoomConstant)
        func at(_ zoom: Double) throws -> Double? { try property.evaluate(EvaluationContext(zoom: zoom)).numberValue }
        XCTAssertEqual(try at(10), 0.5)
        XCTAssertEqual(try at(14), 2)
        XCTAssertEqual(try at(20), 18)
        // Between 12 and 14 with base 1.5: 0.5 + 1.5 × (1.5^1 − 1) / (1.5^2 − 1).
        XCTAssertEqual(try XCTUnwrap(at(13)), 0.5 + 1.5 * (1.5 - 1) / (1.5 * 1.5 - 1), accuracy: 1e-9)
        assertValue(radius, 2, context: ["zoomLevel": 14])
        // The guide's convenience form of the same curve, and stops in an NSDictionary.
        let convenience = NSExpression(forMGLInterpolating: NSExpression.zoomLevelVariable, curveType: MGLExpressionInterpolationMode.exponential,
                                       parameters: NSExpression(forConstantValue: 1.5), stops: NSExpression(forConstantValue: [12: 0.5, 14: 2, 18: 18]))
        XCTAssertEqual(convenience, radius)
        let dictionaryStops = NSDictionary(dictionary: [12: 0.5, 14: 2, 18: 18])
        XCTAssertEqual(NSExpression(format: "mgl_interpolate:withCurveType:parameters:stops:($zoomLevel, 'exponential', 1.5, %@)", dictionaryStops), radius)

        let stops: [NSNumber: UIColor] = [0: .yellow, 2.5: .orange, 5: .red, 7.5: .blue, 10: .white]
        let color = NSExpression(forMGLInterpolating: .zoomLevelVariable, curveType: .linear, parameters: nil, stops: NSExpression(forConstantValue: stops))
        let colorJSON = try color.mglJSON()
        XCTAssertEqual(colorJSON, json(#"""
            ["interpolate", ["linear"], ["zoom"], 0, ["rgb", 255, 255, 0], 2.5, ["rgb", 255, 127.5, 0], 5, ["rgb", 255, 0, 0],
             7.5, ["rgb", 0, 0, 255], 10, ["rgb", 255, 255, 255]]
            """#))
        let colorProperty = try MapStyle.Expression.parse(colorJSON, propertySpec: ExpressionPropertySpec(type: .color))
        let midway = try XCTUnwrap(colorProperty.evaluate(EvaluationContext(zoom: 6.25)).colorValue)
        XCTAssertEqual(midway.r, 0.5, accuracy: 1e-9)
        XCTAssertEqual(midway.b, 0.5, accuracy: 1e-9)
        XCTAssertEqual(value(color, context: ["zoomLevel": 5]) as? UIColor, .red)
    }

    func testSteps() {
        let stops = [0: constant(111), 1: constant(1111)]
        let step = NSExpression(format: "mgl_step:from:stops:(x, 11, %@)", stops)
        check(step, #"["step", ["get", "x"], 11, 0, 111, 1, 1111]"#)
        check(NSExpression(format: "FUNCTION(x, 'mgl_stepWithMinimum:stops:', 11, %@)", stops), #"["step", ["get", "x"], 11, 0, 111, 1, 1111]"#,
              roundTrip: false)
        check(NSExpression(format: "mgl_step:from:stops:($zoomLevel, 11, %@)", stops), #"["step", ["zoom"], 11, 0, 111, 1, 1111]"#)
        check(NSExpression(forMGLStepping: NSExpression(forKeyPath: "x"), from: constant(11), stops: constant(stops)),
              #"["step", ["get", "x"], 11, 0, 111, 1, 1111]"#)
        assertValue(step, 11, ["x": -1])
        assertValue(step, 111, ["x": 0.5])
        assertValue(step, 1111, ["x": 7])
        XCTAssertThrowsError(try NSExpression(format: "mgl_step:from:stops:($zoomLevel, 11, %@)", [Int: Int]()).validatedMGLJSONObject())
        // The guide's earthquake colours.
        let colors: [NSNumber: UIColor] = [0: .yellow, 2.5: .orange, 5: .red, 7.5: .blue, 10: .white]
        check(NSExpression(format: "mgl_step:from:stops:(mag, %@, %@)", UIColor.green, colors), #"""
            ["step", ["get", "mag"], ["rgb", 0, 255, 0], 0, ["rgb", 255, 255, 0], 2.5, ["rgb", 255, 127.5, 0], 5, ["rgb", 255, 0, 0],
             7.5, ["rgb", 0, 0, 255], 10, ["rgb", 255, 255, 255]]
            """#)
    }

    func testMatch() {
        let match = NSExpression(format: "MGL_MATCH(2 - 1,  %@, %@, %@, %@, 'default')", constant(1), constant("one"), constant(0), constant("zero"))
        let expected = #"["match", ["-", 2, 1], 1, "one", 0, "zero", "default"]"#
        check(match, expected)
        let compatibility = NSExpression(format: "FUNCTION(%@, 'mgl_match:', %@)", NSExpression(format: "2 - 1"),
                                         [constant(1), constant("one"), constant(0), constant("zero"), constant("default")])
        check(compatibility, expected, roundTrip: false)
        XCTAssertEqual(value(match) as? String, "one")
        check(NSExpression(format: "MGL_MATCH(2 * 1, %@, %@, 'default')", constant(1), constant("one")),
              #"["match", ["*", 2, 1], 1, "one", "default"]"#)
        check(NSExpression(forMGLMatchingKey: NSExpression(format: "2 * 1"), in: [constant(1): constant("one")], default: constant("default")),
              #"["match", ["*", 2, 1], 1, "one", "default"]"#)
        let fruit = NSExpression(format: "MGL_MATCH(x, {'a', 'A'}, 'Apple', {'b', 'B'}, 'Banana', 'Kumquat')")
        check(fruit, #"["match", ["get", "x"], ["a", "A"], "Apple", ["b", "B"], "Banana", "Kumquat"]"#)
        XCTAssertEqual(value(fruit, ["x": "B"]) as? String, "Banana")
        let substituted = NSExpression(format: "MGL_MATCH(x, %@, 'Apple', %@, 'Banana', 'Kumquat')", ["a", "A"], "Bb")
        check(substituted, #"["match", ["get", "x"], ["a", "A"], "Apple", "Bb", "Banana", "Kumquat"]"#, roundTrip: false)
        XCTAssertEqual(try NSExpression(mglJSON: json(#"["match", ["get", "x"], ["a", "A"], "Apple", "Bb", "Banana", "Kumquat"]"#)).description,
                       NSExpression(format: "MGL_MATCH(x, {'a', 'A'}, 'Apple', 'Bb', 'Banana', 'Kumquat')").description)
        // The guide's categorical colours.
        check(NSExpression(format: "MGL_MATCH(type, 'earthquake', %@, 'explosion', %@, 'quarry blast', %@, %@)",
                           UIColor.orange, UIColor.red, UIColor.yellow, UIColor.blue), #"""
            ["match", ["get", "type"], "earthquake", ["rgb", 255, 127.5, 0], "explosion", ["rgb", 255, 0, 0],
             "quarry blast", ["rgb", 255, 255, 0], ["rgb", 0, 0, 255]]
            """#)
    }

    func testCoalesce() {
        let items = [NSExpression(forKeyPath: "x"), NSExpression(forKeyPath: "y"), NSExpression(forKeyPath: "z"), constant(0)]
        let expected = #"["coalesce", ["get", "x"], ["get", "y"], ["get", "z"], 0]"#
        check(NSExpression(format: "mgl_coalesce(%@)", items), expected)
        check(NSExpression(format: "FUNCTION(%@, 'mgl_coalesce')", items), expected, roundTrip: false)
        check(NSExpression(forMGLCoalescing: items), expected)
        assertValue(NSExpression(forMGLCoalescing: items), 2, ["y": 2])
        assertValue(NSExpression(forMGLCoalescing: items), 0, [:])
    }

    // MARK: - Conditionals and lookups

    func testConditionals() {
        let conditional = NSExpression(forConditional: NSPredicate(format: "1 = 2"), trueExpression: constant(true), falseExpression: constant(false))
        let expected = #"["case", ["==", 1, 2], true, false]"#
        check(conditional, expected)
        check(NSExpression(format: "TERNARY(1 = 2, TRUE, FALSE)"), expected)
        check(NSExpression(forMGLConditional: NSPredicate(format: "1 = 2"), trueExpression: constant(true), falseExpression: constant(false)), expected)
        XCTAssertEqual(value(conditional) as? Bool, false)
        let nested = NSExpression(format: "TERNARY(0 = 1, TRUE, TERNARY(1 = 2, TRUE, FALSE))")
        check(nested, #"["case", ["==", 0, 1], true, ["case", ["==", 1, 2], true, false]]"#)
        XCTAssertEqual(value(nested) as? Bool, false)

        let ifExpression = NSExpression(format: "MGL_IF(%@, %@, %@)", NSExpression(format: "%@", NSPredicate(format: "1 = 2")), constant(true), constant(false))
        check(ifExpression, expected, roundTrip: false)
        check(NSExpression(format: "FUNCTION(%@, 'mgl_if:', %@)", NSPredicate(format: "1 = 2"), [constant(true), constant(false)]), expected, roundTrip: false)
        XCTAssertEqual(try NSExpression(mglJSON: json(expected)), NSExpression(format: "TERNARY(1 = 2, YES, NO)"))
        let twoConditions = NSExpression(format: "MGL_IF(%@, %@, %@, %@, %@)", NSExpression(format: "%@", NSPredicate(format: "1 = 2")), constant(true),
                                         NSExpression(format: "%@", NSPredicate(format: "1 = 1")), constant(true), constant(false))
        check(twoConditions, #"["case", ["==", 1, 2], true, ["==", 1, 1], true, false]"#)
        XCTAssertEqual(twoConditions, NSExpression(format: "MGL_IF(1 = 2, YES, 1 = 1, YES, NO)"))
        XCTAssertEqual(value(twoConditions) as? Bool, true)
        let nullary = NSExpression(forFunction: "MGL_IF", arguments: [NSPredicate(value: true), constant("yes"), constant("no")])
        XCTAssertEqual(try nullary.mglJSON(), try NSExpression(forFunction: "MGL_IF:", arguments: nullary.arguments!).mglJSON())
        check(NSExpression(format: "TERNARY(area < 80000, abbr, name_en)"), #"["case", ["<", ["get", "area"], 80000], ["get", "abbr"], ["get", "name_en"]]"#)
        XCTAssertEqual(value(NSExpression(format: "TERNARY(area < 80000, abbr, name_en)"), ["area": 100, "abbr": "AB", "name_en": "Abc"]) as? String, "AB")
        // A condition may combine comparisons.
        check(NSExpression(format: "TERNARY(a > 1 AND (b = 'x' OR NOT c != nil), 1, 0)"),
              #"["case", ["all", [">", ["get", "a"], 1], ["any", ["==", ["get", "b"], "x"], ["!", ["!=", ["get", "c"], null]]]], 1, 0]"#)
    }

    func testLookups() {
        let array = NSExpression(forAggregate: [constant(9), constant(8), constant(7)])
        func at(_ index: NSExpression) -> NSExpression { NSExpression(forFunction: "objectFrom:withIndex:", arguments: [array, index]) }
        check(at(constant("FIRST")), #"["at", 0, ["literal", [9, 8, 7]]]"#, roundTrip: false)
        check(at(constant("LAST")), #"["at", ["-", ["length", ["literal", [9, 8, 7]]], 1], ["literal", [9, 8, 7]]]"#, roundTrip: false)
        check(at(constant("SIZE")), #"["length", ["literal", [9, 8, 7]]]"#, roundTrip: false)
        check(at(constant(1)), #"["at", 1, ["literal", [9, 8, 7]]]"#)
        check(at(NSExpression(forKeyPath: "x")), #"["at", ["get", "x"], ["literal", [9, 8, 7]]]"#)
        XCTAssertEqual(NSExpression(format: "{9, 8, 7}[LAST]"), at(constant("LAST")))
        assertValue(NSExpression(format: "{9, 8, 7}[LAST]"), 7)
        assertValue(NSExpression(format: "{9, 8, 7}[1]"), 8)

        let has = NSExpression(forFunction: "mgl_does:have:", arguments: [NSExpression.expressionForEvaluatedObject(), constant("x")])
        check(has, #"["has", "x"]"#)
        check(NSExpression(format: "FUNCTION(self, 'mgl_has:', 'x')"), #"["has", "x"]"#, roundTrip: false)
        XCTAssertEqual(value(has, ["x": 0]) as? Bool, true)
        XCTAssertEqual(value(has, ["y": 0]) as? Bool, false)
        check(NSExpression(forFunction: "mgl_does:have:", arguments: [constant(["x": constant(0)]), constant("x")]),
              #"["has", "x", ["literal", {"x": 0}]]"#)
        check(NSExpression(forFunction: "mgl_does:have:", arguments: [NSExpression.featureAttributesVariable, constant("x")]),
              #"["has", "x", ["properties"]]"#)
        let keyed = NSExpression(format: "TERNARY(key != nil, 1, 0)")
        check(keyed, #"["case", ["!=", ["get", "key"], null], 1, 0]"#)
        assertValue(keyed, 0, [String: Any]())
        assertValue(keyed, 1, ["key": "🗝"])
        let literalKeyed = NSExpression(format: "TERNARY(%@.key != nil, 1, 0)", ["key": "🔑"])
        check(literalKeyed, #"["case", ["!=", ["get", "key", ["literal", {"key": "🔑"}]], null], 1, 0]"#)
        assertValue(literalKeyed, 1)
        // The guide's categorical lookup in a dictionary.
        let stops: [String: UIColor] = ["earthquake": .orange, "explosion": .red, "quarry blast": .yellow]
        check(NSExpression(format: "FUNCTION(%@, 'valueForKeyPath:', type)", stops), #"""
            ["get", ["get", "type"], ["literal", {"earthquake": "rgba(255,128,0,1)", "explosion": "rgba(255,0,0,1)", "quarry blast": "rgba(255,255,0,1)"}]]
            """#, roundTrip: false)
    }

    // MARK: - Everything else

    func testGenericFunctions() {
        check(NSExpression(format: "MGL_FUNCTION('random', 1, 2, 3, 4, 5)"), #"["random", 1, 2, 3, 4, 5]"#, parses: false)
        let typeOf = NSExpression(format: "MGL_FUNCTION('typeof', mystery)")
        check(typeOf, #"["typeof", ["get", "mystery"]]"#)
        XCTAssertEqual(value(typeOf, ["mystery": 1]) as? String, "number")
        let zoom = [constant("zoom")]
        XCTAssertEqual(try NSExpression(forFunction: "MGL_FUNCTION", arguments: zoom).mglJSON(),
                       try NSExpression(forFunction: "MGL_FUNCTION:", arguments: zoom).mglJSON())
        let match = [NSExpression(forVariable: "x"), constant(1), constant("yes"), constant(0), constant("no"), constant("neither")]
        XCTAssertEqual(try NSExpression(forFunction: "MGL_MATCH", arguments: match).mglJSON(),
                       try NSExpression(forFunction: "MGL_MATCH:", arguments: match).mglJSON())
        // Operators whose arguments include objects keep them bare.
        check(try! NSExpression(validatingMGLJSONObject: ["format", "foo", ["font-scale": 1.2], "\n", [String: Any](), "bar", ["font-scale": 0.8]] as [Any]),
              #"["format", "foo", {"font-scale": 1.2}, "\n", {}, "bar", {"font-scale": 0.8}]"#)
        check(NSExpression(format: "MGL_FUNCTION('==', a, 'b', MGL_FUNCTION('collator', %@))", ["case-sensitive": false, "diacritic-sensitive": false, "locale": "tlh"]),
              #"["==", ["get", "a"], "b", ["collator", {"case-sensitive": false, "diacritic-sensitive": false, "locale": "tlh"}]]"#)
    }

    /// JSON → NSExpression → JSON gives back the same JSON for the operators Mapbox documents (and
    /// the others, through `MGL_FUNCTION`), and MapStyle parses each.
    func testJSONRoundTrips() throws {
        let expressions = [
            #"["zoom"]"#, #"["heatmap-density"]"#, #"["line-progress"]"#, #"["accumulated"]"#, #"["geometry-type"]"#, #"["id"]"#,
            #"["properties"]"#, #"["let", "a", 1, ["+", ["var", "a"], 2]]"#, "null", "1", "2.5", "true", #""text""#,
            #"["get", "highway"]"#, #"["get", "population", ["literal", {"population": 12000}]]"#,
            #"["get", ["upcase", "population"], ["literal", {"POPULATION": 12000}]]"#, #"["get", "color", ["get", "lineStyle"]]"#,
            #"["get", "x", ["properties"]]"#, #"["get", ["concat", "name_", "en"]]"#,
            #"["+", 1, 2, 3]"#, #"["+", 1, 2]"#, #"["-", 3, 1]"#, #"["-", 5]"#, #"["*", 2, 3]"#, #"["*", 2, 3, 4]"#, #"["/", 1, 2]"#,
            #"["%", 7, 2]"#, #"["sqrt", 4]"#, #"["log10", 100]"#, #"["ln", 1]"#, #"["log2", 8]"#, #"["abs", -1]"#, #"["round", 1.5]"#,
            #"["floor", 1.5]"#, #"["ceil", 1.5]"#, #"["acos", 1]"#, #"["asin", 0]"#, #"["atan", 1]"#, #"["cos", 0]"#, #"["sin", 0]"#,
            #"["tan", 0]"#, #"["^", 2, 3]"#, #"["^", ["e"], 2]"#, #"["e"]"#, #"["pi"]"#, #"["ln2"]"#, #"["upcase", "a"]"#,
            #"["downcase", "A"]"#, #"["length", "abc"]"#, #"["length", ["get", "names"]]"#, #"["min", 1, ["get", "x"]]"#,
            #"["max", 1, 2]"#, #"["concat", "a", ["get", "b"]]"#, #"["at", 1, ["literal", [9, 8, 7]]]"#, #"["has", "x"]"#,
            #"["has", "x", ["properties"]]"#, #"["to-boolean", ["get", "x"]]"#, #"["to-number", ["get", "x"]]"#,
            #"["to-number", ["get", "x"], ["get", "y"]]"#, #"["to-string", ["get", "x"]]"#, #"["to-color", ["get", "x"]]"#,
            #"["to-rgba", ["get", "x"]]"#, #"["rgb", 255, 0, 0]"#, #"["rgba", 255, 0, 0, 0.5]"#, #"["rgba", ["get", "r"], 0, 0, 1]"#,
            #"["rgb", ["get", "r"], 0, 0]"#,
            #"["interpolate", ["linear"], ["zoom"], 0, 100, 10, 200]"#, #"["interpolate", ["exponential", 2], ["get", "x"], 1, 2, 3, 6]"#,
            #"["interpolate", ["cubic-bezier", 0.42, 0, 0.58, 1], ["get", "x"], 0, 0, 100, 100]"#,
            #"["interpolate", ["linear"], ["heatmap-density"], 0, ["rgba", 0, 0, 255, 0], 1, ["rgb", 255, 0, 0]]"#,
            #"["interpolate-hcl", ["linear"], ["zoom"], 0, "red", 10, "blue"]"#, #"["step", ["zoom"], 11, 0, 111, 1, 1111]"#,
            #"["case", ["==", ["get", "a"], 2], true, false]"#, #"["case", ["==", 1, 2], "a", ["has", "b"], "b", "c"]"#,
            #"["case", ["<", ["get", "area"], 80000], ["get", "abbr"], ["get", "name_en"]]"#,
            #"["case", ["all", [">", ["get", "a"], 1], ["!", ["has", "b"]]], 1, 0]"#,
            #"["match", ["get", "x"], ["a", "A"], "Apple", ["b", "B"], "Banana", "Kumquat"]"#,
            #"["match", ["get", "x"], 1, "one", 0, "zero", "default"]"#, #"["coalesce", ["get", "x"], ["get", "y"], 0]"#,
            #"["literal", [1, 2]]"#, #"["literal", {"a": 1, "b": [true, null]}]"#, #"["literal", [["get", "x"]]]"#,
            #"["==", ["get", "a"], "b", ["collator", {"case-sensitive": false}]]"#, #"["resolved-locale", ["collator", {"locale": "fr"}]]"#,
            #"["format", "foo", {"font-scale": 1.2}, "bar", {}]"#, #"["number", ["get", "x"]]"#, #"["string", ["get", "x"], "y"]"#,
            #"["typeof", ["get", "x"]]"#, #"["number-format", ["get", "x"], {"min-fraction-digits": 1}]"#, #"["in", "a", ["get", "s"]]"#,
            #"["image", "x"]"#, #"["slice", "abc", 1]"#, #"["index-of", "b", "abc"]"#, #"["feature-state", "hover"]"#,
            #"["within", {"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 0]]]}]"#,
            #"["!", ["to-boolean", ["get", "x"]]]"#, #"["all", ["has", "a"], [">", ["get", "b"], 2]]"#,
        ]
        for text in expressions {
            let original = json(text)
            let expression = try NSExpression(mglJSON: original)
            XCTAssertEqual(try expression.mglJSON(), original, "\(text) → \(expression)")
            // Through Foundation objects too, as Mapbox's API takes them.
            let foundation = try NSExpression(validatingMGLJSONObject: FoundationJSON.object(original))
            XCTAssertEqual(foundation, expression, text)
            XCTAssertEqual(try FoundationJSON.value(foundation.validatedMGLJSONObject()), original, text)
            if text.contains("\"var\"") && !text.contains("\"let\"") { continue }
            do { _ = try MapStyle.Expression.parse(original) } catch { XCTFail("MapStyle rejects \(text): \(error)") }
        }
    }

    /// The documented format strings of the guides, through `JSONSerialization` as an app would write them.
    func testGuideExamplesSerialize() throws {
        let circleColor = NSExpression(format: "mgl_interpolate:withCurveType:parameters:stops:(mag, 'linear', nil, %@)",
                                       [0: UIColor.yellow, 10: UIColor.white])
        let data = try JSONSerialization.data(withJSONObject: circleColor.mgl_jsonExpressionObject, options: [.sortedKeys])
        XCTAssertEqual(try JSONValue.parse(Array(data)),
                       json(#"["interpolate", ["linear"], ["get", "mag"], 0, ["rgb", 255, 255, 0], 10, ["rgb", 255, 255, 255]]"#))
        let read = try JSONSerialization.jsonObject(with: data)
        XCTAssertEqual(NSExpression(mglJSONObject: read), circleColor)
        let multiply = NSExpression(forFunction: "multiply:by:", arguments: [NSExpression(forKeyPath: "mag"), 3])
        check(multiply, #"["*", ["get", "mag"], 3]"#)
        check(NSExpression(format: "CAST(mag, 'NSString')"), #"["to-string", ["get", "mag"]]"#)
        check(NSExpression(format: "sum:({$featureAccumulated, sumValue})"), #"["+", ["accumulated"], ["get", "sumValue"]]"#, roundTrip: false)
    }

    // MARK: - Equality, description

    func testEqualityAndHashing() {
        XCTAssertEqual(constant(1), constant(1.0))
        XCTAssertEqual(constant(1), constant(NSNumber(value: 1)))
        XCTAssertEqual(constant(Float(2.5)), constant(2.5))
        XCTAssertNotEqual(constant(1), constant(true))
        XCTAssertNotEqual(constant(1), constant("1"))
        XCTAssertEqual(constant([0: UIColor.red]), constant([NSNumber(value: 0): UIColor.red]))
        XCTAssertEqual(constant(["a", "b"]), constant([constant("a"), constant("b")]))
        XCTAssertNotEqual(constant(["a", "b"]), NSExpression(forAggregate: [constant("a"), constant("b")]))
        XCTAssertEqual(Set([NSExpression(format: "a + 1"), NSExpression(format: "a+1"), NSExpression(forKeyPath: "a")]).count, 2)
        XCTAssertEqual(NSExpression(format: "a + 1").hash, NSExpression(forFunction: "add:to:", arguments: [NSExpression(forKeyPath: "a"), 1]).hash)
        XCTAssertEqual(constant(nil), constant(NSNull()))
        XCTAssertEqual(constant(Optional<Int>.none as Any), constant(nil))
    }

    func testDescriptions() {
        let cases: [(NSExpression, String)] = [
            (NSExpression(format: "mag * 3"), "mag * 3"),
            (NSExpression(format: "(1 + 2) * 3"), "(1 + 2) * 3"),
            (NSExpression(format: "1 + 2 * 3"), "1 + 2 * 3"),
            (NSExpression(format: "10 - (4 - 3)"), "10 - (4 - 3)"),
            (NSExpression(format: "'Old'"), "\"Old\""),
            (NSExpression(format: "$zoomLevel"), "$zoomLevel"),
            (NSExpression(format: "sum({1, 2})"), "sum:({1, 2})"),
            (NSExpression(format: "TERNARY(a == 'b', 1, 0)"), "TERNARY(a == \"b\", 1, 0)"),
            (NSExpression(format: "CAST(x, 'NSString')"), "CAST(x, \"NSString\")"),
            (NSExpression(format: "FUNCTION(x, 'boolValue')"), "FUNCTION(x, \"boolValue\")"),
            (NSExpression(format: "MGL_MATCH(x, 1, 'one', 'other')"), "MGL_MATCH(x, 1, \"one\", \"other\")"),
            (NSExpression(format: "{9, 8}[LAST]"), "{9, 8}[LAST]"),
            (NSExpression(format: "lineStyle.color"), "lineStyle.color"),
            (NSExpression.expressionForEvaluatedObject(), "SELF"),
            (constant(nil), "nil"),
            (constant(true), "TRUE"),
        ]
        for (expression, expected) in cases {
            XCTAssertEqual(expression.description, expected)
            // The description is a format string for the same expression.
            XCTAssertEqual(NSExpression(format: expression.description), expression, expected)
        }
        // Dictionaries and colours are written readably, as Foundation writes them, not as format strings.
        XCTAssertEqual(NSExpression(format: "mgl_step:from:stops:(x, 0, %@)", [2.5: 5, 1: 2]).description, "mgl_step:from:stops:(x, 0, {1 = 2; 2.5 = 5})")
        XCTAssertEqual(constant(UIColor.red).description, "UIColor(red: 1, green: 0, blue: 0, alpha: 1)")
    }

    func testKindsAndParts() {
        let function = NSExpression(format: "FUNCTION(x, 'mgl_numberWithFallbackValues:', 0)")
        XCTAssertEqual(function.expressionType, .function)
        XCTAssertEqual(function.function, "mgl_numberWithFallbackValues:")
        XCTAssertEqual(function.operand, NSExpression(forKeyPath: "x"))
        XCTAssertEqual(function.arguments, [constant(0)])
        let builtIn = NSExpression(format: "1 + 2")
        XCTAssertEqual(builtIn.function, "add:to:")
        XCTAssertEqual(builtIn.operand, constant(nil))
        XCTAssertEqual(NSExpression(format: "x").keyPath, "x")
        XCTAssertEqual(NSExpression(format: "x").expressionType, .keyPath)
        XCTAssertEqual(NSExpression(format: "$x").variable, "x")
        XCTAssertEqual(NSExpression(format: "{1, 2}").expressionType, .aggregate)
        XCTAssertEqual(NSExpression(format: "{1, 2}").collection as? [NSExpression], [constant(1), constant(2)])
        let conditional = NSExpression(format: "TERNARY(a == 1, 'x', 'y')")
        XCTAssertEqual(conditional.expressionType, .conditional)
        XCTAssertEqual(conditional.predicate, NSPredicate(format: "a == 1"))
        XCTAssertEqual(conditional.trueExpression, constant("x"))
        XCTAssertEqual(conditional.falseExpression, constant("y"))
        XCTAssertEqual(NSExpression(format: "SELF").expressionType, .evaluatedObject)
        XCTAssertNil(constant(1).arguments)
        // Constants keep the value given; numbers from a format string are NSNumbers.
        XCTAssertEqual(constant(UIColor.red).constantValue as? UIColor, .red)
        XCTAssertEqual(NSExpression(format: "2.5").constantValue as? Double, 2.5)
        XCTAssertEqual(NSExpression(format: "7").constantValue as? Int, 7)
        XCTAssertEqual(NSExpression(format: "%d", 7).constantValue as? Int, 7)
        XCTAssertEqual(NSExpression(format: "%f", 7.5).constantValue as? Double, 7.5)
        XCTAssertEqual(NSExpression(format: "'a'").constantValue as? String, "a")
    }
}
