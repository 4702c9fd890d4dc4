import Foundation
import MapStyle

/// Why a format string, a JSON expression or filter, or an expression could not be made into what was
/// asked for: what the throwing variants of ``NSExpression`` and ``NSPredicate``'s initializers and
/// conversions throw (an OpenMapKit addition).
///
/// Where Foundation and Mapbox's SDK raise `NSInvalidArgumentException`, the Apple-shaped API
/// (``NSExpression/init(format:_:)``, ``NSExpression/init(mglJSONObject:)``,
/// ``NSExpression/mgl_jsonExpressionObject`` …) stops the program with this error's message; the
/// throwing variants (``NSExpression/init(validatingFormat:_:)``,
/// ``NSExpression/init(validatingMGLJSONObject:)``, ``NSExpression/validatedMGLJSONObject()`` …) throw it,
/// for input that comes from outside the program.
public struct MGLExpressionError: Error, LocalizedError, Hashable, Sendable, CustomStringConvertible {
    /// What was refused.
    public enum Code: Int, Sendable, Hashable {
        /// A format string that is not predicate or expression format syntax, or whose arguments do
        /// not fit its `%@`, `%K` and `%d` specifiers.
        case invalidFormat = 1
        /// A JSON object that is not a style expression or filter.
        case invalidJSON = 2
        /// A well-formed expression or predicate with no counterpart in the style language (a
        /// `BEGINSWITH` comparison, `median:`, a dictionary keyed by dates …).
        case unsupported = 3
    }

    /// What was refused.
    public let code: Code
    /// What is wrong, in words, with the part of the input that is wrong.
    public let message: String
    /// For a format string, the offset (in characters) at which the problem was found.
    public let offset: Int?

    /// An error with a code and a message.
    public init(_ code: Code, _ message: String, offset: Int? = nil) {
        self.code = code
        self.message = message
        self.offset = offset
    }

    /// The message, with the offset for a format string.
    public var description: String {
        offset.map { "\(message) (at offset \($0))" } ?? message
    }

    /// The same as ``description``.
    public var errorDescription: String? { description }
}

/// Conversions between Foundation's JSON objects (what `JSONSerialization` reads and writes, and
/// what Mapbox's `mgl_jsonExpressionObject` speaks) and MapStyle's `JSONValue`.
enum FoundationJSON {
    /// Foundation objects nested deeper than this are refused rather than recursed into.
    static let maximumDepth = 256

    /// A JSON value from a Foundation object: `NSNull`/nil, Booleans, numbers, strings, arrays and
    /// string-keyed dictionaries (keys sorted, as a dictionary has no order). A ``UIColor`` becomes
    /// the `rgba` expression Mapbox's SDK reads it as.
    static func value(_ object: Any?, depth: Int = 0) throws(MGLExpressionError) -> JSONValue {
        guard depth < maximumDepth else { throw MGLExpressionError(.invalidJSON, "JSON nested more than \(maximumDepth) levels deep") }
        guard let object = unwrappedOptional(object) else { return .null }
        if object is NSNull { return .null }
        if type(of: object) == Bool.self { return .bool(object as! Bool) }
        if let number = numericValue(object) {
            switch number {
            case .bool(let b): return .bool(b)
            case .number(let n):
                guard n.isFinite else { throw MGLExpressionError(.invalidJSON, "\(n) is not a JSON number") }
                return .number(n)
            default: break
            }
        }
        switch object {
        case let json as JSONValue: return json
        case let string as String: return .string(string)
        case let color as UIColor: return MGLJSON.colorExpression(color)
        case let array as [Any]:
            var items: [JSONValue] = []
            items.reserveCapacity(array.count)
            for item in array { items.append(try value(item, depth: depth + 1)) }
            return .array(items)
        case let dictionary as [AnyHashable: Any]:
            var members: [(key: String, value: JSONValue)] = []
            for (key, member) in dictionary {
                guard let name = key.base as? String else {
                    throw MGLExpressionError(.invalidJSON, "a JSON object's keys must be strings, not \(type(of: key.base))")
                }
                members.append((name, try value(member, depth: depth + 1)))
            }
            members.sort { $0.key < $1.key }
            return .object(JSONObject(members))
        default:
            throw MGLExpressionError(.invalidJSON, "\(type(of: object)) (\(object)) is not a JSON value")
        }
    }

    /// The Foundation object of a JSON value: `NSNull`, `Bool`, `Double`, `String`, `[Any]` and
    /// `[String: Any]`, as `JSONSerialization` takes them.
    static func object(_ json: JSONValue) -> Any {
        switch json {
        case .null: NSNull()
        case .bool(let b): b
        case .number(let n): n
        case .string(let s): s
        case .array(let items): items.map(object)
        case .object(let o): Dictionary(o.members.map { ($0.key, object($0.value)) }, uniquingKeysWith: { _, last in last })
        }
    }
}
