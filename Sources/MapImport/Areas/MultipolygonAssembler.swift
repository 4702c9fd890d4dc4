import MapFormats

/// Builds areas from multipolygon and boundary relations and from closed ways, the way osmium and
/// osm2pgsql do (see Multipolygon.swift for the model), and reports what is wrong with broken ones.
///
/// Cost is O(n log n) in the number of segments for ordinary data: endpoints are matched through hash maps
/// on node locations, duplicate segments are found by sorting, crossings by a sweep over x, and ring
/// nesting by bounding boxes before exact point-in-ring tests. Nodes where more than two segments meet
/// (rings touching in a node) cost one pass over the segments each.
///
/// ```swift
/// let assembler = MultipolygonAssembler()
/// let area = assembler.assemble(relation: relation, way: { waysByID[$0] }, location: { locations[$0] })
/// if area.isValid { draw(area.polygons) } else { log(area.report.problems) }
/// ```
public struct MultipolygonAssembler: Sendable {
    public init() {}

    /// Assembles a relation's area from its way members, whatever their roles. Members that are nodes or
    /// relations are ignored; ways that `way` does not know are counted and reported as missing.
    ///
    /// The caller decides which relations are areas (type=multipolygon, type=boundary …) and which tags the
    /// area carries.
    public func assemble(relation: OSMRelation, way: (Int64) -> OSMWay?,
                         location: (Int64) -> OSMLocation?) -> AreaAssembly {
        var members: [AreaMemberWay] = []
        var missing: [Int64] = []
        for member in relation.members where member.type == .way {
            if let w = way(member.ref) {
                members.append(AreaMemberWay(way: w, role: member.role, location: location))
            } else {
                missing.append(member.ref)
            }
        }
        return assemble(source: AreaSource(type: .relation, id: relation.id), members: members,
                        missingWayIDs: missing)
    }

    /// Builds the area of a closed way (one the caller considers an area: area=yes, building=*, …).
    ///
    /// A way that comes back on itself is split as a relation would be: a loop touching the outline in one
    /// node becomes a hole or a second polygon.
    public func assemble(closedWay: OSMWay, location: (Int64) -> OSMLocation?) -> AreaAssembly {
        let source = AreaSource(type: .way, id: closedWay.id)
        guard closedWay.nodeRefs.count >= 2, closedWay.nodeRefs.first == closedWay.nodeRefs.last else {
            var report = AreaAssemblyReport(source: source)
            report.record(AreaProblem(kind: .wayNotClosed, wayIDs: [closedWay.id]))
            return AreaAssembly(source: source, polygons: [], report: report)
        }
        return assemble(source: source, members: [AreaMemberWay(way: closedWay, role: "", location: location)])
    }

    /// Assembles an area from member ways that the caller has already looked up.
    ///
    /// - Parameters:
    ///   - source: The element the area comes from; for `.way` sources roles are not checked.
    ///   - members: The member ways with their node locations, in relation order.
    ///   - missingWayIDs: Member ways the caller could not find; each is reported.
    public func assemble(source: AreaSource, members: [AreaMemberWay], missingWayIDs: [Int64] = []) -> AreaAssembly {
        var work = AreaAssemblyWork(source: source)
        for id in missingWayIDs {
            work.report.missingWayCount += 1
            work.report.record(AreaProblem(kind: .missingWay, wayIDs: [id]))
        }
        let polygons = work.run(members)
        return AreaAssembly(source: source, polygons: polygons, report: work.report)
    }
}

// MARK: - The assembly

/// A segment between two vertices (indices into the vertex table), `a` < `b` as points, and the member
/// way it first came from.
private struct Segment {
    var a: Int32
    var b: Int32
    var way: Int32
}

private struct Cycle {
    var vertices: [Int32]
    var segments: [Int32]
    var minX: Int64, minY: Int64, maxX: Int64, maxY: Int64
    /// Twice the signed area in (longitude, latitude) space, relative to the first vertex.
    var area2: Double
}

private struct AreaAssemblyWork {
    var report: AreaAssemblyReport
    var points: [RingPoint] = []
    var vertexIndex: [UInt64: Int32] = [:]
    var vertexNode: [Int64] = []
    var ways: [AreaMemberWay] = []
    var segments: [Segment] = []

    init(source: AreaSource) {
        report = AreaAssemblyReport(source: source)
    }

    mutating func run(_ members: [AreaMemberWay]) -> [AreaPolygon] {
        ways = uniqueWays(members)
        collectSegments()
        cancelDuplicateSegments()
        guard !segments.isEmpty else {
            if !report.hasFatalProblems { report.record(AreaProblem(kind: .noArea)) }
            return []
        }
        if !findIntersections() { return [] }
        guard let adjacency = adjacencyIfClosed() else { return [] }
        let cycles = buildCycles(adjacency)
        return classify(cycles)
    }

    // MARK: Member ways

    /// The members without repeats of a way id and without ways whose nodes repeat another's.
    private mutating func uniqueWays(_ members: [AreaMemberWay]) -> [AreaMemberWay] {
        var seenIDs = Set<Int64>()
        var seenShapes: [[Int64]: Int64] = [:]
        var result: [AreaMemberWay] = []
        result.reserveCapacity(members.count)
        for way in members {
            guard seenIDs.insert(way.id).inserted else {
                report.record(AreaProblem(kind: .duplicateMember, wayIDs: [way.id]))
                continue
            }
            let key = Self.canonicalShape(way.nodeIDs)
            if let other = seenShapes[key] {
                report.record(AreaProblem(kind: .duplicateWay, wayIDs: [other, way.id]))
                continue
            }
            seenShapes[key] = way.id
            result.append(way)
        }
        return result
    }

    /// A way's node sequence in a form that is equal for the same line drawn either way round (and, for a
    /// closed way, from any start).
    private static func canonicalShape(_ input: [Int64]) -> [Int64] {
        // Repeated consecutive nodes add nothing to the shape.
        var nodes: [Int64] = []
        nodes.reserveCapacity(input.count)
        for id in input where id != nodes.last { nodes.append(id) }
        guard nodes.count >= 2 else { return nodes }
        if nodes.count >= 4, nodes.first == nodes.last {
            let ring = nodes.dropLast()
            let n = ring.count
            var start = ring.startIndex
            for i in ring.indices where ring[i] < ring[start] { start = i }
            let s = start - ring.startIndex
            // Walk towards the smaller neighbour of the smallest node; ties cannot change the shape.
            let forward = ring[ring.startIndex + (s + 1) % n] <= ring[ring.startIndex + (s + n - 1) % n]
            var out: [Int64] = []
            out.reserveCapacity(n + 1)
            for k in 0..<n {
                let i = forward ? (s + k) % n : (s - k + n) % n
                out.append(ring[ring.startIndex + i])
            }
            out.append(Int64.min)  // marks "closed": no node has this id
            return out
        }
        let reversed = Array(nodes.reversed())
        return reversed.lexicographicallyPrecedes(nodes) ? reversed : nodes
    }

    // MARK: Segments

    private mutating func vertex(for location: OSMLocation, node: Int64, way: Int64) -> Int32 {
        let key = UInt64(UInt32(bitPattern: location.longitudeE7)) << 32 | UInt64(UInt32(bitPattern: location.latitudeE7))
        if let index = vertexIndex[key] {
            if vertexNode[Int(index)] != node, vertexNode[Int(index)] != Int64.min {
                report.record(AreaProblem(kind: .nodesShareLocation, location: location, wayIDs: [way]))
                vertexNode[Int(index)] = Int64.min  // report each shared location once
            }
            return index
        }
        let index = Int32(points.count)
        points.append(RingPoint(x: Int64(location.longitudeE7), y: Int64(location.latitudeE7)))
        vertexNode.append(node)
        vertexIndex[key] = index
        return index
    }

    private mutating func collectSegments() {
        var total = 0
        for way in ways { total += max(0, way.nodeIDs.count - 1) }
        segments.reserveCapacity(total)
        vertexIndex.reserveCapacity(total)
        for (wayIndex, way) in ways.enumerated() {
            var previous: Int32 = -1
            var missing = 0
            var repeated = false
            for (node, location) in zip(way.nodeIDs, way.locations) {
                guard let location else {
                    missing += 1
                    continue
                }
                let v = vertex(for: location, node: node, way: way.id)
                if previous >= 0 {
                    if v == previous {
                        repeated = true
                    } else {
                        let (a, b) = points[Int(previous)] < points[Int(v)] ? (previous, v) : (v, previous)
                        segments.append(Segment(a: a, b: b, way: Int32(wayIndex)))
                    }
                }
                previous = v
            }
            if missing > 0 {
                report.missingNodeCount += missing
                report.record(AreaProblem(kind: .missingNodes(count: missing), wayIDs: [way.id]))
            }
            if repeated { report.record(AreaProblem(kind: .duplicateNode, wayIDs: [way.id])) }
        }
    }

    /// Sorts the segments and removes pairs of copies: an odd number of copies leaves one.
    private mutating func cancelDuplicateSegments() {
        segments.sort { ($0.a, $0.b) < ($1.a, $1.b) }
        var kept: [Segment] = []
        kept.reserveCapacity(segments.count)
        var i = 0
        while i < segments.count {
            var j = i + 1
            while j < segments.count, segments[j].a == segments[i].a, segments[j].b == segments[i].b { j += 1 }
            if j - i > 1 {
                var involved: [Int64] = []
                for k in i..<j where !involved.contains(ways[Int(segments[k].way)].id) {
                    involved.append(ways[Int(segments[k].way)].id)
                }
                report.record(AreaProblem(kind: .duplicateSegment, location: location(segments[i].a), wayIDs: involved))
            }
            if (j - i) % 2 == 1 { kept.append(segments[i]) }
            i = j
        }
        segments = kept
    }

    private func location(_ vertex: Int32) -> OSMLocation {
        let p = points[Int(vertex)]
        return OSMLocation(latitudeE7: Int32(truncatingIfNeeded: p.y), longitudeE7: Int32(truncatingIfNeeded: p.x))
    }

    // MARK: Intersections

    /// Sweeps the segments in x order and reports every pair that meets other than in a shared node.
    /// Returns false when there is any.
    private mutating func findIntersections() -> Bool {
        // Segment endpoints are ordered, so a segment spans x from points[a].x to points[b].x.
        let order = segments.indices.sorted { points[Int(segments[$0].a)].x < points[Int(segments[$1].a)].x }
        var active: [Int] = []
        var clean = true
        for s in order {
            let sa = points[Int(segments[s].a)], sb = points[Int(segments[s].b)]
            let sMinY = min(sa.y, sb.y), sMaxY = max(sa.y, sb.y)
            var kept = 0
            for k in active.indices {
                let t = active[k]
                let ta = points[Int(segments[t].a)], tb = points[Int(segments[t].b)]
                if tb.x < sa.x { continue }  // ends before s starts: retire it
                active[kept] = t
                kept += 1
                if max(ta.y, tb.y) < sMinY || min(ta.y, tb.y) > sMaxY { continue }
                if let kind = intersection(segments[s], segments[t]) {
                    clean = false
                    report.record(AreaProblem(kind: kind.0, location: kind.1,
                                              wayIDs: wayIDs(segments[s].way, segments[t].way)))
                }
            }
            active.removeSubrange(kept...)
            active.append(s)
        }
        return clean
    }

    private func wayIDs(_ a: Int32, _ b: Int32) -> [Int64] {
        a == b ? [ways[Int(a)].id] : [ways[Int(a)].id, ways[Int(b)].id]
    }

    /// How two distinct segments meet, if they meet anywhere but in a shared endpoint.
    private func intersection(_ s: Segment, _ t: Segment) -> (AreaProblem.Kind, OSMLocation)? {
        let a = points[Int(s.a)], b = points[Int(s.b)], c = points[Int(t.a)], d = points[Int(t.b)]
        let shared: Int32? = (s.a == t.a || s.a == t.b) ? s.a : ((s.b == t.a || s.b == t.b) ? s.b : nil)
        if let shared {
            // Sharing one node is fine unless the two run along each other from it.
            let p = points[Int(shared)]
            let u = shared == s.a ? b : a
            let w = shared == t.a ? d : c
            guard RingPredicates.orientation(p, u, w) == 0 else { return nil }
            let sameDirection = (u.x - p.x).signum() == (w.x - p.x).signum() && (u.y - p.y).signum() == (w.y - p.y).signum()
            return sameDirection ? (.segmentsOverlap, location(shared)) : nil
        }
        let o1 = RingPredicates.orientation(a, b, c), o2 = RingPredicates.orientation(a, b, d)
        let o3 = RingPredicates.orientation(c, d, a), o4 = RingPredicates.orientation(c, d, b)
        if o1 == 0, o2 == 0 {
            // Collinear: they overlap when either has an endpoint inside the other.
            if RingPredicates.strictlyBetween(c, a, b) { return (.segmentsOverlap, location(t.a)) }
            if RingPredicates.strictlyBetween(d, a, b) { return (.segmentsOverlap, location(t.b)) }
            if RingPredicates.strictlyBetween(a, c, d) { return (.segmentsOverlap, location(s.a)) }
            if RingPredicates.strictlyBetween(b, c, d) { return (.segmentsOverlap, location(s.b)) }
            return nil
        }
        if o1 * o2 < 0, o3 * o4 < 0 {
            return (.segmentsCross, crossingPoint(a, b, c, d))
        }
        if o1 == 0, RingPredicates.strictlyBetween(c, a, b) { return (.segmentTouches, location(t.a)) }
        if o2 == 0, RingPredicates.strictlyBetween(d, a, b) { return (.segmentTouches, location(t.b)) }
        if o3 == 0, RingPredicates.strictlyBetween(a, c, d) { return (.segmentTouches, location(s.a)) }
        if o4 == 0, RingPredicates.strictlyBetween(b, c, d) { return (.segmentTouches, location(s.b)) }
        return nil
    }

    /// Where two properly crossing segments cross, rounded to the fixed-point grid (for the report only).
    private func crossingPoint(_ a: RingPoint, _ b: RingPoint, _ c: RingPoint, _ d: RingPoint) -> OSMLocation {
        let rx = Double(b.x - a.x), ry = Double(b.y - a.y), sx = Double(d.x - c.x), sy = Double(d.y - c.y)
        let denominator = rx * sy - ry * sx
        let t = denominator == 0 ? 0 : (Double(c.x - a.x) * sy - Double(c.y - a.y) * sx) / denominator
        let x = (Double(a.x) + t * rx).rounded(), y = (Double(a.y) + t * ry).rounded()
        return OSMLocation(latitudeE7: Int32(clamping: Int64(y)), longitudeE7: Int32(clamping: Int64(x)))
    }

    // MARK: Rings

    /// For each vertex the segments meeting there (compressed rows), or nil after reporting open ends.
    private mutating func adjacencyIfClosed() -> (offsets: [Int32], incident: [Int32])? {
        var degree = [Int32](repeating: 0, count: points.count + 1)
        for s in segments {
            degree[Int(s.a)] += 1
            degree[Int(s.b)] += 1
        }
        let openEnds = (0..<Int32(points.count)).filter { degree[Int($0)] % 2 == 1 }
        if !openEnds.isEmpty {
            // Name the ways that end at each open end, for the first ends that the report keeps.
            var waysAt: [Int32: [Int64]] = [:]
            for v in openEnds.prefix(AreaAssemblyReport.maximumProblemCount) { waysAt[v] = [] }
            for s in segments {
                let id = ways[Int(s.way)].id
                for v in [s.a, s.b] where waysAt[v] != nil && !(waysAt[v] ?? []).contains(id) {
                    waysAt[v, default: []].append(id)
                }
            }
            for v in openEnds {
                report.record(AreaProblem(kind: .openRing, location: location(v), wayIDs: waysAt[v] ?? []))
            }
            return nil
        }
        var offsets = [Int32](repeating: 0, count: points.count + 1)
        for v in 0..<points.count { offsets[v + 1] = offsets[v] + degree[v] }
        var fill = offsets
        var incident = [Int32](repeating: 0, count: segments.count * 2)
        for (i, s) in segments.enumerated() {
            incident[Int(fill[Int(s.a)])] = Int32(i)
            fill[Int(s.a)] += 1
            incident[Int(fill[Int(s.b)])] = Int32(i)
            fill[Int(s.b)] += 1
        }
        return (offsets, incident)
    }

    private func other(_ segment: Int32, _ vertex: Int32) -> Int32 {
        let s = segments[Int(segment)]
        return s.a == vertex ? s.b : s.a
    }

    /// Segments ordered by their lowest y, with the tallest segment's height: the segments a horizontal
    /// line at y can meet are those with lowest y in [y − tallest, y].
    private func yIndex() -> (order: [Int32], minY: [Int64], tallest: Int64) {
        var order = (0..<Int32(segments.count)).map { $0 }
        var tallest: Int64 = 0
        var lows = [Int64](repeating: 0, count: segments.count)
        for (i, s) in segments.enumerated() {
            let ya = points[Int(s.a)].y, yb = points[Int(s.b)].y
            lows[i] = min(ya, yb)
            tallest = max(tallest, abs(ya - yb))
        }
        order.sort { lows[Int($0)] < lows[Int($1)] }
        return (order, order.map { lows[Int($0)] }, tallest)
    }

    /// At a node where four or more segments meet, which segment continues which: the pairs are the
    /// segments on either side of each wedge of the area's interior, so rings follow the area's faces.
    ///
    /// Wedges alternate between interior and exterior around the node, so one parity test settles all
    /// of them: a ray from the node towards +x, tilted up by an infinitesimal angle, crossing the other
    /// segments an odd number of times starts in an interior wedge.
    private func junctionPairs(vertex v: Int32, incident: ArraySlice<Int32>,
                               yIndex: (order: [Int32], minY: [Int64], tallest: Int64)) -> [Int32: Int32] {
        let p = points[Int(v)]
        var around = Array(incident)
        around.sort { s, t in
            let u = points[Int(other(s, v))], w = points[Int(other(t, v))]
            return RingPredicates.angleLess(u.x - p.x, u.y - p.y, w.x - p.x, w.y - p.y)
        }
        // Above the tilted ray: higher, or level and to the left of the node.
        func above(_ q: RingPoint) -> Bool { q.y != p.y ? q.y > p.y : q.x < p.x }
        var parity = false
        // Segments that can reach the node's height: lowest y in [p.y − tallest, p.y].
        var lo = 0, hi = yIndex.minY.count
        let floor = p.y - yIndex.tallest
        while lo < hi {
            let mid = (lo + hi) / 2
            if yIndex.minY[mid] < floor { lo = mid + 1 } else { hi = mid }
        }
        var k = lo
        while k < yIndex.minY.count, yIndex.minY[k] <= p.y {
            let s = segments[Int(yIndex.order[k])]
            k += 1
            if s.a == v || s.b == v { continue }
            let qa = points[Int(s.a)], qb = points[Int(s.b)]
            let aAbove = above(qa)
            guard aAbove != above(qb) else { continue }
            let (low, high) = aAbove ? (qb, qa) : (qa, qb)
            // The segment crosses the ray when the node is left of it going upwards.
            if RingPredicates.orientation(low, high, p) > 0 { parity.toggle() }
        }
        // The ray leaves through the wedge after the first segment if that segment points exactly along
        // +x, otherwise through the wedge that wraps around from the last segment to the first.
        let first = points[Int(other(around[0], v))]
        let rayInFirstWedge = first.y == p.y && first.x > p.x
        // Pair (0,1), (2,3), … when the wedge between segments 0 and 1 is interior.
        let pairFromZero = rayInFirstWedge == parity
        var partner: [Int32: Int32] = [:]
        let n = around.count
        var i = pairFromZero ? 0 : 1
        while i < n {
            let s = around[i], t = around[(i + 1) % n]
            partner[s] = t
            partner[t] = s
            i += 2
        }
        return partner
    }

    /// Walks the segments into simple closed rings: at ordinary nodes the only way on, at junctions the
    /// face-following partner; a walk that comes back to a node it already passed closes a ring there.
    private func buildCycles(_ adjacency: (offsets: [Int32], incident: [Int32])) -> [Cycle] {
        let (offsets, incident) = adjacency
        var junctions: [Int32: [Int32: Int32]] = [:]
        var index: (order: [Int32], minY: [Int64], tallest: Int64)? = nil
        for v in 0..<points.count where offsets[v + 1] - offsets[v] > 2 {
            if index == nil { index = yIndex() }
            guard let index else { break }
            junctions[Int32(v)] = junctionPairs(vertex: Int32(v), incident: incident[Int(offsets[v])..<Int(offsets[v + 1])],
                                                yIndex: index)
        }
        var used = [Bool](repeating: false, count: segments.count)
        var onPath = [Int32](repeating: -1, count: points.count)
        var cycles: [Cycle] = []
        var pathVertices: [Int32] = []
        var pathSegments: [Int32] = []
        for start in segments.indices where !used[start] {
            used[start] = true
            let first = segments[start].a
            pathVertices = [first]
            pathSegments = [Int32(start)]
            onPath[Int(first)] = 0
            var current = segments[start].b
            var arrivedBy = Int32(start)
            while true {
                let seen = onPath[Int(current)]
                if seen >= 0 {
                    let k = Int(seen)
                    let ringVertices = Array(pathVertices[k...])
                    let ringSegments = Array(pathSegments[k...])
                    for v in ringVertices.dropFirst() { onPath[Int(v)] = -1 }
                    pathVertices.removeSubrange((k + 1)...)
                    pathSegments.removeSubrange(k...)
                    cycles.append(makeCycle(ringVertices, ringSegments))
                } else {
                    onPath[Int(current)] = Int32(pathVertices.count)
                    pathVertices.append(current)
                }
                let row = offsets[Int(current)]..<offsets[Int(current) + 1]
                let next: Int32
                if row.count == 2 {
                    let s0 = incident[Int(row.lowerBound)]
                    next = s0 == arrivedBy ? incident[Int(row.lowerBound) + 1] : s0
                } else if let pairs = junctions[current], let partner = pairs[arrivedBy] {
                    next = partner
                } else {
                    break
                }
                if used[Int(next)] { break }
                used[Int(next)] = true
                pathSegments.append(next)
                arrivedBy = next
                current = other(next, current)
            }
            for v in pathVertices { onPath[Int(v)] = -1 }
        }
        return cycles
    }

    private func makeCycle(_ vertices: [Int32], _ segmentIndices: [Int32]) -> Cycle {
        let o = points[Int(vertices[0])]
        var minX = o.x, maxX = o.x, minY = o.y, maxY = o.y
        var area2 = 0.0
        var px = 0.0, py = 0.0
        for v in vertices.dropFirst() {
            let p = points[Int(v)]
            minX = min(minX, p.x); maxX = max(maxX, p.x)
            minY = min(minY, p.y); maxY = max(maxY, p.y)
            let cx = Double(p.x - o.x), cy = Double(p.y - o.y)
            area2 += px * cy - cx * py
            px = cx
            py = cy
        }
        return Cycle(vertices: vertices, segments: segmentIndices, minX: minX, minY: minY, maxX: maxX, maxY: maxY, area2: area2)
    }

    // MARK: Nesting

    /// Sorts rings into outers (even nesting depth) and inners (odd), gives each inner to the smallest ring
    /// around it, orients them and checks roles.
    private mutating func classify(_ cycles: [Cycle]) -> [AreaPolygon] {
        // Larger rings first: a ring's containers come before it, so a prefix scan finds them.
        let order = cycles.indices.sorted { abs(cycles[$0].area2) > abs(cycles[$1].area2) }
        var depth = [Int](repeating: 0, count: cycles.count)
        var parent = [Int](repeating: -1, count: cycles.count)
        var rings: [[RingPoint]] = cycles.map { $0.vertices.map { points[Int($0)] } }
        var rank = [Int](repeating: 0, count: cycles.count)
        for (r, c) in order.enumerated() { rank[c] = r }
        let grid = CycleGrid(cycles, enabled: cycles.count > 64)
        var candidates: [Int] = []
        // Built on first use: only rings that may contain another need one.
        var edgeIndexes: [Int: RingEdgeIndex] = [:]
        for c in order {
            let cycle = cycles[c]
            // A ring's first segment touches no other ring except in its end nodes, so its midpoint
            // is strictly inside or outside every other ring.
            let p = points[Int(cycle.vertices[0])], q = points[Int(cycle.vertices[1])]
            let mx = p.x + q.x, my = p.y + q.y
            candidates.removeAll(keepingCapacity: true)
            if grid.enabled {
                for d in grid.cycles(at: cycle.minX, cycle.minY) where rank[d] < rank[c] { candidates.append(d) }
                candidates.sort { rank[$0] < rank[$1] }
            } else {
                candidates.append(contentsOf: order[..<rank[c]])
            }
            for d in candidates {
                let other = cycles[d]
                guard other.minX <= cycle.minX, other.maxX >= cycle.maxX,
                      other.minY <= cycle.minY, other.maxY >= cycle.maxY else { continue }
                let inside: Bool
                if rings[d].count > 32 {
                    if edgeIndexes[d] == nil { edgeIndexes[d] = RingEdgeIndex(ring: rings[d]) }
                    inside = edgeIndexes[d]?.contains(doubledX: mx, doubledY: my) ?? false
                } else {
                    inside = RingPredicates.ringContains(doubledX: mx, doubledY: my, ring: rings[d])
                }
                if inside {
                    depth[c] += 1
                    // Candidates come in decreasing size, so the last container is the smallest.
                    parent[c] = d
                }
            }
        }
        var polygonOf = [Int](repeating: -1, count: cycles.count)
        var polygons: [AreaPolygon] = []
        var isOuter = [Bool](repeating: false, count: cycles.count)
        for c in order where depth[c] % 2 == 0 {
            isOuter[c] = true
            polygonOf[c] = polygons.count
            polygons.append([closedRing(&rings[c], counterClockwise: true, area2: cycles[c].area2)])
        }
        for c in order where depth[c] % 2 == 1 {
            let owner = parent[c] >= 0 ? polygonOf[parent[c]] : -1
            guard owner >= 0 else { continue }
            polygons[owner].append(closedRing(&rings[c], counterClockwise: false, area2: cycles[c].area2))
        }
        if report.source.type == .relation { checkRoles(cycles, isOuter) }
        return polygons
    }

    private func closedRing(_ ring: inout [RingPoint], counterClockwise: Bool, area2: Double) -> [OSMLocation] {
        if (area2 > 0) != counterClockwise { ring.reverse() }
        var out: [OSMLocation] = []
        out.reserveCapacity(ring.count + 1)
        for p in ring {
            out.append(OSMLocation(latitudeE7: Int32(truncatingIfNeeded: p.y), longitudeE7: Int32(truncatingIfNeeded: p.x)))
        }
        if let first = out.first { out.append(first) }
        return out
    }

    private mutating func checkRoles(_ cycles: [Cycle], _ isOuter: [Bool]) {
        var inOuter = [Bool](repeating: false, count: ways.count)
        var inInner = [Bool](repeating: false, count: ways.count)
        for (c, cycle) in cycles.enumerated() {
            for s in cycle.segments {
                let w = Int(segments[Int(s)].way)
                if isOuter[c] { inOuter[w] = true } else { inInner[w] = true }
            }
        }
        for (w, way) in ways.enumerated() where inOuter[w] || inInner[w] {
            let fits: Bool
            switch way.role {
            case "outer": fits = inOuter[w]
            case "inner": fits = inInner[w]
            default: fits = false
            }
            if !fits {
                report.record(AreaProblem(kind: .roleMismatch(role: way.role, actual: inOuter[w] ? "outer" : "inner"),
                                          wayIDs: [way.id]))
            }
        }
    }
}

/// A uniform grid over the rings' bounding boxes, so that finding the rings around a ring costs the rings
/// near it rather than all of them (relations with thousands of inner rings).
private struct CycleGrid {
    let enabled: Bool
    private var minX: Int64 = 0, minY: Int64 = 0
    private var cellWidth: Int64 = 1, cellHeight: Int64 = 1
    private var side = 1
    private var cells: [[Int]] = []

    init(_ cycles: [Cycle], enabled: Bool) {
        self.enabled = enabled
        guard enabled, let first = cycles.first else { return }
        var x0 = first.minX, y0 = first.minY, x1 = first.maxX, y1 = first.maxY
        for c in cycles {
            x0 = min(x0, c.minX); y0 = min(y0, c.minY)
            x1 = max(x1, c.maxX); y1 = max(y1, c.maxY)
        }
        side = max(1, min(256, Int(Double(cycles.count).squareRoot())))
        minX = x0
        minY = y0
        cellWidth = (x1 - x0) / Int64(side) + 1
        cellHeight = (y1 - y0) / Int64(side) + 1
        cells = Array(repeating: [], count: side * side)
        for (i, c) in cycles.enumerated() {
            let cx0 = column(c.minX), cx1 = column(c.maxX), cy0 = row(c.minY), cy1 = row(c.maxY)
            for cy in cy0...cy1 {
                for cx in cx0...cx1 { cells[cy * side + cx].append(i) }
            }
        }
    }

    private func column(_ x: Int64) -> Int { min(side - 1, max(0, Int((x - minX) / cellWidth))) }
    private func row(_ y: Int64) -> Int { min(side - 1, max(0, Int((y - minY) / cellHeight))) }

    /// The rings whose bounding boxes may contain the point (a superset).
    func cycles(at x: Int64, _ y: Int64) -> [Int] {
        cells[row(y) * side + column(x)]
    }
}
