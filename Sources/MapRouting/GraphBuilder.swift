import Foundation
import MapGeometry

/// Builds one mode's graph file from a ``RoadNetwork``.
///
/// The graph is *edge-based*: its nodes are directed road edges (a way's stretch between two
/// junctions, one per allowed direction) and its arcs are the turns between them. Turn
/// restrictions (via a node: a forbidden arc; via ways: the via stretch is duplicated so the
/// forbidden continuation is missing only on the copy entered from the restricted way), barriers
/// and U-turns are then plain graph structure, which the contraction hierarchy keeps exact.
public struct RoadGraphBuilder {
    public let mode: TravelMode
    /// Nodes settled per witness search while estimating a node's priority; fewer means a faster
    /// build and a worse order (never a wrong route).
    public var witnessSettleLimit = 40
    /// Nodes settled per witness search when a node's shortcuts are really added; fewer means a
    /// faster build and more shortcuts (never a wrong route).
    public var contractionSettleLimit = 400
    /// Whether the neighbours of each contracted node are re-rated at once rather than only when
    /// they leave the queue: ~9% fewer shortcuts on Monaco's walking graph for ~3× the build time,
    /// so off by default.
    public var updatesNeighbours = false
    /// The node order's priority: weights of the edge quotient (shortcuts added per arc removed),
    /// the original-arc quotient, the depth, the edge difference and the contracted neighbours.
    public var priorityWeights = PriorityWeights()
    /// Side of the snapping grid's cells in degrees (0.0001...10); smaller cells mean fewer
    /// segments to measure per snap and more cells to look up.
    public var snapCellDegrees = 0.0025
    public struct PriorityWeights: Sendable {
        public var edgeQuotient = 2.0, hopQuotient = 4.0, depth = 1.0, edgeDifference = 0.0, contractedNeighbours = 0.0
        public init() {}
    }

    public init(mode: TravelMode) { self.mode = mode }

    /// What was built, for the import report.
    public struct Summary: Sendable {
        public var junctions = 0, edges = 0, graphNodes = 0, arcs = 0, shortcuts = 0, bytes = 0
        public var seconds = 0.0
    }

    /// Builds the graph and writes it to `url` (written aside and renamed into place).
    @discardableResult
    public func build(_ network: RoadNetwork, to url: URL, progress: (Double) -> Void = { _ in }) throws -> Summary {
        let started = ContinuousClock.now
        var graph = compress(network)
        progress(0.1)
        buildTurns(network, &graph)
        progress(0.2)
        let ch = contract(&graph) { progress(0.2 + 0.75 * $0) }
        let grid = SpatialGridBuilder.build(graph, cellSize: min(10, max(0.0001, snapCellDegrees)))
        let data = GraphFileWriter.encode(mode: mode, graph: graph, ch: ch, grid: grid)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).tmp-\(ProcessInfo.processInfo.processIdentifier)")
        try data.write(to: temporary)
        if rename(temporary.path, url.path) != 0 {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw RoutingError.corrupt("cannot move \(temporary.path) into place: \(reason)")
        }
        progress(1)
        let elapsed = ContinuousClock.now - started
        var summary = Summary()
        summary.junctions = graph.junctionCount
        summary.edges = graph.edges.count
        summary.graphNodes = graph.nodeCount
        summary.arcs = graph.turnTargets.count
        summary.shortcuts = ch.shortcuts
        summary.bytes = data.count
        summary.seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return summary
    }

    // MARK: - Compression: ways → edges between junctions

    struct Edge {
        var from: UInt32, to: UInt32
        var geometryStart: UInt32, geometryCount: UInt32
        var way: UInt32          // index into `ways` of the built graph
        var forwardMs: UInt32, backwardMs: UInt32   // UInt32.max = closed
        var length: Float
    }

    struct BuiltWay { var id: Int64; var info: Int32 }

    struct Graph {
        var junctionCoordinates: [Int32] = []      // lat, lon E7 pairs
        var junctionCount: Int { junctionCoordinates.count / 2 }
        var edges: [Edge] = []
        var geometry: [Int32] = []                 // lat, lon E7 pairs
        var ways: [BuiltWay] = []
        var infos: [RoadNetwork.WayInfo] = []
        /// Junction → incident edge ends (edge * 2 + (0 if the edge starts here, 1 if it ends here)).
        var incidentOffsets: [UInt32] = []
        var incident: [UInt32] = []
        /// Graph node (directed edge) → the edge direction it stands for; copies made for via-way
        /// restrictions point at their original.
        var origin: [UInt32] = []
        var nodeCount: Int { origin.count }
        /// Turn arcs in CSR form.
        var turnOffsets: [UInt32] = []
        var turnTargets: [UInt32] = []
        var turnWeights: [UInt32] = []
        /// Way id → its edges, for via-way restrictions.
        var wayEdges: [Int64: [UInt32]] = [:]
        var junctionOfNode: [Int64: UInt32] = [:]

        func nodeWeight(_ node: UInt32) -> UInt32 {
            let o = origin[Int(node)]
            let edge = edges[Int(o >> 1)]
            return o & 1 == 0 ? edge.forwardMs : edge.backwardMs
        }
    }

    func compress(_ network: RoadNetwork) -> Graph {
        let m = mode.index
        var graph = Graph()
        graph.infos = network.infos
        // How often each node is used (way ends count twice): junctions are used more than once.
        var use: [Int64: UInt8] = [:]
        for way in network.ways where way.access[m].isOpen {
            for i in 0..<way.nodeCount {
                let id = network.wayNodes[way.nodeStart + i]
                guard network.locations[id] != nil else { continue }
                let add: UInt8 = (i == 0 || i == way.nodeCount - 1) ? 2 : 1
                use[id] = UInt8(min(Int(use[id] ?? 0) + Int(add), 200))
            }
        }
        var forced = Set<Int64>()
        for (node, modes) in network.barriers where modes.contains(mode) { forced.insert(node) }
        for restriction in network.restrictions where restriction.modes.contains(mode) {
            if let via = restriction.viaNode { forced.insert(via) }
        }
        func junction(_ id: Int64) -> UInt32 {
            if let j = graph.junctionOfNode[id] { return j }
            let j = UInt32(graph.junctionCount)
            let location = network.locations[id]!
            graph.junctionCoordinates += [location.x, location.y]
            graph.junctionOfNode[id] = j
            return j
        }
        for way in network.ways where way.access[m].isOpen {
            let access = way.access[m]
            var ids: [Int64] = []
            ids.reserveCapacity(way.nodeCount)
            for i in 0..<way.nodeCount {
                let id = network.wayNodes[way.nodeStart + i]
                if network.locations[id] != nil, ids.last != id { ids.append(id) }
            }
            guard ids.count >= 2 else { continue }
            let wayIndex = UInt32(graph.ways.count)
            graph.ways.append(BuiltWay(id: way.id, info: way.info))
            // Ferries: the way's duration spread over its length.
            var wayLength = 0.0
            if way.duration != nil {
                for i in 1..<ids.count { wayLength += metres(network.locations[ids[i - 1]]!, network.locations[ids[i]]!) }
            }
            var start = 0
            var edgeList: [UInt32] = []
            for i in 1..<ids.count {
                let isEnd = i == ids.count - 1
                guard isEnd || (use[ids[i]] ?? 0) >= 2 || forced.contains(ids[i]) else { continue }
                let geometryStart = UInt32(graph.geometry.count / 2)
                var length = 0.0
                for k in start...i {
                    let location = network.locations[ids[k]]!
                    graph.geometry += [location.x, location.y]
                    if k > start { length += metres(network.locations[ids[k - 1]]!, location) }
                }
                func ms(_ speed: Float) -> UInt32 {
                    guard speed > 0 else { return .max }
                    let seconds: Double
                    if let duration = way.duration, wayLength > 0 { seconds = Double(duration) * length / wayLength }
                    else { seconds = length / (Double(speed) / 3.6) }
                    return UInt32(max(1, min(seconds * 1000, 4e9)))
                }
                let edge = Edge(from: junction(ids[start]), to: junction(ids[i]), geometryStart: geometryStart,
                                geometryCount: UInt32(i - start + 1), way: wayIndex,
                                forwardMs: ms(access.forwardSpeed), backwardMs: ms(access.backwardSpeed), length: Float(length))
                edgeList.append(UInt32(graph.edges.count))
                graph.edges.append(edge)
                start = i
            }
            graph.wayEdges[way.id, default: []] += edgeList
        }
        // Incidence lists.
        var counts = [UInt32](repeating: 0, count: graph.junctionCount + 1)
        for edge in graph.edges {
            counts[Int(edge.from) + 1] += 1
            counts[Int(edge.to) + 1] += 1
        }
        for j in 0..<graph.junctionCount { counts[j + 1] += counts[j] }
        graph.incidentOffsets = counts
        var fill = counts
        graph.incident = [UInt32](repeating: 0, count: Int(counts[graph.junctionCount]))
        for (e, edge) in graph.edges.enumerated() {
            graph.incident[Int(fill[Int(edge.from)])] = UInt32(e) * 2
            fill[Int(edge.from)] += 1
            graph.incident[Int(fill[Int(edge.to)])] = UInt32(e) * 2 + 1
            fill[Int(edge.to)] += 1
        }
        graph.origin = (0..<UInt32(graph.edges.count * 2)).map { $0 }
        return graph
    }

    // MARK: - Turns

    /// The compass bearing of the edge's first (or, `atEnd`, last) stretch, pointing away from the junction.
    static func bearing(_ graph: Graph, edge: Int, leavingEnd end: Int) -> Double {
        let e = graph.edges[edge]
        let a: Int, b: Int
        if end == 0 { a = Int(e.geometryStart); b = a + 1 } else { a = Int(e.geometryStart + e.geometryCount) - 1; b = a - 1 }
        return bearingE7(graph.geometry[2 * a], graph.geometry[2 * a + 1], graph.geometry[2 * b], graph.geometry[2 * b + 1])
    }

    /// Seconds added for a turn by its angle (0 = straight on, 180 = back).
    func turnPenalty(deviation: Double, uTurn: Bool) -> Double {
        switch mode {
        case .automobile: return uTurn ? 20 : (deviation < 30 ? 0 : 1 + 6 * (deviation - 30) / 150)
        case .cycling: return uTurn ? 5 : (deviation < 30 ? 0 : 0.5 + 2 * (deviation - 30) / 150)
        case .walking: return 0
        }
    }

    func buildTurns(_ network: RoadNetwork, _ graph: inout Graph) {
        // Restrictions by via junction: (from way, to way, only).
        var viaNode: [UInt32: [(from: Int64, to: Int64, only: Bool)]] = [:]
        var viaWay: [RoadNetwork.Restriction] = []
        // A via node must end both ways: one running through it is ambiguous and ignored.
        let wanted = Set(network.restrictions.filter { $0.modes.contains(mode) && $0.viaNode != nil }.flatMap { [$0.fromWay, $0.toWay] })
        var ends: [Int64: (Int64, Int64)] = [:]
        for way in network.ways where wanted.contains(way.id) {
            ends[way.id] = (network.wayNodes[way.nodeStart], network.wayNodes[way.nodeStart + way.nodeCount - 1])
        }
        func endsAt(_ way: Int64, _ node: Int64) -> Bool {
            guard let (first, last) = ends[way] else { return false }
            return first == node || last == node
        }
        for r in network.restrictions where r.modes.contains(mode) {
            if let node = r.viaNode {
                guard endsAt(r.fromWay, node), endsAt(r.toWay, node) else { continue }
                if let j = graph.junctionOfNode[node] { viaNode[j, default: []].append((r.fromWay, r.toWay, r.isOnly)) }
            } else if !r.viaWays.isEmpty {
                viaWay.append(r)
            }
        }
        var barrierJunctions = Set<UInt32>()
        for (node, modes) in network.barriers where modes.contains(mode) {
            if let j = graph.junctionOfNode[node] { barrierJunctions.insert(j) }
        }
        var turns: [[(UInt32, UInt32)]] = Array(repeating: [], count: graph.nodeCount)
        for j in 0..<graph.junctionCount {
            let ends = graph.incident[Int(graph.incidentOffsets[j])..<Int(graph.incidentOffsets[j + 1])]
            // Arriving: the direction of the edge that ends here; leaving: the one that starts here.
            var arriving: [(node: UInt32, edge: Int, end: Int)] = []
            var leaving: [(node: UInt32, edge: Int, end: Int)] = []
            for code in ends {
                let e = Int(code >> 1), end = Int(code & 1)
                let inNode = UInt32(e * 2 + (end == 1 ? 0 : 1))
                let outNode = UInt32(e * 2 + (end == 0 ? 0 : 1))
                if graph.nodeWeight(inNode) != .max { arriving.append((inNode, e, end)) }
                if graph.nodeWeight(outNode) != .max { leaving.append((outNode, e, end)) }
            }
            let restrictions = viaNode[UInt32(j)] ?? []
            let isBarrier = barrierJunctions.contains(UInt32(j))
            for a in arriving {
                let fromWay = graph.ways[Int(graph.edges[a.edge].way)].id
                let inBearing = Self.bearing(graph, edge: a.edge, leavingEnd: a.end)   // points back along the arrival
                let exits = leaving.filter { $0.node != (a.node ^ 1) }
                for b in leaving {
                    let uTurn = b.node == (a.node ^ 1)
                    // U-turns only where nothing else is possible (dead ends, barriers).
                    if uTurn && !exits.isEmpty && !isBarrier { continue }
                    if isBarrier && !uTurn { continue }
                    let toWay = graph.ways[Int(graph.edges[b.edge].way)].id
                    var forbidden = false
                    for r in restrictions where r.from == fromWay {
                        if r.only ? toWay != r.to : toWay == r.to { forbidden = true }
                    }
                    if forbidden { continue }
                    let outBearing = Self.bearing(graph, edge: b.edge, leavingEnd: b.end)
                    var deviation = abs(180 - abs(outBearing - inBearing).truncatingRemainder(dividingBy: 360))
                    if deviation > 180 { deviation = 360 - deviation }
                    let penalty = UInt32(turnPenalty(deviation: deviation, uTurn: uTurn) * 1000)
                    let weight = graph.nodeWeight(b.node)
                    turns[Int(a.node)].append((b.node, weight &+ penalty))
                }
            }
        }
        applyViaWayRestrictions(viaWay, &graph, &turns)
        graph.turnOffsets = [0]
        graph.turnOffsets.reserveCapacity(turns.count + 1)
        for list in turns {
            for (target, weight) in list {
                graph.turnTargets.append(target)
                graph.turnWeights.append(weight)
            }
            graph.turnOffsets.append(UInt32(graph.turnTargets.count))
        }
    }

    /// Via-way restrictions: the via chain's graph nodes are copied; the restricted way's arrival
    /// turns into the copy, and only the copy lacks (no_*) or keeps only (only_*) the final turn.
    func applyViaWayRestrictions(_ restrictions: [RoadNetwork.Restriction], _ graph: inout Graph, _ turns: inout [[(UInt32, UInt32)]]) {
        func wayID(_ node: UInt32) -> Int64 { graph.ways[Int(graph.edges[Int(graph.origin[Int(node)] >> 1)].way)].id }
        for r in restrictions {
            // Walk from every arrival of `fromWay`, along the via ways in order, to the to-way.
            let viaSet = r.viaWays
            let starts = (graph.wayEdges[r.fromWay] ?? []).flatMap { [UInt32($0 * 2), UInt32($0 * 2 + 1)] }
            for start in starts where Int(start) < turns.count {
                // Depth-first along turns that stay on the via ways in order.
                var chain: [UInt32] = []
                var current = start
                var viaIndex = 0
                var ok = false
                var steps = 0
                while steps < 64 {
                    steps += 1
                    let next = turns[Int(current)].first { target in
                        let w = wayID(target.0)
                        return (w == viaSet[viaIndex] || (viaIndex + 1 < viaSet.count && w == viaSet[viaIndex + 1]))
                            && target.0 != (current ^ 1) && !chain.contains(target.0)
                    }
                    guard let next else { break }
                    if wayID(next.0) != viaSet[viaIndex] { viaIndex += 1 }
                    chain.append(next.0)
                    current = next.0
                    // Reached the end of the chain when a turn onto the to-way exists from here.
                    if viaIndex == viaSet.count - 1, turns[Int(current)].contains(where: { wayID($0.0) == r.toWay }) {
                        ok = true
                        break
                    }
                }
                guard ok, !chain.isEmpty else { continue }
                // Copy the chain.
                var copies: [UInt32] = []
                for node in chain {
                    copies.append(UInt32(graph.origin.count))
                    graph.origin.append(graph.origin[Int(node)])
                    turns.append(turns[Int(node)])
                }
                for (i, copy) in copies.enumerated() {
                    if i + 1 < copies.count {
                        turns[Int(copy)] = turns[Int(copy)].map { $0.0 == chain[i + 1] ? (copies[i + 1], $0.1) : $0 }
                    } else {
                        turns[Int(copy)] = turns[Int(copy)].filter { r.isOnly ? wayID($0.0) == r.toWay : wayID($0.0) != r.toWay }
                    }
                }
                turns[Int(start)] = turns[Int(start)].map { $0.0 == chain[0] ? (copies[0], $0.1) : $0 }
            }
        }
    }
}

/// Metres between two E7 locations (equirectangular; exact enough at street scale).
@inline(__always) func metres(_ a: SIMD2<Int32>, _ b: SIMD2<Int32>) -> Double {
    metresE7(a.x, a.y, b.x, b.y)
}

@inline(__always) func metresE7(_ lat1: Int32, _ lon1: Int32, _ lat2: Int32, _ lon2: Int32) -> Double {
    let rad = Double.pi / 180 / 1e7
    let phi1 = Double(lat1) * rad, phi2 = Double(lat2) * rad
    let dphi = phi2 - phi1, dl = Double(lon2 &- lon1) * rad
    let h = sin(dphi / 2) * sin(dphi / 2) + cos(phi1) * cos(phi2) * sin(dl / 2) * sin(dl / 2)
    return 2 * 6_371_008.8 * asin(min(1, sqrt(h)))
}

/// Compass bearing from the first to the second location, degrees in 0..<360.
@inline(__always) func bearingE7(_ lat1: Int32, _ lon1: Int32, _ lat2: Int32, _ lon2: Int32) -> Double {
    let rad = Double.pi / 180 / 1e7
    let phi1 = Double(lat1) * rad, phi2 = Double(lat2) * rad
    let dl = Double(lon2 &- lon1) * rad
    let y = sin(dl) * cos(phi2)
    let x = cos(phi1) * sin(phi2) - sin(phi1) * cos(phi2) * cos(dl)
    var degrees = atan2(y, x) * 180 / .pi
    if degrees < 0 { degrees += 360 }
    return degrees
}
