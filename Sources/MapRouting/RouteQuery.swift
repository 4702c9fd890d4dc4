import Foundation
@_spi(OpenMapKitInternal) import MapGeometry

/// A found route: graph nodes (directed edges) in order, with the penalty of the turn into each
/// (0 for the first), and its cost in ms.
struct FoundPath {
    var nodes: [UInt32]
    var penalties: [UInt32]
    var cost: Int64
}

/// One query between two snapped points: the contraction hierarchy's bidirectional search, the
/// plain Dijkstra used when avoiding tolls or motorways, via-node alternatives, and the
/// translation of graph nodes into a ``RoutePath``.
///
/// Costs: the forward search starts at the source's directed edges with the time left to their
/// end; a node's distance is the time to reach the *end* of its edge. The backward search starts
/// at the target's edges with `shift − time after the target point`, so no key is negative; the
/// shift cancels out in every comparison.
struct RouteQuery {
    let g: GraphData
    let source: Snap
    let target: Snap
    /// Polled while searching; once it trips, every search stops and returns nothing.
    let interruption: Interruption
    /// (graph node, initial cost) where the route may start or end.
    let sources: [(UInt32, Int64)]
    let targets: [(UInt32, Int64)]
    let shift: Int64

    init(g: GraphData, source: Snap, target: Snap, interruption: Interruption = Interruption()) {
        self.g = g
        self.source = source
        self.target = target
        self.interruption = interruption
        var sources: [(UInt32, Int64)] = []
        let se = g.edge(source.edge)
        if se.forwardMs != .max { sources.append((UInt32(source.edge * 2), Int64((1 - source.fraction) * Double(se.forwardMs)))) }
        if se.backwardMs != .max { sources.append((UInt32(source.edge * 2 + 1), Int64(source.fraction * Double(se.backwardMs)))) }
        // A point exactly on a junction may leave by any of its roads: snapping picked one of
        // them, whose turn restrictions, U-turn rule and turn costs must not bind the start.
        if let j = Self.junction(at: source, g) {
            for k in Int(g.incidentOffsets[j])..<Int(g.incidentOffsets[j + 1]) {
                let code = Int(g.incident[k]), e = g.edge(code >> 1)
                let weight = code & 1 == 0 ? e.forwardMs : e.backwardMs
                let node = UInt32((code >> 1) * 2 + (code & 1))
                if weight != .max, !sources.contains(where: { $0.0 == node }) { sources.append((node, Int64(weight))) }
            }
        }
        let te = g.edge(target.edge)
        var after: [(UInt32, Int64)] = []
        let forwardAfter = Int64((1 - target.fraction) * Double(te.forwardMs))
        let backwardAfter = Int64(target.fraction * Double(te.backwardMs))
        // Copies made for via-way restrictions end at the target too.
        for node in [target.edge * 2, target.edge * 2 + 1] + Array(g.edgeCount * 2..<g.nodeCount) {
            let o = Int(g.origin[node])
            guard o >> 1 == target.edge else { continue }
            if o & 1 == 0, te.forwardMs != .max { after.append((UInt32(node), forwardAfter)) }
            if o & 1 == 1, te.backwardMs != .max { after.append((UInt32(node), backwardAfter)) }
        }
        // Likewise a destination on a junction may be reached by any of its roads.
        if let j = Self.junction(at: target, g) {
            for k in Int(g.incidentOffsets[j])..<Int(g.incidentOffsets[j + 1]) {
                let code = Int(g.incident[k]), e = g.edge(code >> 1)
                // Arriving: the direction of the edge that ends here.
                let weight = code & 1 == 1 ? e.forwardMs : e.backwardMs
                let node = UInt32((code >> 1) * 2 + (code & 1 == 1 ? 0 : 1))
                if weight != .max, !after.contains(where: { $0.0 == node }) { after.append((node, 0)) }
            }
        }
        let shift = (after.map(\.1).max() ?? 0)
        self.sources = sources
        self.targets = after.map { ($0.0, shift - $0.1) }
        self.shift = shift
    }

    /// The junction a snapped point lies on (within a few centimetres of its edge's end), if any.
    static func junction(at snap: Snap, _ g: GraphData) -> Int? {
        let e = g.edge(snap.edge)
        if snap.offset <= 0.05 { return e.from }
        if snap.offset >= e.length - 0.05 { return e.to }
        return nil
    }

    /// Whether meeting at `node` with both initial costs is a real route: on the same edge the
    /// target must lie ahead of the source in the direction of travel.
    func directMeetingAllowed(_ node: UInt32) -> Bool {
        let o = Int(g.origin[Int(node)])
        guard o >> 1 == source.edge, source.edge == target.edge else { return true }
        return o & 1 == 0 ? target.offset >= source.offset : target.offset <= source.offset
    }

    /// What a search knows of a reached node: its cost and the arc it was reached by (`parent`
    /// = UInt32.max for a start). One dictionary entry per node, so a relaxation hashes once.
    struct Label {
        var distance: Int64
        var parent: UInt32, middle: UInt32, weight: UInt32
        static let unreached = Label(distance: .max, parent: .max, middle: .max, weight: 0)
    }

    struct Search {
        var labels: [UInt32: Label]
        var heap = MinHeap()
        init() {
            // Upward search spaces hold a few hundred nodes; growing from empty rehashes ~8 times.
            labels = [:]
            labels.reserveCapacity(512)
        }
    }

    /// Runs both upward searches. With `slack` > 1 the searches continue until their keys pass
    /// `slack × best`, keeping larger search spaces.
    func searches(slack: Double = 1) -> (Search, Search, best: Int64, meeting: UInt32?) {
        var forward = Search(), backward = Search()
        for (node, cost) in sources where cost < forward.labels[node]?.distance ?? .max {
            forward.labels[node] = Label(distance: cost, parent: .max, middle: .max, weight: 0)
            forward.heap.push(UInt64(cost), node)
        }
        for (node, cost) in targets where cost < backward.labels[node]?.distance ?? .max {
            backward.labels[node] = Label(distance: cost, parent: .max, middle: .max, weight: 0)
            backward.heap.push(UInt64(cost), node)
        }
        var best = Int64.max
        var meeting: UInt32? = nil
        func consider(_ node: UInt32) {
            guard let f = forward.labels[node], let b = backward.labels[node], let total = meetingCost(node, f, b) else { return }
            if total < best { best = total; meeting = node }
        }
        func limit() -> Int64 { best == .max ? .max : Int64(Double(best) * slack) }
        while true {
            if interruption.poll() { return (forward, backward, .max, nil) }
            let fMin = forward.heap.minKey.map { Int64($0) } ?? .max
            let bMin = backward.heap.minKey.map { Int64($0) } ?? .max
            // Backward keys less the shift, and forward keys, are each a lower bound of any route
            // still to be found through them (the other side is at least −shift resp. 0).
            let fDone = fMin == .max || (limit() != .max && fMin - shift > limit())
            let bDone = bMin == .max || (limit() != .max && bMin - shift > limit())
            if fDone && bDone { break }
            let useForward = !fDone && (bDone || fMin <= bMin)
            // A node is pushed again only with a strictly lower cost, so an entry whose key is
            // its node's cost is that node's one settling.
            if useForward {
                let (key, node) = forward.heap.pop()!
                if Int64(key) != forward.labels[node]!.distance { continue }
                consider(node)
                relax(&forward, node, Int64(key), offsets: g.forwardOffsets, arcs: g.forwardArcs)
            } else {
                let (key, node) = backward.heap.pop()!
                if Int64(key) != backward.labels[node]!.distance { continue }
                consider(node)
                relax(&backward, node, Int64(key), offsets: g.backwardOffsets, arcs: g.backwardArcs)
            }
        }
        return (forward, backward, best, meeting)
    }

    private func relax(_ search: inout Search, _ node: UInt32, _ key: Int64, offsets: UnsafeBufferPointer<UInt32>, arcs: UnsafeBufferPointer<UInt32>) {
        for k in Int(offsets[Int(node)])..<Int(offsets[Int(node) + 1]) {
            let target = arcs[3 * k], weight = arcs[3 * k + 1]
            let d = key + Int64(weight)
            func improve(_ label: inout Label) -> Bool {
                guard d < label.distance else { return false }
                label = Label(distance: d, parent: node, middle: arcs[3 * k + 2], weight: weight)
                return true
            }
            if improve(&search.labels[target, default: .unreached]) { search.heap.push(UInt64(d), target) }
        }
    }

    /// The cost of the route meeting at `node` with labels `f` and `b`. Both still at their start
    /// costs means the source and target edge are the same one: when the target lies behind, the
    /// route must go round, and the way round whose highest node is this one is its loop (any
    /// other way round meets at its highest node).
    func meetingCost(_ node: UInt32, _ f: Label, _ b: Label) -> Int64? {
        if f.parent == .max, b.parent == .max, !directMeetingAllowed(node) {
            let loop = g.loops[2 * Int(node)]
            return loop == .max ? nil : f.distance + Int64(loop) + b.distance - shift
        }
        return f.distance + b.distance - shift
    }

    /// The best route, or nil when the points are not connected.
    func shortest() -> FoundPath? {
        // The bidirectional upward Dijkstra rather than the elimination-tree query: on Andorra and
        // Helsinki both took the same time within noise (the per-node label dictionary costs
        // more than the queue the tree query saves), and this one stops early on short routes.
        let (forward, backward, best, meeting) = searches()
        guard let meeting, best != .max else { return nil }
        return preferringSnappedEdges(path(through: meeting, forward, backward, cost: best))
    }

    /// A route that starts or ends on a junction may begin or finish on any of its roads at the
    /// same cost; of equal routes the one that starts on the source's own edge and ends on the
    /// target's is taken (as OSRM, whose ends always lie on the snapped edge), whatever order
    /// the hierarchy's searches happened to meet them in.
    func preferringSnappedEdges(_ found: FoundPath) -> FoundPath {
        var found = found
        @inline(__always) func edge(_ node: UInt32) -> Int { Int(g.origin[Int(node)]) >> 1 }
        func turn(_ from: UInt32, _ to: UInt32) -> UInt32? {
            var best: UInt32? = nil
            for k in Int(g.turnOffsets[Int(from)])..<Int(g.turnOffsets[Int(from) + 1]) where g.turnArcs[2 * k] == to {
                best = min(best ?? .max, g.turnArcs[2 * k + 1])
            }
            return best
        }
        func penalty(_ weight: UInt32, into node: UInt32) -> UInt32 {
            let full = g.weight(ofNode: Int(node))
            return weight > full ? weight - full : 0
        }
        // The end: the last node swapped for a parallel one on the target's edge (two ways sharing
        // the last stretch), or one more turn onto the target's edge at the junction.
        if let last = found.nodes.last, edge(last) != target.edge, let lastCost = targets.filter({ $0.0 == last }).map(\.1).min() {
            let n = found.nodes.count
            var done = false
            if n >= 2, let into = turn(found.nodes[n - 2], last) {
                for (node, cost) in targets where edge(node) == target.edge {
                    guard let w = turn(found.nodes[n - 2], node), Int64(w) + cost == Int64(into) + lastCost else { continue }
                    found.nodes[n - 1] = node
                    found.penalties[n - 1] = penalty(w, into: node)
                    done = true
                    break
                }
            }
            for (node, cost) in targets where !done && edge(node) == target.edge {
                guard let w = turn(last, node), Int64(w) + cost == lastCost else { continue }
                found.nodes.append(node)
                found.penalties.append(penalty(w, into: node))
                done = true
            }
        }
        // The start likewise: a parallel first node on the source's edge, or one turn from it.
        if let first = found.nodes.first, edge(first) != source.edge, let firstCost = sources.filter({ $0.0 == first }).map(\.1).min() {
            var done = false
            if found.nodes.count >= 2, let out = turn(first, found.nodes[1]) {
                for (node, cost) in sources where edge(node) == source.edge {
                    guard let w = turn(node, found.nodes[1]), cost + Int64(w) == firstCost + Int64(out) else { continue }
                    found.nodes[0] = node
                    found.penalties[1] = penalty(w, into: found.nodes[1])
                    done = true
                    break
                }
            }
            for (node, cost) in sources where !done && edge(node) == source.edge {
                guard let w = turn(node, first), cost + Int64(w) == firstCost else { continue }
                found.penalties[0] = penalty(w, into: first)
                found.nodes.insert(node, at: 0)
                found.penalties.insert(0, at: 0)
                done = true
            }
        }
        return found
    }

    func path(through meeting: UInt32, _ forward: Search, _ backward: Search, cost: Int64) -> FoundPath {
        // Up from the source to the meeting node, then down to the target, as (from, to, middle, weight) arcs.
        var up: [(UInt32, UInt32, UInt32, UInt32)] = []
        var node = meeting
        while let p = forward.labels[node], p.parent != .max {
            up.append((p.parent, node, p.middle, p.weight))
            node = p.parent
        }
        let first = node
        up.reverse()
        var down: [(UInt32, UInt32, UInt32, UInt32)] = []
        node = meeting
        while let p = backward.labels[node], p.parent != .max {
            down.append((node, p.parent, p.middle, p.weight))
            node = p.parent
        }
        var nodes: [UInt32] = [first]
        var penalties: [UInt32] = [0]
        // Met at a start node that both searches still hold at their start costs: the way round.
        if let f = forward.labels[meeting], let b = backward.labels[meeting], f.parent == .max, b.parent == .max,
           !directMeetingAllowed(meeting) {
            down.insert((meeting, meeting, g.loops[2 * Int(meeting) + 1], g.loops[2 * Int(meeting)]), at: 0)
        }
        for arc in up + down { unpack(arc, into: &nodes, &penalties) }
        return FoundPath(nodes: nodes, penalties: penalties, cost: cost)
    }

    /// Expands an arc (a shortcut or a turn) into the turns it stands for, appending their targets.
    private func unpack(_ arc: (UInt32, UInt32, UInt32, UInt32), into nodes: inout [UInt32], _ penalties: inout [UInt32]) {
        var stack = [arc]
        // A shortcut unpacks into at most every graph node; more means a damaged file's loop.
        var budget = 2 * g.nodeCount + 16
        while let (from, to, middle, weight) = stack.popLast() {
            budget -= 1
            if budget < 0 { return }
            if middle == .max {
                nodes.append(to)
                let full = g.weight(ofNode: Int(to))
                penalties.append(weight > full ? weight - full : 0)
                continue
            }
            // from→middle is in middle's backward list, middle→to in its forward list.
            var first: (UInt32, UInt32, UInt32, UInt32)? = nil
            for k in Int(g.backwardOffsets[Int(middle)])..<Int(g.backwardOffsets[Int(middle) + 1]) where g.backwardArcs[3 * k] == from {
                let w = g.backwardArcs[3 * k + 1]
                if first == nil || w < first!.3 { first = (from, middle, g.backwardArcs[3 * k + 2], w) }
            }
            var second: (UInt32, UInt32, UInt32, UInt32)? = nil
            for k in Int(g.forwardOffsets[Int(middle)])..<Int(g.forwardOffsets[Int(middle) + 1]) where g.forwardArcs[3 * k] == to {
                let w = g.forwardArcs[3 * k + 1]
                if second == nil || w < second!.3 { second = (middle, to, g.forwardArcs[3 * k + 2], w) }
            }
            guard let first, let second else { continue }   // validated files always have both
            stack.append(second)
            stack.append(first)
        }
    }

    // MARK: - Avoiding tolls and motorways

    func uses(_ path: FoundPath, flags: UInt32) -> Bool {
        path.nodes.contains { g.flags(ofEdge: Int(g.origin[Int($0)]) >> 1) & flags != 0 }
    }

    /// Dijkstra over the uncontracted turn graph, never entering edges with `flags` (the start and
    /// end edges excepted). Costs a full search of the reachable graph up to the route's cost: a
    /// few ms on a small country, far slower than the hierarchy on a large one.
    func dijkstra(avoiding flags: UInt32, penalized: Set<Int> = [], factor: Double = 1) -> FoundPath? {
        var distance: [UInt32: Int64] = [:]
        var parent: [UInt32: (UInt32, UInt32)] = [:]
        var heap = MinHeap()
        for (node, cost) in sources {
            distance[node] = cost
            heap.push(UInt64(cost), node)
        }
        let targetCost = Dictionary(targets, uniquingKeysWith: min)
        var best = Int64.max, meeting: UInt32? = nil
        while let (key, node) = heap.pop() {
            if interruption.poll() { return nil }
            let d = Int64(key)
            if d > distance[node]! { continue }
            // A node's key is the cost to its edge's end; the target may lie up to `shift` before it.
            if d - shift >= best { break }
            if let t = targetCost[node], !(parent[node] == nil && !directMeetingAllowed(node)) {
                let total = d + t - shift
                if total < best { best = total; meeting = node }
            }
            for k in Int(g.turnOffsets[Int(node)])..<Int(g.turnOffsets[Int(node) + 1]) {
                let next = g.turnArcs[2 * k]
                let edge = Int(g.origin[Int(next)]) >> 1
                if g.flags(ofEdge: edge) & flags != 0 && edge != target.edge { continue }
                let weight = g.turnArcs[2 * k + 1]
                let nd = d + (penalized.contains(edge) ? Int64(Double(weight) * factor) : Int64(weight))
                if nd < distance[next] ?? .max {
                    distance[next] = nd
                    parent[next] = (node, g.turnArcs[2 * k + 1])
                    heap.push(UInt64(nd), next)
                }
            }
        }
        guard var node = meeting else { return nil }
        var nodes = [node], penalties: [UInt32] = []
        while let (p, w) = parent[node] {
            let full = g.weight(ofNode: Int(node))
            penalties.append(w > full ? w - full : 0)
            nodes.append(p)
            node = p
        }
        penalties.append(0)
        return FoundPath(nodes: nodes.reversed(), penalties: penalties.reversed(), cost: best)
    }

    // MARK: - Alternatives

    /// Alternatives by the penalty method: Dijkstra over the turn graph again with the edges of
    /// the routes found so far made twice as expensive. A route is kept when at most 40% slower
    /// than the best, visiting no edge twice, and overlapping each route already kept by at most
    /// 75% of the shorter one's length. (Via-node alternatives over the hierarchy's search
    /// spaces were tried first; they miss detours whose nodes are contracted early.)
    func alternatives(best: FoundPath, count: Int) -> [FoundPath] {
        func lengths(_ path: FoundPath) -> [Int: Double] {
            var result: [Int: Double] = [:]
            for node in path.nodes {
                let e = Int(g.origin[Int(node)]) >> 1
                result[e] = g.edge(e).length
            }
            return result
        }
        let bestTime = totals(best).travelTime
        var acceptedEdges = [lengths(best)]
        var penalized = Set(acceptedEdges[0].keys)
        var results: [FoundPath] = []
        for _ in 0..<(count * 3) where results.count < count && !interruption.tripped {
            guard let candidate = dijkstra(avoiding: 0, penalized: penalized, factor: 2) else { break }
            let edges = lengths(candidate)
            penalized.formUnion(edges.keys)
            guard Set(candidate.nodes.map { Int(g.origin[Int($0)]) >> 1 }).count == candidate.nodes.count,
                  totals(candidate).travelTime <= bestTime * 1.4 else { continue }
            let own = edges.values.reduce(0, +)
            var distinct = own > 0
            for other in acceptedEdges where distinct {
                let shared = edges.reduce(0.0) { $0 + (other[$1.key] != nil ? $1.value : 0) }
                if shared > 0.75 * min(own, other.values.reduce(0, +)) { distinct = false }
            }
            guard distinct else { continue }
            acceptedEdges.append(edges)
            results.append(candidate)
        }
        return results
    }
}

/// Lets a caller stop a running query: ``poll()`` is cheap enough for every step of a search and
/// asks `isCancelled` only every 256th time.
final class Interruption {
    private let isCancelled: () -> Bool
    private var count: UInt32 = 0
    private(set) var tripped = false

    init(_ isCancelled: @escaping () -> Bool = { false }) { self.isCancelled = isCancelled }

    @inline(__always) func poll() -> Bool {
        count &+= 1
        if count & 255 == 1 && !tripped && isCancelled() { tripped = true }
        return tripped
    }
}
