import Foundation

/// `line-dasharray` drawn the way MapLibre's line shader draws it, rather than with Cairo's dasher.
///
/// MapLibre measures each line's distance from its first vertex *in the tile* (so the pattern
/// restarts where a line enters a tile's buffered square), in pixels of the integer zoom, and
/// looks the dash pattern up in units of the line width at that zoom (`line-floorwidth`). On
/// screen, one pattern unit is therefore `floorWidth · 2^(zoom − ⌊zoom⌋)` points. With
/// `line-cap: round` each dash gets a rounded end of half a unit — an ellipse stretched along the
/// line at fractional zooms — reaching into the gap; otherwise dash ends are cut square.
struct DashPattern {
    /// On/off lengths in units, as the style gives them (validated: finite, non-negative).
    let lengths: [Double]
    let period: Double

    /// Nil when the array draws a plain line (empty) or nothing sensible (negative, non-finite,
    /// all zero): those fall back to a solid line, as MapLibre does for an empty pattern.
    init?(_ lengths: [Double]) {
        guard lengths.count >= 1, lengths.allSatisfy({ $0.isFinite && $0 >= 0 }) else { return nil }
        let period = lengths.reduce(0, +)
        guard period > 0 else { return nil }
        // A single length is a dash as long as the period: a solid line.
        guard lengths.count > 1 else { return nil }
        self.lengths = lengths
        self.period = period
    }

    /// The dashes' [start, end] intervals (in units) that meet `0...total`, clipped to it. Odd-length
    /// arrays start a period with a dash and end it with one, which join into one dash.
    func intervals(upTo total: Double) -> [(start: Double, end: Double)] {
        guard total > 0 else { return [] }
        var result: [(start: Double, end: Double)] = []
        let periods = Int((total / period).rounded(.up))
        guard periods < 200_000 else { return [(0, total)] }
        for k in 0..<max(periods, 1) {
            var position = Double(k) * period
            for (index, length) in lengths.enumerated() {
                defer { position += length }
                guard index % 2 == 0 else { continue }
                let start = position, end = position + length
                if start > total { break }
                if let last = result.last, abs(last.end - start) < 1e-9, length > 0 {
                    result[result.count - 1].end = min(end, total)
                } else {
                    result.append((start, min(end, total)))
                }
            }
        }
        return result
    }
}

/// One dash of a line: its points and the directions of its first and last segments (for the
/// rounded ends), and whether its ends are the line's own ends (which take the line's cap).
struct Dash {
    var points: [ScreenPoint]
    var startDirection: ScreenPoint
    var endDirection: ScreenPoint
    var startsLine: Bool
    var endsLine: Bool
}

enum DashedLine {
    /// The dashes of `geometry` with the pattern measured along `reference` (the same number of
    /// points: the line's centre when `geometry` is offset from it), `unit` points per pattern unit.
    static func dashes(of geometry: [ScreenPoint], reference: [ScreenPoint]? = nil, closed: Bool,
                       pattern: DashPattern, unit: Double) -> [Dash] {
        guard geometry.count >= 2, unit > 0, unit.isFinite else { return [] }
        var drawn = geometry, measured = reference ?? geometry
        guard measured.count == drawn.count else { return [] }
        if closed {
            drawn.append(drawn[0])
            measured.append(measured[0])
        }
        var cumulative = [0.0]
        cumulative.reserveCapacity(measured.count)
        for i in 1..<measured.count {
            let dx = measured[i].x - measured[i - 1].x, dy = measured[i].y - measured[i - 1].y
            cumulative.append(cumulative[i - 1] + (dx * dx + dy * dy).squareRoot() / unit)
        }
        let total = cumulative[cumulative.count - 1]
        guard total > 0 else { return [] }
        var result: [Dash] = []
        var segment = 0
        for interval in pattern.intervals(upTo: total) {
            while segment < cumulative.count - 2, cumulative[segment + 1] <= interval.start { segment += 1 }
            var points: [ScreenPoint] = [point(drawn, cumulative, segment, interval.start)]
            let first = segment
            var last = segment
            while last < cumulative.count - 2, cumulative[last + 1] < interval.end {
                last += 1
                points.append(drawn[last])
            }
            points.append(point(drawn, cumulative, last, interval.end))
            result.append(Dash(points: points, startDirection: direction(drawn, first), endDirection: direction(drawn, last),
                               startsLine: !closed && interval.start <= 0, endsLine: !closed && interval.end >= total))
            segment = last
        }
        return result
    }

    /// The point at `distance` units on segment `index` (from point `index` to `index + 1`).
    private static func point(_ points: [ScreenPoint], _ cumulative: [Double], _ index: Int, _ distance: Double) -> ScreenPoint {
        let length = cumulative[index + 1] - cumulative[index]
        let t = length > 0 ? min(max((distance - cumulative[index]) / length, 0), 1) : 0
        let a = points[index], b = points[index + 1]
        return (a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t)
    }

    /// The unit direction of segment `index`, or of the nearest segment with a length.
    private static func direction(_ points: [ScreenPoint], _ index: Int) -> ScreenPoint {
        for offset in 0..<points.count {
            for i in [index + offset, index - offset] where i >= 0 && i + 1 < points.count {
                let dx = points[i + 1].x - points[i].x, dy = points[i + 1].y - points[i].y
                let length = (dx * dx + dy * dy).squareRoot()
                if length > 1e-12 { return (dx / length, dy / length) }
            }
        }
        return (1, 0)
    }
}

// MARK: - GeoJSON tiling

/// How MapLibre cuts a GeoJSON line into tiles (geojson-vt with MapLibre's options): the tiles
/// are 512 points at the integer zoom with a 128-point buffer, lines are simplified with a
/// tolerance of 0.375 tile points (Douglas–Peucker, none at the source's maxzoom) and snapped to
/// the 8192-unit tile grid. Only dashed lines need this: a dash pattern restarts where a line
/// enters a tile's buffered square, while solid lines look the same drawn whole.
enum GeoJSONLineTiling {
    static let extent = 8192.0
    /// The buffer as a fraction of a tile.
    static let buffer = 128.0 / 512
    static let tolerance = 0.375 / 512

    /// The pieces of a line (world coordinates) in each tile of zoom `z` it reaches within
    /// `bounds` (world min/max, the view), each piece a new line whose distance starts at zero.
    static func tiles(of line: [ScreenPoint], closed: Bool, z: Int, maxZoom: Int,
                      bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double)) -> [(x: Int, y: Int, pieces: [[ScreenPoint]])] {
        var points = line
        if closed, let first = points.first { points.append(first) }
        guard points.count >= 2 else { return [] }
        let n = Double(1 << z)
        // Importance of each point: the squared distance at which Douglas–Peucker keeps it.
        var importance = [Double](repeating: 0, count: points.count)
        importance[0] = 1
        importance[points.count - 1] = 1
        let finest = tolerance / Double(1 << max(maxZoom, 0))
        simplify(points, &importance, 0, points.count - 1, finest * finest)
        let limit = z >= maxZoom ? 0 : (tolerance / n) * (tolerance / n)
        let minX = points.map(\.x).min()!, maxX = points.map(\.x).max()!
        let minY = points.map(\.y).min()!, maxY = points.map(\.y).max()!
        let margin = buffer / n
        // A line that only reaches a tile's far edge has nothing in that tile.
        let x0 = Int((max(minX - margin, bounds.minX) * n).rounded(.down))
        let x1 = Int((min(maxX + margin, bounds.maxX) * n - 1e-9).rounded(.down))
        let y0 = Int((max(minY - margin, bounds.minY, 0) * n).rounded(.down)), y1 = Int((min(maxY + margin, bounds.maxY, 1 - 1e-12) * n).rounded(.down))
        guard x0 <= x1, y0 <= y1, (x1 - x0 + 1) * (y1 - y0 + 1) <= 256 else { return [] }
        var result: [(x: Int, y: Int, pieces: [[ScreenPoint]])] = []
        let indexed = points.enumerated().map { (point: $0.element, weight: importance[$0.offset]) }
        for ty in y0...y1 {
            for tx in x0...x1 {
                let left = (Double(tx) - buffer) / n, right = (Double(tx) + 1 + buffer) / n
                let top = (Double(ty) - buffer) / n, bottom = (Double(ty) + 1 + buffer) / n
                var pieces: [[ScreenPoint]] = []
                for xPiece in clip(indexed, axis: 0, left, right) {
                    for piece in clip(xPiece, axis: 1, top, bottom) {
                        let kept = piece.filter { limit == 0 || $0.weight > limit }.map { p -> ScreenPoint in
                            ((((p.point.x * n - Double(tx)) * extent).rounded() / extent + Double(tx)) / n,
                             (((p.point.y * n - Double(ty)) * extent).rounded() / extent + Double(ty)) / n)
                        }
                        if kept.count >= 2 { pieces.append(kept) }
                    }
                }
                if !pieces.isEmpty { result.append((tx, ty, pieces)) }
            }
        }
        return result
    }

    /// Douglas–Peucker that records, for each point it keeps, the squared distance it was kept at.
    private static func simplify(_ points: [ScreenPoint], _ importance: inout [Double], _ first: Int, _ last: Int, _ sqTolerance: Double) {
        var stack = [(first, last)]
        while let (a, b) = stack.popLast() {
            guard b - a > 1 else { continue }
            var maxDistance = sqTolerance, index = -1
            let middle = a + (b - a) / 2
            var bestToMiddle = b - a
            for i in (a + 1)..<b {
                let d = squaredSegmentDistance(points[i], points[a], points[b])
                if d > maxDistance {
                    index = i
                    maxDistance = d
                } else if d == maxDistance, index >= 0, abs(i - middle) < bestToMiddle {
                    // Prefer a pivot near the middle among equals, to keep the recursion shallow.
                    index = i
                    bestToMiddle = abs(i - middle)
                }
            }
            guard index >= 0 else { continue }
            importance[index] = maxDistance
            stack.append((a, index))
            stack.append((index, b))
        }
    }

    private static func squaredSegmentDistance(_ p: ScreenPoint, _ a: ScreenPoint, _ b: ScreenPoint) -> Double {
        var x = a.x, y = a.y
        let dx = b.x - a.x, dy = b.y - a.y
        if dx != 0 || dy != 0 {
            let t = ((p.x - a.x) * dx + (p.y - a.y) * dy) / (dx * dx + dy * dy)
            if t > 1 {
                x = b.x
                y = b.y
            } else if t > 0 {
                x += dx * t
                y += dy * t
            }
        }
        return (p.x - x) * (p.x - x) + (p.y - y) * (p.y - y)
    }

    /// The parts of a polyline between `low` and `high` on one axis; crossing points are new
    /// points that are always kept.
    private static func clip(_ line: [(point: ScreenPoint, weight: Double)], axis: Int, _ low: Double, _ high: Double)
        -> [[(point: ScreenPoint, weight: Double)]] {
        func value(_ p: ScreenPoint) -> Double { axis == 0 ? p.x : p.y }
        func at(_ a: ScreenPoint, _ b: ScreenPoint, _ v: Double) -> (point: ScreenPoint, weight: Double) {
            let t = (v - value(a)) / (value(b) - value(a))
            return ((a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t), 1)
        }
        var pieces: [[(point: ScreenPoint, weight: Double)]] = []
        var current: [(point: ScreenPoint, weight: Double)] = []
        for i in 0..<line.count {
            let p = line[i]
            let v = value(p.point)
            if i == 0 {
                if v >= low && v <= high { current.append(p) }
                continue
            }
            let a = line[i - 1].point, va = value(a)
            let inside = v >= low && v <= high, wasInside = va >= low && va <= high
            if wasInside && inside {
                current.append(p)
            } else if wasInside {
                current.append(at(a, p.point, v < low ? low : high))
                pieces.append(current)
                current = []
            } else if inside {
                current = [at(a, p.point, va < low ? low : high), p]
            } else if (va < low && v > high) || (va > high && v < low) {
                // Crosses the whole band in one segment.
                let enter = at(a, p.point, va < low ? low : high), exit = at(a, p.point, va < low ? high : low)
                pieces.append([enter, exit])
            }
        }
        if current.count >= 2 { pieces.append(current) }
        return pieces
    }
}
