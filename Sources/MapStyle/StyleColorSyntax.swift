/// Recognizes CSS color strings as the style specification accepts them. The validator only needs
/// to know *whether* a string is a color; turning it into components is the color type's job
/// (Color.swift, owned by the expression language), so this stays a syntax check.
enum StyleColorSyntax {
    static func isValid(_ text: String) -> Bool {
        let input = String(text.lowercased().drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
        if input.hasPrefix("#") {
            let digits = input.dropFirst()
            return [3, 4, 6, 8].contains(digits.count) && digits.allSatisfy(\.isHexDigit)
        }
        if namedColors.contains(input) { return true }
        guard let open = input.firstIndex(of: "("), input.hasSuffix(")") else { return false }
        let function = String(input[..<open])
        guard ["rgb", "rgba", "hsl", "hsla"].contains(function) else { return false }
        let body = input[input.index(after: open)..<input.index(before: input.endIndex)]
        let isHSL = function.hasPrefix("hsl")
        var components: [Substring]
        var alpha: Substring?
        if body.contains(",") {
            components = body.split(separator: ",", omittingEmptySubsequences: false).map(trim)
            if components.count == 4 { alpha = components.removeLast() }
        } else {
            let parts = body.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count <= 2 else { return false }
            components = parts[0].split(separator: " ").map(trim)
            if parts.count == 2 {
                alpha = trim(parts[1])
                if alpha?.isEmpty ?? true { return false }
            }
        }
        guard components.count == 3 else { return false }
        if let alpha, !isNumber(alpha, allowPercent: true) { return false }
        if isHSL {
            var hue = components[0]
            if hue.hasSuffix("deg") { hue = hue.dropLast(3) }
            return isNumber(hue, allowPercent: false)
                && components[1].hasSuffix("%") && isNumber(components[1], allowPercent: true)
                && components[2].hasSuffix("%") && isNumber(components[2], allowPercent: true)
        }
        let percents = components.filter { $0.hasSuffix("%") }.count
        guard percents == 0 || percents == 3 else { return false }
        return components.allSatisfy { isNumber($0, allowPercent: true) }
    }

    private static func trim(_ s: Substring) -> Substring {
        var s = s
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return s
    }

    private static func isNumber(_ s: Substring, allowPercent: Bool) -> Bool {
        var s = s
        if allowPercent, s.hasSuffix("%") { s = s.dropLast() }
        guard !s.isEmpty, s.allSatisfy({ $0.isNumber || $0 == "." || $0 == "-" || $0 == "+" || $0 == "e" }) else { return false }
        return Double(String(s)) != nil
    }

    /// The CSS Color Module Level 4 named colors, and "transparent".
    static let namedColors: Set<String> = [
        "transparent", "aliceblue", "antiquewhite", "aqua", "aquamarine", "azure", "beige", "bisque", "black",
        "blanchedalmond", "blue", "blueviolet", "brown", "burlywood", "cadetblue", "chartreuse", "chocolate",
        "coral", "cornflowerblue", "cornsilk", "crimson", "cyan", "darkblue", "darkcyan", "darkgoldenrod",
        "darkgray", "darkgreen", "darkgrey", "darkkhaki", "darkmagenta", "darkolivegreen", "darkorange",
        "darkorchid", "darkred", "darksalmon", "darkseagreen", "darkslateblue", "darkslategray",
        "darkslategrey", "darkturquoise", "darkviolet", "deeppink", "deepskyblue", "dimgray", "dimgrey",
        "dodgerblue", "firebrick", "floralwhite", "forestgreen", "fuchsia", "gainsboro", "ghostwhite", "gold",
        "goldenrod", "gray", "green", "greenyellow", "grey", "honeydew", "hotpink", "indianred", "indigo",
        "ivory", "khaki", "lavender", "lavenderblush", "lawngreen", "lemonchiffon", "lightblue", "lightcoral",
        "lightcyan", "lightgoldenrodyellow", "lightgray", "lightgreen", "lightgrey", "lightpink",
        "lightsalmon", "lightseagreen", "lightskyblue", "lightslategray", "lightslategrey", "lightsteelblue",
        "lightyellow", "lime", "limegreen", "linen", "magenta", "maroon", "mediumaquamarine", "mediumblue",
        "mediumorchid", "mediumpurple", "mediumseagreen", "mediumslateblue", "mediumspringgreen",
        "mediumturquoise", "mediumvioletred", "midnightblue", "mintcream", "mistyrose", "moccasin",
        "navajowhite", "navy", "oldlace", "olive", "olivedrab", "orange", "orangered", "orchid",
        "palegoldenrod", "palegreen", "paleturquoise", "palevioletred", "papayawhip", "peachpuff", "peru",
        "pink", "plum", "powderblue", "purple", "rebeccapurple", "red", "rosybrown", "royalblue",
        "saddlebrown", "salmon", "sandybrown", "seagreen", "seashell", "sienna", "silver", "skyblue",
        "slateblue", "slategray", "slategrey", "snow", "springgreen", "steelblue", "tan", "teal", "thistle",
        "tomato", "turquoise", "violet", "wheat", "white", "whitesmoke", "yellow", "yellowgreen",
    ]
}
