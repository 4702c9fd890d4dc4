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

/// The expectations of Mapbox's `MGLPredicateTests` and "Predicates and expressions" guide, written
/// again here: predicate format strings to the filter JSON they convert to, filter JSON (expression
/// and legacy syntax) back to predicates, and filters evaluated by MapStyle's engine.
final class NSPredicateTests: XCTestCase {
    /// Checks `predicate` converts to `expected`, that MapStyle parses it as a Boolean, and (with
    /// `roundTrip`) that `expected` reads back as an equal predicate.
    private func check(_ predicate: NSPredicate, _ expected: String, roundTrip: Bool = true,
                       file: StaticString = #filePath, line: UInt = #line) {
        let expectedJSON = json(expected, file: file, line: line)
        do {
            let converted = try predicate.mglJSON()
            XCTAssertEqual(converted, expectedJSON, "\(predicate)", file: file, line: line)
            do { _ = try MapStyle.Expression.parse(converted, expected: .boolean) } catch {
                XCTFail("MapStyle rejects \(expected): \(error)", file: file, line: line)
            }
        } catch {
            XCTFail("\(predicate) does not convert: \(error)", file: file, line: line)
        }
        if roundTrip {
            do {
                let back = try NSPredicate(mglJSON: expectedJSON)
                XCTAssertEqual(back, predicate, "\(expected) reads back as \(back), not \(predicate)", file: file, line: line)
            } catch {
                XCTFail("\(expected) does not read back: \(error)", file: file, line: line)
            }
        }
    }

    func testComparisons() {
        check(NSPredicate(format: "x == YES"), #"["==", ["get", "x"], true]"#)
        check(NSPredicate(format: "CAST(x, 'NSNumber') < 5"), #"["<", ["to-number", ["get", "x"]], 5]"#)
        check(NSPredicate(format: "CAST(x, 'NSNumber') > 5"), #"[">", ["to-number", ["get", "x"]], 5]"#)
        check(NSPredicate(format: "CAST(x, 'NSNumber') <= 5"), #"["<=", ["to-number", ["get", "x"]], 5]"#)
        check(NSPredicate(format: "CAST(x, 'NSNumber') >= 5"), #"[">=", ["to-number", ["get", "x"]], 5]"#)
        check(NSPredicate(format: "CAST(x, 'NSString') > 'value'"), #"[">", ["to-string", ["get", "x"]], "value"]"#)
        check(NSPredicate(format: "a = 'b'"), #"["==", ["get", "a"], "b"]"#)
        check(NSPredicate(format: "$geometryType = 'Point'"), #"["==", ["geometry-type"], "Point"]"#)
        check(NSPredicate(format: "$featureIdentifier = 67086180"), #"["==", ["id"], 67086180]"#)
        check(NSPredicate(format: "$featureIdentifier = nil"), #"["==", ["id"], null]"#)
        check(NSPredicate(format: "a = nil"), #"["==", ["get", "a"], null]"#)
        check(NSPredicate(format: "$geometryType != 'Point'"), #"["!=", ["geometry-type"], "Point"]"#)
        check(NSPredicate(format: "$featureIdentifier != 67086180"), #"["!=", ["id"], 67086180]"#)
        check(NSPredicate(format: "$featureIdentifier != nil"), #"["!=", ["id"], null]"#)
        check(NSPredicate(format: "a != 'b'"), #"["!=", ["get", "a"], "b"]"#)
        check(NSPredicate(format: "a <> 'b'"), #"["!=", ["get", "a"], "b"]"#)
        check(NSPredicate(format: "a != nil"), #"["!=", ["get", "a"], null]"#)
        check(NSPredicate(format: "CAST(a, 'NSString') < 'b'"), #"["<", ["to-string", ["get", "a"]], "b"]"#)
        check(NSPredicate(format: "CAST(a, 'NSString') <= 'b'"), #"["<=", ["to-string", ["get", "a"]], "b"]"#)
        check(NSPredicate(format: "CAST(a, 'NSString') =< 'b'"), #"["<=", ["to-string", ["get", "a"]], "b"]"#)
        check(NSPredicate(format: "CAST(a, 'NSString') > 'b'"), #"[">", ["to-string", ["get", "a"]], "b"]"#)
        check(NSPredicate(format: "CAST(a, 'NSString') >= 'b'"), #"[">=", ["to-string", ["get", "a"]], "b"]"#)
        check(NSPredicate(format: "CAST(a, 'NSString') => 'b'"), #"[">=", ["to-string", ["get", "a"]], "b"]"#)
        check(NSPredicate(format: "%K == %@", "ISO 3166-1:2006", "US-OH"), #"["==", ["get", "ISO 3166-1:2006"], "US-OH"]"#)
        check(NSComparisonPredicate(leftExpression: NSExpression(forKeyPath: "a"), rightExpression: NSExpression(forConstantValue: "b"),
                                    modifier: .direct, type: .equalTo),
              #"["==", ["get", "a"], "b"]"#)
    }

    func testBetween() {
        check(NSPredicate(format: "CAST(a, 'NSString') BETWEEN {'b', 'z'}"),
              #"["all", ["<=", "b", ["to-string", ["get", "a"]]], ["<=", ["to-string", ["get", "a"]], "z"]]"#)
        let limits = NSExpression(forAggregate: [NSExpression(forConstantValue: 10), NSExpression(forConstantValue: 100)])
        let between = NSPredicate(format: "CAST(x, 'NSNumber') BETWEEN %@", limits)
        check(between, #"["all", ["<=", 10, ["to-number", ["get", "x"]]], ["<=", ["to-number", ["get", "x"]], 100]]"#)
        // Each way of writing the two bounds reads as BETWEEN.
        for text in [
            #"["all", [">=", ["to-number", ["get", "x"]], 10], ["<=", ["to-number", ["get", "x"]], 100]]"#,
            #"["all", ["<=", 10, ["to-number", ["get", "x"]]], [">=", 100, ["to-number", ["get", "x"]]]]"#,
            #"["all", [">=", ["to-number", ["get", "x"]], 10], [">=", 100, ["to-number", ["get", "x"]]]]"#,
        ] {
            XCTAssertEqual(try NSPredicate(mglJSON: json(text)), between, text)
        }
        // …but only when both bounds are of the same value.
        let mixed = try! NSPredicate(mglJSON: json(#"["all", [">=", ["get", "a"], 10], ["<=", ["get", "b"], 100]]"#))
        XCTAssertEqual(mixed, NSPredicate(format: "a >= 10 AND b <= 100"))
        XCTAssertTrue(between.evaluate(with: ["x": 50]))
        XCTAssertTrue(between.evaluate(with: ["x": "100"]))
        XCTAssertFalse(between.evaluate(with: ["x": 5]))
    }

    func testMembership() {
        let ids = NSPredicate(format: "$featureIdentifier IN { 6, 5, 4, 3}")
        check(ids, #"["match", ["id"], [6, 5, 4, 3], true, false]"#, roundTrip: false)
        let read = try! NSPredicate(mglJSON: json(#"["match", ["id"], [6, 5, 4, 3], true, false]"#))
        XCTAssertEqual(read, NSPredicate(format: "MGL_MATCH($featureIdentifier, { 6, 5, 4, 3 }, YES, NO) == YES"))
        XCTAssertEqual(try read.mglJSON(), json(#"["match", ["id"], [6, 5, 4, 3], true, false]"#))
        check(NSPredicate(format: "CAST($featureIdentifier, 'NSNumber') IN { 3002970001, 3004140052, 3002950027, 3002970033 }"),
              #"["match", ["to-number", ["id"]], [3002970001, 3004140052, 3002950027, 3002970033], true, false]"#, roundTrip: false)
        check(NSPredicate(format: "NOT x IN { 6, 5, 4, 3}"), #"["!", ["match", ["get", "x"], [6, 5, 4, 3], true, false]]"#, roundTrip: false)
        check(NSPredicate(format: "a IN { 'b', 'c' }"), #"["match", ["get", "a"], ["b", "c"], true, false]"#, roundTrip: false)
        check(NSPredicate(format: "%@ IN %@", NSExpression.geometryTypeVariable, ["LineString", "Polygon"]),
              #"["match", ["geometry-type"], ["LineString", "Polygon"], true, false]"#, roundTrip: false)
        check(NSPredicate(format: "{ 6, 5, 4, 3 } CONTAINS x"), #"["match", ["get", "x"], [6, 5, 4, 3], true, false]"#, roundTrip: false)
        check(NSPredicate(format: "%@ CONTAINS %@", ["LineString", "Polygon"], NSExpression.geometryTypeVariable),
              #"["match", ["geometry-type"], ["LineString", "Polygon"], true, false]"#, roundTrip: false)
        check(NSPredicate(format: "{ 6, 5, 4, 3} CONTAINS $featureIdentifier"), #"["match", ["id"], [6, 5, 4, 3], true, false]"#, roundTrip: false)
        // Labels of mixed types use the style language's `in`; an empty collection never matches.
        check(NSPredicate(format: "x IN {1, 'one'}"), #"["in", ["get", "x"], ["literal", [1, "one"]]]"#, roundTrip: false)
        check(NSPredicate(format: "x IN {}"), "false", roundTrip: false)
        // Over an attribute or a string, IN and CONTAINS are the style language's `in`.
        check(NSPredicate(format: "'cafe' IN name"), #"["in", "cafe", ["get", "name"]]"#, roundTrip: false)
        check(NSPredicate(format: "name CONTAINS 'cafe'"), #"["in", "cafe", ["get", "name"]]"#, roundTrip: false)
        XCTAssertTrue(NSPredicate(format: "name CONTAINS 'cafe'").evaluate(with: ["name": "the cafe"]))
        XCTAssertTrue(NSPredicate(format: "x IN {6, 5, 4, 3}").evaluate(with: ["x": 4]))
        XCTAssertFalse(NSPredicate(format: "x IN {6, 5, 4, 3}").evaluate(with: ["x": 2]))
        XCTAssertTrue(NSPredicate(format: "$geometryType IN {'LineString', 'Polygon'}")
            .evaluate(with: [String: Any](), substitutionVariables: ["geometryType": "Polygon"]))
    }

    func testOptions() {
        check(NSPredicate(format: "a =[c] 'b'"),
              #"["==", ["get", "a"], "b", ["collator", {"case-sensitive": false, "diacritic-sensitive": true}]]"#)
        check(NSPredicate(format: "a =[d] 'b'"),
              #"["==", ["get", "a"], "b", ["collator", {"case-sensitive": true, "diacritic-sensitive": false}]]"#)
        check(NSPredicate(format: "a =[cd] 'b'"),
              #"["==", ["get", "a"], "b", ["collator", {"case-sensitive": false, "diacritic-sensitive": false}]]"#)
        check(NSPredicate(format: "a !=[cd] 'b'"),
              #"["!=", ["get", "a"], "b", ["collator", {"case-sensitive": false, "diacritic-sensitive": false}]]"#)
        for op in ["<", "<=", ">", ">="] {
            check(NSPredicate(format: "CAST(a, 'NSString') \(op)[cd] 'b'"),
                  #"["\#(op)", ["to-string", ["get", "a"]], "b", ["collator", {"case-sensitive": false, "diacritic-sensitive": false}]]"#)
        }
        // A collator with a locale has no options counterpart: it stays an expression.
        let located = NSPredicate(format: "TRUE = MGL_FUNCTION('==', a, 'b', MGL_FUNCTION('collator', %@))",
                                  ["case-sensitive": false, "diacritic-sensitive": false, "locale": "tlh"])
        let locatedJSON = try! located.mglJSON()
        XCTAssertEqual(locatedJSON.arrayValue?.last,
                       json(#"["==", ["get", "a"], "b", ["collator", {"case-sensitive": false, "diacritic-sensitive": false, "locale": "tlh"}]]"#))
        let fromJSON = #"["==", ["get", "a"], "b", ["collator", {"case-sensitive": false, "locale": "tlh"}]]"#
        XCTAssertEqual(try NSPredicate(mglJSON: json(fromJSON)).mglJSON(), json(fromJSON))
        XCTAssertTrue(NSPredicate(format: "a =[c] 'QUEBEC'").evaluate(with: ["a": "Quebec"]))
        XCTAssertTrue(NSPredicate(format: "a =[d] 'Quebec'").evaluate(with: ["a": "Québec"]))
        XCTAssertFalse(NSPredicate(format: "a == 'Quebec'").evaluate(with: ["a": "Québec"]))
    }

    func testCompounds() {
        check(NSPredicate(format: "a == 'b' AND c == 'd'"), #"["all", ["==", ["get", "a"], "b"], ["==", ["get", "c"], "d"]]"#)
        check(NSPredicate(format: "a == 'b' && c == 'd'"), #"["all", ["==", ["get", "a"], "b"], ["==", ["get", "c"], "d"]]"#)
        check(NSPredicate(format: "a == 'b' OR c == 'd'"), #"["any", ["==", ["get", "a"], "b"], ["==", ["get", "c"], "d"]]"#)
        check(NSPredicate(format: "a == 'b' || c == 'd'"), #"["any", ["==", ["get", "a"], "b"], ["==", ["get", "c"], "d"]]"#)
        check(NSPredicate(format: "NOT(a == 'b' AND c == 'd')"), #"["!", ["all", ["==", ["get", "a"], "b"], ["==", ["get", "c"], "d"]]]"#)
        check(NSPredicate(format: "NOT(a == 'b' OR c == 'd')"), #"["!", ["any", ["==", ["get", "a"], "b"], ["==", ["get", "c"], "d"]]]"#)
        check(NSPredicate(format: "NOT a == nil"), #"["!", ["==", ["get", "a"], null]]"#)
        check(NSPredicate(format: "!(a != nil)"), #"["!", ["!=", ["get", "a"], null]]"#)
        // AND binds tighter than OR; NOT tighter than both.
        check(NSPredicate(format: "a == 1 OR b == 2 AND NOT c == 3"),
              #"["any", ["==", ["get", "a"], 1], ["all", ["==", ["get", "b"], 2], ["!", ["==", ["get", "c"], 3]]]]"#)
        check(NSPredicate(format: "a == 1 AND b == 2 AND c == 3"), #"["all", ["==", ["get", "a"], 1], ["==", ["get", "b"], 2], ["==", ["get", "c"], 3]]"#)
        check(NSPredicate(format: "(a + 1) * 2 > 4 AND (b == 1)"), #"["all", [">", ["*", ["+", ["get", "a"], 1], 2], 4], ["==", ["get", "b"], 1]]"#)
        check(NSPredicate(value: true), "true")
        check(NSPredicate(format: "TRUEPREDICATE"), "true")
        check(NSPredicate(format: "FALSEPREDICATE"), "false")
        check(NSCompoundPredicate(andPredicateWithSubpredicates: [NSPredicate(format: "a == 1"), NSPredicate(format: "b == 2")]),
              #"["all", ["==", ["get", "a"], 1], ["==", ["get", "b"], 2]]"#)
        check(NSCompoundPredicate(notPredicateWithSubpredicate: NSPredicate(format: "a == 1")), #"["!", ["==", ["get", "a"], 1]]"#)
        let compound = NSCompoundPredicate(orPredicateWithSubpredicates: [NSPredicate(format: "a == 1")])
        XCTAssertEqual(compound.compoundPredicateType, .or)
        XCTAssertEqual(compound.subpredicates as? [NSPredicate], [NSPredicate(format: "a == 1")])
    }

    /// Filters of any other Boolean expression read as Mapbox reads them (`expression == TRUE`) and
    /// are written back as they were.
    func testOtherFilterExpressions() throws {
        for text in [
            #"["has", "name"]"#, #"["!", ["has", "name"]]"#, #"["in", ["get", "class"], ["literal", ["park", "garden"]]]"#,
            #"["boolean", ["get", "flag"], false]"#, #"["to-boolean", ["get", "flag"]]"#,
            #"["case", ["has", "a"], true, false]"#, #"["match", ["get", "class"], ["park", "garden"], true, false]"#,
            #"["within", {"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 0]]]}]"#,
        ] {
            let original = json(text)
            let predicate = try NSPredicate(mglJSON: original)
            XCTAssertEqual(try predicate.mglJSON(), original, "\(text) → \(predicate)")
            XCTAssertNoThrow(try MapStyle.Expression.parse(original, expected: .boolean), text)
        }
        XCTAssertEqual(try NSPredicate(mglJSON: json(#"["has", "name"]"#)), NSPredicate(format: "mgl_does:have:(SELF, 'name') == TRUE"))
        // A non-Boolean expression keeps the comparison with TRUE.
        XCTAssertEqual(try NSPredicate(mglJSON: json(#"["get", "flag"]"#)).mglJSON(), json(#"["==", ["get", "flag"], true]"#))
    }

    /// Legacy filters read as the expressions they stand for, with their legacy meaning.
    func testLegacyFilters() throws {
        XCTAssertEqual(try NSPredicate(mglJSON: json(#"["==", "class", "park"]"#)), NSPredicate(format: "class == 'park'"))
        XCTAssertEqual(try NSPredicate(mglJSON: json(#"["all", ["==", "class", "park"], [">", "rank", 2]]"#)),
                       NSPredicate(format: "class == 'park' AND rank > 2"))
        XCTAssertEqual(try NSPredicate(mglJSON: json(#"["==", "$type", "Polygon"]"#)), NSPredicate(format: "$geometryType == 'Polygon'"))
        XCTAssertEqual(try NSPredicate(mglJSON: json(#"["has", "$id"]"#)), NSPredicate(format: "$featureIdentifier != nil"))
        let notHas = try NSPredicate(mglJSON: json(#"["!has", "name"]"#))
        XCTAssertEqual(try notHas.mglJSON(), json(#"["!", ["has", "name"]]"#))
        XCTAssertTrue(notHas.evaluate(with: ["other": 1]))
        XCTAssertFalse(notHas.evaluate(with: ["name": "x"]))
        let types = try NSPredicate(mglJSON: json(#"["in", "$type", "Point", "LineString"]"#))
        XCTAssertEqual(try types.mglJSON(), json(#"["in", ["geometry-type"], ["literal", ["Point", "LineString"]]]"#))
        XCTAssertTrue(types.evaluate(with: nil, substitutionVariables: ["geometryType": "LineString"]))
        XCTAssertFalse(types.evaluate(with: nil, substitutionVariables: ["geometryType": "Polygon"]))
        let none = try NSPredicate(mglJSON: json(#"["none", ["==", "class", "park"], ["!in", "rank", 1, 2]]"#))
        XCTAssertTrue(none.evaluate(with: ["class": "forest", "rank": 1]))
        XCTAssertFalse(none.evaluate(with: ["class": "forest", "rank": 3]))
        XCTAssertThrowsError(try NSPredicate(validatingMGLJSONObject: ["==", 1, "park"] as [Any]))
    }

    func testEvaluation() {
        let filter = NSPredicate(format: "type == 'earthquake' AND mag >= %@", 5)
        XCTAssertTrue(filter.evaluate(with: ["type": "earthquake", "mag": 6.1]))
        XCTAssertFalse(filter.evaluate(with: ["type": "earthquake", "mag": 4]))
        XCTAssertFalse(filter.evaluate(with: ["type": "explosion", "mag": 6.1]))
        XCTAssertFalse(filter.evaluate(with: nil))
        XCTAssertTrue(NSPredicate(format: "$zoomLevel >= 10").evaluate(with: nil, substitutionVariables: ["zoomLevel": 12]))
        XCTAssertTrue(NSPredicate(format: "$featureIdentifier == 7").evaluate(with: nil, substitutionVariables: ["featureIdentifier": 7]))
        XCTAssertTrue(NSPredicate(format: "$limit > 3").evaluate(with: nil, substitutionVariables: ["limit": 4]))
        XCTAssertTrue(NSPredicate(value: true).evaluate(with: nil))
        XCTAssertFalse(NSPredicate(value: false).evaluate(with: nil))
        // What the style language cannot express evaluates to false, as a failing filter hides a feature.
        XCTAssertFalse(NSPredicate(format: "name BEGINSWITH 'a'").evaluate(with: ["name": "abc"]))
        XCTAssertFalse(NSPredicate(format: "mag > 'x'").evaluate(with: ["mag": 1]))
    }

    func testUnsupportedPredicates() {
        for format in ["a BEGINSWITH 'L'", "a ENDSWITH 'itude'", "a LIKE 'glob?trotter'", "a MATCHES 'i\\\\w{18}n'",
                       "ANY a == 1", "ALL a == 1", "NONE a == 1", "a ==[n] 'b'", "a IN[c] {'b'}"] {
            let predicate = NSPredicate(format: format)
            XCTAssertThrowsError(try predicate.validatedMGLJSONObject(), format) { error in
                XCTAssertEqual((error as? MGLExpressionError)?.code, .unsupported, format)
            }
        }
    }

    func testDescriptionAndEquality() {
        let cases: [(String, String)] = [
            ("a == 'b' AND c == 'd'", "a == \"b\" AND c == \"d\""),
            ("NOT (a == 'b' OR c == 'd')", "NOT (a == \"b\" OR c == \"d\")"),
            ("a =[cd] 'b'", "a ==[cd] \"b\""),
            ("x BETWEEN {10, 100}", "x BETWEEN {10, 100}"),
            ("(a == 1 OR b == 2) AND c == 3", "(a == 1 OR b == 2) AND c == 3"),
            ("TRUEPREDICATE", "TRUEPREDICATE"),
            ("$geometryType IN {'Point'}", "$geometryType IN {\"Point\"}"),
            ("ANY tags == 'x'", "ANY tags == \"x\""),
        ]
        for (format, expected) in cases {
            let predicate = NSPredicate(format: format)
            XCTAssertEqual(predicate.predicateFormat, expected)
            XCTAssertEqual(predicate.description, expected)
            XCTAssertEqual(NSPredicate(format: predicate.predicateFormat), predicate, format)
        }
        let comparison = NSComparisonPredicate(leftExpression: NSExpression(forKeyPath: "a"), rightExpression: NSExpression(forConstantValue: 1),
                                               modifier: .direct, type: .lessThan, options: [])
        XCTAssertEqual(comparison, NSPredicate(format: "a < 1"))
        XCTAssertEqual(comparison.hash, NSPredicate(format: "a < 1").hash)
        XCTAssertEqual(comparison.predicateOperatorType, .lessThan)
        XCTAssertEqual(comparison.leftExpression, NSExpression(forKeyPath: "a"))
        XCTAssertEqual(comparison.rightExpression, NSExpression(forConstantValue: 1))
        XCTAssertEqual(comparison.comparisonPredicateModifier, .direct)
        XCTAssertNotEqual(NSPredicate(format: "a < 1"), NSPredicate(format: "a <= 1"))
        XCTAssertEqual(NSPredicate(format: "a = 1"), NSPredicate(format: "a == 1"))
    }
}
