/// A JSON value as a style document holds it: objects keep their keys in document order (error
/// messages and layer order follow the document), numbers are `Double` (as in JavaScript, which the
/// style specification assumes), and every value remembers the line it starts on, for validation
/// messages.
public indirect enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The value's JSON type name as the style specification's messages use it ("number", "array" …).
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    public var numberValue: Double? { if case .number(let n) = self { n } else { nil } }
    public var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
    public var objectValue: JSONObject? { if case .object(let o) = self { o } else { nil } }

    /// The member `key` of an object; nil for other values and absent keys.
    public subscript(key: String) -> JSONValue? { objectValue?[key] }
}

/// A JSON object: members in document order, looked up by key (the last of duplicate keys wins, as
/// in JavaScript), each with the line its value starts on.
public struct JSONObject: Hashable, Sendable {
    public private(set) var members: [(key: String, value: JSONValue)]
    /// 1-based line of each member's value, parallel to `members`; 0 where unknown.
    public private(set) var lines: [Int]
    private var index: [String: Int]

    public init(_ members: [(key: String, value: JSONValue)] = [], lines: [Int]? = nil) {
        self.members = []
        self.lines = []
        self.index = [:]
        for (offset, member) in members.enumerated() { set(member.key, member.value, line: lines?[offset] ?? 0) }
    }

    public var keys: [String] { members.map(\.key) }
    public var count: Int { members.count }

    public subscript(key: String) -> JSONValue? {
        index[key].map { members[$0].value }
    }

    /// The line the value of `key` starts on, if known.
    public func line(of key: String) -> Int? {
        index[key].map { lines[$0] }.flatMap { $0 > 0 ? $0 : nil }
    }

    /// Sets `key`, keeping its first position when it is already present.
    public mutating func set(_ key: String, _ value: JSONValue, line: Int = 0) {
        if let existing = index[key] {
            members[existing].value = value
            lines[existing] = line
        } else {
            index[key] = members.count
            members.append((key, value))
            lines.append(line)
        }
    }

    public static func == (a: JSONObject, b: JSONObject) -> Bool {
        a.members.count == b.members.count && a.members.allSatisfy { b[$0.key] == $0.value }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(members.count)
        for key in keys.sorted() { hasher.combine(key); hasher.combine(self[key]) }
    }
}

/// Why a document is not JSON, with where.
public struct JSONParseError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var line: Int
    public var column: Int
    public var description: String { "JSON: \(message) at line \(line), column \(column)" }
}

extension JSONValue {
    /// Parses a JSON document (RFC 8259; nesting deeper than 512 levels is refused).
    public static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        try parse(bytes, recordingLines: false).value
    }

    /// Parses a document and also returns where each value starts, array elements included, for
    /// messages that point at a stop or a filter argument.
    static func parse(_ bytes: [UInt8], recordingLines: Bool) throws(JSONParseError) -> (value: JSONValue, lines: JSONLines) {
        var parser = JSONValueParser(bytes: bytes, recordsLines: recordingLines)
        let parsed = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.position == bytes.count else { throw parser.error("unexpected text after the document") }
        return parsed
    }

    /// Parses a JSON document from a string.
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }
}

/// Where each value of a document starts: its line, and the same for its array elements and
/// object members (filled in only when the parser is asked to record them).
struct JSONLines: Sendable {
    var line: Int
    var elements: [JSONLines] = []
    var members: [String: JSONLines] = [:]
}

private struct JSONValueParser {
    let bytes: [UInt8]
    let recordsLines: Bool
    var position = 0
    var line = 1
    var lineStart = 0

    init(bytes: [UInt8], recordsLines: Bool) {
        self.bytes = bytes
        self.recordsLines = recordsLines
    }

    func error(_ message: String) -> JSONParseError {
        JSONParseError(message: message, line: line, column: position - lineStart + 1)
    }

    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"): position += 1
            case UInt8(ascii: "\n"):
                position += 1
                line += 1
                lineStart = position
            default: return
            }
        }
    }

    /// A value and where it (and, when recording, each part of it) starts.
    mutating func value(depth: Int) throws(JSONParseError) -> (value: JSONValue, lines: JSONLines) {
        guard depth < 512 else { throw error("nested too deeply") }
        skipWhitespace()
        guard position < bytes.count else { throw error("unexpected end of the document") }
        var lines = JSONLines(line: line)
        switch bytes[position] {
        case UInt8(ascii: "{"):
            position += 1
            var object = JSONObject()
            skipWhitespace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
                position += 1
                return (.object(object), lines)
            }
            while true {
                skipWhitespace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw error("expected a member name") }
                let key = try string()
                skipWhitespace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw error("expected ':'") }
                position += 1
                let (member, memberLines) = try value(depth: depth + 1)
                object.set(key, member, line: memberLines.line)
                if recordsLines { lines.members[key] = memberLines }
                skipWhitespace()
                guard position < bytes.count else { throw error("unexpected end of the document") }
                if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
                if bytes[position] == UInt8(ascii: "}") { position += 1; return (.object(object), lines) }
                throw error("expected ',' or '}'")
            }
        case UInt8(ascii: "["):
            position += 1
            var elements: [JSONValue] = []
            skipWhitespace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
                position += 1
                return (.array(elements), lines)
            }
            while true {
                let (element, elementLines) = try value(depth: depth + 1)
                elements.append(element)
                if recordsLines { lines.elements.append(elementLines) }
                skipWhitespace()
                guard position < bytes.count else { throw error("unexpected end of the document") }
                if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
                if bytes[position] == UInt8(ascii: "]") { position += 1; return (.array(elements), lines) }
                throw error("expected ',' or ']'")
            }
        case UInt8(ascii: "\""):
            return (.string(try string()), lines)
        case UInt8(ascii: "t"): try literal("true"); return (.bool(true), lines)
        case UInt8(ascii: "f"): try literal("false"); return (.bool(false), lines)
        case UInt8(ascii: "n"): try literal("null"); return (.null, lines)
        default:
            return (.number(try number()), lines)
        }
    }

    mutating func literal(_ word: StaticString) throws(JSONParseError) {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count else { throw error("unexpected end of the document") }
        for i in 0..<count where bytes[position + i] != word.utf8Start[i] { throw error("unexpected character") }
        position += count
    }

    mutating func number() throws(JSONParseError) -> Double {
        let start = position
        func digits() -> Int {
            let from = position
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
            return position - from
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard digits() > 0 else { throw error("unexpected character") }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard digits() > 0 else { throw error("expected digits after '.'") }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard digits() > 0 else { throw error("expected exponent digits") }
        }
        guard let value = Double(String(decoding: bytes[start..<position], as: UTF8.self)) else { throw error("bad number") }
        return value
    }

    mutating func string() throws(JSONParseError) -> String {
        position += 1  // the opening quote
        var utf8: [UInt8] = []
        while true {
            guard position < bytes.count else { throw error("unterminated string") }
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard position < bytes.count else { throw error("unterminated string") }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
                case UInt8(ascii: "b"): utf8.append(8)
                case UInt8(ascii: "f"): utf8.append(12)
                case UInt8(ascii: "n"): utf8.append(10)
                case UInt8(ascii: "r"): utf8.append(13)
                case UInt8(ascii: "t"): utf8.append(9)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar), position + 1 < bytes.count,
                       bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") {
                        position += 2
                        let low = try hex4()
                        if (0xDC00..<0xE000).contains(low) { scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00) }
                    }
                    utf8.append(contentsOf: Array(String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8))
                default: throw error("bad escape")
                }
            case 0..<0x20:
                throw error("control character in a string")
            default:
                utf8.append(byte)
            }
        }
    }

    mutating func hex4() throws(JSONParseError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw error("bad \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[position]
            position += 1
            let digit: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw error("bad \\u escape")
            }
            value = value << 4 | digit
        }
        return value
    }
}
