import Foundation
import MapStyle

extension NSPredicate {
    /// The predicate for a style-language filter given as a Foundation JSON object, with Mapbox's
    /// correspondence: `["==", ["get", "type"], "park"]` is `type == "park"`, `["all", …]` is `AND`,
    /// `["match", x, [labels], true, false]` is `MGL_MATCH(…) == TRUE`, and `true` is `TRUEPREDICATE`.
    /// Legacy filters (`["==", "type", "park"]`, `["in", "$type", "Point"]`) are read as the
    /// expressions they stand for.
    ///
    /// Stops the program with the reason when `object` is not a filter (where Mapbox raises
    /// `NSInvalidArgumentException`); use ``init(validatingMGLJSONObject:)`` for JSON that comes from
    /// outside the program.
    ///
    /// Differs from Mapbox: `["all", [">=", x, a], ["<=", x, b]]` becomes `x BETWEEN {a, b}` only when
    /// both comparisons are of the same `x` (Mapbox does not check).
    public convenience init(mglJSONObject object: Any) {
        do {
            self.init(node: try MGLJSON.predicate(FoundationJSON.value(object)).node)
        } catch {
            preconditionFailure("NSPredicate(mglJSONObject:): \(error)")
        }
    }

    /// The predicate for a style-language filter given as a Foundation JSON object, throwing when it
    /// is not one (an OpenMapKit addition; see ``init(mglJSONObject:)``).
    public convenience init(validatingMGLJSONObject object: Any) throws(MGLExpressionError) {
        self.init(node: try MGLJSON.predicate(FoundationJSON.value(object)).node)
    }

    /// The predicate for a style-language filter (internal: style layers read MapStyle's JSON directly).
    convenience init(mglJSON json: JSONValue) throws(MGLExpressionError) {
        self.init(node: try MGLJSON.predicate(json).node)
    }

    /// The style-language filter this predicate stands for, as a Foundation JSON object that
    /// `JSONSerialization` can write: Mapbox's `mgl_jsonExpressionObject`. `x IN {a, b}` is written
    /// as Mapbox writes it, `["match", x, [a, b], true, false]`; `x BETWEEN {a, b}` as
    /// `["all", ["<=", a, x], ["<=", x, b]]`; `[c]` and `[d]` as a `collator`.
    ///
    /// Stops the program with the reason for a predicate the style language cannot express
    /// (`BEGINSWITH`, `ANY`, …), where Mapbox raises `NSInvalidArgumentException`;
    /// ``validatedMGLJSONObject()`` throws instead.
    public var mgl_jsonExpressionObject: Any {
        do {
            return FoundationJSON.object(try MGLJSON.predicateJSON(self))
        } catch {
            preconditionFailure("NSPredicate.mgl_jsonExpressionObject of \(self): \(error)")
        }
    }

    /// The style-language filter this predicate stands for, as a Foundation JSON object, throwing
    /// when the style language cannot express it (an OpenMapKit addition; see ``mgl_jsonExpressionObject``).
    public func validatedMGLJSONObject() throws(MGLExpressionError) -> Any {
        FoundationJSON.object(try MGLJSON.predicateJSON(self))
    }

    /// The style-language filter this predicate stands for, as MapStyle's JSON.
    func mglJSON() throws(MGLExpressionError) -> JSONValue {
        try MGLJSON.predicateJSON(self)
    }
}

extension MGLJSON {
    // MARK: - JSON → NSPredicate

    static let comparisonOperators: [String: NSComparisonPredicate.Operator] = [
        "==": .equalTo, "!=": .notEqualTo, "<": .lessThan, "<=": .lessThanOrEqualTo, ">": .greaterThan, ">=": .greaterThanOrEqualTo,
    ]

    /// A predicate from a filter. `legacy` reads legacy filter syntax too (true for a layer's filter,
    /// false for a `case` condition, which is always an expression).
    static func predicate(_ json: JSONValue, depth: Int = 0, legacy: Bool = true) throws(MGLExpressionError) -> NSPredicate {
        guard depth < maximumDepth else { throw invalid("the filter is nested more than \(maximumDepth) levels deep") }
        if case .bool(let b) = json { return NSPredicate(value: b) }
        var filter = json
        if legacy {
            guard let converted = StyleFilter.expression(json) else {
                throw invalid("the legacy filter \(json) has no expression equivalent (its keys must be strings)")
            }
            filter = converted
        }
        guard case .array(let items) = filter, case .string(let op)? = items.first else {
            return try truth(of: filter, depth: depth)
        }
        let args = Array(items.dropFirst())
        if let type = comparisonOperators[op], args.count == 2 || args.count == 3 {
            var options: NSComparisonPredicate.Options = []
            if args.count == 3 {
                guard let collatorOptions = comparisonOptions(args[2]) else { return try truth(of: filter, depth: depth) }
                options = collatorOptions
            }
            return NSComparisonPredicate(leftExpression: try expression(args[0], depth: depth + 1),
                                         rightExpression: try expression(args[1], depth: depth + 1),
                                         modifier: .direct, type: type, options: options)
        }
        switch op {
        case "!":
            var subpredicates: [NSPredicate] = []
            for arg in args { subpredicates.append(try predicate(arg, depth: depth + 1, legacy: false)) }
            if subpredicates.isEmpty { return NSPredicate(value: true) }
            if subpredicates.count == 1 { return NSCompoundPredicate(notPredicateWithSubpredicate: subpredicates[0]) }
            return NSCompoundPredicate(notPredicateWithSubpredicate: NSCompoundPredicate(orPredicateWithSubpredicates: subpredicates))
        case "all", "any":
            var subpredicates: [NSPredicate] = []
            for arg in args { subpredicates.append(try predicate(arg, depth: depth + 1, legacy: false)) }
            if op == "all", let between = between(subpredicates) { return between }
            return NSCompoundPredicate(type: op == "all" ? .and : .or, subpredicates: subpredicates)
        default:
            return try truth(of: filter, depth: depth)
        }
    }

    /// Any other Boolean expression: `expression == TRUE`, as Mapbox reads it.
    private static func truth(of json: JSONValue, depth: Int) throws(MGLExpressionError) -> NSPredicate {
        NSComparisonPredicate(leftExpression: try expression(json, depth: depth + 1), rightExpression: constant(true),
                              modifier: .direct, type: .equalTo)
    }

    /// The options a `["collator", {…}]` comparison argument stands for; nil when it has no
    /// counterpart (a locale, or settings that are not constants).
    private static func comparisonOptions(_ json: JSONValue) -> NSComparisonPredicate.Options? {
        guard case .array(let collator) = json, collator.count == 2, collator[0] == .string("collator"),
              case .object(let settings) = collator[1], settings["locale"] == nil,
              settings.keys.allSatisfy({ $0 == "case-sensitive" || $0 == "diacritic-sensitive" }) else { return nil }
        var options: NSComparisonPredicate.Options = []
        switch settings["case-sensitive"] {
        case nil, .bool(true)?: break
        case .bool(false)?: options.insert(.caseInsensitive)
        default: return nil
        }
        switch settings["diacritic-sensitive"] {
        case nil, .bool(true)?: break
        case .bool(false)?: options.insert(.diacriticInsensitive)
        default: return nil
        }
        return options
    }

    /// `x BETWEEN {a, b}` for the two comparisons Mapbox recognizes as one (`x >= a` or `a <= x`,
    /// with `x <= b` or `b >= x`), when both compare the same `x`.
    private static func between(_ subpredicates: [NSPredicate]) -> NSPredicate? {
        guard subpredicates.count == 2, case .comparison(let first) = subpredicates[0].node,
              case .comparison(let second) = subpredicates[1].node,
              first.modifier == .direct, second.modifier == .direct, first.options.isEmpty, second.options.isEmpty else { return nil }
        let lower: (value: NSExpression, bound: NSExpression)
        switch first.type {
        case .greaterThanOrEqualTo: lower = (first.left, first.right)
        case .lessThanOrEqualTo: lower = (first.right, first.left)
        default: return nil
        }
        let upper: (value: NSExpression, bound: NSExpression)
        switch second.type {
        case .lessThanOrEqualTo: upper = (second.left, second.right)
        case .greaterThanOrEqualTo: upper = (second.right, second.left)
        default: return nil
        }
        guard lower.value == upper.value else { return nil }
        return NSComparisonPredicate(leftExpression: lower.value, rightExpression: NSExpression(forAggregate: [lower.bound, upper.bound]),
                                     modifier: .direct, type: .between)
    }

    // MARK: - NSPredicate → JSON

    static func predicateJSON(_ p: NSPredicate, depth: Int = 0) throws(MGLExpressionError) -> JSONValue {
        guard depth < maximumDepth else { throw unsupported("the predicate is nested more than \(maximumDepth) levels deep") }
        switch p.node {
        case .value(let b): return .bool(b)
        case .compound(let type, let subpredicates):
            var items: [JSONValue] = []
            for sub in subpredicates { items.append(try predicateJSON(sub, depth: depth + 1)) }
            switch type {
            case .and: return .array([.string("all")] + items)
            case .or: return .array([.string("any")] + items)
            case .not:
                if items.isEmpty { return .bool(true) }
                if items.count == 1 { return .array([.string("!"), items[0]]) }
                return .array([.string("!"), .array([.string("any")] + items)])
            }
        case .comparison(let c):
            return try comparisonJSON(c, depth: depth + 1)
        }
    }

    private static func comparisonJSON(_ c: NSPredicate.Comparison, depth: Int) throws(MGLExpressionError) -> JSONValue {
        guard c.modifier == .direct else {
            throw unsupported("the ANY, ALL, SOME and NONE modifiers have no style-language counterpart")
        }
        guard !c.options.contains(.normalized) else { throw unsupported("the [n] (normalized) option has no style-language counterpart") }
        let op: String
        switch c.type {
        case .equalTo:
            // `e == TRUE` where e is itself a condition (how Mapbox reads a filter such as ["has", "x"]).
            if c.options.isEmpty, case .constant(.bool(true), _) = c.right.node, isBooleanValued(c.left) {
                return try json(c.left, depth: depth)
            }
            op = "=="
        case .notEqualTo: op = "!="
        case .lessThan: op = "<"
        case .lessThanOrEqualTo: op = "<="
        case .greaterThan: op = ">"
        case .greaterThanOrEqualTo: op = ">="
        case .between:
            guard let bounds = collection(c.right), bounds.count == 2 else {
                throw unsupported("BETWEEN takes a collection of two bounds, not \(c.right)")
            }
            let lower = NSPredicate.Comparison(left: bounds[0], right: c.left, modifier: .direct, type: .lessThanOrEqualTo, options: c.options)
            let upper = NSPredicate.Comparison(left: c.left, right: bounds[1], modifier: .direct, type: .lessThanOrEqualTo, options: c.options)
            return .array([.string("all"), try comparisonJSON(lower, depth: depth), try comparisonJSON(upper, depth: depth)])
        case .in:
            return try membershipJSON(needle: c.left, haystack: c.right, options: c.options, depth: depth)
        case .contains:
            return try membershipJSON(needle: c.right, haystack: c.left, options: c.options, depth: depth)
        case .beginsWith, .endsWith, .like, .matches, .customSelector:
            throw unsupported("\(FormatWriter.comparisonSymbol(c.type)) comparisons have no style-language counterpart")
        }
        var items: [JSONValue] = [.string(op), try json(c.left, depth: depth), try json(c.right, depth: depth)]
        if !c.options.isEmpty {
            items.append(.array([.string("collator"), .object(JSONObject([
                (key: "case-sensitive", value: .bool(!c.options.contains(.caseInsensitive))),
                (key: "diacritic-sensitive", value: .bool(!c.options.contains(.diacriticInsensitive))),
            ]))]))
        }
        return .array(items)
    }

    /// `needle IN haystack`: over a constant collection, Mapbox's `["match", needle, [labels], true,
    /// false]` (or `["in", needle, ["literal", […]]]` when the labels mix types, which `match` does
    /// not allow); over anything else, the style language's `in` (an array attribute, a substring).
    private static func membershipJSON(needle: NSExpression, haystack: NSExpression, options: NSComparisonPredicate.Options,
                                       depth: Int) throws(MGLExpressionError) -> JSONValue {
        guard options.isEmpty else {
            throw unsupported("IN and CONTAINS with the [c] or [d] options have no style-language counterpart")
        }
        guard let items = collection(haystack) else {
            return .array([.string("in"), try json(needle, depth: depth), try json(haystack, depth: depth)])
        }
        var labels: [JSONValue] = []
        for item in items {
            let label = try json(item, depth: depth)
            if !labels.contains(label) { labels.append(label) }
        }
        if labels.isEmpty { return .bool(false) }
        let allNumbers = labels.allSatisfy { $0.numberValue != nil }
        let allStrings = labels.allSatisfy { $0.stringValue != nil }
        if allNumbers || allStrings {
            return .array([.string("match"), try json(needle, depth: depth), .array(labels), .bool(true), .bool(false)])
        }
        return .array([.string("in"), try json(needle, depth: depth), .array([.string("literal"), .array(labels)])])
    }

    /// Whether an expression's value is a Boolean whatever it is evaluated for.
    static func isBooleanValued(_ e: NSExpression) -> Bool {
        switch e.node {
        case .constant(.bool, _), .constant(.predicate, _): return true
        case .function(let name, let target, let arguments):
            if target != nil { return name == "boolValue" || name == "mgl_has:" }
            switch name {
            case "mgl_does:have:": return true
            case "MGL_MATCH", "MGL_MATCH:":
                return arguments.enumerated().allSatisfy { i, argument in
                    i == 0 || (i % 2 == 1 && i != arguments.count - 1) || isBooleanValued(argument)
                }
            case "MGL_IF", "MGL_IF:":
                return arguments.enumerated().allSatisfy { i, argument in
                    (i % 2 == 0 && i != arguments.count - 1) || isBooleanValued(argument)
                }
            case "MGL_FUNCTION", "MGL_FUNCTION:":
                if case .constant(.string(let op), _)? = arguments.first?.node { return booleanOperators.contains(op) }
                return false
            default: return false
            }
        case .conditional(_, let t, let f): return isBooleanValued(t) && isBooleanValued(f)
        default: return false
        }
    }
}

// MARK: - Evaluation

extension NSPredicate {
    /// Whether `object` (a feature's attributes, `[String: Any]`) satisfies the predicate, evaluated
    /// with the map's expression engine, as a layer filter would be.
    ///
    /// Differs from Foundation: a predicate the style language cannot express (see
    /// ``validatedMGLJSONObject()``), or one whose evaluation fails (comparing a string attribute with
    /// `<` to a number), is false, as a failing filter hides a feature, rather than raising.
    public func evaluate(with object: Any?) -> Bool {
        evaluate(with: object, substitutionVariables: nil)
    }

    /// Whether `object` satisfies the predicate with `$variables` set from `bindings`: Mapbox's
    /// variables (`zoomLevel`, `geometryType`, `featureIdentifier`, `heatmapDensity`, `lineProgress`)
    /// and any others (as `MGL_LET` would bind them). See ``evaluate(with:)``.
    public func evaluate(with object: Any?, substitutionVariables bindings: [String: Any]?) -> Bool {
        guard let json = try? MGLJSON.predicateJSON(self),
              let value = StyleEvaluation.evaluate(json, expected: .boolean, object: object, variables: bindings ?? [:]) else {
            return false
        }
        return value.booleanValue ?? false
    }
}

extension NSExpression {
    /// The expression's value for `object` (a feature's attributes, `[String: Any]`), with
    /// `$variables` set from `context` (Mapbox's variables such as `zoomLevel`, and any others),
    /// evaluated with the map's expression engine: `Double`, `String`, `Bool`, ``UIColor``, `[Any]`,
    /// `[String: Any]` or nil.
    ///
    /// Differs from Foundation: an expression the style language cannot express (see
    /// ``validatedMGLJSONObject()``), or one whose evaluation fails, is nil rather than raising.
    public func expressionValue(with object: Any?, context: NSMutableDictionary?) -> Any? {
        guard let json = try? MGLJSON.json(self) else { return nil }
        var variables: [String: Any] = [:]
        if let context {
            for (key, value) in context {
                if let name = key as? String { variables[name] = value }
            }
        }
        guard let value = StyleEvaluation.evaluate(json, expected: nil, object: object, variables: variables) else { return nil }
        return StyleEvaluation.foundationValue(value)
    }
}

/// Evaluates converted expressions with MapStyle's engine, for ``NSPredicate/evaluate(with:)`` and
/// ``NSExpression/expressionValue(with:context:)``.
enum StyleEvaluation {
    /// The value of `json` for a feature with the attributes `object`, with `variables` bound: the
    /// camera and feature variables set in the evaluation context, the others by `let`. Nil when it
    /// does not parse or fails.
    static func evaluate(_ json: JSONValue, expected: ExpressionType?, object: Any?, variables: [String: Any]) -> ExpressionValue? {
        var context = EvaluationContext()
        if let attributes = unwrappedOptional(object) as? [String: Any],
           case .object(let properties)? = try? FoundationJSON.value(attributes) {
            for member in properties.members { context.properties[member.key] = ExpressionValue(member.value) }
        }
        var bound = json
        for name in variables.keys.sorted().reversed() {
            let value = variables[name]!
            switch name {
            case "zoomLevel": context.zoom = numericValue(value).flatMap(number)
            case "heatmapDensity": context.heatmapDensity = numericValue(value).flatMap(number)
            case "lineProgress": context.lineProgress = numericValue(value).flatMap(number)
            case "geometryType": context.geometryType = value as? String
            case "featureIdentifier": context.id = (try? FoundationJSON.value(value)).map(ExpressionValue.init) ?? .null
            default:
                guard let valueJSON = try? FoundationJSON.value(value) else { return nil }
                let literal: JSONValue = switch valueJSON {
                case .array, .object: .array([.string("literal"), valueJSON])
                default: valueJSON
                }
                bound = .array([.string("let"), .string(name), literal, bound])
            }
        }
        guard let expression = try? MapStyle.Expression.parse(bound, expected: expected) else { return nil }
        return try? expression.evaluate(context)
    }

    private static func number(_ c: Constant) -> Double? {
        if case .number(let n) = c { return n }
        return nil
    }

    /// A value of the expression language as the Foundation object Mapbox's SDK would give.
    static func foundationValue(_ value: ExpressionValue) -> Any? {
        switch value {
        case .null: return nil
        case .boolean(let b): return b
        case .number(let n): return n
        case .string(let s): return s
        case .color(let c): return UIColor(red: c.r, green: c.g, blue: c.b, alpha: c.a)
        case .array(let items): return items.map { foundationValue($0) ?? NSNull() }
        case .object(let o): return Dictionary(uniqueKeysWithValues: o.keys.map { ($0, foundationValue(o[$0]!) ?? NSNull()) })
        case .formatted(let f): return f.description
        case .image(let i): return i.name
        case .padding(let p), .numberArray(let p): return p
        case .colorArray(let colors): return colors.map { UIColor(red: $0.r, green: $0.g, blue: $0.b, alpha: $0.a) }
        case .collator, .projection: return FoundationJSON.object(value.json)
        }
    }
}
