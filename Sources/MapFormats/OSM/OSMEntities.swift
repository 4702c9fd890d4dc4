/// OpenStreetMap's data model as the readers hand it out: nodes, ways and relations with tags.
///
/// Coordinates are kept as OSM stores them, fixed-point integers of 1e-7 degrees (100 nanodegrees),
/// so they round-trip exactly and take 8 bytes a node.

/// Which of the three OSM element kinds an id belongs to.
public enum OSMEntityType: UInt8, Hashable, Sendable, Codable, CustomStringConvertible {
    case node = 0
    case way = 1
    case relation = 2

    public var description: String {
        switch self {
        case .node: "node"
        case .way: "way"
        case .relation: "relation"
        }
    }
}

/// A node's position in OSM's fixed-point form: 1e-7 degrees in each of latitude and longitude.
public struct OSMLocation: Hashable, Sendable {
    /// 1e-7 degrees north.
    public var latitudeE7: Int32
    /// 1e-7 degrees east.
    public var longitudeE7: Int32

    public init(latitudeE7: Int32, longitudeE7: Int32) {
        self.latitudeE7 = latitudeE7
        self.longitudeE7 = longitudeE7
    }

    /// The nearest fixed-point location to a position in degrees; nil outside ±90/±180 or NaN.
    public init?(latitude: Double, longitude: Double) {
        guard (-90...90).contains(latitude), (-180...180).contains(longitude) else { return nil }
        latitudeE7 = Int32((latitude * 1e7).rounded())
        longitudeE7 = Int32((longitude * 1e7).rounded())
    }

    public var latitude: Double { Double(latitudeE7) / 1e7 }
    public var longitude: Double { Double(longitudeE7) / 1e7 }
}

/// An element's tags in file order. Keys are unique within one element in valid data.
public typealias OSMTags = [(key: String, value: String)]

public struct OSMNode: Sendable {
    public var id: Int64
    public var location: OSMLocation
    public var tags: OSMTags

    public init(id: Int64, location: OSMLocation, tags: OSMTags = []) {
        self.id = id
        self.location = location
        self.tags = tags
    }
}

public struct OSMWay: Sendable {
    public var id: Int64
    /// The ids of the way's nodes, in order; a closed way repeats its first node at the end.
    public var nodeRefs: [Int64]
    public var tags: OSMTags

    public init(id: Int64, nodeRefs: [Int64], tags: OSMTags = []) {
        self.id = id
        self.nodeRefs = nodeRefs
        self.tags = tags
    }
}

public struct OSMRelation: Sendable {
    public struct Member: Hashable, Sendable {
        public var type: OSMEntityType
        public var ref: Int64
        public var role: String

        public init(type: OSMEntityType, ref: Int64, role: String) {
            self.type = type
            self.ref = ref
            self.role = role
        }
    }

    public var id: Int64
    public var members: [Member]
    public var tags: OSMTags

    public init(id: Int64, members: [Member], tags: OSMTags = []) {
        self.id = id
        self.members = members
        self.tags = tags
    }
}

extension Sequence where Element == (key: String, value: String) {
    /// The value of `key`, or nil.
    public func value(for key: String) -> String? {
        first { $0.key == key }?.value
    }
}
