/// Facts about a value's JSON shape that decide how the validator treats it before anything is
/// compiled: whether an array is an expression at all, whether a filter uses the legacy syntax, and
/// the legacy filters mixed into expression filters. Parse and type errors are the expression
/// engine's (`Expression.parse`); nothing here second-guesses them.
enum StyleExpressionCheck {
    /// MapLibre's `isExpression`: a non-empty array naming a known operator.
    static func isExpression(_ value: JSONValue) -> Bool {
        guard case .array(let array) = value, case .string(let op)? = array.first else { return false }
        return StyleReference.expressionOperators.contains(op)
    }

    /// Whether a filter uses expression syntax rather than the legacy ["==", "key", value] syntax.
    static func isExpressionFilter(_ value: JSONValue) -> Bool {
        if case .bool = value { return true }
        guard case .array(let array) = value, !array.isEmpty else { return false }
        switch array[0] {
        case .string("has"):
            return array.count >= 2 && array[1] != .string("$id") && array[1] != .string("$type")
        case .string("in"):
            if array.count < 3 { return false }
            if case .string = array[1] { if case .array = array[2] { return true } else { return false } }
            return true
        case .string("!in"), .string("!has"), .string("none"):
            return false
        case .string("=="), .string("!="), .string(">"), .string(">="), .string("<"), .string("<="):
            if array.count != 3 { return true }
            if case .array = array[1] { return true }
            if case .array = array[2] { return true }
            return false
        case .string("any"), .string("all"):
            // One expression child makes the whole filter an expression; legacy children then get a
            // "mixing deprecated filter syntax" warning rather than legacy validation.
            // Children that read the same in both syntaxes (["has", "service"]) do not decide.
            if array.count == 1 { return true }
            return array.dropFirst().contains { isExpressionFilter($0) && !isLegacyShaped($0) }
        default:
            return true
        }
    }

    struct Problem {
        var path: [Int]
        var message: String
    }

    // MARK: Legacy filters inside expression filters

    /// Legacy filters used where an expression filter expects a boolean, with their paths and the
    /// warning MapLibre gives for each (with the equivalent expression when there is one).
    static func mixedLegacyFilters(_ value: JSONValue) -> [Problem] {
        var problems: [Problem] = []
        findMixed(value, path: [], into: &problems)
        return problems
    }

    private static func findMixed(_ value: JSONValue, path: [Int], into problems: inout [Problem]) {
        guard case .array(let array) = value, case .string(let op)? = array.first else { return }
        let booleanPositions: [Int]
        switch op {
        case "all", "any", "!": booleanPositions = Array(1..<array.count)
        case "case": booleanPositions = Array(stride(from: 1, to: array.count - 1, by: 2))
        default: booleanPositions = []
        }
        for index in booleanPositions {
            let child = array[index]
            if case .array(let filter) = child, !filter.isEmpty, !isExpressionFilter(child),
               case .string(let childOp)? = filter.first, legacyFilterOperators.contains(childOp) {
                let message = "Mixing deprecated filter syntax with expression syntax is not supported. "
                if let converted = convertLegacyFilter(child) {
                    problems.append(Problem(path: path + [index], message: message + "Replace \(StyleJS.stringify(child)) with \(StyleJS.stringify(converted))."))
                } else {
                    problems.append(Problem(path: path + [index], message: message + "Convert \(StyleJS.stringify(child)) to expression syntax."))
                }
            } else {
                findMixed(child, path: path + [index], into: &problems)
            }
        }
    }

    /// Whether a filter has the shape of the legacy syntax (it may also be a valid expression).
    static func isLegacyShaped(_ filter: JSONValue) -> Bool {
        guard case .array(let array) = filter, case .string(let op)? = array.first else { return false }
        func isKey(_ value: JSONValue) -> Bool { if case .string = value { true } else { false } }
        func isScalar(_ value: JSONValue) -> Bool {
            switch value { case .array, .object: false; default: true }
        }
        switch op {
        case "==", "!=", ">", ">=", "<", "<=": return array.count == 3 && isKey(array[1]) && isScalar(array[2])
        case "in", "!in": return array.count >= 2 && isKey(array[1]) && array.dropFirst(2).allSatisfy(isScalar)
        case "has", "!has": return array.count == 2 && isKey(array[1])
        case "all", "any", "none": return array.dropFirst().allSatisfy(isLegacyShaped)
        default: return false
        }
    }

    static let legacyFilterOperators: Set<String> = ["==", "!=", ">", ">=", "<", "<=", "in", "!in", "all", "any", "none", "has", "!has"]

    /// The expression equivalent of a legacy filter, nil when it has none (a non-string key).
    /// `forEvaluation` keeps the legacy meaning of comparisons with null (the key must be present),
    /// which the short form given in warnings leaves out.
    static func convertLegacyFilter(_ filter: JSONValue, forEvaluation: Bool = false) -> JSONValue? {
        guard case .array(let array) = filter, case .string(let op)? = array.first else { return nil }
        func getter(_ key: JSONValue) -> JSONValue? {
            switch key {
            case .string("$type"): return .array([.string("geometry-type")])
            case .string("$id"): return .array([.string("id")])
            case .string: return .array([.string("get"), key])
            default: return nil
            }
        }
        switch op {
        case "==", "!=", ">", ">=", "<", "<=":
            guard array.count == 3, let get = getter(array[1]) else { return nil }
            if forEvaluation, array[2] == .null, op == "==" || op == "!=", case .string(let key) = array[1], !key.hasPrefix("$") {
                let has = JSONValue.array([.string("has"), array[1]])
                return op == "==" ? .array([.string("all"), has, .array([.string("=="), get, .null])])
                    : .array([.string("any"), .array([.string("!"), has]), .array([.string("!="), get, .null])])
            }
            return .array([.string(op), get, array[2]])
        case "in", "!in":
            guard array.count >= 2, let get = getter(array[1]) else { return nil }
            let test = JSONValue.array([.string("in"), get, .array([.string("literal"), .array(Array(array.dropFirst(2)))])])
            return op == "in" ? test : .array([.string("!"), test])
        case "has", "!has":
            guard array.count == 2, case .string(let key) = array[1] else { return nil }
            let test: JSONValue = key == "$id" ? .array([.string("!="), .array([.string("id")]), .null])
                : .array([.string("has"), array[1]])
            return op == "has" ? test : .array([.string("!"), test])
        case "all", "any", "none":
            var children: [JSONValue] = []
            for child in array.dropFirst() {
                guard let converted = convertLegacyFilter(child, forEvaluation: forEvaluation) else { return nil }
                children.append(converted)
            }
            return op == "none" ? .array([.string("!"), .array([.string("any")] + children)]) : .array([.string(op)] + children)
        default:
            return nil
        }
    }

    /// Whether every value an expression can produce is written in it as a literal (MapLibre's
    /// `outputDefined`): text-font needs to know all fonts before any feature is seen.
    static func outputsAreLiterals(_ value: JSONValue) -> Bool {
        guard case .array(let array) = value, case .string(let op)? = array.first,
              StyleReference.expressionOperators.contains(op) else { return true }
        let args = Array(array.dropFirst())
        switch op {
        case "literal": return true
        case "case":
            guard !args.isEmpty else { return false }
            return stride(from: 1, to: args.count, by: 2).allSatisfy { outputsAreLiterals(args[$0]) } && outputsAreLiterals(args[args.count - 1])
        case "match":
            guard args.count >= 2 else { return false }
            return stride(from: 2, to: args.count, by: 2).allSatisfy { outputsAreLiterals(args[$0]) } && outputsAreLiterals(args[args.count - 1])
        case "step":
            guard args.count >= 2 else { return false }
            return stride(from: 1, to: args.count, by: 2).allSatisfy { outputsAreLiterals(args[$0]) }
        case "coalesce":
            return args.allSatisfy(outputsAreLiterals)
        case "let":
            return args.last.map(outputsAreLiterals) ?? false
        case "array":
            // ["array", type?, length?, value]: the assertion passes its value through.
            return args.last.map(outputsAreLiterals) ?? false
        case "string", "number", "boolean", "object", "to-string", "to-number", "to-boolean", "to-color":
            return args.allSatisfy(outputsAreLiterals)
        default:
            return false
        }
    }
}

/// A layer filter as the style specification allows it: an expression, or the legacy syntax
/// (`["==", "class", "park"]`, `["in", "$type", "Point"]`) that expression filters replaced. For
/// code that converts filters into another form (OpenMapKit's `NSPredicate`) and so needs one syntax.
public enum StyleFilter {
    /// Whether `filter` is written in expression syntax (a legacy filter is not): MapLibre's
    /// `isExpressionFilter`, the same test layers compile their filters with.
    public static func isExpressionSyntax(_ filter: JSONValue) -> Bool {
        StyleExpressionCheck.isExpressionFilter(filter)
    }

    /// The filter in expression syntax: unchanged when it already is one, otherwise the expression a
    /// legacy filter stands for, keeping its meaning (a legacy `["==", "key", null]` also requires
    /// the key to be present). Nil for a legacy filter with no equivalent (a non-string key).
    public static func expression(_ filter: JSONValue) -> JSONValue? {
        isExpressionSyntax(filter) ? filter : StyleExpressionCheck.convertLegacyFilter(filter, forEvaluation: true)
    }
}
