import Foundation
import MapStyle
import TestSupport
import XCTest

/// The compiled reference table must say what v8.json says: the library never reads v8.json at
/// run time, so a stale table would silently validate against an old specification.
final class StyleReferenceTests: XCTestCase {
    func testGeneratedTableMatchesSpecification() throws {
        let url = TestData.shared("conformance/style-spec/v8.json")
        let spec = try JSONValue.parse([UInt8](Data(contentsOf: url)))
        let root = try XCTUnwrap(spec.objectValue)
        XCTAssertEqual(root["$version"]?.numberValue, Double(StyleReference.specVersion))
        var checked = 0
        for (section, body) in root.members {
            guard let object = body.objectValue, !object.members.isEmpty,
                  object.members.allSatisfy({ $0.value["type"] != nil }), object["type"]?.objectValue != nil || object["type"] == nil
            else { continue }
            let properties = try XCTUnwrap(StyleReference.properties(in: section), section)
            XCTAssertEqual(properties.map(\.name), object.keys, section)
            for (name, definition) in object.members {
                let property = try XCTUnwrap(StyleReference.property(name, in: section), "\(section).\(name)")
                let context = "\(section).\(name)"
                XCTAssertEqual(property.type, definition["type"]?.stringValue, context)
                XCTAssertEqual(property.minimum, definition["minimum"]?.numberValue, context)
                XCTAssertEqual(property.maximum, definition["maximum"]?.numberValue, context)
                XCTAssertEqual(property.length, definition["length"]?.numberValue.map { Int($0) }, context)
                XCTAssertEqual(property.defaultValue, definition["default"], context)
                XCTAssertEqual(property.required, definition["required"]?.boolValue ?? false, context)
                XCTAssertEqual(property.propertyType, definition["property-type"]?.stringValue, context)
                XCTAssertEqual(property.interpolated, definition["expression"]?["interpolated"]?.boolValue, context)
                XCTAssertEqual(property.parameters, definition["expression"]?["parameters"]?.arrayValue?.compactMap(\.stringValue) ?? [], context)
                switch definition["values"] {
                case .object(let values)?: XCTAssertEqual(property.values, values.keys.map(JSONValue.string), context)
                case .array(let values)?: XCTAssertEqual(property.values, values, context)
                default: XCTAssertEqual(property.values, [], context)
                }
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 250, "the comparison should cover every layer property")
    }

    /// The validator and `Style` build expression rules from the table, the expression tests from
    /// v8.json entries; both routes must give every expression-valued property the same rules.
    func testExpressionRulesFromTableMatchRulesFromSpecification() throws {
        let url = TestData.shared("conformance/style-spec/v8.json")
        let root = try XCTUnwrap(JSONValue.parse([UInt8](Data(contentsOf: url))).objectValue)
        var checked = 0
        for (section, body) in root.members where section.hasPrefix("paint_") || section.hasPrefix("layout_") {
            for (name, definition) in body.objectValue?.members ?? [] where definition["expression"] != nil {
                let property = try XCTUnwrap(StyleReference.property(name, in: section))
                let fromTable = ExpressionPropertySpec(property)
                let fromJSON = ExpressionPropertySpec(json: definition)
                let context = "\(section).\(name)"
                XCTAssertEqual(fromTable.type, fromJSON.type, context)
                XCTAssertEqual(fromTable.allowsZoom, fromJSON.allowsZoom, context)
                XCTAssertEqual(fromTable.allowsFeature, fromJSON.allowsFeature, context)
                XCTAssertEqual(fromTable.interpolated, fromJSON.interpolated, context)
                XCTAssertEqual(fromTable.tokens, fromJSON.tokens, context)
                XCTAssertEqual(fromTable.enumValues, fromJSON.enumValues, context)
                XCTAssertEqual(fromTable.defaultValue, fromJSON.defaultValue, context)
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 140, "every expression-valued layer property")
    }

    func testGeneratorOutputIsCommitted() throws {
        // The generator is the source of truth for the committed file; skip where Python is absent.
        guard let result = try? runProcess("python3", [TestData.packageRoot.appendingPathComponent("Scripts/generate-style-reference.py").path, "--check"]) else {
            throw XCTSkip("python3 is not available")
        }
        XCTAssertEqual(result.status, 0, "regenerate with Scripts/generate-style-reference.py: \(result.stderr)")
    }

    func testLookups() throws {
        XCTAssertEqual(StyleReference.layerTypes, ["fill", "line", "symbol", "circle", "heatmap", "fill-extrusion", "raster",
                                                   "hillshade", "color-relief", "background"])
        let fillColor = try XCTUnwrap(StyleReference.paint(for: "fill")?.first { $0.name == "fill-color" })
        XCTAssertEqual(fillColor.type, "color")
        XCTAssertEqual(fillColor.defaultValue, .string("#000000"))
        XCTAssertTrue(fillColor.isDataDriven)
        XCTAssertTrue(fillColor.isZoomDependent)
        XCTAssertTrue(fillColor.transition)
        let opacity = try XCTUnwrap(StyleReference.property("fill-opacity", in: "paint_fill"))
        XCTAssertEqual(opacity.minimum, 0)
        XCTAssertEqual(opacity.maximum, 1)
        let join = try XCTUnwrap(StyleReference.layout(for: "line")?.first { $0.name == "line-join" })
        XCTAssertEqual(join.type, "enum")
        XCTAssertTrue(join.values.contains(.string("round")))
        let textFont = try XCTUnwrap(StyleReference.property("text-font", in: "layout_symbol"))
        XCTAssertEqual(textFont.type, "array")
        XCTAssertEqual(textFont.value, "string")
        XCTAssertEqual(StyleReference.property("line-gradient", in: "paint_line")?.propertyType, "color-ramp")
        XCTAssertEqual(StyleReference.property("fill-pattern", in: "paint_fill")?.propertyType, "cross-faded-data-driven")
        XCTAssertEqual(StyleReference.source(for: "raster-dem")?.first?.name, "type")
        XCTAssertEqual(StyleReference.property("version", in: "$root")?.values, [.number(8)])
        XCTAssertTrue(StyleReference.expressionOperators.contains("interpolate"))
        XCTAssertNil(StyleReference.paint(for: "custom"))

        XCTAssertEqual(fillColor.valueType, .color)
        XCTAssertEqual(fillColor.kind, .dataDriven)
        XCTAssertEqual(StyleReference.property("text-offset", in: "layout_symbol")?.valueType, .array(of: .number, length: 2))
        XCTAssertEqual(StyleReference.property("text-field", in: "layout_symbol")?.valueType, .formatted)
        XCTAssertEqual(StyleReference.property("icon-image", in: "layout_symbol")?.valueType, .resolvedImage)
        XCTAssertEqual(StyleReference.property("icon-padding", in: "layout_symbol")?.valueType, .padding)
        XCTAssertEqual(StyleReference.property("text-variable-anchor-offset", in: "layout_symbol")?.valueType, .variableAnchorOffsetCollection)
        guard case .array(of: .enumeration(let anchors), length: nil)? = StyleReference.property("text-variable-anchor", in: "layout_symbol")?.valueType
        else { return XCTFail("text-variable-anchor is an array of anchors") }
        XCTAssertTrue(anchors.contains(.string("top-left")))
        XCTAssertEqual(StyleReference.property("light", in: "$root")?.valueType, .object(section: "light"))
        XCTAssertEqual(StyleReference.property("heatmap-color", in: "paint_heatmap")?.kind, .colorRamp)
        // Every type in the table is modelled.
        for section in StyleReference.sectionNames {
            for property in StyleReference.properties(in: section) ?? [] {
                if case .other(let type) = property.valueType, !["sources", "source", "layer", "sprite", "filter", "state", "fontFaces",
                                                                   "promoteId", "property-type", "expression", "layout", "paint"].contains(type) {
                    XCTFail("\(section).\(property.name): unmodelled type \(type)")
                }
            }
        }
    }
}
