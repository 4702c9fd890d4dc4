import Foundation
import MapStyle

extension NSExpression {
    /// The expression for a style-language expression given as a Foundation JSON object (what
    /// `JSONSerialization` reads: arrays, dictionaries, strings, numbers, Booleans, `NSNull`), with
    /// Mapbox's correspondence: `["get", "mag"]` is the key path `mag`, `["zoom"]` is `$zoomLevel`,
    /// `["interpolate", …]` is `mgl_interpolate:withCurveType:parameters:stops:`, `["rgb", 255, 0, 0]`
    /// a constant ``UIColor``, and an operator with no Mapbox function is `MGL_FUNCTION('operator', …)`.
    ///
    /// Stops the program with the reason when `object` is not an expression (where Mapbox raises
    /// `NSInvalidArgumentException`); use ``init(validatingMGLJSONObject:)`` for JSON that comes from
    /// outside the program, such as a style document or a request.
    ///
    /// Differs from Mapbox: the type assertions `["number", …]` and `["string", …]` stay
    /// `MGL_FUNCTION` expressions rather than becoming the conversions `CAST(…, 'NSNumber')` and
    /// `CAST(…, 'NSString')`, and `["format", …]` stays `MGL_FUNCTION('format', …)` (there is no
    /// `MGLAttributedExpression`), so both convert back to the JSON they came from.
    public convenience init(mglJSONObject object: Any) {
        do {
            self.init(node: try MGLJSON.expression(FoundationJSON.value(object)).node)
        } catch {
            preconditionFailure("NSExpression(mglJSONObject:): \(error)")
        }
    }

    /// The expression for a style-language expression given as a Foundation JSON object, throwing
    /// when it is not one (an OpenMapKit addition; see ``init(mglJSONObject:)``).
    public convenience init(validatingMGLJSONObject object: Any) throws(MGLExpressionError) {
        self.init(node: try MGLJSON.expression(FoundationJSON.value(object)).node)
    }

    /// The expression for a style-language expression (internal: the style layers read and write
    /// MapStyle's JSON directly).
    convenience init(mglJSON json: JSONValue) throws(MGLExpressionError) {
        self.init(node: try MGLJSON.expression(json).node)
    }

    /// The style-language expression this expression stands for, as a Foundation JSON object
    /// (`[Any]`, `[String: Any]`, `String`, `Double`, `Bool` or `NSNull`) that `JSONSerialization`
    /// can write: Mapbox's `mgl_jsonExpressionObject`.
    ///
    /// Stops the program with the reason for an expression the style language cannot express (a
    /// subquery-free Foundation function such as `median:`, a constant of an unknown type, empty
    /// stops), where Mapbox raises `NSInvalidArgumentException`; ``validatedMGLJSONObject()`` throws
    /// instead.
    public var mgl_jsonExpressionObject: Any {
        do {
            return FoundationJSON.object(try MGLJSON.json(self))
        } catch {
            preconditionFailure("NSExpression.mgl_jsonExpressionObject of \(self): \(error)")
        }
    }

    /// The style-language expression this expression stands for, as a Foundation JSON object,
    /// throwing when the style language cannot express it (an OpenMapKit addition; see
    /// ``mgl_jsonExpressionObject``).
    public func validatedMGLJSONObject() throws(MGLExpressionError) -> Any {
        FoundationJSON.object(try MGLJSON.json(self))
    }

    /// The style-language expression this expression stands for, as MapStyle's JSON.
    func mglJSON() throws(MGLExpressionError) -> JSONValue {
        try MGLJSON.json(self)
    }
}

/// The correspondence between ``NSExpression``/``NSPredicate`` and MapLibre style expressions, as
/// Mapbox's iOS SDK defines it (its "Predicates and expressions" guide and `NSExpression+MGLAdditions`).
enum MGLJSON {
    /// Expressions nested deeper than this are refused rather than recursed into.
    static let maximumDepth = 200

    static func invalid(_ message: String) -> MGLExpressionError { MGLExpressionError(.invalidJSON, message) }
    static func unsupported(_ message: String) -> MGLExpressionError { MGLExpressionError(.unsupported, message) }

    /// Mapbox's variables and the style-language operators they stand for.
    static let variableOperators: [String: String] = [
        "zoomLevel": "zoom", "heatmapDensity": "heatmap-density", "lineProgress": "line-progress",
        "featureAccumulated": "accumulated", "geometryType": "geometry-type", "featureIdentifier": "id",
        "featureAttributes": "properties",
    ]
    static let operatorVariables = Dictionary(uniqueKeysWithValues: variableOperators.map { ($0.value, $0.key) })

    /// Foundation's and Mapbox's functions that are one style-language operator with the same arguments.
    static let operatorsByFunction: [String: String] = [
        "add:to:": "+", "from:subtract:": "-", "multiply:by:": "*", "divide:by:": "/", "modulus:by:": "%",
        "sqrt:": "sqrt", "log:": "log10", "ln:": "ln", "raise:toPower:": "^", "ceiling:": "ceil", "abs:": "abs",
        "floor:": "floor", "uppercase:": "upcase", "lowercase:": "downcase", "length:": "length",
        "mgl_round:": "round", "mgl_acos:": "acos", "mgl_cos:": "cos", "mgl_asin:": "asin", "mgl_sin:": "sin",
        "mgl_atan:": "atan", "mgl_tan:": "tan", "mgl_log2:": "log2", "MGL_LET": "let", "MGL_LET:": "let",
    ]
    /// The reverse, for reading JSON (`length` is read separately: `length:` for strings, `count:` otherwise).
    static let functionsByOperator: [String: String] = [
        "+": "add:to:", "-": "from:subtract:", "*": "multiply:by:", "/": "divide:by:", "%": "modulus:by:",
        "sqrt": "sqrt:", "log10": "log:", "ln": "ln:", "abs": "abs:", "round": "mgl_round:", "acos": "mgl_acos:",
        "cos": "mgl_cos:", "asin": "mgl_asin:", "sin": "mgl_sin:", "atan": "mgl_atan:", "tan": "mgl_tan:",
        "log2": "mgl_log2:", "floor": "floor:", "ceil": "ceiling:", "^": "raise:toPower:", "upcase": "uppercase:",
        "downcase": "lowercase:", "let": "MGL_LET",
    ]
    /// Foundation functions Mapbox lists as not supported.
    static let unsupportedFunctions: Set<String> = [
        "median:", "mode:", "stddev:", "random", "randomn:", "now", "bitwiseAnd:with:", "bitwiseOr:with:",
        "bitwiseXor:with:", "leftshift:by:", "rightshift:by:", "onesComplement:", "distanceToLocation:fromLocation:",
    ]
    /// Operators some of whose arguments are JSON objects taken as they are, not `["literal", {…}]`.
    static let rawObjectOperators: Set<String> = ["collator", "format", "number-format", "within", "distance"]
    /// Operators whose result is a Boolean, so `["==", result, true]` is the result itself.
    static let booleanOperators: Set<String> = [
        "==", "!=", "<", "<=", ">", ">=", "!", "all", "any", "has", "in", "within", "boolean", "to-boolean",
        "is-supported-script",
    ]

    // MARK: - JSON → NSExpression

    static func constant(_ value: Any?) -> NSExpression { NSExpression(forConstantValue: value) }

    static func expression(_ json: JSONValue, depth: Int = 0) throws(MGLExpressionError) -> NSExpression {
        guard depth < maximumDepth else { throw invalid("the expression is nested more than \(maximumDepth) levels deep") }
        switch json {
        case .null: return constant(nil)
        case .bool(let b): return constant(b)
        case .number(let n): return constant(NSNumber(value: n))
        case .string(let s): return constant(s)
        case .object: return data(json)
        case .array(let items):
            guard case .string(let op)? = items.first else {
                if items.isEmpty { throw invalid("an empty array is not an expression (an empty array value is [\"literal\", []])") }
                throw invalid("an expression starts with its operator's name, not a \(items[0].typeName) "
                              + "(an array value is written [\"literal\", [...]])")
            }
            return try operation(op, Array(items.dropFirst()), depth: depth + 1)
        }
    }

    /// A value inside `literal` (or an object argument of `collator`, `format` …): data, not an
    /// expression, so arrays are aggregates of constants and objects constant dictionaries.
    static func data(_ json: JSONValue) -> NSExpression {
        switch json {
        case .array(let items): return NSExpression(forAggregate: items.map(data))
        case .object(let object):
            var entries: [String: NSExpression] = [:]
            for member in object.members { entries[member.key] = data(member.value) }
            return constant(entries)
        case .null: return constant(nil)
        case .bool(let b): return constant(b)
        case .number(let n): return constant(NSNumber(value: n))
        case .string(let s): return constant(s)
        }
    }

    private static func operation(_ op: String, _ args: [JSONValue], depth: Int) throws(MGLExpressionError) -> NSExpression {
        func sub(_ i: Int) throws(MGLExpressionError) -> NSExpression { try expression(args[i], depth: depth) }
        func subs(_ range: Range<Int>) throws(MGLExpressionError) -> [NSExpression] {
            var out: [NSExpression] = []
            for i in range { out.append(try sub(i)) }
            return out
        }
        func arity(_ counts: ClosedRange<Int>) throws(MGLExpressionError) {
            guard counts.contains(args.count) else {
                let expected = counts.count == 1 ? "\(counts.lowerBound)" : counts.upperBound == Int.max ? "at least \(counts.lowerBound)" : "\(counts.lowerBound) to \(counts.upperBound)"
                throw invalid("\"\(op)\" takes \(expected) argument\(counts == 1...1 ? "" : "s"), not \(args.count)")
            }
        }
        func generic() throws(MGLExpressionError) -> NSExpression {
            var arguments = [constant(op)]
            for (i, arg) in args.enumerated() {
                if case .object = arg { arguments.append(data(arg)) } else { arguments.append(try sub(i)) }
            }
            return NSExpression(forFunction: "MGL_FUNCTION", arguments: arguments)
        }

        if let function = functionsByOperator[op] {
            let arguments = try subs(0..<args.count)
            if op == "+" && args.count > 2 {
                return NSExpression(forFunction: "sum:", arguments: [NSExpression(forAggregate: arguments)])
            }
            if op == "^", args.count == 2, args[0] == .array([.string("e")]) {
                return NSExpression(forFunction: "exp:", arguments: [arguments[1]])
            }
            return NSExpression(forFunction: function, arguments: arguments)
        }
        if let variable = operatorVariables[op] {
            try arity(0...0)
            return NSExpression(forVariable: variable)
        }
        switch op {
        case "literal":
            try arity(1...1)
            return data(args[0])
        case "e", "pi":
            try arity(0...0)
            return constant(op == "e" ? M_E : Double.pi)
        case "var":
            try arity(1...1)
            guard case .string(let name) = args[0] else { throw invalid("\"var\" takes a variable name, not \(args[0].typeName)") }
            return NSExpression(forVariable: name)
        case "get":
            try arity(1...2)
            if args.count == 1 {
                if case .string(let key) = args[0], !key.contains(".") { return NSExpression(forKeyPath: key) }
                return try generic()
            }
            let object = try sub(1)
            if case .string(let key) = args[0] {
                if key.contains(".") {
                    return NSExpression(forFunction: object, selectorName: "valueForKey:", arguments: [constant(key)])
                }
                return FormatParser.member(key, of: object)
            }
            return NSExpression(forFunction: object, selectorName: "valueForKey:", arguments: [try sub(0)])
        case "has":
            try arity(1...2)
            let object = args.count == 2 ? try sub(1) : NSExpression.expressionForEvaluatedObject()
            return NSExpression(forFunction: "mgl_does:have:", arguments: [object, try sub(0)])
        case "length":
            try arity(1...1)
            let operand = try sub(0)
            if case .constant(.string, _) = operand.node { return NSExpression(forFunction: "length:", arguments: [operand]) }
            return NSExpression(forFunction: "count:", arguments: [operand])
        case "at":
            try arity(2...2)
            return NSExpression(forFunction: "objectFrom:withIndex:", arguments: [try sub(1), try sub(0)])
        case "min", "max", "concat":
            let aggregate = NSExpression(forAggregate: try subs(0..<args.count))
            return NSExpression(forFunction: op == "concat" ? "mgl_join:" : op + ":", arguments: [aggregate])
        case "coalesce":
            return NSExpression(forFunction: "mgl_coalesce:", arguments: [constant(try subs(0..<args.count))])
        case "to-boolean":
            try arity(1...1)
            return NSExpression(forFunction: try sub(0), selectorName: "boolValue", arguments: [])
        case "to-number":
            try arity(1...Int.max)
            if args.count == 1 { return cast(try sub(0), to: "NSNumber") }
            return NSExpression(forFunction: try sub(0), selectorName: "mgl_numberWithFallbackValues:", arguments: try subs(1..<args.count))
        case "to-string":
            guard args.count == 1 else { return try generic() }
            return cast(try sub(0), to: "NSString")
        case "to-color":
            guard args.count == 1 else { return try generic() }
            return cast(try sub(0), to: "UIColor")
        case "to-rgba":
            try arity(1...1)
            return cast(NSExpression(forFunction: "noindex:", arguments: [try sub(0)]), to: "NSArray")
        case "rgb", "rgba":
            try arity(op == "rgb" ? 3...3 : 4...4)
            let components = try subs(0..<args.count)
            if let color = constantColor(components) { return constant(color) }
            if op == "rgb" { return try generic() }
            return NSExpression(forFunction: constant(UIColor.self), selectorName: "colorWithRed:green:blue:alpha:", arguments: components)
        case "interpolate":
            return try interpolation(args, depth: depth)
        case "step":
            guard args.count >= 4, args.count % 2 == 0 else {
                throw invalid("\"step\" takes an input, an output below the first stop and pairs of stops and outputs, not \(args.count) arguments")
            }
            let stops = try stopDictionary(Array(args[2...]), op: op, depth: depth)
            return NSExpression(forFunction: "mgl_step:from:stops:", arguments: [try sub(0), try sub(1), constant(stops)])
        case "case":
            guard args.count >= 3, args.count % 2 == 1 else {
                throw invalid("\"case\" takes pairs of conditions and outputs and a fallback output, not \(args.count) arguments")
            }
            if args.count == 3 {
                return NSExpression(forConditional: try predicate(args[0], depth: depth, legacy: false),
                                    trueExpression: try sub(1), falseExpression: try sub(2))
            }
            var arguments: [NSExpression] = []
            for i in 0..<args.count {
                if i % 2 == 0 && i != args.count - 1 {
                    arguments.append(constant(try predicate(args[i], depth: depth, legacy: false)))
                } else {
                    arguments.append(try sub(i))
                }
            }
            return NSExpression(forFunction: "MGL_IF", arguments: arguments)
        case "match":
            guard args.count >= 4, args.count % 2 == 0 else {
                throw invalid("\"match\" takes an input, pairs of labels and outputs and a fallback output, not \(args.count) arguments")
            }
            var arguments = [try sub(0)]
            for i in 1..<args.count {
                if i % 2 == 1 && i != args.count - 1, case .array = args[i] {
                    arguments.append(data(args[i]))
                } else {
                    arguments.append(try sub(i))
                }
            }
            return NSExpression(forFunction: "MGL_MATCH", arguments: arguments)
        default:
            return try generic()
        }
    }

    static func cast(_ operand: NSExpression, to type: String) -> NSExpression {
        NSExpression(forFunction: "castObject:toType:", arguments: [operand, constant(type)])
    }

    /// A constant colour when the components are constant numbers in range (otherwise the style
    /// language would reject them when evaluated, and a colour would clamp them silently).
    private static func constantColor(_ components: [NSExpression]) -> UIColor? {
        var values: [Double] = []
        for component in components {
            guard case .constant(.number(let n), _) = component.node, n.isFinite else { return nil }
            values.append(n)
        }
        guard values.prefix(3).allSatisfy({ (0...255).contains($0) }), values.count == 3 || (0...1).contains(values[3]) else { return nil }
        return UIColor(red: values[0] / 255, green: values[1] / 255, blue: values[2] / 255, alpha: values.count == 4 ? values[3] : 1)
    }

    private static func interpolation(_ args: [JSONValue], depth: Int) throws(MGLExpressionError) -> NSExpression {
        guard args.count >= 4, args.count % 2 == 0 else {
            throw invalid("\"interpolate\" takes a curve, an input and pairs of stops and outputs, not \(args.count) arguments")
        }
        guard case .array(let curve) = args[0], case .string(let curveType)? = curve.first else {
            throw invalid("\"interpolate\"'s curve is [\"linear\"], [\"exponential\", base] or [\"cubic-bezier\", x1, y1, x2, y2]")
        }
        let parameters: NSExpression
        switch (curveType, curve.count) {
        case ("linear", 1): parameters = constant(nil)
        case ("exponential", 2): parameters = try expression(curve[1], depth: depth)
        case ("cubic-bezier", 5):
            var points: [NSExpression] = []
            for point in curve.dropFirst() { points.append(try expression(point, depth: depth)) }
            parameters = NSExpression(forAggregate: points)
        default:
            throw invalid("\"interpolate\"'s curve is [\"linear\"], [\"exponential\", base] or [\"cubic-bezier\", x1, y1, x2, y2], not \(curve.count) elements starting \"\(curveType)\"")
        }
        let stops = try stopDictionary(Array(args[2...]), op: "interpolate", depth: depth)
        return NSExpression(forFunction: "mgl_interpolate:withCurveType:parameters:stops:",
                            arguments: [try expression(args[1], depth: depth), constant(curveType), parameters, constant(stops)])
    }

    /// Stop pairs as a dictionary of numbers to expressions.
    private static func stopDictionary(_ pairs: [JSONValue], op: String, depth: Int) throws(MGLExpressionError) -> [Double: NSExpression] {
        var stops: [Double: NSExpression] = [:]
        for i in stride(from: 0, to: pairs.count, by: 2) {
            guard case .number(let key) = pairs[i] else { throw invalid("\"\(op)\"'s stop inputs are numbers, not \(pairs[i].typeName)") }
            guard stops[key] == nil else { throw invalid("\"\(op)\" has the stop \(FormatWriter.number(key)) twice") }
            stops[key] = try expression(pairs[i + 1], depth: depth)
        }
        return stops
    }

    // MARK: - NSExpression → JSON

    static func json(_ e: NSExpression, depth: Int = 0) throws(MGLExpressionError) -> JSONValue {
        guard depth < maximumDepth else { throw unsupported("the expression is nested more than \(maximumDepth) levels deep") }
        switch e.node {
        case .constant(let c, _): return try constantJSON(c, depth: depth + 1)
        case .variable(let name):
            if let op = variableOperators[name] { return .array([.string(op)]) }
            return .array([.string("var"), .string(name)])
        case .keyPath(let path):
            var result: JSONValue?
            for component in path.split(separator: ".", omittingEmptySubsequences: false) {
                var get: [JSONValue] = [.string("get"), .string(String(component))]
                if let inner = result { get.append(inner) }
                result = .array(get)
            }
            return result!
        case .aggregate(let items):
            return .array([.string("literal"), .array(try literals(items, depth: depth + 1))])
        case .conditional(let p, let t, let f):
            return .array([.string("case"), try predicateJSON(p, depth: depth + 1), try json(t, depth: depth + 1), try json(f, depth: depth + 1)])
        case .evaluatedObject:
            throw unsupported("SELF has no style-language counterpart outside mgl_does:have: and FUNCTION(SELF, 'mgl_has:', …)")
        case .function(let name, let target, let arguments):
            if let target { return try targetFunctionJSON(name, target: target, arguments: arguments, depth: depth + 1) }
            return try functionJSON(name, arguments: arguments, depth: depth + 1)
        }
    }

    private static func jsons(_ items: [NSExpression], depth: Int) throws(MGLExpressionError) -> [JSONValue] {
        var out: [JSONValue] = []
        out.reserveCapacity(items.count)
        for item in items { out.append(try json(item, depth: depth)) }
        return out
    }

    private static func constantJSON(_ c: Constant, depth: Int) throws(MGLExpressionError) -> JSONValue {
        switch c {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .number(let n):
            if n == M_E { return .array([.string("e")]) }
            if n == Double.pi { return .array([.string("pi")]) }
            guard n.isFinite else { throw unsupported("\(n) has no style-language counterpart") }
            return .number(n)
        case .string(let s): return .string(s)
        case .color(let color): return colorExpression(color)
        case .insets, .array, .dictionary: return .array([.string("literal"), try literal(c, depth: depth)])
        case .predicate(let p): return try predicateJSON(p, depth: depth)
        case .type(let name): throw unsupported("the class \(name) has no style-language counterpart outside colorWithRed:green:blue:alpha:")
        case .unsupported(let type, let description):
            throw unsupported("a constant \(type) (\(description)) has no style-language counterpart")
        }
    }

    /// A colour as Mapbox writes it: `["rgb", r, g, b]` with components from 0 to 255 when opaque,
    /// `["rgba", r, g, b, a]` otherwise.
    static func colorExpression(_ color: UIColor) -> JSONValue {
        func component(_ v: CGFloat) -> JSONValue { .number((Double(v) * 255 * 1e9).rounded() / 1e9) }
        if color.alpha == 1 { return .array([.string("rgb"), component(color.red), component(color.green), component(color.blue)]) }
        return .array([.string("rgba"), component(color.red), component(color.green), component(color.blue), .number(Double(color.alpha))])
    }

    /// A colour as data: the CSS string the style language reads colours from.
    private static func cssColor(_ color: UIColor) -> String {
        func c(_ v: CGFloat) -> String { FormatWriter.number((Double(v) * 255).rounded()) }
        return "rgba(\(c(color.red)),\(c(color.green)),\(c(color.blue)),\(FormatWriter.number(Double(color.alpha))))"
    }

    /// A constant as data inside `literal`.
    private static func literal(_ c: Constant, depth: Int) throws(MGLExpressionError) -> JSONValue {
        guard depth < maximumDepth else { throw unsupported("the expression is nested more than \(maximumDepth) levels deep") }
        switch c {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .number(let n):
            guard n.isFinite else { throw unsupported("\(n) has no style-language counterpart") }
            return .number(n)
        case .string(let s): return .string(s)
        case .color(let color): return .string(cssColor(color))
        case .insets(let i): return .array([i.top, i.right, i.bottom, i.left].map { .number(Double($0)) })
        case .array(let items): return .array(try literals(items, depth: depth + 1))
        case .dictionary(let entries):
            var members: [(key: String, value: JSONValue)] = []
            for key in entries.keys.sorted() {
                let name = switch key { case .number(let n): FormatWriter.number(n); case .string(let s): s }
                members.append((name, try literal(entries[key]!, depth: depth + 1)))
            }
            return .object(JSONObject(members))
        case .predicate, .type, .unsupported:
            throw unsupported("an array or dictionary value holds only constants, not \(FormatWriter.constant(c))")
        }
    }

    private static func literal(_ e: NSExpression, depth: Int) throws(MGLExpressionError) -> JSONValue {
        switch e.node {
        case .constant(let c, _): return try literal(c, depth: depth)
        case .aggregate(let items): return .array(try literals(items, depth: depth + 1))
        default: throw unsupported("an array or dictionary value holds only constants, not \(e)")
        }
    }

    private static func literals(_ items: [NSExpression], depth: Int) throws(MGLExpressionError) -> [JSONValue] {
        var out: [JSONValue] = []
        out.reserveCapacity(items.count)
        for item in items { out.append(try literal(item, depth: depth)) }
        return out
    }

    /// The elements of an aggregate or a constant array argument (`sum:({1, 2})`, `mgl_coalesce(%@)`),
    /// nil for another kind of argument.
    static func collection(_ e: NSExpression) -> [NSExpression]? {
        switch e.node {
        case .aggregate(let items): items
        case .constant(.array(let items), _): items
        default: nil
        }
    }

    private static func argument(_ arguments: [NSExpression], _ i: Int, of name: String) throws(MGLExpressionError) -> NSExpression {
        guard i < arguments.count else {
            throw unsupported("too few arguments to '\(name)': \(arguments.count)")
        }
        return arguments[i]
    }

    private static func expectCount(_ arguments: [NSExpression], _ count: Int, of name: String) throws(MGLExpressionError) {
        guard arguments.count == count else {
            throw unsupported("'\(name)' takes \(count) argument\(count == 1 ? "" : "s"), not \(arguments.count)")
        }
    }

    /// The arguments spread from one collection argument (`sum:({a, b})`), or as they are (`sum:(a, b)`).
    private static func spread(_ arguments: [NSExpression], depth: Int) throws(MGLExpressionError) -> [JSONValue] {
        if arguments.count == 1, let items = collection(arguments[0]) { return try jsons(items, depth: depth) }
        return try jsons(arguments, depth: depth)
    }

    private static func functionJSON(_ name: String, arguments: [NSExpression], depth: Int) throws(MGLExpressionError) -> JSONValue {
        if let op = operatorsByFunction[name] {
            var items: [JSONValue] = [.string(op)]
            for (i, argument) in arguments.enumerated() {
                // MGL_LET's variable names: a bare name (a key path in the format string) is the name.
                if op == "let", i % 2 == 0, i != arguments.count - 1, case .keyPath(let variable) = argument.node {
                    items.append(.string(variable))
                } else {
                    items.append(try json(argument, depth: depth))
                }
            }
            return .array(items)
        }
        if unsupportedFunctions.contains(name) { throw unsupported("the function \(name) has no style-language counterpart") }
        switch name {
        case "average:":
            let operand = try argument(arguments, 0, of: name)
            let sum = NSExpression(forFunction: "sum:", arguments: arguments)
            let count = NSExpression(forFunction: "count:", arguments: [operand])
            return .array([.string("/"), try json(sum, depth: depth), try json(count, depth: depth)])
        case "sum:":
            return .array([.string("+")] + (try spread(arguments, depth: depth)))
        case "min:", "max:":
            return .array([.string(String(name.dropLast()))] + (try spread(arguments, depth: depth)))
        case "mgl_join:":
            return .array([.string("concat")] + (try spread(arguments, depth: depth)))
        case "count:":
            return .array([.string("length"), try json(try argument(arguments, 0, of: name), depth: depth)])
        case "exp:":
            return .array([.string("^"), .array([.string("e")]), try json(try argument(arguments, 0, of: name), depth: depth)])
        case "trunc:":
            let x = try json(try argument(arguments, 0, of: name), depth: depth)
            return .array([.string("-"), x, .array([.string("%"), x, .number(1)])])
        case "noindex:":
            return try json(try argument(arguments, 0, of: name), depth: depth)
        case "objectFrom:withIndex:":
            try expectCount(arguments, 2, of: name)
            let array = try json(arguments[0], depth: depth)
            var index = try json(arguments[1], depth: depth)
            if case .constant(.string(let position), _) = arguments[1].node {
                switch position {
                case "FIRST": index = .number(0)
                case "LAST": index = .array([.string("-"), .array([.string("length"), array]), .number(1)])
                case "SIZE": return .array([.string("length"), array])
                default: break
                }
            }
            return .array([.string("at"), index, array])
        case "mgl_does:have:":
            try expectCount(arguments, 2, of: name)
            return try hasJSON(object: arguments[0], key: arguments[1], depth: depth)
        case "mgl_interpolate:withCurveType:parameters:stops:":
            try expectCount(arguments, 4, of: name)
            return try interpolationJSON(input: arguments[0], curve: arguments[1], parameters: arguments[2], stops: arguments[3],
                                         name: name, depth: depth)
        case "mgl_step:from:stops:":
            try expectCount(arguments, 3, of: name)
            return try stepJSON(input: arguments[0], minimum: arguments[1], stops: arguments[2], name: name, depth: depth)
        case "MGL_IF", "MGL_IF:":
            return try caseJSON(arguments, depth: depth)
        case "MGL_MATCH", "MGL_MATCH:":
            return try matchJSON(arguments, depth: depth)
        case "mgl_coalesce:":
            return .array([.string("coalesce")] + (try spread(arguments, depth: depth)))
        case "castObject:toType:":
            try expectCount(arguments, 2, of: name)
            return try castJSON(arguments[0], type: arguments[1], depth: depth)
        case "MGL_FUNCTION", "MGL_FUNCTION:":
            return try genericJSON(arguments, depth: depth)
        case "mgl_attributed:":
            throw unsupported("mgl_attributed: (MGLAttributedExpression) is not supported; write MGL_FUNCTION('format', …)")
        default:
            throw unsupported("the function \(name) is not one the style language has")
        }
    }

    private static func targetFunctionJSON(_ name: String, target: NSExpression, arguments: [NSExpression],
                                           depth: Int) throws(MGLExpressionError) -> JSONValue {
        switch name {
        case "valueForKey:", "valueForKeyPath:":
            try expectCount(arguments, 1, of: name)
            var get: [JSONValue] = [.string("get"), try json(arguments[0], depth: depth)]
            if case .evaluatedObject = target.node {} else { get.append(try json(target, depth: depth)) }
            return .array(get)
        case "boolValue":
            return .array([.string("to-boolean"), try json(target, depth: depth)])
        case "mgl_number", "mgl_numberWithFallbackValues:", "decimalValue", "floatValue", "doubleValue":
            return .array([.string("to-number"), try json(target, depth: depth)] + (try jsons(arguments, depth: depth)))
        case "stringValue":
            return .array([.string("to-string"), try json(target, depth: depth)])
        case "mgl_has:":
            try expectCount(arguments, 1, of: name)
            return try hasJSON(object: target, key: arguments[0], depth: depth)
        case "mgl_interpolateWithCurveType:parameters:stops:":
            try expectCount(arguments, 3, of: name)
            return try interpolationJSON(input: target, curve: arguments[0], parameters: arguments[1], stops: arguments[2],
                                         name: name, depth: depth)
        case "mgl_stepWithMinimum:stops:":
            try expectCount(arguments, 2, of: name)
            return try stepJSON(input: target, minimum: arguments[0], stops: arguments[1], name: name, depth: depth)
        case "mgl_expressionWithContext:":
            try expectCount(arguments, 1, of: name)
            guard case .constant(.dictionary(let context), _) = arguments[0].node else {
                throw unsupported("mgl_expressionWithContext: takes a dictionary of variable names to values")
            }
            var items: [JSONValue] = [.string("let")]
            for key in context.keys.sorted() {
                guard case .string(let variable) = key else { throw unsupported("mgl_expressionWithContext:'s variable names are strings") }
                items.append(.string(variable))
                items.append(try json(context[key]!, depth: depth))
            }
            items.append(try json(target, depth: depth))
            return .array(items)
        case "mgl_if:":
            guard let rest = arguments.first.flatMap(collection) else { throw unsupported("mgl_if: takes an array of outputs and conditions") }
            return try caseJSON([target] + rest, depth: depth)
        case "mgl_match:":
            guard let rest = arguments.first.flatMap(collection) else { throw unsupported("mgl_match: takes an array of labels and outputs") }
            return try matchJSON([target] + rest, depth: depth)
        case "mgl_coalesce", "mgl_coalesce:":
            guard let items = collection(target) else { throw unsupported("\(name) takes an array of expressions as its target") }
            return .array([.string("coalesce")] + (try jsons(items, depth: depth)))
        case "stringByAppendingString:":
            return .array([.string("concat"), try json(target, depth: depth)] + (try jsons(arguments, depth: depth)))
        case "colorWithRed:green:blue:alpha:":
            guard case .constant(.type(let type), _) = target.node, ["UIColor", "NSColor", "MGLColor"].contains(type) else {
                throw unsupported("colorWithRed:green:blue:alpha: is called on UIColor")
            }
            try expectCount(arguments, 4, of: name)
            return .array([.string("rgba")] + (try jsons(arguments, depth: depth)))
        default:
            throw unsupported("FUNCTION(…, '\(name)') is not a function the style language has")
        }
    }

    private static func hasJSON(object: NSExpression, key: NSExpression, depth: Int) throws(MGLExpressionError) -> JSONValue {
        var items: [JSONValue] = [.string("has"), try json(key, depth: depth)]
        if case .evaluatedObject = object.node {} else { items.append(try json(object, depth: depth)) }
        return .array(items)
    }

    private static func stops(_ e: NSExpression, name: String, depth: Int) throws(MGLExpressionError) -> [JSONValue] {
        guard case .constant(.dictionary(let entries), _) = e.node else {
            throw unsupported("\(name)'s stops are a dictionary of numbers to values, not \(e)")
        }
        guard !entries.isEmpty else { throw unsupported("the stops dictionary of \(name) must not be empty") }
        var out: [JSONValue] = []
        for key in entries.keys.sorted() {
            guard case .number(let n) = key else { throw unsupported("\(name)'s stops are keyed by numbers, not strings") }
            out.append(.number(n))
            out.append(try json(entries[key]!, depth: depth))
        }
        return out
    }

    private static func interpolationJSON(input: NSExpression, curve: NSExpression, parameters: NSExpression, stops stopsExpression: NSExpression,
                                          name: String, depth: Int) throws(MGLExpressionError) -> JSONValue {
        guard case .constant(.string(let curveType), _) = curve.node else {
            throw unsupported("\(name)'s curve type is 'linear', 'exponential' or 'cubic-bezier', not \(curve)")
        }
        var curveJSON: [JSONValue] = [.string(curveType)]
        switch curveType {
        case "linear": break
        case "exponential": curveJSON.append(try json(parameters, depth: depth))
        case "cubic-bezier":
            guard let points = collection(parameters), points.count == 4 else {
                throw unsupported("a cubic-bezier curve's parameters are four numbers, not \(parameters)")
            }
            curveJSON += try jsons(points, depth: depth)
        default:
            throw unsupported("\(name)'s curve type is 'linear', 'exponential' or 'cubic-bezier', not '\(curveType)'")
        }
        return .array([.string("interpolate"), .array(curveJSON), try json(input, depth: depth)]
                      + (try stops(stopsExpression, name: name, depth: depth)))
    }

    private static func stepJSON(input: NSExpression, minimum: NSExpression, stops stopsExpression: NSExpression, name: String,
                                 depth: Int) throws(MGLExpressionError) -> JSONValue {
        .array([.string("step"), try json(input, depth: depth), try json(minimum, depth: depth)]
               + (try stops(stopsExpression, name: name, depth: depth)))
    }

    /// `MGL_IF(condition, output, …, fallback)`: conditions are predicates (constants holding them).
    private static func caseJSON(_ arguments: [NSExpression], depth: Int) throws(MGLExpressionError) -> JSONValue {
        guard arguments.count >= 3, arguments.count % 2 == 1 else {
            throw unsupported("MGL_IF takes pairs of conditions and outputs and a fallback output, not \(arguments.count) arguments")
        }
        return .array([.string("case")] + (try jsons(arguments, depth: depth)))
    }

    /// `MGL_MATCH(input, label, output, …, fallback)`: labels that are arrays are written bare, as
    /// `match` takes them.
    private static func matchJSON(_ arguments: [NSExpression], depth: Int) throws(MGLExpressionError) -> JSONValue {
        guard arguments.count >= 4, arguments.count % 2 == 0 else {
            throw unsupported("MGL_MATCH takes an input, pairs of labels and outputs and a fallback output, not \(arguments.count) arguments")
        }
        var items: [JSONValue] = [.string("match")]
        for (i, argument) in arguments.enumerated() {
            if i % 2 == 1, i != arguments.count - 1, let labels = collection(argument) {
                items.append(.array(try literals(labels, depth: depth)))
            } else {
                items.append(try json(argument, depth: depth))
            }
        }
        return .array(items)
    }

    private static func castJSON(_ operand: NSExpression, type: NSExpression, depth: Int) throws(MGLExpressionError) -> JSONValue {
        guard case .constant(.string(let typeName), _) = type.node else { throw unsupported("CAST's type is a class name, not \(type)") }
        switch typeName {
        case "NSString": return .array([.string("to-string"), try json(operand, depth: depth)])
        case "NSNumber": return .array([.string("to-number"), try json(operand, depth: depth)])
        case "UIColor", "NSColor", "MGLColor": return .array([.string("to-color"), try json(operand, depth: depth)])
        case "NSArray":
            var inner = operand
            if case .function("noindex:", nil, let arguments) = operand.node, arguments.count == 1 { inner = arguments[0] }
            switch inner.node {
            case .constant(.color, _): break
            case .constant: throw unsupported("CAST(…, 'NSArray') converts a colour to its components; \(inner) is not a colour")
            default: break
            }
            return .array([.string("to-rgba"), try json(operand, depth: depth)])
        default:
            throw unsupported("casting to \(typeName) is not supported (NSString, NSNumber, UIColor, NSColor and NSArray are)")
        }
    }

    /// `MGL_FUNCTION('operator', arguments…)`: the operator with its arguments as they are; object
    /// arguments of operators that take objects (`collator`, `format` …) are written bare.
    private static func genericJSON(_ arguments: [NSExpression], depth: Int) throws(MGLExpressionError) -> JSONValue {
        guard let first = arguments.first, case .constant(.string(let op), _) = first.node else {
            throw unsupported("MGL_FUNCTION's first argument is the operator's name in quotes")
        }
        var items: [JSONValue] = [.string(op)]
        for argument in arguments.dropFirst() {
            if rawObjectOperators.contains(op), case .constant(.dictionary, _) = argument.node {
                items.append(try literal(argument, depth: depth))
            } else {
                items.append(try json(argument, depth: depth))
            }
        }
        return .array(items)
    }
}
