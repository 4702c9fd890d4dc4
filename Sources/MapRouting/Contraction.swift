import Foundation
import MapGeometry

/// The contraction hierarchy's upward graphs: `forward[u]` holds arcs u→v and `backward[u]` arcs
/// v→u (stored as v), both only towards higher-ranked v. `middle` is the contracted node a
/// shortcut bypasses (UInt32.max for a turn of the base graph).
struct ContractedGraph {
    var forwardOffsets: [UInt32] = [], forwardArcs: [UInt32] = []     // (target, weight, middle) triples
    var backwardOffsets: [UInt32] = [], backwardArcs: [UInt32] = []
    var shortcuts = 0
}

/// One entry of a search's queue: a node (`value`) by its cost so far (`key`).
struct QueueEntry: Comparable {
    var key: UInt64
    var value: UInt32
    /// By key only: entries of equal cost leave in the heap's order, whatever their node.
    static func < (a: QueueEntry, b: QueueEntry) -> Bool { a.key < b.key }
    static func == (a: QueueEntry, b: QueueEntry) -> Bool { a.key == b.key }
}

/// The queue of every search here: MapGeometry's heap of (cost, node) entries.
typealias MinHeap = BinaryHeap<QueueEntry>

extension BinaryHeap where Element == QueueEntry {
    var minKey: UInt64? { min?.key }
    mutating func push(_ key: UInt64, _ value: UInt32) { push(QueueEntry(key: key, value: value)) }
    mutating func pop() -> (key: UInt64, value: UInt32)? { popMin().map { ($0.key, $0.value) } }
}

extension RoadGraphBuilder {
    struct Arc { var other: UInt32; var weight: UInt32; var middle: UInt32 }

    /// Contracts the turn graph: nodes in order of edge difference plus contracted neighbours
    /// (lazily updated), with witness searches bounded by `witnessSettleLimit` settled nodes.
    func contract(_ graph: inout Graph, progress: (Double) -> Void) -> ContractedGraph {
        let n = graph.nodeCount
        var outArcs = [[Arc]](repeating: [], count: n)
        var inArcs = [[Arc]](repeating: [], count: n)
        for u in 0..<n {
            for k in Int(graph.turnOffsets[u])..<Int(graph.turnOffsets[u + 1]) {
                let v = Int(graph.turnTargets[k]), w = graph.turnWeights[k]
                guard v != u else { continue }
                if let i = outArcs[u].firstIndex(where: { $0.other == UInt32(v) }) {
                    if outArcs[u][i].weight <= w { continue }
                    outArcs[u][i].weight = w
                    let j = inArcs[v].firstIndex { $0.other == UInt32(u) }!
                    inArcs[v][j].weight = w
                    continue
                }
                outArcs[u].append(Arc(other: UInt32(v), weight: w, middle: .max))
                inArcs[v].append(Arc(other: UInt32(u), weight: w, middle: .max))
            }
        }
        var contracted = [Bool](repeating: false, count: n)
        var neighbourCount = [Int32](repeating: 0, count: n)
        var result = ContractedGraph()
        var forward = [[Arc]](repeating: [], count: n)
        var backward = [[Arc]](repeating: [], count: n)

        // Witness search state, reused.
        var distance = [UInt32](repeating: .max, count: n)
        var touched: [Int] = []
        var heap = MinHeap()
        let settleLimit = witnessSettleLimit

        /// Shortest distances from `source` without passing `avoid`, up to `bound`.
        func witness(from source: Int, avoid: Int, bound: UInt32) {
            for t in touched { distance[t] = .max }
            touched.removeAll(keepingCapacity: true)
            heap.removeAll()
            distance[source] = 0
            touched.append(source)
            heap.push(0, UInt32(source))
            var settled = 0
            while let (key, value) = heap.pop() {
                let u = Int(value)
                if UInt32(key) > distance[u] { continue }
                if UInt32(key) > bound { break }
                settled += 1
                if settled > settleLimit { break }
                for arc in outArcs[u] where Int(arc.other) != avoid && !contracted[Int(arc.other)] {
                    let d = UInt32(key) &+ arc.weight
                    let v = Int(arc.other)
                    if d < distance[v] {
                        if distance[v] == .max { touched.append(v) }
                        distance[v] = d
                        heap.push(UInt64(d), UInt32(v))
                    }
                }
            }
        }

        /// The shortcuts contracting `v` needs now.
        func shortcuts(of v: Int, into list: inout [(UInt32, UInt32, UInt32)]) {
            list.removeAll(keepingCapacity: true)
            let outs = outArcs[v]
            guard !outs.isEmpty else { return }
            let maxOut = outs.map(\.weight).max() ?? 0
            for inArc in inArcs[v] {
                let u = Int(inArc.other)
                witness(from: u, avoid: v, bound: inArc.weight &+ maxOut)
                for outArc in outs where outArc.other != inArc.other {
                    let via = inArc.weight &+ outArc.weight
                    if distance[Int(outArc.other)] <= via { continue }
                    list.append((inArc.other, outArc.other, via))
                }
            }
        }

        var scratch: [(UInt32, UInt32, UInt32)] = []
        func priority(_ v: Int) -> Int64 {
            shortcuts(of: v, into: &scratch)
            let edgeDifference = scratch.count - outArcs[v].count - inArcs[v].count
            return Int64(edgeDifference) * 2 + Int64(neighbourCount[v])
        }
        func key(_ priority: Int64) -> UInt64 { UInt64(bitPattern: priority &+ (1 << 40)) }

        var queue = MinHeap()
        for v in 0..<n { queue.push(key(priority(v)), UInt32(v)) }
        var done = 0
        var lastReported = 0
        var adds: [(UInt32, UInt32, UInt32)] = []
        while let (oldKey, value) = queue.pop() {
            let v = Int(value)
            if contracted[v] { continue }
            let current = key(priority(v))
            if current > oldKey, let next = queue.minKey, current > next {
                queue.push(current, value)
                continue
            }
            shortcuts(of: v, into: &adds)
            contracted[v] = true
            done += 1
            if done - lastReported > max(n / 100, 1) {
                lastReported = done
                progress(Double(done) / Double(max(n, 1)))
            }
            forward[v] = outArcs[v]
            backward[v] = inArcs[v]
            // Drop v from its neighbours' lists.
            var neighbours = Set<UInt32>()
            for arc in outArcs[v] {
                inArcs[Int(arc.other)].removeAll { $0.other == value }
                neighbours.insert(arc.other)
            }
            for arc in inArcs[v] {
                outArcs[Int(arc.other)].removeAll { $0.other == value }
                neighbours.insert(arc.other)
            }
            outArcs[v] = []
            inArcs[v] = []
            for (u, x, w) in adds {
                if let i = outArcs[Int(u)].firstIndex(where: { $0.other == x }) {
                    guard w < outArcs[Int(u)][i].weight else { continue }
                    outArcs[Int(u)][i] = Arc(other: x, weight: w, middle: value)
                    let j = inArcs[Int(x)].firstIndex { $0.other == u }!
                    inArcs[Int(x)][j] = Arc(other: u, weight: w, middle: value)
                } else {
                    outArcs[Int(u)].append(Arc(other: x, weight: w, middle: value))
                    inArcs[Int(x)].append(Arc(other: u, weight: w, middle: value))
                    result.shortcuts += 1
                }
            }
            for u in neighbours { neighbourCount[Int(u)] += 1 }
        }

        func flatten(_ lists: [[Arc]]) -> ([UInt32], [UInt32]) {
            var offsets: [UInt32] = [0]
            var arcs: [UInt32] = []
            offsets.reserveCapacity(lists.count + 1)
            for list in lists {
                for arc in list { arcs += [arc.other, arc.weight, arc.middle] }
                offsets.append(UInt32(arcs.count / 3))
            }
            return (offsets, arcs)
        }
        (result.forwardOffsets, result.forwardArcs) = flatten(forward)
        (result.backwardOffsets, result.backwardArcs) = flatten(backward)
        return result
    }
}
