/// Where each value of a JSON document starts, including array elements (which `JSONValue` does
/// not record), so that validation messages can point at the offending stop or filter argument
/// the way MapLibre's validator does.
struct StyleLines: Sendable {
    var line: Int
    var elements: [StyleLines] = []
    var members: [String: StyleLines] = [:]

    /// Scans a document that `JSONValue.parse` has already accepted; nil if it turns out malformed.
    static func scan(_ bytes: [UInt8]) -> StyleLines? {
        var scanner = Scanner(bytes: bytes)
        return scanner.node(depth: 0)
    }

    private struct Scanner {
        let bytes: [UInt8]
        var position = 0
        var line = 1

        init(bytes: [UInt8]) { self.bytes = bytes }

        mutating func skipWhitespace() {
            while position < bytes.count {
                switch bytes[position] {
                case 0x20, 0x09, 0x0D: position += 1
                case 0x0A: position += 1; line += 1
                default: return
                }
            }
        }

        mutating func node(depth: Int) -> StyleLines? {
            guard depth < 600 else { return nil }
            skipWhitespace()
            guard position < bytes.count else { return nil }
            var result = StyleLines(line: line)
            switch bytes[position] {
            case UInt8(ascii: "{"):
                position += 1
                skipWhitespace()
                if position < bytes.count, bytes[position] == UInt8(ascii: "}") { position += 1; return result }
                while true {
                    skipWhitespace()
                    guard let key = string() else { return nil }
                    skipWhitespace()
                    guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { return nil }
                    position += 1
                    guard let child = node(depth: depth + 1) else { return nil }
                    result.members[key] = child
                    skipWhitespace()
                    guard position < bytes.count else { return nil }
                    if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
                    if bytes[position] == UInt8(ascii: "}") { position += 1; return result }
                    return nil
                }
            case UInt8(ascii: "["):
                position += 1
                skipWhitespace()
                if position < bytes.count, bytes[position] == UInt8(ascii: "]") { position += 1; return result }
                while true {
                    guard let child = node(depth: depth + 1) else { return nil }
                    result.elements.append(child)
                    skipWhitespace()
                    guard position < bytes.count else { return nil }
                    if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
                    if bytes[position] == UInt8(ascii: "]") { position += 1; return result }
                    return nil
                }
            case UInt8(ascii: "\""):
                return string() == nil ? nil : result
            default:
                while position < bytes.count {
                    switch bytes[position] {
                    case UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), 0x20, 0x09, 0x0A, 0x0D: return result
                    default: position += 1
                    }
                }
                return result
            }
        }

        /// A string's decoded text (object keys must match `JSONValue`'s keys).
        mutating func string() -> String? {
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { return nil }
            position += 1
            var utf8: [UInt8] = []
            var pendingHigh: UInt32?
            while position < bytes.count {
                let byte = bytes[position]
                position += 1
                if byte == UInt8(ascii: "\"") { return String(decoding: utf8, as: UTF8.self) }
                guard byte == UInt8(ascii: "\\") else { utf8.append(byte); continue }
                guard position < bytes.count else { return nil }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "u"):
                    guard position + 4 <= bytes.count,
                          let code = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16)
                    else { return nil }
                    position += 4
                    var scalarValue = code
                    if (0xD800..<0xDC00).contains(code) { pendingHigh = code; continue }
                    if (0xDC00..<0xE000).contains(code), let high = pendingHigh {
                        scalarValue = 0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00)
                    }
                    pendingHigh = nil
                    utf8.append(contentsOf: Array(String(Unicode.Scalar(scalarValue).map(Character.init) ?? "\u{FFFD}").utf8))
                default: utf8.append(escape)
                }
            }
            return nil
        }
    }
}
