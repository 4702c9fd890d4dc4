import Foundation
import Hummingbird
import MapGeometry

/// A request's query string, read as hostile input: every accessor either returns a valid value
/// or throws an ``APIError`` (400) naming the parameter and what was wrong with it.
///
/// Values are percent-decoded and `+` reads as a space (HTML forms and `URLSearchParams` encode
/// spaces that way). A repeated parameter keeps its first value.
public struct QueryParameters: Sendable {
    private var values: [String: String] = [:]
    /// Parameter names in the order they came, for handlers that reject unknown ones.
    public private(set) var names: [String] = []

    /// The longest value accepted for any parameter; longer is a 400, not a slow request.
    public static let maximumValueLength = 16_384

    public init(query: String?) throws {
        guard let query, !query.isEmpty else { return }
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decode(parts[0]), !name.isEmpty else {
                throw APIError.badRequest("malformed query string", details: ["cannot decode \(String(parts[0]).prefix(64))"])
            }
            let raw = parts.count > 1 ? parts[1] : ""
            guard raw.utf8.count <= Self.maximumValueLength else {
                throw APIError.badRequest("parameter \(name) is too long", details: ["at most \(Self.maximumValueLength) bytes"])
            }
            guard let value = Self.decode(raw) else {
                throw APIError.badRequest("parameter \(name) is not valid percent-encoded UTF-8")
            }
            if values[name] == nil {
                values[name] = value
                names.append(name)
            }
        }
    }

    public init(_ request: Request) throws {
        try self.init(query: request.uri.query)
    }

    private static func decode(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }

    /// The raw (decoded) value, nil when absent. An empty value counts as absent.
    public subscript(name: String) -> String? {
        guard let value = values[name], !value.isEmpty else { return nil }
        return value
    }

    /// The value, or a 400 saying it is required.
    public func required(_ name: String) throws -> String {
        guard let value = self[name] else { throw APIError.badRequest("parameter \(name) is required") }
        return value
    }

    /// A finite number within `range`, nil when absent.
    public func double(_ name: String, in range: ClosedRange<Double>) throws -> Double? {
        guard let text = self[name] else { return nil }
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite else {
            throw APIError.badRequest("parameter \(name) must be a number", details: ["got \(Self.quoted(text))"])
        }
        guard range.contains(value) else {
            throw APIError.badRequest("parameter \(name) must be between \(Self.format(range.lowerBound)) and \(Self.format(range.upperBound))", details: ["got \(text)"])
        }
        return value
    }

    /// An integer within `range`, nil when absent.
    public func int(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = self[name] else { return nil }
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)) else {
            throw APIError.badRequest("parameter \(name) must be an integer", details: ["got \(Self.quoted(text))"])
        }
        guard range.contains(value) else {
            throw APIError.badRequest("parameter \(name) must be between \(range.lowerBound) and \(range.upperBound)", details: ["got \(text)"])
        }
        return value
    }

    /// `true`/`false` (also `1`/`0`), nil when absent.
    public func bool(_ name: String) throws -> Bool? {
        guard let text = self[name] else { return nil }
        switch text.lowercased() {
        case "true", "1", "yes": return true
        case "false", "0", "no": return false
        default: throw APIError.badRequest("parameter \(name) must be true or false", details: ["got \(Self.quoted(text))"])
        }
    }

    /// One of `choices` (compared case-insensitively), nil when absent.
    public func choice<T: RawRepresentable & CaseIterable>(_ name: String, of type: T.Type) throws -> T? where T.RawValue == String {
        guard let text = self[name] else { return nil }
        if let match = T.allCases.first(where: { $0.rawValue.caseInsensitiveCompare(text) == .orderedSame }) { return match }
        throw APIError.badRequest("parameter \(name) must be one of \(T.allCases.map(\.rawValue).joined(separator: ", "))", details: ["got \(Self.quoted(text))"])
    }

    /// A coordinate written `lat,lon`, nil when absent.
    public func coordinate(_ name: String) throws -> CLLocationCoordinate2D? {
        guard let text = self[name] else { return nil }
        return try Self.coordinate(text, parameter: name)
    }

    /// Parses `lat,lon` (the Apple Maps Server API's form); 400 naming `parameter` otherwise.
    public static func coordinate(_ text: String, parameter: String) throws -> CLLocationCoordinate2D {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let lat = Double(parts[0]), let lon = Double(parts[1]), lat.isFinite, lon.isFinite else {
            throw APIError.badRequest("parameter \(parameter) must be latitude,longitude", details: ["got \(quoted(text))"])
        }
        guard (-90...90).contains(lat), (-180...180).contains(lon) else {
            throw APIError.badRequest("parameter \(parameter) is outside the world", details: ["latitude must be within ±90 and longitude within ±180, got \(text)"])
        }
        return CLLocationCoordinate2D(latitude: lat, longitude: lon)
    }

    /// A region written `north,east,south,west` (the API's `searchRegion`), nil when absent.
    public func region(_ name: String) throws -> MKCoordinateRegion? {
        guard let text = self[name] else { return nil }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, let north = parts[0], let east = parts[1], let south = parts[2], let west = parts[3],
              [north, east, south, west].allSatisfy(\.isFinite) else {
            throw APIError.badRequest("parameter \(name) must be north,east,south,west", details: ["got \(Self.quoted(text))"])
        }
        guard (-90...90).contains(north), (-90...90).contains(south), (-180...180).contains(east), (-180...180).contains(west) else {
            throw APIError.badRequest("parameter \(name) is outside the world", details: ["got \(text)"])
        }
        guard north > south else {
            throw APIError.badRequest("parameter \(name) must have north above south", details: ["got \(text)"])
        }
        guard east != west else { throw APIError.badRequest("parameter \(name) has no width", details: ["got \(text)"]) }
        // A region may cross the antimeridian (west > east); its span is measured eastwards.
        let lonSpan = east > west ? east - west : east + 360 - west
        var centerLon = west + lonSpan / 2
        if centerLon > 180 { centerLon -= 360 }
        return MKCoordinateRegion(center: CLLocationCoordinate2D(latitude: (north + south) / 2, longitude: centerLon),
                                  span: MKCoordinateSpan(latitudeDelta: north - south, longitudeDelta: lonSpan))
    }

    /// A comma-separated list (empty items dropped), nil when absent.
    public func list(_ name: String, maximumCount: Int = 100) throws -> [String]? {
        guard let text = self[name] else { return nil }
        let items = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard items.count <= maximumCount else {
            throw APIError.badRequest("parameter \(name) lists too many items", details: ["at most \(maximumCount), got \(items.count)"])
        }
        return items
    }

    /// A date in ISO 8601 (`2026-11-22T10:00:00Z`, fractional seconds allowed), nil when absent.
    public func date(_ name: String) throws -> Date? {
        guard let text = self[name] else { return nil }
        let plain = ISO8601DateFormatter()
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        guard let date = plain.date(from: text) ?? fractional.date(from: text) else {
            throw APIError.badRequest("parameter \(name) must be an ISO 8601 date such as 2026-11-22T10:00:00Z", details: ["got \(Self.quoted(text))"])
        }
        return date
    }

    /// The value as echoed in an error detail: quoted, control characters escaped, cut at 64 characters.
    static func quoted(_ text: String) -> String {
        let cut = text.count > 64 ? String(text.prefix(64)) + "…" : text
        let escaped = cut.unicodeScalars.map { $0.properties.generalCategory == .control ? "\\u{\(String($0.value, radix: 16))}" : String($0) }.joined()
        return "\"\(escaped)\""
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
