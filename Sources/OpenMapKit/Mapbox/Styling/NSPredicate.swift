import Foundation

/// A condition on a feature (Foundation's `NSPredicate`, which Mapbox's runtime styling API uses for
/// layer filters and in conditional expressions).
///
/// On Linux, swift-corelibs-foundation marks `NSPredicate(format:)` unavailable, so OpenMapKit declares
/// this class: with `import OpenMapKit`, Mapbox-shaped filters compile unchanged:
/// ```swift
/// let filter = NSPredicate(format: "type == 'earthquake' AND mag >= %@", 5)
/// let json = filter.mgl_jsonExpressionObject   // ["all", ["==", ["get", "type"], "earthquake"], [">=", ["get", "mag"], 5]]
/// ```
/// Supported, as Mapbox's "Predicates and expressions" guide lists them: the comparisons `==`, `!=`,
/// `<`, `<=`, `>`, `>=` (with the `[c]` and `[d]` options), `BETWEEN`, `IN` and `CONTAINS` over a
/// collection, `AND`, `OR`, `NOT`, `TRUEPREDICATE` and `FALSEPREDICATE`, with operands that are any
/// ``NSExpression``. ``mgl_jsonExpressionObject`` and ``init(mglJSONObject:)`` convert to and from
/// the MapLibre filter expressions the map draws with (legacy filters are read too), and
/// ``evaluate(with:)`` evaluates with the same engine.
///
/// In a file that also imports Foundation, name the type `OpenMapKit.NSPredicate` or add
/// `import class OpenMapKit.NSPredicate` (see ``NSExpression``).
///
/// Differs from Foundation:
/// - `NSPredicate(format:)` gives an `NSPredicate` (Swift initializers cannot return a subclass):
///   it compares equal to the ``NSComparisonPredicate`` or ``NSCompoundPredicate`` Foundation would
///   return, and its ``predicateFormat`` is the same, but `as? NSComparisonPredicate` fails on it.
/// - `BEGINSWITH`, `ENDSWITH`, `LIKE`, `MATCHES`, the `ANY`/`ALL`/`NONE` modifiers, the `[n]` option
///   and `IN`/`CONTAINS` with options are parsed and kept but have no style-language counterpart: they
///   do not convert (``validatedMGLJSONObject()`` throws) and do not evaluate. Block predicates,
///   custom selectors, `SUBQUERY` and key-path operators (`@count`) are not supported at all.
/// - Where Foundation raises for a malformed format string, ``init(format:_:)`` stops the program with
///   the parser's message; ``init(validatingFormat:_:)`` throws it as an ``MGLExpressionError``.
/// - Format arguments are `Any...`, not `CVarArg...`.
open class NSPredicate: NSObject {
    /// What the predicate is, with its parts.
    enum Node: Hashable {
        case value(Bool)
        case comparison(Comparison)
        case compound(NSCompoundPredicate.LogicalType, [NSPredicate])
    }

    /// The parts of a comparison.
    struct Comparison: Hashable {
        var left: NSExpression
        var right: NSExpression
        var modifier: NSComparisonPredicate.Modifier
        var type: NSComparisonPredicate.Operator
        var options: NSComparisonPredicate.Options
    }

    let node: Node

    init(node: Node) {
        self.node = node
        super.init()
    }

    /// A predicate that always (`TRUEPREDICATE`) or never (`FALSEPREDICATE`) holds.
    public init(value: Bool) {
        node = .value(value)
        super.init()
    }

    /// A predicate from a format string (`"mag >= 5 AND type == 'earthquake'"`), with `%@` (a value
    /// or an expression), `%K` (an attribute name) and `%d`/`%f` (a number) replaced by `args` in order.
    ///
    /// Stops the program with the parser's message for a malformed format string, where Foundation
    /// raises `NSInvalidArgumentException`; use ``init(validatingFormat:_:)`` for format strings that
    /// come from outside the program.
    public convenience init(format predicateFormat: String, _ args: Any...) {
        self.init(format: predicateFormat, argumentArray: args)
    }

    /// A predicate from a format string with its arguments in an array (see ``init(format:_:)``).
    public convenience init(format predicateFormat: String, argumentArray arguments: [Any]?) {
        do {
            self.init(node: try FormatParser.predicate(predicateFormat, arguments: arguments ?? []).node)
        } catch {
            preconditionFailure("NSPredicate(format: \(predicateFormat.debugDescription)): \(error)")
        }
    }

    /// A predicate from a format string, throwing the parser's error for a malformed one (an
    /// OpenMapKit addition; see ``init(format:_:)``).
    public convenience init(validatingFormat predicateFormat: String, _ args: Any...) throws(MGLExpressionError) {
        try self.init(validatingFormat: predicateFormat, argumentArray: args)
    }

    /// A predicate from a format string with its arguments in an array, throwing the parser's error
    /// for a malformed one (an OpenMapKit addition).
    public convenience init(validatingFormat predicateFormat: String, argumentArray arguments: [Any]?) throws(MGLExpressionError) {
        self.init(node: try FormatParser.predicate(predicateFormat, arguments: arguments ?? []).node)
    }

    /// The predicate in format-string syntax, as Foundation writes it (`mag >= 5 AND type == "earthquake"`).
    open var predicateFormat: String { FormatWriter.predicate(self) }

    /// The same as ``predicateFormat``.
    open override var description: String { predicateFormat }

    /// Whether `object` is a predicate with the same structure (whatever its class: a predicate from
    /// a format string equals the ``NSComparisonPredicate`` built from the same parts).
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NSPredicate else { return false }
        return other === self || node == other.node
    }

    /// A hash consistent with ``isEqual(_:)``.
    open override var hash: Int { node.hashValue }
}

/// A comparison of two expressions (Foundation's `NSComparisonPredicate`).
open class NSComparisonPredicate: NSPredicate {
    /// How the left expression's values are compared (Foundation's `NSComparisonPredicate.Modifier`).
    /// Only ``direct`` has a style-language counterpart.
    public enum Modifier: UInt, Sendable, Hashable {
        /// The left value itself is compared.
        case direct = 0
        /// Every element of the left collection must match (`ALL`); not supported by the conversions.
        case all = 1
        /// Some element of the left collection must match (`ANY`); not supported by the conversions.
        case any = 2
    }

    /// The comparison (Foundation's `NSComparisonPredicate.Operator`, with its raw values).
    public enum Operator: UInt, Sendable, Hashable {
        /// `<`
        case lessThan = 0
        /// `<=`
        case lessThanOrEqualTo = 1
        /// `>`
        case greaterThan = 2
        /// `>=`
        case greaterThanOrEqualTo = 3
        /// `==`
        case equalTo = 4
        /// `!=`
        case notEqualTo = 5
        /// `MATCHES`; not supported by the conversions.
        case matches = 6
        /// `LIKE`; not supported by the conversions.
        case like = 7
        /// `BEGINSWITH`; not supported by the conversions.
        case beginsWith = 8
        /// `ENDSWITH`; not supported by the conversions.
        case endsWith = 9
        /// `IN`: the left value is an element of the right collection (or a substring of the right string).
        case `in` = 10
        /// A custom selector; not supported.
        case customSelector = 11
        /// `CONTAINS`: the left collection (or string) contains the right value.
        case contains = 99
        /// `BETWEEN`: the left value lies within the right two-element collection's bounds, inclusive.
        case between = 100
    }

    /// Options of a string comparison (Foundation's `NSComparisonPredicate.Options`).
    public struct Options: OptionSet, Sendable, Hashable {
        /// The option's bits.
        public let rawValue: UInt
        /// Options from their bits.
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// `[c]`: upper and lower case compare equal.
        public static let caseInsensitive = Options(rawValue: 1)
        /// `[d]`: letters with and without diacritics compare equal.
        public static let diacriticInsensitive = Options(rawValue: 2)
        /// `[n]`: not supported by the conversions.
        public static let normalized = Options(rawValue: 4)
    }

    /// A comparison of `lhs` with `rhs`.
    public init(leftExpression lhs: NSExpression, rightExpression rhs: NSExpression, modifier: Modifier,
                type: Operator, options: Options = []) {
        super.init(node: .comparison(Comparison(left: lhs, right: rhs, modifier: modifier, type: type, options: options)))
    }

    init(_ comparison: Comparison) {
        super.init(node: .comparison(comparison))
    }

    private var comparison: Comparison {
        guard case .comparison(let c) = node else { preconditionFailure("an NSComparisonPredicate always holds a comparison") }
        return c
    }

    /// The comparison's operator.
    open var predicateOperatorType: Operator { comparison.type }
    /// The comparison's modifier.
    open var comparisonPredicateModifier: Modifier { comparison.modifier }
    /// The expression on the left.
    open var leftExpression: NSExpression { comparison.left }
    /// The expression on the right.
    open var rightExpression: NSExpression { comparison.right }
    /// The comparison's options.
    open var options: Options { comparison.options }
}

/// Predicates combined with `AND`, `OR` or `NOT` (Foundation's `NSCompoundPredicate`).
open class NSCompoundPredicate: NSPredicate {
    /// How the subpredicates combine (Foundation's `NSCompoundPredicate.LogicalType`, with its raw values).
    public enum LogicalType: UInt, Sendable, Hashable {
        /// The subpredicate does not hold.
        case not = 0
        /// Every subpredicate holds (true when there are none).
        case and = 1
        /// Some subpredicate holds (false when there are none).
        case or = 2
    }

    /// Predicates combined by `type`. A ``LogicalType/not`` predicate normally has one subpredicate;
    /// with several it holds when none of them does (and with none, always).
    public init(type: LogicalType, subpredicates: [NSPredicate]) {
        super.init(node: .compound(type, subpredicates))
    }

    /// Every one of `subpredicates` holds.
    public convenience init(andPredicateWithSubpredicates subpredicates: [NSPredicate]) {
        self.init(type: .and, subpredicates: subpredicates)
    }

    /// Some one of `subpredicates` holds.
    public convenience init(orPredicateWithSubpredicates subpredicates: [NSPredicate]) {
        self.init(type: .or, subpredicates: subpredicates)
    }

    /// `predicate` does not hold.
    public convenience init(notPredicateWithSubpredicate predicate: NSPredicate) {
        self.init(type: .not, subpredicates: [predicate])
    }

    /// How the subpredicates combine.
    open var compoundPredicateType: LogicalType {
        guard case .compound(let type, _) = node else { preconditionFailure("an NSCompoundPredicate always holds a compound") }
        return type
    }

    /// The combined predicates (`[NSPredicate]`, typed `[Any]` as in Foundation).
    open var subpredicates: [Any] {
        guard case .compound(_, let predicates) = node else { preconditionFailure("an NSCompoundPredicate always holds a compound") }
        return predicates
    }
}
