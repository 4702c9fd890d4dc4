import Foundation
import MapStyle
@testable import OpenMapKit
// Foundation declares (unavailable) classes of these names too: the scoped imports make the names
// OpenMapKit's in type positions, as the NSExpression documentation describes.
import class OpenMapKit.NSComparisonPredicate
import class OpenMapKit.NSCompoundPredicate
import class OpenMapKit.NSExpression
import class OpenMapKit.NSPredicate
import TestSupport
import XCTest

/// Malformed format strings and JSON, and expressions with no style-language counterpart: each is
/// refused with an `MGLExpressionError` that says what is wrong, and mutated inputs never crash.
final class NSExpressionErrorTests: XCTestCase {
    private func assertFormatError(_ format: String, _ arguments: [Any] = [], predicate: Bool = false, mentioning words: String,
                                   file: StaticString = #filePath, line: UInt = #line) {
        do {
            if predicate {
                let parsed = try NSPredicate(validatingFormat: format, argumentArray: arguments)
                XCTFail("\(format) parsed as \(parsed)", file: file, line: line)
            } else {
                let parsed = try NSExpression(validatingFormat: format, argumentArray: arguments)
                XCTFail("\(format) parsed as \(parsed)", file: file, line: line)
            }
        } catch {
            XCTAssertEqual(error.code, .invalidFormat, format, file: file, line: line)
            XCTAssertTrue(error.description.contains(words), "\(format): \(error) does not mention \(words)", file: file, line: line)
            XCTAssertNotNil(error.offset, file: file, line: line)
        }
    }

    func testMalformedExpressionFormats() {
        assertFormatError("1 +", mentioning: "expected an expression but found the end")
        assertFormatError("(1 + 2", mentioning: "expected ')'")
        assertFormatError("'unterminated", mentioning: "unterminated string")
        assertFormatError("foo(1)", mentioning: "unknown function 'foo'")
        assertFormatError("sum(1, 2)", mentioning: "unknown function 'sum' with 2 arguments")
        assertFormatError("mgl_interpolate:withCurveType:parameters:stops:(x)", mentioning: "unknown function")
        assertFormatError("%@ + %@", [1], mentioning: "more specifiers than the 1 arguments")
        assertFormatError("%K", [5], mentioning: "%K needs a string")
        assertFormatError("%d", ["x"], mentioning: "%d needs a number")
        assertFormatError("SUBQUERY(x, $y, $y > 1)", mentioning: "SUBQUERY expressions are not supported")
        assertFormatError("a.@count", mentioning: "@count")
        assertFormatError("TERNARY(1, 2, 3)", mentioning: "expected a predicate")
        assertFormatError("FUNCTION(x, y)", mentioning: "selector name in quotes")
        assertFormatError("CAST(x)", mentioning: "CAST takes")
        assertFormatError("1 = 2", mentioning: "expected an expression but found the predicate")
        assertFormatError("a b", mentioning: "unexpected 'b'")
        assertFormatError("IN", mentioning: "keyword 'IN'")
        assertFormatError("x ^ 2", mentioning: "unexpected character '^'")
        assertFormatError("mgl_join:", mentioning: "expected '('")
        assertFormatError(String(repeating: "(", count: 500) + "1" + String(repeating: ")", count: 500), mentioning: "nested more than")
        assertFormatError(String(repeating: "-", count: 500) + "x", mentioning: "nested more than")
        assertFormatError(Array(repeating: "1", count: 5000).joined(separator: " + "), mentioning: "nested more than")
        assertFormatError("x" + String(repeating: "[0]", count: 5000), mentioning: "nested more than")
        assertFormatError("12abc", mentioning: "after a number")
    }

    func testMalformedPredicateFormats() {
        assertFormatError("a ==", predicate: true, mentioning: "expected an expression")
        assertFormatError("a", predicate: true, mentioning: "expected a predicate")
        assertFormatError("a == 1 AND", predicate: true, mentioning: "expected an expression")
        assertFormatError("a == 1 AND b", predicate: true, mentioning: "expected a predicate")
        assertFormatError("a =[l] 'b'", predicate: true, mentioning: "[l]")
        assertFormatError("ANY x", predicate: true, mentioning: "comparison operator")
        assertFormatError("NOT", predicate: true, mentioning: "expected an expression")
        assertFormatError("a == 1)", predicate: true, mentioning: "unexpected ')'")
    }

    private func assertJSONError(_ object: Any, _ code: MGLExpressionError.Code = .invalidJSON, mentioning words: String,
                                 file: StaticString = #filePath, line: UInt = #line) {
        do {
            let expression = try NSExpression(validatingMGLJSONObject: object)
            XCTFail("\(object) read as \(expression)", file: file, line: line)
        } catch {
            XCTAssertEqual(error.code, code, "\(object)", file: file, line: line)
            XCTAssertTrue(error.description.contains(words), "\(object): \(error) does not mention \(words)", file: file, line: line)
        }
    }

    func testMalformedJSON() {
        assertJSONError([Any](), mentioning: "an empty array is not an expression")
        assertJSONError([1, 2] as [Any], mentioning: "starts with its operator's name")
        assertJSONError(["interpolate", ["linear"], ["zoom"]] as [Any], mentioning: "\"interpolate\" takes")
        assertJSONError(["interpolate", ["quadratic"], ["zoom"], 0, 1] as [Any], mentioning: "curve")
        assertJSONError(["interpolate", ["linear"], ["zoom"], "a", 1] as [Any], mentioning: "stop inputs are numbers")
        assertJSONError(["interpolate", ["linear"], ["zoom"], 1, 1, 1, 2] as [Any], mentioning: "stop 1 twice")
        assertJSONError(["step", ["zoom"], 1] as [Any], mentioning: "\"step\" takes")
        assertJSONError(["get"] as [Any], mentioning: "\"get\" takes 1 to 2 arguments")
        assertJSONError(["match", ["get", "x"], 1] as [Any], mentioning: "\"match\" takes")
        assertJSONError(["case", true] as [Any], mentioning: "\"case\" takes")
        assertJSONError(["var", 1] as [Any], mentioning: "variable name")
        assertJSONError(["zoom", 1] as [Any], mentioning: "\"zoom\" takes 0 arguments")
        assertJSONError(["literal"] as [Any], mentioning: "\"literal\" takes 1 argument")
        assertJSONError(["to-string", Date()] as [Any], mentioning: "is not a JSON value")
        assertJSONError(["==", Double.nan, 1] as [Any], mentioning: "not a JSON number")
        assertJSONError([1: "a"] as [Int: String], mentioning: "keys must be strings")
        var deep: Any = 1
        for _ in 0..<1000 { deep = ["abs", deep] as [Any] }
        assertJSONError(deep, mentioning: "nested more than")
        var deepJSON = JSONValue.number(1)
        for _ in 0..<400 { deepJSON = .array([.string("abs"), deepJSON]) }
        XCTAssertThrowsError(try NSExpression(mglJSON: deepJSON))
        XCTAssertThrowsError(try NSPredicate(validatingMGLJSONObject: ["all", [Any]()] as [Any]))
    }

    func testExpressionsWithoutCounterpart() {
        let unsupported: [NSExpression] = [
            NSExpression(format: "median({1, 2})"), NSExpression(format: "mode({1, 2})"), NSExpression(format: "stddev({1, 2})"),
            NSExpression(format: "now()"), NSExpression(format: "random()"), NSExpression(format: "bitwiseAnd:with:(5, 3)"),
            NSExpression(format: "FUNCTION(x, 'fooWithBar:', 1)"), NSExpression(forFunction: "frobnicate:", arguments: [1]),
            NSExpression(forConstantValue: Date()), NSExpression(format: "SELF"), NSExpression(format: "{x, 1}"),
            NSExpression(forConstantValue: [Date(): 1]), NSExpression(format: "MGL_FUNCTION(1, 2)"),
            NSExpression(format: "mgl_step:from:stops:(x, 0, %@)", ["a": 1]), NSExpression(format: "MGL_MATCH(x, 1)"),
            NSExpression(format: "mgl_attributed({'a'})"), NSExpression(forConstantValue: Double.infinity),
            NSExpression(format: "CAST(x, 'NSSet')"), NSExpression(format: "%@", [Date()]),
        ]
        for expression in unsupported {
            XCTAssertThrowsError(try expression.validatedMGLJSONObject(), "\(expression)") { error in
                XCTAssertEqual((error as? MGLExpressionError)?.code, .unsupported, "\(expression)")
            }
            XCTAssertNil(expression.expressionValue(with: nil, context: nil), "\(expression)")
        }
    }

    private let punctuation = Array("(){}[],.+-*/%'\"$#@=<>!&| 0123456789KdacTRUE:".utf8)

    private func mutate(_ bytes: [UInt8], _ random: inout SplitMix64) -> [UInt8] {
        var b = bytes
        for _ in 0...Int(random.next() % 4) {
            guard !b.isEmpty else { break }
            let i = Int(random.next() % UInt64(b.count))
            switch random.next() % 5 {
            case 0: b[i] = UInt8(truncatingIfNeeded: random.next() % 128)
            case 1: b.remove(at: i)
            case 2: b.insert(punctuation[Int(random.next() % UInt64(punctuation.count))], at: i)
            case 3: b.insert(contentsOf: b[i..<min(b.count, i + 8)], at: i)
            default: b[i] = punctuation[Int(random.next() % UInt64(punctuation.count))]
            }
        }
        return b
    }

    /// Mutated format strings either parse (and then convert or refuse to convert) or throw; nothing crashes.
    func testMutatedFormatsNeverCrash() {
        let seeds = [
            "mgl_interpolate:withCurveType:parameters:stops:($zoomLevel, 'exponential', 1.5, %@)",
            "TERNARY(area < 80000 AND NOT name == nil, abbr, MGL_MATCH(type, {'a', 'b'}, 1, 2, 3))",
            "FUNCTION(%@, 'mgl_numberWithFallbackValues:', %K) * (2 + -3) ** 2 % 7",
            "mgl_step:from:stops:(CAST(x, 'NSNumber'), %@, %@)", "{9, 8, 7}[LAST] + sum({1, 2}) / count({3})",
            "MGL_LET('a', 1, $a + lineStyle.color)",
        ]
        let predicateSeeds = [
            "a == 'b' AND (c != nil OR d BETWEEN {1, 2})", "x IN {1, 2} AND NOT $geometryType =[cd] 'Point'",
            "%K >= %@ || TRUEPREDICATE && {1, 2} CONTAINS y",
        ]
        let arguments: [Any] = [[12: 0.5, 14: 2], UIColor.red, "key", 3, NSExpression(forKeyPath: "k")]
        var random = SplitMix64(seed: 22)
        var parsed = 0, refused = 0
        for round in 0..<4000 {
            let isPredicate = round % 3 == 0
            let seed = isPredicate ? predicateSeeds[round % predicateSeeds.count] : seeds[round % seeds.count]
            let text = String(decoding: mutate(Array(seed.utf8), &random), as: UTF8.self)
            do {
                if isPredicate {
                    let predicate = try NSPredicate(validatingFormat: text, argumentArray: arguments)
                    if let converted = try? predicate.mglJSON() { _ = try? MapStyle.Expression.parse(converted) }
                    _ = predicate.predicateFormat
                    _ = predicate.evaluate(with: ["a": "b", "x": 1])
                } else {
                    let expression = try NSExpression(validatingFormat: text, argumentArray: arguments)
                    if let converted = try? expression.mglJSON() {
                        _ = try? MapStyle.Expression.parse(converted)
                        XCTAssertNoThrow(try NSExpression(mglJSON: converted), "\(text) → \(converted)")
                    }
                    _ = expression.description
                }
                parsed += 1
            } catch {
                refused += 1
            }
        }
        XCTAssertGreaterThan(parsed, 150)   // some mutations leave a valid format string…
        XCTAssertGreaterThan(refused, 1000)  // …most break it
    }

    /// Mutated JSON expressions and filters either convert or throw; nothing crashes.
    func testMutatedJSONNeverCrashes() {
        let seeds = [
            #"["interpolate", ["exponential", 1.5], ["zoom"], 12, 0.5, 14, ["get", "x"], 18, ["rgb", 255, 0, 0]]"#,
            #"["case", ["all", [">=", ["get", "a"], 1], ["<=", ["get", "a"], 5]], ["match", ["id"], [1, 2], true, false], ["coalesce", 1]]"#,
            #"["step", ["get", "x"], 0, 1, ["let", "v", 2, ["var", "v"]], 2, ["at", 1, ["literal", [1, {"a": null}]]]]"#,
            #"["all", ["==", "class", "park"], ["!in", "$type", "Point"], ["has", "name"], ["!", ["to-boolean", ["get", "x"]]]]"#,
        ].map { Array($0.utf8) }
        var random = SplitMix64(seed: 7)
        var converted = 0
        for round in 0..<4000 {
            guard let value = try? JSONValue.parse(mutate(seeds[round % seeds.count], &random)) else { continue }
            if let expression = try? NSExpression(mglJSON: value) {
                converted += 1
                if let back = try? expression.mglJSON() { _ = try? MapStyle.Expression.parse(back) }
                _ = expression.description
            }
            if let predicate = try? NSPredicate(mglJSON: value) {
                _ = try? predicate.mglJSON()
                _ = predicate.evaluate(with: ["class": "park"])
            }
        }
        XCTAssertGreaterThan(converted, 100)
    }
}
