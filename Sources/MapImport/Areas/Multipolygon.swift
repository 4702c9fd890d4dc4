import MapFormats

// Areas from OSM: multipolygon and boundary relations, and closed ways, turned into valid polygons with
// holes — or into a report of why they cannot be.
//
// The model follows osmium's area assembler (the one osm2pgsql uses): roles say nothing about geometry.
// All member ways are cut into segments between node *locations*; segments that occur an even number of
// times cancel (two touching inner rings sharing an edge merge into one hole, a spike collapses), the rest
// must form closed rings that neither cross nor touch except at shared nodes; rings are then classified by
// how deeply they nest (even depth: outer, odd: inner), oriented as RFC 7946 wants, and each inner ring is
// given to the smallest outer ring around it. Roles are only compared with the result afterwards.

/// One polygon of an area: its outer ring first, then its holes. Each ring is closed (its last location
/// repeats the first), outer rings run counter-clockwise and holes clockwise in (longitude, latitude)
/// space, as RFC 7946 asks.
public typealias AreaPolygon = [[OSMLocation]]

/// The OSM element an area is built from.
public struct AreaSource: Hashable, Sendable, CustomStringConvertible {
    /// `.relation` for multipolygon and boundary relations, `.way` for closed ways.
    public var type: OSMEntityType
    public var id: Int64

    public init(type: OSMEntityType, id: Int64) {
        self.type = type
        self.id = id
    }

    public var description: String { "\(type) \(id)" }
}

/// A member way as the assembler needs it: its node ids and their locations (nil where the location is
/// not known, e.g. a node outside an extract).
public struct AreaMemberWay: Sendable {
    public var id: Int64
    /// The member's role in the relation ("outer", "inner", "" …); "" for a closed way on its own.
    public var role: String
    public var nodeIDs: [Int64]
    /// One entry per node id.
    public var locations: [OSMLocation?]

    /// A member way with its nodes' locations. If the arrays differ in length, the extra entries of the
    /// longer one are dropped.
    public init(id: Int64, role: String, nodeIDs: [Int64], locations: [OSMLocation?]) {
        let n = min(nodeIDs.count, locations.count)
        self.id = id
        self.role = role
        self.nodeIDs = n == nodeIDs.count ? nodeIDs : Array(nodeIDs.prefix(n))
        self.locations = n == locations.count ? locations : Array(locations.prefix(n))
    }

    /// A member way whose node locations come from `location` (nil for nodes it does not know).
    public init(way: OSMWay, role: String, location: (Int64) -> OSMLocation?) {
        self.id = way.id
        self.role = role
        self.nodeIDs = way.nodeRefs
        self.locations = way.nodeRefs.map(location)
    }
}

/// What the assembler found wrong with an area's data, and where.
public struct AreaProblem: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        /// A member way is not in the data (often: cut off by an extract's edge).
        case missingWay
        /// A way refers to nodes whose locations are unknown; they were left out. `count` of them.
        case missingNodes(count: Int)
        /// The same way is a member more than once; the repeats were ignored.
        case duplicateMember
        /// Two member ways have the same nodes (in either direction, from any start on a closed way);
        /// one was ignored.
        case duplicateWay
        /// A way repeats a node (or location) consecutively; the zero-length segment was dropped.
        case duplicateNode
        /// Different nodes have the same location; they were treated as one node.
        case nodesShareLocation
        /// A segment occurs more than once among the member ways (two rings sharing an edge, a spike);
        /// pairs of copies cancel out.
        case duplicateSegment
        /// A way with role `role` ended up in a ring of the other kind (or has no role); the geometry
        /// wins. `actual` is "outer" or "inner".
        case roleMismatch(role: String, actual: String)
        /// A ring cannot be closed: an end of a way meets no other way here.
        case openRing
        /// Two segments cross each other (a self-intersecting ring or two crossing rings).
        case segmentsCross
        /// A node lies on another segment without being one of its nodes (rings touching without a
        /// shared node).
        case segmentTouches
        /// Two segments overlap along a line without sharing both nodes.
        case segmentsOverlap
        /// A closed way with fewer than three distinct locations, or members whose segments all cancel.
        case noArea
        /// A way given as a closed way does not end where it starts.
        case wayNotClosed
    }

    public var kind: Kind
    /// Where the problem is, if it has a place (an open end, a crossing point).
    public var location: OSMLocation?
    /// The ways involved, when known.
    public var wayIDs: [Int64]

    public init(kind: Kind, location: OSMLocation? = nil, wayIDs: [Int64] = []) {
        self.kind = kind
        self.location = location
        self.wayIDs = wayIDs
    }

    /// Whether the problem stops the area from being built (the others were repaired or are notes).
    public var isFatal: Bool {
        switch kind {
        case .openRing, .segmentsCross, .segmentTouches, .segmentsOverlap, .noArea, .wayNotClosed: true
        default: false
        }
    }

    public var description: String {
        var text: String
        switch kind {
        case .missingWay: text = "missing way"
        case .missingNodes(let count): text = "\(count) missing node\(count == 1 ? "" : "s")"
        case .duplicateMember: text = "duplicate member"
        case .duplicateWay: text = "duplicate way"
        case .duplicateNode: text = "repeated node"
        case .nodesShareLocation: text = "nodes share a location"
        case .duplicateSegment: text = "duplicate segment"
        case .roleMismatch(let role, let actual):
            text = "role \(role.isEmpty ? "(empty)" : "\"\(role)\"") on a way of an \(actual) ring"
        case .openRing: text = "open ring end"
        case .segmentsCross: text = "segments cross"
        case .segmentTouches: text = "node touches a segment"
        case .segmentsOverlap: text = "segments overlap"
        case .noArea: text = "no area"
        case .wayNotClosed: text = "way not closed"
        }
        if let location { text += " at \(location.longitude) \(location.latitude)" }
        if !wayIDs.isEmpty { text += " (way\(wayIDs.count == 1 ? "" : "s") \(wayIDs.map(String.init).joined(separator: ", ")))" }
        return text
    }
}

/// Everything the assembler noticed about one area.
public struct AreaAssemblyReport: Sendable {
    public var source: AreaSource
    /// Problems in the order found, at most ``maximumProblemCount``; the rest are only counted.
    public var problems: [AreaProblem] = []
    /// Problems beyond ``maximumProblemCount`` that were counted but not kept.
    public var omittedProblemCount = 0
    /// Member ways that were not in the data.
    public var missingWayCount = 0
    /// Node references whose location was unknown.
    public var missingNodeCount = 0

    /// A broken country boundary can have thousands of open ends; the first ones are what a mapper needs.
    public static let maximumProblemCount = 200

    public init(source: AreaSource) {
        self.source = source
    }

    /// Whether any problem stopped the area from being built.
    public var hasFatalProblems: Bool { problems.contains { $0.isFatal } || omittedFatalProblem }

    var omittedFatalProblem = false

    mutating func record(_ problem: AreaProblem) {
        if problems.count < Self.maximumProblemCount {
            problems.append(problem)
        } else {
            omittedProblemCount += 1
            if problem.isFatal { omittedFatalProblem = true }
        }
    }
}

/// An assembled area: its polygons (empty when it could not be built) and the report.
public struct AreaAssembly: Sendable {
    public var source: AreaSource
    /// The area's polygons, each an outer ring followed by its holes; empty when the data is broken.
    public var polygons: [AreaPolygon]
    public var report: AreaAssemblyReport

    public init(source: AreaSource, polygons: [AreaPolygon], report: AreaAssemblyReport) {
        self.source = source
        self.polygons = polygons
        self.report = report
    }

    /// Whether a geometry was built (any problems in the report were repaired or are notes).
    public var isValid: Bool { !polygons.isEmpty }
}
