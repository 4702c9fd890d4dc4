import Foundation
import MapGeometry

/// Builds one mode's graph file from a ``RoadNetwork``.
///
/// The graph is *edge-based*: its nodes are directed road edges (a way's stretch between two
/// junctions, one per allowed direction) and its arcs are the turns between them. Turn
/// restrictions (via a node: a forbidden arc; via ways: the via stretch is duplicated so the
/// forbidden continuation is missing only on the copy entered from the restricted way), barriers
/// and U-turns are then plain graph structure, which the contraction hierarchy keeps exact.
///
/// The hierarchy is a customizable one (CCH): a metric-independent node order by nested
/// dissection (``NodeOrder``), the chordal supergraph of the turn graph under it (symbolic
/// contraction, no witness searches) and its weights computed from the turns' (customization).
/// Every graph node carries a key that names it across builds (its way, the OSM nodes at the
/// ends of its stretch and its direction; a via-way copy adds its restriction), and the file keeps
/// the keys, the order and the chordal graph, so ``build(_:to:reusingOrderFrom:progress:)`` can
/// keep the previous file's order for the nodes that persist and skip the dissection, and, when
/// the turns still fit the previous chordal graph (only weights changed), the symbolic
/// contraction too.
public struct RoadGraphBuilder {
    public let mode: TravelMode
    /// Side of the snapping grid's cells in degrees (0.0001...10); smaller cells mean fewer
    /// segments to measure per snap and more cells to look up.
    public var snapCellDegrees = 0.0025

    public init(mode: TravelMode) { self.mode = mode }

    /// What was built, for the import report and the benchmarks.
    public struct Summary: Sendable {
        public var junctions = 0, edges = 0, graphNodes = 0, arcs = 0, shortcuts = 0, bytes = 0
        /// Arcs of the chordal graph (undirected, each with a forward and a backward weight).
        public var chordalArcs = 0
        /// Graph nodes whose rank came from the previous file, and those placed anew.
        public var persistingNodes = 0, newNodes = 0
        /// Whether the previous file's chordal graph was reused as it was (only weights changed).
        public var reusedContraction = false
        /// The whole build, and its phases: the node order (nested dissection or the previous
        /// file's order), the symbolic contraction, the customization.
        public var seconds = 0.0, orderSeconds = 0.0, contractionSeconds = 0.0, customizationSeconds = 0.0
    }

    /// Builds the graph and writes it to `url` (written aside and renamed into place), with a
    /// fresh node order.
    @discardableResult
    public func build(_ network: RoadNetwork, to url: URL, progress: (Double) -> Void = { _ in }) throws -> Summary {
        try build(network, to: url, reusingOrderFrom: nil, progress: progress)
    }

    /// Builds the graph and writes it to `url`, keeping the node order of `previous` (this mode's
    /// graph file from an earlier build, which may be `url` itself) for every graph node that
    /// persists, so an update after an OSM change file skips the nested dissection; when every
    /// node persists and every turn is an arc of the previous chordal graph (speeds, turn costs or
    /// restrictions changed, no road added), only the customization runs. The order changes only
    /// the build's and the queries' speed, never a route. A missing `previous`, or one of an older
    /// graph format, means a fresh order; one of another travel mode is refused.
    @discardableResult
    public func build(_ network: RoadNetwork, to url: URL, reusingOrderFrom previous: URL?,
                      progress: (Double) -> Void = { _ in }) throws -> Summary {
        let started = ContinuousClock.now
        var graph = compress(network)
        progress(0.1)
        buildTurns(network, &graph)
        progress(0.2)
        var summary = Summary()
        let ch = try hierarchy(graph, reusingOrderFrom: previous, summary: &summary)
        progress(0.9)
        let grid = SpatialGridBuilder.build(graph, cellSize: min(10, max(0.0001, snapCellDegrees)))
        let data = GraphFileWriter.encode(mode: mode, graph: graph, ch: ch.upward, chordal: ch.chordal, grid: grid)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).tmp-\(ProcessInfo.processInfo.processIdentifier)")
        try data.write(to: temporary)
        if rename(temporary.path, url.path) != 0 {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw RoutingError.corrupt("cannot move \(temporary.path) into place: \(reason)")
        }
        progress(1)
        summary.junctions = graph.junctionCount
        summary.edges = graph.edges.count
        summary.graphNodes = graph.nodeCount
        summary.arcs = graph.turnTargets.count
        summary.shortcuts = ch.upward.shortcuts
        summary.chordalArcs = ch.chordal.arcCount
        summary.bytes = data.count
        summary.seconds = seconds(ContinuousClock.now - started)
        return summary
    }

    /// Order, symbolic contraction and customization, timed into `summary`.
    func hierarchy(_ graph: Graph, reusingOrderFrom previous: URL?,
                   summary: inout Summary) throws -> (chordal: ChordalGraph, upward: ContractedGraph) {
        var clock = ContinuousClock.now
        func lap() -> Double {
            let now = ContinuousClock.now
            defer { clock = now }
            return seconds(now - clock)
        }
        let n = graph.nodeCount
        let (offsets, targets) = NodeOrder.undirectedNeighbours(nodeCount: n, turnOffsets: graph.turnOffsets, turnTargets: graph.turnTargets)
        let (x, y) = graph.nodePositions()
        var chordal: ChordalGraph? = nil
        var rank: [UInt32]
        if let old = try Self.previousOrder(previous, mode: mode) {
            let reused = NodeOrder.reused(keys: graph.nodeKeys, previous: old.ranks, previousGraph: old.chordal, x: x, y: y, offsets: offsets, targets: targets)
            rank = reused.rank
            summary.persistingNodes = reused.persisting
            summary.newNodes = n - reused.persisting
            // Same nodes, and ranks are then the previous ones: the old chordal graph fits if it has every turn.
            if reused.persisting == n, n == old.chordal.nodeCount, rank == old.chordal.rank,
               old.chordal.covers(offsets: graph.turnOffsets, targets: graph.turnTargets) {
                chordal = old.chordal
                summary.reusedContraction = true
            }
        } else {
            rank = NodeOrder.fresh(x: x, y: y, offsets: offsets, targets: targets)
            summary.newNodes = n
        }
        summary.orderSeconds = lap()
        let contracted = chordal ?? ChordalGraph.contract(rank: rank, offsets: offsets, targets: targets)
        summary.contractionSeconds = lap()
        let customized = Customization.basic(contracted, turnOffsets: graph.turnOffsets, turnTargets: graph.turnTargets,
                                             turnWeights: graph.turnWeights)
        let upward = customized.upwardGraphs(contracted)
        summary.customizationSeconds = lap()
        return (contracted, upward)
    }

    /// The previous file's node keys → ranks and its chordal graph; nil when there is no usable
    /// previous file (none given, missing, or of an older format: a fresh order is as good, only slower).
    static func previousOrder(_ url: URL?, mode: TravelMode) throws -> (ranks: [UInt64: UInt32], chordal: ChordalGraph)? {
        guard let url else { return nil }
        let g: GraphData
        do {
            g = try GraphData(file: try MappedFile(url: url), path: url.path)
        } catch {
            switch error {
            case .missingGraph, .incompatibleVersion: return nil
            default: throw error
            }
        }
        guard g.mode == mode else {
            throw RoutingError.invalidInput("\(url.path) is the \(g.mode.rawValue) graph; its order cannot serve the \(mode.rawValue) graph")
        }
        var ranks: [UInt64: UInt32] = [:]
        ranks.reserveCapacity(g.nodeCount)
        for v in 0..<g.nodeCount { ranks[g.nodeKeys[v]] = g.nodeRanks[v] }
        return (ranks, ChordalGraph(rank: Array(g.nodeRanks), offsets: Array(g.chordOffsets), targets: Array(g.chordTargets)))
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
        /// Graph node → its key across builds (see `NodeKey`), unique within the graph.
        var nodeKeys: [UInt64] = []
        var usedKeys = Set<UInt64>()

        /// `key`, or (for a repeated stretch: a way that passes the same two junctions twice, or a
        /// hash collision) the next of its rehashes not yet used, so keys stay unique and the
        /// same input always gives the same keys.
        mutating func addKey(_ key: UInt64) {
            var candidate = key
            while !usedKeys.insert(candidate).inserted { candidate = NodeKey.mix(candidate, 0x5EED) }
            nodeKeys.append(candidate)
        }

        /// Where each graph node lies for the nested dissection: the middle point of its edge's
        /// geometry, east scaled by the cosine of the graph's mean latitude so both axes are metres-like.
        func nodePositions() -> (x: [Double], y: [Double]) {
            var latitudes = 0.0
            for j in 0..<junctionCount { latitudes += Double(junctionCoordinates[2 * j]) }
            let scale = cos(latitudes / Double(max(junctionCount, 1)) / 1e7 * .pi / 180)
            var x = [Double](repeating: 0, count: nodeCount), y = [Double](repeating: 0, count: nodeCount)
            for v in 0..<nodeCount {
                let edge = edges[Int(origin[v] >> 1)]
                let p = Int(edge.geometryStart + edge.geometryCount / 2)
                y[v] = Double(geometry[2 * p]) / 1e7
                x[v] = Double(geometry[2 * p + 1]) / 1e7 * scale
            }
            return (x, y)
        }

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
                // Both directions, named by the way and the OSM nodes the stretch runs between.
                graph.addKey(NodeKey.edge(way: way.id, from: ids[start], to: ids[i], backward: false))
                graph.addKey(NodeKey.edge(way: way.id, from: ids[start], to: ids[i], backward: true))
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
                for (position, node) in chain.enumerated() {
                    copies.append(UInt32(graph.origin.count))
                    graph.origin.append(graph.origin[Int(node)])
                    turns.append(turns[Int(node)])
                    // A copy is named by what it copies, the restriction and where the chain was entered.
                    graph.addKey(NodeKey.copy(of: graph.nodeKeys[Int(node)], restriction: r, entry: graph.nodeKeys[Int(start)], position: position))
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

/// Graph node keys: 64-bit hashes of what names a graph node across builds. Collisions within one
/// graph are resolved by `Graph.addKey`; one across builds only makes a node take a stale rank,
/// which costs speed, never correctness.
enum NodeKey {
    /// SplitMix64's finalizer over the running hash and the next value.
    @inline(__always) static func mix(_ h: UInt64, _ value: UInt64) -> UInt64 {
        var z = (h ^ value) &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    static func edge(way: Int64, from: Int64, to: Int64, backward: Bool) -> UInt64 {
        var h = mix(0xED6E, UInt64(bitPattern: way))
        h = mix(h, UInt64(bitPattern: from))
        h = mix(h, UInt64(bitPattern: to))
        return mix(h, backward ? 1 : 0)
    }

    static func copy(of original: UInt64, restriction r: RoadNetwork.Restriction, entry: UInt64, position: Int) -> UInt64 {
        var h = mix(0xC0B1, original)
        h = mix(h, UInt64(bitPattern: r.fromWay))
        for way in r.viaWays { h = mix(h, UInt64(bitPattern: way)) }
        h = mix(h, UInt64(bitPattern: r.toWay))
        h = mix(h, r.isOnly ? 1 : 0)
        h = mix(h, entry)
        return mix(h, UInt64(position))
    }
}

@inline(__always) func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}
