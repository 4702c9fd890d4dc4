import Foundation

extension LayerPainter {
    /// The named sprite image as a pattern, or nil (no sprite, no such image).
    func pattern(named name: String?) -> RenderPattern? {
        guard let name, let found = patterns?(name) else { return nil }
        return RenderPattern(sheet: found.sheet, entry: found.entry)
    }

    /// How MapLibre lays a pattern on the map: aligned with the map (it turns with the bearing),
    /// one image pixel per `pixelRatio` of the image at the integer zoom, growing with the map up
    /// to the next integer zoom, and starting at a tile's corner — `anchor`, or for sources that
    /// are not tiled, the corner of the tile under the view's centre.
    func patternPlacement(_ pattern: RenderPattern, anchor: ScreenPoint?) -> RenderPattern.Placement {
        let origin: ScreenPoint
        if let anchor {
            origin = anchor
        } else {
            let n = exp2(zoom.rounded(.down))
            let center = transform.world(screenX: transform.halfWidth, screenY: transform.halfHeight)
            origin = transform.screen(worldX: (center.x * n).rounded(.down) / n, worldY: (center.y * n).rounded(.down) / n)
        }
        let scale = exp2(zoom - zoom.rounded(.down)) / pattern.pixelRatio
        return RenderPattern.Placement(origin: origin, angle: atan2(-transform.sinBearing, transform.cosBearing),
                                       scaleX: scale, scaleY: scale)
    }

    /// `line-pattern`: the image runs along the line, its length growing with the map like a
    /// fill pattern, its height at its own size across the line (repeated where the line is wider),
    /// restarting at the line's start. Each segment is laid on its own, so joins are plain.
    func strokePattern(_ line: [ScreenPoint], closed: Bool, width: Double, pattern: RenderPattern, opacity: Double) {
        var points = line
        if closed, let first = points.first { points.append(first) }
        guard points.count >= 2, width > 0 else { return }
        let along = exp2(zoom - zoom.rounded(.down)) / pattern.pixelRatio
        let height = Double(pattern.pixelHeight) / pattern.pixelRatio
        var distance = 0.0
        canvas.beginGroup()
        for i in 1..<points.count {
            let a = points[i - 1], b = points[i]
            let dx = b.x - a.x, dy = b.y - a.y, length = (dx * dx + dy * dy).squareRoot()
            guard length > 0 else { continue }
            let ux = dx / length, uy = dy / length, nx = -uy * width / 2, ny = ux * width / 2
            let quad = [(a.x + nx, a.y + ny), (b.x + nx, b.y + ny), (b.x - nx, b.y - ny), (a.x - nx, a.y - ny)]
            let origin = (a.x - ux * distance + uy * height / 2, a.y - uy * distance - ux * height / 2)
            let placement = RenderPattern.Placement(origin: origin, angle: atan2(uy, ux), scaleX: along, scaleY: 1 / pattern.pixelRatio)
            canvas.fill(polygons: [[quad]], pattern: pattern, placement, opacity: 1)
            distance += length
        }
        canvas.endGroup(opacity: opacity)
    }
}
