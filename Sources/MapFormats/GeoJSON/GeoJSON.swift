// GeoJSON (RFC 7946): the value model, the entry points for reading and writing, and the error.
//
// Reading treats its input as hostile. The bytes are first scanned by a small iterative JSON
// scanner (GeoJSONScanner.swift) with a nesting limit, so no input can exhaust the stack; the
// scanner records where every value starts and ends, which is how a Feature's `properties` are
// kept byte for byte. The GeoJSON reader (GeoJSONReader.swift) then checks the structure and
// names the JSON path of the first problem it finds. Why not JSONSerialization: it is safe
// against depth bombs (swift-corelibs-foundation refuses more than 512 levels with an error),
// but it would re-serialise `properties` (losing key order and number spelling), it cannot say
// where in the document a problem is, and it boxes every coordinate in an NSNumber.

import Foundation

/// A GeoJSON document (RFC 7946): a geometry, a feature or a feature collection.
///
/// ```swift
/// let document = try GeoJSON.parse(data)
/// let data = try document.serialized()
/// ```
public enum GeoJSON: Hashable, Sendable {
    /// A bare geometry object (`Point`, …, `GeometryCollection`).
    case geometry(GeoJSONGeometry)
    /// A `Feature` object.
    case feature(GeoJSONFeature)
    /// A `FeatureCollection` object's features, in order.
    case featureCollection([GeoJSONFeature])

    /// The deepest nesting of arrays and objects the reader accepts anywhere in a document,
    /// including inside `properties`. Deeper input fails with ``GeoJSONError/Kind/tooDeep``.
    public static let maximumNestingDepth = 512

    /// The deepest nesting of `GeometryCollection`s the reader accepts (RFC 7946 §3.1.8 asks
    /// writers to avoid nesting them at all). A collection inside a collection is depth 2.
    public static let maximumGeometryCollectionDepth = 16

    /// Reads a GeoJSON document.
    ///
    /// The reader follows RFC 7946 and is strict where the RFC says "must":
    /// - the input is UTF-8 JSON (RFC 8259; a leading byte-order mark is skipped), nested at most
    ///   ``maximumNestingDepth`` deep;
    /// - `"type"` names one of the nine GeoJSON types (case-sensitive);
    /// - a position is an array of at least two finite numbers, longitude in −180…180 and
    ///   latitude in −90…90 (a third number is the altitude; further numbers are checked and
    ///   dropped);
    /// - a LineString has at least two positions; a Polygon has at least one ring, and every ring
    ///   has at least four positions and ends where it starts;
    /// - a Feature's `id` is a string or a number, its `properties` an object or null, its
    ///   `geometry` a geometry or null; a missing (or null) `id` and a missing `properties` or
    ///   `geometry` read as absent;
    /// - a `bbox`, where present, is an array of 2·n finite numbers, n ≥ 2.
    ///
    /// It is lenient where the RFC is: winding order is not checked, foreign members are
    /// ignored, and empty MultiPoint / MultiLineString / MultiPolygon / GeometryCollection
    /// values are accepted.
    ///
    /// - Throws: ``GeoJSONError``, whose ``GeoJSONError/message`` names the JSON path of the
    ///   problem, e.g. `features[2].geometry.coordinates[0][3]: latitude 91 is outside -90...90`.
    public static func parse(_ data: Data) throws(GeoJSONError) -> GeoJSON {
        let tape = try JSONTape.scan(Array(data), allowByteOrderMark: true)
        var reader = GeoJSONReader(tape: tape)
        return try reader.readDocument()
    }

    /// Writes the document as compact RFC 7946 JSON (UTF-8).
    ///
    /// - Members are written in the order `type`, `id`, `bbox`, `geometry`/`coordinates`/
    ///   `geometries`/`features`, `properties`.
    /// - Polygon rings are written closed: a ring whose last position differs from its first gets
    ///   the first position repeated at the end.
    /// - A feature's `properties` bytes are spliced in verbatim; they must hold one JSON object
    ///   (or `null`).
    /// - Numbers are written in the shortest form that reads back to the same `Double`; whole
    ///   numbers below 10^15 are written without a fraction (`10`, not `10.0`).
    /// - A numeric feature id (``GeoJSONFeature/idIsNumeric``) is written as a JSON number when
    ///   its text is a valid JSON number, otherwise as a string.
    ///
    /// The writer does not re-check RFC minimums (a one-position LineString is written as given),
    /// so that whatever a program builds can be inspected; ``parse(_:)`` is the checker.
    ///
    /// - Throws: ``GeoJSONError`` with kind ``GeoJSONError/Kind/unwritable`` when a number is
    ///   NaN or infinite, or `properties` is not a JSON object; the message names the path.
    public func serialized() throws(GeoJSONError) -> Data {
        var writer = GeoJSONWriter()
        try writer.write(self)
        return Data(writer.output)
    }
}

/// A GeoJSON position: longitude and latitude in degrees (WGS84), optionally an altitude in
/// metres. GeoJSON writes positions longitude first: `[lon, lat]` or `[lon, lat, alt]`.
public struct GeoJSONPosition: Hashable, Sendable, CustomStringConvertible {
    public var longitude: Double
    public var latitude: Double
    /// Metres above or below the WGS84 ellipsoid; nil when the position has two numbers.
    public var altitude: Double?

    public init(longitude: Double, latitude: Double, altitude: Double? = nil) {
        self.longitude = longitude
        self.latitude = latitude
        self.altitude = altitude
    }

    public var description: String {
        if let altitude { return "[\(longitude), \(latitude), \(altitude)]" }
        return "[\(longitude), \(latitude)]"
    }
}

/// A GeoJSON geometry object.
public indirect enum GeoJSONGeometry: Hashable, Sendable {
    case point(GeoJSONPosition)
    case multiPoint([GeoJSONPosition])
    /// At least two positions when read.
    case lineString([GeoJSONPosition])
    case multiLineString([[GeoJSONPosition]])
    /// Linear rings: the first is the exterior, the rest are holes. Read rings are closed (their
    /// last position repeats the first), as RFC 7946 requires.
    case polygon([[GeoJSONPosition]])
    case multiPolygon([[[GeoJSONPosition]]])
    case geometryCollection([GeoJSONGeometry])

    /// The GeoJSON `"type"` name of this geometry.
    public var typeName: String {
        switch self {
        case .point: "Point"
        case .multiPoint: "MultiPoint"
        case .lineString: "LineString"
        case .multiLineString: "MultiLineString"
        case .polygon: "Polygon"
        case .multiPolygon: "MultiPolygon"
        case .geometryCollection: "GeometryCollection"
        }
    }
}

/// A GeoJSON `Feature`: a geometry with an identifier and properties.
public struct GeoJSONFeature: Hashable, Sendable {
    /// The feature's `id` in string form. A numeric id is kept as MapKit shows it: `42` and
    /// `42.0` read as `"42"`, `4.5` as `"4.5"`, an integer literal too long for a `Double` keeps
    /// its digits.
    public var id: String?
    /// Whether the `id` was a JSON number (so the writer writes it back as one).
    public var idIsNumeric: Bool
    /// The geometry; nil for a feature whose `geometry` is null or missing.
    public var geometry: GeoJSONGeometry?
    /// The `properties` member exactly as it appeared in the input: the bytes of one JSON object,
    /// kept opaque (MapKit's `MKGeoJSONFeature.properties`). nil when it was null or missing.
    public var properties: Data?
    /// The feature's `bbox` member: 2·n numbers, all the minimums then all the maximums.
    public var bbox: [Double]?

    public init(id: String? = nil, idIsNumeric: Bool = false, geometry: GeoJSONGeometry?,
                properties: Data? = nil, bbox: [Double]? = nil) {
        self.id = id
        self.idIsNumeric = idIsNumeric
        self.geometry = geometry
        self.properties = properties
        self.bbox = bbox
    }
}

/// Why a GeoJSON document could not be read or written.
///
/// ``message`` reads `PATH: PROBLEM`, where `PATH` is the JSON path of the offending value
/// (`features[2].geometry.coordinates[0][3]`, or `top level` for the document itself).
public struct GeoJSONError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    /// Broad classes of failure.
    public enum Kind: Hashable, Sendable {
        /// The bytes are not JSON (RFC 8259): a syntax error, truncated input, bad UTF-8.
        case invalidJSON
        /// Arrays and objects nested deeper than ``GeoJSON/maximumNestingDepth``, or geometry
        /// collections deeper than ``GeoJSON/maximumGeometryCollectionDepth``.
        case tooDeep
        /// Valid JSON that is not valid GeoJSON: a missing member, a wrong type, an unknown
        /// `"type"`, too few positions, an open ring.
        case invalidStructure
        /// A number that is out of range: a latitude beyond ±90, a longitude beyond ±180, a value
        /// too large for a `Double`.
        case invalidValue
        /// The writer was given something it cannot write as JSON.
        case unwritable
    }

    public var kind: Kind
    /// The JSON path of the offending value; empty for the document itself.
    public var path: String
    /// What is wrong, in words.
    public var problem: String
    /// Where in the input the problem was found, for JSON syntax errors.
    public var byteOffset: Int?

    public init(kind: Kind, path: String, problem: String, byteOffset: Int? = nil) {
        self.kind = kind
        self.path = path
        self.problem = problem
        self.byteOffset = byteOffset
    }

    /// `PATH: PROBLEM`.
    public var message: String { "\(path.isEmpty ? "top level" : path): \(problem)" }
    public var description: String { "GeoJSONError(\(message))" }
    public var errorDescription: String? { message }
}

/// One step of a JSON path: a member name or an array index.
enum JSONPathComponent: Hashable, Sendable {
    case key(String)
    case index(Int)

    /// Formats a path as `features[2].geometry.coordinates[0][3]`. Member names that are not
    /// plain identifiers are written `["a b"]`. Very long paths (depth bombs) keep their first
    /// and last ten steps with `…` between.
    static func format(_ components: [JSONPathComponent]) -> String {
        func render(_ slice: ArraySlice<JSONPathComponent>, atStart: Bool) -> String {
            var text = ""
            var first = atStart
            for component in slice {
                switch component {
                case .index(let i): text += "[\(i)]"
                case .key(let k):
                    if isIdentifier(k) && k.utf8.count <= 60 {
                        text += first ? k : "." + k
                    } else {
                        text += "[" + quoted(k) + "]"
                    }
                }
                first = false
            }
            return text
        }
        if components.count > 24 {
            return render(components.prefix(10), atStart: true) + "…"
                + render(components.suffix(10), atStart: false)
        }
        return render(components[...], atStart: true)
    }

    private static func isIdentifier(_ key: String) -> Bool {
        guard let first = key.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
        return key.utf8.allSatisfy { b in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(b)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) || b == UInt8(ascii: "_") || b == UInt8(ascii: "$")
        }
    }

    /// A short, printable JSON string literal of `text` (cut at 60 characters).
    static func quoted(_ text: String) -> String {
        var out: [UInt8] = []
        let cut = text.count > 60 ? String(text.prefix(60)) + "…" : text
        JSONEscaping.appendQuoted(cut, to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}
