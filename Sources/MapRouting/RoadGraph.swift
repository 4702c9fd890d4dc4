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
        return SnappedPoint(coordinate: hit.point, distance: hit.distance, name: g.info(ofEdge: hit.edge).name)
    }

    /// Routes between two coordinates; the first path is the best, then up to
    /// `options.alternatives` meaningfully different ones.
    public func route(from: CLLocationCoordinate2D, to: CLLocationCoordinate2D,
                      options: RouteOptions = RouteOptions()) throws(RoutingError) -> [RoutePath] {
        let (source, target) = try endpoints(from, to)
        let query = RouteQuery(g: g, source: source, target: target)
        guard var best = query.shortest() else {
            throw RoutingError.noRoute("\(from) and \(to) are not connected for \(mode.rawValue)")
        }
        if options.avoidTolls || options.avoidMotorways {
            var avoid: UInt32 = 0
            if options.avoidTolls { avoid |= WayFlags.toll }
            if options.avoidMotorways { avoid |= WayFlags.motorway }
            if query.uses(best, flags: avoid), let avoiding = query.dijkstra(avoiding: avoid) { best = avoiding }
        }
        var paths = [query.path(best, mode: mode)]
        let wanted = min(max(options.alternatives, 0), 3)
        if wanted > 0 {
            for alternative in query.alternatives(best: best, count: wanted) { paths.append(query.path(alternative, mode: mode)) }
        }
        return paths
    }

    /// Distance and travel time of the best route, without building its shape or segments.
    public func travelTime(from: CLLocationCoordinate2D, to: CLLocationCoordinate2D) throws(RoutingError) -> (distance: Double, travelTime: Double) {
        let (source, target) = try endpoints(from, to)
        let query = RouteQuery(g: g, source: source, target: target)
        guard let best = query.shortest() else {
            throw RoutingError.noRoute("\(from) and \(to) are not connected for \(mode.rawValue)")
        }
        return query.totals(best)
    }

    private func validate(_ c: CLLocationCoordinate2D, _ what: String) throws(RoutingError) {
        guard c.latitude.isFinite, c.longitude.isFinite, abs(c.latitude) <= 90, abs(c.longitude) <= 180 else {
            throw RoutingError.invalidInput("\(what) \(c.latitude), \(c.longitude) is not a valid coordinate")
        }
    }

    private func endpoints(_ from: CLLocationCoordinate2D, _ to: CLLocationCoordinate2D) throws(RoutingError) -> (Snap, Snap) {
        try validate(from, "source")
        try validate(to, "destination")
        guard let source = g.nearest(from) else {
            throw RoutingError.noRoadNearby("no road for \(mode.rawValue) within \(Int(GraphData.maximumSnapDistance / 1000)) km of the source \(from)")
        }
        guard let target = g.nearest(to) else {
            throw RoutingError.noRoadNearby("no road for \(mode.rawValue) within \(Int(GraphData.maximumSnapDistance / 1000)) km of the destination \(to)")
        }
        if source.edge == target.edge && abs(source.offset - target.offset) < 1 {
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
}
