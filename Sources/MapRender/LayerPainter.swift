import Foundation
import MapStyle

/// Draws the features of one layer on the canvas: evaluates the layer's compiled properties per
/// feature and turns them into Cairo fills and strokes the way MapLibre's shaders look.
struct LayerPainter {
    let canvas: RenderCanvas
    let transform: ScreenTransform
    let zoom: Double
    let pixelRatio: Double

    /// Filters and layout properties are evaluated at the tile's integer zoom, as MapLibre does
    /// when it lays out a tile; paint properties at the camera's fractional zoom.
    private var layoutZoom: Double { zoom.rounded(.down) }

    func paintBackground(_ layer: CompiledLayer) {
        let context = EvaluationContext(zoom: zoom)
        guard let color = layer.paint["background-color"]?.color(context) else { return }
        let opacity = layer.paint["background-opacity"]?.number(context) ?? 1
        canvas.fill(color.withOpacity(opacity))
    }

    func paint(_ layer: CompiledLayer, groups: [FeatureGroup]) {
        switch layer.layer.type {
        case .fill: paintFill(layer, groups: groups)
        case .line: paintLine(layer, groups: groups)
        case .circle: paintCircle(layer, groups: groups)
        default: break
        }
    }

    // MARK: Feature selection

    /// The features of a group the layer draws, each with its evaluation context at paint zoom.
    private func features(_ layer: CompiledLayer, in group: FeatureGroup) -> [(feature: RenderFeature, context: EvaluationContext)] {
        let key = group.clip == nil ? "" : (layer.layer.sourceLayer ?? "")
        var result: [(RenderFeature, EvaluationContext)] = []
        for feature in group.layers[key] ?? [] {
            var context = EvaluationContext(zoom: layoutZoom, properties: feature.properties, id: feature.id,
                                            geometryType: feature.geometryType)
            if let filter = layer.filter, !filter.matches(context) { continue }
            context.zoom = zoom
            result.append((feature, context))
        }
        return result
    }

    /// Runs `body` with the group's tile clip applied (nothing for GeoJSON).
    private func clipped(_ group: FeatureGroup, _ body: () -> Void) {
        guard let clip = group.clip else { return body() }
        canvas.save()
        canvas.clip(to: clip)
        body()
        canvas.restore()
    }

    /// A `*-translate` offset on the canvas: anchored to the map it turns with the bearing.
    private func translation(_ layer: CompiledLayer, _ prefix: String, _ context: EvaluationContext) -> ScreenPoint {
        let values = layer.paint[prefix + "-translate"]?.numbers(context) ?? []
        guard values.count == 2, values[0] != 0 || values[1] != 0 else { return (0, 0) }
        if layer.paint[prefix + "-translate-anchor"]?.string(context) == "viewport" { return (values[0], values[1]) }
        return transform.rotate(values[0], values[1])
    }

    private func moved(_ points: [ScreenPoint], by offset: ScreenPoint) -> [ScreenPoint] {
        offset.x == 0 && offset.y == 0 ? points : points.map { ($0.x + offset.x, $0.y + offset.y) }
    }

    // MARK: Fill

    /// Polygons are filled with hard edges, then (with `fill-antialias`, the default) outlined with
    /// a 1-device-pixel antialiased line in `fill-outline-color`, or the fill colour, at the fill's
    /// opacity. As in MapLibre, all outlines of a layer come after all its fills.
    private func paintFill(_ layer: CompiledLayer, groups: [FeatureGroup]) {
        let hasOutlineColor = layer.hasPaint("fill-outline-color")
        var outlines: [(group: Int, rings: [[ScreenPoint]], color: RenderColor)] = []
        for (index, group) in groups.enumerated() {
            clipped(group) {
                canvas.antialias = false
                defer { canvas.antialias = true }
                for (feature, context) in features(layer, in: group) {
                    guard case .polygons(let polygons) = feature.shape,
                          let fillColor = layer.paint["fill-color"]?.color(context) else { continue }
                    let opacity = layer.paint["fill-opacity"]?.number(context) ?? 1
                    let offset = translation(layer, "fill", context)
                    let color = fillColor.withOpacity(opacity)
                    for polygon in polygons {
                        let rings = polygon.map { moved($0, by: offset) }
                        canvas.fill(rings: rings, color: color)
                        guard layer.paint["fill-antialias"]?.evaluate(context).booleanValue ?? true else { continue }
                        let outline = hasOutlineColor ? (layer.paint["fill-outline-color"]?.color(context) ?? fillColor) : fillColor
                        outlines.append((index, rings, outline.withOpacity(opacity)))
                    }
                }
            }
        }
        var start = 0
        while start < outlines.count {
            let index = outlines[start].group
            var end = start
            while end < outlines.count, outlines[end].group == index { end += 1 }
            clipped(groups[index]) {
                for outline in outlines[start..<end] {
                    canvas.stroke(lines: outline.rings, closed: true, width: 1 / pixelRatio, color: outline.color,
                                  cap: .butt, join: .miter, miterLimit: 2)
                }
            }
            start = end
        }
    }

    // MARK: Line

    /// Each part of a feature is stroked on its own, so overlapping parts blend twice; polygon
    /// rings are closed (joined all round), LineStrings never are, even when they end where they
    /// start. `line-gap-width` draws two strokes either side of the gap, `line-offset` moves the
    /// line right of its direction, and `line-dasharray` is in line widths.
    private func paintLine(_ layer: CompiledLayer, groups: [FeatureGroup]) {
        let layoutContext = EvaluationContext(zoom: layoutZoom)
        let cap: RenderCanvas.LineCap = switch layer.layout["line-cap"]?.string(layoutContext) {
        case "round": .round
        case "square": .square
        default: .butt
        }
        let join: RenderCanvas.LineJoin = switch layer.layout["line-join"]?.string(layoutContext) {
        case "round": .round
        case "bevel": .bevel
        default: .miter
        }
        let miterLimit = layer.layout["line-miter-limit"]?.number(layoutContext) ?? 2
        for group in groups {
            clipped(group) {
                for (feature, context) in features(layer, in: group) {
                    var open: [[ScreenPoint]] = [], rings: [[ScreenPoint]] = []
                    switch feature.shape {
                    case .lines(let lines): open = lines
                    case .polygons(let polygons): rings = polygons.flatMap { $0 }
                    case .points: continue
                    }
                    guard let baseColor = layer.paint["line-color"]?.color(context) else { continue }
                    let width = layer.paint["line-width"]?.number(context) ?? 1
                    let gap = layer.paint["line-gap-width"]?.number(context) ?? 0
                    let offset = layer.paint["line-offset"]?.number(context) ?? 0
                    let color = baseColor.withOpacity(layer.paint["line-opacity"]?.number(context) ?? 1)
                    let move = translation(layer, "line", context)
                    var dashes = (layer.paint["line-dasharray"]?.numbers(context) ?? []).map { $0 * width }
                    if cap == .round, dashes.count >= 2, dashes.count % 2 == 0 {
                        // Fitted to MapLibre's image (pixelratio case, [2, 1] with round caps): its
                        // pattern repeats every 4 widths and the rounded dashes just touch, which
                        // is each dash one width longer with Cairo's round caps added outside it.
                        for i in stride(from: 0, to: dashes.count, by: 2) { dashes[i] += width }
                    }
                    let offsets = gap > 0 ? [offset - (gap + width) / 2, offset + (gap + width) / 2] : [offset]
                    let blur = layer.paint["line-blur"]?.number(context) ?? 0
                    for (parts, closed) in [(open, false), (rings, true)] where !parts.isEmpty {
                        for distance in offsets {
                            let lines = parts.map { moved(LineOffset.offset($0, by: distance, closed: closed), by: move) }
                            let style = StrokeStyle(width: width, cap: cap, join: join, miterLimit: miterLimit, dashes: dashes)
                            if blur > 0 {
                                strokeBlurred(lines, closed: closed, style: style, color: color, blur: blur)
                            } else {
                                canvas.stroke(lines: lines, closed: closed, width: width, color: color, cap: cap, join: join,
                                              miterLimit: miterLimit, dashes: dashes)
                            }
                        }
                    }
                }
            }
        }
    }

    private struct StrokeStyle {
        var width: Double, cap: RenderCanvas.LineCap, join: RenderCanvas.LineJoin, miterLimit: Double, dashes: [Double]
    }

    /// `line-blur`: MapLibre's line shader fades alpha linearly from the line's edge (half a device
    /// pixel outside it) inward over `blur` plus one device pixel. Cairo has no such gradient, so
    /// the line is built from nested strokes, each narrower and adding the next alpha step, in a
    /// group that is then composited once with the line's colour alpha.
    private func strokeBlurred(_ lines: [[ScreenPoint]], closed: Bool, style: StrokeStyle, color: RenderColor, blur: Double) {
        let fade = blur + 1 / pixelRatio
        let outset = style.width / 2 + 0.5 / pixelRatio
        let steps = min(24, max(4, Int((fade * pixelRatio * 2).rounded(.up))))
        var opaque = color
        opaque.alpha = 1
        canvas.beginGroup()
        var reached = 0.0
        for step in 0..<steps {
            let target = Double(step + 1) / Double(steps)
            let halfWidth = outset - fade * (Double(step) + 0.5) / Double(steps)
            guard halfWidth > 0 else { break }
            opaque.alpha = (target - reached) / (1 - reached)
            reached = target
            canvas.stroke(lines: lines, closed: closed, width: 2 * halfWidth, color: opaque, cap: style.cap, join: style.join,
                          miterLimit: style.miterLimit, dashes: style.dashes)
        }
        canvas.endGroup(opacity: color.alpha)
    }

    // MARK: Raster

    /// Raster tiles at `raster-opacity`, turned with the map; `raster-resampling` "nearest" keeps
    /// pixels square, the default resamples linearly.
    func paintRaster(_ layer: CompiledLayer, tiles: [(image: RenderImage, origin: ScreenPoint, size: Double)]) {
        let context = EvaluationContext(zoom: zoom)
        let opacity = layer.paint["raster-opacity"]?.number(context) ?? 1
        let smooth = layer.paint["raster-resampling"]?.string(context) != "nearest"
        let angle = atan2(-transform.sinBearing, transform.cosBearing)
        for tile in tiles {
            let corner = transform.screen(worldX: tile.origin.x, worldY: tile.origin.y)
            canvas.draw(tile.image, x: corner.x, y: corner.y, size: tile.size * transform.worldSize, angle: angle,
                        opacity: opacity, smooth: smooth)
        }
    }

    // MARK: Circle

    /// A disc of `circle-radius` with a ring of `circle-stroke-width` outside it. Circles are not
    /// clipped to tiles; points in a tile's buffer were dropped, so each is drawn once. Circles on
    /// line and polygon features (MapLibre draws one per vertex) are not drawn.
    private func paintCircle(_ layer: CompiledLayer, groups: [FeatureGroup]) {
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
}

extension RenderColor {
    /// The colour with its alpha multiplied by a layer opacity (clamped to 0…1).
    func withOpacity(_ opacity: Double) -> RenderColor {
        var color = self
        color.alpha *= min(max(opacity, 0), 1)
        return color
    }
}
