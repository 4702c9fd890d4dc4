import Foundation

/// How the parser reconciles an argument's type with what its parent expects.
enum TypeAnnotation { case assert, coerce, omit }

/// Errors are shared by a parse and its nested parses; signature trials use their own list.
final class ErrorList {
    var items: [ExpressionError.Item] = []
}

/// One position in the expression being parsed: its key path, the expected type and the `let`
/// bindings in scope.
struct ParsingContext {
    var key: String
    var expected: ExpressionType?
    var scope: [(String, any ExprNode)]
    var errors: ErrorList
    /// How many expressions enclose this one. Parsing recurses once per level with a large
    /// frame, so depth is capped (``maximumDepth``) to keep hostile styles from exhausting a
    /// thread's stack; real styles nest a dozen levels at most.
    var depth = 0

    static let maximumDepth = 64

    func error(_ message: String, _ keys: Int...) {
        errors.items.append(ExpressionError.Item(key: key + keys.map { "[\($0)]" }.joined(), message: message))
    }

    /// Records a subtype mismatch at this position; true when there was one.
    @discardableResult
    func checkSubtype(_ expected: ExpressionType, _ t: ExpressionType) -> Bool {
        if let m = MapStyle.checkSubtype(expected, t) { error(m); return true }
        return false
    }

    func child(_ index: Int, expected: ExpressionType?, scope: [(String, any ExprNode)]? = nil) -> ParsingContext {
        ParsingContext(key: key + "[\(index)]", expected: expected, scope: scope ?? self.scope, errors: errors, depth: depth + 1)
    }

    func parse(_ json: JSONValue, _ index: Int, _ expected: ExpressionType?, bindings: [(String, any ExprNode)] = [],
               annotation: TypeAnnotation? = nil) -> (any ExprNode)? {
        child(index, expected: expected, scope: scope + bindings).parseHere(json, annotation: annotation)
    }

    /// Parses `json` at this context's own key.
    func parseHere(_ json: JSONValue, annotation: TypeAnnotation? = nil) -> (any ExprNode)? {
        guard depth <= Self.maximumDepth else {
            error("Expression nested more than \(Self.maximumDepth) levels deep.")
            return nil
        }
        var parsed: any ExprNode
        switch json {
        case .null, .bool, .number, .string:
            return parseHere(.array([.string("literal"), json]), annotation: annotation)
        case .object:
            error("Bare objects invalid. Use [\"literal\", {...}] instead.")
            return nil
        case .array(let items):
            guard let first = items.first else {
                error("Expected an array with at least one element. If you wanted a literal array, use [\"literal\", []].")
                return nil
            }
            guard case .string(let op) = first else {
                error("Expression name must be a string, but found \(first.typeName) instead. If you wanted a literal array, use [\"literal\", [...]].", 0)
                return nil
            }
            guard let p = parseOperator(op, items) else {
                if !knownOperator(op) {
                    error("Unknown expression \"\(op)\". If you wanted a literal array, use [\"literal\", [...]].", 0)
                }
                return nil
            }
            parsed = p
        }
        if let expected {
            let actual = parsed.type
            switch expected {
            case .string, .number, .boolean, .object, .array:
                if actual == .value { parsed = annotate(parsed, expected, annotation ?? .assert) } else if checkSubtype(expected, actual) { return nil }
            case .color, .formatted, .resolvedImage:
                if actual == .value || actual == .string { parsed = annotate(parsed, expected, annotation ?? .coerce) } else if checkSubtype(expected, actual) { return nil }
            case .padding, .numberArray:
                if actual == .value || actual == .number || actual.isArray { parsed = annotate(parsed, expected, annotation ?? .coerce) } else if checkSubtype(expected, actual) { return nil }
            case .colorArray:
                if actual == .value || actual == .string || actual.isArray { parsed = annotate(parsed, expected, annotation ?? .coerce) } else if checkSubtype(expected, actual) { return nil }
            case .projectionDefinition:
                if actual == .value || actual == .string || actual.isArray { parsed = annotate(parsed, expected, annotation ?? .coerce) } else if checkSubtype(expected, actual) { return nil }
            default:
                if checkSubtype(expected, actual) { return nil }
            }
        }
        // Constant folding: anything that reads nothing from the feature or camera is computed once.
        if !(parsed is LiteralNode), !(parsed is VarNode), parsed.allDependencies.isEmpty {
            do {
                let value = try parsed.evaluate(EvaluationContext())
                return LiteralNode(value, type: parsed.type)
            } catch {
                self.error(error.message)
                return nil
            }
        }
        return parsed
    }

    private func annotate(_ node: any ExprNode, _ type: ExpressionType, _ how: TypeAnnotation) -> any ExprNode {
        switch how {
        case .assert: AssertionNode(type, [node])
        case .coerce: CoercionNode(type, [node])
        case .omit: node
        }
    }
}

extension ParsingContext {
    func knownOperator(_ op: String) -> Bool {
        specialOperators.contains(op) || compoundDefinitions[op] != nil
    }

    func parseOperator(_ op: String, _ args: [JSONValue]) -> (any ExprNode)? {
        let argc = args.count - 1
        switch op {
        case "literal", "semiliteral":
            guard args.count == 2 else {
                error("'\(op)' expression requires exactly one argument, but found \(argc) instead.")
                return nil
            }
            if op == "semiliteral", case .array(let items) = args[1] {
                var nodes: [any ExprNode] = []
                for (i, item) in items.enumerated() {
                    let c = ParsingContext(key: key + "[1]", expected: nil, scope: scope, errors: errors, depth: depth + 1)
                    guard let n = c.parse(item, i, nil) else { return nil }
                    nodes.append(n)
                }
                var item: ExpressionType?
                for n in nodes { if item == nil { item = n.type } else if item != n.type { item = .value } }
                return ArrayNode(type: .array(item ?? .value, nodes.count), items: nodes)
            }
            let value = ExpressionValue(args[1])
            var type = value.type
            if case .array(_, 0) = type, let expected, case .array(_, let n) = expected, n == nil || n == 0 { type = expected }
            return LiteralNode(value, type: type)

        case "array", "number", "string", "boolean", "object":
            guard args.count >= 2 else { error("Expected at least one argument."); return nil }
            var i = 1
            var type: ExpressionType
            if op == "array" {
                var item = ExpressionType.value
                var n: Int?
                if args.count > 2 {
                    guard case .string(let name) = args[1], ["string", "number", "boolean"].contains(name) else {
                        error("The item type argument of \"array\" must be one of string, number, boolean", 1)
                        return nil
                    }
                    item = ExpressionType.named(name)!
                    i += 1
                }
                if args.count > 3 {
                    if args[2] != .null {
                        guard case .number(let len) = args[2], len >= 0, len == len.rounded(.down) else {
                            error("The length argument to \"array\" must be a positive integer literal", 2)
                            return nil
                        }
                        n = Int(len)
                    }
                    i += 1
                }
                type = .array(item, n)
            } else {
                type = ExpressionType.named(op)!
            }
            var parsed: [any ExprNode] = []
            while i < args.count {
                guard let p = parse(args[i], i, .value) else { return nil }
                parsed.append(p)
                i += 1
            }
            return AssertionNode(type, parsed)

        case "to-boolean", "to-number", "to-string", "to-color":
            guard args.count >= 2 else { error("Expected at least one argument."); return nil }
            if (op == "to-boolean" || op == "to-string") && args.count != 2 { error("Expected one argument."); return nil }
            var parsed: [any ExprNode] = []
            for i in 1..<args.count {
                guard let p = parse(args[i], i, .value) else { return nil }
                parsed.append(p)
            }
            let type: ExpressionType = op == "to-boolean" ? .boolean : op == "to-number" ? .number : op == "to-string" ? .string : .color
            return CoercionNode(type, parsed)

        case "let":
            guard args.count >= 4 else { error("Expected at least 3 arguments, but found \(argc) instead."); return nil }
            var bindings: [(String, any ExprNode)] = []
            var i = 1
            while i < args.count - 1 {
                guard case .string(let name) = args[i] else {
                    error("Expected string, but found \(args[i].typeName) instead.", i)
                    return nil
                }
                if name.unicodeScalars.contains(where: { !(($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || $0 == "_") }) {
                    error("Variable names must contain only alphanumeric characters or '_'.", i)
                    return nil
                }
                guard let value = parse(args[i + 1], i + 1, nil) else { return nil }
                bindings.append((name, value))
                i += 2
            }
            guard let result = parse(args[args.count - 1], args.count - 1, expected, bindings: bindings) else { return nil }
            return LetNode(bindings: bindings, result: result)

        case "var":
            guard args.count == 2, case .string(let name) = args[1] else {
                error("'var' expression requires exactly one string literal argument.")
                return nil
            }
            guard let bound = scope.last(where: { $0.0 == name })?.1 else {
                error("Unknown variable \"\(name)\". Make sure \"\(name)\" has been bound in an enclosing \"let\" expression before using it.", 1)
                return nil
            }
            return VarNode(name: name, bound: bound)

        case "case":
            guard args.count >= 4 else { error("Expected at least 3 arguments, but found only \(argc)."); return nil }
            guard args.count % 2 == 0 else { error("Expected an odd number of arguments."); return nil }
            var outputType = expected == .value ? nil : expected
            var branches: [(any ExprNode, any ExprNode)] = []
            var i = 1
            while i < args.count - 1 {
                guard let test = parse(args[i], i, .boolean), let result = parse(args[i + 1], i + 1, outputType) else { return nil }
                outputType = outputType ?? result.type
                branches.append((test, result))
                i += 2
            }
            guard let otherwise = parse(args[args.count - 1], args.count - 1, outputType) else { return nil }
            return CaseNode(type: outputType ?? otherwise.type, branches: branches, otherwise: otherwise)

        case "match":
            return parseMatch(args)

        case "coalesce":
            guard args.count >= 2 else { error("Expectected at least one argument."); return nil }
            var outputType = expected == .value ? nil : expected
            var parsed: [any ExprNode] = []
            for i in 1..<args.count {
                guard let p = parse(args[i], i, outputType, annotation: .omit) else { return nil }
                outputType = outputType ?? p.type
                parsed.append(p)
            }
            let needsAnnotation = expected != nil && parsed.contains { MapStyle.checkSubtype(expected!, $0.type) != nil }
            return CoalesceNode(type: needsAnnotation ? .value : outputType ?? .value, args: parsed)

        case "step":
            guard argc >= 4 else { error("Expected at least 4 arguments, but found only \(argc)."); return nil }
            guard argc % 2 == 0 else { error("Expected an even number of arguments."); return nil }
            guard let input = parse(args[1], 1, .number) else { return nil }
            var outputType = expected == .value ? nil : expected
            var labels: [Double] = [-.infinity]
            guard let first = parse(args[2], 2, outputType) else { return nil }
            outputType = outputType ?? first.type
            var outputs = [first]
            var i = 3
            while i < args.count {
                guard case .number(let label) = args[i] else {
                    error("Input/output pairs for \"step\" expressions must be defined using literal numeric values (not computed expressions) for the input values.", i)
                    return nil
                }
                if let last = labels.last, last >= label {
                    error("Input/output pairs for \"step\" expressions must be arranged with input values in strictly ascending order.", i)
                    return nil
                }
                guard let out = parse(args[i + 1], i + 1, outputType) else { return nil }
                labels.append(label); outputs.append(out)
                i += 2
            }
            return StepNode(type: outputType!, input: input, labels: labels, outputs: outputs)

        case "interpolate", "interpolate-hcl", "interpolate-lab":
            return parseInterpolate(op, args)

        case "==", "!=", "<", "<=", ">", ">=":
            return parseComparison(op, args)

        case "at":
            guard args.count == 3 else { error("Expected 2 arguments, but found \(argc) instead."); return nil }
            guard let index = parse(args[1], 1, .number),
                  let input = parse(args[2], 2, .array(expected ?? .value, nil)) else { return nil }
            return AtNode(type: input.type.itemType ?? .value, index: index, input: input)

        case "in", "index-of":
            let isIndex = op == "index-of"
            if isIndex ? !(args.count == 3 || args.count == 4) : args.count != 3 {
                error(isIndex ? "Expected 2 or 3 arguments, but found \(argc) instead." : "Expected 2 arguments, but found \(argc) instead.")
                return nil
            }
            guard let needle = parse(args[1], 1, .value), let haystack = parse(args[2], 2, .value) else { return nil }
            guard [.boolean, .string, .number, .null, .value].contains(needle.type) else {
                error("Expected first argument to be of type boolean, string, number or null, but found \(needle.type) instead")
                return nil
            }
            guard haystack.type.isArray || haystack.type == .string || haystack.type == .value else {
                error("Expected second argument to be of type array or string, but found \(haystack.type) instead")
                return nil
            }
            var from: (any ExprNode)?
            if args.count == 4 { guard let f = parse(args[3], 3, .number) else { return nil }; from = f }
            return SearchNode(returnsIndex: isIndex, needle: needle, haystack: haystack, fromIndex: from)

        case "slice":
            guard args.count == 3 || args.count == 4 else { error("Expected 2 or 3 arguments, but found \(argc) instead."); return nil }
            guard let input = parse(args[1], 1, .value), let start = parse(args[2], 2, .number) else { return nil }
            guard input.type.isArray || input.type == .string || input.type == .value else {
                error("Expected first argument to be of type array or string, but found \(input.type) instead")
                return nil
            }
            var end: (any ExprNode)?
            if args.count == 4 { guard let e = parse(args[3], 3, .number) else { return nil }; end = e }
            return SliceNode(type: input.type, input: input, start: start, end: end)

        case "length":
            guard args.count == 2 else { error("Expected 1 argument, but found \(argc) instead."); return nil }
            guard let input = parse(args[1], 1, nil) else { return nil }
            guard input.type.isArray || input.type == .string || input.type == .value else {
                error("Expected argument of type string or array, but found \(input.type) instead.")
                return nil
            }
            return LengthNode(input: input)

        case "collator":
            guard args.count == 2 else { error("Expected one argument."); return nil }
            guard case .object(let options) = args[1] else { error("Collator options argument must be an object."); return nil }
            guard let cs = parse(options["case-sensitive"] ?? .bool(false), 1, .boolean),
                  let ds = parse(options["diacritic-sensitive"] ?? .bool(false), 1, .boolean) else { return nil }
            var locale: (any ExprNode)?
            if let l = options["locale"] { guard let p = parse(l, 1, .string) else { return nil }; locale = p }
            return CollatorNode(caseSensitive: cs, diacriticSensitive: ds, locale: locale)

        case "format":
            return parseFormat(args)

        case "number-format":
            guard args.count == 3 else { error("Expected two arguments."); return nil }
            guard let number = parse(args[1], 1, .number) else { return nil }
            guard case .object(let options) = args[2] else { error("NumberFormat options argument must be an object."); return nil }
            func opt(_ name: String, _ type: ExpressionType) -> (ok: Bool, node: (any ExprNode)?) {
                guard let v = options[name] else { return (true, nil) }
                guard let p = parse(v, 1, type) else { return (false, nil) }
                return (true, p)
            }
            let locale = opt("locale", .string), currency = opt("currency", .string), unit = opt("unit", .string)
            let minF = opt("min-fraction-digits", .number), maxF = opt("max-fraction-digits", .number)
            guard locale.ok, currency.ok, unit.ok, minF.ok, maxF.ok else { return nil }
            if currency.node != nil && unit.node != nil {
                error("NumberFormat options `currency` and `unit` are mutually exclusive")
                return nil
            }
            return NumberFormatNode(number: number, locale: locale.node, currency: currency.node, unit: unit.node,
                                    minFraction: minF.node, maxFraction: maxF.node)

        case "image":
            guard args.count >= 2 else { error("Expected two or more arguments."); return nil }
            guard let name = parse(args[1], 1, .string) else { error("No image name provided."); return nil }
            return ImageNode(name: name)

        case "global-state":
            guard args.count == 2 else { error("Expected 1 argument, but found \(argc) instead."); return nil }
            guard case .string(let key) = args[1] else {
                let t: String = switch args[1] { case .array, .null, .object: "object"; default: args[1].typeName }
                error("Global state property must be string, but found \(t) instead.")
                return nil
            }
            return GlobalStateNode(key: key, type: .value)

        case "within", "distance":
            guard args.count == 2 else {
                error("'\(op)' expression requires exactly one argument, but found \(argc) instead.")
                return nil
            }
            guard let geometry = ExpressionGeometry(geoJSON: args[1]) else {
                error("'\(op)' expression requires valid geojson object that contains polygon geometry type.")
                return nil
            }
            if op == "within" {
                guard case .polygons(let polygons) = geometry else {
                    error("'within' expression requires valid geojson object that contains polygon geometry type.")
                    return nil
                }
                return WithinNode(polygons: polygons)
            }
            return DistanceNode(geometry: geometry)

        default:
            return parseCompound(op, args)
        }
    }

    private func parseMatch(_ args: [JSONValue]) -> (any ExprNode)? {
        let argc = args.count - 1
        guard args.count >= 5 else { error("Expected at least 4 arguments, but found only \(argc)."); return nil }
        guard args.count % 2 == 1 else { error("Expected an even number of arguments."); return nil }
        var inputType: ExpressionType?
        var outputType = expected == .value ? nil : expected
        var cases: [MatchKey: Int] = [:]
        var outputs: [any ExprNode] = []
        var i = 2
        while i < args.count - 1 {
            var labels: [JSONValue]
            if case .array(let a) = args[i] { labels = a } else { labels = [args[i]] }
            let labelContext = child(i, expected: nil)
            if labels.isEmpty { labelContext.error("Expected at least one branch label."); return nil }
            for label in labels {
                let key: MatchKey
                switch label {
                case .number(let n):
                    if abs(n) > 9007199254740991 {
                        labelContext.error("Branch labels must be integers no larger than \(9007199254740991).")
                        return nil
                    }
                    if n != n.rounded(.down) { labelContext.error("Numeric branch labels must be integer values."); return nil }
                    key = .number(n)
                case .string(let s): key = .string(s)
                default: labelContext.error("Branch labels must be numbers or strings."); return nil
                }
                let t: ExpressionType = label.numberValue != nil ? .number : .string
                if let inputType { if labelContext.checkSubtype(inputType, t) { return nil } } else { inputType = t }
                if cases[key] != nil { labelContext.error("Branch labels must be unique."); return nil }
                cases[key] = outputs.count
            }
            guard let result = parse(args[i + 1], i + 1, outputType) else { return nil }
            outputType = outputType ?? result.type
            outputs.append(result)
            i += 2
        }
        guard let input = parse(args[1], 1, .value) else { return nil }
        guard let otherwise = parse(args[args.count - 1], args.count - 1, outputType) else { return nil }
        if input.type != .value, child(1, expected: nil).checkSubtype(inputType!, input.type) { return nil }
        return MatchNode(type: outputType!, inputType: inputType!, input: input, cases: cases, outputs: outputs, otherwise: otherwise)
    }

    private func parseInterpolate(_ op: String, _ args: [JSONValue]) -> (any ExprNode)? {
        let argc = args.count - 1
        guard case .array(let interp) = args[1], case .string(let kind)? = interp.first else {
            if args.count > 1 { error("Expected an interpolation type expression.", 1) } else { error("Expected an interpolation type expression.") }
            return nil
        }
        var interpolation: Interpolation
        switch kind {
        case "linear": interpolation = .linear
        case "exponential":
            guard interp.count > 1, case .number(let base) = interp[1] else {
                error("Exponential interpolation requires a numeric base.", 1, 1)
                return nil
            }
            interpolation = .exponential(base)
        case "cubic-bezier":
            let p = interp.dropFirst().compactMap(\.numberValue)
            guard interp.count == 5, p.count == 4, (0...1).contains(p[0]), (0...1).contains(p[1]), (0...1).contains(p[2]), (0...1).contains(p[3]) else {
                error("Cubic bezier interpolation requires four numeric arguments with values between 0 and 1.", 1)
                return nil
            }
            interpolation = .cubicBezier(p[0], p[1], p[2], p[3])
        default:
            error("Unknown interpolation type \(kind)", 1, 0)
            return nil
        }
        guard argc >= 4 else { error("Expected at least 4 arguments, but found only \(argc)."); return nil }
        guard argc % 2 == 0 else { error("Expected an even number of arguments."); return nil }
        guard let input = parse(args[2], 2, .number) else { return nil }
        var outputType: ExpressionType?
        let space: ColorSpace = op == "interpolate-hcl" ? .hcl : op == "interpolate-lab" ? .lab : .rgb
        if space != .rgb { outputType = expected == .colorArray ? .colorArray : .color } else if let expected, expected != .value { outputType = expected }
        var labels: [Double] = []
        var outputs: [any ExprNode] = []
        var i = 3
        while i < args.count {
            guard case .number(let label) = args[i] else {
                error("Input/output pairs for \"interpolate\" expressions must be defined using literal numeric values (not computed expressions) for the input values.", i)
                return nil
            }
            if let last = labels.last, last >= label {
                error("Input/output pairs for \"interpolate\" expressions must be arranged with input values in strictly ascending order.", i)
                return nil
            }
            guard let out = parse(args[i + 1], i + 1, outputType) else { return nil }
            outputType = outputType ?? out.type
            labels.append(label); outputs.append(out)
            i += 2
        }
        let t = outputType!
        var ok = false
        switch t {
        case .number, .color, .padding, .numberArray, .colorArray, .variableAnchorOffsetCollection, .projectionDefinition: ok = true
        case .array(.number, let n): ok = n != nil
        default: ok = false
        }
        if !ok { error("Type \(t) is not interpolatable."); return nil }
        return InterpolateNode(type: t, interpolation: interpolation, space: space, input: input, labels: labels, outputs: outputs)
    }

    private func parseComparison(_ op: String, _ args: [JSONValue]) -> (any ExprNode)? {
        guard args.count == 3 || args.count == 4 else { error("Expected two or three arguments."); return nil }
        let isOrder = op != "==" && op != "!="
        func comparable(_ t: ExpressionType) -> Bool {
            isOrder ? [.string, .number, .value].contains(t) : [.string, .number, .boolean, .null, .value].contains(t)
        }
        guard var lhs = parse(args[1], 1, .value) else { return nil }
        if !comparable(lhs.type) {
            child(1, expected: nil).error("\"\(op)\" comparisons are not supported for type '\(lhs.type)'.")
            return nil
        }
        guard var rhs = parse(args[2], 2, .value) else { return nil }
        if !comparable(rhs.type) {
            child(2, expected: nil).error("\"\(op)\" comparisons are not supported for type '\(rhs.type)'.")
            return nil
        }
        if lhs.type.kind != rhs.type.kind && lhs.type != .value && rhs.type != .value {
            error("Cannot compare types '\(lhs.type)' and '\(rhs.type)'.")
            return nil
        }
        if isOrder {
            if lhs.type == .value && rhs.type != .value { lhs = AssertionNode(rhs.type, [lhs]) }
            else if rhs.type == .value && lhs.type != .value { rhs = AssertionNode(lhs.type, [rhs]) }
        }
        var collator: (any ExprNode)?
        if args.count == 4 {
            if lhs.type != .string && rhs.type != .string && lhs.type != .value && rhs.type != .value {
                error("Cannot use collator to compare non-string types.")
                return nil
            }
            guard let c = parse(args[3], 3, .collator) else { return nil }
            collator = c
        }
        return ComparisonNode(op: op, lhs: lhs, rhs: rhs, collator: collator)
    }

    private func parseFormat(_ args: [JSONValue]) -> (any ExprNode)? {
        guard args.count >= 2 else { error("Expected at least one argument."); return nil }
        if case .object = args[1] { error("First argument must be an image or text section."); return nil }
        var sections: [FormatSectionNode] = []
        var nextMayBeObject = false
        for i in 1..<args.count {
            let arg = args[i]
            if nextMayBeObject, case .object(let options) = arg {
                nextMayBeObject = false
                var scale: (any ExprNode)?, font: (any ExprNode)?, color: (any ExprNode)?, align: (any ExprNode)?
                if let v = options["font-scale"] { guard let p = parse(v, 1, .number) else { return nil }; scale = p }
                if let v = options["text-font"] { guard let p = parse(v, 1, .array(.string, nil)) else { return nil }; font = p }
                if let v = options["text-color"] { guard let p = parse(v, 1, .color) else { return nil }; color = p }
                if let v = options["vertical-align"] {
                    if case .string(let s) = v, !["bottom", "center", "top"].contains(s) {
                        error("'vertical-align' must be one of: 'bottom', 'center', 'top' but found '\(s)' instead.")
                        return nil
                    }
                    guard let p = parse(v, 1, .string) else { return nil }
                    align = p
                }
                let last = sections.removeLast()
                sections.append(FormatSectionNode(content: last.content, scale: scale, font: font, textColor: color, verticalAlign: align))
            } else {
                guard let content = parse(arg, 1, .value) else { return nil }
                guard [.string, .value, .null, .resolvedImage].contains(content.type) else {
                    error("Formatted text type must be 'string', 'value', 'image' or 'null'.")
                    return nil
                }
                nextMayBeObject = true
                sections.append(FormatSectionNode(content: content, scale: nil, font: nil, textColor: nil, verticalAlign: nil))
            }
        }
        return FormatNode(sections: sections)
    }

    private func parseCompound(_ op: String, _ args: [JSONValue]) -> (any ExprNode)? {
        guard let definitions = compoundDefinitions[op] else { return nil }
        let raw = Array(args.dropFirst())
        let overloads = definitions.filter { def in
            if case .fixed(let p) = def.params { return p.count == raw.count }
            return true
        }
        var lastErrors: [ExpressionError.Item] = []
        for def in overloads {
            let sigErrors = ErrorList()
            let sig = ParsingContext(key: key, expected: nil, scope: scope, errors: sigErrors, depth: depth)
            var parsed: [any ExprNode] = []
            var failed = false
            for (i, arg) in raw.enumerated() {
                let t: ExpressionType
                switch def.params { case .fixed(let p): t = p[i]; case .varargs(let v): t = v }
                guard let p = sig.parse(arg, i + 1, t) else { failed = true; break }
                parsed.append(p)
            }
            if !failed {
                for (i, p) in parsed.enumerated() {
                    let t: ExpressionType
                    switch def.params { case .fixed(let ps): t = ps[i]; case .varargs(let v): t = v }
                    sig.child(i + 1, expected: nil).checkSubtype(t, p.type)
                }
            }
            if !failed && sigErrors.items.isEmpty {
                return CompoundNode(name: op, type: def.result, args: parsed, dependencies: def.dependencies, evaluator: def.evaluate)
            }
            lastErrors = sigErrors.items
        }
        if overloads.count == 1 {
            errors.items.append(contentsOf: lastErrors)
        } else {
            let expectedSig = (overloads.isEmpty ? definitions : overloads).map { def -> String in
                switch def.params {
                case .fixed(let p): "(" + p.map(\.description).joined(separator: ", ") + ")"
                case .varargs(let v): "(\(v)...)"
                }
            }.joined(separator: " | ")
            var actual: [String] = []
            for (i, arg) in raw.enumerated() {
                guard let p = parse(arg, i + 1, nil) else { return nil }
                actual.append(p.type.description)
            }
            error("Expected arguments of type \(expectedSig), but found (\(actual.joined(separator: ", "))) instead.")
        }
        return nil
    }
}

let specialOperators: Set<String> = [
    "literal", "semiliteral", "array", "number", "string", "boolean", "object", "to-boolean", "to-number", "to-string", "to-color",
    "let", "var", "case", "match", "coalesce", "step", "interpolate", "interpolate-hcl", "interpolate-lab",
    "==", "!=", "<", "<=", ">", ">=", "at", "in", "index-of", "slice", "length", "collator", "format", "number-format",
    "image", "global-state", "within", "distance",
]
