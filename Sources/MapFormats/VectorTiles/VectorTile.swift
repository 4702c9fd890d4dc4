import Foundation

/// A Mapbox Vector Tile (specification 2.1): named layers of features whose geometry is in
/// integer tile coordinates (origin top left, y down, `0..<extent` inside the tile).
///
/// Decode with ``init(decoding:)`` or ``VectorTileDecoder`` (which also reports the problems it
/// recovered from); encode with ``encoded()`` or ``VectorTileEncoder``.
public struct VectorTile: Hashable, Sendable {
    public var layers: [Layer]

    public init(layers: [Layer] = []) {
        self.layers = layers
    }

    /// The first layer with this name (a valid tile has at most one).
    public subscript(layer name: String) -> Layer? {
        layers.first { $0.name == name }
    }
}

extension VectorTile {
    /// A point in tile coordinates. MVT coordinates are signed 32-bit: geometry may reach outside
    /// the tile into a buffer, and cursor arithmetic wraps like the reference decoders' `int32`.
    public struct TilePoint: Hashable, Sendable, CustomStringConvertible {
        public var x: Int32
        public var y: Int32

        @inlinable public init(x: Int32, y: Int32) {
            self.x = x
            self.y = y
        }

        @inlinable public init(_ x: Int32, _ y: Int32) {
            self.x = x
            self.y = y
        }

        public var description: String { "(\(x), \(y))" }
    }

    /// The `GeomType` enum of the specification.
    public enum GeometryType: UInt32, Hashable, Sendable {
        case unknown = 0
        case point = 1
        case lineString = 2
        case polygon = 3
    }

    /// A feature's geometry, decoded from the command stream.
    ///
    /// Rings are stored open: the closing point is implied (MVT's ClosePath), never repeated.
    public enum Geometry: Hashable, Sendable {
        /// An `UNKNOWN`-type feature: the command integers as written, kept so that such features
        /// survive a round trip unchanged (the specification leaves their meaning open).
        case unknown(commands: [UInt32])
        /// One point or a multipoint.
        case points([TilePoint])
        /// One line string or a multi line string; each line has at least two distinct points.
        case lines([[TilePoint]])
        /// One polygon or a multipolygon. Each polygon is a list of rings: its exterior ring first,
        /// then its interior rings (holes). Each ring has at least three points and non-zero area.
        case polygons([[[TilePoint]]])

        /// The `GeomType` written for this geometry.
        public var type: GeometryType {
            switch self {
            case .unknown: return .unknown
            case .points: return .point
            case .lines: return .lineString
            case .polygons: return .polygon
            }
        }

        /// The polygons' rings in order (each exterior followed by its interiors); empty for other types.
        public var rings: [[TilePoint]] {
            guard case .polygons(let polygons) = self else { return [] }
            return polygons.flatMap { $0 }
        }

        /// Whether there is nothing to draw.
        public var isEmpty: Bool {
            switch self {
            case .unknown(let commands): return commands.isEmpty
            case .points(let points): return points.isEmpty
            case .lines(let lines): return lines.isEmpty
            case .polygons(let polygons): return polygons.isEmpty
            }
        }
    }

    /// A property value, keeping the wire kind it was written with (`int_value`, `sint_value` and
    /// `uint_value` are distinct), so that decoding and re-encoding a tile writes the same bytes.
    ///
    /// Equality and hashing compare what goes on the wire: strings by their UTF-8 bytes (not by
    /// Unicode canonical equivalence, as `String` does) and floating-point values by bit pattern
    /// (`NaN` equals an identical `NaN`, `-0.0` differs from `0.0`), which is what a value table
    /// needs to deduplicate faithfully.
    public enum Value: Hashable, Sendable, CustomStringConvertible {
        case string(String)
        case float(Float)
        case double(Double)
        /// `int_value` (protobuf `int64`).
        case int(Int64)
        /// `uint_value` (protobuf `uint64`).
        case uint(UInt64)
        /// `sint_value` (protobuf `sint64`, zigzag-encoded).
        case sint(Int64)
        case bool(Bool)

        public static func == (a: Value, b: Value) -> Bool {
            switch (a, b) {
            case (.string(let x), .string(let y)): return utf8Equal(x, y)
            case (.float(let x), .float(let y)): return x.bitPattern == y.bitPattern
            case (.double(let x), .double(let y)): return x.bitPattern == y.bitPattern
            case (.int(let x), .int(let y)): return x == y
            case (.uint(let x), .uint(let y)): return x == y
            case (.sint(let x), .sint(let y)): return x == y
            case (.bool(let x), .bool(let y)): return x == y
            default: return false
            }
        }

        public func hash(into hasher: inout Hasher) {
            switch self {
            case .string(let x): hasher.combine(0 as UInt8); hashUTF8(x, into: &hasher)
            case .float(let x): hasher.combine(1 as UInt8); hasher.combine(x.bitPattern)
            case .double(let x): hasher.combine(2 as UInt8); hasher.combine(x.bitPattern)
            case .int(let x): hasher.combine(3 as UInt8); hasher.combine(x)
            case .uint(let x): hasher.combine(4 as UInt8); hasher.combine(x)
            case .sint(let x): hasher.combine(5 as UInt8); hasher.combine(x)
            case .bool(let x): hasher.combine(6 as UInt8); hasher.combine(x)
            }
        }

        public var description: String {
            switch self {
            case .string(let x): return "\"\(x)\""
            case .float(let x): return "\(x)f"
            case .double(let x): return "\(x)"
            case .int(let x): return "\(x)"
            case .uint(let x): return "\(x)u"
            case .sint(let x): return "\(x)s"
            case .bool(let x): return "\(x)"
            }
        }

        /// The string, if this is a string value.
        public var stringValue: String? {
            if case .string(let s) = self { return s }
            return nil
        }

        /// Any numeric kind as a double (booleans and strings give nil).
        public var doubleValue: Double? {
            switch self {
            case .float(let x): return Double(x)
            case .double(let x): return x
            case .int(let x), .sint(let x): return Double(x)
            case .uint(let x): return Double(x)
            case .string, .bool: return nil
            }
        }
    }

    /// One key/value pair of a feature, in the order the tile lists them.
    public struct Property: Hashable, Sendable {
        public var key: String
        public var value: Value

        public init(_ key: String, _ value: Value) {
            self.key = key
            self.value = value
        }
    }

    /// A feature: optional id, properties and geometry.
    public struct Feature: Hashable, Sendable {
        /// The `id` field; nil when the feature has none.
        public var id: UInt64?
        /// Properties in tag order. Keys are normally distinct; a tile that repeats a key keeps both.
        public var properties: [Property]
        public var geometry: Geometry

        public init(id: UInt64? = nil, properties: [Property] = [], geometry: Geometry) {
            self.id = id
            self.properties = properties
            self.geometry = geometry
        }

        /// The geometry's `GeomType`.
        public var type: GeometryType { geometry.type }

        /// The first value for `key`.
        public subscript(key: String) -> Value? {
            for property in properties where property.key == key { return property.value }
            return nil
        }
    }

    /// A layer: a name unique within the tile, the specification version it was written to, the
    /// extent (tile width and height in coordinate units) and its features.
    public struct Layer: Hashable, Sendable {
        public var name: String
        /// 2 for tiles written to specification 2.x, 1 for 1.x.
        public var version: UInt32
        public var extent: UInt32
        public var features: [Feature]

        public init(name: String, version: UInt32 = 2, extent: UInt32 = 4096, features: [Feature] = []) {
            self.name = name
            self.version = version
            self.extent = extent
            self.features = features
        }
    }
}

/// Hashes a string's UTF-8 bytes (cheaper than `String`'s canonical hashing, and byte-exact).
@inline(__always)
func hashUTF8(_ string: String, into hasher: inout Hasher) {
    var string = string
    string.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    hasher.combine(string.utf8.count)
}

/// Whether two strings have the same UTF-8 bytes.
@inline(__always)
func utf8Equal(_ a: String, _ b: String) -> Bool {
    var a = a, b = b
    let count = a.utf8.count
    guard count == b.utf8.count else { return false }
    guard count > 0 else { return true }
    return a.withUTF8 { x in
        b.withUTF8 { y in
            guard let p = x.baseAddress, let q = y.baseAddress else { return x.elementsEqual(y) }
            return memcmp(p, q, count) == 0
        }
    }
}

/// A string compared and hashed by its UTF-8 bytes: distinct wire strings stay distinct.
struct UTF8Key: Hashable {
    var string: String
    static func == (a: UTF8Key, b: UTF8Key) -> Bool { utf8Equal(a.string, b.string) }
    func hash(into hasher: inout Hasher) { hashUTF8(string, into: &hasher) }
}

// MARK: - Winding

extension VectorTile {
    /// The sign of a ring's area by the surveyor's formula in tile coordinates (y down): +1 for the
    /// specification's exterior (clockwise as drawn) orientation, -1 for interior, 0 for no area.
    ///
    /// Exact for every `Int32` input: the sum runs in `Int64` and falls back to `Double` only if
    /// it would overflow (coordinates near ±2³¹), where only the sign is needed anyway.
    public static func windingSign<C: Collection>(of ring: C) -> Int where C.Element == TilePoint {
        guard ring.count >= 3, let first = ring.first else { return 0 }
        var sum: Int64 = 0
        var previous = first
        var overflow = false
        for point in ring.dropFirst() {
            if !accumulate(&sum, previous, point) { overflow = true; break }
            previous = point
        }
        if !overflow, accumulate(&sum, previous, first) {
            return sum > 0 ? 1 : (sum < 0 ? -1 : 0)
        }
        var area = 0.0
        previous = first
        for point in ring.dropFirst() {
            area += Double(previous.x) * Double(point.y) - Double(point.x) * Double(previous.y)
            previous = point
        }
        area += Double(previous.x) * Double(first.y) - Double(first.x) * Double(previous.y)
        return area > 0 ? 1 : (area < 0 ? -1 : 0)
    }

    @inline(__always)
    private static func accumulate(_ sum: inout Int64, _ a: TilePoint, _ b: TilePoint) -> Bool {
        // Products of two Int32 always fit in Int64; their difference and the running sum may not.
        let term1 = Int64(a.x) * Int64(b.y)
        let term2 = Int64(b.x) * Int64(a.y)
        let (term, o1) = term1.subtractingReportingOverflow(term2)
        let (total, o2) = sum.addingReportingOverflow(term)
        sum = total
        return !(o1 || o2)
    }
}
