import MapStyle

/// A style property compiled once per layer: its expression (legacy functions converted by
/// MapStyle) or, when the document leaves it out, the specification's default. Evaluating it per
/// feature then never touches JSON.
struct CompiledProperty: Sendable {
    let expression: MapStyle.Expression?
    let defaultValue: ExpressionValue
    /// True when the value is the same for every feature, so a layer can evaluate it once.
    var isFeatureConstant: Bool { expression?.isFeatureConstant ?? true }

    /// The value for one feature. Runtime errors (a failed `to-number`, a missing property read
    /// with a type assertion) fall back to the default, as the style specification asks.
    func evaluate(_ context: EvaluationContext) -> ExpressionValue {
        guard let expression else { return defaultValue }
        guard let value = try? expression.evaluate(context), !value.isNull else { return defaultValue }
        return value
    }

    func number(_ context: EvaluationContext) -> Double {
        if case .number(let n) = evaluate(context), n.isFinite { return n }
        return defaultValue.numberValue ?? 0
    }

    func color(_ context: EvaluationContext) -> RenderColor? {
        guard case .color(let c) = evaluate(context) else { return nil }
        return RenderColor(red: c.r, green: c.g, blue: c.b, alpha: c.a)
    }

    func string(_ context: EvaluationContext) -> String? { evaluate(context).stringValue }

    func numbers(_ context: EvaluationContext) -> [Double] {
        switch evaluate(context) {
        case .numberArray(let values): return values
        case .array(let items): return items.compactMap(\.numberValue)
        case .number(let n): return [n]
        default: return []
        }
    }
}

/// Compiles the properties a layer's painter needs, looking each up in the specification section
/// ("paint_fill", "layout_line" …) for its type and default.
struct PropertyCompiler {
    let layer: StyleLayer

    /// A paint property. Unknown names are a programming error in the renderer, not a style error.
    func paint(_ name: String) throws(RenderError) -> CompiledProperty {
        try compile(name, section: "paint_" + layer.type.rawValue, written: layer.paint.first { $0.name == name }?.value)
    }

    func layout(_ name: String) throws(RenderError) -> CompiledProperty {
        try compile(name, section: "layout_" + layer.type.rawValue, written: layer.layout.first { $0.name == name }?.value)
    }

    private func compile(_ name: String, section: String, written: JSONValue?) throws(RenderError) -> CompiledProperty {
        guard let spec = StyleReference.property(name, in: section) else {
            throw RenderError("layer \(layer.id): \(name) is not a property of \(section)")
        }
        let expressionSpec = Self.expressionSpec(spec)
        var defaultValue = ExpressionValue.null
        if var json = spec.defaultValue {
            if case .array = json { json = .array([.string("literal"), json]) }
            if let parsed = try? MapStyle.Expression.parse(json, propertySpec: expressionSpec),
               let value = try? parsed.evaluate(EvaluationContext()) {
                defaultValue = value
            }
        }
        guard var written else { return CompiledProperty(expression: nil, defaultValue: defaultValue) }
        // A constant array ([14, -9], [3, 1.5]) is a value, not an expression call.
        if case .array(let items) = written, items.first?.stringValue == nil { written = .array([.string("literal"), written]) }
        do {
            let expression = try MapStyle.Expression.parse(written, propertySpec: expressionSpec)
            return CompiledProperty(expression: expression, defaultValue: defaultValue)
        } catch {
            throw RenderError("layer \(layer.id): \(name): \(error)")
        }
    }

    /// The expression engine's view of a property specification: result type, whether zoom and
    /// feature data may be read, and whether zoom curves may interpolate.
    static func expressionSpec(_ spec: StylePropertySpec) -> ExpressionPropertySpec {
        func type(_ name: String?) -> ExpressionType? {
            switch name {
            case "number": .number
            case "string", "enum": .string
            case "boolean": .boolean
            case "color": .color
            case "formatted": .formatted
            case "resolvedImage": .resolvedImage
            case "padding": .padding
            case "numberArray": .numberArray
            case "colorArray": .colorArray
            default: nil
            }
        }
        let resultType: ExpressionType? = spec.type == "array"
            ? .array(type(spec.value) ?? .value, spec.length) : type(spec.type)
        let enumValues = spec.values.compactMap(\.stringValue)
        return ExpressionPropertySpec(type: resultType, allowsZoom: spec.parameters.isEmpty || spec.parameters.contains("zoom"),
                                      allowsFeature: spec.isDataDriven, interpolated: spec.interpolated ?? false,
                                      tokens: spec.tokens, enumValues: enumValues, defaultValue: spec.defaultValue)
    }
}

/// A layer filter compiled to a boolean expression. Legacy filters (`["==", "class", "park"]`,
/// `["in", "$type", "Point"]`) are rewritten to expressions first, because MapStyle parses only
/// the expression syntax.
struct CompiledFilter: Sendable {
    let expression: MapStyle.Expression

    init(_ json: JSONValue, layerID: String) throws(RenderError) {
        let input = Self.isLegacy(json) ? (Self.convertLegacy(json) ?? json) : json
        do {
            expression = try MapStyle.Expression.parse(input, expected: .boolean)
        } catch {
            throw RenderError("layer \(layerID): filter: \(error)")
        }
    }

    /// Whether a feature passes; an evaluation error counts as false, as in MapLibre.
    func matches(_ context: EvaluationContext) -> Bool {
        (try? expression.evaluate(context))?.booleanValue ?? false
    }

    /// Whether the filter has the legacy shape: an operator followed by a property key (not a
    /// sub-expression) and scalar values, or a combinator of such filters.
    static func isLegacy(_ json: JSONValue) -> Bool {
        guard case .array(let items) = json, case .string(let op)? = items.first else { return false }
        func isScalar(_ value: JSONValue) -> Bool {
            switch value { case .array, .object: false; default: true }
        }
        let keyIsString = items.count >= 2 && items[1].stringValue != nil
        switch op {
        case "==", "!=", ">", ">=", "<", "<=": return items.count == 3 && keyIsString && isScalar(items[2])
        case "in", "!in": return keyIsString && items.dropFirst(2).allSatisfy(isScalar)
        case "has", "!has": return items.count == 2 && keyIsString
        case "all", "any", "none": return items.count > 1 && items.dropFirst().allSatisfy(isLegacy)
        default: return false
        }
    }

    /// The expression a legacy filter means; nil when it is not a legacy filter after all.
    static func convertLegacy(_ json: JSONValue) -> JSONValue? {
        guard case .array(let items) = json, case .string(let op)? = items.first else { return nil }
        func getter(_ key: JSONValue) -> JSONValue? {
            switch key.stringValue {
            case "$type"?: .array([.string("geometry-type")])
            case "$id"?: .array([.string("id")])
            case .some: .array([.string("get"), key])
            case nil: nil
            }
        }
        switch op {
        case "==", "!=", ">", ">=", "<", "<=":
            guard items.count == 3, let get = getter(items[1]) else { return nil }
            if op == "==" || op == "!=" { return .array([.string(op), get, items[2]]) }
            // Legacy ordering comparisons are false (not an error) when the property has another
            // type; `all` stops at the type test before the comparison could fail.
            return .array([.string("all"), .array([.string("=="), .array([.string("typeof"), get]), .string(items[2].typeName)]),
                           .array([.string(op), get, items[2]])])
        case "in", "!in":
            guard let get = getter(items[1]) else { return nil }
            let tests = items.dropFirst(2).map { JSONValue.array([.string("=="), get, $0]) }
            let any = JSONValue.array([.string("any")] + tests)
            return op == "in" ? any : .array([.string("!"), any])
        case "has", "!has":
            guard items.count == 2, let key = items[1].stringValue else { return nil }
            let test: JSONValue = key == "$id" ? .array([.string("!="), .array([.string("id")]), .null])
                : .array([.string("has"), items[1]])
            return op == "has" ? test : .array([.string("!"), test])
        case "all", "any", "none":
            var children: [JSONValue] = []
            for child in items.dropFirst() {
                guard let converted = convertLegacy(child) else { return nil }
                children.append(converted)
            }
            return op == "none" ? .array([.string("!"), .array([.string("any")] + children)]) : .array([.string(op)] + children)
        default:
            return nil
        }
    }
}
