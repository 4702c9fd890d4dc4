import Foundation
@_spi(OpenMapKitInternal) import MapGeometry

/// The contraction hierarchy's upward graphs as the queries read them: `forward[u]` holds arcs
/// u→v and `backward[u]` arcs v→u (stored as v), both only towards higher-ranked v and only where
/// that direction has a finite weight. `middle` is the node of the lower triangle a shortcut
/// stands for (UInt32.max for a turn of the base graph).
struct ContractedGraph {
    var forwardOffsets: [UInt32] = [], forwardArcs: [UInt32] = []     // (target, weight, middle) triples
    var backwardOffsets: [UInt32] = [], backwardArcs: [UInt32] = []
    /// Per graph node (weight, middle): the cheapest cycle from the node back to itself through
    /// lower-ranked nodes only (UInt32.max: none), which no upward search can find: a route that
    /// starts and ends on the same edge with the target behind the source, where that edge's node
    /// is the highest of the way round.
    var loops: [UInt32] = []
    /// Upward arcs (either direction) that are shortcuts rather than turns.
    var shortcuts = 0
}

/// The customizable contraction hierarchy's metric-independent part (Dibbelt, Strasser, Wagner:
/// "Customizable Contraction Hierarchies", 2014): graph node → rank, and the chordal supergraph
/// of the undirected turn graph under that order in rank space — `targets[offsets[r]..<offsets[r + 1]]`
/// are the higher ranks rank r is joined to, ascending. Contracting rank r joins every pair of
/// them, so no witness search is needed and any weights can be customized onto it later.
struct ChordalGraph {
    var rank: [UInt32]
    var offsets: [UInt32]
    var targets: [UInt32]

    var nodeCount: Int { rank.count }
    var arcCount: Int { targets.count }

    /// The index of arc (lower, higher) in `targets`, if the chordal graph has it.
    @inline(__always) func arc(_ lower: UInt32, _ higher: UInt32) -> Int? {
        var lo = Int(offsets[Int(lower)]), hi = Int(offsets[Int(lower) + 1])
        while lo < hi {
            let mid = (lo + hi) / 2
            if targets[mid] < higher { lo = mid + 1 } else { hi = mid }
        }
        return lo < Int(offsets[Int(lower) + 1]) && targets[lo] == higher ? lo : nil
    }

    /// Symbolic contraction: the chordal supergraph of the undirected graph (`offsets`/`targets`
    /// over graph nodes) under `rank`. Contracting the nodes in rank order, each node's upward
    /// neighbours become a clique; it suffices to hand all but the lowest of them to that lowest
    /// one (its parent in the elimination tree), whose own contraction passes them on in turn —
    /// linear in the size of the result.
    static func contract(rank: [UInt32], offsets: [UInt32], targets: [UInt32]) -> ChordalGraph {
        let n = rank.count
        var up = [[UInt32]](repeating: [], count: n)
        for u in 0..<n {
            let ru = rank[u]
            for k in Int(offsets[u])..<Int(offsets[u + 1]) {
                let rv = rank[Int(targets[k])]
                if rv > ru { up[Int(ru)].append(rv) }
            }
        }
        var chordOffsets: [UInt32] = [0]
        chordOffsets.reserveCapacity(n + 1)
        var chordTargets: [UInt32] = []
        for r in 0..<n {
            var list = up[r]
            up[r] = []
            list.sort()
            var write = 0
            for item in list where write == 0 || list[write - 1] != item {
                list[write] = item
                write += 1
            }
            list.removeLast(list.count - write)
            if let parent = list.first, list.count > 1 { up[Int(parent)] += list.dropFirst() }
            chordTargets += list
            chordOffsets.append(UInt32(chordTargets.count))
        }
        return ChordalGraph(rank: rank, offsets: chordOffsets, targets: chordTargets)
    }

    /// Whether every turn of the graph (`offsets`/`targets` over graph nodes) is an arc here, so
    /// a new metric on those turns can be customized onto this topology as it is.
    func covers(offsets: [UInt32], targets: [UInt32]) -> Bool {
        for u in 0..<rank.count {
            for k in Int(offsets[u])..<Int(offsets[u + 1]) {
                let a = rank[u], b = rank[Int(targets[k])]
                if a != b && arc(min(a, b), max(a, b)) == nil { return false }
            }
        }
        return true
    }
}

/// The customized weights of a ``ChordalGraph``'s arcs: `forward[i]` for lower → higher,
/// `backward[i]` for higher → lower (UInt32.max: no such path), and the rank of the lower
/// triangle's middle node each weight came from (UInt32.max: the base graph's turn).
struct Customization {
    var forward: [UInt32], backward: [UInt32]
    var forwardMiddle: [UInt32], backwardMiddle: [UInt32]
    /// Per rank: the cheapest cycle through lower ranks only, and its highest other node's rank
    /// (UInt32.max: a turn of the base graph from the node into itself).
    var loop: [UInt32], loopMiddle: [UInt32]

    /// Basic customization: every arc starts at its turn's weight (or ∞), then the nodes are taken
    /// in rank order and each lower triangle {x, u, v} (x below u below v) offers u→x→v and
    /// v→x→u. When x comes up, the arcs from x are final: all their own lower triangles have a
    /// middle ranked below x. A triangle replaces a weight only when strictly shorter, so a turn
    /// keeps its own arc when a detour ties, and every shortcut's weight is exactly the sum of
    /// its two halves (what unpacking relies on).
    static func basic(_ chordal: ChordalGraph, turnOffsets: [UInt32], turnTargets: [UInt32], turnWeights: [UInt32]) -> Customization {
        let m = chordal.arcCount
        let n = chordal.nodeCount
        var c = Customization(forward: [UInt32](repeating: .max, count: m), backward: [UInt32](repeating: .max, count: m),
                              forwardMiddle: [UInt32](repeating: .max, count: m), backwardMiddle: [UInt32](repeating: .max, count: m),
                              loop: [], loopMiddle: [])
        // Kept apart from `c` while its arc arrays are borrowed below.
        var loop = [UInt32](repeating: .max, count: n), loopMiddle = [UInt32](repeating: .max, count: n)
        let rank = chordal.rank
        for u in 0..<rank.count {
            for k in Int(turnOffsets[u])..<Int(turnOffsets[u + 1]) {
                let ru = rank[u], rv = rank[Int(turnTargets[k])], w = turnWeights[k]
                if ru == rv { loop[Int(ru)] = min(loop[Int(ru)], w) }
                guard ru != rv, let i = chordal.arc(min(ru, rv), max(ru, rv)) else { continue }
                if ru < rv { c.forward[i] = min(c.forward[i], w) } else { c.backward[i] = min(c.backward[i], w) }
            }
        }
        let offsets = chordal.offsets, targets = chordal.targets
        c.forward.withUnsafeMutableBufferPointer { forward in
        c.backward.withUnsafeMutableBufferPointer { backward in
        c.forwardMiddle.withUnsafeMutableBufferPointer { forwardMiddle in
        c.backwardMiddle.withUnsafeMutableBufferPointer { backwardMiddle in
            for x in 0..<rank.count {
                let start = Int(offsets[x]), end = Int(offsets[x + 1])
                for i in start..<end {
                    let u = Int(targets[i])
                    // u's list holds every later target of x (the clique), so one pointer walks it.
                    var k = Int(offsets[u])
                    let uEnd = Int(offsets[u + 1])
                    let toX = UInt64(backward[i]), fromX = UInt64(forward[i])   // u→x, x→u
                    // The way round u→x→u: x is the highest node of such a cycle below u.
                    if toX + fromX < UInt64(loop[u]) { loop[u] = UInt32(toX + fromX); loopMiddle[u] = UInt32(x) }
                    for j in (i + 1)..<end {
                        let v = targets[j]
                        while k < uEnd && targets[k] < v { k += 1 }
                        guard k < uEnd && targets[k] == v else { continue }   // only a damaged graph lacks it
                        let uv = toX + UInt64(forward[j]), vu = UInt64(backward[j]) + fromX
                        if uv < UInt64(forward[k]) { forward[k] = UInt32(uv); forwardMiddle[k] = UInt32(x) }
                        if vu < UInt64(backward[k]) { backward[k] = UInt32(vu); backwardMiddle[k] = UInt32(x) }
                    }
                }
            }
        }}}}
        c.loop = loop
        c.loopMiddle = loopMiddle
        return c
    }

    /// The upward graphs the queries search, over graph node ids: finite directions only.
    func upwardGraphs(_ chordal: ChordalGraph) -> ContractedGraph {
        let n = chordal.nodeCount
        var node = [UInt32](repeating: 0, count: n)   // rank → graph node
        for (v, r) in chordal.rank.enumerated() { node[Int(r)] = UInt32(v) }
        var result = ContractedGraph()
        result.forwardOffsets = [0]
        result.backwardOffsets = [0]
        result.forwardOffsets.reserveCapacity(n + 1)
        result.backwardOffsets.reserveCapacity(n + 1)
        for v in 0..<n {
            let r = Int(chordal.rank[v])
            for i in Int(chordal.offsets[r])..<Int(chordal.offsets[r + 1]) {
                let target = node[Int(chordal.targets[i])]
                if forward[i] != .max {
                    result.forwardArcs += [target, forward[i], forwardMiddle[i] == .max ? .max : node[Int(forwardMiddle[i])]]
                    if forwardMiddle[i] != .max { result.shortcuts += 1 }
                }
                if backward[i] != .max {
                    result.backwardArcs += [target, backward[i], backwardMiddle[i] == .max ? .max : node[Int(backwardMiddle[i])]]
                    if backwardMiddle[i] != .max { result.shortcuts += 1 }
                }
            }
            result.forwardOffsets.append(UInt32(result.forwardArcs.count / 3))
            result.backwardOffsets.append(UInt32(result.backwardArcs.count / 3))
            result.loops += [loop[r], loopMiddle[r] == .max ? .max : node[Int(loopMiddle[r])]]
        }
        return result
    }
}

/// One entry of a search's queue: a node (`value`) by its cost so far (`key`).
struct QueueEntry: Comparable {
    var key: UInt64
    var value: UInt32
    /// By key only: entries of equal cost leave in the heap's order, whatever their node.
    static func < (a: QueueEntry, b: QueueEntry) -> Bool { a.key < b.key }
    static func == (a: QueueEntry, b: QueueEntry) -> Bool { a.key == b.key }
}

/// The queue of every search here: MapGeometry's binary min-heap of (cost, node) entries.
typealias MinHeap = BinaryHeap<QueueEntry>

extension BinaryHeap where Element == QueueEntry {
    var minKey: UInt64? { min?.key }

    mutating func push(_ key: UInt64, _ value: UInt32) { push(QueueEntry(key: key, value: value)) }

    mutating func pop() -> (key: UInt64, value: UInt32)? { popMin().map { ($0.key, $0.value) } }
}

