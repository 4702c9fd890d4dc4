import Foundation

/// A place for a polygon's label and how much room it has.
public struct PolygonLabelPoint: Hashable, Sendable, CustomStringConvertible {
    /// The point, inside the polygon and outside its holes whenever the polygon has area.
    public var point: MKMapPoint
    /// The distance from ``point`` to the nearest edge of any ring, in the input's units; 0 for a
    /// polygon without area.
    public var distance: Double

    /// A label point with its distance to the nearest edge.
    public init(point: MKMapPoint, distance: Double) {
        self.point = point
        self.distance = distance
    }

    public var description: String { "\(point) (\(distance) from the nearest edge)" }
}

/// The pole of inaccessibility of a polygon with holes: the interior point farthest from every edge,
/// found to within `precision` (in the input's units, such as map points or tile units). This is
/// where a polygon's label reads best; unlike the centroid it is never outside a concave polygon or
/// inside a hole.
///
/// The search (the "polylabel" idea) covers the polygon's bounding box with square cells and keeps
/// them in a priority queue ordered by the largest distance any point of a cell could have (the
/// distance at its centre plus its half-diagonal); it splits the most promising cell into four
/// until no cell can beat the best point found by more than `precision`. The best point starts as
/// the better of the centroid and the bounding box's centre.
///
/// The work is bounded whatever the input: at most `maximumCellCount` cells are examined, each in
/// O(vertices), after which the best point so far is returned (its distance may then be short of
/// the optimum by more than `precision`). Non-finite vertices are ignored. A polygon without area
/// (fewer than three vertices, or all on a line) gets the point of its outline nearest the outline's
/// centre, at distance 0.
///
/// - Returns: `nil` when the polygon has no finite vertices.
public func poleOfInaccessibility(polygon rings: [[MKMapPoint]], precision: Double,
                                  maximumCellCount: Int = 10_000) -> PolygonLabelPoint? {
    var finite = true
    for ring in rings {
        for p in ring where !(p.x.isFinite && p.y.isFinite) {
            finite = false
            break
        }
        if !finite { break }
    }
    // Copy only when something has to be dropped.
    let polygon = finite ? rings : rings.map { ring in ring.filter { $0.x.isFinite && $0.y.isFinite } }
    guard let exterior = polygon.first, !exterior.isEmpty else { return nil }

    let bounds = MKMapRect(boundingPoints: exterior)
    let (minX, minY, width, height) = (bounds.minX, bounds.minY, bounds.width, bounds.height)
    guard width > 0, height > 0, PlanarPolygon.area(polygon) > 0 else {
        return LabelSearch.outlinePoint(polygon)
    }

    let search = LabelSearch(polygon: polygon)
    let tolerance = precision > 0 ? precision : 0
    let budget = max(maximumCellCount, 0)

    // Square cells of the shorter side, but no more than 256 along the longer one so a long sliver
    // cannot spend the whole budget on its first row. Any size is correct: a cell's bound holds for
    // any size.
    let longest = max(width, height)
    let cellSize = max(min(width, height), longest / 256)
    let half = cellSize / 2

    var best = search.cell(x: minX + width / 2, y: minY + height / 2, half: 0)
    if let c = PlanarPolygon.centroid(polygon) {
        let centroidCell = search.cell(x: c.x, y: c.y, half: 0)
        if centroidCell.distance > best.distance { best = centroidCell }
    }

    var queue = BinaryHeap<LabelSearch.Cell>(capacity: min(budget, 4096))
    var examined = 0
    // Counted, not stepped by adding cellSize, so a cell size below the coordinates' resolution
    // cannot stall the loop.
    let columns = max(Int(min((width / cellSize).rounded(.up), 256)), 1)
    let rows = max(Int(min((height / cellSize).rounded(.up), 256)), 1)
    gridLoop: for column in 0..<columns {
        for row in 0..<rows {
            guard examined < budget else { break gridLoop }
            let cell = search.cell(x: minX + (Double(column) + 0.5) * cellSize,
                                   y: minY + (Double(row) + 0.5) * cellSize, half: half)
            examined += 1
            if cell.distance > best.distance { best = cell }
            queue.push(cell)
        }
    }

    while let cell = queue.popMin() {
        // The queue yields the most promising cell first, so once it cannot beat the best by more
        // than the precision, no cell can.
        if cell.potential - best.distance <= tolerance { break }
        guard examined + 4 <= budget else { break }
        let h = cell.half / 2
        for quadrant in 0..<4 {
            let child = search.cell(x: cell.x + (quadrant & 1 == 0 ? -h : h),
                                    y: cell.y + (quadrant & 2 == 0 ? -h : h), half: h)
            if child.distance > best.distance { best = child }
            queue.push(child)
        }
        examined += 4
    }
    return PolygonLabelPoint(point: MKMapPoint(x: best.x, y: best.y), distance: max(best.distance, 0))
}

/// A point to label a polygon with holes: its pole of inaccessibility to within `precision` (see
/// ``poleOfInaccessibility(polygon:precision:maximumCellCount:)``, which also gives the distance to
/// the nearest edge). `nil` when the polygon has no finite vertices.
public func labelPoint(polygon rings: [[MKMapPoint]], precision: Double) -> MKMapPoint? {
    poleOfInaccessibility(polygon: rings, precision: precision)?.point
}

/// The distance field of a polygon, and the cells of the search.
struct LabelSearch {
    let polygon: [[MKMapPoint]]

    /// A square cell: its centre, half its side, the signed distance at its centre and the most any
    /// point in it could have.
    struct Cell: Comparable {
        var x: Double
        var y: Double
        var half: Double
        var distance: Double
        var potential: Double

        /// Ordered so that the binary min-heap yields the cell with the greatest potential first.
        static func < (lhs: Cell, rhs: Cell) -> Bool { lhs.potential > rhs.potential }
        static func == (lhs: Cell, rhs: Cell) -> Bool { lhs.potential == rhs.potential }
    }

    func cell(x: Double, y: Double, half: Double) -> Cell {
        let d = signedDistance(MKMapPoint(x: x, y: y))
        return Cell(x: x, y: y, half: half, distance: d, potential: d + half * 2.0.squareRoot())
    }

    /// The distance from `point` to the nearest edge of any ring: positive inside the polygon
    /// (even–odd, so outside holes), negative outside.
    func signedDistance(_ point: MKMapPoint) -> Double {
        var inside = false
        var nearest = Double.infinity
        for ring in polygon where !ring.isEmpty {
            ring.withUnsafeBufferPointer { p in
                if PlanarPolygon.crossingParity(point, p) { inside.toggle() }
                var b = p[p.count - 1]
                for a in p {
                    nearest = min(nearest, PlanarPolygon.squaredSegmentDistance(point, a, b))
                    b = a
                }
            }
        }
        let d = nearest.squareRoot()
        return inside ? d : -d
    }

    /// For a polygon without area: the point of its outline nearest the centre of the exterior's
    /// outline (or its first vertex), at distance 0.
    static func outlinePoint(_ polygon: [[MKMapPoint]]) -> PolygonLabelPoint? {
        guard let exterior = polygon.first, let first = exterior.first else { return nil }
        return exterior.withUnsafeBufferPointer { p in
            guard let centre = PlanarPolygon.outlineCentre(p) else {
                return PolygonLabelPoint(point: first, distance: 0)
            }
            var bestPoint = first
            var bestDistance = Double.infinity
            var b = p[p.count - 1]
            for a in p {
                let q = nearestPoint(on: a, b, to: centre)
                let dx = q.x - centre.x, dy = q.y - centre.y
                let d = dx * dx + dy * dy
                if d < bestDistance {
                    bestDistance = d
                    bestPoint = q
                }
                b = a
            }
            return PolygonLabelPoint(point: bestPoint, distance: 0)
        }
    }

    static func nearestPoint(on a: MKMapPoint, _ b: MKMapPoint, to p: MKMapPoint) -> MKMapPoint {
        let dx = b.x - a.x, dy = b.y - a.y
        let length2 = dx * dx + dy * dy
        guard length2 > 0 else { return a }
        let t = min(max(((p.x - a.x) * dx + (p.y - a.y) * dy) / length2, 0), 1)
        return MKMapPoint(x: a.x + t * dx, y: a.y + t * dy)
    }
}
