import Foundation
import MapStyle

extension LayerPainter {
    /// A disc of `circle-radius` with a ring of `circle-stroke-width` outside it. Circles are not
    /// clipped to tiles; points in a tile's buffer were dropped, so each is drawn once. Circles on
    /// line and polygon features (MapLibre draws one per vertex) are not drawn.
    func paintCircle(_ layer: CompiledLayer, groups: [FeatureGroup]) {
        for group in groups {
            for (feature, context) in features(layer, in: group) {
                guard case .points(let points) = feature.shape else { continue }
                let radius = layer.paint["circle-radius"]?.number(context) ?? 5
                let opacity = layer.paint["circle-opacity"]?.number(context) ?? 1
                let fill = layer.paint["circle-color"]?.color(context)?.withOpacity(opacity)
                let strokeWidth = layer.paint["circle-stroke-width"]?.number(context) ?? 0
                let strokeOpacity = layer.paint["circle-stroke-opacity"]?.number(context) ?? 1
                let stroke = layer.paint["circle-stroke-color"]?.color(context)?.withOpacity(strokeOpacity)
                let move = translation(layer, "circle", context)
                // MapLibre's circle shader fades the edge over the last device pixel inside the
                // radius, where Cairo's coverage is centred on it: half a pixel less matches.
                let inset = 0.5 / pixelRatio
                let blur = layer.paint["circle-blur"]?.number(context) ?? 0
                if blur > 0 {
                    for point in points {
                        blurredCircle(x: point.x + move.x, y: point.y + move.y, radius: radius, strokeWidth: max(strokeWidth, 0),
                                      fill: fill, stroke: stroke, blur: blur)
                    }
                    continue
                }
                for point in points {
                    let x = point.x + move.x, y = point.y + move.y
                    if let fill { canvas.fillCircle(x: x, y: y, radius: radius - inset, color: fill) }
                    if strokeWidth > 0, let stroke {
                        canvas.fillAnnulus(x: x, y: y, inner: max(radius - inset, 0), outer: radius + strokeWidth - inset, color: stroke)
                    }
                }
            }
        }
    }

    /// `circle-blur` as MapLibre's circle shader draws it, in fractions of the whole radius
    /// (circle plus stroke) R: opacity fades from full at `(1 − blur)·R` to nothing at R, and the
    /// fill turns into the stroke colour over the same width inside the stroke's inner edge.
    func blurredCircle(x: Double, y: Double, radius: Double, strokeWidth: Double, fill: RenderColor?, stroke: RenderColor?, blur: Double) {
        let outer = radius + strokeWidth
        guard outer > 0, outer.isFinite else { return }
        let width = max(blur, 1 / pixelRatio / outer)
        let fillColor = fill ?? RenderColor(red: 0, green: 0, blue: 0, alpha: 0)
        let strokeColor = strokeWidth >= 0.01 ? (stroke ?? RenderColor(red: 0, green: 0, blue: 0, alpha: 0)) : fillColor
        func smoothstep(_ e0: Double, _ e1: Double, _ v: Double) -> Double {
            let t = min(max((v - e0) / (e1 - e0), 0), 1)
            return t * t * (3 - 2 * t)
        }
        var stops: [(offset: Double, color: RenderColor)] = []
        let count = 48
        for i in 0...count {
            let l = Double(i) / Double(count)
            let visible = smoothstep(0, -width, l - 1)
            let toStroke = strokeWidth < 0.01 ? 0 : smoothstep(-width, 0, l - radius / outer)
            // Mix premultiplied, as the shader does, then hand Cairo straight colour.
            let a = (fillColor.alpha + (strokeColor.alpha - fillColor.alpha) * toStroke)
            func channel(_ f: Double, _ s: Double) -> Double {
                let premultiplied = f * fillColor.alpha + (s * strokeColor.alpha - f * fillColor.alpha) * toStroke
                return a > 0 ? premultiplied / a : 0
            }
            stops.append((l, RenderColor(red: channel(fillColor.red, strokeColor.red), green: channel(fillColor.green, strokeColor.green),
                                         blue: channel(fillColor.blue, strokeColor.blue), alpha: a * visible)))
        }
        canvas.fillRadialGradient(x: x, y: y, radius: outer, stops: stops)
    }
}
