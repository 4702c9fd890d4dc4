import Foundation

/// The curve of an interpolation (Mapbox's `MGLExpressionInterpolationMode`): the first element of an
/// `interpolate` expression.
public struct MGLExpressionInterpolationMode: RawRepresentable, Hashable, Sendable {
    /// The curve's name as the style language spells it: `linear`, `exponential` or `cubic-bezier`.
    public let rawValue: String

    /// A curve by its style-language name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Linear interpolation between stops.
    public static let linear = MGLExpressionInterpolationMode(rawValue: "linear")
    /// Exponential interpolation; the parameters are the base.
    public static let exponential = MGLExpressionInterpolationMode(rawValue: "exponential")
    /// Interpolation along a cubic Bézier curve; the parameters are its four control values.
    public static let cubicBezier = MGLExpressionInterpolationMode(rawValue: "cubic-bezier")
}

extension NSExpression {
    // MARK: - Mapbox's variables

    /// `$zoomLevel`: the zoom level, the style language's `["zoom"]` (Mapbox's `zoomLevelVariable`).
    public class var zoomLevelVariable: NSExpression { NSExpression(forVariable: "zoomLevel") }
    /// `$heatmapDensity`: a heatmap's density at a point, `["heatmap-density"]`.
    public class var heatmapDensityVariable: NSExpression { NSExpression(forVariable: "heatmapDensity") }
    /// `$lineProgress`: how far along its line a point is (0…1), `["line-progress"]`.
    public class var lineProgressVariable: NSExpression { NSExpression(forVariable: "lineProgress") }
    /// `$geometryType`: `Point`, `LineString` or `Polygon`, `["geometry-type"]`.
    public class var geometryTypeVariable: NSExpression { NSExpression(forVariable: "geometryType") }
    /// `$featureIdentifier`: the feature's identifier, `["id"]`.
    public class var featureIdentifierVariable: NSExpression { NSExpression(forVariable: "featureIdentifier") }
    /// `$featureAttributes`: the feature's attributes as a dictionary, `["properties"]`.
    public class var featureAttributesVariable: NSExpression { NSExpression(forVariable: "featureAttributes") }
    /// `$featureAccumulated`: a cluster property's accumulated value, `["accumulated"]`.
    public class var featureAccumulatedVariable: NSExpression { NSExpression(forVariable: "featureAccumulated") }
    /// The old name of ``featureAttributesVariable``.
    @available(*, deprecated, renamed: "featureAttributesVariable")
    public class var featurePropertiesVariable: NSExpression { featureAttributesVariable }

    // MARK: - Mapbox's convenience initializers

    /// A conditional: `trueExpression` where the predicate holds, `falseExpression` elsewhere (the
    /// style language's `case`).
    public convenience init(forMGLConditional conditionPredicate: NSPredicate, trueExpression: NSExpression,
                            falseExpression: NSExpression) {
        self.init(node: .conditional(conditionPredicate, trueExpression, falseExpression))
    }

    /// A step function (`mgl_step:from:stops:`, the style language's `step`): `minimumExpression`
    /// below the first stop, then each stop's value from its key up. `stops` is a constant
    /// dictionary of numbers to values or expressions.
    public convenience init(forMGLStepping steppingExpression: NSExpression, from minimumExpression: NSExpression,
                            stops: NSExpression) {
        self.init(forFunction: "mgl_step:from:stops:", arguments: [steppingExpression, minimumExpression, stops])
    }

    /// An interpolation (`mgl_interpolate:withCurveType:parameters:stops:`, the style language's
    /// `interpolate`) of `inputExpression` along `curveType` between the stops of `stops`, a constant
    /// dictionary of numbers to values or expressions. `parameters` is the base of an exponential
    /// curve or the four control values of a cubic Bézier curve, nil for a linear one.
    public convenience init(forMGLInterpolating inputExpression: NSExpression, curveType: MGLExpressionInterpolationMode,
                            parameters: NSExpression?, stops: NSExpression) {
        self.init(forFunction: "mgl_interpolate:withCurveType:parameters:stops:",
                  arguments: [inputExpression, NSExpression(forConstantValue: curveType.rawValue),
                              parameters ?? NSExpression(forConstantValue: nil), stops])
    }

    /// A match (`MGL_MATCH`, the style language's `match`): the value for the key `inputExpression`
    /// evaluates to, `defaultExpression` for other keys.
    ///
    /// Differs from Mapbox: the cases are written in the order of their keys (numbers, then strings,
    /// then others by description), not a dictionary's arbitrary order, so the same dictionary
    /// always gives the same expression.
    public convenience init(forMGLMatchingKey inputExpression: NSExpression, in matchedExpressions: [NSExpression: NSExpression],
                            default defaultExpression: NSExpression) {
        var arguments = [inputExpression]
        for key in matchedExpressions.keys.sorted(by: NSExpression.matchKeyOrder) {
            arguments.append(key)
            arguments.append(matchedExpressions[key]!)
        }
        arguments.append(defaultExpression)
        self.init(forFunction: "MGL_MATCH", arguments: arguments)
    }

    /// The first of `expressions` that is not nil (`mgl_coalesce:`, the style language's `coalesce`).
    /// An OpenMapKit addition: Mapbox writes it `NSExpression(format: "mgl_coalesce(%@)", expressions)`.
    public convenience init(forMGLCoalescing expressions: [NSExpression]) {
        self.init(forFunction: "mgl_coalesce:", arguments: [NSExpression(forConstantValue: expressions)])
    }

    /// The strings of `expressions` joined (`mgl_join:`, the style language's `concat`). An OpenMapKit
    /// addition: Mapbox writes it `NSExpression(format: "mgl_join({a, b})")`.
    public convenience init(forMGLJoining expressions: [NSExpression]) {
        self.init(forFunction: "mgl_join:", arguments: [NSExpression(forAggregate: expressions)])
    }

    /// A variable, `$name` (the style language's `["var", name]`, or one of Mapbox's variables). An
    /// OpenMapKit addition, the same as ``init(forVariable:)``.
    public convenience init(forMGLVariable name: String) {
        self.init(node: .variable(name))
    }

    /// This expression's string followed by `expression`'s (Mapbox's `mgl_appending(_:)`: `mgl_join:`
    /// of the two).
    public func mgl_appending(_ expression: NSExpression) -> NSExpression {
        NSExpression(forFunction: "mgl_join:", arguments: [NSExpression(forAggregate: [self, expression])])
    }

    /// Orders match keys: constants by value (numbers before strings), then other expressions by description.
    static func matchKeyOrder(_ a: NSExpression, _ b: NSExpression) -> Bool {
        func rank(_ e: NSExpression) -> (Int, Double, String) {
            if case .constant(let c, _) = e.node {
                switch c {
                case .number(let n): return (0, n, "")
                case .string(let s): return (1, 0, s)
                case .bool(let v): return (2, v ? 1 : 0, "")
                default: break
                }
            }
            return (3, 0, e.description)
        }
        let (x, y) = (rank(a), rank(b))
        return x.0 != y.0 ? x.0 < y.0 : x.1 != y.1 ? x.1 < y.1 : x.2 < y.2
    }
}
