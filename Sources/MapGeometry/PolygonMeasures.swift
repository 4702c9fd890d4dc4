import Foundation

// Planar measures of polygons: signed area, orientation, centroid, point-in-polygon, and a small-polygon
// area in square metres.
//
// Rings: a polygon is `[[MKMapPoint]]`, the exterior ring first and its holes after it. A ring may repeat
// its first vertex at the end (closed, as GeoJSON writes rings) or not (open); every function here
// accepts both, because the closing edge of a closed ring has zero length and adds nothing.
//
// Sign convention: the shoelace sum ½·Σ (xᵢ·yᵢ₊₁ − xᵢ₊₁·yᵢ) is positive for a ring that turns from the
// +x axis towards the +y axis. Map points have y growing *south* (down the screen), so in map-point and
// tile space a positive area means the ring runs **clockwise as drawn on a north-up map**. In
// geographic (longitude, latitude) space y grows north, so a positive area there means
// **counter-clockwise**. The same ring therefore has opposite signs in the two spaces, but the same
// orientation as seen on a map.

/// Which way a polygon's rings should wind: a file format's rule for exterior rings and holes.
public enum PolygonWinding: Sendable, Hashable {
    /// GeoJSON (RFC 7946 §3.1.6): exterior rings counter-clockwise, holes clockwise, as seen on a
    /// north-up map. Exterior rings have a positive shoelace area in (longitude, latitude) space and a
    /// negative one in map-point (y-down) space.
    case rfc7946
    /// Mapbox Vector Tile 2.1 §4.3.4.4: exterior rings clockwise, holes counter-clockwise, in tile
    /// coordinates where y grows down, i.e. exterior rings have a positive shoelace area in map-point
    /// or tile (y-down) space — the opposite of ``rfc7946``.
    case mapboxVectorTile
}

/// Planar measures of polygons given in map points (or any y-down planar space, such as tile-local
/// coordinates stored in `MKMapPoint`).
///
/// A polygon is an array of rings, the exterior first and its holes after it; a ring may or may not
/// repeat its first vertex at the end. Areas are in square input units. See ``PolygonWinding`` and
/// `signedArea(_:)` for the sign conventions.
public enum PlanarPolygon {

    // MARK: Area and orientation

    /// The shoelace area of a ring in map-point space: positive when the ring runs clockwise on a
    /// north-up map (y grows down), negative when counter-clockwise, 0 for fewer than three vertices.
    ///
    /// Coordinates are taken relative to the first vertex, so a small ring far from the origin (map
    /// points reach 2²⁸) keeps its precision.
    public static func signedArea(_ ring: [MKMapPoint]) -> Double {
        ring.withUnsafeBufferPointer { signedArea($0) }
    }

    /// The shoelace area of a ring in (longitude, latitude) space, in square degrees: positive when the
    /// ring runs counter-clockwise on a north-up map, negative when clockwise.
    ///
    /// Only meaningful for rings that do not cross the 180th meridian; the value is not an area on the
    /// Earth (use ``areaInSquareMeters(_:)`` on projected points, or a geodesic area).
    public static func signedArea(_ ring: [CLLocationCoordinate2D]) -> Double {
        let n = ring.count
        guard n >= 3 else { return 0 }
        let ox = ring[0].longitude, oy = ring[0].latitude
        var sum = 0.0
        var px = ring[n - 1].longitude - ox, py = ring[n - 1].latitude - oy
        for c in ring {
            let cx = c.longitude - ox, cy = c.latitude - oy
            sum += px * cy - cx * py
            px = cx
            py = cy
        }
        return sum / 2
    }

    /// Whether a ring of map points runs clockwise as seen on a north-up map (positive shoelace area in
    /// y-down space). Rings without area are not clockwise.
    public static func isClockwise(_ ring: [MKMapPoint]) -> Bool {
        signedArea(ring) > 0
    }

    /// Whether a ring of coordinates runs clockwise as seen on a north-up map (negative shoelace area
    /// in (longitude, latitude) space). Rings without area are not clockwise.
    public static func isClockwise(_ ring: [CLLocationCoordinate2D]) -> Bool {
        signedArea(ring) < 0
    }

    /// The area of a polygon: the exterior ring's area less its holes', whichever way each ring winds;
    /// never negative.
    public static func area(_ polygon: [[MKMapPoint]]) -> Double {
        guard let exterior = polygon.first else { return 0 }
        var total = abs(signedArea(exterior))
        for hole in polygon.dropFirst() { total -= abs(signedArea(hole)) }
        return total > 0 ? total : 0
    }

    /// The area of a small polygon in square metres: its map-point area scaled by the square of
    /// ``MKMetersPerMapPointAtLatitude(_:)`` at the latitude of its centroid.
    ///
    /// Mercator's scale changes with latitude, so this is exact only in the limit of small polygons;
    /// the relative error grows roughly with the square of the polygon's north–south extent (about
    /// 10⁻⁴ for a polygon 100 km tall at mid latitudes). For large polygons use a geodesic area
    /// computed on the ellipsoid, which belongs with ``Geodesic``.
    public static func areaInSquareMeters(_ polygon: [[MKMapPoint]]) -> Double {
        let a = area(polygon)
        guard a > 0, let c = centroid(polygon) else { return 0 }
        let metersPerPoint = MKMetersPerMapPointAtLatitude(c.coordinate.latitude)
        return a * metersPerPoint * metersPerPoint
    }

    // MARK: Orientation normalisation

    /// The polygon with its rings reversed where needed to follow `winding` (the first ring is the
    /// exterior, the others holes). Rings without area are left as they are.
    public static func oriented(_ polygon: [[MKMapPoint]], winding: PolygonWinding) -> [[MKMapPoint]] {
        var copy = polygon
        orient(&copy, winding: winding)
        return copy
    }

    /// Reverses the rings of `polygon` in place where needed to follow `winding` (the first ring is the
    /// exterior, the others holes). Rings without area are left as they are.
    public static func orient(_ polygon: inout [[MKMapPoint]], winding: PolygonWinding) {
        // In y-down space the vector-tile exterior is positive and the GeoJSON exterior negative.
        let exteriorSign: Double = winding == .mapboxVectorTile ? 1 : -1
        for i in polygon.indices {
            let wanted = i == 0 ? exteriorSign : -exteriorSign
            let a = signedArea(polygon[i])
            if a * wanted < 0 { polygon[i].reverse() }
        }
    }

    /// The polygon of coordinates with its rings reversed where needed to follow `winding` (the first
    /// ring is the exterior, the others holes). Rings without area are left as they are.
    public static func oriented(_ polygon: [[CLLocationCoordinate2D]], winding: PolygonWinding) -> [[CLLocationCoordinate2D]] {
        var copy = polygon
        orient(&copy, winding: winding)
        return copy
    }

    /// Reverses the rings of a polygon of coordinates in place where needed to follow `winding`.
    public static func orient(_ polygon: inout [[CLLocationCoordinate2D]], winding: PolygonWinding) {
        // In (longitude, latitude) space y grows north, so the signs are the other way round.
        let exteriorSign: Double = winding == .rfc7946 ? 1 : -1
        for i in polygon.indices {
            let wanted = i == 0 ? exteriorSign : -exteriorSign
            let a = signedArea(polygon[i])
            if a * wanted < 0 { polygon[i].reverse() }
        }
    }

    // MARK: Centroid

    /// The centre of mass of a polygon with holes (holes subtract, whichever way the rings wind).
    ///
    /// A polygon without area falls back to the centre of its exterior ring's outline (edges weighted
    /// by length), and a polygon whose outline has no length to its first vertex. `nil` for an empty
    /// polygon or when the answer is not finite (non-finite input).
    ///
    /// The centroid of a non-convex polygon may lie outside it; for a label use
    /// ``poleOfInaccessibility(polygon:precision:maximumCellCount:)``.
    public static func centroid(_ polygon: [[MKMapPoint]]) -> MKMapPoint? {
        guard let exterior = polygon.first, let origin = exterior.first else { return nil }
        var area2 = 0.0, momentX = 0.0, momentY = 0.0
        var exteriorArea2 = 0.0, exteriorMomentX = 0.0, exteriorMomentY = 0.0
        for (index, ring) in polygon.enumerated() {
            let m = ring.withUnsafeBufferPointer { ringMoments($0, origin: origin) }
            // Exterior counts positive and holes negative regardless of the input's winding.
            let sign: Double = index == 0 ? (m.area2 >= 0 ? 1 : -1) : (m.area2 <= 0 ? 1 : -1)
            area2 += sign * m.area2
            momentX += sign * m.momentX
            momentY += sign * m.momentY
            if index == 0 {
                exteriorArea2 = sign * m.area2
                exteriorMomentX = sign * m.momentX
                exteriorMomentY = sign * m.momentY
            }
        }
        // Any non-finite vertex poisons the sums; there is no meaningful answer then.
        guard area2.isFinite, momentX.isFinite, momentY.isFinite else { return nil }
        let result: MKMapPoint
        if area2 > 0 {
            result = MKMapPoint(x: origin.x + momentX / (3 * area2), y: origin.y + momentY / (3 * area2))
        } else if exteriorArea2 > 0 {
            // Holes at least as large as the exterior: an invalid polygon; the exterior is the best guess.
            result = MKMapPoint(x: origin.x + exteriorMomentX / (3 * exteriorArea2),
                                y: origin.y + exteriorMomentY / (3 * exteriorArea2))
        } else {
            result = exterior.withUnsafeBufferPointer { outlineCentre($0) } ?? origin
        }
        return result.x.isFinite && result.y.isFinite ? result : nil
    }

    // MARK: Point in polygon

    /// Whether `point` lies inside the polygon by the even–odd rule: inside the exterior ring and not
    /// inside a hole (rings that overlap cancel, as even–odd fill does).
    ///
    /// Points exactly on an edge are decided by a half-open rule (an edge owns its lower endpoint in y
    /// and the area to the right of it), so of two polygons sharing an edge, a point on that edge is
    /// counted in exactly one of them, except at shared vertices.
    public static func contains(_ point: MKMapPoint, in polygon: [[MKMapPoint]]) -> Bool {
        var inside = false
        for ring in polygon where ring.count >= 3 {
            ring.withUnsafeBufferPointer { p in
                if crossingParity(point, p) { inside.toggle() }
            }
        }
        return inside
    }

    // MARK: Internal helpers shared by clipping, simplification and label placement

    /// The shoelace area of a ring given as a buffer (see `signedArea(_:)`).
    static func signedArea(_ p: UnsafeBufferPointer<MKMapPoint>) -> Double {
        let n = p.count
        guard n >= 3 else { return 0 }
        let ox = p[0].x, oy = p[0].y
        var sum = 0.0
        var px = p[n - 1].x - ox, py = p[n - 1].y - oy
        for i in 0..<n {
            let cx = p[i].x - ox, cy = p[i].y - oy
            sum += px * cy - cx * py
            px = cx
            py = cy
        }
        return sum / 2
    }

    /// Twice the signed area and the first moments (times 6·area, before division) of a ring, all
    /// relative to `origin`.
    static func ringMoments(_ p: UnsafeBufferPointer<MKMapPoint>, origin: MKMapPoint)
        -> (area2: Double, momentX: Double, momentY: Double)
    {
        let n = p.count
        guard n >= 3 else { return (0, 0, 0) }
        var a2 = 0.0, mx = 0.0, my = 0.0
        var px = p[n - 1].x - origin.x, py = p[n - 1].y - origin.y
        for i in 0..<n {
            let cx = p[i].x - origin.x, cy = p[i].y - origin.y
            let cross = px * cy - cx * py
            a2 += cross
            mx += (px + cx) * cross
            my += (py + cy) * cross
            px = cx
            py = cy
        }
        return (a2, mx, my)
    }

    /// The length-weighted centre of a ring's edges; `nil` when the outline has no length.
    static func outlineCentre(_ p: UnsafeBufferPointer<MKMapPoint>) -> MKMapPoint? {
        let n = p.count
        guard n >= 2 else { return nil }
        let ox = p[0].x, oy = p[0].y
        var length = 0.0, sx = 0.0, sy = 0.0
        var prev = p[n - 1]
        for i in 0..<n {
            let cur = p[i]
            let l = ((cur.x - prev.x) * (cur.x - prev.x) + (cur.y - prev.y) * (cur.y - prev.y)).squareRoot()
            length += l
            sx += l * ((prev.x - ox) + (cur.x - ox)) / 2
            sy += l * ((prev.y - oy) + (cur.y - oy)) / 2
            prev = cur
        }
        guard length > 0 else { return nil }
        return MKMapPoint(x: ox + sx / length, y: oy + sy / length)
    }

    /// Whether a ray from `point` towards +x crosses the ring's edges an odd number of times.
    @inline(__always)
    static func crossingParity(_ point: MKMapPoint, _ p: UnsafeBufferPointer<MKMapPoint>) -> Bool {
        var odd = false
        let n = p.count
        guard n > 0 else { return false }
        var b = p[n - 1]
        for i in 0..<n {
            let a = p[i]
            if (a.y > point.y) != (b.y > point.y) {
                let xCross = a.x + (point.y - a.y) * (b.x - a.x) / (b.y - a.y)
                if point.x < xCross { odd.toggle() }
            }
            b = a
        }
        return odd
    }

    /// The squared distance from `p` to the segment `a`–`b`.
    ///
    /// Inside the segment's span the distance comes from the cross product, so a point exactly on the
    /// line (collinear input on a grid) gives exactly 0.
    @inline(__always)
    static func squaredSegmentDistance(_ p: MKMapPoint, _ a: MKMapPoint, _ b: MKMapPoint) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        let px = p.x - a.x, py = p.y - a.y
        let length2 = dx * dx + dy * dy
        let dot = px * dx + py * dy
        if length2 == 0 || dot <= 0 { return px * px + py * py }
        if dot >= length2 {
            let qx = p.x - b.x, qy = p.y - b.y
            return qx * qx + qy * qy
        }
        let cross = px * dy - py * dx
        return cross * cross / length2
    }

    /// The number of distinct vertices of a ring and whether it repeats its first vertex at the end.
    @inline(__always)
    static func ringShape(_ ring: [MKMapPoint]) -> (vertexCount: Int, closed: Bool) {
        let n = ring.count
        if n >= 2, ring[0] == ring[n - 1] { return (n - 1, true) }
        return (n, false)
    }
}
