import CCairo
import Foundation
import MapStyle

extension LayerPainter {
    /// `heatmap`: every point adds a Gaussian kernel to a density buffer — `heatmap-weight ×
    /// heatmap-intensity / √(2π) · exp(−4.5 (d / heatmap-radius)²)`, so the kernel's σ is a third
    /// of the radius, as in MapLibre's heatmap shader — and the density, clamped to 0…1, is then
    /// coloured through `heatmap-color` (read as `["heatmap-density"]`) and laid down at
    /// `heatmap-opacity`. Kernels are not clipped to tiles; points in a tile's buffer were dropped.
    ///
    /// Large canvases (over 4 million pixels) sum the density on a grid four times coarser, as
    /// MapLibre's heatmap framebuffer does, and read it back with linear interpolation, so memory
    /// and time stay bounded.
    func paintHeatmap(_ layer: CompiledLayer, groups: [FeatureGroup]) {
        let fullWidth = canvas.pixelWidth, fullHeight = canvas.pixelHeight
        let step = fullWidth * fullHeight > 4_000_000 ? 4 : 1
        let width = (fullWidth + step - 1) / step, height = (fullHeight + step - 1) / step
        let gridScale = pixelRatio / Double(step)
        var density = [Float](repeating: 0, count: width * height)
        let zoomContext = EvaluationContext(zoom: zoom)
        let intensity = layer.paint["heatmap-intensity"]?.number(zoomContext) ?? 1
        var drewAny = false
        for group in groups {
            for (feature, context) in features(layer, in: group) {
                guard case .points(let points) = feature.shape else { continue }
                let radius = (layer.paint["heatmap-radius"]?.number(context) ?? 30) * gridScale
                let weight = layer.paint["heatmap-weight"]?.number(context) ?? 1
                let peak = weight * intensity / (2 * Double.pi).squareRoot()
                guard radius > 0, peak > 0, radius.isFinite, peak.isFinite else { continue }
                // MapLibre stops the kernel where it falls below 1/4080 (a sixteenth of one 8-bit step).
                let cutoff = 1.0 / 255 / 16
                guard peak > cutoff else { continue }
                let reach = min(radius * (2 * log(peak / cutoff)).squareRoot() / 3, Double(max(width, height)))
                for point in points {
                    let cx = point.x * gridScale, cy = point.y * gridScale
                    // Off the canvas (or not a number): nothing of the kernel shows.
                    guard cx > -reach, cy > -reach, cx < Double(width) + reach, cy < Double(height) + reach else { continue }
                    let x0 = max(0, Int((cx - reach).rounded(.down))), x1 = min(width - 1, Int((cx + reach).rounded(.up)))
                    let y0 = max(0, Int((cy - reach).rounded(.down))), y1 = min(height - 1, Int((cy + reach).rounded(.up)))
                    guard x0 <= x1, y0 <= y1 else { continue }
                    drewAny = true
                    let scale = -4.5 / (radius * radius)
                    for y in y0...y1 {
                        let dy = Double(y) + 0.5 - cy
                        for x in x0...x1 {
                            let dx = Double(x) + 0.5 - cx
                            let d2 = dx * dx + dy * dy
                            guard d2 <= reach * reach else { continue }
                            density[y * width + x] += Float(peak * exp(scale * d2))
                        }
                    }
                }
            }
        }
        guard drewAny else { return }
        // The ramp is looked up in 256 steps, like MapLibre's colour-ramp texture.
        var ramp: [RenderColor] = []
        for step in 0..<256 {
            var context = zoomContext
            context.heatmapDensity = Double(step) / 255
            ramp.append(layer.paint["heatmap-color"]?.color(context) ?? RenderColor(red: 0, green: 0, blue: 0, alpha: 0))
        }
        let opacity = min(max(layer.paint["heatmap-opacity"]?.number(zoomContext) ?? 1, 0), 1)
        var rgba = [UInt8](repeating: 0, count: fullWidth * fullHeight * 4)
        func sample(_ x: Int, _ y: Int) -> Double {
            guard step > 1 else { return Double(density[y * width + x]) }
            let gx = min(max((Double(x) + 0.5) / Double(step) - 0.5, 0), Double(width - 1))
            let gy = min(max((Double(y) + 0.5) / Double(step) - 0.5, 0), Double(height - 1))
            let x0 = Int(gx), y0 = Int(gy), x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
            let fx = gx - Double(x0), fy = gy - Double(y0)
            func d(_ x: Int, _ y: Int) -> Double { Double(density[y * width + x]) }
            return (d(x0, y0) * (1 - fx) + d(x1, y0) * fx) * (1 - fy) + (d(x0, y1) * (1 - fx) + d(x1, y1) * fx) * fy
        }
        for y in 0..<fullHeight {
            for x in 0..<fullWidth {
                let value = sample(x, y)
                guard value > 0 else { continue }
                let i = y * fullWidth + x
                let color = ramp[Int((min(value, 1) * 255).rounded())]
                rgba[i * 4] = UInt8((min(max(color.red, 0), 1) * 255).rounded())
                rgba[i * 4 + 1] = UInt8((min(max(color.green, 0), 1) * 255).rounded())
                rgba[i * 4 + 2] = UInt8((min(max(color.blue, 0), 1) * 255).rounded())
                rgba[i * 4 + 3] = UInt8((min(max(color.alpha, 0), 1) * 255).rounded())
            }
        }
        guard let image = RenderImage(width: fullWidth, height: fullHeight, rgba: rgba) else { return }
        canvas.drawPixels(image, opacity: opacity)
    }
}

extension RenderCanvas {
    /// Lays an image of exactly the canvas's pixels over it, pixel for pixel, at `opacity`.
    func drawPixels(_ image: RenderImage, opacity: Double) {
        cairo_save(cairo)
        cairo_identity_matrix(cairo)
        cairo_set_source_surface(cairo, image.surface, 0, 0)
        cairo_paint_with_alpha(cairo, min(max(opacity, 0), 1))
        cairo_restore(cairo)
    }
}
