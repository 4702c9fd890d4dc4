// A small JSON (RFC 8259) scanner for hostile input.
//
// It makes one pass over the bytes and records every value on a flat "tape" of nodes (kind,
// byte range, and for arrays and objects the index just past their subtree and their child
// count). It never recurses: open arrays and objects live on an explicit stack whose depth is
// capped, so a depth bomb is an error, not a stack overflow. Strings are validated (escapes,
// UTF-8, no raw control characters) but decoded only when asked; numbers are validated against
// the JSON grammar and converted to Double only when asked, so the opaque parts of a document
// (a feature's `properties`) cost one pass and no allocations.

import Foundation

/// The kind of a JSON value on the tape.
enum JSONKind: UInt8 {
    case null, falseValue, trueValue, number, string, array, object
}

/// One JSON value on the tape (20 bytes).
struct JSONNode {
    var kind: JSONKind
    /// Strings: the text contains backslash escapes. Numbers: the literal is an integer (no
    /// fraction, no exponent).
    var flag: Bool
    /// Byte offset of the value's first byte.
    var start: UInt32
    /// Byte offset just past the value's last byte.
    var end: UInt32
    /// Index of the node after this value's subtree (its next sibling, if any).
    var next: UInt32
    /// Arrays: the number of elements. Objects: the number of members (each member is a string
    /// node for the name followed by the value's subtree).
    var count: UInt32
}

/// A scanned JSON document: its bytes and its nodes, root first.
struct JSONTape {
    let bytes: [UInt8]
    let nodes: [JSONNode]

    /// Scans `bytes` as one JSON value (with optional surrounding whitespace).
    static func scan(_ bytes: [UInt8], allowByteOrderMark: Bool,
                     maximumDepth: Int = GeoJSON.maximumNestingDepth) throws(GeoJSONError) -> JSONTape {
        var scanner = JSONScanner(bytes: bytes, maximumDepth: maximumDepth)
        try scanner.scan(allowByteOrderMark: allowByteOrderMark)
        return JSONTape(bytes: bytes, nodes: scanner.nodes)
    }

    @inline(__always) func kind(_ node: Int) -> JSONKind { nodes[node].kind }
    @inline(__always) func next(_ node: Int) -> Int { Int(nodes[node].next) }
    @inline(__always) func count(_ node: Int) -> Int { Int(nodes[node].count) }

    /// The node indexes of an array's elements.
    func elements(of array: Int) -> [Int] {
        let n = count(array)
        var result: [Int] = []
        result.reserveCapacity(n)
        var child = array + 1
        for _ in 0..<n {
            result.append(child)
            child = next(child)
        }
        return result
    }

    /// Calls `body` with each (name node, value node) of an object.
    func forEachMember(of object: Int, _ body: (Int, Int) -> Void) {
        var child = object + 1
        for _ in 0..<count(object) {
            body(child, child + 1)
            child = next(child + 1)
        }
    }

    /// The value node of the object's member called `name` (the last one, if the name repeats).
    func member(_ object: Int, _ name: String) -> Int? {
        var found: Int?
        let key = Array(name.utf8)
        forEachMember(of: object) { nameNode, valueNode in
            if stringEquals(nameNode, key) { found = valueNode }
        }
        return found
    }

    /// Whether a string node's text equals `utf8`.
    func stringEquals(_ node: Int, _ utf8: [UInt8]) -> Bool {
        let n = nodes[node]
        if n.flag { return Array(string(node).utf8) == utf8 }
        let start = Int(n.start) + 1, end = Int(n.end) - 1
        guard end - start == utf8.count else { return false }
        var i = 0
        while i < utf8.count {
            if bytes[start + i] != utf8[i] { return false }
            i += 1
        }
        return true
    }

    /// The raw bytes of a value, exactly as in the input.
    func rawBytes(_ node: Int) -> ArraySlice<UInt8> {
        bytes[Int(nodes[node].start)..<Int(nodes[node].end)]
    }

    /// The raw text of a value (for numbers: the literal), cut to `limit` characters.
    func rawText(_ node: Int, limit: Int = 40) -> String {
        let raw = rawBytes(node)
        if raw.count <= limit { return String(decoding: raw, as: UTF8.self) }
        return String(decoding: raw.prefix(limit), as: UTF8.self) + "…"
    }

    /// A string node's decoded text. Lone UTF-16 surrogates in `\u` escapes become U+FFFD.
    func string(_ node: Int) -> String {
        let n = nodes[node]
        let start = Int(n.start) + 1, end = Int(n.end) - 1
        if !n.flag { return String(decoding: bytes[start..<end], as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(end - start)
        var i = start
        func appendScalar(_ value: UInt32) {
            let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
            out.append(contentsOf: Array(String(Character(scalar)).utf8))
        }
        func hex4(_ at: Int) -> UInt32 {
            var v: UInt32 = 0
            for k in 0..<4 { v = v << 4 | UInt32(hexValue(bytes[at + k])) }
            return v
        }
        while i < end {
            let c = bytes[i]
            guard c == UInt8(ascii: "\\") else { out.append(c); i += 1; continue }
            let e = bytes[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                let unit = hex4(i)
                i += 4
                if (0xD800..<0xDC00).contains(unit), i + 6 <= end, bytes[i] == UInt8(ascii: "\\"),
                   bytes[i + 1] == UInt8(ascii: "u") {
                    let low = hex4(i + 2)
                    if (0xDC00..<0xE000).contains(low) {
                        appendScalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
                        i += 6
                        continue
                    }
                }
                appendScalar(unit)   // a lone surrogate has no scalar: U+FFFD
            default: out.append(e)  // \" \\ \/
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Longest number literal converted; longer ones (valid JSON, but no real document has them)
    /// are refused rather than handed to the slow general conversion.
    static let maximumNumberLength = 4096

    /// A number node's value; nil when the literal is too long. Values beyond ±Double.greatestFiniteMagnitude
    /// come back infinite; callers check `isFinite`.
    func double(_ node: Int) -> Double? {
        let n = nodes[node]
        let start = Int(n.start), end = Int(n.end)
        if let fast = fastDouble(start, end) { return fast }
        guard end - start <= JSONTape.maximumNumberLength else { return nil }
        return Double(String(decoding: bytes[start..<end], as: UTF8.self))
    }

    /// Clinger's fast path: a mantissa of at most 15 significant digits scaled by at most 10^22
    /// is exact in one correctly rounded multiplication or division.
    private func fastDouble(_ start: Int, _ end: Int) -> Double? {
        var i = start
        var negative = false
        if bytes[i] == UInt8(ascii: "-") { negative = true; i += 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var scale = 0
        while i < end, isDigit(bytes[i]) {
            if mantissa != 0 || bytes[i] != UInt8(ascii: "0") { digits += 1 }
            mantissa = mantissa &* 10 &+ UInt64(bytes[i] &- UInt8(ascii: "0"))
            i += 1
        }
        if i < end, bytes[i] == UInt8(ascii: ".") {
            i += 1
            while i < end, isDigit(bytes[i]) {
                if mantissa != 0 || bytes[i] != UInt8(ascii: "0") { digits += 1 }
                mantissa = mantissa &* 10 &+ UInt64(bytes[i] &- UInt8(ascii: "0"))
                scale -= 1
                i += 1
            }
        }
        guard digits <= 15 else { return nil }
        if i < end {  // exponent
            i += 1
            var expNegative = false
            if bytes[i] == UInt8(ascii: "-") { expNegative = true; i += 1 } else if bytes[i] == UInt8(ascii: "+") { i += 1 }
            var exponent = 0
            while i < end {
                exponent = exponent * 10 + Int(bytes[i] &- UInt8(ascii: "0"))
                if exponent > 1000 { return nil }
                i += 1
            }
            scale += expNegative ? -exponent : exponent
        }
        var value = Double(mantissa)
        if mantissa == 0 {
            value = 0
        } else if scale < 0 {
            guard -scale <= 22 else { return nil }
            value /= JSONTape.powersOfTen[-scale]
        } else if scale > 0 {
            guard scale <= 22 else { return nil }
            value *= JSONTape.powersOfTen[scale]
        }
        return negative ? -value : value
    }

    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// "an object", "an array", "a string", "a number", "a boolean", "null".
    func kindName(_ node: Int) -> String {
        switch kind(node) {
        case .null: "null"
        case .falseValue, .trueValue: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

@inline(__always) func isDigit(_ c: UInt8) -> Bool { c &- UInt8(ascii: "0") < 10 }

@inline(__always) func hexValue(_ c: UInt8) -> UInt8 {
    switch c {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
    default: 0xFF
    }
}

/// The one-pass, non-recursive scanner behind ``JSONTape``.
struct JSONScanner {
    let bytes: [UInt8]
    let maximumDepth: Int
    var nodes: [JSONNode] = []
    /// An array or object being scanned: its node, how many children are complete, and (for
    /// objects) the name node of the member being scanned, for error paths.
    struct Open {
        var node: Int
        var isObject: Bool
        var count: Int
        var name: Int
    }
    var stack: [Open] = []
    var i = 0

    init(bytes: [UInt8], maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    mutating func scan(allowByteOrderMark: Bool) throws(GeoJSONError) {
        let n = bytes.count
        guard n < Int(UInt32.max) else {
            throw GeoJSONError(kind: .invalidJSON, path: "", problem: "input is larger than 4 GiB")
        }
        if allowByteOrderMark, n >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3 }
        nodes.reserveCapacity(min(n / 8 + 16, 1 << 20))

        value: while true {
            skipWhitespace()
            guard i < n else { throw syntax("unexpected end of input; expected a value") }
            let c = bytes[i]
            switch c {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = c == UInt8(ascii: "{")
                guard stack.count < maximumDepth else {
                    throw failure(.tooDeep, "arrays and objects nested more than \(maximumDepth) deep")
                }
                nodes.append(JSONNode(kind: isObject ? .object : .array, flag: false, start: UInt32(i), end: 0, next: 0, count: 0))
                stack.append(Open(node: nodes.count - 1, isObject: isObject, count: 0, name: -1))
                i += 1
                skipWhitespace()
                if i < n, bytes[i] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    i += 1
                    closeInnermost()
                } else if isObject {
                    try scanMemberName()
                    continue value
                } else {
                    continue value
                }
            case UInt8(ascii: "\""):
                try scanString()
            case UInt8(ascii: "t"):
                try scanLiteral("true", .trueValue)
            case UInt8(ascii: "f"):
                try scanLiteral("false", .falseValue)
            case UInt8(ascii: "n"):
                try scanLiteral("null", .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                try scanNumber()
            default:
                throw syntax("unexpected \(describe(c)); expected a value")
            }

            // A value is complete: close arrays and objects, or move on to the next element.
            while true {
                guard let open = stack.last else {
                    skipWhitespace()
                    if i < n { throw syntax("unexpected \(describe(bytes[i])) after the end of the JSON value") }
                    return
                }
                // A member whose value is complete no longer names the error path: what follows
                // belongs to the object.
                if open.isObject { stack[stack.count - 1].name = -1 }
                skipWhitespace()
                guard i < n else {
                    throw syntax("unexpected end of input inside \(open.isObject ? "an object" : "an array")")
                }
                let c = bytes[i]
                if c == UInt8(ascii: ",") {
                    stack[stack.count - 1].count += 1
                    i += 1
                    if open.isObject {
                        stack[stack.count - 1].name = -1
                        skipWhitespace()
                        try scanMemberName()
                    }
                    continue value
                } else if c == (open.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    stack[stack.count - 1].count += 1
                    i += 1
                    closeInnermost()
                } else {
                    throw syntax("unexpected \(describe(c)); expected ',' or '\(open.isObject ? "}" : "]")'")
                }
            }
        }
    }

    private mutating func closeInnermost() {
        let open = stack.removeLast()
        nodes[open.node].end = UInt32(i)
        nodes[open.node].next = UInt32(nodes.count)
        nodes[open.node].count = UInt32(open.count)
    }

    @inline(__always) private mutating func skipWhitespace() {
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x0A, 0x0D, 0x09: i += 1
            default: return
            }
        }
    }

    private mutating func scanMemberName() throws(GeoJSONError) {
        guard i < bytes.count else { throw syntax("unexpected end of input; expected a member name") }
        guard bytes[i] == UInt8(ascii: "\"") else {
            throw syntax("unexpected \(describe(bytes[i])); expected a member name in double quotes")
        }
        try scanString()
        stack[stack.count - 1].name = nodes.count - 1
        skipWhitespace()
        guard i < bytes.count else { throw syntax("unexpected end of input; expected ':'") }
        guard bytes[i] == UInt8(ascii: ":") else { throw syntax("unexpected \(describe(bytes[i])); expected ':'") }
        i += 1
    }

    private mutating func scanLiteral(_ word: StaticString, _ kind: JSONKind) throws(GeoJSONError) {
        let start = i
        let count = word.utf8CodeUnitCount
        let matches = word.withUTF8Buffer { w in
            i + count <= bytes.count && (0..<count).allSatisfy { bytes[i + $0] == w[$0] }
        }
        guard matches else { throw syntax("invalid literal; expected '\(word)'") }
        i += count
        nodes.append(JSONNode(kind: kind, flag: false, start: UInt32(start), end: UInt32(i),
                              next: UInt32(nodes.count + 1), count: 0))
    }

    private mutating func scanNumber() throws(GeoJSONError) {
        let start = i
        let n = bytes.count
        var integer = true
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard i < n, isDigit(bytes[i]) else { throw syntax("invalid number: expected a digit") }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
        } else {
            while i < n, isDigit(bytes[i]) { i += 1 }
        }
        if i < n, bytes[i] == UInt8(ascii: ".") {
            integer = false
            i += 1
            guard i < n, isDigit(bytes[i]) else { throw syntax("invalid number: expected a digit after '.'") }
            while i < n, isDigit(bytes[i]) { i += 1 }
        }
        if i < n, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            integer = false
            i += 1
            if i < n, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard i < n, isDigit(bytes[i]) else { throw syntax("invalid number: expected a digit in the exponent") }
            while i < n, isDigit(bytes[i]) { i += 1 }
        }
        nodes.append(JSONNode(kind: .number, flag: integer, start: UInt32(start), end: UInt32(i),
                              next: UInt32(nodes.count + 1), count: 0))
    }

    private mutating func scanString() throws(GeoJSONError) {
        let start = i
        let n = bytes.count
        var escaped = false
        i += 1
        while true {
            guard i < n else {
                i = start
                throw syntax("unterminated string")
            }
            let c = bytes[i]
            if c == UInt8(ascii: "\"") {
                i += 1
                break
            } else if c == UInt8(ascii: "\\") {
                escaped = true
                guard i + 1 < n else { throw syntax("unterminated string") }
                switch bytes[i + 1] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                     UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    i += 2
                case UInt8(ascii: "u"):
                    guard i + 6 <= n, (2..<6).allSatisfy({ hexValue(bytes[i + $0]) != 0xFF }) else {
                        throw syntax("invalid \\u escape in a string: expected four hexadecimal digits")
                    }
                    i += 6
                default:
                    i += 1
                    throw syntax("invalid escape \\\(String(decoding: [bytes[i]], as: UTF8.self)) in a string")
                }
            } else if c < 0x20 {
                throw syntax("control character U+00\(String(c, radix: 16, uppercase: true).leftPadded(2)) in a string; it must be escaped")
            } else if c < 0x80 {
                i += 1
            } else {
                try scanUTF8Sequence()
            }
        }
        nodes.append(JSONNode(kind: .string, flag: escaped, start: UInt32(start), end: UInt32(i),
                              next: UInt32(nodes.count + 1), count: 0))
    }

    /// Validates one multi-byte UTF-8 sequence at `i` (RFC 3629: no overlong forms, no
    /// surrogates, nothing above U+10FFFF) and steps over it.
    private mutating func scanUTF8Sequence() throws(GeoJSONError) {
        let n = bytes.count
        let c = bytes[i]
        var length: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF   // allowed range of the second byte
        switch c {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: throw syntax("invalid UTF-8 byte 0x\(String(c, radix: 16, uppercase: true))")
        }
        guard i + length <= n else { throw syntax("truncated UTF-8 sequence") }
        guard (low...high).contains(bytes[i + 1]) else { throw syntax("invalid UTF-8 sequence") }
        for k in 2..<max(length, 2) where !(0x80...0xBF).contains(bytes[i + k]) {
            throw syntax("invalid UTF-8 sequence")
        }
        i += length
    }

    // MARK: Errors

    private func syntax(_ problem: String) -> GeoJSONError {
        failure(.invalidJSON, problem)
    }

    /// An error at the current byte, with the JSON path of the value being scanned and the line
    /// and column.
    private func failure(_ kind: GeoJSONError.Kind, _ problem: String) -> GeoJSONError {
        var line = 1, column = 1
        var k = 0
        let limit = min(i, bytes.count)
        while k < limit {
            if bytes[k] == 0x0A { line += 1; column = 1 } else if bytes[k] & 0xC0 != 0x80 { column += 1 }
            k += 1
        }
        let tape = JSONTape(bytes: bytes, nodes: nodes)
        var components: [JSONPathComponent] = []
        for open in stack {
            if open.isObject {
                if open.name >= 0 { components.append(.key(tape.string(open.name))) }
            } else {
                components.append(.index(open.count))
            }
        }
        return GeoJSONError(kind: kind, path: JSONPathComponent.format(components),
                            problem: "\(problem) (line \(line), column \(column))", byteOffset: i)
    }

    private func describe(_ c: UInt8) -> String {
        if c >= 0x21 && c < 0x7F { return "'\(String(decoding: [c], as: UTF8.self))'" }
        return "byte 0x\(String(c, radix: 16, uppercase: true).leftPadded(2))"
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

/// JSON string escaping for the writer and for messages.
enum JSONEscaping {
    static func appendQuoted(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for b in text.utf8 {
            switch b {
            case UInt8(ascii: "\""): out.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): out.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0..<0x20, 0x7F:
                out.append(contentsOf: Array("\\u00".utf8))
                out.append(contentsOf: Array(String(b, radix: 16).leftPadded(2).utf8))
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
