import Foundation

/// Mercator-projected coordinates, so "inside" matches what the map shows (straight edges on screen).
private func projectMercator(_ p: [Double]) -> (x: Double, y: Double) { project(p) }

private func project(_ p: [Double]) -> (x: Double, y: Double) {
    let lat = max(min(p[1], 85.051129), -85.051129)
    return (p[0], log(tan(.pi / 4 + lat * .pi / 360)) * 180 / .pi)
}

private typealias Pt = (x: Double, y: Double)

private func onSegment(_ p: Pt, _ a: Pt, _ b: Pt) -> Bool {
    let cross = (p.x - a.x) * (b.y - a.y) - (p.y - a.y) * (b.x - a.x)
    return abs(cross) < 1e-12 && (p.x - a.x) * (p.x - b.x) <= 0 && (p.y - a.y) * (p.y - b.y) <= 0
}

/// Strictly inside (points on an edge are not within).
private func pointInPolygon(_ p: Pt, _ rings: [[Pt]]) -> Bool {
    var inside = false
    for ring in rings {
        guard ring.count > 1 else { continue }
        var j = ring.count - 1
        for i in 0..<ring.count {
            let a = ring[i], b = ring[j]
            if onSegment(p, a, b) { return false }
            if (a.y > p.y) != (b.y > p.y), p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x { inside.toggle() }
            j = i
        }
    }
    return inside
}

private func segmentsCross(_ p1: Pt, _ p2: Pt, _ q1: Pt, _ q2: Pt) -> Bool {
    func orient(_ a: Pt, _ b: Pt, _ c: Pt) -> Double { (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x) }
    let d1 = orient(q1, q2, p1), d2 = orient(q1, q2, p2), d3 = orient(p1, p2, q1), d4 = orient(p1, p2, q2)
    return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))
}

private func lineInPolygon(_ line: [Pt], _ rings: [[Pt]]) -> Bool {
    guard line.allSatisfy({ pointInPolygon($0, rings) }) else { return false }
    for i in 0..<max(0, line.count - 1) {
        for ring in rings {
            for j in 0..<max(0, ring.count - 1) where segmentsCross(line[i], line[i + 1], ring[j], ring[j + 1]) { return false }
        }
    }
    return true
}

/// `within`: whether the feature lies entirely inside the given (multi)polygon.
final class WithinNode: ExprNode {
    private let polygons: [[[Pt]]]
    private let lonLatPolygons: [[[[Double]]]]
    init(polygons: [[[[Double]]]]) {
        self.lonLatPolygons = polygons
        self.polygons = polygons.map { $0.map { $0.map(project) } }
    }
    var type: ExpressionType { .boolean }
    var ownDependencies: Dependencies { [.feature, .opaque] }
    func evaluate(_ ctx: EvaluationContext) throws(ExpressionError) -> ExpressionValue {
        guard let geometry = ctx.geometry else { return .boolean(false) }
        var polygons = self.polygons
        var project: ([Double]) -> Pt = projectMercator
        if let tile = ctx.canonicalTile {
            // Work in the tile's integer grid, as the feature's own coordinates are.
            let tiles = pow(2, Double(tile.z)), extent = 8192.0
            project = { p in
                let m = projectMercator(p)
                let mx = (180 + m.x) / 360, my = (180 - m.y) / 360
                return (((mx * tiles - Double(tile.x)) * extent).rounded(), ((my * tiles - Double(tile.y)) * extent).rounded())
            }
            polygons = lonLatPolygons.map { $0.map { $0.map(project) } }
        }
        switch geometry {
        case .points(let pts):
            // Points may be given in another world copy than the polygon (across the antimeridian).
            return .boolean(pts.allSatisfy { p in
                [0.0, 360, -360].contains { shift in polygons.contains { pointInPolygon(project([p[0] + shift, p[1]]), $0) } }
            })
        case .lines(let lines):
            return .boolean(lines.allSatisfy { l in let line = l.map(project); return polygons.contains { lineInPolygon(line, $0) } })
        case .polygons:
            return .boolean(false)
        }
    }
}

/// Distances in meters on the WGS84 ellipsoid, flat-earth approximated around a reference latitude
/// (accurate for the short distances styles care about).
private struct Ruler {
    let kx: Double, ky: Double
    init(latitude: Double) {
        let re = 6378.137, fe = 1 / 298.257223563, e2 = fe * (2 - fe), rad = Double.pi / 180
        let m = rad * re * 1000
        let coslat = cos(latitude * rad)
        let w2 = 1 / (1 - e2 * (1 - coslat * coslat))
        let w = w2.squareRoot()
        kx = m * w * coslat
        ky = m * w * w2 * (1 - e2)
    }
    func distance(_ a: [Double], _ b: [Double]) -> Double {
        var dx = a[0] - b[0]
        while dx < -180 { dx += 360 }
        while dx > 180 { dx -= 360 }
        let x = dx * kx, y = (a[1] - b[1]) * ky
        return (x * x + y * y).squareRoot()
    }
    func pointToSegment(_ p: [Double], _ a: [Double], _ b: [Double]) -> Double {
        var x = a[0], y = a[1]
        let dx = (b[0] - x) * kx, dy = (b[1] - y) * ky
        if dx != 0 || dy != 0 {
            let t = ((p[0] - x) * kx * dx + (p[1] - y) * ky * dy) / (dx * dx + dy * dy)
            if t > 1 { x = b[0]; y = b[1] } else if t > 0 { x += dx / kx * t; y += dy / ky * t }
        }
        return distance(p, [x, y])
    }
}

final class DistanceNode: ExprNode {
    let geometry: ExpressionGeometry
    init(geometry: ExpressionGeometry) { self.geometry = geometry }
    var type: ExpressionType { .number }
    var ownDependencies: Dependencies { [.feature, .opaque] }

    func evaluate(_ ctx: EvaluationContext) throws(ExpressionError) -> ExpressionValue {
        guard let feature = ctx.geometry else { return .number(.nan) }
        let ref = firstPoint(feature) ?? [0, 0]
        let ruler = Ruler(latitude: ref[1])
        return .number(distance(feature, geometry, ruler))
    }

    private func firstPoint(_ g: ExpressionGeometry) -> [Double]? {
        switch g {
        case .points(let p): p.first
        case .lines(let l): l.first?.first
        case .polygons(let p): p.first?.first?.first
        }
    }

    /// Segments and lone points making up a geometry (polygon rings as closed lines).
    private func parts(_ g: ExpressionGeometry) -> (points: [[Double]], segments: [([Double], [Double])], polygons: [[[[Double]]]]) {
        switch g {
        case .points(let p): return (p, [], [])
        case .lines(let ls):
            var segs: [([Double], [Double])] = []
            var pts: [[Double]] = []
            for l in ls { if l.count == 1 { pts.append(l[0]) }; for i in 0..<max(0, l.count - 1) { segs.append((l[i], l[i + 1])) } }
            return (pts, segs, [])
        case .polygons(let ps):
            var segs: [([Double], [Double])] = []
            for p in ps { for r in p { for i in 0..<max(0, r.count - 1) { segs.append((r[i], r[i + 1])) } } }
            return ([], segs, ps)
        }
    }

    private func distance(_ a: ExpressionGeometry, _ b: ExpressionGeometry, _ ruler: Ruler) -> Double {
        let pa = parts(a), pb = parts(b)
        // Anything inside a polygon is at distance 0.
        func inside(_ p: [Double], _ polys: [[[[Double]]]]) -> Bool {
            polys.contains { poly in pointInPolygon(project(p), poly.map { $0.map(project) }) }
        }
        let verticesA = pa.points + pa.segments.flatMap { [$0.0, $0.1] }
        let verticesB = pb.points + pb.segments.flatMap { [$0.0, $0.1] }
        if verticesA.contains(where: { inside($0, pb.polygons) }) || verticesB.contains(where: { inside($0, pa.polygons) }) { return 0 }
        for s in pa.segments { for t in pb.segments where segmentsCross(project(s.0), project(s.1), project(t.0), project(t.1)) { return 0 } }
        var best = Double.infinity
        for p in pa.points {
            for q in pb.points { best = min(best, ruler.distance(p, q)) }
            for t in pb.segments { best = min(best, ruler.pointToSegment(p, t.0, t.1)) }
        }
        for s in pa.segments {
            for q in pb.points { best = min(best, ruler.pointToSegment(q, s.0, s.1)) }
            for t in pb.segments {
                best = min(best, ruler.pointToSegment(s.0, t.0, t.1), ruler.pointToSegment(s.1, t.0, t.1),
                           ruler.pointToSegment(t.0, s.0, s.1), ruler.pointToSegment(t.1, s.0, s.1))
            }
        }
        return best
    }
}
