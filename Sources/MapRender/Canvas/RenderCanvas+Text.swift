import CCairo
import Foundation

/// One glyph ready to draw: its font (an index into the faces drawn with), its origin on the
/// baseline in canvas points, and its rotation about that origin (radians, clockwise on screen).
struct CanvasGlyph {
    var face: Int
    var id: UInt32
    var x: Double
    var y: Double
    var angle: Double
}

extension RenderCanvas {
    /// Adds the outlines of `glyphs` to the current path, from Cairo's FreeType faces.
    private func appendGlyphPaths(_ glyphs: [CanvasGlyph], faces: [FontFace], size: Double) {
        var current = -1
        var single = cairo_glyph_t()
        for glyph in glyphs where glyph.face >= 0 && glyph.face < faces.count {
            if glyph.face != current {
                cairo_set_font_face(cairo, faces[glyph.face].cairoFace)
                cairo_set_font_size(cairo, size)
                current = glyph.face
            }
            if glyph.angle == 0 {
                single = cairo_glyph_t(index: UInt(glyph.id), x: glyph.x, y: glyph.y)
                cairo_glyph_path(cairo, &single, 1)
            } else {
                // The path is not part of the saved state, so the rotated glyph stays in it.
                cairo_save(cairo)
                cairo_translate(cairo, glyph.x, glyph.y)
                cairo_rotate(cairo, glyph.angle)
                single = cairo_glyph_t(index: UInt(glyph.id), x: 0, y: 0)
                cairo_glyph_path(cairo, &single, 1)
                cairo_restore(cairo)
            }
        }
    }

    /// Draws a label's halo: the glyph outlines stroked `width` points out from their edges
    /// (round joins), under where the text will be filled. `blur` fades the outer `blur` points
    /// of it, drawn as a few widening strokes of falling opacity.
    func drawTextHalo(_ glyphs: [CanvasGlyph], faces: [FontFace], size: Double, color: RenderColor, width: Double, blur: Double) {
        guard width > 0 || blur > 0, color.alpha > 0, !glyphs.isEmpty, size > 0 else { return }
        cairo_save(cairo)
        cairo_new_path(cairo)
        appendGlyphPaths(glyphs, faces: faces, size: size)
        cairo_set_line_join(cairo, CAIRO_LINE_JOIN_ROUND)
        cairo_set_line_cap(cairo, CAIRO_LINE_CAP_ROUND)
        cairo_set_dash(cairo, nil, 0, 0)
        if blur > 0.25 {
            // Stacked strokes from the widest: each adds 1/steps of the colour, so the halo is
            // solid near the glyph and fades over `blur` points.
            let steps = 4
            cairo_push_group(cairo)
            for step in 0..<steps {
                let reach = max(width - blur / 2, 0) + blur * Double(steps - step) / Double(steps)
                cairo_set_line_width(cairo, max(2 * reach, 0.01))
                cairo_set_source_rgba(cairo, color.red, color.green, color.blue, 1.0 / Double(steps))
                cairo_stroke_preserve(cairo)
            }
            cairo_new_path(cairo)
            cairo_pop_group_to_source(cairo)
            cairo_paint_with_alpha(cairo, color.alpha)
        } else {
            cairo_set_line_width(cairo, 2 * width)
            setSource(color)
            cairo_stroke(cairo)
        }
        cairo_restore(cairo)
    }

    /// Fills the glyph outlines (non-zero winding: font outlines may overlap themselves).
    func drawTextFill(_ glyphs: [CanvasGlyph], faces: [FontFace], size: Double, color: RenderColor) {
        guard color.alpha > 0, !glyphs.isEmpty, size > 0 else { return }
        cairo_save(cairo)
        cairo_new_path(cairo)
        appendGlyphPaths(glyphs, faces: faces, size: size)
        cairo_set_fill_rule(cairo, CAIRO_FILL_RULE_WINDING)
        setSource(color)
        cairo_fill(cairo)
        cairo_restore(cairo)
    }

    /// Draws a sprite image stretched over a `width × height` point box centred at `center`,
    /// rotated by `angle` radians. A signed-distance-field image is drawn as `sdf`'s colour
    /// through its mask instead of its own pixels.
    func drawSprite(_ sheet: SpriteSheet, _ entry: SpriteSheet.Entry, center: ScreenPoint, width: Double, height: Double,
                    angle: Double, opacity: Double, sdf: (mask: SpriteMask, color: RenderColor)? = nil) {
        guard width > 0, height > 0, width.isFinite, height.isFinite, opacity > 0 else { return }
        cairo_save(cairo)
        cairo_translate(cairo, center.x, center.y)
        if angle != 0 { cairo_rotate(cairo, angle) }
        cairo_scale(cairo, width / Double(entry.width), height / Double(entry.height))
        cairo_translate(cairo, -Double(entry.width) / 2, -Double(entry.height) / 2)
        if let sdf {
            cairo_set_source_rgba(cairo, sdf.color.red, sdf.color.green, sdf.color.blue, sdf.color.alpha * min(opacity, 1))
            cairo_new_path(cairo)
            cairo_rectangle(cairo, 0, 0, Double(entry.width), Double(entry.height))
            cairo_clip(cairo)
            let mask = cairo_pattern_create_for_surface(sdf.mask.surface)
            cairo_pattern_set_filter(mask, CAIRO_FILTER_BILINEAR)
            cairo_pattern_set_extend(mask, CAIRO_EXTEND_PAD)
            cairo_mask(cairo, mask)
            cairo_pattern_destroy(mask)
        } else {
            // The image's own rectangle with its edge pixels extended: scaled icons neither fade
            // at their edges nor pick up their neighbours in the sheet.
            sheet.image.sourceLock.lock()
            defer { sheet.image.sourceLock.unlock() }
            guard let image = cairo_surface_create_for_rectangle(sheet.image.surface, Double(entry.x), Double(entry.y),
                                                                 Double(entry.width), Double(entry.height)) else {
                cairo_restore(cairo)
                return
            }
            defer { cairo_surface_destroy(image) }
            cairo_new_path(cairo)
            cairo_rectangle(cairo, 0, 0, Double(entry.width), Double(entry.height))
            cairo_clip(cairo)
            cairo_set_source_surface(cairo, image, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(cairo), CAIRO_FILTER_BILINEAR)
            cairo_pattern_set_extend(cairo_get_source(cairo), CAIRO_EXTEND_PAD)
            cairo_paint_with_alpha(cairo, min(opacity, 1))
            // Let go of the sheet while holding its lock.
            cairo_set_source_rgba(cairo, 0, 0, 0, 0)
        }
        cairo_restore(cairo)
    }
}

/// The alpha mask of a signed-distance-field sprite image cut at one distance: MapLibre's SDF
/// icons store the distance to the shape's edge in their alpha (0.75 on the edge, 1/8 per sprite
/// pixel), so a cut at 0.75 is the icon and a lower cut the icon with a halo around it.
final class SpriteMask {
    let surface: OpaquePointer

    init?(sheet: SpriteSheet, entry: SpriteSheet.Entry, cut: Double, softness: Double) {
        let width = entry.width, height = entry.height
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(width), Int32(height)),
              cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else { return nil }
        let source = sheet.image.surface
        sheet.image.sourceLock.lock()
        defer { sheet.image.sourceLock.unlock() }
        cairo_surface_flush(source)
        guard let input = cairo_image_surface_get_data(source), let output = cairo_image_surface_get_data(surface) else {
            cairo_surface_destroy(surface)
            return nil
        }
        let inStride = Int(cairo_image_surface_get_stride(source)), outStride = Int(cairo_image_surface_get_stride(surface))
        let lower = cut - max(softness, 0.01), upper = cut + max(softness, 0.01)
        for y in 0..<height {
            for x in 0..<width {
                let word = UnsafeRawPointer(input + (entry.y + y) * inStride + (entry.x + x) * 4).loadUnaligned(as: UInt32.self)
                let a = Double(word >> 24) / 255
                let t = min(max((a - lower) / (upper - lower), 0), 1)
                output[y * outStride + x] = UInt8((t * t * (3 - 2 * t) * 255).rounded())
            }
        }
        cairo_surface_mark_dirty(surface)
        self.surface = surface
    }

    deinit { cairo_surface_destroy(surface) }
}
