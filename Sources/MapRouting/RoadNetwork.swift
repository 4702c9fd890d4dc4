import Foundation
import MapGeometry

/// The road network as the importer hands it over: routable ways with their nodes, what each mode
/// may do on them (already decided from OSM tags by MapImport), barriers and turn restrictions.
///
/// Nodes are kept as OSM ids until ``setLocation(_:latitudeE7:longitudeE7:)`` fills in the
/// locations of the nodes ways use, so the network never holds nodes no road needs.
public final class RoadNetwork {
    /// What one mode may do on a way. A speed of 0 closes that direction to the mode.
    public struct Access: Sendable, Equatable {
        /// km/h travelling in the way's node order.
        public var forwardSpeed: Float
        /// km/h travelling against the way's node order.
        public var backwardSpeed: Float
        public init(forwardSpeed: Float = 0, backwardSpeed: Float = 0) {
            self.forwardSpeed = forwardSpeed
            self.backwardSpeed = backwardSpeed
        }
        public static let closed = Access()
        public var isOpen: Bool { forwardSpeed > 0 || backwardSpeed > 0 }
    }

    /// The way's descriptive attributes, shared by all modes.
    public struct WayInfo: Sendable, Hashable {
        public var name: String?
        public var ref: String?
        /// The OSM highway value, or "ferry".
        public var roadClass: String
        public var isToll = false
        public var isMotorway = false
        public var isRoundabout = false
        public var isFerry = false
        /// A parking aisle, driveway or garage entrance: a way out of a junction that guidance does
        /// not count as a road (a roundabout's "2nd exit" never means the car park's entrance).
        public var isMinorService = false
        public init(name: String?, ref: String?, roadClass: String, isToll: Bool = false, isMotorway: Bool = false,
                    isRoundabout: Bool = false, isFerry: Bool = false, isMinorService: Bool = false) {
            self.name = name
            self.ref = ref
            self.roadClass = roadClass
            self.isToll = isToll
            self.isMotorway = isMotorway
            self.isRoundabout = isRoundabout
            self.isFerry = isFerry
            self.isMinorService = isMinorService
        }
    }

    /// A turn restriction relation: from a way, via a node or a chain of ways, to a way.
    public struct Restriction: Sendable {
        public var fromWay: Int64
        public var viaNode: Int64?
        public var viaWays: [Int64]
        public var toWay: Int64
        /// `only_*` (the turn is the only one allowed) rather than `no_*`.
        public var isOnly: Bool
        /// The modes it applies to.
        public var modes: Set<TravelMode>
        public init(fromWay: Int64, viaNode: Int64?, viaWays: [Int64], toWay: Int64, isOnly: Bool, modes: Set<TravelMode>) {
            self.fromWay = fromWay
            self.viaNode = viaNode
            self.viaWays = viaWays
            self.toWay = toWay
            self.isOnly = isOnly
            self.modes = modes
        }
    }

    struct Way {
        var id: Int64
        var nodeStart: Int
        var nodeCount: Int
        var info: Int32
        var access: [Access]   // indexed by TravelMode.index
        /// Ferries: the crossing's duration in seconds for the whole way (overrides speeds).
        var duration: Float?
    }

    var ways: [Way] = []
    /// OSM node ids of all ways, back to back.
    var wayNodes: [Int64] = []
    var infos: [WayInfo] = []
    var infoIndex: [WayInfo: Int32] = [:]
    /// Node id → location (E7), filled by `setLocation`.
    var locations: [Int64: SIMD2<Int32>] = [:]
    /// Node id → modes it blocks.
    var barriers: [Int64: Set<TravelMode>] = [:]
    public private(set) var restrictions: [Restriction] = []

    public init() {}

    /// The number of ways added.
    public var wayCount: Int { ways.count }

    /// Adds a way: `access` per mode (modes left out are closed), `duration` for ferries.
    public func addWay(id: Int64, nodes: [Int64], info: WayInfo, access: [TravelMode: Access], duration: Double? = nil) {
        guard nodes.count >= 2, access.values.contains(where: \.isOpen) else { return }
        let index: Int32
        if let existing = infoIndex[info] { index = existing } else {
            index = Int32(infos.count)
            infos.append(info)
            infoIndex[info] = index
        }
        ways.append(Way(id: id, nodeStart: wayNodes.count, nodeCount: nodes.count, info: index,
                        access: TravelMode.allCases.map { access[$0] ?? .closed },
                        duration: duration.map { Float($0) }))
        wayNodes += nodes
    }

    /// Marks a node as a barrier for `modes` (passing through it is not allowed).
    public func addBarrier(node: Int64, modes: Set<TravelMode>) {
        guard !modes.isEmpty else { return }
        barriers[node, default: []].formUnion(modes)
    }

    public func addRestriction(_ restriction: Restriction) {
        restrictions.append(restriction)
    }

    /// The ids of the nodes ways use whose location is still unknown, in increasing order.
    public func nodesNeedingLocations() -> [Int64] {
        var ids = Array(Set(wayNodes).subtracting(locations.keys))
        ids.sort()
        return ids
    }

    public func setLocation(_ node: Int64, latitudeE7: Int32, longitudeE7: Int32) {
        locations[node] = SIMD2(latitudeE7, longitudeE7)
    }
}

extension TravelMode {
    var index: Int {
        switch self {
        case .automobile: 0
        case .walking: 1
        case .cycling: 2
        }
    }
}

extension RoadNetwork {
    /// The ids of the ways added, in the order they were added.
    public var wayIDs: [Int64] { ways.map(\.id) }

    /// The OSM node ids of way `id`, nil when there is no such way (a linear scan: for edits and
    /// tools, not for the import's inner loops).
    public func nodes(ofWay id: Int64) -> [Int64]? {
        guard let way = ways.first(where: { $0.id == id }) else { return nil }
        return Array(wayNodes[way.nodeStart..<(way.nodeStart + way.nodeCount)])
    }

    /// A node's location as set by ``setLocation(_:latitudeE7:longitudeE7:)``.
    public func location(of node: Int64) -> (latitudeE7: Int32, longitudeE7: Int32)? {
        locations[node].map { ($0.x, $0.y) }
    }

    /// Removes the ways with these ids (a change deleted them or took their road tags away);
    /// node locations stay, unused.
    public func removeWays(_ ids: Set<Int64>) {
        guard !ids.isEmpty else { return }
        var kept: [Way] = [], nodes: [Int64] = []
        kept.reserveCapacity(ways.count)
        nodes.reserveCapacity(wayNodes.count)
        for var way in ways where !ids.contains(way.id) {
            let start = nodes.count
            nodes += wayNodes[way.nodeStart..<(way.nodeStart + way.nodeCount)]
            way.nodeStart = start
            kept.append(way)
        }
        ways = kept
        wayNodes = nodes
    }

    /// Sets what `mode` may do on way `id` (a change retagged it); false when there is no such way.
    @discardableResult
    public func setAccess(_ access: Access, for mode: TravelMode, onWay id: Int64) -> Bool {
        guard let i = ways.firstIndex(where: { $0.id == id }) else { return false }
        ways[i].access[mode.index] = access
        return true
    }

    /// What `mode` may do on way `id`, nil when there is no such way.
    public func access(for mode: TravelMode, onWay id: Int64) -> Access? {
        ways.first { $0.id == id }?.access[mode.index]
    }

    /// Drops everything, handing the memory back once the graphs are built.
    public func removeAll() {
        ways = []
        wayNodes = []
        infos = []
        infoIndex = [:]
        locations = [:]
        barriers = [:]
        restrictions = []
    }
}
