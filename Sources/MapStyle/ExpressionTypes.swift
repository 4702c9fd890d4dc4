import Foundation

/// The static type of an expression, as the style specification's type system describes it.
/// Types are checked when an expression is parsed so that evaluation never has to guess.
public indirect enum ExpressionType: Hashable, Sendable, CustomStringConvertible {
    case null, number, string, boolean, color, object, value, error, collator, formatted, resolvedImage
    case padding, numberArray, colorArray, variableAnchorOffsetCollection, projectionDefinition
    /// `N == nil` means any length; `array(.value, nil)` is the generic "array".
    case array(ExpressionType, Int?)

    public static let genericArray = ExpressionType.array(.value, nil)

    public var description: String {
        switch self {
        case .null: "null"
        case .number: "number"
        case .string: "string"
        case .boolean: "boolean"
        case .color: "color"
        case .object: "object"
        case .value: "value"
        case .error: "error"
        case .collator: "collator"
        case .formatted: "formatted"
        case .resolvedImage: "resolvedImage"
        case .padding: "padding"
        case .numberArray: "numberArray"
        case .colorArray: "colorArray"
        case .variableAnchorOffsetCollection: "variableAnchorOffsetCollection"
        case .projectionDefinition: "projectionDefinition"
        case .array(let item, let n):
            if let n { "array<\(item), \(n)>" } else if item == .value { "array" } else { "array<\(item)>" }
        }
    }

    /// The kind name, ignoring array parameters (what runtime comparison messages show).
    var kind: String {
        if case .array = self { return "array" }
        return description
    }

    var isArray: Bool { if case .array = self { true } else { false } }
    var itemType: ExpressionType? { if case .array(let t, _) = self { t } else { nil } }

    /// Parses a type name as a property specification spells it.
    static func named(_ name: String) -> ExpressionType? {
        switch name {
        case "null": .null
        case "number", "enum_number": .number
        case "string", "enum": .string
        case "boolean": .boolean
        case "color": .color
        case "object": .object
        case "value": .value
        case "formatted": .formatted
        case "resolvedImage": .resolvedImage
        case "padding": .padding
        case "numberArray": .numberArray
        case "colorArray": .colorArray
        case "variableAnchorOffsetCollection": .variableAnchorOffsetCollection
        case "projectionDefinition": .projectionDefinition
        case "array": .genericArray
        default: nil
        }
    }
}

/// Whether a value of type `t` may be used where `expected` is required; the error message when not.
func checkSubtype(_ expected: ExpressionType, _ t: ExpressionType) -> String? {
    if isSubtype(expected, t) { return nil }
    return "Expected \(expected) but found \(t) instead."
}

private func isSubtype(_ expected: ExpressionType, _ t: ExpressionType) -> Bool {
    if case .array(let eItem, let eN) = expected {
        guard case .array(let tItem, let tN) = t else { return false }
        let itemOK = (tN == 0 && tItem == .value) || isSubtype(eItem, tItem)
        return itemOK && (eN == nil || eN == tN)
    }
    if expected == t || t == .error { return true }
    if expected == .value {
        switch t {
        case .null, .number, .string, .boolean, .color, .formatted, .object, .padding, .numberArray, .colorArray,
             .resolvedImage, .variableAnchorOffsetCollection, .projectionDefinition:
            return true
        case .array: return true
        default: return false
        }
    }
    return false
}

/// A collator's settings, resolved when the `collator` expression is evaluated.
public struct ExpressionCollator: Hashable, Sendable {
    public var caseSensitive: Bool
    public var diacriticSensitive: Bool
    public var locale: String?

    /// Compares in the manner of a root-locale collation: first by base letters, then (when
    /// diacritic-sensitive) unaccented before accented, then (when case-sensitive) lower before upper case.
    public func compare(_ a: String, _ b: String) -> Int {
        func cmp(_ x: String, _ y: String) -> Int {
            x == y ? 0 : (x.unicodeScalars.lexicographicallyPrecedes(y.unicodeScalars) ? -1 : 1)
        }
        let primary = cmp(a.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil),
                          b.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil))
        if primary != 0 { return primary }
        if diacriticSensitive {
            let x = a.lowercased().decomposedStringWithCanonicalMapping, y = b.lowercased().decomposedStringWithCanonicalMapping
            let c = cmp(x, y)
            if c != 0 { return c }
        }
        if caseSensitive {
            for (p, q) in zip(a.folding(options: .diacriticInsensitive, locale: nil), b.folding(options: .diacriticInsensitive, locale: nil)) where p != q {
                return p.isLowercase ? -1 : 1
            }
        }
        return 0
    }

    /// The locale comparisons actually use. Only root (English) collation is implemented, so other
    /// requested locales resolve to "en" — which lets styles detect the fallback, as they can in MapLibre.
    public var resolvedLocale: String {
        guard let locale, locale == "en" || locale.hasPrefix("en-") else { return "en" }
        return locale
    }
}

/// One run of styled text in a `format` expression's result.
public struct FormattedSection: Hashable, Sendable {
    public var text: String
    public var image: ResolvedImage?
    public var scale: Double?
    public var fontStack: String?
    public var textColor: StyleColor?
    public var verticalAlign: String?
}

/// Styled text: what `format` produces and what text-field ultimately takes.
public struct Formatted: Hashable, Sendable, CustomStringConvertible {
    public var sections: [FormattedSection]
    public var description: String { sections.map(\.text).joined() }
}

/// An image reference, with whether the style's sprite actually has it (so `coalesce` can fall back).
public struct ResolvedImage: Hashable, Sendable {
    public var name: String
    public var available: Bool
}

/// An ordered string-keyed map: feature properties and object literals keep their key order, which
/// `to-string` and `typeof`-style output depend on.
public struct ExpressionObject: Hashable, Sendable {
    public private(set) var keys: [String] = []
    public private(set) var storage: [String: ExpressionValue] = [:]

    public init() {}
    public init(_ pairs: [(String, ExpressionValue)]) { for (k, v) in pairs { self[k] = v } }

    public subscript(key: String) -> ExpressionValue? {
        get { storage[key] }
        set {
            if let newValue {
                if storage.updateValue(newValue, forKey: key) == nil { keys.append(key) }
            } else if storage.removeValue(forKey: key) != nil {
                keys.removeAll { $0 == key }
            }
        }
    }
    public var count: Int { keys.count }
    public static func == (a: Self, b: Self) -> Bool { a.storage == b.storage }
    public func hash(into hasher: inout Hasher) { hasher.combine(storage) }
}

/// A runtime value of the expression language.
public indirect enum ExpressionValue: Hashable, Sendable {
    case null
    case boolean(Bool)
    case number(Double)
    case string(String)
    case color(StyleColor)
    case array([ExpressionValue])
    case object(ExpressionObject)
    case collator(ExpressionCollator)
    case formatted(Formatted)
    case image(ResolvedImage)
    case padding([Double])
    case numberArray([Double])
    case colorArray([StyleColor])
    /// A projection transition (`interpolate` between two projection names).
    case projection(from: String, to: String, transition: Double)

    /// Converts JSON (feature properties, literals) into a runtime value.
    public init(_ json: JSONValue) {
        switch json {
        case .null: self = .null
        case .bool(let b): self = .boolean(b)
        case .number(let n): self = .number(n)
        case .string(let s): self = .string(s)
        case .array(let a): self = .array(a.map(ExpressionValue.init))
        case .object(let o): self = .object(ExpressionObject(o.members.map { ($0.key, ExpressionValue($0.value)) }))
        }
    }

    public var numberValue: Double? { if case .number(let n) = self { n } else { nil } }
    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    public var booleanValue: Bool? { if case .boolean(let b) = self { b } else { nil } }
    public var colorValue: StyleColor? { if case .color(let c) = self { c } else { nil } }
    public var isNull: Bool { if case .null = self { true } else { false } }

    /// The value's most specific type (arrays report their common item type and length).
    public var type: ExpressionType {
        switch self {
        case .null: return .null
        case .boolean: return .boolean
        case .number: return .number
        case .string: return .string
        case .color: return .color
        case .object: return .object
        case .collator: return .collator
        case .formatted: return .formatted
        case .image: return .resolvedImage
        case .padding: return .padding
        case .numberArray: return .numberArray
        case .colorArray: return .colorArray
        case .projection: return .projectionDefinition
        case .array(let items):
            var item: ExpressionType?
            for v in items {
                let t = v.type
                if item == nil { item = t } else if item != t { item = .value; break }
            }
            return .array(item ?? .value, items.count)
        }
    }

    /// JSON text of the value, as `JSON.stringify` would write it (used by `to-string` and messages).
    public var jsonString: String {
        switch self {
        case .null: return "null"
        case .boolean(let b): return b ? "true" : "false"
        case .number(let n): return n.isFinite ? jsNumberString(n) : "null"
        case .string(let s): return jsonQuote(s)
        case .color(let c): return c.cssString.debugDescription
        case .array(let a): return "[" + a.map(\.jsonString).joined(separator: ",") + "]"
        case .object(let o): return "{" + o.keys.map { jsonQuote($0) + ":" + o[$0]!.jsonString }.joined(separator: ",") + "}"
        case .collator: return "{}"
        case .formatted(let f): return jsonQuote(f.description)
        case .image(let i): return jsonQuote(i.name)
        case .padding(let p), .numberArray(let p): return "[" + p.map(jsNumberString).joined(separator: ",") + "]"
        case .colorArray(let c): return "[" + c.map { $0.cssString.debugDescription }.joined(separator: ",") + "]"
        case .projection(let f, let t, let x): return "[\(jsonQuote(f)),\(jsonQuote(t)),\(jsNumberString(x))]"
        }
    }

    /// The value as `to-string` renders it.
    public var displayString: String {
        switch self {
        case .null: return ""
        case .boolean(let b): return b ? "true" : "false"
        case .number(let n): return jsNumberString(n)
        case .string(let s): return s
        case .color(let c): return c.cssString
        case .formatted(let f): return f.description
        case .image(let i): return i.name
        default: return jsonString
        }
    }

    /// The value as JSON (for output and for round-tripping into literals).
    public var json: JSONValue {
        switch self {
        case .null: return .null
        case .boolean(let b): return .bool(b)
        case .number(let n): return .number(n)
        case .string(let s): return .string(s)
        case .color(let c0):
            let c = c0.premultiplied
            return .array([.number(c.r), .number(c.g), .number(c.b), .number(c.a)])
        case .array(let a): return .array(a.map(\.json))
        case .object(let o): return .object(JSONObject(o.keys.map { (key: $0, value: o[$0]!.json) }))
        case .collator: return .object(JSONObject())
        case .formatted(let f):
            func opt(_ v: JSONValue?) -> JSONValue { v ?? .null }
            let sections: [JSONValue] = f.sections.map { s in
                .object(JSONObject([
                    (key: "text", value: .string(s.text)),
                    (key: "image", value: s.image.map { ExpressionValue.image($0).json } ?? .null),
                    (key: "scale", value: opt(s.scale.map { .number($0) })),
                    (key: "fontStack", value: opt(s.fontStack.map { .string($0) })),
                    (key: "textColor", value: opt(s.textColor.map { c0 in
                        let c = c0.premultiplied
                        return .object(JSONObject([(key: "r", value: .number(c.r)), (key: "g", value: .number(c.g)),
                                            (key: "b", value: .number(c.b)), (key: "a", value: .number(c.a))])) })),
                    (key: "verticalAlign", value: opt(s.verticalAlign.map { .string($0) })),
                ]))
            }
            return .object(JSONObject([(key: "sections", value: .array(sections))]))
        case .image(let i):
            return .object(JSONObject([(key: "name", value: .string(i.name)), (key: "available", value: .bool(i.available))]))
        case .padding(let p): return .object(JSONObject([(key: "values", value: .array(p.map { .number($0) }))]))
        case .numberArray(let p): return .object(JSONObject([(key: "values", value: .array(p.map { .number($0) }))]))
        case .colorArray(let p):
            return .object(JSONObject([(key: "values", value: .array(p.map { c0 in
                let c = c0.premultiplied
                return .object(JSONObject([(key: "r", value: .number(c.r)), (key: "g", value: .number(c.g)),
                                           (key: "b", value: .number(c.b)), (key: "a", value: .number(c.a))]))
            }))]))
        case .projection(let from, let to, let t):
            return .object(JSONObject([(key: "from", value: .string(from)), (key: "to", value: .string(to)), (key: "transition", value: .number(t))]))
        }
    }

    /// JavaScript truthiness, which `to-boolean` follows.
    var truthy: Bool {
        switch self {
        case .null: false
        case .boolean(let b): b
        case .number(let n): !(n == 0 || n.isNaN)
        case .string(let s): !s.isEmpty
        default: true
        }
    }
}

/// A string as JavaScript's `JSON.stringify` writes it: quotes, backslashes and control
/// characters escaped (the short forms where JSON has them).
func jsonQuote(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case "\u{08}": out += "\\b"
        case "\u{0C}": out += "\\f"
        default:
            if scalar.value < 0x20 {
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }
    return out + "\""
}

/// What an expression failed with. Parse errors carry the key path of the offending sub-expression
/// (`"[1][0]"`, as MapLibre reports it) so style validation can point at it.
public struct ExpressionError: Error, Hashable, Sendable, CustomStringConvertible {
    public struct Item: Hashable, Sendable {
        public var key: String
        public var message: String
    }
    /// Empty for evaluation errors; one or more for parse errors.
    public var items: [Item]
    /// Whether this came from evaluating (true) rather than parsing.
    public var isRuntime: Bool

    public init(runtime message: String) {
        items = [Item(key: "", message: message)]
        isRuntime = true
    }
    public init(parse items: [Item]) {
        self.items = items
        isRuntime = false
    }
    public var message: String { items.first?.message ?? "" }
    public var description: String {
        items.map { $0.key.isEmpty ? $0.message : "\($0.key): \($0.message)" }.joined(separator: "; ")
    }
}
