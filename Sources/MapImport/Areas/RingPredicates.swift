// Exact geometric predicates on OSM's fixed-point coordinates.
//
// Whether two segments touch, which side of a ring a point is on and how edges are ordered around a node
// decide the topology of an area, so they must not depend on rounding. Coordinates are 1e-7 degree
// integers (|x| < 2^31); their differences need 33 bits and products of differences 66, one bit more
// than Int64 holds, so products are formed at full 128-bit width when the fast path cannot be sure.

/// A point in 1e-7 degrees, x east (longitude), y north (latitude); widened so that sums of two stay
/// exact.
struct RingPoint: Hashable {
    var x: Int64
    var y: Int64

    @inline(__always)
    static func < (a: RingPoint, b: RingPoint) -> Bool {
        a.x != b.x ? a.x < b.x : a.y < b.y
    }
}

enum RingPredicates {
    /// The sign (-1, 0, 1) of `ax·by − ay·bx`, exact for |components| < 2^62.
    @inline(__always)
    static func crossSign(_ ax: Int64, _ ay: Int64, _ bx: Int64, _ by: Int64) -> Int {
        let limit: UInt64 = 1 << 31
        if ax.magnitude < limit, ay.magnitude < limit, bx.magnitude < limit, by.magnitude < limit {
            let d = ax &* by &- ay &* bx
            return d > 0 ? 1 : (d < 0 ? -1 : 0)
        }
        let p = ax.multipliedFullWidth(by: by)
        let q = ay.multipliedFullWidth(by: bx)
        if p.high != q.high { return p.high < q.high ? -1 : 1 }
        if p.low != q.low { return p.low < q.low ? -1 : 1 }
        return 0
    }

    /// The orientation of `c` relative to the directed line `a`→`b`: 1 left, −1 right, 0 on it.
    @inline(__always)
    static func orientation(_ a: RingPoint, _ b: RingPoint, _ c: RingPoint) -> Int {
        crossSign(b.x - a.x, b.y - a.y, c.x - a.x, c.y - a.y)
    }

    /// Whether `p`, known to be on the line through `a` and `b`, lies strictly between them.
    @inline(__always)
    static func strictlyBetween(_ p: RingPoint, _ a: RingPoint, _ b: RingPoint) -> Bool {
        if a.x != b.x {
            return (a.x < p.x && p.x < b.x) || (b.x < p.x && p.x < a.x)
        }
        return (a.y < p.y && p.y < b.y) || (b.y < p.y && p.y < a.y)
    }

    /// Whether the direction `u` comes before `v` going counter-clockwise from the +x axis.
    @inline(__always)
    static func angleLess(_ ux: Int64, _ uy: Int64, _ vx: Int64, _ vy: Int64) -> Bool {
        let hu = (uy > 0 || (uy == 0 && ux > 0)) ? 0 : 1
        let hv = (vy > 0 || (vy == 0 && vx > 0)) ? 0 : 1
        if hu != hv { return hu < hv }
        return crossSign(ux, uy, vx, vy) > 0
    }

    /// Whether the ray from `origin` in direction (`dx`, `dy`) crosses the segment `p`–`q`, which must not
    /// pass through `origin`. Uses a half-open rule at the segment's ends so that a ray through a vertex
    /// counts the two segments meeting there once between them.
    @inline(__always)
    static func rayCrosses(origin v: RingPoint, _ dx: Int64, _ dy: Int64, _ p: RingPoint, _ q: RingPoint) -> Bool {
        let sp = crossSign(dx, dy, p.x - v.x, p.y - v.y) > 0
        let sq = crossSign(dx, dy, q.x - v.x, q.y - v.y) > 0
        guard sp != sq else { return false }
        let ex = q.x - p.x, ey = q.y - p.y
        let numerator = crossSign(ex, ey, p.x - v.x, p.y - v.y)
        let denominator = crossSign(ex, ey, dx, dy)
        return numerator != 0 && numerator == denominator
    }

    /// Even–odd point-in-ring for a point given at twice its coordinates (`px2`, `py2`), so that midpoints
    /// of segments are exact; the point must not lie on the ring.
    static func ringContains(doubledX px2: Int64, doubledY py2: Int64, ring: [RingPoint]) -> Bool {
        var inside = false
        let n = ring.count
        guard n >= 3 else { return false }
        var b = ring[n - 1]
        for a in ring {
            let ay = 2 * a.y, by = 2 * b.y
            if (ay > py2) != (by > py2) {
                let ax = 2 * a.x, bx = 2 * b.x
                // The crossing is right of the point when the point is left of the upward edge.
                let o = crossSign(bx - ax, by - ay, px2 - ax, py2 - ay)
                if (by > ay) ? (o > 0) : (o < 0) { inside.toggle() }
            }
            b = a
        }
        return inside
    }
}

/// A ring's edges sorted by their lowest y, so that a point-in-ring test looks only at the edges that
/// reach the point's height: a hole tested against a 50 000-node boundary costs a binary search and a
/// handful of edges instead of a pass over the ring.
struct RingEdgeIndex {
    /// Edge endpoints at twice their coordinates (so that segment midpoints are exact), by lowest y.
    private var starts: [RingPoint] = []
    private var ends: [RingPoint] = []
    private var lows: [Int64] = []
    private var tallest: Int64 = 0

    init(ring: [RingPoint]) {
        let n = ring.count
        guard n >= 3 else { return }
        var order: [(low: Int64, a: RingPoint, b: RingPoint)] = []
        order.reserveCapacity(n)
        var b = ring[n - 1]
        for a in ring {
            let a2 = RingPoint(x: 2 * a.x, y: 2 * a.y), b2 = RingPoint(x: 2 * b.x, y: 2 * b.y)
            order.append((min(a2.y, b2.y), a2, b2))
            tallest = max(tallest, abs(a2.y - b2.y))
            b = a
        }
        order.sort { $0.low < $1.low }
        starts = order.map(\.a)
        ends = order.map(\.b)
        lows = order.map(\.low)
    }

    /// Even–odd containment of a point given at twice its coordinates; the point must not lie on the
    /// ring. Agrees with ``RingPredicates/ringContains(doubledX:doubledY:ring:)``.
    func contains(doubledX px2: Int64, doubledY py2: Int64) -> Bool {
        var lo = 0, hi = lows.count
        let floor = py2 - tallest
        while lo < hi {
            let mid = (lo + hi) / 2
            if lows[mid] < floor { lo = mid + 1 } else { hi = mid }
        }
        var inside = false
        var k = lo
        while k < lows.count, lows[k] <= py2 {
            let a = starts[k], b = ends[k]
            k += 1
            if (a.y > py2) != (b.y > py2) {
                let o = RingPredicates.crossSign(b.x - a.x, b.y - a.y, px2 - a.x, py2 - a.y)
                if (b.y > a.y) ? (o > 0) : (o < 0) { inside.toggle() }
            }
        }
        return inside
    }
}
