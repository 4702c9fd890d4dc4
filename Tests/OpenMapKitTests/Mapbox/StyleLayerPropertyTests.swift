import Foundation
@testable import OpenMapKit
import MapStyle
import class OpenMapKit.NSExpression
import class OpenMapKit.NSPredicate
import XCTest

/// Every paint and layout property of every layer class (issue 22): the generated list matches
/// MapStyle's style reference, and each property round-trips (expression → document JSON → the
/// same expression), resets to its default, and refuses values of the wrong type.
final class StyleLayerPropertyTests: XCTestCase {
    /// The layer classes and their style-specification types.
    nonisolated(unsafe) static let classes: [(type: String, properties: [MGLStyleLayerProperty], make: (MGLSource) -> MGLStyleLayer)] = [
        ("fill", MGLFillStyleLayer.styleProperties, { MGLFillStyleLayer(identifier: "fill", source: $0) }),
        ("line", MGLLineStyleLayer.styleProperties, { MGLLineStyleLayer(identifier: "line", source: $0) }),
        ("symbol", MGLSymbolStyleLayer.styleProperties, { MGLSymbolStyleLayer(identifier: "symbol", source: $0) }),
        ("circle", MGLCircleStyleLayer.styleProperties, { MGLCircleStyleLayer(identifier: "circle", source: $0) }),
        ("heatmap", MGLHeatmapStyleLayer.styleProperties, { MGLHeatmapStyleLayer(identifier: "heatmap", source: $0) }),
        ("fill-extrusion", MGLFillExtrusionStyleLayer.styleProperties, { MGLFillExtrusionStyleLayer(identifier: "fill-extrusion", source: $0) }),
        ("raster", MGLRasterStyleLayer.styleProperties, { MGLRasterStyleLayer(identifier: "raster", source: $0) }),
        ("hillshade", MGLHillshadeStyleLayer.styleProperties, { MGLHillshadeStyleLayer(identifier: "hillshade", source: $0) }),
        ("color-relief", MGLColorReliefStyleLayer.styleProperties, { MGLColorReliefStyleLayer(identifier: "color-relief", source: $0) }),
        ("background", MGLBackgroundStyleLayer.styleProperties, { _ in MGLBackgroundStyleLayer(identifier: "background") }),
    ]

    /// A style with a shape source (line metrics on), a raster and a raster-DEM source.
    static func style() throws -> MGLStyle {
        let document = try Style(text: #"""
            {"version": 8, "glyphs": "glyphs/{fontstack}/{range}.pbf", "sources": {
               "shapes": {"type": "geojson", "lineMetrics": true, "data": {"type": "FeatureCollection", "features": []}},
               "raster": {"type": "raster", "tiles": ["r/{z}/{x}/{y}.png"]},
               "dem": {"type": "raster-dem", "tiles": ["d/{z}/{x}/{y}.png"]}},
             "layers": []}
            """#)
        return MGLStyle(document: document, url: URL(fileURLWithPath: "/style.json"), baseURL: nil)
    }

    func testGeneratedPropertiesCoverTheStyleReference() {
        var total = 0
        for (type, properties, _) in Self.classes {
            let reference = ((StyleReference.layout(for: type) ?? []) + (StyleReference.paint(for: type) ?? [])).map(\.name).filter { $0 != "visibility" }
            XCTAssertEqual(Set(properties.map(\.styleName)), Set(reference), type)
            XCTAssertEqual(properties.count, reference.count, type)
            for property in properties {
                let spec = StyleReference.property(property.styleName, in: "\(property.kind.rawValue)_\(type)")
                XCTAssertNotNil(spec, property.styleName)
                XCTAssertEqual(property.setTransition != nil, spec?.transition == true, property.styleName)
            }
            total += properties.count
        }
        XCTAssertGreaterThan(total, 130)
        // Mapbox's names (style-spec-cocoa-conventions-v8.json).
        let names = Dictionary(Self.classes.flatMap(\.properties).map { ("\($0.kind.rawValue)/\($0.styleName)", $0.name) }, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(names["layout/icon-image"], "iconImageName")
        XCTAssertEqual(names["layout/text-field"], "text")
        XCTAssertEqual(names["layout/text-font"], "textFontNames")
        XCTAssertEqual(names["layout/text-size"], "textFontSize")
        XCTAssertEqual(names["paint/line-dasharray"], "lineDashPattern")
        XCTAssertEqual(names["paint/fill-translate-anchor"], "fillTranslationAnchor")
        XCTAssertEqual(names["paint/fill-antialias"], "fillAntialiased")
        XCTAssertEqual(names["paint/circle-pitch-scale"], "circleScaleAlignment")
        XCTAssertEqual(names["paint/raster-brightness-min"], "minimumRasterBrightness")
        XCTAssertEqual(names["paint/fill-extrusion-vertical-gradient"], "fillExtrusionHasVerticalGradient")
        XCTAssertEqual(names["paint/heatmap-weight"], "heatmapWeight")
        XCTAssertEqual(names["paint/hillshade-exaggeration"], "hillshadeExaggeration")
    }

    /// A value of the property's type that differs from its default.
    static func testValue(_ spec: StylePropertySpec) -> NSExpression {
        if spec.name == "heatmap-color" {
            return NSExpression(format: "mgl_interpolate:withCurveType:parameters:stops:($heatmapDensity, 'linear', nil, %@)",
                                [0: UIColor.clear, 1: UIColor(red: 1, green: 0, blue: 0, alpha: 1)])
        }
        if spec.name == "line-gradient" {
            return NSExpression(format: "mgl_interpolate:withCurveType:parameters:stops:($lineProgress, 'linear', nil, %@)",
                                [0: UIColor(red: 0, green: 0, blue: 1, alpha: 1), 1: UIColor(red: 1, green: 0, blue: 0, alpha: 1)])
        }
        if spec.name == "color-relief-color" {
            return NSExpression(format: "mgl_interpolate:withCurveType:parameters:stops:(MGL_FUNCTION('elevation'), 'linear', nil, %@)",
                                [0: UIColor(red: 0, green: 0, blue: 1, alpha: 1), 1000: UIColor(red: 1, green: 0, blue: 0, alpha: 1)])
        }
        switch spec.valueType {
        case .number: return NSExpression(forConstantValue: spec.minimum.map { max($0, 1) } ?? 1)
        case .boolean: return NSExpression(forConstantValue: !(spec.defaultValue?.boolValue ?? false))
        case .string, .formatted: return NSExpression(forConstantValue: "Test")
        case .resolvedImage: return NSExpression(forConstantValue: "marker")
        case .color, .colorArray: return NSExpression(forConstantValue: UIColor(red: 1, green: 0, blue: 0, alpha: 1))
        case .enumeration(let values): return NSExpression(forConstantValue: values.last?.stringValue ?? "")
        case .padding: return NSExpression(forConstantValue: [1, 2, 3, 4])
        case .numberArray: return NSExpression(forConstantValue: 2)
        case .array(of: .number, let length): return NSExpression(forConstantValue: Array(repeating: 1, count: length ?? 2))
        case .array(of: .string, _): return NSExpression(forConstantValue: ["Open Sans Bold", "Arial Unicode MS Bold"])
        case .array(of: .enumeration(let values), _): return NSExpression(forConstantValue: values.prefix(2).compactMap(\.stringValue))
        case .variableAnchorOffsetCollection: return NSExpression(forConstantValue: ["top", [0, 1], "bottom", [0, -1]])
        default: return NSExpression(forConstantValue: nil)
        }
    }

    func testEveryPropertyRoundTripsThroughTheDocument() throws {
        let style = try Self.style()
        let shapes = try XCTUnwrap(style.source(withIdentifier: "shapes"))
        let raster = try XCTUnwrap(style.source(withIdentifier: "raster"))
        let dem = try XCTUnwrap(style.source(withIdentifier: "dem"))
        var checked = 0, zoomChecked = 0
        for (type, properties, make) in Self.classes {
            let layer = make(type == "raster" ? raster : type == "hillshade" || type == "color-relief" ? dem : shapes)
            style.addLayer(layer)
            for property in properties {
                let spec = try XCTUnwrap(StyleReference.property(property.styleName, in: "\(property.kind.rawValue)_\(type)"))
                let value = Self.testValue(spec)
                let label = "\(type).\(property.name)"
                property.set(layer, value)
                let json = style.document.layer(type)?[property.kind, property.styleName]
                var expected = try value.mglJSON()
                if case .array(let items) = expected, items.first == .string("literal"), case .array = items[1] { expected = items[1] }
                if spec.type == "colorArray" { expected = .string("rgba(255,0,0,1)") }
                XCTAssertEqual(json, expected, label)
                XCTAssertEqual(property.get(layer), value, label)
                XCTAssertEqual(layer.value(forStyleProperty: property.styleName), value, label)
                // A zoom curve, for properties that interpolate over zoom.
                if spec.supportsInterpolation, spec.isZoomDependent, [.number, .color].contains(spec.valueType) {
                    let stop = spec.valueType == .number ? NSExpression(forConstantValue: 1) : value
                    let curve = NSExpression(format: "mgl_interpolate:withCurveType:parameters:stops:($zoomLevel, 'linear', nil, %@)",
                                             [10: stop, 18: stop])
                    property.set(layer, curve)
                    XCTAssertEqual(property.get(layer), curve, label)
                    zoomChecked += 1
                }
                // Reset: the key leaves the document and the default reads back.
                property.set(layer, nil)
                XCTAssertNil(style.document.layer(type)?[property.kind, property.styleName], label)
                if let defaultValue = spec.defaultValue {
                    XCTAssertEqual(property.get(layer), MGLStyleLayer.expression(for: defaultValue, spec: spec), label)
                } else {
                    XCTAssertNil(property.get(layer), label)
                }
                if let setTransition = property.setTransition, let getTransition = property.getTransition {
                    setTransition(layer, MGLTransitionMake(0.5, 0.1))
                    XCTAssertEqual(getTransition(layer), MGLTransition(duration: 0.5, delay: 0.1), label)
                }
                checked += 1
            }
        }
        XCTAssertEqual(checked, Self.classes.map(\.properties.count).reduce(0, +))
        XCTAssertGreaterThan(zoomChecked, 50)
    }

    func testWrongTypesAreRefusedWithTheReason() throws {
        let layer = MGLFillStyleLayer(identifier: "f", source: MGLShapeSource(identifier: "s", shape: nil))
        XCTAssertThrowsError(try layer.setValue(NSExpression(forConstantValue: "not a colour"), forStyleProperty: "fill-color")) { error in
            XCTAssertEqual((error as? MGLStyleError)?.code, .invalidValue)
            XCTAssertTrue("\(error)".contains("fill-color"), "\(error)")
        }
        XCTAssertThrowsError(try layer.setValue(NSExpression(forConstantValue: 2), forStyleProperty: "fill-opacity"), "above the maximum of 1")
        XCTAssertThrowsError(try layer.setValue(NSExpression(forKeyPath: "height"), forStyleProperty: "fill-antialias"),
                             "fill-antialias cannot depend on feature attributes")
        XCTAssertThrowsError(try layer.setValue(NSExpression(forConstantValue: 1), forStyleProperty: "line-width")) {
            XCTAssertTrue("\($0)".contains("no property"))
        }
        XCTAssertNil(layer.fillPattern, "no default")
        XCTAssertEqual(layer.fillOpacity, NSExpression(forConstantValue: 1))
        XCTAssertEqual(layer.fillColor, NSExpression(forConstantValue: UIColor(red: 0, green: 0, blue: 0, alpha: 1)))
        try layer.setValue(NSExpression(forKeyPath: "colour"), forStyleProperty: "fill-color")
        XCTAssertEqual(layer.fillColor, NSExpression(forKeyPath: "colour"))
        // A stand-alone layer keeps its JSON until it joins a style.
        XCTAssertEqual(layer.detachedObject["paint"]?["fill-color"], .array([.string("get"), .string("colour")]))
    }
}

extension StyleLayer {
    /// The paint or layout value named `name`.
    subscript(kind: MGLStylePropertyKind, name: String) -> JSONValue? {
        kind == .paint ? paintValue(name) : layoutValue(name)
    }
}
