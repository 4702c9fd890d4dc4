// Mapbox's style layers: the base class (identifier, visibility, zoom range) and the storage
// every layer type shares. A layer made in code keeps its own MapLibre layer JSON; a layer of a
// style reads and writes the style document's layer, so every change is drawn on the next frame.
// The per-type properties are generated (MGLStyleLayer+Properties.generated.swift).

import Foundation
import MapStyle

/// How long a change to a style property animates, and after what delay (Mapbox's
/// `MGLTransition`), in seconds.
///
/// Differs from Mapbox: OpenMapKit draws still frames, so a transition is stored in the style
/// document (as MapLibre's `*-transition` objects) but a changed property is drawn with its new
/// value on the next frame.
public struct MGLTransition: Hashable, Sendable {
    /// The duration, in seconds.
    public var duration: TimeInterval
    /// The delay before the change starts, in seconds.
    public var delay: TimeInterval

    /// No transition (0 s, no delay).
    public init() {
        duration = 0
        delay = 0
    }

    /// A transition of `duration` seconds starting after `delay` seconds.
    public init(duration: TimeInterval, delay: TimeInterval) {
        self.duration = duration
        self.delay = delay
    }

    /// The MapLibre `transition` object (milliseconds).
    var json: JSONValue {
        .object(JSONObject([("duration", .number((duration * 1000).rounded())), ("delay", .number((delay * 1000).rounded()))]))
    }

    init(json: JSONValue?) {
        duration = (json?["duration"]?.numberValue ?? 0) / 1000
        delay = (json?["delay"]?.numberValue ?? 0) / 1000
    }
}

/// A transition of `duration` seconds after `delay` seconds (Mapbox's `MGLTransitionMake`).
public func MGLTransitionMake(_ duration: TimeInterval, _ delay: TimeInterval) -> MGLTransition {
    MGLTransition(duration: duration, delay: delay)
}

/// Why a runtime-styling change was refused (an OpenMapKit addition): what Mapbox reports with an
/// Objective-C exception (a duplicate identifier, a layer or source added twice) or an `NSError`
/// (a source in use), and values MapLibre's style validator refuses.
public struct MGLStyleError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of problem.
    public enum Code: String, Hashable, Sendable {
        /// A layer with the identifier is already in the style (Mapbox's
        /// `MGLRedundantLayerIdentifierException`).
        case redundantLayerIdentifier
        /// The layer object is already in a style (Mapbox's `MGLRedundantLayerException`).
        case redundantLayer
        /// A source with the identifier is already in the style (Mapbox's
        /// `MGLRedundantSourceIdentifierException`).
        case redundantSourceIdentifier
        /// The source object is already in a style (Mapbox's `MGLRedundantSourceException`).
        case redundantSource
        /// The source is used by layers of the style and cannot be removed (Mapbox's
        /// `MGLErrorCodeSourceIsInUseCannotRemove`).
        case sourceIsInUse
        /// The layer or source named is not in the style (a sibling for `insertLayer(_:below:)`,
        /// a layer's source).
        case notInStyle
        /// An index beyond the style's layers.
        case indexOutOfRange
        /// A value the style specification refuses for the property (wrong type, out of range),
        /// or a property the layer type does not have.
        case invalidValue
    }

    /// The kind of problem.
    public let code: Code
    /// What went wrong, naming the layer, source or property.
    public let reason: String

    /// An error of `code` for `reason`.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    /// The reason.
    public var description: String { reason }
}

/// Whether a property is a paint or a layout property (MapLibre keeps them in separate objects).
enum MGLStylePropertyKind: String, Sendable {
    case paint, layout
}

/// One generated style property of a layer class, for code that goes through them all.
struct MGLStyleLayerProperty: @unchecked Sendable {
    /// The Swift name (`fillColor`).
    let name: String
    /// The style specification's name (`fill-color`).
    let styleName: String
    let kind: MGLStylePropertyKind
    /// The generated property, on a layer of its class.
    let get: (MGLStyleLayer) -> NSExpression?
    let set: (MGLStyleLayer, NSExpression?) -> Void
    /// The `…Transition` property, for properties that can animate.
    let getTransition: ((MGLStyleLayer) -> MGLTransition)?
    let setTransition: ((MGLStyleLayer, MGLTransition) -> Void)?
}

/// A layer of a style (Mapbox's `MGLStyleLayer`): how to draw some of the map's data. Use one of
/// the concrete classes (``MGLFillStyleLayer``, ``MGLLineStyleLayer``, ``MGLSymbolStyleLayer``,
/// ``MGLCircleStyleLayer``, ``MGLHeatmapStyleLayer``, ``MGLFillExtrusionStyleLayer``,
/// ``MGLRasterStyleLayer``, ``MGLHillshadeStyleLayer``, ``MGLColorReliefStyleLayer``,
/// ``MGLBackgroundStyleLayer``).
///
/// Every property is one MapLibre style-language expression underneath: reading converts the
/// layer's JSON to an ``NSExpression`` and writing converts back (``NSExpression/mgl_jsonExpressionObject``).
/// A layer made in code holds its own JSON until it is added to a style; a layer of a style
/// (from ``MGLStyle/layers`` or ``MGLStyle/layer(withIdentifier:)``) reads and writes the style's
/// document, so a change is drawn on the map view's next frame. Removed from the style, a layer
/// keeps its JSON and can be added again.
///
/// Identity: as in Mapbox, the layer objects of a style are wrappers made on demand; a style
/// keeps the one it made for each identifier while that layer is in the style, so asking twice
/// gives the same object (`===`, and so `==`).
///
/// Differs from Mapbox: a property value of the wrong type for the property stops the program
/// with the style validator's reason (Mapbox raises an exception or logs);
/// ``setValue(_:forStyleProperty:)`` throws an ``MGLStyleError`` instead. Values are checked
/// with MapLibre's style validator and expression type checker.
public class MGLStyleLayer: NSObject {
    /// The identifier, unique within a style.
    public let identifier: String
    /// The style-specification type (`fill`, `line` …).
    let layerType: String
    /// The layer's JSON while it is not in a style (and a copy of it once it was removed).
    var detachedObject: JSONObject
    /// The style holding the layer, while it is in one.
    weak var style: MGLStyle?

    init(identifier: String, layerType: String, source: MGLSource?) {
        self.identifier = identifier
        self.layerType = layerType
        var object = JSONObject([("id", .string(identifier)), ("type", .string(layerType))])
        if let source { object.set("source", .string(source.identifier)) }
        detachedObject = object
        super.init()
    }

    /// The wrapper class for a document layer of `type`.
    static func wrapperClass(for type: StyleLayer.Kind) -> MGLStyleLayer.Type {
        switch type {
        case .fill: MGLFillStyleLayer.self
        case .line: MGLLineStyleLayer.self
        case .symbol: MGLSymbolStyleLayer.self
        case .circle: MGLCircleStyleLayer.self
        case .heatmap: MGLHeatmapStyleLayer.self
        case .fillExtrusion: MGLFillExtrusionStyleLayer.self
        case .raster: MGLRasterStyleLayer.self
        case .hillshade: MGLHillshadeStyleLayer.self
        case .colorRelief: MGLColorReliefStyleLayer.self
        case .background: MGLBackgroundStyleLayer.self
        }
    }

    /// A wrapper of a document layer: `object` is the document's JSON of it.
    static func wrapper(of object: JSONObject, type: StyleLayer.Kind, style: MGLStyle) -> MGLStyleLayer {
        let layer = wrapperClass(for: type).init(wrapping: object)
        layer.style = style
        return layer
    }

    required init(wrapping object: JSONObject) {
        identifier = object["id"]?.stringValue ?? ""
        layerType = object["type"]?.stringValue ?? ""
        detachedObject = object
        super.init()
    }

    /// Whether the layer is in a style now.
    var isAttached: Bool { style?.layerWrappers[identifier] === self }

    /// The layer's JSON: the style document's while it is in a style.
    var object: JSONObject {
        if isAttached, let style, let object = style.layerObject(identifier) { return object }
        return detachedObject
    }

    /// Changes the layer's JSON: in the style's document (checked and drawn) or its own.
    func updateObject(_ edit: (inout JSONObject) -> Void) throws(MGLStyleError) {
        var changed = object
        edit(&changed)
        if isAttached, let style {
            try style.replaceLayerObject(changed)
        } else {
            detachedObject = changed
        }
    }

    /// Runs a change that cannot throw in Mapbox's API, stopping with the reason if it is refused.
    func mustUpdate(_ member: String, _ edit: (inout JSONObject) -> Void) {
        do { try updateObject(edit) } catch {
            preconditionFailure("\(type(of: self)).\(member) of layer \"\(identifier)\": \(error.reason)")
        }
    }

    // MARK: Mapbox's members

    /// Whether the layer is drawn (MapLibre's `visibility` layout property); true by default.
    public var isVisible: Bool {
        get { object["layout"]?["visibility"]?.stringValue != "none" }
        set {
            mustUpdate("isVisible") { object in
                var layout = object["layout"]?.objectValue ?? JSONObject()
                layout.set("visibility", .string(newValue ? "visible" : "none"))
                object.set("layout", .object(layout))
            }
        }
    }

    /// The lowest zoom level at which the layer is drawn (MapLibre's `minzoom`);
    /// `-Float.infinity` when unset. Setting a non-finite value removes the limit.
    public var minimumZoomLevel: Float {
        get { object["minzoom"]?.numberValue.map(Float.init) ?? -.infinity }
        set { mustUpdate("minimumZoomLevel") { $0.setOrRemove("minzoom", newValue.isFinite ? .number(Double(newValue)) : nil) } }
    }

    /// The highest zoom level at which the layer is drawn (MapLibre's `maxzoom`, exclusive);
    /// `Float.infinity` when unset. Setting a non-finite value removes the limit.
    public var maximumZoomLevel: Float {
        get { object["maxzoom"]?.numberValue.map(Float.init) ?? .infinity }
        set { mustUpdate("maximumZoomLevel") { $0.setOrRemove("maxzoom", newValue.isFinite ? .number(Double(newValue)) : nil) } }
    }

    /// The layer's identifier and type.
    public override var description: String { "<\(type(of: self)) identifier=\"\(identifier)\">" }

    // MARK: Properties as expressions

    /// The specification of a paint or layout property of this layer's type.
    func propertySpec(_ name: String) -> (spec: StylePropertySpec, kind: MGLStylePropertyKind)? {
        if let spec = StyleReference.property(name, in: "paint_" + layerType) { return (spec, .paint) }
        if name != "visibility", let spec = StyleReference.property(name, in: "layout_" + layerType) { return (spec, .layout) }
        return nil
    }

    /// The value of the style property `name` (`fill-color`) as an expression: what the layer
    /// sets, else the specification's default; nil for a property without a default that is unset
    /// and for names the layer type does not have (an OpenMapKit addition, what the generated
    /// properties such as `fillColor` read).
    public func value(forStyleProperty name: String) -> NSExpression? {
        guard let (spec, kind) = propertySpec(name) else { return nil }
        guard let value = object[kind.rawValue]?[name] ?? spec.defaultValue else { return nil }
        return Self.expression(for: value, spec: spec)
    }

    /// Sets the style property `name` (`fill-color`) to `value`, nil restoring the
    /// specification's default; throws an ``MGLStyleError`` (``MGLStyleError/Code/invalidValue``)
    /// for a name the layer type does not have and for a value MapLibre's validator refuses for
    /// the property, leaving the layer as it was (an OpenMapKit addition, what the generated
    /// properties such as `fillColor` write).
    public func setValue(_ value: NSExpression?, forStyleProperty name: String) throws(MGLStyleError) {
        guard let (spec, kind) = propertySpec(name) else {
            throw MGLStyleError(.invalidValue, "\(layerType) layers have no property \"\(name)\"")
        }
        var json: JSONValue?
        if let value {
            do { json = try value.mglJSON() } catch {
                throw MGLStyleError(.invalidValue, "\(name): \(error)")
            }
            // A constant array is written as style authors write it (`"text-offset": [0, 1]`),
            // not as `["literal", …]`: some array types (variable anchor offsets) take no literal.
            if case .array(let items)? = json, items.count == 2, items[0] == .string("literal"), case .array = items[1] { json = items[1] }
            // A colour array property takes a constant colour as a CSS string, not an `rgb` expression.
            if spec.type == "colorArray", case .array(let items)? = json, items.count >= 4, let op = items[0].stringValue, op == "rgb" || op == "rgba" {
                let c = items.dropFirst().compactMap(\.numberValue)
                if c.count == items.count - 1 {
                    func component(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }
                    json = .string("rgba(\(component(c[0])),\(component(c[1])),\(component(c[2])),\(component(c.count > 3 ? c[3] : 1)))")
                }
            }
            if let json { try Self.validate(json, property: name, kind: kind, layerType: layerType, spec: spec) }
        }
        try updateObject { object in
            var section = object[kind.rawValue]?.objectValue ?? JSONObject()
            section.setOrRemove(name, json)
            object.setOrRemove(kind.rawValue, section.count == 0 ? nil : .object(section))
        }
    }

    /// The generated properties' getter.
    func styleValue(_ name: String, _ kind: MGLStylePropertyKind) -> NSExpression? {
        value(forStyleProperty: name)
    }

    /// The generated properties' setter: stops with the reason where Mapbox raises.
    func setStyleValue(_ value: NSExpression?, _ name: String, _ kind: MGLStylePropertyKind) {
        do { try setValue(value, forStyleProperty: name) } catch {
            preconditionFailure("\(type(of: self)) \"\(identifier)\": \(error.reason)")
        }
    }

    /// The `<name>-transition` of a paint property; no transition when unset.
    func styleTransition(_ name: String) -> MGLTransition {
        MGLTransition(json: object["paint"]?[name + "-transition"])
    }

    func setStyleTransition(_ transition: MGLTransition, _ name: String) {
        mustUpdate(name + "-transition") { object in
            var paint = object["paint"]?.objectValue ?? JSONObject()
            paint.set(name + "-transition", transition.json)
            object.set("paint", .object(paint))
        }
    }

    /// A document value (a constant, a legacy function or an expression) as Mapbox's getters
    /// give it: an expression, with constant colours as ``UIColor`` constants.
    static func expression(for value: JSONValue, spec: StylePropertySpec) -> NSExpression {
        if spec.type == "color" || spec.type == "colorArray", case .string(let css) = value, let color = StyleColor.parse(css) {
            let a = color.a
            let straight = a > 0 ? UIColor(red: color.r / a, green: color.g / a, blue: color.b / a, alpha: a) : UIColor(red: 0, green: 0, blue: 0, alpha: 0)
            return NSExpression(forConstantValue: straight)
        }
        let json = StyleProperty.expressionJSON(value, spec: spec)
        guard let expression = try? NSExpression(mglJSON: json) else { return NSExpression(forConstantValue: FoundationJSON.object(value)) }
        // A literal array reads as a constant array, as Mapbox's getters give constant values.
        if case .aggregate = expression.node, let constant = constantArray(expression) { return NSExpression(forConstantValue: constant) }
        return expression
    }

    /// The values of an aggregate of constants (nested aggregates as arrays); nil otherwise.
    private static func constantArray(_ expression: NSExpression) -> [Any]? {
        guard case .aggregate(let items) = expression.node else { return nil }
        var values: [Any] = []
        for item in items {
            switch item.node {
            case .constant(_, let original): values.append(original ?? NSNull())
            case .aggregate:
                guard let nested = constantArray(item) else { return nil }
                values.append(nested)
            default: return nil
            }
        }
        return values
    }

    /// Checks `value` for the property with MapLibre's validator, in a one-layer document.
    static func validate(_ value: JSONValue, property name: String, kind: MGLStylePropertyKind, layerType: String,
                         spec: StylePropertySpec) throws(MGLStyleError) {
        let source: JSONValue
        switch layerType {
        case "raster": source = .object(JSONObject([("type", .string("raster")), ("tiles", .array([]))]))
        case "hillshade", "color-relief": source = .object(JSONObject([("type", .string("raster-dem")), ("tiles", .array([]))]))
        default:
            source = .object(JSONObject([("type", .string("geojson")), ("lineMetrics", .bool(true)),
                                         ("data", .object(JSONObject([("type", .string("FeatureCollection")), ("features", .array([]))])))]))
        }
        var layer = JSONObject([("id", .string("l")), ("type", .string(layerType))])
        if layerType != "background" { layer.set("source", .string("s")) }
        layer.set(kind.rawValue, .object(JSONObject([(name, value)])))
        let document = JSONValue.object(JSONObject([
            ("version", .number(8)), ("glyphs", .string("glyphs/{fontstack}/{range}.pbf")),
            ("sources", .object(JSONObject([("s", source)]))), ("layers", .array([.object(layer)])),
        ]))
        let errors = Style.validate(document).filter { $0.severity == .error }
        guard errors.isEmpty else {
            let prefix = "layers[0].\(kind.rawValue)."
            let messages = errors.map { $0.message.hasPrefix(prefix) ? String($0.message.dropFirst(prefix.count)) : $0.message }
            throw MGLStyleError(.invalidValue, messages.joined(separator: "; "))
        }
    }
}

/// A layer that draws a source's data over the map (Mapbox's `MGLForegroundStyleLayer`): every
/// layer type but background.
public class MGLForegroundStyleLayer: MGLStyleLayer {
    /// The identifier of the source the layer draws; nil only for a layer without one.
    public var sourceIdentifier: String? { object["source"]?.stringValue }
}

/// A layer that draws vector data (Mapbox's `MGLVectorStyleLayer`): fill, line, symbol, circle,
/// heatmap and fill-extrusion layers, from vector tiles or shape sources.
public class MGLVectorStyleLayer: MGLForegroundStyleLayer {
    /// The layer of a vector tile source the features come from (MapLibre's `source-layer`);
    /// nil for shape sources. A vector tile source needs one: adding a layer without one fails.
    public var sourceLayerIdentifier: String? {
        get { object["source-layer"]?.stringValue }
        set { mustUpdate("sourceLayerIdentifier") { $0.setOrRemove("source-layer", newValue.map(JSONValue.string)) } }
    }

    /// Which features are drawn (MapLibre's `filter`); nil draws them all. A legacy filter of a
    /// loaded style reads as the predicate it stands for.
    ///
    /// Differs from Mapbox: a predicate the style language cannot express stops the program with
    /// the reason (where Mapbox raises).
    public var predicate: NSPredicate? {
        get {
            guard let filter = object["filter"] else { return nil }
            return try? MGLJSON.predicate(filter)
        }
        set {
            var json: JSONValue?
            if let newValue {
                do { json = try MGLJSON.predicateJSON(newValue) } catch {
                    preconditionFailure("\(type(of: self)).predicate of layer \"\(identifier)\": \(error)")
                }
            }
            mustUpdate("predicate") { $0.setOrRemove("filter", json) }
        }
    }
}

extension JSONObject {
    /// Sets `key` to `value`, or removes it for nil.
    mutating func setOrRemove(_ key: String, _ value: JSONValue?) {
        if let value {
            set(key, value)
        } else if self[key] != nil {
            self = JSONObject(members.filter { $0.key != key })
        }
    }
}
