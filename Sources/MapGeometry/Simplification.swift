import Foundation

/// How to simplify a line or ring.
public enum SimplificationMethod: Sendable, Hashable {
    /// Douglas–Peucker: keep a point when it lies farther than `tolerance` from the simplified line
    /// (same units as the points). Bounds the shape's deviation; good for tiles at a zoom level.
    case douglasPeucker(tolerance: Double)
    /// Visvalingam–Whyatt: repeatedly drop the point whose triangle with its neighbours has the
    /// smallest area while that area is at most `minimumArea` (square units of the points). Removes
    /// detail by significance, which keeps shapes smoother and is often preferred for coastlines.
    case visvalingamWhyatt(minimumArea: Double)
}

/// Line and ring simplification on planar points (map points, or tile-local coordinates stored in
/// `MKMapPoint`).
///
/// All functions keep the order of the input and return a subset of its points; none adds points.
/// They run in O(n log n) (Douglas–Peucker O(n²) in the worst case, O(n log n) typically), without
/// recursion, allocating their working arrays once per call.
///
/// Simplification may make a simple line or ring self-intersect; tile builders that need valid
/// polygons must repair them afterwards.
public enum Simplification {

    // MARK: Lines

    /// Simplifies a line with `method`, after an optional radial-distance pre-pass that first drops
    /// points within `radialPrepassTolerance` of the last kept point (0 disables it). The pre-pass is
    /// linear and makes the main pass much cheaper on dense input such as GPS traces; using the same
    /// value as the Douglas–Peucker tolerance is the usual choice.
    ///
    /// The first and last points are always kept.
    public static func simplify(_ points: [MKMapPoint], method: SimplificationMethod,
                                radialPrepassTolerance: Double = 0) -> [MKMapPoint] {
        let input = radialPrepassTolerance > 0 ? radialDistance(points, tolerance: radialPrepassTolerance) : points
        switch method {
        case .douglasPeucker(let tolerance): return douglasPeucker(input, tolerance: tolerance)
        case .visvalingamWhyatt(let minimumArea): return visvalingamWhyatt(input, minimumArea: minimumArea)
        }
    }

    /// Radial-distance simplification: keeps the first point, then each point farther than
    /// `tolerance` from the last kept one, and always the last point.
    ///
    /// A negative or NaN tolerance counts as 0, which still drops consecutive duplicates.
    public static func radialDistance(_ points: [MKMapPoint], tolerance: Double) -> [MKMapPoint] {
        guard points.count > 2 else { return points }
        let squaredTolerance = squared(tolerance)
        return points.withUnsafeBufferPointer { p in
            var result: [MKMapPoint] = []
            result.reserveCapacity(p.count)
            radialPass(p, squaredTolerance: squaredTolerance, keepLast: true) { result.append($0) }
            return result
        }
    }

    /// Douglas–Peucker simplification: keeps the first and last points and, recursively between two
    /// kept points, the point farthest from the segment joining them when it is farther than
    /// `tolerance`.
    ///
    /// Distances are to the segment, not to its infinite line, so a point that doubles back along the
    /// line is kept. With a tolerance of 0 (or negative, or NaN) every point is kept except those that
    /// change nothing: consecutive duplicates and points lying exactly on the segment between their
    /// kept neighbours. The first and last points are kept even when they are equal.
    public static func douglasPeucker(_ points: [MKMapPoint], tolerance: Double) -> [MKMapPoint] {
        let n = points.count
        guard n > 2 else { return points }
        return points.withUnsafeBufferPointer { p in
            var keep = [Bool](repeating: false, count: n)
            var stack: [Int] = []
            markDouglasPeucker(p, first: 0, last: n - 1, squaredTolerance: squared(tolerance),
                               keep: &keep, stack: &stack)
            return collect(p, keep)
        }
    }

    /// Visvalingam–Whyatt simplification: repeatedly removes the interior point whose triangle with
    /// its two remaining neighbours (its *effective area*) is smallest, as long as that area is at
    /// most `minimumArea`. The first and last points are always kept.
    ///
    /// As in Visvalingam and Whyatt's paper, a point's effective area never drops below that of a
    /// point already removed, so removal follows significance. Ties go to the earlier point. A
    /// `minimumArea` of 0 removes only points that change nothing (duplicates and exactly collinear
    /// points).
    public static func visvalingamWhyatt(_ points: [MKMapPoint], minimumArea: Double) -> [MKMapPoint] {
        let n = points.count
        guard n > 2 else { return points }
        return points.withUnsafeBufferPointer { p in
            let keep = markVisvalingamWhyatt(p, cyclic: false, threshold: minimumArea, minimumRemaining: 2)
            return collect(p, keep)
        }
    }

    // MARK: Rings

    /// Simplifies a polygon ring without letting it collapse: a ring with area keeps at least three
    /// vertices (four points when closed), choosing the triangle that spans the most of the ring when
    /// the method alone would leave fewer. Returns `nil` when the ring has collapsed: it has fewer than
    /// three distinct vertices or no area (all vertices on a line), before or after simplification.
    ///
    /// The ring may be open or closed (first vertex repeated at the end); the result follows the
    /// input. Douglas–Peucker anchors at the first vertex, which is always kept; Visvalingam–Whyatt
    /// treats the ring as cyclic, so any vertex may go. The result starts at the first kept vertex in
    /// input order. Callers that want to drop rings too small to show compare
    /// ``PlanarPolygon/signedArea(_:)`` with a threshold.
    public static func simplifyRing(_ ring: [MKMapPoint], method: SimplificationMethod,
                                    radialPrepassTolerance: Double = 0) -> [MKMapPoint]? {
        let (m, closed) = PlanarPolygon.ringShape(ring)
        guard m >= 3 else { return nil }
        return ring.withUnsafeBufferPointer { full -> [MKMapPoint]? in
            let vertices = UnsafeBufferPointer(rebasing: full[0..<m])

            // The working vertex list, closed by repeating its first vertex (Douglas–Peucker needs
            // the closing point as its last anchor; Visvalingam–Whyatt ignores it).
            var work: [MKMapPoint] = []
            work.reserveCapacity(m + 1)
            if radialPrepassTolerance > 0 {
                radialPass(vertices, squaredTolerance: squared(radialPrepassTolerance), keepLast: false) {
                    work.append($0)
                }
            } else {
                work.append(contentsOf: vertices)
            }
            work.append(work[0])

            var result: [MKMapPoint] = work.withUnsafeBufferPointer { w in
                let count = w.count - 1
                guard count >= 3 else { return [] }
                switch method {
                case .douglasPeucker(let tolerance):
                    var keep = [Bool](repeating: false, count: count + 1)
                    var stack: [Int] = []
                    markDouglasPeucker(w, first: 0, last: count, squaredTolerance: squared(tolerance),
                                       keep: &keep, stack: &stack)
                    keep[count] = false
                    return collect(w, keep)
                case .visvalingamWhyatt(let minimumArea):
                    let open = UnsafeBufferPointer(rebasing: w[0..<count])
                    return collect(open, markVisvalingamWhyatt(open, cyclic: true, threshold: minimumArea,
                                                               minimumRemaining: 3))
                }
            }
            if result.count < 3 || PlanarPolygon.signedArea(result) == 0 {
                guard let triangle = spanningTriangle(vertices) else { return nil }
                result = triangle
            }
            if closed { result.append(result[0]) }
            return result
        }
    }

    // MARK: Internals

    @inline(__always)
    static func squared(_ tolerance: Double) -> Double {
        tolerance > 0 ? tolerance * tolerance : 0
    }

    static func collect(_ p: UnsafeBufferPointer<MKMapPoint>, _ keep: [Bool]) -> [MKMapPoint] {
        var kept = 0
        for k in keep where k { kept += 1 }
        var result: [MKMapPoint] = []
        result.reserveCapacity(kept)
        for i in 0..<min(p.count, keep.count) where keep[i] { result.append(p[i]) }
        return result
    }

    /// Calls `emit` with the first point and each point farther than the tolerance from the last
    /// emitted one, then with the last point when `keepLast` and it was not emitted already.
    @inline(__always)
    static func radialPass(_ p: UnsafeBufferPointer<MKMapPoint>, squaredTolerance: Double, keepLast: Bool,
                           _ emit: (MKMapPoint) -> Void) {
        let n = p.count
        guard n > 0 else { return }
        var last = p[0]
        var lastIndex = 0
        emit(last)
        for i in 1..<n {
            let q = p[i]
            let dx = q.x - last.x, dy = q.y - last.y
            if dx * dx + dy * dy > squaredTolerance {
                emit(q)
                last = q
                lastIndex = i
            }
        }
        if keepLast && lastIndex != n - 1 { emit(p[n - 1]) }
    }

    /// Marks in `keep` the points Douglas–Peucker keeps from `first` through `last` (both marked),
    /// with an explicit stack of index ranges instead of recursion.
    static func markDouglasPeucker(_ p: UnsafeBufferPointer<MKMapPoint>, first: Int, last: Int,
                                   squaredTolerance: Double, keep: inout [Bool], stack: inout [Int]) {
        keep[first] = true
        keep[last] = true
        guard last - first > 1 else { return }
        stack.removeAll(keepingCapacity: true)
        stack.reserveCapacity(64)
        stack.append(first)
        stack.append(last)
        while stack.count >= 2 {
            let hi = stack.removeLast()
            let lo = stack.removeLast()
            let a = p[lo], b = p[hi]
            var farthest = squaredTolerance
            var index = -1
            for i in (lo + 1)..<hi {
                // NaN distances never compare greater, so non-finite points are dropped.
                let d = PlanarPolygon.squaredSegmentDistance(p[i], a, b)
                if d > farthest {
                    farthest = d
                    index = i
                }
            }
            guard index >= 0 else { continue }
            keep[index] = true
            if index - lo > 1 { stack.append(lo); stack.append(index) }
            if hi - index > 1 { stack.append(index); stack.append(hi) }
        }
    }

    /// The area of the triangle `a`, `b`, `c` (measured around `b`, the middle point).
    @inline(__always)
    static func triangleArea(_ a: MKMapPoint, _ b: MKMapPoint, _ c: MKMapPoint) -> Double {
        let ax = a.x - b.x, ay = a.y - b.y, cx = c.x - b.x, cy = c.y - b.y
        return abs(ax * cy - ay * cx) / 2
    }

    /// A triangle area as the heap orders it: NaN (from non-finite points) counts as infinite, so such
    /// points are never removed and the heap's order stays total.
    @inline(__always)
    static func effectiveArea(_ area: Double) -> Double {
        area.isNaN ? .infinity : area
    }

    /// Runs Visvalingam–Whyatt and returns which points remain. In a cyclic run every point is a
    /// candidate; otherwise the endpoints stay. Stops when `minimumRemaining` points are left.
    static func markVisvalingamWhyatt(_ p: UnsafeBufferPointer<MKMapPoint>, cyclic: Bool, threshold: Double,
                                      minimumRemaining: Int) -> [Bool] {
        let n = p.count
        var keep = [Bool](repeating: true, count: n)
        guard n > minimumRemaining else { return keep }
        let limit = threshold.isNaN ? 0 : threshold
        var previous = [Int](repeating: 0, count: n)
        var next = [Int](repeating: 0, count: n)
        for i in 0..<n {
            previous[i] = i == 0 ? n - 1 : i - 1
            next[i] = i == n - 1 ? 0 : i + 1
        }
        var heap = AreaHeap(count: n)
        let candidates = cyclic ? 0..<n : 1..<(n - 1)
        for i in candidates {
            heap.append(AreaEntry(area: effectiveArea(triangleArea(p[previous[i]], p[i], p[next[i]])), index: i))
        }
        heap.heapify()
        var remaining = n
        while remaining > minimumRemaining, let entry = heap.popMin() {
            if entry.area > limit { break }
            let i = entry.index
            keep[i] = false
            remaining -= 1
            let a = previous[i], b = next[i]
            next[a] = b
            previous[b] = a
            // The two neighbours, unrolled: a two-element array literal here would allocate per point.
            for side in 0..<2 {
                let neighbour = side == 0 ? a : b
                guard cyclic || (neighbour != 0 && neighbour != n - 1) else { continue }
                let recomputed = effectiveArea(triangleArea(p[previous[neighbour]], p[neighbour], p[next[neighbour]]))
                heap.update(neighbour, area: max(recomputed, entry.area))
            }
        }
        return keep
    }

    /// The triangle of ring vertices that spans the ring best: the first vertex, the vertex farthest
    /// from it, and the vertex farthest from the line through those two, in ring order and wound like
    /// the ring. `nil` when all vertices lie on a line.
    static func spanningTriangle(_ v: UnsafeBufferPointer<MKMapPoint>) -> [MKMapPoint]? {
        let n = v.count
        guard n >= 3 else { return nil }
        let a = v[0]
        var far = -1
        var farthest = 0.0
        for i in 1..<n {
            let dx = v[i].x - a.x, dy = v[i].y - a.y
            let d = dx * dx + dy * dy
            if d > farthest { farthest = d; far = i }
        }
        guard far > 0 else { return nil }
        let b = v[far]
        var third = -1
        var widest = 0.0
        for i in 1..<n where i != far {
            let cross = abs((b.x - a.x) * (v[i].y - a.y) - (b.y - a.y) * (v[i].x - a.x))
            if cross > widest { widest = cross; third = i }
        }
        guard third > 0 else { return nil }
        var triangle = far < third ? [a, b, v[third]] : [a, v[third], b]
        let ringArea = PlanarPolygon.signedArea(v)
        if PlanarPolygon.signedArea(triangle) * ringArea < 0 { triangle.swapAt(1, 2) }
        return triangle
    }
}

/// A point's effective area in the Visvalingam–Whyatt heap, ordered by area, then by index so ties
/// resolve the same way every run.
struct AreaEntry: Comparable {
    var area: Double
    var index: Int

    static func < (lhs: AreaEntry, rhs: AreaEntry) -> Bool {
        lhs.area < rhs.area || (lhs.area == rhs.area && lhs.index < rhs.index)
    }
}

/// The Visvalingam–Whyatt queue: a binary min-heap of points by effective area that tracks where
/// each point sits, so a neighbour's new area moves its one entry instead of adding another. The heap
/// never holds more than one entry per point and needs no stale-entry checks.
struct AreaHeap {
    private var entries: [AreaEntry] = []
    /// Where each point's entry is in `entries`; −1 once popped or never added.
    private var position: [Int]

    init(count: Int) {
        entries.reserveCapacity(count)
        position = [Int](repeating: -1, count: count)
    }

    /// Adds an entry without restoring the heap order; call ``heapify()`` after the last one.
    mutating func append(_ entry: AreaEntry) {
        position[entry.index] = entries.count
        entries.append(entry)
    }

    /// Restores the heap order in O(n).
    mutating func heapify() {
        var i = entries.count / 2
        while i > 0 {
            i -= 1
            siftDown(from: i)
        }
    }

    mutating func popMin() -> AreaEntry? {
        guard let last = entries.popLast() else { return nil }
        guard !entries.isEmpty else {
            position[last.index] = -1
            return last
        }
        let top = entries[0]
        position[top.index] = -1
        entries[0] = last
        position[last.index] = 0
        siftDown(from: 0)
        return top
    }

    /// Changes the area of point `index`, if it is still queued.
    mutating func update(_ index: Int, area: Double) {
        let at = position[index]
        guard at >= 0 else { return }
        let old = entries[at]
        let entry = AreaEntry(area: area, index: index)
        entries[at] = entry
        if entry < old { siftUp(from: at) } else { siftDown(from: at) }
    }

    private mutating func siftUp(from start: Int) {
        let entry = entries[start]
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            let p = entries[parent]
            guard entry < p else { break }
            entries[child] = p
            position[p.index] = child
            child = parent
        }
        entries[child] = entry
        position[entry.index] = child
    }

    private mutating func siftDown(from start: Int) {
        let count = entries.count
        let entry = entries[start]
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < count else { break }
            let right = left + 1
            let smaller = right < count && entries[right] < entries[left] ? right : left
            let s = entries[smaller]
            guard s < entry else { break }
            entries[parent] = s
            position[s.index] = parent
            parent = smaller
        }
        entries[parent] = entry
        position[entry.index] = parent
    }
}
