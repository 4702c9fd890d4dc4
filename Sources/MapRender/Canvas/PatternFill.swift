import CCairo
import Foundation

/// One sprite image ready to repeat over an area (`fill-pattern`, `background-pattern`,
/// `line-pattern`): a copy of the image's rectangle as its own surface, so that repeating it
/// never reaches the neighbouring images of the sheet.
final class RenderPattern {
    let pattern: OpaquePointer
    private let surface: OpaquePointer
    /// The image's size in pixels and the device pixels per point it was drawn for.
    let pixelWidth: Int, pixelHeight: Int
    let pixelRatio: Double

    init?(sheet: SpriteSheet, entry: SpriteSheet.Entry) {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(entry.width), Int32(entry.height)),
              cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else { return nil }
        guard let cairo = cairo_create(surface) else {
            cairo_surface_destroy(surface)
            return nil
        }
        sheet.image.sourceLock.withLock {
            cairo_set_source_surface(cairo, sheet.image.surface, -Double(entry.x), -Double(entry.y))
            cairo_set_operator(cairo, CAIRO_OPERATOR_SOURCE)
            cairo_paint(cairo)
            cairo_destroy(cairo)
        }
        guard let pattern = cairo_pattern_create_for_surface(surface) else {
            cairo_surface_destroy(surface)
            return nil
        }
        cairo_pattern_set_extend(pattern, CAIRO_EXTEND_REPEAT)
        cairo_pattern_set_filter(pattern, CAIRO_FILTER_BILINEAR)
        self.surface = surface
        self.pattern = pattern
        (pixelWidth, pixelHeight, pixelRatio) = (entry.width, entry.height, entry.pixelRatio)
    }

    deinit {
        cairo_pattern_destroy(pattern)
        cairo_surface_destroy(surface)
    }

    /// Where the image's pixel (0, 0) lands, how its axes turn (radians, clockwise on screen) and
    /// how many points one image pixel covers along each axis.
    struct Placement {
        var origin: (x: Double, y: Double)
        var angle: Double
        var scaleX: Double, scaleY: Double
    }

    fileprivate func use(on cairo: OpaquePointer, _ placement: Placement) -> Bool {
        guard placement.scaleX > 0, placement.scaleY > 0, placement.scaleX.isFinite, placement.scaleY.isFinite else { return false }
        var matrix = cairo_matrix_t()
        cairo_matrix_init_translate(&matrix, placement.origin.x, placement.origin.y)
        cairo_matrix_rotate(&matrix, placement.angle)
        cairo_matrix_scale(&matrix, placement.scaleX, placement.scaleY)
        guard cairo_matrix_invert(&matrix) == CAIRO_STATUS_SUCCESS else { return false }
        cairo_pattern_set_matrix(pattern, &matrix)
        cairo_set_source(cairo, pattern)
        return true
    }
}

extension RenderCanvas {
    /// Covers the whole canvas with a repeated image at `opacity`.
    func paint(_ pattern: RenderPattern, _ placement: RenderPattern.Placement, opacity: Double) {
        cairo_save(cairo)
        if pattern.use(on: cairo, placement) { cairo_paint_with_alpha(cairo, min(max(opacity, 0), 1)) }
        cairo_restore(cairo)
    }

    /// Fills polygons (each its rings) with a repeated image at `opacity`; even–odd, like colour fills.
    func fill(polygons: [[[(x: Double, y: Double)]]], pattern: RenderPattern, _ placement: RenderPattern.Placement, opacity: Double) {
        cairo_save(cairo)
        defer { cairo_restore(cairo) }
        guard pattern.use(on: cairo, placement) else { return }
        cairo_new_path(cairo)
        for rings in polygons {
            for ring in rings where ring.count >= 3 {
                cairo_move_to(cairo, ring[0].x, ring[0].y)
                for p in ring.dropFirst() { cairo_line_to(cairo, p.x, p.y) }
                cairo_close_path(cairo)
            }
        }
        if opacity >= 1 {
            cairo_fill(cairo)
        } else {
            cairo_clip(cairo)
            cairo_paint_with_alpha(cairo, max(opacity, 0))
        }
    }

    /// Strokes closed rings `width` points wide with a repeated image (a patterned fill's outline).
    func stroke(rings: [[(x: Double, y: Double)]], width: Double, pattern: RenderPattern, _ placement: RenderPattern.Placement,
                opacity: Double) {
        guard width > 0, width.isFinite else { return }
        cairo_save(cairo)
        defer { cairo_restore(cairo) }
        guard pattern.use(on: cairo, placement) else { return }
        cairo_push_group(cairo)
        cairo_set_line_width(cairo, width)
        cairo_set_line_join(cairo, CAIRO_LINE_JOIN_BEVEL)
        for ring in rings where ring.count >= 2 {
            cairo_new_path(cairo)
            cairo_move_to(cairo, ring[0].x, ring[0].y)
            for p in ring.dropFirst() { cairo_line_to(cairo, p.x, p.y) }
            cairo_close_path(cairo)
            cairo_stroke(cairo)
        }
        cairo_pop_group_to_source(cairo)
        cairo_paint_with_alpha(cairo, min(max(opacity, 0), 1))
    }
}

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
