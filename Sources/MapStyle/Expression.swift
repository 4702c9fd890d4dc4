import Foundation

/// What a style property allows its value expression to do: its type, whether it may depend on the
/// zoom or on feature data, and whether zoom curves may interpolate. Parsed from the property's
/// entry in the style specification (`v8.json`), whose field names it keeps.
public struct ExpressionPropertySpec: Sendable {
    public var type: ExpressionType?
    public var allowsZoom: Bool
    public var allowsFeature: Bool
    public var interpolated: Bool
    /// Whether legacy string values may contain `{token}` references to feature properties.
    public var tokens: Bool
    /// Legal values of an `enum` property (legacy identity functions match against them).
    public var enumValues: [String]
    public var defaultValue: JSONValue?

    public init(type: ExpressionType?, allowsZoom: Bool = true, allowsFeature: Bool = true, interpolated: Bool = true,
                tokens: Bool = false, enumValues: [String] = [], defaultValue: JSONValue? = nil) {
        self.type = type; self.allowsZoom = allowsZoom; self.allowsFeature = allowsFeature
        self.interpolated = interpolated; self.tokens = tokens; self.enumValues = enumValues; self.defaultValue = defaultValue
    }

    /// Reads a property specification object (`{"type": "number", "expression": {"parameters": [...]}, ...}`).
    public init(json: JSONValue) {
        var t: ExpressionType?
        if let name = json["type"]?.stringValue {
            if name == "array" {
                let item = json["value"]?.stringValue.flatMap(ExpressionType.named) ?? .value
                t = .array(item, json["length"]?.numberValue.map { Int($0) })
            } else {
                t = ExpressionType.named(name)
            }
        }
        let parameters = json["expression"]?["parameters"]?.arrayValue?.compactMap(\.stringValue)
        let propertyType = json["property-type"]?.stringValue
        self.init(type: t,
                  allowsZoom: parameters?.contains("zoom") ?? true,
                  allowsFeature: (parameters?.contains("feature") ?? true) && propertyType != "data-constant" && propertyType != "constant",
                  interpolated: json["expression"]?["interpolated"]?.boolValue ?? false,
                  tokens: json["tokens"]?.boolValue ?? false,
                  enumValues: json["values"]?.objectValue?.keys ?? json["values"]?.arrayValue?.compactMap(\.stringValue) ?? [],
                  defaultValue: json["default"])
    }
}

/// A compiled style expression. Parsing checks types and folds constant sub-expressions once, so
/// evaluation (per feature, per tile) walks a small typed tree and never touches JSON.
public struct Expression: Sendable {
    let root: any ExprNode

    /// The result type (after the implicit assertions/coercions the expected type required).
    public var type: ExpressionType { root.type }
    /// True when the result does not depend on the feature (its properties, id, geometry or state):
    /// renderers can then evaluate once per layer instead of once per feature.
    public let isFeatureConstant: Bool
    /// True when the result does not depend on the zoom level, so it need not be re-evaluated as the camera zooms.
    public let isZoomConstant: Bool
    /// True when the result does not read feature state, which changes without the tile changing
    /// (hover, selection): only such expressions may be baked into layouts and filters.
    public var isStateConstant: Bool { !root.allDependencies.contains(.state) }

    init(root: any ExprNode) {
        self.root = root
        let deps = root.allDependencies
        isFeatureConstant = !deps.contains(.feature) && !deps.contains(.state)
        isZoomConstant = !deps.contains(.zoom)
    }

    /// Parses and type-checks an expression. With `expected`, the result is asserted (for value-typed
    /// data) or coerced (strings to colors, formatted text, images) to that type, as a style property would.
    public static func parse(_ json: JSONValue, expected: ExpressionType? = nil) throws(ExpressionError) -> Expression {
        let errors = ErrorList()
        let context = ParsingContext(key: "", expected: expected, scope: [], errors: errors)
        let annotation: TypeAnnotation? = expected == .string ? .coerce : nil
        guard let node = context.parseHere(json, annotation: annotation), errors.items.isEmpty else {
            throw ExpressionError(parse: errors.items.isEmpty ? [.init(key: "", message: "Invalid expression.")] : errors.items)
        }
        return Expression(root: node)
    }

    /// Parses a property value the way a style layer holds it: an expression or a legacy
    /// (stops-based) function, checked against what the property allows — at most one zoom curve,
    /// at the top level, and only zoom/feature dependence the property supports.
    public static func parse(_ json: JSONValue, propertySpec spec: ExpressionPropertySpec) throws(ExpressionError) -> Expression {
        var input = json
        if LegacyFunction.isFunction(json) { input = LegacyFunction.convert(json, spec: spec) }
        let expression = try parse(input, expected: spec.type)
        func fail(_ message: String) -> ExpressionError { ExpressionError(parse: [.init(key: "", message: message)]) }
        if !expression.isFeatureConstant && !spec.allowsFeature { throw fail("data expressions not supported") }
        if !expression.isZoomConstant && !spec.allowsZoom { throw fail("zoom expressions not supported") }
        switch findZoomCurve(expression.root) {
        case .none:
            if !expression.isZoomConstant {
                throw fail("\"zoom\" expression may only be used as input to a top-level \"step\" or \"interpolate\" expression.")
            }
        case .error(let message): throw fail(message)
        case .curve(let node):
            if node is InterpolateNode && !spec.interpolated { throw fail("\"interpolate\" expressions cannot be used with this property") }
        }
        return expression
    }

    /// Evaluates for one feature/camera state. Errors are the runtime errors of the style
    /// specification (a failed type assertion, an unparsable color …); callers usually fall back
    /// to the property's default value.
    public func evaluate(_ context: EvaluationContext) throws(ExpressionError) -> ExpressionValue {
        try root.evaluate(context)
    }

    /// The constant value, when the expression depends on nothing at all.
    public var constantValue: ExpressionValue? { (root as? LiteralNode)?.value }
}

private enum ZoomCurve {
    case none
    case curve(any ExprNode)
    case error(String)
}

private func isZoomInput(_ node: any ExprNode) -> Bool {
    (node as? CompoundNode)?.name == "zoom"
}

private func findZoomCurve(_ node: any ExprNode) -> ZoomCurve {
    var result: ZoomCurve = .none
    if let l = node as? LetNode {
        result = findZoomCurve(l.result)
    } else if let c = node as? CoalesceNode {
        for arg in c.args {
            result = findZoomCurve(arg)
            if case .none = result { continue }
            break
        }
    } else if let s = node as? StepNode, isZoomInput(s.input) {
        result = .curve(s)
    } else if let i = node as? InterpolateNode, isZoomInput(i.input) {
        result = .curve(i)
    }
    if case .error = result { return result }
    for child in node.children {
        let childResult = findZoomCurve(child)
        switch (childResult, result) {
        case (.error, _): result = childResult
        case (.curve, .none):
            result = .error("\"zoom\" expression may only be used as input to a top-level \"step\" or \"interpolate\" expression.")
        case (.curve(let c), .curve(let r)) where c !== r:
            result = .error("Only one zoom-based \"step\" or \"interpolate\" subexpression may be used in an expression.")
        default: break
        }
    }
    return result
}

/// Converts legacy style functions (`{"stops": …, "property": …}`) into the equivalent expression,
/// so the rest of the pipeline only deals with expressions.
enum LegacyFunction {
    static func isFunction(_ json: JSONValue) -> Bool {
        guard case .object(let o) = json else { return false }
        return o["stops"] != nil || o["type"]?.stringValue == "identity"
    }

    static func literal(_ v: JSONValue) -> JSONValue {
        switch v {
        case .array, .object: .array([.string("literal"), v])
        default: v
        }
    }

    static func a(_ items: JSONValue...) -> JSONValue { .array(items) }
    static func s(_ x: String) -> JSONValue { .string(x) }

    static func convert(_ f: JSONValue, spec: ExpressionPropertySpec) -> JSONValue {
        let property = f["property"]?.stringValue
        guard let rawStops = f["stops"]?.arrayValue else { return identity(f, spec: spec, property: property ?? "") }
        let zoomAndFeature: Bool = if case .object? = rawStops.first?.arrayValue?.first { true } else { false }
        let featureDependent = zoomAndFeature || property != nil
        let stops: [(JSONValue, JSONValue)] = rawStops.compactMap { stop in
            guard let pair = stop.arrayValue, pair.count == 2 else { return nil }
            if !featureDependent && spec.tokens, case .string(let text) = pair[1] { return (pair[0], tokenString(text)) }
            return (pair[0], literal(pair[1]))
        }
        if zoomAndFeature { return zoomAndProperty(f, spec: spec, stops: stops, property: property ?? "") }
        if !featureDependent { return zoomFunction(f, spec: spec, stops: stops) }
        return propertyFunction(f, spec: spec, stops: stops, property: property ?? "")
    }

    static func functionType(_ f: JSONValue, _ spec: ExpressionPropertySpec) -> String {
        if let t = f["type"]?.stringValue { return t }
        return spec.interpolated ? "exponential" : "interval"
    }

    static func interpolateOperator(_ f: JSONValue) -> String {
        switch f["colorSpace"]?.stringValue {
        case "hcl": "interpolate-hcl"
        case "lab": "interpolate-lab"
        default: "interpolate"
        }
    }

    static func appendStop(_ curve: inout [JSONValue], _ input: JSONValue, _ output: JSONValue, step: Bool) {
        if curve.count > 3, input == curve[curve.count - 2] { return }
        if !(step && curve.count == 2) { curve.append(input) }
        curve.append(output)
    }

    static func fixupStep(_ curve: inout [JSONValue]) {
        if curve.first == s("step") && curve.count == 3 { curve.append(.number(0)); curve.append(curve[2]) }
    }

    static func fallback(_ f: JSONValue, _ spec: ExpressionPropertySpec) -> JSONValue {
        literal(f["default"] ?? spec.defaultValue ?? .null)
    }

    static func identity(_ f: JSONValue, spec: ExpressionPropertySpec, property: String) -> JSONValue {
        let get = a(s("get"), s(property))
        guard let def = f["default"] else { return spec.type == .string ? a(s("string"), get) : get }
        if !spec.enumValues.isEmpty {
            return a(s("match"), get, .array(spec.enumValues.map(s)), get, def)
        }
        switch spec.type {
        case .color?: return a(s("to-color"), get, literal(def))
        case .array(let item, let n)?:
            return a(s("array"), s(item.description), n.map { .number(Double($0)) } ?? .null, get, literal(def))
        case .padding?: return a(s("to-padding"), get, literal(def))
        case let t?: return a(s(t.description), get, literal(def))
        case nil: return a(s("coalesce"), get, literal(def))
        }
    }

    static func propertyFunction(_ f: JSONValue, spec: ExpressionPropertySpec, stops: [(JSONValue, JSONValue)], property: String) -> JSONValue {
        let type = functionType(f, spec)
        let get = a(s("get"), s(property))
        let withDefault: (JSONValue) -> JSONValue = { e in
            guard let def = f["default"] else { return e }
            return a(s("case"), a(s("=="), a(s("typeof"), get), s("number")), e, literal(def))
        }
        switch type {
        case "categorical":
            if case .bool? = stops.first?.0 {
                var e: [JSONValue] = [s("case")]
                for (label, out) in stops { e.append(a(s("=="), get, label)); e.append(out) }
                e.append(fallback(f, spec))
                return .array(e)
            }
            var e: [JSONValue] = [s("match"), get]
            for (label, out) in stops { e.append(label); e.append(out) }
            e.append(fallback(f, spec))
            return .array(e)
        case "interval":
            var e: [JSONValue] = [s("step"), a(s("number"), get)]
            for (label, out) in stops { appendStop(&e, label, out, step: true) }
            fixupStep(&e)
            return withDefault(.array(e))
        default:
            let base = f["base"]?.numberValue ?? 1
            var e: [JSONValue] = [s(interpolateOperator(f)), base == 1 ? a(s("linear")) : a(s("exponential"), .number(base)), a(s("number"), get)]
            for (label, out) in stops { appendStop(&e, label, out, step: false) }
            return withDefault(.array(e))
        }
    }

    static func zoomFunction(_ f: JSONValue, spec: ExpressionPropertySpec, stops: [(JSONValue, JSONValue)]) -> JSONValue {
        let type = functionType(f, spec)
        let step = type == "interval"
        var e: [JSONValue]
        if step {
            e = [s("step"), a(s("zoom"))]
        } else {
            let base = f["base"]?.numberValue ?? 1
            e = [s(interpolateOperator(f)), base == 1 ? a(s("linear")) : a(s("exponential"), .number(base)), a(s("zoom"))]
        }
        for (label, out) in stops { appendStop(&e, label, out, step: step) }
        fixupStep(&e)
        return .array(e)
    }

    static func zoomAndProperty(_ f: JSONValue, spec: ExpressionPropertySpec, stops: [(JSONValue, JSONValue)], property: String) -> JSONValue {
        var zooms: [Double] = []
        var byZoom: [Double: [(JSONValue, JSONValue)]] = [:]
        for (input, out) in stops {
            guard let z = input["zoom"]?.numberValue else { continue }
            if byZoom[z] == nil { zooms.append(z); byZoom[z] = [] }
            byZoom[z]!.append((input["value"] ?? .null, out))
        }
        let interpolate = functionType(JSONValue.object(JSONObject()), spec) == "exponential"
        var e: [JSONValue] = interpolate ? [s(interpolateOperator(f)), a(s("linear")), a(s("zoom"))] : [s("step"), a(s("zoom"))]
        for z in zooms {
            let out = propertyFunction(f, spec: spec, stops: byZoom[z]!, property: property)
            appendStop(&e, .number(z), out, step: !interpolate)
        }
        fixupStep(&e)
        return .array(e)
    }

    /// "{name} text" → ["concat", ["to-string", ["get", "name"]], " text"].
    static func tokenString(_ text: String) -> JSONValue {
        var parts: [JSONValue] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            if open > rest.startIndex { parts.append(s(String(rest[..<open]))) }
            let name = String(rest[rest.index(after: open)..<close])
            parts.append(a(s("to-string"), a(s("get"), s(name))))
            rest = rest[rest.index(after: close)...]
        }
        if parts.isEmpty { return s(text) }
        if !rest.isEmpty { parts.append(s(String(rest))) }
        if parts.count == 1, case .array = parts[0] { return parts[0] }
        return .array([s("concat")] + parts)
    }
}
