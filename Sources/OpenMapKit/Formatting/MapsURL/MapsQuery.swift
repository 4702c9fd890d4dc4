import Foundation

/// The decoded query of a Maps URL, in order, with typed readers that throw
/// ``MapsURLError``s naming the parameter. Also home to the encoding helpers.
struct MapsQuery {
    var items: [(name: String, value: String)]

    init(_ components: URLComponents) throws(MapsURLError) {
        items = []
        guard let query = components.percentEncodedQuery else { return }
        for piece in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let rawName = String(parts[0])
            guard let name = Self.decode(rawName) else { throw .malformedPercentEncoding(parameter: rawName) }
            let rawValue = parts.count > 1 ? String(parts[1]) : ""
            guard let value = Self.decode(rawValue) else { throw .malformedPercentEncoding(parameter: name) }
            items.append((name, value))
        }
    }

    func contains(_ name: String) -> Bool { items.contains { $0.name == name } }

    /// The value of a parameter that may appear at most once, not empty.
    func single(_ name: String) throws(MapsURLError) -> String? {
        var found: String?
        for item in items where item.name == name {
            guard found == nil else { throw .duplicateParameter(name) }
            found = item.value
        }
        if let found { try Self.checkText(found, parameter: name) }
        return found
    }

    func coordinate(_ name: String) throws(MapsURLError) -> CLLocationCoordinate2D? {
        guard let text = try single(name) else { return nil }
        guard let (latitude, longitude) = Self.numberPair(text) else {
            throw .invalidCoordinate(parameter: name, value: text, reason: "expected latitude,longitude in decimal degrees")
        }
        return CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
    }

    func span(_ name: String) throws(MapsURLError) -> MKCoordinateSpan? {
        guard let text = try single(name) else { return nil }
        guard let (latitudeDelta, longitudeDelta) = Self.numberPair(text) else {
            throw .invalidCoordinate(parameter: name, value: text,
                                     reason: "expected latitudeDelta,longitudeDelta in decimal degrees")
        }
        return MKCoordinateSpan(latitudeDelta: latitudeDelta, longitudeDelta: longitudeDelta)
    }

    func number(_ name: String) throws(MapsURLError) -> Double? {
        guard let text = try single(name) else { return nil }
        guard let value = Self.decimal(text) else {
            throw .invalidValue(parameter: name, value: text, expected: "a decimal number")
        }
        return value
    }

    func location(_ name: String) throws(MapsURLError) -> MapsURL.Location? {
        guard let text = try single(name) else { return nil }
        return try Self.location(text, parameter: name)
    }

    func enumeration<Value: RawRepresentable & CaseIterable>(_ name: String) throws(MapsURLError) -> Value?
    where Value.RawValue == String {
        guard let text = try single(name) else { return nil }
        guard let value = Value(rawValue: text) else {
            throw .invalidValue(parameter: name, value: text, expected: Self.oneOf(Value.self))
        }
        return value
    }

    /// A comma-separated list; duplicates collapse, empty entries are errors.
    func list<Value: RawRepresentable & CaseIterable & Hashable>(_ name: String) throws(MapsURLError) -> Set<Value>
    where Value.RawValue == String {
        guard let text = try single(name) else { return [] }
        var values: Set<Value> = []
        for entry in text.split(separator: ",", omittingEmptySubsequences: false) {
            let trimmed = entry.trimmingCharacters(in: .whitespaces)
            guard let value = Value(rawValue: trimmed) else {
                throw .invalidValue(parameter: name, value: trimmed,
                                    expected: "a comma-separated list of " + Self.oneOf(Value.self))
            }
            values.insert(value)
        }
        return values
    }

    func rejectUnknown(allowed: [String], action: String) throws(MapsURLError) {
        if let unknown = items.first(where: { !allowed.contains($0.name) }) {
            throw .unknownParameter(unknown.name, action: action)
        }
    }

    // MARK: Reading helpers

    static func location(_ text: String, parameter: String) throws(MapsURLError) -> MapsURL.Location {
        try checkText(text, parameter: parameter)
        if let (latitude, longitude) = numberPair(text) {
            return .coordinate(CLLocationCoordinate2D(latitude: latitude, longitude: longitude))
        }
        return .address(text)
    }

    static func action(_ path: String) throws(MapsURLError) -> MapsURL.Action {
        var name = path.removingPercentEncoding ?? path
        while name.hasPrefix("/") { name.removeFirst() }
        while name.hasSuffix("/") { name.removeLast() }
        guard !name.isEmpty else { throw .missingAction }
        guard let action = MapsURL.Action(rawValue: name.lowercased()) else { throw .unknownAction(name) }
        return action
    }

    /// The rest of `path` after a self-hosted base's path, when `base` has the same scheme,
    /// host and port.
    static func pathAfter(base: URL, scheme: String, host: String, port: Int?, path: String) -> String? {
        guard let components = URLComponents(url: base, resolvingAgainstBaseURL: true),
              components.scheme?.lowercased() == scheme,
              normalizedHost(components.host ?? "") == host, components.port == port else { return nil }
        var basePath = components.percentEncodedPath
        while basePath.hasSuffix("/") { basePath.removeLast() }
        guard path.hasPrefix(basePath) else { return nil }
        let rest = path.dropFirst(basePath.count)
        guard rest.isEmpty || rest.hasPrefix("/") else { return nil }
        return String(rest)
    }

    static func normalizedHost(_ host: String) -> String {
        var host = host.lowercased()
        if host.hasSuffix(".") { host.removeLast() }
        return host
    }

    /// Form-style decoding: `+` is a space, then `%XX` escapes; `nil` for an invalid escape.
    static func decode(_ text: String) -> String? {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        guard spaced.contains("%") else { return spaced }
        return spaced.removingPercentEncoding
    }

    /// Two decimal numbers separated by one comma, spaces around either allowed.
    static func numberPair(_ text: String) -> (Double, Double)? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2,
              let first = decimal(parts[0].trimmingCharacters(in: .whitespaces)),
              let second = decimal(parts[1].trimmingCharacters(in: .whitespaces)) else { return nil }
        return (first, second)
    }

    /// A plain decimal: optional sign, digits with at most one point. No exponent, hex, `inf`
    /// or `nan`, which `Double.init(_:)` would otherwise accept.
    static func decimal(_ text: String) -> Double? {
        var digits = 0
        var points = 0
        for (offset, byte) in text.utf8.enumerated() {
            switch byte {
            case 0x30...0x39: digits += 1
            case 0x2E: points += 1
            case 0x2B, 0x2D: guard offset == 0 else { return nil }
            default: return nil
            }
        }
        guard digits > 0, points <= 1, let value = Double(text), value.isFinite else { return nil }
        return value
    }

    static func oneOf<Value: RawRepresentable & CaseIterable>(_: Value.Type) -> String where Value.RawValue == String {
        "one of " + Value.allCases.map(\.rawValue).joined(separator: ", ")
    }

    // MARK: Checks shared by validate() and parsing

    static func checkText(_ text: String?, parameter: String) throws(MapsURLError) {
        if let text, text.allSatisfy(\.isWhitespace) { throw .emptyValue(parameter: parameter) }
    }

    static func check(_ coordinate: CLLocationCoordinate2D?, parameter: String) throws(MapsURLError) {
        guard let coordinate else { return }
        if !(-90.0...90.0).contains(coordinate.latitude) {
            throw .invalidCoordinate(parameter: parameter, value: format(coordinate),
                                     reason: "latitude must be between -90 and 90")
        }
        if !(-180.0...180.0).contains(coordinate.longitude) {
            throw .invalidCoordinate(parameter: parameter, value: format(coordinate),
                                     reason: "longitude must be between -180 and 180")
        }
    }

    static func check(_ span: MKCoordinateSpan?, parameter: String) throws(MapsURLError) {
        guard let span else { return }
        if !(0.0...180.0).contains(span.latitudeDelta) {
            throw .invalidCoordinate(parameter: parameter, value: format(span),
                                     reason: "latitudeDelta must be between 0 and 180")
        }
        if !(0.0...360.0).contains(span.longitudeDelta) {
            throw .invalidCoordinate(parameter: parameter, value: format(span),
                                     reason: "longitudeDelta must be between 0 and 360")
        }
    }

    static func check(_ stop: MapsURL.Stop, parameter: String) throws(MapsURLError) {
        switch stop.location {
        case .coordinate(let coordinate): try check(coordinate, parameter: parameter)
        case .address(let text): try checkText(text, parameter: parameter)
        }
        try checkText(stop.placeID, parameter: parameter + "-place-id")
    }

    static func checkFinite(_ value: Double?, parameter: String) throws(MapsURLError) {
        if let value, !value.isFinite {
            throw .invalidValue(parameter: parameter, value: format(value), expected: "a finite number")
        }
    }

    // MARK: Writing helpers

    /// Query parameters being written, in order; a `nil` value writes nothing.
    struct Writer {
        var pairs: [(name: String, value: String)] = []

        mutating func add(_ name: String, _ value: String?) {
            if let value { pairs.append((name, value)) }
        }
    }

    /// Up to seven decimals, no trailing zeros, no exponent, never "-0".
    static func format(_ value: Double) -> String {
        // Beyond 1e11 the scaled integer would overflow; such values fail validation anyway.
        guard value.isFinite, value.magnitude < 1e11 else { return "\(value)" }
        let scaled = Int64((value.magnitude * 1e7).rounded(.toNearestOrAwayFromZero))
        let whole = scaled / 10_000_000
        var text = String(whole)
        var fraction = scaled % 10_000_000
        if fraction != 0 {
            var digits = 7
            while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
            let fractionText = String(fraction)
            text += "." + String(repeating: "0", count: digits - fractionText.count) + fractionText
        }
        return value < 0 && scaled != 0 ? "-" + text : text
    }

    static func format(_ coordinate: CLLocationCoordinate2D) -> String {
        format(coordinate.latitude) + "," + format(coordinate.longitude)
    }

    static func format(_ span: MKCoordinateSpan) -> String {
        format(span.latitudeDelta) + "," + format(span.longitudeDelta)
    }

    static func format(_ location: MapsURL.Location) -> String {
        switch location {
        case .coordinate(let coordinate): return format(coordinate)
        case .address(let text): return text
        }
    }

    /// `name=value&…`, each percent-encoded as UTF-8 except unreserved characters and `,`.
    static func encode(_ pairs: [(name: String, value: String)]) -> String {
        pairs.map { escape($0.name) + "=" + escape($0.value) }.joined(separator: "&")
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    static func escape(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0x2D, 0x2E, 0x5F, 0x7E, 0x2C:
                bytes.append(byte)
            default:
                bytes.append(0x25)
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
