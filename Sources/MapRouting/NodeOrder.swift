import Foundation
@_spi(OpenMapKitInternal) import MapGeometry

/// The customizable contraction hierarchy's node order: metric-independent, so it depends only on
/// where the graph nodes lie and how they connect, never on speeds or turn costs.
///
/// Nested dissection by geometric bisection: a cell of graph nodes is split at the median of its
/// nodes' projections on four directions (north, east and the two diagonals, as inertial flow
/// tries), the direction whose cut leaves the smallest vertex separator wins, the separator takes
/// the cell's highest ranks and both halves are ordered the same way below it. A cell that falls
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
        let directions: [(Double, Double)] = [(1, 0), (0, 1), (0.7071, 0.7071), (0.7071, -0.7071)]
        var keyed: [(Double, UInt32)] = []
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
            // One component: try the four cuts and keep the smallest separator.
            var best: (separator: [UInt32], a: [UInt32], b: [UInt32])? = nil
            for (dx, dy) in directions {
                keyed.removeAll(keepingCapacity: true)
                for v in cell { keyed.append((x[Int(v)] * dx + y[Int(v)] * dy, v)) }
                keyed.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
                let half = keyed.count / 2
                for (i, item) in keyed.enumerated() { side[Int(item.1)] = i < half ? 0 : 1 }
                var boundary: [[UInt32]] = [[], []]
                for (_, v) in keyed {
                    let s = side[Int(v)]
                    for k in Int(offsets[Int(v)])..<Int(offsets[Int(v) + 1]) {
                        let u = Int(targets[k])
                        if member[u] == memberStamp && side[u] != s {
                            boundary[Int(s)].append(v)
                            break
                        }
                    }
                }
                // The smaller boundary separates (every cut arc has an end in it).
                let s = boundary[0].count <= boundary[1].count ? 0 : 1
                if let best, best.separator.count <= boundary[s].count { continue }
                visitStamp += 1
                for v in boundary[s] { visited[Int(v)] = visitStamp }
                var a: [UInt32] = [], b: [UInt32] = []
                for (i, item) in keyed.enumerated() where visited[Int(item.1)] != visitStamp {
                    if i < half { a.append(item.1) } else { b.append(item.1) }
                }
                best = (boundary[s].sorted(), a, b)
            }
            guard let (separator, a, b) = best else { continue }
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
    /// update skips nested dissection. New nodes go right below their anchor: the lowest-ranked
    /// persisting node they reach through new nodes only (a new road is contracted just before the
    /// old road it joins), farther ones first; new nodes that reach no persisting node form their
    /// own components and are dissected among themselves below everything. The order's quality
    /// only affects speed: any order gives exact routes.
    static func reused(keys: [UInt64], previous: [UInt64: UInt32], x: [Double], y: [Double],
                       offsets: [UInt32], targets: [UInt32]) -> (rank: [UInt32], persisting: Int) {
        let n = keys.count
        var old = [UInt32](repeating: .max, count: n)
        var persisting = 0
        for v in 0..<n {
            if let r = previous[keys[v]] { old[v] = r; persisting += 1 }
        }
        // Anchors by a Dijkstra over (anchor rank, hops), lexicographic, from the persisting nodes.
        var anchor = [UInt32](repeating: .max, count: n), hops = [UInt32](repeating: .max, count: n)
        var heap = MinHeap()
        for v in 0..<n where old[v] == .max {
            var lowest = UInt32.max
            for k in Int(offsets[v])..<Int(offsets[v + 1]) where old[Int(targets[k])] != .max { lowest = min(lowest, old[Int(targets[k])]) }
            if lowest != .max { heap.push(UInt64(lowest) << 32 | 1, UInt32(v)) }
        }
        while let (key, value) = heap.pop() {
            let v = Int(value)
            guard anchor[v] == .max else { continue }
            anchor[v] = UInt32(key >> 32)
            hops[v] = UInt32(truncatingIfNeeded: key)
            for k in Int(offsets[v])..<Int(offsets[v + 1]) {
                let u = Int(targets[k])
                if old[u] == .max && anchor[u] == .max { heap.push(key + 1, UInt32(u)) }
            }
        }
        var rank = [UInt32](repeating: 0, count: n)
        let isolated = (0..<UInt32(n)).filter { old[Int($0)] == .max && anchor[Int($0)] == .max }
        dissect(isolated, x: x, y: y, offsets: offsets, targets: targets, base: 0, into: &rank)
        // Everything else by (anchor or old rank, new before persisting, farther first, id).
        var rest: [(UInt64, UInt64)] = []
        rest.reserveCapacity(n - isolated.count)
        for v in 0..<n where old[v] != .max || anchor[v] != .max {
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
