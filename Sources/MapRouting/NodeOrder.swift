import Foundation
@_spi(OpenMapKitInternal) import MapGeometry

/// The customizable contraction hierarchy's node order: metric-independent, so it depends only on
/// where the graph nodes lie and how they connect, never on speeds or turn costs.
///
/// Nested dissection by geometric bisection: a cell of graph nodes is cut across its nodes'
/// projections on eight directions (22.5° apart; inertial flow tries four) at nine points between
/// 30% and 70%, each cut's arcs are covered greedily by a vertex separator,
/// the cut with the fewest separator nodes per node of its smaller side wins, the separator takes
/// the cell's highest ranks and both sides are ordered the same way below it. A cell that falls
/// apart into several components is ordered component by component with no separator at all.
/// Inertial flow proper (a max-flow between the projection's ends) finds smaller separators, but
/// road networks are near-planar and their graph nodes are spread evenly enough that the median
/// cut's boundary is already small; correctness never depends on the order, only query speed and
/// the number of shortcuts, and this needs no flow code, runs in O(n log² n) and is easy to make
/// deterministic (every sort breaks ties by node id, so the same input gives the same order).
enum NodeOrder {
    /// The turn graph's arcs as undirected neighbour lists (CSR), without self-loops or duplicates:
    /// the order and the symbolic contraction look only at which nodes touch, not which way.
    static func undirectedNeighbours(nodeCount n: Int, turnOffsets: [UInt32], turnTargets: [UInt32]) -> (offsets: [UInt32], targets: [UInt32]) {
        var counts = [UInt32](repeating: 0, count: n + 1)
        for u in 0..<n {
            for k in Int(turnOffsets[u])..<Int(turnOffsets[u + 1]) where Int(turnTargets[k]) != u {
                counts[u + 1] += 1
                counts[Int(turnTargets[k]) + 1] += 1
            }
        }
        for i in 0..<n { counts[i + 1] += counts[i] }
        var fill = counts
        var targets = [UInt32](repeating: 0, count: Int(counts[n]))
        for u in 0..<n {
            for k in Int(turnOffsets[u])..<Int(turnOffsets[u + 1]) where Int(turnTargets[k]) != u {
                let v = Int(turnTargets[k])
                targets[Int(fill[u])] = UInt32(v)
                fill[u] += 1
                targets[Int(fill[v])] = UInt32(u)
                fill[v] += 1
            }
        }
        // Sort and deduplicate each row in place, then close the gaps.
        var offsets: [UInt32] = [0]
        offsets.reserveCapacity(n + 1)
        var write = 0
        for u in 0..<n {
            let row = Int(counts[u])..<Int(counts[u + 1])
            targets[row].sort()
            var previous = UInt32.max
            for k in row where targets[k] != previous {
                previous = targets[k]
                targets[write] = previous
                write += 1
            }
            offsets.append(UInt32(write))
        }
        targets.removeLast(targets.count - write)
        return (offsets, targets)
    }

    /// Ranks (0 = contracted first) for `nodes` by nested dissection, written into `rank` as
    /// `base`, `base + 1`, …; nodes not in `nodes` are ignored as neighbours.
    static func dissect(_ nodes: [UInt32], x: [Double], y: [Double], offsets: [UInt32], targets: [UInt32],
                        base: UInt32, into rank: inout [UInt32]) {
        let n = x.count
        // Per-node stamps, so a cell's membership and a search's visits cost no clearing.
        var member = [UInt32](repeating: 0, count: n), memberStamp: UInt32 = 0
        var visited = [UInt32](repeating: 0, count: n), visitStamp: UInt32 = 0
        var side = [UInt8](repeating: 0, count: n)
        var stack: [(cell: [UInt32], lo: UInt32)] = [(nodes.sorted(), base)]
        // Eight directions, 22.5° apart (inertial flow's four and the ones between).
        let directions: [(Double, Double)] = (0..<8).map { (cos(Double($0) * .pi / 8), sin(Double($0) * .pi / 8)) }
        var keyed: [(Double, UInt32)] = []
        var candidates: [(Int, UInt32)] = []
        // The middle first, so of equal scores the balanced cut wins.
        let splitFractions = [0.5, 0.45, 0.55, 0.4, 0.6, 0.35, 0.65, 0.3, 0.7]
        while let (cell, lo) = stack.popLast() {
            // Two nodes or fewer: nothing to separate.
            if cell.count <= 2 {
                for (i, v) in cell.enumerated() { rank[Int(v)] = lo + UInt32(i) }
                continue
            }
            memberStamp += 1
            for v in cell { member[Int(v)] = memberStamp }
            // Components first: each is ordered on its own, one after the other.
            visitStamp += 1
            var components: [[UInt32]] = []
            for start in cell where visited[Int(start)] != visitStamp {
                visited[Int(start)] = visitStamp
                var component = [start]
                var head = 0
                while head < component.count {
                    let u = Int(component[head])
                    head += 1
                    for k in Int(offsets[u])..<Int(offsets[u + 1]) {
                        let v = Int(targets[k])
                        if member[v] == memberStamp && visited[v] != visitStamp {
                            visited[v] = visitStamp
                            component.append(UInt32(v))
                        }
                    }
                }
                components.append(component)
            }
            if components.count > 1 {
                var next = lo
                for component in components {
                    stack.append((component.sorted(), next))
                    next += UInt32(component.count)
                }
                continue
            }
            // One component: try each direction's cut at nine points and keep the separator with
            // the fewest nodes per node of the smaller side (a ratio cut: a lopsided split must
            // buy its imbalance with a smaller separator).
            var best: (score: Double, separator: [UInt32], a: [UInt32], b: [UInt32])? = nil
            for (dx, dy) in directions {
                keyed.removeAll(keepingCapacity: true)
                for v in cell { keyed.append((x[Int(v)] * dx + y[Int(v)] * dy, v)) }
                keyed.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
                for fraction in splitFractions {
                    let split = min(max(Int(Double(keyed.count) * fraction), 1), keyed.count - 1)
                    for (i, item) in keyed.enumerated() { side[Int(item.1)] = i < split ? 0 : 1 }
                    // A vertex cover of the cut arcs, greedily: nodes with the most cut arcs first,
                    // each taken while one of its cut arcs is still uncovered.
                    candidates.removeAll(keepingCapacity: true)
                    for (_, v) in keyed {
                        var cut = 0
                        for k in Int(offsets[Int(v)])..<Int(offsets[Int(v) + 1]) {
                            let u = Int(targets[k])
                            if member[u] == memberStamp && side[u] != side[Int(v)] { cut += 1 }
                        }
                        if cut > 0 { candidates.append((cut, v)) }
                    }
                    candidates.sort { $0.0 != $1.0 ? $0.0 > $1.0 : $0.1 < $1.1 }
                    visitStamp += 1
                    var separator: [UInt32] = []
                    for (_, v) in candidates {
                        for k in Int(offsets[Int(v)])..<Int(offsets[Int(v) + 1]) {
                            let u = Int(targets[k])
                            if member[u] == memberStamp && side[u] != side[Int(v)] && visited[u] != visitStamp {
                                visited[Int(v)] = visitStamp
                                separator.append(v)
                                break
                            }
                        }
                    }
                    let score = Double(separator.count) / Double(min(split, keyed.count - split))
                    if let best, best.score <= score { continue }
                    var a: [UInt32] = [], b: [UInt32] = []
                    for (i, item) in keyed.enumerated() where visited[Int(item.1)] != visitStamp {
                        if i < split { a.append(item.1) } else { b.append(item.1) }
                    }
                    best = (score, separator.sorted(), a, b)
                }
            }
            guard let (_, separator, a, b) = best else { continue }
            let top = lo + UInt32(a.count + b.count)
            for (i, v) in separator.enumerated() { rank[Int(v)] = top + UInt32(i) }
            stack.append((a.sorted(), lo))
            stack.append((b.sorted(), lo + UInt32(a.count)))
        }
    }

    /// A fresh order for the whole graph.
    static func fresh(x: [Double], y: [Double], offsets: [UInt32], targets: [UInt32]) -> [UInt32] {
        var rank = [UInt32](repeating: 0, count: x.count)
        dissect((0..<UInt32(x.count)).map { $0 }, x: x, y: y, offsets: offsets, targets: targets, base: 0, into: &rank)
        return rank
    }

    /// An order that keeps the previous build's for the nodes that persist (same key), so an
    /// update skips nested dissection. A new node goes right below its anchor: the lowest common
    /// ancestor, in the previous elimination tree, of the persisting nodes it touches (of its
    /// anchored new neighbours' anchors when it touches none), which is where the dissection
    /// would have put it: inside the cell when its neighbours lie in one cell, in the separator
    /// above both cells when it joins two (below the lower one it would give every node up that
    /// cell's side a shortcut across). Farther new nodes go first; new nodes that reach no
    /// persisting node form their own components and are dissected among themselves below
    /// everything. The order's quality only affects speed: any order gives exact routes.
    static func reused(keys: [UInt64], previous: [UInt64: UInt32], previousGraph: ChordalGraph, x: [Double], y: [Double],
                       offsets: [UInt32], targets: [UInt32]) -> (rank: [UInt32], persisting: Int) {
        let n = keys.count
        var old = [UInt32](repeating: .max, count: n)
        var persisting = 0
        for v in 0..<n {
            if let r = previous[keys[v]] { old[v] = r; persisting += 1 }
        }
        // The previous elimination tree: a rank's parent is its lowest upward neighbour. Ranks
        // of different trees (components then) have no common ancestor: UInt32.max, the top.
        func parent(_ r: UInt32) -> UInt32? {
            let k = Int(previousGraph.offsets[Int(r)])
            return k < Int(previousGraph.offsets[Int(r) + 1]) ? previousGraph.targets[k] : nil
        }
        func ancestor(_ a: UInt32, _ b: UInt32) -> UInt32 {
            guard a != .max, b != .max else { return .max }
            var a = a, b = b
            while a != b {
                if a < b { guard let p = parent(a) else { return .max }; a = p } else { guard let p = parent(b) else { return .max }; b = p }
            }
            return a
        }
        var anchor = [UInt32](repeating: .max, count: n), hops = [UInt32](repeating: .max, count: n)
        var layer: [Int] = []
        for v in 0..<n where old[v] == .max {
            var common: UInt32? = nil
            for k in Int(offsets[v])..<Int(offsets[v + 1]) where old[Int(targets[k])] != .max {
                let r = old[Int(targets[k])]
                common = common.map { ancestor($0, r) } ?? r
            }
            if let common { anchor[v] = common; hops[v] = 1; layer.append(v) }
        }
        var reached = [Bool](repeating: false, count: n)
        for v in layer { reached[v] = true }
        var hop: UInt32 = 1
        while !layer.isEmpty {
            hop += 1
            var next: [Int] = []
            for v in layer {
                for k in Int(offsets[v])..<Int(offsets[v + 1]) {
                    let u = Int(targets[k])
                    if old[u] == .max && !reached[u] { reached[u] = true; next.append(u) }
                }
            }
            next.sort()
            for u in next {
                var common: UInt32? = nil
                for k in Int(offsets[u])..<Int(offsets[u + 1]) where hops[Int(targets[k])] < hop {
                    let a = anchor[Int(targets[k])]
                    common = common.map { ancestor($0, a) } ?? a
                }
                anchor[u] = common ?? .max
                hops[u] = hop
            }
            layer = next
        }
        var rank = [UInt32](repeating: 0, count: n)
        let isolated = (0..<UInt32(n)).filter { old[Int($0)] == .max && !reached[Int($0)] }
        dissect(isolated, x: x, y: y, offsets: offsets, targets: targets, base: 0, into: &rank)
        // Everything else by (anchor or old rank, new before persisting, farther first, id).
        var rest: [(UInt64, UInt64)] = []
        rest.reserveCapacity(n - isolated.count)
        for v in 0..<n where old[v] != .max || reached[v] {
            if old[v] != .max {
                rest.append((UInt64(old[v]) << 1 | 1, UInt64(v)))
            } else {
                rest.append((UInt64(anchor[v]) << 1, UInt64(UInt32.max - hops[v]) << 32 | UInt64(v)))
            }
        }
        rest.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        for (i, item) in rest.enumerated() { rank[Int(item.1 & 0xFFFF_FFFF)] = UInt32(isolated.count + i) }
        return (rank, persisting)
    }
}
