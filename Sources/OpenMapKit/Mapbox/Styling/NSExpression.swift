import Foundation

/// An expression: a constant, a feature attribute, a variable, a function of other expressions or a
/// conditional (Foundation's `NSExpression`, which Mapbox's runtime styling API uses for every
/// style layer property).
///
/// On Linux, swift-corelibs-foundation marks its own `NSExpression` unavailable, so OpenMapKit
/// declares this one: with `import OpenMapKit`, `NSExpression` names this class, and Mapbox-shaped
/// code compiles unchanged:
/// ```swift
/// let radius = NSExpression(format: "mgl_interpolate:withCurveType:parameters:stops:($zoomLevel, 'exponential', 1.75, %@)",
///                           [12: 2, 22: 180])
/// let color = NSExpression(forConstantValue: UIColor.systemBlue)
/// let json = radius.mgl_jsonExpressionObject   // ["interpolate", ["exponential", 1.75], ["zoom"], 12, 2, 22, 180]
/// ```
/// In a file that also imports Foundation, whose own (unavailable) `NSExpression` and `NSPredicate`
/// are then visible too, values such as `NSExpression(format: …)` and `NSExpression.zoomLevelVariable`
/// resolve to OpenMapKit's, but the bare names in type positions (`let e: NSExpression`) are ambiguous
/// to Swift: add `import class OpenMapKit.NSExpression` (and `NSPredicate`, `NSComparisonPredicate`,
/// `NSCompoundPredicate` as used), or write `OpenMapKit.NSExpression`.
///
/// Every expression stands for one expression of the MapLibre style language, the one the map is
/// drawn with: ``mgl_jsonExpressionObject`` and ``init(mglJSONObject:)`` convert between the two, with
/// Mapbox's correspondence of functions and operators (see the "Predicates and expressions" guide of
/// Mapbox's iOS SDK).
///
/// Supported, as Foundation and Mapbox define them: constants (`nil`, numbers, booleans, strings,
/// ``UIColor``, `MKEdgeInsets`, arrays and dictionaries of them, predicates), key paths, variables
/// (`$zoomLevel`, `$heatmapDensity`, `$lineProgress`, `$geometryType`, `$featureIdentifier`,
/// `$featureAttributes`, `$featureAccumulated` and `MGL_LET` variables), functions (Foundation's
/// arithmetic, statistics, string and rounding functions, `CAST`, `noindex:`, the `mgl_` functions,
/// `MGL_LET`, `MGL_MATCH`, `MGL_IF`, `MGL_FUNCTION` and the `FUNCTION(target, 'selector', …)` forms
/// Mapbox documents), conditionals (`TERNARY`) and aggregates (`{a, b}`).
///
/// Differs from Foundation:
/// - Subquery, set (union, intersection, minus), block and any-key expressions are not supported: there
///   are no initializers for them, and the format parser refuses `SUBQUERY` and `@` operators with
///   an ``MGLExpressionError``. Key paths are names of feature attributes, not key-value coding on
///   arbitrary objects.
/// - Where Foundation raises `NSInvalidArgumentException` for a malformed format string, ``init(format:_:)``
///   stops the program with the parser's message (Swift cannot raise Objective-C exceptions);
///   ``init(validatingFormat:_:)`` throws the same message as an ``MGLExpressionError`` instead. The
///   accessors of one kind of expression (``keyPath``, ``function`` …) stop the program when asked of
///   another kind, where Foundation raises.
/// - The predefined functions' ``operand`` is a constant `nil` expression (Foundation's is a private
///   utility class), and ``expressionValue(with:context:)`` evaluates with the map's expression
///   engine rather than key-value coding.
/// - Format arguments are `Any...`, not `CVarArg...`, so Swift dictionaries, arrays and colours pass as
///   they do through Foundation's bridging.
open class NSExpression: NSObject {
    /// The kinds of expression (Foundation's `NSExpression.ExpressionType`, with its raw values).
    ///
    /// Differs from Foundation: the set, subquery, any-key and block kinds are listed so that
    /// switches written for Foundation compile, but no expression of those kinds can be made.
    public enum ExpressionType: UInt, Sendable, Hashable {
        /// A constant value (``constantValue``).
        case constantValue = 0
        /// The object being evaluated, `SELF`: the feature.
        case evaluatedObject = 1
        /// A variable (``variable``), written `$name`.
        case variable = 2
        /// A key path (``keyPath``): a feature attribute.
        case keyPath = 3
        /// A function (``function``) with ``arguments``, and for `FUNCTION(…)` a target ``operand``.
        case function = 4
        /// Not supported.
        case unionSet = 5
        /// Not supported.
        case intersectSet = 6
        /// Not supported.
        case minusSet = 7
        /// Not supported.
        case subquery = 13
        /// An aggregate of expressions (``collection``), written `{a, b}`.
        case aggregate = 14
        /// Not supported.
        case anyKey = 15
        /// Not supported.
        case block = 19
        /// A conditional (``predicate``, ``trueExpression``, ``falseExpression``), written `TERNARY(p, a, b)`.
        case conditional = 20
    }

    /// What the expression is, with its parts.
    enum Node {
        /// A constant, normalized for comparison and conversion, with the value as given.
        case constant(Constant, original: Any?)
        case evaluatedObject
        case variable(String)
        case keyPath(String)
        /// A predefined function (no target) or `FUNCTION(target, 'selector', …)`.
        case function(name: String, target: NSExpression?, arguments: [NSExpression])
        case conditional(NSPredicate, NSExpression, NSExpression)
        case aggregate([NSExpression])
    }

    let node: Node

    init(node: Node) {
        self.node = node
        super.init()
    }

    // MARK: - Creating expressions

    /// An expression for a constant value: `nil`, a number, a Boolean, a string, a ``UIColor``,
    /// `MKEdgeInsets`, an array or a dictionary (stops: numbers to values) of such values or of
    /// expressions, or a predicate.
    ///
    /// Other values are kept (``constantValue`` returns them) but cannot be converted to a style
    /// expression: ``mgl_jsonExpressionObject`` refuses them.
    public init(forConstantValue obj: Any?) {
        let value = unwrappedOptional(obj)
        node = .constant(Constant(value), original: value)
        super.init()
    }

    /// An expression for a feature attribute. Dots separate the steps of a path into nested objects
    /// (`lineStyle.color` is the `color` member of the `lineStyle` attribute), as in Foundation.
    public init(forKeyPath keyPath: String) {
        node = .keyPath(keyPath)
        super.init()
    }

    /// An expression for a variable: one of Mapbox's (`zoomLevel`, `heatmapDensity`, `lineProgress`,
    /// `geometryType`, `featureIdentifier`, `featureAttributes`, `featureAccumulated`) or one bound by
    /// `MGL_LET`. Written `$name` in a format string.
    public init(forVariable string: String) {
        node = .variable(string)
        super.init()
    }

    /// An expression for a predefined function, by its selector-style name (`"multiply:by:"`,
    /// `"sum:"`, `"mgl_interpolate:withCurveType:parameters:stops:"`, `"MGL_MATCH"` …). Arguments that
    /// are not expressions are taken as constants.
    public init(forFunction name: String, arguments parameters: [Any]) {
        node = .function(name: name, target: nil, arguments: parameters.map(NSExpression.wrapping))
        super.init()
    }

    /// An expression for a method called on a target (`FUNCTION(target, 'selector', …)` in a format
    /// string): the custom functions Mapbox documents, such as `mgl_interpolateWithCurveType:parameters:stops:`,
    /// `mgl_numberWithFallbackValues:`, `stringValue`, `boolValue` and `mgl_has:`.
    public init(forFunction target: NSExpression, selectorName name: String, arguments parameters: [Any]?) {
        node = .function(name: name, target: target, arguments: (parameters ?? []).map(NSExpression.wrapping))
        super.init()
    }

    /// An expression that evaluates to `trueExpression` when the predicate holds and to
    /// `falseExpression` otherwise (`TERNARY(predicate, a, b)`).
    public init(forConditional predicate: NSPredicate, trueExpression: NSExpression, falseExpression: NSExpression) {
        node = .conditional(predicate, trueExpression, falseExpression)
        super.init()
    }

    /// An expression for an array of expressions (`{a, b, c}` in a format string).
    public init(forAggregate subexpressions: [NSExpression]) {
        node = .aggregate(subexpressions)
        super.init()
    }

    /// The expression for the object being evaluated (`SELF`): the feature.
    open class func expressionForEvaluatedObject() -> NSExpression {
        NSExpression(node: .evaluatedObject)
    }

    /// An argument as an expression: expressions as they are, predicates and other values as constants.
    static func wrapping(_ value: Any) -> NSExpression {
        if let expression = value as? NSExpression { return expression }
        return NSExpression(forConstantValue: value)
    }

    // MARK: - Parts

    /// The kind of expression.
    open var expressionType: ExpressionType {
        switch node {
        case .constant: .constantValue
        case .evaluatedObject: .evaluatedObject
        case .variable: .variable
        case .keyPath: .keyPath
        case .function: .function
        case .conditional: .conditional
        case .aggregate: .aggregate
        }
    }

    /// The constant's value as it was given (for an aggregate, its ``collection``). Stops the program
    /// for other kinds of expression, where Foundation raises.
    open var constantValue: Any? {
        switch node {
        case .constant(_, let original): original
        case .aggregate(let items): items
        default: wrongKind("constantValue")
        }
    }

    /// The key path of a key-path expression. Stops the program for other kinds, where Foundation raises.
    open var keyPath: String {
        guard case .keyPath(let path) = node else { wrongKind("keyPath") }
        return path
    }

    /// The name of a variable expression (without `$`). Stops the program for other kinds, where Foundation raises.
    open var variable: String {
        guard case .variable(let name) = node else { wrongKind("variable") }
        return name
    }

    /// The name of a function expression (`"add:to:"`, `"mgl_step:from:stops:"` …). Stops the program
    /// for other kinds, where Foundation raises.
    open var function: String {
        guard case .function(let name, _, _) = node else { wrongKind("function") }
        return name
    }

    /// The target of a `FUNCTION(target, 'selector', …)` expression. For a predefined function it is a
    /// constant `nil` expression (Foundation's is a private utility class). Stops the program for
    /// other kinds, where Foundation raises.
    open var operand: NSExpression {
        guard case .function(_, let target, _) = node else { wrongKind("operand") }
        return target ?? NSExpression(forConstantValue: nil)
    }

    /// The arguments of a function expression; nil for other kinds.
    open var arguments: [NSExpression]? {
        guard case .function(_, _, let arguments) = node else { return nil }
        return arguments
    }

    /// The expressions of an aggregate, as `[NSExpression]`. Stops the program for other kinds, where
    /// Foundation raises.
    open var collection: Any {
        guard case .aggregate(let items) = node else { wrongKind("collection") }
        return items
    }

    /// The condition of a conditional expression. Stops the program for other kinds, where Foundation raises.
    open var predicate: NSPredicate {
        guard case .conditional(let predicate, _, _) = node else { wrongKind("predicate") }
        return predicate
    }

    /// What a conditional expression evaluates to when its predicate holds. Stops the program for
    /// other kinds, where Foundation raises.
    open var trueExpression: NSExpression {
        guard case .conditional(_, let expression, _) = node else { wrongKind("trueExpression") }
        return expression
    }

    /// What a conditional expression evaluates to when its predicate does not hold. Stops the program
    /// for other kinds, where Foundation raises.
    open var falseExpression: NSExpression {
        guard case .conditional(_, _, let expression) = node else { wrongKind("falseExpression") }
        return expression
    }

    private func wrongKind(_ accessor: String) -> Never {
        preconditionFailure("NSExpression.\(accessor) is not defined for a \(expressionType) expression (\(description)); "
                            + "Foundation raises NSInternalInconsistencyException here")
    }

    // MARK: - Equality and description

    /// Whether `object` is an expression of the same kind with equal parts (constants compare by
    /// value: `1`, `1.0` and `NSNumber(value: 1)` are equal).
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NSExpression else { return false }
        return other === self || node == other.node
    }

    /// A hash consistent with ``isEqual(_:)``.
    open override var hash: Int { node.hashValue }

    /// The expression in format-string syntax, as Foundation writes it (`mag * 3`,
    /// `mgl_step:from:stops:(mag, 0, {2.5 = 5; 5 = 10})`). Constants with no format-string spelling
    /// (colours, dictionaries) are written readably rather than parseably.
    open override var description: String { FormatWriter.expression(self) }
}

extension NSExpression.Node: Hashable {
    static func == (a: Self, b: Self) -> Bool {
        switch (a, b) {
        case (.constant(let x, _), .constant(let y, _)): x == y
        case (.evaluatedObject, .evaluatedObject): true
        case (.variable(let x), .variable(let y)): x == y
        case (.keyPath(let x), .keyPath(let y)): x == y
        case (.function(let n1, let t1, let a1), .function(let n2, let t2, let a2)): n1 == n2 && t1 == t2 && a1 == a2
        case (.conditional(let p1, let t1, let f1), .conditional(let p2, let t2, let f2)): p1 == p2 && t1 == t2 && f1 == f2
        case (.aggregate(let x), .aggregate(let y)): x == y
        default: false
        }
    }

    func hash(into hasher: inout Hasher) {
        switch self {
        case .constant(let c, _): hasher.combine(0); hasher.combine(c)
        case .evaluatedObject: hasher.combine(1)
        case .variable(let name): hasher.combine(2); hasher.combine(name)
        case .keyPath(let path): hasher.combine(3); hasher.combine(path)
        case .function(let name, let target, let arguments): hasher.combine(4); hasher.combine(name); hasher.combine(target); hasher.combine(arguments)
        case .conditional(let p, let t, let f): hasher.combine(20); hasher.combine(p); hasher.combine(t); hasher.combine(f)
        case .aggregate(let items): hasher.combine(14); hasher.combine(items)
        }
    }
}

/// A constant value normalized from whatever Swift or Foundation type it was given as, so that
/// constants compare by value and convert to style-language values.
indirect enum Constant: Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case color(UIColor)
    case insets(MKEdgeInsets)
    /// An array (`NSArray`): its elements as expressions (values wrapped as constants).
    case array([NSExpression])
    /// A dictionary: stops (number keys) or an object (string keys), values as expressions.
    case dictionary([DictionaryKey: NSExpression])
    case predicate(NSPredicate)
    /// A class or type, as in `FUNCTION(UIColor, 'colorWithRed:green:blue:alpha:', …)`.
    case type(String)
    /// A value of a type with no style-language counterpart: its type name and description.
    case unsupported(type: String, description: String)

    /// A dictionary key: stops are keyed by numbers, objects by strings.
    enum DictionaryKey: Hashable, Comparable {
        case number(Double)
        case string(String)

        static func < (a: Self, b: Self) -> Bool {
            switch (a, b) {
            case (.number(let x), .number(let y)): x < y
            case (.string(let x), .string(let y)): x < y
            case (.number, .string): true
            case (.string, .number): false
            }
        }
    }

    init(_ value: Any?) {
        guard let value = unwrappedOptional(value) else { self = .null; return }
        if value is NSNull { self = .null; return }
        if Swift.type(of: value) == Bool.self { self = .bool(value as! Bool); return }
        if let number = numericValue(value) { self = number; return }
        switch value {
        case let string as String: self = .string(string)
        case let string as Substring: self = .string(String(string))
        case let color as UIColor: self = .color(color)
        case let insets as MKEdgeInsets: self = .insets(insets)
        case let predicate as NSPredicate: self = .predicate(predicate)
        case let type as Any.Type: self = .type(String(describing: type))
        case let array as [Any]: self = .array(array.map(NSExpression.wrapping))
        case let set as Set<AnyHashable>: self = .array(set.map { NSExpression.wrapping($0.base) })
        case let dictionary as [AnyHashable: Any]:
            var entries: [DictionaryKey: NSExpression] = [:]
            for (key, element) in dictionary {
                switch Constant(key.base) {
                case .number(let n): entries[.number(n)] = NSExpression.wrapping(element)
                case .string(let s): entries[.string(s)] = NSExpression.wrapping(element)
                default:
                    self = .unsupported(type: String(describing: Swift.type(of: value)),
                                        description: "a dictionary keyed by \(Swift.type(of: key.base))")
                    return
                }
            }
            self = .dictionary(entries)
        default:
            self = .unsupported(type: String(describing: Swift.type(of: value)), description: String(describing: value))
        }
    }
}

/// A number or Boolean given as any Swift numeric type or as an `NSNumber`; nil for other values.
/// (Swift integers and floating-point values also cast to `NSNumber`, and an `NSNumber` holding an
/// integer casts to `Bool`, so the exact types are tested first.)
func numericValue(_ value: Any) -> Constant? {
    if let integer = value as? any BinaryInteger { return .number(Double(integer)) }
    if let float = value as? any BinaryFloatingPoint { return .number(Double(float)) }
    if let decimal = value as? Decimal { return .number(NSDecimalNumber(decimal: decimal).doubleValue) }
    if let number = value as? NSNumber {
        // Foundation's Boolean NSNumbers (JSONSerialization's `true`) are their own class.
        if String(describing: type(of: number)).hasSuffix("Boolean") { return .bool(number.boolValue) }
        return .number(number.doubleValue)
    }
    return nil
}

/// `value` without its `Optional` wrappers (an `Any` may hold an `Optional<Any>`); nil for `.none`.
func unwrappedOptional(_ value: Any?) -> Any? {
    guard let value else { return nil }
    let mirror = Mirror(reflecting: value)
    guard mirror.displayStyle == .optional else { return value }
    guard let wrapped = mirror.children.first?.value else { return nil }
    return unwrappedOptional(wrapped)
}
