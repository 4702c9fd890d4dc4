import Foundation
import MapGeometry

/// A road graph file for one travel mode, memory-mapped, with its route queries.
///
/// Opening validates every section's bounds and every index the queries follow, so a truncated or
/// damaged file fails here with ``RoutingError/corrupt(_:)`` rather than in a query. Queries are
/// read-only and may run concurrently.
public final class RoadGraph: Sendable {
    public let mode: TravelMode
    let g: GraphData

    /// Memory-maps the graph at `url` and validates its header, version and section sizes.
    public init(url: URL) throws(RoutingError) {
        let file = try MappedFile(url: url)
        g = try GraphData(file: file, path: url.path)
        mode = g.mode
    }

    /// Number of graph nodes (directed road edges) and of shortcut-including upward arcs, for reports.
    public var statistics: (edges: Int, graphNodes: Int, upwardArcs: Int) {
        (g.edgeCount, g.nodeCount, g.forwardArcs.count / 3 + g.backwardArcs.count / 3)
    }

    /// The nearest point on a road this graph's mode may use.
    public func snap(_ coordinate: CLLocationCoordinate2D) throws(RoutingError) -> SnappedPoint {
        try validate(coordinate, "coordinate")
        guard let hit = g.nearest(coordinate) else {
            throw RoutingError.noRoadNearby("no road for \(mode.rawValue) within \(Int(GraphData.maximumSnapDistance / 1000)) km of \(coordinate)")
        }
        return SnappedPoint(coordinate: hit.point, distance: hit.distance, name: g.info(ofEdge: hit.edge).name, bearing: hit.bearing)
    }

    /// Routes between two coordinates; the first path is the best, then up to
    /// `options.alternatives` meaningfully different ones.
    ///
    /// `isCancelled` is polled while the searches run (by default: whether the current Swift
    /// task is cancelled); once it answers true the query stops with ``RoutingError/cancelled``.
    public func route(from: CLLocationCoordinate2D, to: CLLocationCoordinate2D, options: RouteOptions = RouteOptions(),
                      isCancelled: @escaping () -> Bool = { Task.isCancelled }) throws(RoutingError) -> [RoutePath] {
        let interruption = Interruption(isCancelled)
        let (query, found) = try shortest(from, to, interruption)
        var best = found
        if options.avoidTolls || options.avoidMotorways {
            var avoid: UInt32 = 0
            if options.avoidTolls { avoid |= WayFlags.toll }
            if options.avoidMotorways { avoid |= WayFlags.motorway }
            if query.uses(best, flags: avoid), let avoiding = query.dijkstra(avoiding: avoid) { best = avoiding }
            if interruption.tripped { throw RoutingError.cancelled }
        }
        var paths = [query.path(best, mode: mode)]
        let wanted = min(max(options.alternatives, 0), 3)
        if wanted > 0 {
            let alternatives = query.alternatives(best: best, count: wanted)
            if interruption.tripped { throw RoutingError.cancelled }
            for alternative in alternatives { paths.append(query.path(alternative, mode: mode)) }
        }
        return paths
    }

    /// Distance and travel time of the best route, without building its shape or segments.
    public func travelTime(from: CLLocationCoordinate2D, to: CLLocationCoordinate2D,
                           isCancelled: @escaping () -> Bool = { Task.isCancelled }) throws(RoutingError) -> (distance: Double, travelTime: Double) {
        let (query, best) = try shortest(from, to, Interruption(isCancelled))
        return query.totals(best)
    }

    /// The best route and the query (snapped ends) it was found with. When the two ends snap to
    /// roads that do not connect at all (an island: a car park, a private estate's drive, a bit
    /// of road cut off at the extract's edge), the end on the smaller network is moved to the
    /// nearest road of the other's, then both to the largest network, before giving up.
    private func shortest(_ from: CLLocationCoordinate2D, _ to: CLLocationCoordinate2D,
                          _ interruption: Interruption) throws(RoutingError) -> (RouteQuery, FoundPath) {
        let (source, target) = try endpoints(from, to)
        var tries = [(source, target)]
        let first = RouteQuery(g: g, source: source, target: target, interruption: interruption)
        if let found = first.shortest() { return (first, found) }
        if interruption.tripped { throw RoutingError.cancelled }
        let (ofEdge, size) = components.get(g)
        let cs = ofEdge[source.edge], ct = ofEdge[target.edge]
        if cs != ct {
            let largest = UInt32(size.indices.max { size[$0] < size[$1] } ?? 0)
            // Only a short step off the island: a point kilometres from the other network is
            // better answered "no route" than routed from somewhere else.
            func moved(_ c: CLLocationCoordinate2D, _ snapped: Snap, onto component: UInt32) -> Snap? {
                if ofEdge[snapped.edge] == component { return snapped }
                guard let s = g.nearest(c, accepting: { ofEdge[$0] == component }),
                      s.distance <= snapped.distance + Self.islandStep else { return nil }
                return s
            }
            if size[Int(cs)] <= size[Int(ct)] {
                if let s = moved(from, source, onto: ct) { tries.append((s, target)) }
            } else if let t = moved(to, target, onto: cs) {
                tries.append((source, t))
            }
            if cs != largest || ct != largest, let s = moved(from, source, onto: largest), let t = moved(to, target, onto: largest) {
                tries.append((s, t))
            }
            for (s, t) in tries.dropFirst() where !(s.edge == t.edge && abs(s.offset - t.offset) < 1) {
                let query = RouteQuery(g: g, source: s, target: t, interruption: interruption)
                if let found = query.shortest() { return (query, found) }
                if interruption.tripped { throw RoutingError.cancelled }
            }
        }
        throw RoutingError.noRoute("\(from) and \(to) are not connected for \(mode.rawValue)"
                                   + (cs == ct ? " (oneways, turn restrictions or barriers are in the way)" : ""))
    }

    private let components = ComponentCache()
    /// How much farther than the nearest road an end may be moved to reach a connected network.
    static let islandStep = 250.0

    private func validate(_ c: CLLocationCoordinate2D, _ what: String) throws(RoutingError) {
        guard c.latitude.isFinite, c.longitude.isFinite, abs(c.latitude) <= 90, abs(c.longitude) <= 180 else {
            throw RoutingError.invalidInput("\(what) \(c.latitude), \(c.longitude) is not a valid coordinate")
        }
    }

    private func endpoints(_ from: CLLocationCoordinate2D, _ to: CLLocationCoordinate2D) throws(RoutingError) -> (Snap, Snap) {
        try validate(from, "source")
        try validate(to, "destination")
        // A route starts and ends on a road, not on a ferry line (as OSRM's startpoints): a ferry
        // is snapped to only where no road is in reach.
        let notFerry: (Int) -> Bool = { [g] in g.flags(ofEdge: $0) & WayFlags.ferry == 0 }
        guard let source = g.nearest(from, accepting: notFerry) ?? g.nearest(from) else {
            throw RoutingError.noRoadNearby("no road for \(mode.rawValue) within \(Int(GraphData.maximumSnapDistance / 1000)) km of the source \(from)")
        }
        guard let target = g.nearest(to, accepting: notFerry) ?? g.nearest(to) else {
            throw RoutingError.noRoadNearby("no road for \(mode.rawValue) within \(Int(GraphData.maximumSnapDistance / 1000)) km of the destination \(to)")
        }
        if source.edge == target.edge && abs(source.offset - target.offset) < 1
            || metresE7(Int32((source.point.latitude * 1e7).rounded()), Int32((source.point.longitude * 1e7).rounded()),
                        Int32((target.point.latitude * 1e7).rounded()), Int32((target.point.longitude * 1e7).rounded())) < 0.5 {
            throw RoutingError.invalidInput("source and destination are the same place")
        }
        return (source, target)
    }
}

/// A point on an edge: `offset` metres from the edge's start, `fraction` of its length.
struct Snap {
    var edge: Int
    var offset: Double
    var fraction: Double
    var point: CLLocationCoordinate2D
    var distance: Double
    /// The direction of the edge's piece there, degrees clockwise from north; nil for a point.
    var bearing: Double? = nil
}

/// The graph's connected components, worked out on the first query that needs them.
final class ComponentCache: @unchecked Sendable {
    private let lock = NSLock()
    private var value: (ofEdge: [UInt32], size: [Int])?

    func get(_ g: GraphData) -> (ofEdge: [UInt32], size: [Int]) {
        lock.lock()
        defer { lock.unlock() }
        if let value { return value }
        let computed = g.components()
        value = computed
        return computed
    }
}
