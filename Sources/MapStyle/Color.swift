import Foundation

/// An RGBA color as the expression language computes with it: straight (not premultiplied)
/// components in 0…1, because interpolation works on straight components (a fully transparent
/// color keeps its hue), while results are handed to the renderer premultiplied (`premultiplied`).
public struct StyleColor: Hashable, Sendable {
    public var r: Double
    public var g: Double
    public var b: Double
    public var a: Double

    /// Straight components in 0…1.
    public init(r: Double, g: Double, b: Double, a: Double) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }

    /// From straight (not premultiplied) components in 0…1.
    public init(straightRed r: Double, green g: Double, blue b: Double, alpha a: Double) {
        self.init(r: r, g: g, b: b, a: a)
    }

    /// Components with r, g and b multiplied by alpha, as blending (and MapLibre's output) uses them.
    public var premultiplied: (r: Double, g: Double, b: Double, a: Double) { (r * a, g * a, b * a, a) }

    public static let black = StyleColor(r: 0, g: 0, b: 0, a: 1)
    public static let white = StyleColor(r: 1, g: 1, b: 1, a: 1)
    public static let transparent = StyleColor(r: 0, g: 0, b: 0, a: 0)

    var straight: (r: Double, g: Double, b: Double, a: Double) { (r, g, b, a) }

    /// `[r, g, b, a]` with r, g, b in 0…255 (straight) — what `to-rgba` returns.
    public var rgba255: [Double] {
        let s = straight
        return [s.r * 255, s.g * 255, s.b * 255, s.a]
    }

    /// CSS `rgba(r,g,b,a)` text, as `to-string` renders a color.
    public var cssString: String {
        let v = rgba255
        func c(_ x: Double) -> String { String(Int(x.rounded())) }
        return "rgba(\(c(v[0])),\(c(v[1])),\(c(v[2])),\(jsNumberString(v[3])))"
    }

    /// Parses a CSS color string (names, #hex, rgb(), rgba(), hsl(), hsla()); nil when it is not one.
    public static func parse(_ text: String) -> StyleColor? {
        let s = text.trimmingCharacters(in: .whitespaces).lowercased()
        if s.isEmpty { return nil }
        if let named = namedColors[s] {
            if s == "transparent" { return .transparent }
            return StyleColor(straightRed: Double((named >> 16) & 0xFF) / 255, green: Double((named >> 8) & 0xFF) / 255,
                              blue: Double(named & 0xFF) / 255, alpha: 1)
        }
        if s.hasPrefix("#") {
            let hex = Array(s.dropFirst())
            guard hex.allSatisfy({ $0.isHexDigit }) else { return nil }
            let digits = hex.map { Double(Int(String($0), radix: 16)!) }
            switch digits.count {
            case 3, 4:
                let a = digits.count == 4 ? digits[3] * 17 / 255 : 1
                return StyleColor(straightRed: digits[0] * 17 / 255, green: digits[1] * 17 / 255, blue: digits[2] * 17 / 255, alpha: a)
            case 6, 8:
                func p(_ i: Int) -> Double { (digits[i] * 16 + digits[i + 1]) / 255 }
                return StyleColor(straightRed: p(0), green: p(2), blue: p(4), alpha: digits.count == 8 ? p(6) : 1)
            default: return nil
            }
        }
        guard let open = s.firstIndex(of: "("), s.hasSuffix(")") else { return nil }
        // The function name must touch its parenthesis ("rgb (…)" is not CSS).
        let fn = String(s[..<open])
        var body = String(s[s.index(after: open)..<s.index(before: s.endIndex)])
        var alphaPart: String?
        if body.contains("/") {
            let parts = body.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2 else { return nil }
            body = String(parts[0]); alphaPart = String(parts[1]).trimmingCharacters(in: .whitespaces)
        }
        var comps: [String]
        if body.contains(",") {
            comps = body.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            if alphaPart != nil { return nil }
        } else {
            comps = body.split(separator: " ").map(String.init)
            // Space-separated syntax gives alpha only after a slash.
            if comps.count != 3 { return nil }
        }
        if let alphaPart { comps.append(alphaPart) }
        guard comps.count == 3 || comps.count == 4 else { return nil }
        // Plain decimal numbers only: Swift's Double(_:) would also take "nan", "inf" and hex floats.
        func number(_ t: String) -> (Double, Bool)? {
            let percent = t.hasSuffix("%")
            let digits = percent ? t.dropLast() : Substring(t)
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && ($0.isNumber || "e.+-".contains($0)) }),
                  let value = Double(digits) else { return nil }
            return (value, percent)
        }
        func alpha() -> Double? {
            guard comps.count == 4, let (v, pct) = number(comps[3]) else { return comps.count == 3 ? 1 : nil }
            return min(max(pct ? v / 100 : v, 0), 1)
        }
        switch fn {
        case "rgb", "rgba":
            var ch: [Double] = []
            var percents: [Bool] = []
            for t in comps.prefix(3) {
                guard let (v, pct) = number(t) else { return nil }
                ch.append(min(max(pct ? v / 100 : v / 255, 0), 1)); percents.append(pct)
            }
            if Set(percents).count > 1 { return nil }
            guard let a = alpha() else { return nil }
            return StyleColor(straightRed: ch[0], green: ch[1], blue: ch[2], alpha: a)
        case "hsl", "hsla":
            let hueText = comps[0].hasSuffix("deg") ? String(comps[0].dropLast(3)) : comps[0]
            guard let (h0, huePercent) = number(hueText), !huePercent,
                  let (s0, sp) = number(comps[1]), let (l0, lp) = number(comps[2]), sp, lp,
                  let a = alpha() else { return nil }
            let h = ((h0.truncatingRemainder(dividingBy: 360)) + 360).truncatingRemainder(dividingBy: 360) / 360
            let sat = min(max(s0 / 100, 0), 1), l = min(max(l0 / 100, 0), 1)
            let m2 = l <= 0.5 ? l * (sat + 1) : l + sat - l * sat
            let m1 = l * 2 - m2
            func hue(_ h0: Double) -> Double {
                var h = h0
                if h < 0 { h += 1 } else if h > 1 { h -= 1 }
                if h * 6 < 1 { return m1 + (m2 - m1) * h * 6 }
                if h * 2 < 1 { return m2 }
                if h * 3 < 2 { return m1 + (m2 - m1) * (2.0 / 3 - h) * 6 }
                return m1
            }
            return StyleColor(straightRed: hue(h + 1.0 / 3), green: hue(h), blue: hue(h - 1.0 / 3), alpha: a)
        default:
            return nil
        }
    }

    static let namedColors: [String: UInt32] = [
        "transparent": 0, "aliceblue": 0xF0F8FF, "antiquewhite": 0xFAEBD7, "aqua": 0x00FFFF, "aquamarine": 0x7FFFD4,
        "azure": 0xF0FFFF, "beige": 0xF5F5DC, "bisque": 0xFFE4C4, "black": 0x000000, "blanchedalmond": 0xFFEBCD,
        "blue": 0x0000FF, "blueviolet": 0x8A2BE2, "brown": 0xA52A2A, "burlywood": 0xDEB887, "cadetblue": 0x5F9EA0,
        "chartreuse": 0x7FFF00, "chocolate": 0xD2691E, "coral": 0xFF7F50, "cornflowerblue": 0x6495ED, "cornsilk": 0xFFF8DC,
        "crimson": 0xDC143C, "cyan": 0x00FFFF, "darkblue": 0x00008B, "darkcyan": 0x008B8B, "darkgoldenrod": 0xB8860B,
        "darkgray": 0xA9A9A9, "darkgreen": 0x006400, "darkgrey": 0xA9A9A9, "darkkhaki": 0xBDB76B, "darkmagenta": 0x8B008B,
        "darkolivegreen": 0x556B2F, "darkorange": 0xFF8C00, "darkorchid": 0x9932CC, "darkred": 0x8B0000, "darksalmon": 0xE9967A,
        "darkseagreen": 0x8FBC8F, "darkslateblue": 0x483D8B, "darkslategray": 0x2F4F4F, "darkslategrey": 0x2F4F4F,
        "darkturquoise": 0x00CED1, "darkviolet": 0x9400D3, "deeppink": 0xFF1493, "deepskyblue": 0x00BFFF, "dimgray": 0x696969,
        "dimgrey": 0x696969, "dodgerblue": 0x1E90FF, "firebrick": 0xB22222, "floralwhite": 0xFFFAF0, "forestgreen": 0x228B22,
        "fuchsia": 0xFF00FF, "gainsboro": 0xDCDCDC, "ghostwhite": 0xF8F8FF, "gold": 0xFFD700, "goldenrod": 0xDAA520,
        "gray": 0x808080, "green": 0x008000, "greenyellow": 0xADFF2F, "grey": 0x808080, "honeydew": 0xF0FFF0,
        "hotpink": 0xFF69B4, "indianred": 0xCD5C5C, "indigo": 0x4B0082, "ivory": 0xFFFFF0, "khaki": 0xF0E68C,
        "lavender": 0xE6E6FA, "lavenderblush": 0xFFF0F5, "lawngreen": 0x7CFC00, "lemonchiffon": 0xFFFACD, "lightblue": 0xADD8E6,
        "lightcoral": 0xF08080, "lightcyan": 0xE0FFFF, "lightgoldenrodyellow": 0xFAFAD2, "lightgray": 0xD3D3D3,
        "lightgreen": 0x90EE90, "lightgrey": 0xD3D3D3, "lightpink": 0xFFB6C1, "lightsalmon": 0xFFA07A, "lightseagreen": 0x20B2AA,
        "lightskyblue": 0x87CEFA, "lightslategray": 0x778899, "lightslategrey": 0x778899, "lightsteelblue": 0xB0C4DE,
        "lightyellow": 0xFFFFE0, "lime": 0x00FF00, "limegreen": 0x32CD32, "linen": 0xFAF0E6, "magenta": 0xFF00FF,
        "maroon": 0x800000, "mediumaquamarine": 0x66CDAA, "mediumblue": 0x0000CD, "mediumorchid": 0xBA55D3,
        "mediumpurple": 0x9370DB, "mediumseagreen": 0x3CB371, "mediumslateblue": 0x7B68EE, "mediumspringgreen": 0x00FA9A,
        "mediumturquoise": 0x48D1CC, "mediumvioletred": 0xC71585, "midnightblue": 0x191970, "mintcream": 0xF5FFFA,
        "mistyrose": 0xFFE4E1, "moccasin": 0xFFE4B5, "navajowhite": 0xFFDEAD, "navy": 0x000080, "oldlace": 0xFDF5E6,
        "olive": 0x808000, "olivedrab": 0x6B8E23, "orange": 0xFFA500, "orangered": 0xFF4500, "orchid": 0xDA70D6,
        "palegoldenrod": 0xEEE8AA, "palegreen": 0x98FB98, "paleturquoise": 0xAFEEEE, "palevioletred": 0xDB7093,
        "papayawhip": 0xFFEFD5, "peachpuff": 0xFFDAB9, "peru": 0xCD853F, "pink": 0xFFC0CB, "plum": 0xDDA0DD,
        "powderblue": 0xB0E0E6, "purple": 0x800080, "rebeccapurple": 0x663399, "red": 0xFF0000, "rosybrown": 0xBC8F8F,
        "royalblue": 0x4169E1, "saddlebrown": 0x8B4513, "salmon": 0xFA8072, "sandybrown": 0xF4A460, "seagreen": 0x2E8B57,
        "seashell": 0xFFF5EE, "sienna": 0xA0522D, "silver": 0xC0C0C0, "skyblue": 0x87CEEB, "slateblue": 0x6A5ACD,
        "slategray": 0x708090, "slategrey": 0x708090, "snow": 0xFFFAFA, "springgreen": 0x00FF7F, "steelblue": 0x4682B4,
        "tan": 0xD2B48C, "teal": 0x008080, "thistle": 0xD8BFD8, "tomato": 0xFF6347, "turquoise": 0x40E0D0,
        "violet": 0xEE82EE, "wheat": 0xF5DEB3, "white": 0xFFFFFF, "whitesmoke": 0xF5F5F5, "yellow": 0xFFFF00,
        "yellowgreen": 0x9ACD32,
    ]
}

/// Formats a number the way JavaScript's `String(n)` does, since `to-string`, `concat` and error
/// messages in the style specification are defined by JavaScript's conversions.
public func jsNumberString(_ d: Double) -> String {
    if d.isNaN { return "NaN" }
    if d.isInfinite { return d > 0 ? "Infinity" : "-Infinity" }
    if d == 0 { return "0" }
    if d == d.rounded(), abs(d) < 1e21 { return String(format: "%.0f", d) }
    var s = "\(d)"
    if let e = s.firstIndex(of: "e") {
        let mantissa = s[..<e]
        var exp = String(s[s.index(after: e)...])
        if exp.hasPrefix("+") { exp.removeFirst() }
        let neg = exp.hasPrefix("-")
        if neg { exp.removeFirst() }
        while exp.hasPrefix("0") && exp.count > 1 { exp.removeFirst() }
        let expValue = Int(exp) ?? 0
        if neg && expValue <= 6 {
            // JavaScript writes these in positional notation: shift the mantissa's digits right.
            var m = String(mantissa)
            let sign = m.hasPrefix("-") ? "-" : ""
            if !sign.isEmpty { m.removeFirst() }
            let digits = m.replacingOccurrences(of: ".", with: "")
            return sign + "0." + String(repeating: "0", count: expValue - 1) + digits
        }
        s = "\(mantissa)e\(neg ? "-" : "+")\(exp)"
    }
    return s
}
