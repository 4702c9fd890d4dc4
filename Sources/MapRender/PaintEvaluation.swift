import MapStyle

/// A style property compiled once per layer: its expression (legacy functions converted by
/// MapStyle) or, when the document leaves it out, the specification's default. Evaluating it per
/// feature then never touches JSON.
struct CompiledProperty: Sendable {
    let expression: MapStyle.Expression?
    let defaultValue: ExpressionValue
    /// The way from an earlier value, while a style change is being blended in (see
    /// `PaintTransitions.swift`); nil for nearly every property.
    var transition: CompiledTransition?
    /// True when the value is the same for every feature, so a layer can evaluate it once.
    var isFeatureConstant: Bool {
        (expression?.isFeatureConstant ?? true) && (transition?.prior.isFeatureConstant ?? true)
    }

    init(expression: MapStyle.Expression?, defaultValue: ExpressionValue, transition: CompiledTransition? = nil) {
        (self.expression, self.defaultValue, self.transition) = (expression, defaultValue, transition)
    }

    /// The value for one feature. Runtime errors (a failed `to-number`, a missing property read
    /// with a type assertion) fall back to the default, as the style specification asks.
    func evaluate(_ context: EvaluationContext) -> ExpressionValue {
        guard let transition else { return evaluateWritten(context) }
        return transition.blend(to: evaluateWritten(context), context)
    }

    private func evaluateWritten(_ context: EvaluationContext) -> ExpressionValue {
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

    /// A colour or an array of them (`hillshade-shadow-color` takes one per light).
    func colors(_ context: EvaluationContext) -> [RenderColor] {
        switch evaluate(context) {
        case .color(let c): return [RenderColor(red: c.r, green: c.g, blue: c.b, alpha: c.a)]
        case .colorArray(let list): return list.map { RenderColor(red: $0.r, green: $0.g, blue: $0.b, alpha: $0.a) }
        default: return []
        }
    }

    /// An image name (`*-pattern`): a plain string or what `image` resolved; nil or empty is none.
    func imageName(_ context: EvaluationContext) -> String? {
        switch evaluate(context) {
        case .string(let name) where !name.isEmpty: name
        case .image(let image) where !image.name.isEmpty: image.name
        default: nil
        }
    }

    func numbers(_ context: EvaluationContext) -> [Double] {
        switch evaluate(context) {
        case .numberArray(let values): return values
        case .array(let items): return items.compactMap(\.numberValue)
        case .number(let n): return [n]
        default: return []
        }
    }
}

/// The properties a layer's painter needs: each written property's expression as MapStyle compiled
/// it when the style loaded, or, for properties the document leaves out, the specification's default
/// (looked up in "paint_fill", "layout_line" … of the reference).
struct PropertyCompiler {
    let layer: StyleLayer
    /// The layer's paint properties in transition, by name, and the clock they blend by.
    var transitions: [String: PaintTransitions.Transition] = [:]
    var clock = TransitionClock()

    /// A paint property. Unknown names are a programming error in the renderer, not a style error.
    func paint(_ name: String) throws(RenderError) -> CompiledProperty {
        var property = try compile(name, section: "paint_" + layer.type.rawValue, written: layer.paint[name])
        property.transition = try transitions[name].map { transition throws(RenderError) in try compile(transition, of: name) }
        return property
    }

    /// A transition's prior value compiled as the property is, with the prior's own transition.
    private func compile(_ transition: PaintTransitions.Transition, of name: String) throws(RenderError) -> CompiledTransition {
        var prior = try compile(name, section: "paint_" + layer.type.rawValue, written: transition.prior)
        prior.transition = try transition.priorTransition.map { earlier throws(RenderError) in try compile(earlier, of: name) }
        return CompiledTransition(prior: prior, begin: transition.begin, end: transition.end, clock: clock)
    }

    func layout(_ name: String) throws(RenderError) -> CompiledProperty {
        try compile(name, section: "layout_" + layer.type.rawValue, written: layer.layout[name])
    }

    private func compile(_ name: String, section: String, written: StyleProperty?) throws(RenderError) -> CompiledProperty {
        guard let spec = StyleReference.property(name, in: section) else {
            throw RenderError("layer \(layer.id): \(name) is not a property of \(section)")
        }
        var defaultValue = ExpressionValue.null
        var defaultExpression: MapStyle.Expression?
        if var json = spec.defaultValue {
            // An array default is a literal (a dash array, a translation) unless it is itself an
            // expression: `heatmap-color`'s default ramp reads `heatmap-density`.
            let isExpression = json.arrayValue?.first?.stringValue != nil
            if case .array = json, !isExpression { json = .array([.string("literal"), json]) }
            if let parsed = try? MapStyle.Expression.parse(json, propertySpec: ExpressionPropertySpec(spec)) {
                if isExpression { defaultExpression = parsed }
                if let value = try? parsed.evaluate(EvaluationContext()) { defaultValue = value }
            }
        }
        guard let written else { return CompiledProperty(expression: defaultExpression, defaultValue: defaultValue) }
        // Style leaves a property uncompiled only when it is not a valid value for it.
        guard let expression = written.expression else {
            throw RenderError("layer \(layer.id): \(name): this \(written.value.typeName) is not a valid value (Style.validate says why)")
        }
        return CompiledProperty(expression: expression, defaultValue: defaultValue)
    }
}

/// A layer filter as MapStyle compiled it (legacy filters converted to expressions).
struct CompiledFilter: Sendable {
    let expression: MapStyle.Expression

    /// Whether a feature passes; an evaluation error counts as false, as in MapLibre.
    func matches(_ context: EvaluationContext) -> Bool {
        (try? expression.evaluate(context))?.booleanValue ?? false
    }
}
