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
