import CCairo
import Foundation

/// One step of a vector path in canvas points (the shapes of markers and of overlay renderers).
public enum RenderPathElement: Sendable {
    case move(x: Double, y: Double)
    case line(x: Double, y: Double)
    /// A cubic Bézier curve through two control points to (`x`, `y`).
    case curve(x1: Double, y1: Double, x2: Double, y2: Double, x: Double, y: Double)
    /// A clockwise arc (on screen, y down) around (`centerX`, `centerY`) between angles in radians.
    case arc(centerX: Double, centerY: Double, radius: Double, startAngle: Double, endAngle: Double)
    case close
}

/// How a stroked path looks: width in points, ends, corners and dashes (`dashPhase` is how far
/// into the dash pattern the path starts, as Core Graphics' `lineDashPhase`).
public struct RenderStrokeStyle: Sendable {
    public var width: Double
    public var cap: RenderCanvas.LineCap
    public var join: RenderCanvas.LineJoin
    public var miterLimit: Double
    public var dashes: [Double]
    public var dashPhase: Double

    public init(width: Double, cap: RenderCanvas.LineCap = .round, join: RenderCanvas.LineJoin = .round,
                miterLimit: Double = 10, dashes: [Double] = [], dashPhase: Double = 0) {
        (self.width, self.cap, self.join, self.miterLimit, self.dashes, self.dashPhase) = (width, cap, join, miterLimit, dashes, dashPhase)
    }
}

extension RenderCanvas {
    /// Fills a path; `evenOdd` false uses the non-zero winding rule instead (the canvas's default
    /// is even–odd, which MapKit's polygons use).
    public func fill(path: [RenderPathElement], color: RenderColor, evenOdd: Bool = true) {
        guard addPath(path) else { return }
        cairo_set_fill_rule(cairo, evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
        setSource(color)
        cairo_fill(cairo)
        cairo_set_fill_rule(cairo, CAIRO_FILL_RULE_EVEN_ODD)
    }

    /// Strokes a path, its subpaths as one shape (so a translucent stroke does not darken where
    /// its own segments meet).
    public func stroke(path: [RenderPathElement], style: RenderStrokeStyle, color: RenderColor) {
        guard style.width > 0, style.width.isFinite, addPath(path) else { return }
        applyStroke(style)
        setSource(color)
        cairo_stroke(cairo)
        cairo_set_dash(cairo, nil, 0, 0)
    }

    /// Strokes the segment from `start` to `end` with a linear gradient from `startColor` to
    /// `endColor` along it (a gradient polyline is drawn as such segments).
    public func strokeGradientSegment(from start: (x: Double, y: Double), to end: (x: Double, y: Double),
                                      startColor: RenderColor, endColor: RenderColor, style: RenderStrokeStyle) {
        guard style.width > 0, style.width.isFinite, [start.x, start.y, end.x, end.y].allSatisfy(\.isFinite) else { return }
        cairo_new_path(cairo)
        cairo_move_to(cairo, start.x, start.y)
        cairo_line_to(cairo, end.x, end.y)
        applyStroke(style)
        guard let gradient = cairo_pattern_create_linear(start.x, start.y, end.x, end.y) else { return }
        defer { cairo_pattern_destroy(gradient) }
        cairo_pattern_add_color_stop_rgba(gradient, 0, startColor.red, startColor.green, startColor.blue, startColor.alpha)
        cairo_pattern_add_color_stop_rgba(gradient, 1, endColor.red, endColor.green, endColor.blue, endColor.alpha)
        cairo_set_source(cairo, gradient)
        cairo_stroke(cairo)
        cairo_set_dash(cairo, nil, 0, 0)
    }

    /// A soft shadow of a filled path: the path filled `offset` away in a translucent colour,
    /// spread by strokes of shrinking width, so edges fade over about `blur` points.
    public func fillShadow(path: [RenderPathElement], offsetX: Double, offsetY: Double, blur: Double, color: RenderColor) {
        let moved = path.map { $0.offsetBy(x: offsetX, y: offsetY) }
        let steps = max(1, Int(blur.rounded()))
        let layer = RenderColor(red: color.red, green: color.green, blue: color.blue, alpha: color.alpha / Double(steps + 1))
        beginGroup()
        fill(path: moved, color: layer)
        for step in 0..<steps {
            let width = blur * 2 * Double(steps - step) / Double(steps)
            stroke(path: moved, style: RenderStrokeStyle(width: width, cap: .round, join: .round), color: layer)
        }
        endGroup()
    }

    /// Draws a shaped run's outline `width` points wide (a text halo), the first glyph's origin
    /// at (`x`, `y`) on the baseline. Drawn before the text itself, it keeps text readable on
    /// any background.
    public func drawHalo(_ run: ShapedRun, x: Double, y: Double, width: Double, color: RenderColor) {
        guard width > 0, width.isFinite else { return }
        let glyphs = selectFont(of: run, x: x, y: y)
        cairo_new_path(cairo)
        cairo_glyph_path(cairo, glyphs, Int32(glyphs.count))
        applyStroke(RenderStrokeStyle(width: width, cap: .round, join: .round))
        setSource(color)
        cairo_stroke(cairo)
    }

    /// Composites another canvas of the same scale on top of this one at `opacity`, its top-left
    /// corner at (`x`, `y`) points (the passes of a snapshot: base map, overlays, labels; a picture
    /// in a window's panel).
    public func draw(_ canvas: RenderCanvas, x: Double = 0, y: Double = 0, opacity: Double = 1) {
        cairo_surface_flush(canvas.surface)
        cairo_save(cairo)
        cairo_scale(cairo, 1 / scale, 1 / scale)
        cairo_set_source_surface(cairo, canvas.surface, x * scale, y * scale)
        cairo_paint_with_alpha(cairo, min(max(opacity, 0), 1))
        cairo_restore(cairo)
    }

    /// Draws what `body` draws scaled by `factor` about the point (`x`, `y`) and moved by
    /// (`dx`, `dy`) points: an annotation growing from its tip, or dropping onto it, as it appears.
    /// A non-finite or non-positive factor draws nothing.
    public func withTransform(scale factor: Double, aboutX x: Double, y: Double, dx: Double = 0, dy: Double = 0, _ body: () -> Void) {
        guard factor.isFinite, factor > 0, x.isFinite, y.isFinite, dx.isFinite, dy.isFinite else { return }
        cairo_save(cairo)
        cairo_translate(cairo, x + dx, y + dy)
        cairo_scale(cairo, factor, factor)
        cairo_translate(cairo, -x, -y)
        body()
        cairo_restore(cairo)
    }

    /// Narrows drawing to the inside of a path (antialiased), until ``restore()``.
    public func clip(path: [RenderPathElement]) {
        guard addPath(path) else { return }
        cairo_clip(cairo)
    }

    /// Draws an image into a rectangle of points (scaled to fill it), at `opacity`.
    public func draw(_ image: RenderImage, x: Double, y: Double, width: Double, height: Double, opacity: Double = 1) {
        guard width > 0, height > 0, width.isFinite, height.isFinite, image.width > 0, image.height > 0 else { return }
        cairo_save(cairo)
        cairo_translate(cairo, x, y)
        cairo_scale(cairo, width / Double(image.width), height / Double(image.height))
        cairo_set_source_surface(cairo, image.surface, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cairo), CAIRO_FILTER_BILINEAR)
        cairo_new_path(cairo)
        cairo_rectangle(cairo, 0, 0, Double(image.width), Double(image.height))
        cairo_clip(cairo)
        cairo_paint_with_alpha(cairo, min(max(opacity, 0), 1))
        cairo_restore(cairo)
    }

    /// The canvas's pixels as a new image (to draw into another canvas).
    public func makeImage() throws(RenderError) -> RenderImage {
        try RenderImage(png: pngData())
    }

    /// Builds the path; false when it has no finite point to draw.
    private func addPath(_ path: [RenderPathElement]) -> Bool {
        cairo_new_path(cairo)
        var drawn = false
        for element in path {
            switch element {
            case .move(let x, let y):
                guard x.isFinite, y.isFinite else { continue }
                cairo_move_to(cairo, x, y)
            case .line(let x, let y):
                guard x.isFinite, y.isFinite else { continue }
                cairo_line_to(cairo, x, y)
                drawn = true
            case .curve(let x1, let y1, let x2, let y2, let x, let y):
                guard [x1, y1, x2, y2, x, y].allSatisfy(\.isFinite) else { continue }
                cairo_curve_to(cairo, x1, y1, x2, y2, x, y)
                drawn = true
            case .arc(let cx, let cy, let r, let a0, let a1):
                guard [cx, cy, r, a0, a1].allSatisfy(\.isFinite), r > 0 else { continue }
                cairo_arc(cairo, cx, cy, r, a0, a1)
                drawn = true
            case .close:
                cairo_close_path(cairo)
            }
        }
        return drawn
    }

    private func applyStroke(_ style: RenderStrokeStyle) {
        cairo_set_line_width(cairo, style.width)
        cairo_set_line_cap(cairo, style.cap == .round ? CAIRO_LINE_CAP_ROUND : style.cap == .square ? CAIRO_LINE_CAP_SQUARE : CAIRO_LINE_CAP_BUTT)
        cairo_set_line_join(cairo, style.join == .round ? CAIRO_LINE_JOIN_ROUND : style.join == .bevel ? CAIRO_LINE_JOIN_BEVEL : CAIRO_LINE_JOIN_MITER)
        cairo_set_miter_limit(cairo, max(1, style.miterLimit.isFinite ? style.miterLimit : 10))
        let usable = style.dashes.filter { $0.isFinite && $0 >= 0 }
        if usable.count == style.dashes.count, usable.contains(where: { $0 > 0 }) {
            cairo_set_dash(cairo, usable, Int32(usable.count), style.dashPhase.isFinite ? style.dashPhase : 0)
        } else {
            cairo_set_dash(cairo, nil, 0, 0)
        }
    }
}

extension RenderPathElement {
    func offsetBy(x dx: Double, y dy: Double) -> RenderPathElement {
        switch self {
        case .move(let x, let y): .move(x: x + dx, y: y + dy)
        case .line(let x, let y): .line(x: x + dx, y: y + dy)
        case .curve(let x1, let y1, let x2, let y2, let x, let y): .curve(x1: x1 + dx, y1: y1 + dy, x2: x2 + dx, y2: y2 + dy, x: x + dx, y: y + dy)
        case .arc(let cx, let cy, let r, let a0, let a1): .arc(centerX: cx + dx, centerY: cy + dy, radius: r, startAngle: a0, endAngle: a1)
        case .close: .close
        }
    }
}
