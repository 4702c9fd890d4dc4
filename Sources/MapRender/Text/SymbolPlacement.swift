import Foundation

/// A place on a line where a label may go: the point, and the segment it lies on (the segment
/// from `line[segment]` to `line[segment + 1]`).
struct LineAnchor {
    var x: Double, y: Double
    var segment: Int
}

/// Where labels go along lines, as MapLibre chooses them (its `getAnchors`, `resample` and
/// `checkMaxAngle`), in canvas points.
enum LineLabelPlacement {
    /// Anchors every `spacing` points along `line`. The first sits half the label plus two ems
    /// (`size`) from the start, so labels keep clear of the junctions lines start at — or, for a
    /// line that continues from a neighbouring tile (`continued`), half the spacing in. Anchors
    /// whose label would run off either end, or would bend more than `maxAngle` (radians) within
    /// any stretch of 0.6 em under it, are dropped. When none is left, one anchor at the line's
    /// middle is tried.
    static func anchors(_ line: [ScreenPoint], spacing: Double, labelLength: Double, size: Double, maxAngle: Double,
                        continued: Bool) -> [LineAnchor] {
        guard line.count >= 2, spacing.isFinite, labelLength.isFinite else { return [] }
        var spacing = max(spacing, 1)
        // Labels longer than the spacing still get room between them.
        if spacing - labelLength < spacing / 4 { spacing = labelLength + spacing / 4 }
        let offset = continued ? (spacing / 2).truncatingRemainder(dividingBy: spacing)
            : (labelLength / 2 + size * 2).truncatingRemainder(dividingBy: spacing)
        let window = 0.6 * size
        var anchors = resample(line, offset: offset, spacing: spacing, labelLength: labelLength, window: window, maxAngle: maxAngle)
        if anchors.isEmpty, !continued {
            let total = length(line)
            anchors = resample(line, offset: total / 2, spacing: max(spacing, total + 1), labelLength: labelLength,
                               window: window, maxAngle: maxAngle)
        }
        return anchors
    }

    /// The one anchor of `symbol-placement: line-center`: the middle of the line by length.
    static func centerAnchor(_ line: [ScreenPoint], labelLength: Double, size: Double, maxAngle: Double) -> LineAnchor? {
        guard line.count >= 2 else { return nil }
        let total = length(line)
        guard total >= labelLength else { return nil }
        return resample(line, offset: total / 2, spacing: total + 1, labelLength: labelLength, window: 0.6 * size,
                        maxAngle: maxAngle).first
    }

    static func length(_ line: [ScreenPoint]) -> Double {
        var total = 0.0
        for i in 1..<max(line.count, 1) { total += distance(line[i - 1], line[i]) }
        return total
    }

    static func distance(_ a: ScreenPoint, _ b: ScreenPoint) -> Double {
        ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
    }

    private static func resample(_ line: [ScreenPoint], offset: Double, spacing: Double, labelLength: Double,
                                 window: Double, maxAngle: Double) -> [LineAnchor] {
        let total = length(line)
        var anchors: [LineAnchor] = []
        var distance = 0.0
        var marked = offset - spacing
        for i in 0..<(line.count - 1) {
            let a = line[i], b = line[i + 1]
            let segment = Self.distance(a, b)
            while segment > 0, marked + spacing < distance + segment {
                marked += spacing
                let t = (marked - distance) / segment
                let anchor = LineAnchor(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t, segment: i)
                if marked - labelLength / 2 >= 0, marked + labelLength / 2 <= total,
                   fitsAngle(line, anchor, labelLength: labelLength, window: window, maxAngle: maxAngle) {
                    anchors.append(anchor)
                }
                if anchors.count > 10_000 { return anchors }
            }
            distance += segment
        }
        return anchors
    }

    /// Whether the line under a label centred at `anchor` turns by at most `maxAngle` within any
    /// `window` of its length.
    static func fitsAngle(_ line: [ScreenPoint], _ anchor: LineAnchor, labelLength: Double, window: Double, maxAngle: Double) -> Bool {
        var index = anchor.segment + 1
        var p: ScreenPoint = (anchor.x, anchor.y)
        var along = 0.0
        // Back to the first vertex under the label.
        while along > -labelLength / 2 {
            index -= 1
            if index < 0 { return false }
            along -= distance(line[index], p)
            p = line[index]
        }
        along += distance(line[index], line[index + 1])
        index += 1
        var corners: [(distance: Double, angle: Double)] = []
        var first = 0
        var sum = 0.0
        while along < labelLength / 2 {
            guard index + 1 < line.count else { return false }
            let previous = line[index - 1], current = line[index], next = line[index + 1]
            var delta = atan2(current.y - previous.y, current.x - previous.x) - atan2(next.y - current.y, next.x - current.x)
            delta = abs((delta + 3 * .pi).truncatingRemainder(dividingBy: 2 * .pi) - .pi)
            corners.append((along, delta))
            sum += delta
            while first < corners.count, along - corners[first].distance > window {
                sum -= corners[first].angle
                first += 1
            }
            if sum > maxAngle { return false }
            index += 1
            along += distance(current, next)
        }
        return true
    }

    /// The point `offset` points along the line from the anchor (backwards when negative) and the
    /// direction of the segment it falls on, in radians; nil past either end.
    static func walk(_ line: [ScreenPoint], from anchor: LineAnchor, by offset: Double) -> (point: ScreenPoint, angle: Double)? {
        var index = anchor.segment
        var p: ScreenPoint = (anchor.x, anchor.y)
        var remaining = abs(offset)
        if offset >= 0 {
            while true {
                let next = line[index + 1]
                let d = distance(p, next)
                if remaining <= d {
                    let t = d > 0 ? remaining / d : 0
                    let a = line[index]
                    return ((p.x + (next.x - p.x) * t, p.y + (next.y - p.y) * t), atan2(next.y - a.y, next.x - a.x))
                }
                remaining -= d
                p = next
                index += 1
                if index + 1 >= line.count { return nil }
            }
        } else {
            while true {
                let previous = line[index]
                let d = distance(p, previous)
                if remaining <= d {
                    let t = d > 0 ? remaining / d : 0
                    let b = line[index + 1]
                    return ((p.x + (previous.x - p.x) * t, p.y + (previous.y - p.y) * t), atan2(b.y - previous.y, b.x - previous.x))
                }
                remaining -= d
                p = previous
                index -= 1
                if index < 0 { return nil }
            }
        }
    }
}
