import Foundation
import XCTest
import TestSupport
@testable import MapStyle

/// Runs MapLibre's style-expression conformance suite (`../shared/conformance/style-expressions`):
/// each case compiles an expression (optionally against a property specification), compares the
/// compile result, then evaluates it for each input and compares the outputs.
final class ExpressionConformanceTests: XCTestCase {
    /// Cases that are known not to pass, with why. The test fails if this set differs from the actual
    /// failures, so both regressions and fixes show up.
    static let knownFailures: [String: String] = [
        "collator/variable-gt": "locale-tailored collation (de, sv sort ä after a) is not implemented; only root collation",
        "collator/variable-lteq": "locale-tailored collation (de, sv sort ä after a) is not implemented; only root collation",
    ]

    /// The ratchet: the number of cases that must pass (raise it when more pass).
    static let minimumPassing = 460

    func testConformance() throws {
        let root = TestData.shared("conformance/style-expressions")
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)!
        var files: [URL] = []
        for case let url as URL in enumerator where url.lastPathComponent == "test.json" { files.append(url) }
        files.sort { $0.path < $1.path }
        XCTAssertEqual(files.count, 462)
        var passed = 0
        var failures: [String: String] = [:]
        for file in files {
            let name = String(file.deletingLastPathComponent().path.dropFirst(root.path.count + 1))
            let reason = try Self.run(file)
            if let reason {
                failures[name] = reason
                print("FAIL \(name): \(reason)")
            } else {
                passed += 1
                print("PASS \(name)")
            }
        }
        print("Expression conformance: \(passed)/\(files.count) passed (\(String(format: "%.1f", Double(passed) * 100 / Double(files.count)))%)")
        XCTAssertGreaterThanOrEqual(passed, Self.minimumPassing)
        let unexpected = Set(failures.keys).subtracting(Self.knownFailures.keys).sorted()
        let fixed = Set(Self.knownFailures.keys).subtracting(failures.keys).sorted()
        XCTAssert(unexpected.isEmpty, "new failures: \(unexpected.map { "\($0): \(failures[$0]!)" })")
        XCTAssert(fixed.isEmpty, "now passing, remove from knownFailures: \(fixed)")
    }

    /// nil when the case passes, else why not.
    static func run(_ file: URL) throws -> String? {
        let test = try JSONValue.parse(String(decoding: Data(contentsOf: file), as: UTF8.self))
        guard let expressionJSON = test["expression"], let expected = test["expected"], let compiled = expected["compiled"] else {
            return "malformed test"
        }
        let spec = test["propertySpec"].map(ExpressionPropertySpec.init(json:))
            ?? ExpressionPropertySpec(type: nil, allowsZoom: true, allowsFeature: true, interpolated: true)
        let expression: MapStyle.Expression
        do {
            expression = try MapStyle.Expression.parse(expressionJSON, propertySpec: spec)
        } catch {
            guard compiled["result"]?.stringValue == "error" else { return "compile error: \(error)" }
            let expectedErrors = (compiled["errors"]?.arrayValue ?? []).map {
                "\($0["key"]?.stringValue ?? ""): \($0["error"]?.stringValue ?? "")"
            }
            let actual = error.items.map { "\($0.key): \($0.message)" }
            return Set(expectedErrors) == Set(actual) ? nil : "errors \(actual) != \(expectedErrors)"
        }
        guard compiled["result"]?.stringValue == "success" else { return "compiled, but expected errors \(compiled["errors"].map { "\($0)" } ?? "")" }
        if let t = compiled["type"]?.stringValue, t != expression.type.description { return "type \(expression.type) != \(t)" }
        if let f = compiled["isFeatureConstant"]?.boolValue, f != expression.isFeatureConstant { return "isFeatureConstant \(expression.isFeatureConstant)" }
        if let z = compiled["isZoomConstant"]?.boolValue, z != expression.isZoomConstant { return "isZoomConstant \(expression.isZoomConstant)" }

        let inputs = test["inputs"]?.arrayValue ?? []
        let outputs = expected["outputs"]?.arrayValue ?? []
        guard inputs.count == outputs.count || outputs.isEmpty else { return "malformed outputs" }
        for (i, input) in inputs.enumerated() where i < outputs.count {
            let context = makeContext(input, test: test)
            let want = outputs[i]
            do {
                let value = try expression.evaluate(context)
                if let e = want["error"], case .object = want { return "input \(i): expected error \(e), got \(value.json)" }
                if !matches(value.json, want) { return "input \(i): \(describe(value.json)) != \(describe(want))" }
            } catch {
                guard case .object = want, let message = want["error"]?.stringValue else {
                    return "input \(i): error \(error.message), expected \(describe(want))"
                }
                // Upstream prefixes the property path ("layers[0].paint.some-property[2]: ").
                let bare = message.range(of: ": ").map { String(message[$0.upperBound...]) } ?? message
                if bare != error.message { return "input \(i): error \"\(error.message)\" != \"\(bare)\"" }
            }
        }
        return nil
    }

    static func makeContext(_ input: JSONValue, test: JSONValue) -> EvaluationContext {
        let globals = input.arrayValue?.first ?? .null
        let feature = input.arrayValue.flatMap { $0.count > 1 ? $0[1] : nil } ?? .null
        var context = EvaluationContext()
        context.zoom = globals["zoom"]?.numberValue
        context.heatmapDensity = globals["heatmapDensity"]?.numberValue
        context.lineProgress = globals["lineProgress"]?.numberValue
        context.elevation = globals["elevation"]?.numberValue
        if let images = globals["availableImages"]?.arrayValue { context.availableImages = Set(images.compactMap(\.stringValue)) }
        if case .object(let state)? = test["globalState"] ?? globals["globalState"] {
            context.globalState = ExpressionObject(state.members.map { ($0.key, ExpressionValue($0.value)) })
        }
        if case .object(let props)? = feature["properties"] {
            context.properties = ExpressionObject(props.members.map { ($0.key, ExpressionValue($0.value)) })
        }
        if case .object(let state)? = feature["featureState"] {
            context.featureState = ExpressionObject(state.members.map { ($0.key, ExpressionValue($0.value)) })
        }
        if let c = globals["canonicalID"], let z = c["z"]?.numberValue, let x = c["x"]?.numberValue, let y = c["y"]?.numberValue {
            context.canonicalTile = CanonicalTileID(z: Int(z), x: Int(x), y: Int(y))
        }
        if let id = feature["id"] { context.id = ExpressionValue(id) }
        if let geometry = feature["geometry"] {
            context.geometry = ExpressionGeometry(geoJSON: geometry).map { g in
                guard let z = globals["canonicalID"]?["z"]?.numberValue, let x = globals["canonicalID"]?["x"]?.numberValue,
                      let y = globals["canonicalID"]?["y"]?.numberValue else { return g }
                return quantized(g, z: z, x: x, y: y)
            }
            if let type = geometry["type"]?.stringValue {
                context.geometryType = type.replacingOccurrences(of: "Multi", with: "")
            }
        }
        return context
    }

    /// Features come from tiles, whose coordinates are integers in a 8192-unit tile: round-trip the
    /// test's longitude/latitude through the canonical tile as upstream's harness does.
    static func quantized(_ g: ExpressionGeometry, z: Double, x: Double, y: Double) -> ExpressionGeometry {
        let tiles = pow(2, z), extent = 8192.0
        func q(_ p: [Double]) -> [Double] {
            let mx = (180 + p[0]) / 360
            let my = (180 - 180 / Double.pi * log(tan(Double.pi / 4 + p[1] * Double.pi / 360))) / 360
            let tx = ((mx * tiles - x) * extent).rounded(), ty = ((my * tiles - y) * extent).rounded()
            let bx = (tx / extent + x) / tiles, by = (ty / extent + y) / tiles
            let lon = bx * 360 - 180
            let lat = 360 / Double.pi * atan(exp((180 - by * 360) * Double.pi / 180)) - 90
            return [lon, lat]
        }
        switch g {
        case .points(let p): return .points(p.map(q))
        case .lines(let l): return .lines(l.map { $0.map(q) })
        case .polygons(let p): return .polygons(p.map { $0.map { $0.map(q) } })
        }
    }

    static func describe(_ v: JSONValue) -> String {
        switch v {
        case .null: "null"
        case .bool(let b): "\(b)"
        case .number(let n): jsNumberString(n)
        case .string(let s): "\"\(s)\""
        case .array(let a): "[" + a.map(describe).joined(separator: ",") + "]"
        case .object(let o): "{" + o.members.map { "\($0.key):\(describe($0.value))" }.joined(separator: ",") + "}"
        }
    }

    /// Deep equality with numbers compared to the precision upstream rounds expectations to.
    static func matches(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.number(let x), .number(let y)):
            return x == y || abs(x - y) <= max(1e-5 * abs(y), 5e-6)
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { matches($0, $1) }
        case (.object(let x), .object(let y)):
            return Set(x.keys) == Set(y.keys) && x.keys.allSatisfy { matches(x[$0]!, y[$0]!) }
        default:
            return a == b
        }
    }
}
