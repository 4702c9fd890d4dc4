import Foundation
import MapGeometry

/// The ways of travelling a road graph is built for; each has its own graph file in a bundle.
public enum TravelMode: String, Sendable, Codable, CaseIterable {
    case automobile, walking, cycling
}

/// Preferences for one route query.
public struct RouteOptions: Sendable {
    /// Avoid toll roads when a route without them exists (they stay usable when nothing else connects).
    public var avoidTolls = false
    /// Avoid motorways (and their links) when a route without them exists.
    public var avoidMotorways = false
    /// How many extra routes to look for (0…3); they are returned only when meaningfully different
    /// from the best route (sharing at most ~75% of its length) and not much longer.
    public var alternatives = 0
    /// The departure time, used for the ETA answer only (the graph has no traffic data).
    public var departure: Date? = nil

    public init() {}
}

/// A graph node the route passes through where other roads meet.
public struct RouteJunction: Sendable {
    /// Index into `RoutePath.coordinates`.
    public var coordinateIndex: Int
    /// Compass bearings (0 = north, clockwise) of all roads leaving the node, including the one
    /// taken and the one arrived by.
    public var bearings: [Double]
    /// The bearing of the road the route leaves the junction by.
    public var takenBearing: Double
    /// The bearing pointing back along the road the route arrived by.
    public var arrivedBearing: Double
    /// Per entry of `bearings`: whether this mode may leave the junction that way (oneway, access).
    public var exitAllowed: [Bool]
    /// Per entry of `bearings`: whether that way is a parking aisle, driveway or garage entrance
    /// rather than a road (empty when unknown: every way counts).
    public var exitIsMinor: [Bool]

    public init(coordinateIndex: Int, bearings: [Double], takenBearing: Double, arrivedBearing: Double, exitAllowed: [Bool],
                exitIsMinor: [Bool] = []) {
        self.coordinateIndex = coordinateIndex
        self.bearings = bearings
        self.takenBearing = takenBearing
        self.arrivedBearing = arrivedBearing
        self.exitAllowed = exitAllowed
        self.exitIsMinor = exitIsMinor
    }
}

/// A maximal run of consecutive edges with the same way name/ref and road class.
public struct RouteSegment: Sendable {
    public var name: String?
    public var ref: String?
    /// The OSM ways the segment runs along, in order, without repeats.
    public var wayIDs: [Int64]
    /// Into `RoutePath.coordinates`; consecutive segments share their boundary coordinate.
    public var coordinateRange: Range<Int>
    /// Metres.
    public var distance: Double
    /// Seconds.
    public var travelTime: Double
    /// The OSM highway value ("motorway", "residential", "footway", ...) or "ferry".
    public var roadClass: String
    public var isRoundabout: Bool
    public var isToll: Bool
    public var isMotorway: Bool
    public var isFerry: Bool
    /// Junctions strictly inside the segment and at its end.
    public var junctions: [RouteJunction]

    public init(name: String?, ref: String?, wayIDs: [Int64], coordinateRange: Range<Int>, distance: Double,
                travelTime: Double, roadClass: String, isRoundabout: Bool, isToll: Bool, isMotorway: Bool,
                isFerry: Bool, junctions: [RouteJunction]) {
        self.name = name
        self.ref = ref
        self.wayIDs = wayIDs
        self.coordinateRange = coordinateRange
        self.distance = distance
        self.travelTime = travelTime
        self.roadClass = roadClass
        self.isRoundabout = isRoundabout
        self.isToll = isToll
        self.isMotorway = isMotorway
        self.isFerry = isFerry
        self.junctions = junctions
    }
}

/// One route: its shape, totals and the named segments it is made of.
public struct RoutePath: Sendable {
    /// The full route shape, from the snapped start to the snapped end.
    public var coordinates: [CLLocationCoordinate2D]
    /// Metres.
    public var distance: Double
    /// Seconds, at the profile's speeds (no traffic).
    public var travelTime: Double
    public var segments: [RouteSegment]
    public var hasTolls: Bool
    public var hasMotorways: Bool
    public var mode: TravelMode

    public init(coordinates: [CLLocationCoordinate2D], distance: Double, travelTime: Double, segments: [RouteSegment],
                hasTolls: Bool, hasMotorways: Bool, mode: TravelMode) {
        self.coordinates = coordinates
        self.distance = distance
        self.travelTime = travelTime
        self.segments = segments
        self.hasTolls = hasTolls
        self.hasMotorways = hasMotorways
        self.mode = mode
    }
}

/// A query coordinate moved onto the nearest road the graph's mode may use.
public struct SnappedPoint: Sendable {
    public var coordinate: CLLocationCoordinate2D
    /// Metres from the query coordinate.
    public var distance: Double
    /// The name of the road snapped to, when it has one.
    public var name: String?
    /// Which way the road runs there, in degrees clockwise from north (along the way as drawn in
    /// OpenStreetMap; the road runs the opposite way too); nil when the piece is a point.
    public var bearing: Double?

    public init(coordinate: CLLocationCoordinate2D, distance: Double, name: String?, bearing: Double? = nil) {
        self.coordinate = coordinate
        self.distance = distance
        self.name = name
        self.bearing = bearing
    }
}

/// Why a road graph could not be opened or a route not found.
public enum RoutingError: Error, Sendable, CustomStringConvertible {
    /// The bundle has no graph for the mode (or the file is missing).
    case missingGraph(String)
    /// The graph file is truncated or otherwise inconsistent.
    case corrupt(String)
    /// The graph file was written by another version of the graph format (re-import the bundle).
    case incompatibleVersion(String)
    /// Nothing routable within a few kilometres of a point.
    case noRoadNearby(String)
    /// The points are not connected for this mode (disconnected or forbidden).
    case noRoute(String)
    /// NaN or out-of-range coordinates and the like.
    case invalidInput(String)
    /// The caller cancelled the query while it ran.
    case cancelled

    public var description: String {
        switch self {
        case .missingGraph(let message): return "no road graph: \(message)"
        case .corrupt(let message): return "corrupt road graph: \(message)"
        case .noRoadNearby(let message): return "no road nearby: \(message)"
        case .noRoute(let message): return "no route: \(message)"
        case .invalidInput(let message): return "invalid input: \(message)"
        case .incompatibleVersion(let message): return "road graph from another version: \(message)"
        case .cancelled: return "the route query was cancelled"
        }
    }
}
