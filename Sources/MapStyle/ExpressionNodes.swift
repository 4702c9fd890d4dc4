import Foundation

/// What an expression reads beyond its own arguments; decides constant folding and the
/// `isFeatureConstant` / `isZoomConstant` flags renderers use to cache results.
struct Dependencies: OptionSet, Sendable {
    let rawValue: Int
    static let feature = Dependencies(rawValue: 1)
    static let zoom = Dependencies(rawValue: 2)
    static let heatmap = Dependencies(rawValue: 4)
    static let lineProgress = Dependencies(rawValue: 8)
    static let state = Dependencies(rawValue: 16)
    static let global = Dependencies(rawValue: 32)
    static let image = Dependencies(rawValue: 64)
    static let elevation = Dependencies(rawValue: 128)
    static let script = Dependencies(rawValue: 256)
    /// Never folded (collator, within, distance, error).
    static let opaque = Dependencies(rawValue: 512)
}

/// A node of the compiled expression tree. Nodes are immutable after parsing, so a compiled
/// expression can be shared between threads that evaluate different tiles.
protocol ExprNode: AnyObject, Sendable {
    var type: ExpressionType { get }
    func evaluate(_ ctx: EvaluationContext) throws(ExpressionError) -> ExpressionValue
    var children: [any ExprNode] { get }
    /// What this node itself reads (children are added by `allDependencies`).
    var ownDependencies: Dependencies { get }
}

extension ExprNode {
    var children: [any ExprNode] { [] }
    var ownDependencies: Dependencies { [] }

    var allDependencies: Dependencies {
        var d = ownDependencies
        for c in children { d.formUnion(c.allDependencies) }
        return d
    }

    func number(_ ctx: EvaluationContext) throws(ExpressionError) -> Double {
        let v = try evaluate(ctx)
        if case .number(let n) = v { return n }
        throw ExpressionError(runtime: "Expected value to be of type number, but found \(v.type.kind) instead.")
    }
    func string(_ ctx: EvaluationContext) throws(ExpressionError) -> String {
        let v = try evaluate(ctx)
        if case .string(let s) = v { return s }
        throw ExpressionError(runtime: "Expected value to be of type string, but found \(v.type.kind) instead.")
    }
    func boolean(_ ctx: EvaluationContext) throws(ExpressionError) -> Bool {
        let v = try evaluate(ctx)
        if case .boolean(let b) = v { return b }
        throw ExpressionError(runtime: "Expected value to be of type boolean, but found \(v.type.kind) instead.")
    }
}

func runtimeError(_ message: String) -> ExpressionError { ExpressionError(runtime: message) }

final class LiteralNode: ExprNode {
    let value: ExpressionValue
    let type: ExpressionType
    init(_ value: ExpressionValue, type: ExpressionType? = nil) {
        self.value = value
        self.type = type ?? value.type
    }
    func evaluate(_ ctx: EvaluationContext) throws(ExpressionError) -> ExpressionValue { value }
}

/// `number`, `string`, `boolean`, `object`, `array`: checks the runtime type, trying each argument in turn.
final class AssertionNode: ExprNode {
    let type: ExpressionType
    let args: [any ExprNode]
    init(_ type: ExpressionType, _ args: [any ExprNode]) { self.type = type; self.args = args }
    var children: [any ExprNode] { args }
    func evaluate(_ ctx: EvaluationContext) throws(ExpressionError) -> ExpressionValue {
        for (i, arg) in args.enumerated() {
            let v = try arg.evaluate(ctx)
            let actual = v.type
            if checkSubtype(type, actual) == nil { return v }
            if i == args.count - 1 {
                throw runtimeError("Expected value to be of type \(type), but found \(actual) instead.")
            }
        }
        return .null
    }
}

/// `to-boolean`, `to-number`, `to-color`, `to-string`, and the implicit conversions to formatted,
/// resolvedImage and padding that the parser inserts.
final class CoercionNode: ExprNode {
    let type: ExpressionType
    let args: [any ExprNode]
    init(_ type: ExpressionType, _ args: [any ExprNode]) { self.type = type; self.args = args }
    var children: [any ExprNode] { args }

    func evaluate(_ ctx: EvaluationContext) throws(ExpressionError) -> ExpressionValue {
        switch type {
        case .boolean:
            return .boolean(try args[0].evaluate(ctx).truthy)
        case .string:
            return .string(try args[0].evaluate(ctx).displayString)
        case .color:
            var lastError: String?
            var input: ExpressionValue = .null
            for arg in args {
                input = try arg.evaluate(ctx)
                lastError = nil
                switch input {
                case .color(let c): return .color(c)
                case .string(let s):
                    if let c = StyleColor.parse(s) { return .color(c) }
                case .array(let items):
                    if items.count < 3 || items.count > 4 {
                        lastError = "Invalid rbga value \(input.jsonString): expected an array containing either three or four numeric values."
                    } else if let msg = validateRGBA(items) {
                        lastError = msg
                    } else {
                        let n = items.map { $0.numberValue ?? 0 }
                        return .color(StyleColor(straightRed: n[0] / 255, green: n[1] / 255, blue: n[2] / 255, alpha: n.count == 4 ? n[3] : 1))
                    }
                default: break
                }
            }
            if let lastError { throw runtimeError(lastError) }
            let shown: String = if case .string(let s) = input { s } else { input.jsonString }
            throw runtimeError("Could not parse color from value '\(shown)'")
        case .number:
            var value: ExpressionValue = .null
            for arg in args {
                value = try arg.evaluate(ctx)
                let n: Double
                switch value {
                case .null: n = 0
                case .boolean(let b): n = b ? 1 : 0
                case .number(let x): n = x
                case .string(let s): n = jsNumber(s)
                default: n = .nan
                }
                if !n.isNaN { return .number(n) }
            }
            throw runtimeError("Could not convert \(value.jsonString) to number.")
        case .formatted:
            let v = try args[0].evaluate(ctx)
            if case .formatted = v { return v }
            if case .image(let img) = v { return .formatted(Formatted(sections: [FormattedSection(text: "", image: img)])) }
            return .formatted(Formatted(sections: [FormattedSection(text: v.displayString)]))
        case .resolvedImage:
            let v = try args[0].evaluate(ctx)
            if case .image = v { return v }
            let name = v.displayString
            return .image(ResolvedImage(name: name, available: ctx.availableImages?.contains(name) ?? false))
        case .padding:
            let v = try args[0].evaluate(ctx)
            switch v {
            case .padding: return v
            case .number(let n): return .padding([n, n, n, n])
            case .array(let items) where (1...4).contains(items.count) && items.allSatisfy({ $0.numberValue != nil }):
                let n = items.map { $0.numberValue! }
                switch n.count {
                case 1: return .padding([n[0], n[0], n[0], n[0]])
                case 2: return .padding([n[0], n[1], n[0], n[1]])
                case 3: return .padding([n[0], n[1], n[2], n[1]])
                default: return .padding(n)
                }
            default: throw runtimeError("Could not parse padding from value '\(v.isNull ? "null" : v.displayString)'")
            }
        case .numberArray:
            let v = try args[0].evaluate(ctx)
            switch v {
            case .numberArray: return v
            case .number(let n): return .numberArray([n])
            case .array(let items) where items.allSatisfy({ $0.numberValue != nil }): return .numberArray(items.map { $0.numberValue! })
            default: throw runtimeError("Could not parse numberArray from value '\(v.jsonString)'")
            }
        case .colorArray:
            let v = try args[0].evaluate(ctx)
            switch v {
            case .colorArray: return v
            case .color(let c): return .colorArray([c])
            case .string(let s):
                if let c = StyleColor.parse(s) { return .colorArray([c]) }
            case .array(let items):
                var colors: [StyleColor] = []
                for item in items {
                    switch item {
                    case .color(let c): colors.append(c)
                    case .string(let s): if let c = StyleColor.parse(s) { colors.append(c) }
                    default: break
                    }
                }
                if colors.count == items.count { return .colorArray(colors) }
            default: break
            }
            throw runtimeError("Could not parse colorArray from value '\(v.displayString)'")
        case .projectionDefinition:
            let v = try args[0].evaluate(ctx)
            switch v {
            case .string, .projection: return v
            case .array(let items) where items.count == 3 && items[0].stringValue != nil && items[1].stringValue != nil && items[2].numberValue != nil:
                return v
            default: throw runtimeError("Could not parse projectionDefinition from value '\(v.displayString)'")
            }
        default:
            return try args[0].evaluate(ctx)
        }
    }
}

func validateRGBA(_ items: [ExpressionValue]) -> String? {
    let n = items.map { $0.numberValue }
    let shown = "[" + items.map(\.jsonString).joined(separator: ", ") + "]"
    guard n.prefix(3).allSatisfy({ $0 != nil && $0! >= 0 && $0! <= 255 }) else {
        return "Invalid rgba value \(shown): 'r', 'g', and 'b' must be between 0 and 255."
    }
    if n.count == 4, !(n[3] != nil && n[3]! >= 0 && n[3]! <= 1) {
        return "Invalid rgba value \(shown): 'a' must be between 0 and 1."
    }
    return nil
}

/// JavaScript's `Number(string)`: trims whitespace, "" is 0, hexadecimal and Infinity allowed.
func jsNumber(_ s: String) -> Double {
    let t = s.trimmingCharacters(in: .whitespacesAndNewlines)
    if t.isEmpty { return 0 }
    if t.hasPrefix("0x") || t.hasPrefix("0X") { return UInt64(t.dropFirst(2), radix: 16).map(Double.init) ?? .nan }
    if t == "Infinity" || t == "+Infinity" { return .infinity }
    if t == "-Infinity" { return -.infinity }
    if t.lowercased().contains("inf") || t.lowercased().contains("nan") { return .nan }
    return Double(t) ?? .nan
}

/// A built-in operator with a fixed signature: math, string functions, feature accessors.
final class CompoundNode: ExprNode {
    typealias Evaluator = @Sendable (EvaluationContext, [any ExprNode]) throws(ExpressionError) -> ExpressionValue
    let name: String
    let type: ExpressionType
    let args: [any ExprNode]
    let ownDependencies: Dependencies
    let evaluator: Evaluator
    init(name: String, type: ExpressionType, args: [any ExprNode], dependencies: Dependencies, evaluator: @escaping Evaluator) {
        self.name = name; self.type = type; self.args = args; self.ownDependencies = dependencies; self.evaluator = evaluator
    }
    var children: [any ExprNode] { args }
    func evaluate(_ ctx: EvaluationContext) throws(ExpressionError) -> ExpressionValue { try evaluator(ctx, args) }
}

final class VarNode: ExprNode {
    let name: String
    let bound: any ExprNode
    init(name: String, bound: any ExprNode) { self.name = name; self.bound = bound }
    var type: ExpressionType { bound.type }
    var ownDependencies: Dependencies { bound.allDependencies }
    func evaluate(_ ctx: EvaluationContext) throws(ExpressionError) -> ExpressionValue { try bound.evaluate(ctx) }
}

final class LetNode: ExprNode {
    let bindings: [(String, any ExprNode)]
    let result: any ExprNode
    init(bindings: [(String, any ExprNode)], result: any ExprNode) { self.bindings = bindings; self.result = result }
    var type: ExpressionType { result.type }
    var children: [any ExprNode] { bindings.map(\.1) + [result] }
    func evaluate(_ ctx: EvaluationContext) throws(ExpressionError) -> ExpressionValue { try result.evaluate(ctx) }
}

final class CaseNode: ExprNode {
    let type: ExpressionType
    let branches: [(any ExprNode, any ExprNode)]
    let otherwise: any ExprNode
    init(type: ExpressionType, branches: [(any ExprNode, any ExprNode)], otherwise: any ExprNode) {
        self.type = type; self.branches = branches; self.otherwise = otherwise
    }
    var children: [any ExprNode] { branches.flatMap { [$0.0, $0.1] } + [otherwise] }
    func evaluate(_ ctx: EvaluationContext) throws(ExpressionError) -> ExpressionValue {
        for (test, result) in branches where try test.boolean(ctx) { return try result.evaluate(ctx) }
        return try otherwise.evaluate(ctx)
    }
}

enum MatchKey: Hashable, Sendable {
    case number(Double)
    case string(String)
}

final class MatchNode: ExprNode {
    let type: ExpressionType
    let inputType: ExpressionType
    let input: any ExprNode
    let cases: [MatchKey: Int]
    let outputs: [any ExprNode]
    let otherwise: any ExprNode
    init(type: ExpressionType, inputType: ExpressionType, input: any ExprNode, cases: [MatchKey: Int], outputs: [any ExprNode], otherwise: any ExprNode) {
        self.type = type; self.inputType = inputType; self.input = input; self.cases = cases; self.outputs = outputs; self.otherwise = otherwise
    }
    var children: [any ExprNode] { [input] + outputs + [otherwise] }
    func evaluate(_ ctx: EvaluationContext) throws(ExpressionError) -> ExpressionValue {
        let v = try input.evaluate(ctx)
        let key: MatchKey?
        switch v {
        case .number(let n) where inputType == .number: key = .number(n)
        case .string(let s) where inputType == .string: key = .string(s)
        default: key = nil
        }
        if let key, let i = cases[key] { return try outputs[i].evaluate(ctx) }
        return try otherwise.evaluate(ctx)
    }
}

final class CoalesceNode: ExprNode {
    let type: ExpressionType
    let args: [any ExprNode]
    init(type: ExpressionType, args: [any ExprNode]) { self.type = type; self.args = args }
    var children: [any ExprNode] { args }
    func evaluate(_ ctx: EvaluationContext) throws(ExpressionError) -> ExpressionValue {
        var result: ExpressionValue = .null
        var lastImage: ExpressionValue?
        for arg in args {
            result = try arg.evaluate(ctx)
            if case .image(let img) = result {
                if img.available { return result }
                lastImage = lastImage ?? result
                continue
            }
            if !result.isNull { return result }
        }
        return lastImage ?? result
    }
}

final class StepNode: ExprNode {
    let type: ExpressionType
    let input: any ExprNode
    let labels: [Double]
    let outputs: [any ExprNode]
    init(type: ExpressionType, input: any ExprNode, labels: [Double], outputs: [any ExprNode]) {
        self.type = type; self.input = input; self.labels = labels; self.outputs = outputs
    }
    var children: [any ExprNode] { [input] + outputs }
    func evaluate(_ ctx: EvaluationContext) throws(ExpressionError) -> ExpressionValue {
        if outputs.count == 1 { return try outputs[0].evaluate(ctx) }
        let x = try input.number(ctx)
        return try outputs[stopIndex(labels, x)].evaluate(ctx)
    }
}

/// The index of the last stop whose label is ≤ x (0 when x is below every label).
func stopIndex(_ labels: [Double], _ x: Double) -> Int {
    var lo = 0, hi = labels.count - 1
    if x <= labels[0] { return 0 }
    if x >= labels[hi] { return hi }
    while lo < hi {
        let mid = (lo + hi + 1) / 2
        if labels[mid] <= x { lo = mid } else { hi = mid - 1 }
    }
    return lo
}

enum Interpolation: Sendable {
    case linear
    case exponential(Double)
    case cubicBezier(Double, Double, Double, Double)

    func factor(_ x: Double, _ lower: Double, _ upper: Double) -> Double {
        switch self {
        case .linear: return exponentialFactor(x, 1, lower, upper)
        case .exponential(let base): return exponentialFactor(x, base, lower, upper)
        case .cubicBezier(let x1, let y1, let x2, let y2):
            let t = exponentialFactor(x, 1, lower, upper)
            return UnitBezier(x1, y1, x2, y2).solve(t)
        }
    }
}

func exponentialFactor(_ x: Double, _ base: Double, _ lower: Double, _ upper: Double) -> Double {
    let diff = upper - lower
    let progress = x - lower
    if diff == 0 { return 0 }
    if base == 1 { return progress / diff }
    return (pow(base, progress) - 1) / (pow(base, diff) - 1)
}

/// A CSS-style cubic Bézier timing curve from (0,0) to (1,1) (WebKit's and MapLibre's
/// `UnitBezier`): `cubic-bezier` interpolation, style transitions' easing and, in OpenMapKit,
/// `CAMediaTimingFunction`.
public struct UnitBezier: Sendable {
    let cx, bx, ax, cy, by, ay: Double
    /// The curve through (0,0), the control points (`p1x`, `p1y`) and (`p2x`, `p2y`), and (1,1).
    public init(_ p1x: Double, _ p1y: Double, _ p2x: Double, _ p2y: Double) {
        cx = 3 * p1x; bx = 3 * (p2x - p1x) - cx; ax = 1 - cx - bx
        cy = 3 * p1y; by = 3 * (p2y - p1y) - cy; ay = 1 - cy - by
    }
    func x(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
    func y(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }
    func dx(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }
    func solveX(_ x0: Double, epsilon: Double = 1e-6) -> Double {
        var t = x0
        for _ in 0..<8 {
            let err = x(t) - x0
            if abs(err) < epsilon { return t }
            let d = dx(t)
            if abs(d) < 1e-6 { break }
            t -= err / d
        }
        var lo = 0.0, hi = 1.0
        t = x0
        if t < lo { return lo }
        if t > hi { return hi }
        while lo < hi {
            let v = x(t)
            if abs(v - x0) < epsilon { return t }
            if x0 > v { lo = t } else { hi = t }
            t = (hi - lo) * 0.5 + lo
            if hi - lo < 1e-12 { break }
        }
        return t
    }
    /// The curve's y where its x is `x0`, x solved to within `epsilon` (Newton's method first,
    /// bisection when it stalls).
    public func solve(_ x0: Double, epsilon: Double = 1e-6) -> Double { y(solveX(x0, epsilon: epsilon)) }
}

enum ColorSpace: Sendable { case rgb, hcl, lab }

final class InterpolateNode: ExprNode {
    let type: ExpressionType
    let interpolation: Interpolation
    let space: ColorSpace
    let input: any ExprNode
    let labels: [Double]
    let outputs: [any ExprNode]
    init(type: ExpressionType, interpolation: Interpolation, space: ColorSpace, input: any ExprNode, labels: [Double], outputs: [any ExprNode]) {
        self.type = type; self.interpolation = interpolation; self.space = space; self.input = input; self.labels = labels; self.outputs = outputs
    }
    var children: [any ExprNode] { [input] + outputs }
    func evaluate(_ ctx: EvaluationContext) throws(ExpressionError) -> ExpressionValue {
        if outputs.count == 1 { return try outputs[0].evaluate(ctx) }
        let x = try input.number(ctx)
        if x <= labels[0] { return try outputs[0].evaluate(ctx) }
        let last = labels.count - 1
        if x >= labels[last] { return try outputs[last].evaluate(ctx) }
        let i = stopIndex(labels, x)
        let t = interpolation.factor(x, labels[i], labels[i + 1])
        let a = try outputs[i].evaluate(ctx)
        let b = try outputs[i + 1].evaluate(ctx)
        return interpolateValues(a, b, t, space)
    }
}

extension ExpressionValue {
    /// The value `fraction` of the way from this one to `other`, as `interpolate` blends its
    /// stops in RGB (numbers, colours, arrays of them, paddings): what a paint property shows
    /// part-way through a style transition. Values that do not blend give this one before the
    /// end and `other` at it.
    public func interpolated(to other: ExpressionValue, fraction: Double) -> ExpressionValue {
        interpolateValues(self, other, fraction, .rgb)
    }
}

func interpolateValues(_ a: ExpressionValue, _ b: ExpressionValue, _ t: Double, _ space: ColorSpace) -> ExpressionValue {
    switch (a, b) {
    case (.number(let x), .number(let y)): return .number(x + (y - x) * t)
    case (.color(let x), .color(let y)): return .color(interpolateColor(x, y, t, space))
    case (.array(let xs), .array(let ys)) where xs.count == ys.count:
        return .array(zip(xs, ys).map { interpolateValues($0, $1, t, space) })
    case (.padding(let xs), .padding(let ys)):
        return .padding(zip(xs, ys).map { $0 + ($1 - $0) * t })
    case (.numberArray(let xs), .numberArray(let ys)) where xs.count == ys.count:
        return .numberArray(zip(xs, ys).map { $0 + ($1 - $0) * t })
    case (.colorArray(let xs), .colorArray(let ys)) where xs.count == ys.count:
        return .colorArray(zip(xs, ys).map { interpolateColor($0, $1, t, space) })
    case (.string(let x), .string(let y)):
        return .projection(from: x, to: y, transition: t)
    default: return t < 1 ? a : b
    }
}

func interpolateColor(_ a: StyleColor, _ b: StyleColor, _ t: Double, _ space: ColorSpace) -> StyleColor {
    func lerp(_ x: Double, _ y: Double) -> Double { x + (y - x) * t }
    switch space {
    case .rgb:
        return StyleColor(r: lerp(a.r, b.r), g: lerp(a.g, b.g), b: lerp(a.b, b.b), a: lerp(a.a, b.a))
    case .lab:
        let x = Lab(a), y = Lab(b)
        return Lab(l: lerp(x.l, y.l), a: lerp(x.a, y.a), b: lerp(x.b, y.b), alpha: lerp(x.alpha, y.alpha)).color
    case .hcl:
        let x = HCL(Lab(a)), y = HCL(Lab(b))
        var h: Double
        if x.h.isNaN && y.h.isNaN { h = .nan } else if x.h.isNaN { h = y.h } else if y.h.isNaN { h = x.h } else {
            var d = y.h - x.h
            if d > 180 || d < -180 { d -= 360 * (d / 360).rounded() }
            h = x.h + t * d
        }
        return HCL(h: h, c: lerp(x.c, y.c), l: lerp(x.l, y.l), alpha: lerp(x.alpha, y.alpha)).lab.color
    }
}

/// CIE L*a*b* (D50 white, as MapLibre's color interpolation uses).
struct Lab {
    var l, a, b, alpha: Double
    static let xn = 0.96422, yn = 1.0, zn = 0.82521
    static let t0 = 4.0 / 29, t1 = 6.0 / 29, t2 = 3 * (6.0 / 29) * (6.0 / 29), t3 = (6.0 / 29) * (6.0 / 29) * (6.0 / 29)
    init(l: Double, a: Double, b: Double, alpha: Double) { self.l = l; self.a = a; self.b = b; self.alpha = alpha }
    init(_ c: StyleColor) {
        let s = c.straight
        func lin(_ x: Double) -> Double { x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4) }
        func f(_ t: Double) -> Double { t > Lab.t3 ? cbrt(t) : t / Lab.t2 + Lab.t0 }
        let r = lin(s.r), g = lin(s.g), bl = lin(s.b)
        let y = f((0.2225045 * r + 0.7168786 * g + 0.0606169 * bl) / Lab.yn)
        let x: Double, z: Double
        if r == g && g == bl { x = y; z = y } else {
            x = f((0.4360747 * r + 0.3850649 * g + 0.1430804 * bl) / Lab.xn)
            z = f((0.0139322 * r + 0.0971045 * g + 0.7141733 * bl) / Lab.zn)
        }
        l = 116 * y - 16; a = 500 * (x - y); b = 200 * (y - z); alpha = s.a
    }
    var color: StyleColor {
        var y = (l + 16) / 116
        var x = a.isNaN ? y : y + a / 500
        var z = b.isNaN ? y : y - b / 200
        func finv(_ t: Double) -> Double { t > Lab.t1 ? t * t * t : Lab.t2 * (t - Lab.t0) }
        func gam(_ x: Double) -> Double { x <= 0.0031308 ? 12.92 * x : 1.055 * pow(x, 1 / 2.4) - 0.055 }
        y = Lab.yn * finv(y); x = Lab.xn * finv(x); z = Lab.zn * finv(z)
        let r = gam(3.1338561 * x - 1.6168667 * y - 0.4906146 * z)
        let g = gam(-0.9787684 * x + 1.9161415 * y + 0.0334540 * z)
        let bl = gam(0.0719453 * x - 0.2289914 * y + 1.4052427 * z)
        func clamp(_ v: Double) -> Double { min(max(v, 0), 1) }
        return StyleColor(straightRed: clamp(r), green: clamp(g), blue: clamp(bl), alpha: alpha)
    }
}

struct HCL {
    var h, c, l, alpha: Double
    init(h: Double, c: Double, l: Double, alpha: Double) { self.h = h; self.c = c; self.l = l; self.alpha = alpha }
    init(_ lab: Lab) {
        let c = (lab.a * lab.a + lab.b * lab.b).squareRoot()
        var h = atan2(lab.b, lab.a) * 180 / .pi
        if h < 0 { h += 360 }
        if (c * 10000).rounded() == 0 { h = .nan }
        self.h = h; self.c = c; l = lab.l; alpha = lab.alpha
    }
    var lab: Lab {
        let hr = h.isNaN ? 0 : h * .pi / 180
        return Lab(l: l, a: cos(hr) * c, b: sin(hr) * c, alpha: alpha)
    }
}

final class ComparisonNode: ExprNode {
    let op: String
    let lhs: any ExprNode
    let rhs: any ExprNode
    let collator: (any ExprNode)?
    let hasUntypedArgument: Bool
    var type: ExpressionType { .boolean }
    init(op: String, lhs: any ExprNode, rhs: any ExprNode, collator: (any ExprNode)?) {
        self.op = op; self.lhs = lhs; self.rhs = rhs; self.collator = collator
        hasUntypedArgument = lhs.type == .value || rhs.type == .value
    }
    var children: [any ExprNode] { [lhs, rhs] + (collator.map { [$0] } ?? []) }
    var isOrder: Bool { op != "==" && op != "!=" }

    func evaluate(_ ctx: EvaluationContext) throws(ExpressionError) -> ExpressionValue {
        let a = try lhs.evaluate(ctx), b = try rhs.evaluate(ctx)
        if isOrder && hasUntypedArgument {
            let lt = a.type.kind, rt = b.type.kind
            if lt != rt || !(lt == "string" || lt == "number") {
                throw runtimeError("Expected arguments for \"\(op)\" to be (string, string) or (number, number), but found (\(lt), \(rt)) instead.")
            }
        }
        if let collator, case .string(let x) = a, case .string(let y) = b,
           case .collator(let c) = try collator.evaluate(ctx) {
            return .boolean(compare(c.compare(x, y)))
        }
        if isOrder {
            switch (a, b) {
            case (.number(let x), .number(let y)):
                switch op {
                case "<": return .boolean(x < y)
                case "<=": return .boolean(x <= y)
                case ">": return .boolean(x > y)
                default: return .boolean(x >= y)
                }
            case (.string(let x), .string(let y)):
                let c = x == y ? 0 : (x.utf16.lexicographicallyPrecedes(y.utf16) ? -1 : 1)
                return .boolean(compare(c))
            default: return .boolean(false)
            }
        }
        let equal: Bool
        switch (a, b) {
        case (.array, _), (.object, _), (_, .array), (_, .object): equal = false
        default: equal = a == b
        }
        return .boolean(op == "==" ? equal : !equal)
    }

    private func compare(_ c: Int) -> Bool {
        switch op {
        case "==": c == 0
        case "!=": c != 0
        case "<": c < 0
        case "<=": c <= 0
        case ">": c > 0
        default: c >= 0
        }
    }
}

final class AtNode: ExprNode {
    let type: ExpressionType
    let index: any ExprNode
    let input: any ExprNode
    init(type: ExpressionType, index: any ExprNode, input: any ExprNode) { self.type = type; self.index = index; self.input = input }
    var children: [any ExprNode] { [index, input] }
    func evaluate(_ ctx: EvaluationContext) throws(ExpressionError) -> ExpressionValue {
        let i = try index.number(ctx)
        guard case .array(let items) = try input.evaluate(ctx) else { return .null }
        if i < 0 { throw runtimeError("Array index out of bounds: \(jsNumberString(i)) < 0.") }
        if i >= Double(items.count) { throw runtimeError("Array index out of bounds: \(jsNumberString(i)) > \(items.count - 1).") }
        if i != i.rounded(.down) { throw runtimeError("Array index must be an integer, but found \(jsNumberString(i)) instead.") }
        return items[Int(i)]
    }
}

func isNeedleType(_ v: ExpressionValue) -> Bool {
    switch v {
    case .boolean, .string, .number, .null: true
    default: false
    }
}

/// `in` and `index-of`: membership in an array or substring search (by Unicode code points).
final class SearchNode: ExprNode {
    let returnsIndex: Bool
    let needle: any ExprNode
    let haystack: any ExprNode
    let fromIndex: (any ExprNode)?
    var type: ExpressionType { returnsIndex ? .number : .boolean }
    init(returnsIndex: Bool, needle: any ExprNode, haystack: any ExprNode, fromIndex: (any ExprNode)?) {
        self.returnsIndex = returnsIndex; self.needle = needle; self.haystack = haystack; self.fromIndex = fromIndex
    }
    var children: [any ExprNode] { [needle, haystack] + (fromIndex.map { [$0] } ?? []) }
    func evaluate(_ ctx: EvaluationContext) throws(ExpressionError) -> ExpressionValue {
        let n = try needle.evaluate(ctx)
        let h = try haystack.evaluate(ctx)
        if !returnsIndex && h.isNull { return .boolean(false) }
        guard isNeedleType(n) else {
            throw runtimeError("Expected first argument to be of type boolean, string, number or null, but found \(n.type.kind) instead.")
        }
        var start = 0
        if let fromIndex { start = Int(try fromIndex.number(ctx)) }
        var found = -1
        switch h {
        case .array(let items):
            let s = max(0, start < 0 ? items.count + start : start)
            if s < items.count {
                for i in s..<items.count where items[i] == n {
                    if case .array = n { continue }
                    found = i; break
                }
            }
        case .string(let s):
            if !returnsIndex && s.isEmpty { return .boolean(false) }
            let hay = Array(s.unicodeScalars)
            let nd: [Unicode.Scalar]
            if case .null = n { nd = Array("null".unicodeScalars) } else { nd = Array(n.displayString.unicodeScalars) }
            let from = max(0, min(start, hay.count))
            if nd.isEmpty { found = from } else if hay.count >= nd.count {
                var i = from
                while i + nd.count <= hay.count {
                    if Array(hay[i..<(i + nd.count)]) == nd { found = i; break }
                    i += 1
                }
            }
        default:
            throw runtimeError("Expected second argument to be of type array or string, but found \(h.type.kind) instead.")
        }
        return returnsIndex ? .number(Double(found)) : .boolean(found >= 0)
    }
}

final class SliceNode: ExprNode {
    let type: ExpressionType
    let input: any ExprNode
    let start: any ExprNode
    let end: (any ExprNode)?
    init(type: ExpressionType, input: any ExprNode, start: any ExprNode, end: (any ExprNode)?) {
        self.type = type; self.input = input; self.start = start; self.end = end
    }
    var children: [any ExprNode] { [input, start] + (end.map { [$0] } ?? []) }
    func evaluate(_ ctx: EvaluationContext) throws(ExpressionError) -> ExpressionValue {
        let v = try input.evaluate(ctx)
        let s = try start.number(ctx)
        let e = try end?.number(ctx)
        func range(_ count: Int) -> Range<Int> {
            func norm(_ x: Double) -> Int {
                let i = x.isNaN ? 0 : Int(max(min(x, 1e15), -1e15))
                return i < 0 ? max(0, count + i) : min(i, count)
            }
            let lo = norm(s), hi = e.map(norm) ?? count
            return lo < hi ? lo..<hi : lo..<lo
        }
        switch v {
        case .array(let items): return .array(Array(items[range(items.count)]))
        case .string(let str):
            let scalars = Array(str.unicodeScalars)
            var out = String.UnicodeScalarView()
            out.append(contentsOf: scalars[range(scalars.count)])
            return .string(String(out))
        default:
            throw runtimeError("Expected first argument to be of type array or string, but found \(v.type.kind) instead.")
        }
    }
}

final class LengthNode: ExprNode {
    let input: any ExprNode
    init(input: any ExprNode) { self.input = input }
    var type: ExpressionType { .number }
    var children: [any ExprNode] { [input] }
    func evaluate(_ ctx: EvaluationContext) throws(ExpressionError) -> ExpressionValue {
        let v = try input.evaluate(ctx)
        switch v {
        case .string(let s): return .number(Double(s.utf16.count))
        case .array(let a): return .number(Double(a.count))
        default: throw runtimeError("Expected value to be of type string or array, but found \(v.type.kind) instead.")
        }
    }
}

final class CollatorNode: ExprNode {
    let caseSensitive: any ExprNode
    let diacriticSensitive: any ExprNode
    let locale: (any ExprNode)?
    init(caseSensitive: any ExprNode, diacriticSensitive: any ExprNode, locale: (any ExprNode)?) {
        self.caseSensitive = caseSensitive; self.diacriticSensitive = diacriticSensitive; self.locale = locale
    }
    var type: ExpressionType { .collator }
    var ownDependencies: Dependencies { .opaque }
    var children: [any ExprNode] { [caseSensitive, diacriticSensitive] + (locale.map { [$0] } ?? []) }
    func evaluate(_ ctx: EvaluationContext) throws(ExpressionError) -> ExpressionValue {
        .collator(ExpressionCollator(caseSensitive: try caseSensitive.boolean(ctx), diacriticSensitive: try diacriticSensitive.boolean(ctx),
                                     locale: try locale?.string(ctx)))
    }
}

struct FormatSectionNode: Sendable {
    let content: any ExprNode
    let scale: (any ExprNode)?
    let font: (any ExprNode)?
    let textColor: (any ExprNode)?
    let verticalAlign: (any ExprNode)?
}

final class FormatNode: ExprNode {
    let sections: [FormatSectionNode]
    init(sections: [FormatSectionNode]) { self.sections = sections }
    var type: ExpressionType { .formatted }
    var children: [any ExprNode] {
        sections.flatMap { s in [s.content] + [s.scale, s.font, s.textColor, s.verticalAlign].compactMap { $0 } }
    }
    func evaluate(_ ctx: EvaluationContext) throws(ExpressionError) -> ExpressionValue {
        var out: [FormattedSection] = []
        for s in sections {
            let v = try s.content.evaluate(ctx)
            var section = FormattedSection(text: "")
            if case .image(let img) = v { section.image = img } else { section.text = v.displayString }
            section.scale = try s.scale?.number(ctx)
            if let font = s.font, case .array(let items) = try font.evaluate(ctx) {
                section.fontStack = items.map(\.displayString).joined(separator: ",")
            }
            if let c = s.textColor { section.textColor = try c.evaluate(ctx).colorValue }
            section.verticalAlign = try s.verticalAlign?.string(ctx)
            out.append(section)
        }
        return .formatted(Formatted(sections: out))
    }
}

final class NumberFormatNode: ExprNode {
    let number: any ExprNode
    let locale: (any ExprNode)?
    let currency: (any ExprNode)?
    let unit: (any ExprNode)?
    let minFraction: (any ExprNode)?
    let maxFraction: (any ExprNode)?
    init(number: any ExprNode, locale: (any ExprNode)?, currency: (any ExprNode)?, unit: (any ExprNode)?,
         minFraction: (any ExprNode)?, maxFraction: (any ExprNode)?) {
        self.number = number; self.locale = locale; self.currency = currency; self.unit = unit
        self.minFraction = minFraction; self.maxFraction = maxFraction
    }
    var type: ExpressionType { .string }
    var children: [any ExprNode] { [number] + [locale, currency, unit, minFraction, maxFraction].compactMap { $0 } }
    func evaluate(_ ctx: EvaluationContext) throws(ExpressionError) -> ExpressionValue {
        let n = try number.number(ctx)
        _ = try locale?.string(ctx)
        let currencyCode = try currency?.string(ctx)
        let unitName = try unit?.string(ctx)
        let currencyDigits = currencyCode == "JPY" || currencyCode == "KRW" ? 0 : 2
        var minDigits = currencyCode != nil ? currencyDigits : 0
        var maxDigits = currencyCode != nil ? currencyDigits : 3
        if let minFraction { minDigits = Int(try minFraction.number(ctx)); maxDigits = max(maxDigits, minDigits) }
        if let maxFraction { maxDigits = Int(try maxFraction.number(ctx)) }
        var text = formatDecimal(n, minFraction: minDigits, maxFraction: max(minDigits, maxDigits))
        if let currencyCode {
            let symbols = ["USD": "$", "EUR": "€", "JPY": "¥", "GBP": "£", "CNY": "CN¥", "INR": "₹", "KRW": "₩", "CAD": "CA$", "AUD": "A$"]
            let sign = text.hasPrefix("-") ? "-" : ""
            if !sign.isEmpty { text.removeFirst() }
            text = sign + (symbols[currencyCode].map { $0 } ?? currencyCode + "\u{A0}") + text
        }
        if let unitName {
            let symbols = ["meter": " m", "kilometer": " km", "centimeter": " cm", "celsius": "°C", "fahrenheit": "°F",
                           "kilobyte": " kB", "megabyte": " MB", "gigabyte": " GB", "byte": " byte", "percent": "%",
                           "mile": " mi", "foot": " ft", "second": " sec", "minute": " min", "hour": " hr", "degree": " deg"]
            text += symbols[unitName] ?? " \(unitName)"
        }
        return .string(text)
    }
}

/// Formats like `Intl.NumberFormat("en-US")`: thousands separators, rounding half away from zero
/// on the number's shortest decimal representation, at least `minFraction` fraction digits.
func formatDecimal(_ value: Double, minFraction: Int, maxFraction: Int) -> String {
    guard value.isFinite else { return value.isNaN ? "NaN" : (value > 0 ? "∞" : "-∞") }
    let negative = value < 0
    // Shortest round-trip digits, expanded out of exponent notation.
    var digits = jsNumberString(abs(value))
    if digits.contains("e") { digits = String(format: "%.20f", abs(value)) }
    var intPart = digits, frac = ""
    if let dot = digits.firstIndex(of: ".") {
        intPart = String(digits[..<dot]); frac = String(digits[digits.index(after: dot)...])
    }
    var intDigits = Array(intPart).map { Int(String($0))! }
    var fracDigits = Array(frac).map { Int(String($0))! }
    if fracDigits.count > maxFraction {
        let roundUp = fracDigits[maxFraction] >= 5
        fracDigits = Array(fracDigits.prefix(maxFraction))
        if roundUp {
            var i = fracDigits.count - 1
            var carry = true
            while carry && i >= 0 { fracDigits[i] += 1; if fracDigits[i] == 10 { fracDigits[i] = 0; i -= 1 } else { carry = false } }
            i = intDigits.count - 1
            while carry && i >= 0 { intDigits[i] += 1; if intDigits[i] == 10 { intDigits[i] = 0; i -= 1 } else { carry = false } }
            if carry { intDigits.insert(1, at: 0) }
        }
    }
    while fracDigits.count > minFraction, fracDigits.last == 0 { fracDigits.removeLast() }
    while fracDigits.count < minFraction { fracDigits.append(0) }
    var grouped = ""
    for (i, d) in intDigits.enumerated() {
        if i > 0 && (intDigits.count - i) % 3 == 0 { grouped += "," }
        grouped += String(d)
    }
    let isZero = intDigits.allSatisfy { $0 == 0 } && fracDigits.allSatisfy { $0 == 0 }
    return (negative && !isZero ? "-" : "") + grouped + (fracDigits.isEmpty ? "" : "." + fracDigits.map(String.init).joined())
}

final class ImageNode: ExprNode {
    let name: any ExprNode
    init(name: any ExprNode) { self.name = name }
    var type: ExpressionType { .resolvedImage }
    var ownDependencies: Dependencies { .image }
    var children: [any ExprNode] { [name] }
    func evaluate(_ ctx: EvaluationContext) throws(ExpressionError) -> ExpressionValue {
        let n = try name.evaluate(ctx).displayString
        return .image(ResolvedImage(name: n, available: ctx.availableImages?.contains(n) ?? false))
    }
}

final class GlobalStateNode: ExprNode {
    let key: String
    let type: ExpressionType
    init(key: String, type: ExpressionType) { self.key = key; self.type = type }
    var ownDependencies: Dependencies { .global }
    func evaluate(_ ctx: EvaluationContext) throws(ExpressionError) -> ExpressionValue {
        ctx.globalState[key] ?? .null
    }
}

/// `["semiliteral", [...]]`: an array whose elements are expressions.
final class ArrayNode: ExprNode {
    let type: ExpressionType
    let items: [any ExprNode]
    init(type: ExpressionType, items: [any ExprNode]) { self.type = type; self.items = items }
    var children: [any ExprNode] { items }
    func evaluate(_ ctx: EvaluationContext) throws(ExpressionError) -> ExpressionValue {
        var out: [ExpressionValue] = []
        out.reserveCapacity(items.count)
        for i in items { out.append(try i.evaluate(ctx)) }
        return .array(out)
    }
}
