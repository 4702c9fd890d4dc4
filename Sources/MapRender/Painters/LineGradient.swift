import CCairo
import Foundation
import MapStyle

extension LayerPainter {
    /// `line-gradient`: the colour at each point of a line is the property evaluated with
    /// `["line-progress"]`, the fraction of the line's length up to that point (GeoJSON with
    /// `lineMetrics`). The line's shape — caps, joins — is stroked once as a mask, and the colour
    /// under it is laid segment by segment, each with a linear gradient through colours sampled
    /// along it (MapLibre samples the ramp in 256 steps too).
    func strokeGradient(_ line: [ScreenPoint], closed: Bool, style: StrokeStyle, gradient: CompiledProperty,
                        context: EvaluationContext, opacity: Double) {
        guard line.count >= 2, style.width > 0, style.width.isFinite else { return }
        var cumulative = [0.0]
        for i in 1..<line.count {
            let dx = line[i].x - line[i - 1].x, dy = line[i].y - line[i - 1].y
            cumulative.append(cumulative[i - 1] + (dx * dx + dy * dy).squareRoot())
        }
        let total = cumulative[cumulative.count - 1]
        guard total > 0 else { return }
        var ramp: [RenderColor] = []
        for step in 0..<256 {
            var stepContext = context
            stepContext.lineProgress = Double(step) / 255
            ramp.append(gradient.color(stepContext) ?? RenderColor(red: 0, green: 0, blue: 0, alpha: 0))
        }
        func color(at distance: Double) -> RenderColor { ramp[Int((min(max(distance / total, 0), 1) * 255).rounded())] }
        let cairo = canvas.cairo
        cairo_save(cairo)
        defer { cairo_restore(cairo) }
        // The colours: each segment's slab reaches a line width past its ends, so joins and caps
        // are covered; a later segment's slab lies over the earlier one's overhang.
        cairo_push_group(cairo)
        let reach = style.width
        for i in 1..<line.count {
            let a = line[i - 1], b = line[i]
            let length = cumulative[i] - cumulative[i - 1]
            guard length > 0 else { continue }
            let ux = (b.x - a.x) / length, uy = (b.y - a.y) / length
            let start = (a.x - ux * reach, a.y - uy * reach), end = (b.x + ux * reach, b.y + uy * reach)
            guard let pattern = cairo_pattern_create_linear(a.x, a.y, b.x, b.y) else { continue }
            let stops = max(2, min(64, Int(length / max(total, 1) * 256) + 2))
            for s in 0..<stops {
                let t = Double(s) / Double(stops - 1)
                let c = color(at: cumulative[i - 1] + length * t)
                cairo_pattern_add_color_stop_rgba(pattern, t, c.red, c.green, c.blue, c.alpha)
            }
            cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
            cairo_new_path(cairo)
            let nx = -uy * reach, ny = ux * reach
            cairo_move_to(cairo, start.0 + nx, start.1 + ny)
            cairo_line_to(cairo, end.0 + nx, end.1 + ny)
            cairo_line_to(cairo, end.0 - nx, end.1 - ny)
            cairo_line_to(cairo, start.0 - nx, start.1 - ny)
            cairo_close_path(cairo)
            cairo_set_source(cairo, pattern)
            cairo_fill(cairo)
            cairo_pattern_destroy(pattern)
        }
        let colours = cairo_pop_group(cairo)
        // The shape, as a mask at the line's opacity.
        cairo_push_group(cairo)
        canvas.stroke(lines: [line], closed: closed, width: style.width,
                      color: RenderColor(red: 0, green: 0, blue: 0, alpha: min(max(opacity, 0), 1)),
                      cap: style.cap, join: style.join, miterLimit: style.miterLimit)
        let mask = cairo_pop_group(cairo)
        cairo_set_source(cairo, colours)
        cairo_mask(cairo, mask)
        cairo_pattern_destroy(colours)
        cairo_pattern_destroy(mask)
    }
}
