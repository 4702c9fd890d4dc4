import Foundation

/// Clipping of polygons and polylines to an axis-aligned rectangle, as a tile builder clips features
/// to a tile and its buffer.
///
/// The rectangle is taken as **closed**: points on its edges are inside (unlike
/// `MKMapRect.contains(_:)`, which leaves out the maximum edges), so a line running
/// exactly along a tile edge is kept, and neighbouring tiles both keep it. Intersection points lie
/// exactly on the rectangle's edges, and are computed the same way whichever direction an edge is
/// traversed, so polygons sharing an edge produce the same cut points.
///
/// Non-finite vertices never reach the output: a NaN or infinite vertex is treated as outside.
/// Rectangles that cross the 180th meridian are not split here: clip against each of
/// ``MKMapRect/worldPieces`` (with the geometry shifted by a world width where needed).
public enum Clipping {

    // MARK: Polygons

    /// Clips a polygon (exterior ring first, then holes) to `rect` by Sutherland–Hodgman, ring by ring.
    ///
    /// Each ring keeps its orientation. A ring that vanishes (fewer than three vertices, or no area,
    /// left inside) is dropped; when the exterior vanishes the whole polygon does and the result is
    /// empty. A ring wholly inside is returned unchanged; a ring that encloses the rectangle becomes
    /// the rectangle. Rings may be open or closed (first vertex repeated); each result follows its input.
    ///
    /// Like every tile clipper built on Sutherland–Hodgman, a concave ring that leaves and re-enters
    /// the rectangle comes back as **one** ring whose pieces are joined by zero-area edges running
    /// along the rectangle's boundary (a U cut across both arms gives two squares joined along the
    /// cut). The result fills correctly, and the joining edges lie on the boundary, where the tile's
    /// buffer hides them; strokes of polygon outlines should come from the unclipped rings or skip
    /// boundary edges.
    public static func clipPolygon(_ polygon: [[MKMapPoint]], to rect: MKMapRect) -> [[MKMapPoint]] {
        guard let exterior = polygon.first, !rect.isNull else { return [] }
        var clipper = RingClipper(rect: rect, capacity: exterior.count)
        guard let clippedExterior = clipper.clip(exterior) else { return [] }
        var result: [[MKMapPoint]] = []
        result.reserveCapacity(polygon.count)
        result.append(clippedExterior)
        for hole in polygon.dropFirst() {
            if let clipped = clipper.clip(hole) { result.append(clipped) }
        }
        return result
    }

    /// Clips one ring to `rect` by Sutherland–Hodgman; `nil` when nothing with area is left.
    /// See ``clipPolygon(_:to:)`` for the rules.
    public static func clipRing(_ ring: [MKMapPoint], to rect: MKMapRect) -> [MKMapPoint]? {
        guard !rect.isNull else { return nil }
        var clipper = RingClipper(rect: rect, capacity: ring.count)
        return clipper.clip(ring)
    }

    // MARK: Polylines

    /// Clips a polyline to `rect`, segment by segment (Liang–Barsky), splitting it into a piece for
    /// each stretch inside the rectangle.
    ///
    /// Pieces keep the input's direction and its points; cut points are added on the rectangle's
    /// edges. A piece with no length (a line touching the rectangle at one point) is dropped, as is a
    /// line of fewer than two points. A line wholly inside comes back as one unchanged piece.
    public static func clipPolyline(_ points: [MKMapPoint], to rect: MKMapRect) -> [[MKMapPoint]] {
        let n = points.count
        guard n >= 2, !rect.isNull else { return [] }
        let box = Box(rect)
        return points.withUnsafeBufferPointer { p -> [[MKMapPoint]] in
            if box.containsAll(p) { return hasLength(p[...]) ? [points] : [] }
            var pieces: [[MKMapPoint]] = []
            var current: [MKMapPoint] = []

            func finishPiece() {
                if current.count >= 2 && hasLength(current[...]) { pieces.append(current) }
                current = []
            }

            for i in 1..<n {
                let a = p[i - 1], b = p[i]
                guard let s = box.clipSegment(a, b) else {
                    finishPiece()
                    continue
                }
                let start = s.t0 == 0 ? a : s.start
                let end = s.t1 == 1 ? b : s.end
                if s.t0 == 0 && !current.isEmpty {
                    // Continuing from the previous segment, which ended inside at `a`. Input points
                    // are kept as they are; a cut point equal to the last point adds nothing.
                    if s.t1 == 1 || end != current[current.count - 1] { current.append(end) }
                } else {
                    finishPiece()
                    current.append(start)
                    if end != start { current.append(end) }
                }
                if s.t1 < 1 { finishPiece() }
            }
            finishPiece()
            return pieces
        }
    }

    // MARK: Internals

    static func hasLength(_ p: ArraySlice<MKMapPoint>) -> Bool {
        guard let first = p.first else { return false }
        for q in p where q != first { return true }
        return false
    }

    static func hasLength(_ p: Slice<UnsafeBufferPointer<MKMapPoint>>) -> Bool {
        guard let first = p.first else { return false }
        for q in p where q != first { return true }
        return false
    }

    /// The rectangle's bounds, and the cuts of segments against them.
    struct Box {
        let minX: Double, minY: Double, maxX: Double, maxY: Double

        init(_ rect: MKMapRect) {
            minX = rect.minX
            minY = rect.minY
            maxX = rect.maxX
            maxY = rect.maxY
        }

        /// Whether every point is finite and inside (edges included).
        func containsAll(_ p: UnsafeBufferPointer<MKMapPoint>) -> Bool {
            for q in p {
                // Written so that NaN fails the test.
                guard q.x >= minX && q.x <= maxX && q.y >= minY && q.y <= maxY else { return false }
            }
            return true
        }

        /// Whether every point lies beyond one edge (so nothing of the ring can be inside).
        func allBeyondOneEdge(_ p: UnsafeBufferPointer<MKMapPoint>) -> Bool {
            var left = true, right = true, above = true, below = true
            for q in p {
                left = left && q.x < minX
                right = right && q.x > maxX
                above = above && q.y < minY
                below = below && q.y > maxY
                if !(left || right || above || below) { return false }
            }
            return true
        }

        /// The part of segment `a`–`b` inside the box (Liang–Barsky) as parameters along it and the
        /// cut points snapped to the edges they lie on; `nil` when none of it is inside.
        func clipSegment(_ a: MKMapPoint, _ b: MKMapPoint)
            -> (t0: Double, t1: Double, start: MKMapPoint, end: MKMapPoint)?
        {
            guard a.x.isFinite, a.y.isFinite, b.x.isFinite, b.y.isFinite else { return nil }
            let dx = b.x - a.x, dy = b.y - a.y
            var t0 = 0.0, t1 = 1.0
            var enterEdge = -1, leaveEdge = -1
            // Edges 0…3: left, right, top (minY), bottom (maxY); p·t ≤ q keeps the inside.
            for edge in 0..<4 {
                let p: Double, q: Double
                switch edge {
                case 0: p = -dx; q = a.x - minX
                case 1: p = dx; q = maxX - a.x
                case 2: p = -dy; q = a.y - minY
                default: p = dy; q = maxY - a.y
                }
                if p == 0 {
                    if q < 0 { return nil }   // parallel to this edge and outside it
                    continue
                }
                let r = q / p
                if p < 0 {
                    if r > t1 { return nil }
                    if r > t0 { t0 = r; enterEdge = edge }
                } else {
                    if r < t0 { return nil }
                    if r < t1 { t1 = r; leaveEdge = edge }
                }
            }
            let start = enterEdge < 0 ? a : cut(a, b, edge: enterEdge)
            let end = leaveEdge < 0 ? b : cut(a, b, edge: leaveEdge)
            return (t0, t1, start, end)
        }

        /// Where segment `a`–`b` meets the line of `edge`, with the other coordinate clamped to the box
        /// (the true value lies inside it; rounding could put it a hair outside).
        @inline(__always)
        func cut(_ a: MKMapPoint, _ b: MKMapPoint, edge: Int) -> MKMapPoint {
            switch edge {
            case 0: return MKMapPoint(x: minX, y: min(max(Clipping.crossX(a, b, minX), minY), maxY))
            case 1: return MKMapPoint(x: maxX, y: min(max(Clipping.crossX(a, b, maxX), minY), maxY))
            case 2: return MKMapPoint(x: min(max(Clipping.crossY(a, b, minY), minX), maxX), y: minY)
            default: return MKMapPoint(x: min(max(Clipping.crossY(a, b, maxY), minX), maxX), y: maxY)
            }
        }
    }

    /// The y at which segment `a`–`b` crosses the vertical line at `x` (the segment must cross it).
    /// The endpoints are put in a fixed order first, so the answer does not depend on the direction.
    @inline(__always)
    static func crossX(_ a: MKMapPoint, _ b: MKMapPoint, _ x: Double) -> Double {
        let (p, q) = a.x < b.x || (a.x == b.x && a.y < b.y) ? (a, b) : (b, a)
        let y = p.y + (x - p.x) * (q.y - p.y) / (q.x - p.x)
        // Clamping to the segment's span also absorbs overflow with coordinates near ±1e308.
        return y.isNaN ? p.y : min(max(y, min(p.y, q.y)), max(p.y, q.y))
    }

    /// The x at which segment `a`–`b` crosses the horizontal line at `y` (see ``crossX(_:_:_:)``).
    @inline(__always)
    static func crossY(_ a: MKMapPoint, _ b: MKMapPoint, _ y: Double) -> Double {
        let (p, q) = a.y < b.y || (a.y == b.y && a.x < b.x) ? (a, b) : (b, a)
        let x = p.x + (y - p.y) * (q.x - p.x) / (q.y - p.y)
        return x.isNaN ? p.x : min(max(x, min(p.x, q.x)), max(p.x, q.x))
    }

    /// Sutherland–Hodgman against the four edges, with two buffers reused across passes and rings.
    struct RingClipper {
        let box: Box
        var front: [MKMapPoint] = []
        var back: [MKMapPoint] = []

        init(rect: MKMapRect, capacity: Int) {
            box = Box(rect)
            // Each pass adds at most one point per edge it cuts; twice the input is ample for most
            // rings, and the arrays grow if a pathological ring needs more.
            front.reserveCapacity(2 * capacity + 8)
            back.reserveCapacity(2 * capacity + 8)
        }

        mutating func clip(_ ring: [MKMapPoint]) -> [MKMapPoint]? {
            let (m, closed) = PlanarPolygon.ringShape(ring)
            guard m >= 3 else { return nil }
            let verdict: Bool? = ring.withUnsafeBufferPointer { full in
                let vertices = UnsafeBufferPointer(rebasing: full[0..<m])
                if box.containsAll(vertices) { return true }
                if box.allBeyondOneEdge(vertices) { return false }
                front.removeAll(keepingCapacity: true)
                // Non-finite vertices are dropped here so no cut is ever computed from one.
                for q in vertices where q.x.isFinite && q.y.isFinite { front.append(q) }
                return nil
            }
            switch verdict {
            case true?:
                return PlanarPolygon.signedArea(ring) != 0 ? ring : nil
            case false?:
                return nil
            case nil:
                break
            }
            for edge in 0..<4 {
                pass(edge: edge)
                swap(&front, &back)
                if front.count < 3 { return nil }
            }
            guard PlanarPolygon.signedArea(front) != 0 else { return nil }
            var result: [MKMapPoint] = []
            result.reserveCapacity(front.count + 1)
            result.append(contentsOf: front)
            if closed { result.append(front[0]) }
            return result
        }

        /// One Sutherland–Hodgman pass from `front` into `back` against `edge` (0…3: left, right, top,
        /// bottom). A vertex on the edge counts as inside; a cut point is added only where the ring goes
        /// strictly from one side to the other, so vertices on the edge are not doubled.
        mutating func pass(edge: Int) {
            back.removeAll(keepingCapacity: true)
            let n = front.count
            guard n > 0 else { return }
            let box = self.box
            @inline(__always) func side(_ q: MKMapPoint) -> Double {
                switch edge {
                case 0: return q.x - box.minX
                case 1: return box.maxX - q.x
                case 2: return q.y - box.minY
                default: return box.maxY - q.y
                }
            }
            @inline(__always) func cut(_ a: MKMapPoint, _ b: MKMapPoint) -> MKMapPoint {
                switch edge {
                case 0: return MKMapPoint(x: box.minX, y: Clipping.crossX(a, b, box.minX))
                case 1: return MKMapPoint(x: box.maxX, y: Clipping.crossX(a, b, box.maxX))
                case 2: return MKMapPoint(x: Clipping.crossY(a, b, box.minY), y: box.minY)
                default: return MKMapPoint(x: Clipping.crossY(a, b, box.maxY), y: box.maxY)
                }
            }
            front.withUnsafeBufferPointer { input in
                var previous = input[n - 1]
                var previousSide = side(previous)
                for i in 0..<n {
                    let current = input[i]
                    let currentSide = side(current)
                    if currentSide >= 0 {
                        if previousSide < 0 && currentSide > 0 { back.append(cut(previous, current)) }
                        back.append(current)
                    } else if currentSide < 0 && previousSide > 0 {
                        back.append(cut(previous, current))
                    }
                    previous = current
                    previousSide = currentSide
                }
            }
        }
    }
}
