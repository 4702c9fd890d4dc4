/// A problem found in a style document. `message` is formatted exactly like MapLibre's validator
/// ("layers[0].paint.fill-color: color expected, array found") so that messages can be compared
/// with other tools' output and searched for in their issue trackers.
public struct StyleValidationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// How bad a problem is: errors make `Style(json:)` fail, warnings are reported only.
    public enum Severity: String, Sendable, Hashable {
        case error
        case warning
    }

    /// "key: reason", or just the reason for problems with the whole document.
    public var message: String
    /// The 1-based line where the offending value starts; nil when the value is `null` (as in
    /// MapLibre, which cannot attach a line to null) or unknown.
    public var line: Int?
    public var severity: Severity
    /// A stable identifier for some problems (MapLibre's "source.canvas").
    public var identifier: String?

    public init(message: String, line: Int? = nil, severity: Severity = .error, identifier: String? = nil) {
        self.message = message
        self.line = line
        self.severity = severity
        self.identifier = identifier
    }

    public var description: String {
        line.map { "\(message) (line \($0))" } ?? message
    }
}

/// Why a style document could not be loaded: it is not JSON, or it breaks the specification.
public enum StyleError: Error, Sendable, CustomStringConvertible {
    case json(JSONParseError)
    case invalid([StyleValidationError])

    public var description: String {
        switch self {
        case .json(let error): error.description
        case .invalid(let errors): errors.filter { $0.severity == .error }.map(\.description).joined(separator: "\n")
        }
    }
}

extension Style {
    /// Checks a style document against the MapLibre style specification v8 and returns every
    /// problem, sorted by line as MapLibre does. Without the document's text, lines of array
    /// elements are those of the enclosing array; use `validate(text:)` for exact lines.
    ///
    /// `strict` also reports unknown root and layer keys, as warnings: MapLibre ignores them (tools
    /// keep private data there), but they are usually typos ("paitn") worth pointing out in an editor.
    public static func validate(_ json: JSONValue, strict: Bool = false) -> [StyleValidationError] {
        StyleValidator(root: json, lines: nil, strict: strict).run()
    }

    /// Parses and validates a document; a document that is not JSON gives one error with the line
    /// of the syntax error.
    public static func validate(text: String, strict: Bool = false) -> [StyleValidationError] {
        validate(bytes: Array(text.utf8), strict: strict)
    }

    /// Parses and validates a document given as UTF-8 bytes (`[UInt8]`, `Data` …).
    public static func validate(bytes: some Collection<UInt8>, strict: Bool = false) -> [StyleValidationError] {
        let bytes = Array(bytes)
        do {
            let parsed = try JSONValue.parse(bytes, recordingLines: true)
            return StyleValidator(root: parsed.value, lines: parsed.lines, strict: strict).run()
        } catch {
            return [StyleValidationError(message: error.message, line: error.line)]
        }
    }
}

// MARK: - Formatting as JavaScript does

enum StyleJS {
    /// A number as JavaScript's `String(n)` writes it.
    static func number(_ d: Double) -> String { jsNumberString(d) }

    /// `JSON.stringify(value)`.
    static func stringify(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return n.isFinite ? number(n) : "null"
        case .string(let s): return quote(s)
        case .array(let a): return "[" + a.map(stringify).joined(separator: ",") + "]"
        case .object(let o): return "{" + o.members.map { quote($0.key) + ":" + stringify($0.value) }.joined(separator: ",") + "}"
        }
    }

    /// A string as `JSON.stringify` writes it.
    static func quote(_ s: String) -> String { jsonQuote(s) }

}
