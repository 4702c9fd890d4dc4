/// Structural facts about expressions that the validator needs before the expression engine can
/// compile them: whether an array is an expression at all, which operators it uses, and the
/// obvious syntax errors (unknown operators, empty arrays, bare objects).
enum StyleExpressionCheck {
    /// Operators whose value depends on the feature being drawn.
    static let featureOperators: Set<String> = ["get", "has", "properties", "geometry-type", "id", "feature-state", "within", "distance"]

    private static let comparisonOperators: Set<String> = ["==", "!=", "<", "<=", ">", ">="]

    /// Operators whose arguments may legitimately be objects (options, GeoJSON).
    private static let objectArgumentOperators: Set<String> = ["format", "number-format", "collator", "within", "distance", "literal"]

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

    /// The operators an expression uses, not looking inside literals.
    static func operators(in value: JSONValue) -> Set<String> {
        var found: Set<String> = []
        collect(value, into: &found)
        return found
    }

    private static func collect(_ value: JSONValue, into found: inout Set<String>) {
        guard case .array(let array) = value else { return }
        if case .string(let op)? = array.first, StyleReference.expressionOperators.contains(op) {
            if op == "literal" { return }
            found.insert(op)
        }
        for element in array { collect(element, into: &found) }
    }

    struct Problem {
        var path: [Int]
        var message: String
    }

    /// Syntax errors MapLibre's parser reports first, with the path of the offending element.
    static func structuralErrors(_ value: JSONValue) -> [Problem] {
        var problems: [Problem] = []
        check(value, path: [], parentOperator: nil, into: &problems)
        return problems
    }

    private static func check(_ value: JSONValue, path: [Int], parentOperator: String?, into problems: inout [Problem]) {
        switch value {
        case .array(let array):
            guard let first = array.first else {
                problems.append(Problem(path: path, message: "Expected an array with at least one element. If you wanted a literal array, use [\"literal\", []]."))
                return
            }
            guard case .string(let op) = first else {
                problems.append(Problem(path: path + [0], message: "Expression name must be a string, but found \(first.typeName) instead. If you wanted a literal array, use [\"literal\", [...]]."))
                return
            }
            guard StyleReference.expressionOperators.contains(op) else {
                problems.append(Problem(path: path + [0], message: "Unknown expression \"\(op)\". If you wanted a literal array, use [\"literal\", [...]]."))
                return
            }
            if op == "format" {
                if array.count == 1 {
                    problems.append(Problem(path: path, message: "Expected at least one argument."))
                    return
                }
                if case .object = array[1] {
                    problems.append(Problem(path: path, message: "First argument must be an image or text section."))
                    return
                }
            }
            if comparisonOperators.contains(op), !(3...4).contains(array.count) {
                problems.append(Problem(path: path, message: "Expected two or three arguments."))
                return
            }
            for index in argumentIndices(op: op, count: array.count) {
                check(array[index], path: path + [index], parentOperator: op, into: &problems)
                if !problems.isEmpty { return }
            }
        case .object(let object):
            if let parentOperator, !objectArgumentOperators.contains(parentOperator) {
                problems.append(Problem(path: path, message: "Bare objects invalid. Use [\"literal\", {...}] instead."))
            } else if parentOperator == "format" {
                let parent = Array(path.dropLast())
                // Section options ("text-font", "font-scale" …) are expressions; MapLibre reports
                // them at index 1 of the format expression, whichever section they belong to.
                for (_, option) in object.members {
                    if case .array = option { check(option, path: parent + [1], parentOperator: nil, into: &problems) }
                    if !problems.isEmpty { return }
                }
            }
        default:
            return
        }
    }

    /// The argument positions that hold expressions (match labels and interpolation types do not).
    private static func argumentIndices(op: String, count: Int) -> [Int] {
        guard count > 1 else { return [] }
        switch op {
        case "literal", "var", "global-state": return []
        case "interpolate", "interpolate-hcl", "interpolate-lab":
            return Array(2..<count)
        case "match":
            return (1..<count).filter { $0 == 1 || $0 == count - 1 || $0 % 2 == 1 }
        default:
            return Array(1..<count)
        }
    }

    /// Whether every use of ["zoom"] is the input of a top-level step or interpolate.
    static func zoomIsTopLevelCurveInput(_ value: JSONValue) -> Bool {
        guard case .array(let array) = value, case .string(let op)? = array.first else { return false }
        let zoom = JSONValue.array([.string("zoom")])
        func noZoom(_ values: ArraySlice<JSONValue>) -> Bool { values.allSatisfy { !operators(in: $0).contains("zoom") } }
        switch op {
        case "step":
            return array.count > 1 && array[1] == zoom && noZoom(array.dropFirst(2))
        case "interpolate", "interpolate-hcl", "interpolate-lab":
            return array.count > 2 && array[2] == zoom && noZoom(array.dropFirst(3))
        case "let":
            guard let body = array.last, array.count > 1 else { return false }
            return noZoom(array.dropFirst().dropLast()) && zoomIsTopLevelCurveInput(body)
        case "coalesce":
            return array.dropFirst().allSatisfy { !operators(in: $0).contains("zoom") || zoomIsTopLevelCurveInput($0) }
        default:
            return false
        }
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
    static func convertLegacyFilter(_ filter: JSONValue) -> JSONValue? {
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
                guard let converted = convertLegacyFilter(child) else { return nil }
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
