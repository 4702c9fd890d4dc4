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
    /// boundary edges. The result is not a valid (OGC simple features) polygon then: use
    /// ``clipPolygonParts(_:to:)`` where valid output matters, e.g. for vector tiles.
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

    /// Clips a polygon (exterior ring first, then holes) to `rect`, returning what is left as
    /// separate **valid** polygons (OGC simple features), each its exterior ring followed by its holes.
    ///
    /// Where ``clipPolygon(_:to:)`` joins the pieces of a ring that leaves and re-enters the rectangle
    /// by zero-area edges along the boundary, this returns each piece as a polygon of its own (a U cut
    /// across both arms gives two squares), and a hole cut by the boundary opens into the exterior
    /// around it. The filled area is the same as ``clipPolygon(_:to:)``'s.
    ///
    /// It is Weiler–Atherton specialised to a rectangle: each ring is cut into *chains*, the stretches
    /// that run through the rectangle's interior from an entry point on its boundary to an exit point;
    /// chains are oriented so the polygon lies on their left (exteriors one way, holes the other), and
    /// each part is closed by walking from a chain's exit along the boundary, in the rectangle's own
    /// direction, to the next entry point (adding the corners passed). Endpoints are ordered by their
    /// place along the boundary, and at a shared point by the direction their chain leaves into the
    /// interior, so chains that meet the boundary at the same point are linked without crossing. Holes
    /// that stay wholly inside go to the part that contains them. Cost: linear in the vertices, plus
    /// sorting the chain endpoints, plus a point-in-ring test per whole hole when there are several parts.
    ///
    /// The rules of ``clipPolygon(_:to:)`` hold: the rectangle is closed; rings may be open or closed;
    /// non-finite vertices are dropped; cut points are computed from the edge's endpoints taken in a
    /// fixed order, so an edge shared by two polygons is cut at the same point from both sides (and at
    /// the point ``clipPolygon(_:to:)`` uses wherever an edge crosses a single side of the rectangle).
    /// Exterior rings of the result wind the way the input's exterior does and holes the other way;
    /// every ring of the result is closed or open as the input's exterior is. Rings with no area are
    /// dropped.
    ///
    /// Degenerate input:
    /// - When the exterior lies wholly inside the rectangle (edges included) the result is
    ///   `[clipPolygon(polygon, to: rect)]`: the polygon unchanged (empty when it has no area).
    /// - A ring that only touches the boundary from outside, or runs along it, adds nothing by itself;
    ///   stretches of a ring lying on the boundary are replaced by the rectangle's own edges, so no
    ///   part overlaps another along an edge.
    /// - A hole inside the rectangle touching its boundary at a single vertex stays a hole (touching
    ///   the exterior at a point, which is valid); touching it at two or more points (or along an edge)
    ///   it splits the part, as it does the area.
    /// - An exterior with no signed area (or whose area overflows), or a rectangle with non-finite
    ///   bounds, cannot be oriented: the result is then ``clipPolygon(_:to:)``'s, as one part.
    ///   Holes with no area are dropped, as is (for invalid input) a hole that lies in no part.
    /// - Input rings that touch each other at a point inside the rectangle, one of which is cut, can
    ///   give a part whose ring touches itself at that point; it is not split there.
    public static func clipPolygonParts(_ polygon: [[MKMapPoint]], to rect: MKMapRect) -> [[[MKMapPoint]]] {
        guard let exterior = polygon.first, !rect.isEmpty else { return [] }
        let box = Box(rect)
        func asOnePart() -> [[[MKMapPoint]]] {
            let clipped = clipPolygon(polygon, to: rect)
            return clipped.isEmpty ? [] : [clipped]
        }
        guard box.minX.isFinite, box.minY.isFinite, box.maxX.isFinite, box.maxY.isFinite else { return asOnePart() }
        let quick: Bool? = exterior.withUnsafeBufferPointer { p in
            if box.containsAll(p) { return true }
            if box.allBeyondOneEdge(p) { return false }
            return nil
        }
        if quick == false { return [] }
        if quick == true {
            // As clipPolygon does, without its buffers sized for the exterior.
            guard PlanarPolygon.signedArea(exterior) != 0 else { return [] }
            var whole = [exterior]
            for hole in polygon.dropFirst() {
                if hole.withUnsafeBufferPointer({ box.containsAll($0) }) {
                    if PlanarPolygon.signedArea(hole) != 0 { whole.append(hole) }
                } else if let clipped = clipRing(hole, to: rect) {
                    whole.append(clipped)
                }
            }
            return [whole]
        }

        // Chains run with the polygon on their left: exteriors positive (y-down shoelace), holes negative.
        var exteriorRing = exterior
        var exteriorArea = PlanarPolygon.signedArea(exterior)
        if !exteriorArea.isFinite {
            exteriorRing = exterior.filter { $0.x.isFinite && $0.y.isFinite }
            exteriorArea = PlanarPolygon.signedArea(exteriorRing)
        }
        guard exteriorArea.isFinite, exteriorArea != 0 else { return asOnePart() }
        var clipper = PartsClipper(box: box)
        // Room for the usual case, one chain of at most the exterior's vertices, its corners and closing.
        clipper.points.reserveCapacity(min(exteriorRing.count, 1 << 14) + 16)
        let exteriorFate = exteriorRing.withUnsafeBufferPointer { clipper.cut($0, reverse: exteriorArea < 0) }
        var rectIsCovered = false
        switch exteriorFate {
        case .outside: return []
        case .whole: return asOnePart()  // only once non-finite vertices are dropped; still inside
        case .encloses: rectIsCovered = true
        case .chains: break
        }
        var holes: [[MKMapPoint]] = []
        for hole in polygon.dropFirst() {
            var ring = hole
            var area = PlanarPolygon.signedArea(hole)
            if !area.isFinite {
                ring = hole.filter { $0.x.isFinite && $0.y.isFinite }
                area = PlanarPolygon.signedArea(ring)
            }
            guard area.isFinite, area != 0 else { continue }
            switch ring.withUnsafeBufferPointer({ clipper.cut($0, reverse: area > 0) }) {
            case .whole:
                // Kept as it is, open and running negative like the chains.
                let m = PlanarPolygon.ringShape(ring).vertexCount
                var copy: [MKMapPoint] = []
                copy.reserveCapacity(m + 1)
                if area > 0 { copy.append(contentsOf: ring[0..<m].reversed()) } else { copy.append(contentsOf: ring[0..<m]) }
                holes.append(copy)
            case .encloses:
                rectIsCovered = false
            case .outside, .chains:
                break
            }
        }

        var exteriors: [[MKMapPoint]] = []
        if clipper.chains.isEmpty {
            // Nothing crosses the interior: the rectangle is wholly in the polygon or wholly out of it.
            guard rectIsCovered else { return [] }
            var whole: [MKMapPoint] = []
            whole.reserveCapacity(5)
            for side in 0..<4 { whole.append(box.corner(side)) }
            exteriors.append(whole)
        } else {
            clipper.link(exteriors: &exteriors, holes: &holes)
        }
        guard !exteriors.isEmpty else { return [] }

        // Back to the caller's orientation and closing convention.
        let flip = exteriorArea < 0
        let closed = PlanarPolygon.ringShape(exterior).closed
        func finish(_ ring: inout [MKMapPoint]) {
            if flip { ring.reverse() }
            if closed { ring.append(ring[0]) }
        }
        var parts: [[[MKMapPoint]]] = []
        parts.reserveCapacity(exteriors.count)
        for i in exteriors.indices {
            var part: [[MKMapPoint]] = [[]]
            swap(&part[0], &exteriors[i])
            finish(&part[0])
            parts.append(part)
        }
        if parts.count == 1 {
            // A valid polygon's whole holes lie in its only part.
            for i in holes.indices {
                finish(&holes[i])
                parts[0].append(holes[i])
            }
            return parts
        }
        var bounds: [(minX: Double, minY: Double, maxX: Double, maxY: Double)] = []
        bounds.reserveCapacity(parts.count)
        for part in parts {
            var b = (minX: Double.infinity, minY: Double.infinity, maxX: -Double.infinity, maxY: -Double.infinity)
            for q in part[0] {
                b.minX = min(b.minX, q.x); b.maxX = max(b.maxX, q.x)
                b.minY = min(b.minY, q.y); b.maxY = max(b.maxY, q.y)
            }
            bounds.append(b)
        }
        for i in holes.indices {
            let found: MKMapPoint? = holes[i].withUnsafeBufferPointer { PartsClipper.interiorPoint($0) }
            guard let q = found else { continue }
            for j in parts.indices {
                let b = bounds[j]
                guard q.x >= b.minX && q.x <= b.maxX && q.y >= b.minY && q.y <= b.maxY else { continue }
                if parts[j][0].withUnsafeBufferPointer({ PlanarPolygon.crossingParity(q, $0) }) {
                    finish(&holes[i])
                    parts[j].append(holes[i])
                    break
                }
            }
        }
        return parts
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

        // Used by clipPolygonParts.

        /// Cohen–Sutherland outcode: 0 inside (edges included); bits for left, right, above, below.
        @inline(__always)
        func outcode(_ q: MKMapPoint) -> UInt8 {
            var code: UInt8 = 0
            if q.x < minX { code |= 1 } else if q.x > maxX { code |= 2 }
            if q.y < minY { code |= 4 } else if q.y > maxY { code |= 8 }
            return code
        }

        /// Whether a point inside (edges included) lies on an edge.
        @inline(__always)
        func onBoundary(_ q: MKMapPoint) -> Bool {
            q.x == minX || q.x == maxX || q.y == minY || q.y == maxY
        }

        /// Whether `q` lies strictly inside (not on an edge); false for NaN.
        @inline(__always)
        func strictlyContains(_ q: MKMapPoint) -> Bool {
            q.x > minX && q.x < maxX && q.y > minY && q.y < maxY
        }

        /// Whether segment `a`–`b` lies along one side of the box.
        @inline(__always)
        func alongSide(_ a: MKMapPoint, _ b: MKMapPoint) -> Bool {
            (a.x == b.x && (a.x == minX || a.x == maxX)) || (a.y == b.y && (a.y == minY || a.y == maxY))
        }

        /// The part of segment `a`–`b` inside the box, from the `a` end; endpoints inside are returned
        /// as they are and cut points lie on the edges. The segment is clipped with its endpoints in a
        /// fixed order, so the cut points do not depend on the direction it is traversed.
        @inline(__always)
        func crossing(_ a: MKMapPoint, _ b: MKMapPoint) -> (MKMapPoint, MKMapPoint)? {
            let forward = a.x < b.x || (a.x == b.x && a.y < b.y)
            guard let s = forward ? clipSegment(a, b) : clipSegment(b, a) else { return nil }
            // Clamping only matters where rounding left an endpoint just outside uncut.
            let p = clamp(s.start), q = clamp(s.end)
            return forward ? (p, q) : (q, p)
        }

        @inline(__always)
        func clamp(_ q: MKMapPoint) -> MKMapPoint {
            MKMapPoint(x: min(max(q.x, minX), maxX), y: min(max(q.y, minY), maxY))
        }

        /// Corner `side` (0…3), where that side starts going round in the positive direction (y-down
        /// shoelace): top-left, top-right, bottom-right, bottom-left.
        @inline(__always)
        func corner(_ side: Int) -> MKMapPoint {
            switch side & 3 {
            case 0: return MKMapPoint(x: minX, y: minY)
            case 1: return MKMapPoint(x: maxX, y: minY)
            case 2: return MKMapPoint(x: maxX, y: maxY)
            default: return MKMapPoint(x: minX, y: maxY)
            }
        }

        /// The place of a boundary point along the boundary, going round from the top-left corner in the
        /// positive direction: the side (0 top, 1 right, 2 bottom, 3 left; a corner belongs to the side
        /// it starts) and a value growing along that side. Exact: no distances are added up.
        @inline(__always)
        func perimeterKey(_ q: MKMapPoint) -> (side: Int, along: Double) {
            if q.y == minY && q.x < maxX { return (0, q.x) }
            if q.x == maxX && q.y < maxY { return (1, q.y) }
            if q.y == maxY && q.x > minX { return (2, -q.x) }
            return (3, -q.y)
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

    /// The working state of ``clipPolygonParts(_:to:)``: the chains of every ring, back to back in one
    /// buffer, and their linking.
    struct PartsClipper {
        let box: Box
        /// The points of every chain, each chain oriented with the polygon on its left.
        var points: [MKMapPoint] = []
        /// Each chain's range in `points`: at least two points, the first (entry) and last (exit) on
        /// the boundary, the others strictly inside, no edge lying along a side.
        var chains: [Range<Int>] = []

        init(box: Box) { self.box = box }

        enum RingFate {
            /// The ring crosses the interior; its chains were added.
            case chains
            /// The ring lies inside (touching the boundary at one vertex at most) and is kept whole.
            case whole
            /// The ring does not reach the interior and the rectangle lies inside it.
            case encloses
            /// The ring does not reach the interior and the rectangle lies outside it.
            case outside
        }

        /// Cuts one ring (finite vertices, open or closed, with area) into chains, reversed when
        /// `reverse` so the polygon is on their left.
        ///
        /// A chain is a maximal run of the ring's pieces inside the rectangle that do not lie along a
        /// side, broken wherever the ring meets the boundary. Runs along the boundary are left to the
        /// linking walk, so they can never overlap an edge of another part.
        mutating func cut(_ v: UnsafeBufferPointer<MKMapPoint>, reverse: Bool) -> RingFate {
            let n = v.count
            if box.allBeyondOneEdge(v) { return .outside }
            // Start at a vertex that is not strictly inside, where no chain can be under way.
            var k = -1
            for i in 0..<n where !box.strictlyContains(v[i]) {
                k = i
                break
            }
            if k < 0 { return .whole }
            let firstChain = chains.count, firstPoint = points.count
            var a = v[k]
            var codeA = box.outcode(a)
            var anyOutside = codeA != 0
            var open = false
            var chainStart = 0
            var i = k
            for _ in 0..<n {
                i += 1
                if i == n { i = 0 }
                let b = v[i]
                if b == a { continue }
                let codeB = box.outcode(b)
                let bOnBoundary = codeB == 0 && box.onBoundary(b)
                anyOutside = anyOutside || codeB != 0
                if codeA & codeB != 0 {
                    // Both beyond the same side: nothing inside, and `a` outside means no open chain.
                } else if codeA | codeB == 0 {
                    if open {
                        points.append(b)
                        if bOnBoundary { closeChain(from: chainStart); open = false }
                    } else if !box.alongSide(a, b) {
                        // `a` is on the boundary (an open chain would have ended there).
                        chainStart = points.count
                        open = true
                        points.append(a)
                        points.append(b)
                        if bOnBoundary { closeChain(from: chainStart); open = false }
                    }
                } else if let (s, e) = box.crossing(a, b) {
                    if open {
                        // `a` is strictly inside and `b` outside: the ring leaves at `e`.
                        points.append(e)
                        closeChain(from: chainStart)
                        open = false
                    } else if s != e && !box.alongSide(s, e) {
                        chainStart = points.count
                        open = true
                        points.append(s)
                        points.append(e)
                        if codeB != 0 || bOnBoundary { closeChain(from: chainStart); open = false }
                    }
                } else if open {
                    closeChain(from: chainStart)  // unreachable: an edge from strictly inside has a piece
                    open = false
                }
                a = b
                codeA = codeB
            }
            if open { closeChain(from: chainStart) }  // unreachable: the walk ends where it started

            let made = chains.count - firstChain
            if made == 0 {
                points.removeSubrange(firstPoint...)
                let centre = MKMapPoint(x: box.minX + (box.maxX - box.minX) / 2, y: box.minY + (box.maxY - box.minY) / 2)
                return PlanarPolygon.crossingParity(centre, v) ? .encloses : .outside
            }
            if !anyOutside && made == 1 {
                let r = chains[firstChain]
                if points[r.lowerBound] == points[r.upperBound - 1] {
                    // Inside, touching the boundary at one vertex: a hole that stays a hole.
                    chains.removeLast()
                    points.removeSubrange(firstPoint...)
                    return .whole
                }
            }
            if reverse {
                for c in firstChain..<chains.count { points[chains[c]].reverse() }
            }
            return .chains
        }

        /// Records the chain begun at `start` if it has an edge; drops it otherwise, and drops it too
        /// if (against expectation) it does not end on the boundary, where it could not be linked.
        mutating func closeChain(from start: Int) {
            if points.count - start >= 2 && box.onBoundary(points[points.count - 1]) {
                chains.append(start..<points.count)
            } else {
                points.removeSubrange(start...)
            }
        }

        /// A chain's entry or exit: where it meets the boundary, and the direction it goes into the
        /// interior from there.
        struct End {
            var side: Int
            var along: Double
            var dx: Double
            var dy: Double
            var chain: Int
            var isEntry: Bool
        }

        /// The order of chain ends along the boundary in the rectangle's direction (the direction of a
        /// positive ring: top edge left to right, right edge downwards, and so on). Ends at the same point
        /// come in the order their directions sweep from backwards along the boundary, through the
        /// interior, to forwards, the order in which they would cross a boundary drawn a hair inside;
        /// that is what keeps parts from crossing where chains share a boundary point.
        static func precedes(_ a: End, _ b: End) -> Bool {
            if a.side != b.side { return a.side < b.side }
            if a.along != b.along { return a.along < b.along }
            let cross = a.dx * b.dy - a.dy * b.dx
            if cross != 0 { return cross < 0 }
            if a.isEntry != b.isEntry { return !a.isEntry }
            return a.chain < b.chain
        }

        /// Links the chains into rings: from each chain's exit along the boundary to the next entry,
        /// through the corners passed. Positive rings (all of them, for valid input) are exteriors.
        mutating func link(exteriors: inout [[MKMapPoint]], holes: inout [[MKMapPoint]]) {
            let k = chains.count
            guard k > 0 else { return }
            let box = self.box
            func end(_ p: UnsafeBufferPointer<MKMapPoint>, at i: Int, toward j: Int, chain: Int, isEntry: Bool) -> End {
                let q = p[i], key = box.perimeterKey(q)
                return End(side: key.side, along: key.along, dx: p[j].x - q.x, dy: p[j].y - q.y, chain: chain, isEntry: isEntry)
            }
            /// Appends the corners passed going round from `exit` to `entry`: none when the entry is
            /// further along the same side, all four when it is behind the exit on that side.
            func walk(from exit: End, to entry: End, wraps: Bool, into ring: inout [MKMapPoint]) {
                var side = exit.side
                var steps = entry.side - side
                if wraps { steps += 4 }
                for _ in 0..<steps {
                    side = (side + 1) & 3
                    let corner = box.corner(side)
                    if ring[ring.count - 1] != corner { ring.append(corner) }
                }
            }
            func finish(_ ring: inout [MKMapPoint]) {
                while ring.count > 1 && ring[ring.count - 1] == ring[0] { ring.removeLast() }
                guard ring.count >= 3 else { return }
                let area = PlanarPolygon.signedArea(ring)
                if area > 0 {
                    exteriors.append(ring)
                } else if area < 0 {
                    holes.append(ring)  // only for invalid input (e.g. holes outside the exterior)
                }
            }

            if k == 1 {
                // The common case: one chain, closed by a walk from its exit to its own entry. The
                // buffer holds just that chain and becomes the ring.
                let r = chains[0]
                let (entry, exit) = points.withUnsafeBufferPointer { p in
                    (end(p, at: r.lowerBound, toward: r.lowerBound + 1, chain: 0, isEntry: true),
                     end(p, at: r.upperBound - 1, toward: r.upperBound - 2, chain: 0, isEntry: false))
                }
                var ring: [MKMapPoint] = []
                if r == points.indices { swap(&ring, &points) } else { ring.append(contentsOf: points[r]) }
                ring.reserveCapacity(ring.count + 6)
                walk(from: exit, to: entry, wraps: PartsClipper.precedes(entry, exit), into: &ring)
                finish(&ring)
                return
            }

            let chains = self.chains
            points.withUnsafeBufferPointer { p in
                var ends: [End] = []
                ends.reserveCapacity(2 * k)
                for c in 0..<k {
                    let r = chains[c]
                    ends.append(end(p, at: r.lowerBound, toward: r.lowerBound + 1, chain: c, isEntry: true))
                    ends.append(end(p, at: r.upperBound - 1, toward: r.upperBound - 2, chain: c, isEntry: false))
                }
                ends.sort(by: PartsClipper.precedes)
                // For each chain, where its exit is in that order and where the next entry after it is.
                var exitAt = [Int](repeating: 0, count: k)
                var nextEntryAt = [Int](repeating: 0, count: k)
                var next = ends.firstIndex(where: { $0.isEntry }) ?? 0
                for i in stride(from: 2 * k - 1, through: 0, by: -1) {
                    if ends[i].isEntry {
                        next = i
                    } else {
                        exitAt[ends[i].chain] = i
                        nextEntryAt[ends[i].chain] = next
                    }
                }
                var visited = [Bool](repeating: false, count: k)
                for first in 0..<k where !visited[first] {
                    var ring: [MKMapPoint] = []
                    ring.reserveCapacity(chains[first].count + 9)
                    var c = first
                    while true {
                        visited[c] = true
                        let r = chains[c]
                        var from = r.lowerBound
                        if let last = ring.last, last == p[from] { from += 1 }
                        ring.append(contentsOf: UnsafeBufferPointer(rebasing: p[from..<r.upperBound]))
                        let exit = exitAt[c], entry = nextEntryAt[c]
                        walk(from: ends[exit], to: ends[entry], wraps: entry < exit, into: &ring)
                        let following = ends[entry].chain
                        if following == first || visited[following] { break }  // the latter only for invalid input
                        c = following
                    }
                    finish(&ring)
                }
            }
        }

        /// A point strictly inside a simple ring (with area): midway between the first two crossings of a
        /// horizontal line placed between two vertex heights, so it passes through no vertex.
        static func interiorPoint(_ p: UnsafeBufferPointer<MKMapPoint>) -> MKMapPoint? {
            guard let first = p.first else { return nil }
            var above = Double.infinity, below = -Double.infinity
            for q in p {
                if q.y > first.y && q.y < above { above = q.y }
                if q.y < first.y && q.y > below { below = q.y }
            }
            let y: Double
            if above.isFinite {
                y = first.y + (above - first.y) / 2
            } else if below.isFinite {
                y = below + (first.y - below) / 2
            } else {
                return nil
            }
            var x1 = Double.infinity, x2 = Double.infinity
            var b = p[p.count - 1]
            for a in p {
                if (a.y > y) != (b.y > y) {
                    let x = a.x + (y - a.y) * (b.x - a.x) / (b.y - a.y)
                    if x < x1 {
                        x2 = x1
                        x1 = x
                    } else if x < x2 {
                        x2 = x
                    }
                }
                b = a
            }
            guard x2.isFinite else { return nil }
            return MKMapPoint(x: x1 + (x2 - x1) / 2, y: y)
        }
    }
}
