import Foundation
import MapStyle

extension LayerPainter {
    /// Each part of a feature is stroked on its own, so overlapping parts blend twice; polygon
    /// rings are closed (joined all round), LineStrings never are, even when they end where they
    /// start. `line-gap-width` draws two strokes either side of the gap, `line-offset` moves the
    /// line right of its direction, and `line-dasharray` is in line widths.
    func paintLine(_ layer: CompiledLayer, groups: [FeatureGroup]) {
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
        if paintUniformLine(layer, groups: groups, cap: cap, join: join, miterLimit: miterLimit) { return }
        // Looked up once, not per feature.
        let hasGradient = layer.hasPaint("line-gradient")
        let lineBlurProperty = layer.paint["line-blur"]
        let lineColorProperty = layer.paint["line-color"]
        let lineDasharrayProperty = layer.paint["line-dasharray"]
        let lineGapWidthProperty = layer.paint["line-gap-width"]
        let lineGradientProperty = layer.paint["line-gradient"]
        let lineOffsetProperty = layer.paint["line-offset"]
        let lineOpacityProperty = layer.paint["line-opacity"]
        let linePatternProperty = layer.paint["line-pattern"]
        let lineWidthProperty = layer.paint["line-width"]
        for group in groups {
            clipped(group) {
                for (feature, context) in features(layer, in: group) {
                    var open: [[ScreenPoint]] = [], rings: [[ScreenPoint]] = []
                    switch feature.shape {
                    case .lines(let lines): open = lines
                    case .polygons(let polygons): rings = polygons.flatMap { $0 }
                    case .points: continue
                    }
                    guard let baseColor = lineColorProperty?.color(context) else { continue }
                    let width = lineWidthProperty?.number(context) ?? 1
                    let gap = lineGapWidthProperty?.number(context) ?? 0
                    let offset = lineOffsetProperty?.number(context) ?? 0
                    let lineOpacity = lineOpacityProperty?.number(context) ?? 1
                    let color = baseColor.withOpacity(lineOpacity)
                    let move = translation(layer, "line", context)
                    // MapLibre evaluates the dash array (and the width it is measured in) at the
                    // integer zoom.
                    var floorContext = context
                    floorContext.zoom = layoutZoom
                    let dashPattern = DashPattern(lineDasharrayProperty?.numbers(floorContext) ?? [])
                    let offsets = gap > 0 ? [offset - (gap + width) / 2, offset + (gap + width) / 2] : [offset]
                    let blur = lineBlurProperty?.number(context) ?? 0
                    let style = StrokeStyle(width: width, cap: cap, join: join, miterLimit: miterLimit, dashes: [])
                    // `line-gradient` needs the source's `lineMetrics` (the progress along each line).
                    let gradient = group.lineMetrics && hasGradient ? lineGradientProperty : nil
                    if let dashPattern, linePatternProperty?.imageName(context) == nil, gradient == nil {
                        // The pattern's unit is the width at the integer zoom, stretched with the map
                        // between integer zooms (see DashedLine).
                        let floorWidth = lineWidthProperty?.number(floorContext) ?? width
                        let unit = floorWidth * exp2(zoom - layoutZoom)
                        for (parts, closed) in [(open, false), (rings, true)] where !parts.isEmpty {
                            for piece in dashPieces(parts, closed: closed, tiled: group.clip == nil, maxZoom: group.maxZoom) {
                                clippedTo(piece.clip) {
                                    for line in piece.lines {
                                        for distance in offsets {
                                            let geometry = moved(LineOffset.offset(line, by: distance, closed: piece.closed), by: move)
                                            // Each line starts its pattern afresh, so one off the canvas can go.
                                            if isOffCanvas(geometry, margin: strokeMargin(width: width, miterLimit: miterLimit) + unit + max(blur, 0)) {
                                                continue
                                            }
                                            let dashes = DashedLine.dashes(of: geometry, reference: line, closed: piece.closed,
                                                                           pattern: dashPattern, unit: unit)
                                            drawDashes(dashes, style: style, color: color, blur: blur, unit: unit)
                                        }
                                    }
                                }
                            }
                        }
                        continue
                    }
                    if let name = linePatternProperty?.imageName(context) {
                        // The pattern replaces colour and dashes; an image the sprite lacks draws nothing.
                        guard let image = pattern(named: name) else { continue }
                        for (parts, closed) in [(open, false), (rings, true)] {
                            for part in parts {
                                for distance in offsets {
                                    strokePattern(moved(LineOffset.offset(part, by: distance, closed: closed), by: move), closed: closed,
                                                  width: width, pattern: image, opacity: lineOpacity)
                                }
                            }
                        }
                        continue
                    }
                    if gradient != nil {
                        for (parts, closed) in [(open, false), (rings, true)] {
                            for part in parts {
                                for distance in offsets {
                                    strokeGradient(moved(LineOffset.offset(part, by: distance, closed: closed), by: move), closed: closed,
                                                   style: style, gradient: gradient!, context: context, opacity: lineOpacity)
                                }
                            }
                        }
                        continue
                    }
                    for (parts, closed) in [(open, false), (rings, true)] where !parts.isEmpty {
                        for distance in offsets {
                            let lines = parts.map { moved(LineOffset.offset($0, by: distance, closed: closed), by: move) }
                            if blur > 0 {
                                strokeBlurred(lines, closed: closed, style: style, color: color, blur: blur)
                            } else if width * pixelRatio <= ThinLineRasterizer.maximumWidth,
                                      let rasterizer = canvas.thinLineRasterizer(clip: group.clip) {
                                let margin = strokeMargin(width: width, miterLimit: miterLimit)
                                rasterizer.stroke(lines.filter { !isOffCanvas($0, margin: margin) }, closed: closed, width: width,
                                                  color: color, capExtension: closed ? 0 : Self.capExtension(cap, width: width))
                                rasterizer.finish()
                            } else {
                                let margin = strokeMargin(width: width, miterLimit: miterLimit)
                                canvas.stroke(lines: lines.filter { !isOffCanvas($0, margin: margin) }, closed: closed, width: width,
                                              color: color, cap: cap, join: join, miterLimit: miterLimit)
                            }
                        }
                    }
                }
            }
        }
    }

    /// A solid line layer whose paint is the same for every feature (no dashes, pattern, gradient
    /// or blur): its properties are evaluated once and features are picked without building an
    /// evaluation context each. Each part is still stroked on its own, so translucent overlaps
    /// blend twice as in MapLibre (stroking a tile's lines as one Cairo path is slower: Cairo
    /// then resolves every crossing). Returns false when the layer needs the general path.
    private func paintUniformLine(_ layer: CompiledLayer, groups: [FeatureGroup], cap: RenderCanvas.LineCap,
                                  join: RenderCanvas.LineJoin, miterLimit: Double) -> Bool {
        guard !layer.hasPaint("line-gradient"),
              isUniform(layer, ["line-color", "line-width", "line-opacity", "line-dasharray", "line-gap-width", "line-offset",
                                "line-blur", "line-translate", "line-translate-anchor", "line-pattern"]) else { return false }
        let context = EvaluationContext(zoom: zoom)
        let floorContext = EvaluationContext(zoom: layoutZoom)
        guard DashPattern(layer.paint["line-dasharray"]?.numbers(floorContext) ?? []) == nil,
              layer.paint["line-pattern"]?.imageName(context) == nil,
              (layer.paint["line-blur"]?.number(context) ?? 0) <= 0 else { return false }
        guard let baseColor = layer.paint["line-color"]?.color(context) else { return true }
        let width = layer.paint["line-width"]?.number(context) ?? 1
        let gap = layer.paint["line-gap-width"]?.number(context) ?? 0
        let offset = layer.paint["line-offset"]?.number(context) ?? 0
        let color = baseColor.withOpacity(layer.paint["line-opacity"]?.number(context) ?? 1)
        let move = translation(layer, "line", context)
        let offsets = gap > 0 ? [offset - (gap + width) / 2, offset + (gap + width) / 2] : [offset]
        guard width > 0, width.isFinite, color.alpha > 0 else { return true }
        let margin = strokeMargin(width: width, miterLimit: miterLimit)
        // Thin lines go to the canvas's own rasterizer, as fill outlines do; wider ones to Cairo.
        let capExtension = Self.capExtension(cap, width: width)
        let thin = width * pixelRatio <= ThinLineRasterizer.maximumWidth && canvas.thinLineRasterizer(clip: nil) != nil
        for group in groups {
            let rasterizer = thin ? canvas.thinLineRasterizer(clip: group.clip) : nil
            func strokeFeatures() {
                for feature in selected(layer, in: group) {
                    var open: [[ScreenPoint]] = [], rings: [[ScreenPoint]] = []
                    switch feature.shape {
                    case .lines(let lines): open = lines
                    case .polygons(let polygons): rings = polygons.flatMap { $0 }
                    case .points: continue
                    }
                    for (parts, closed) in [(open, false), (rings, true)] where !parts.isEmpty {
                        for distance in offsets {
                            let lines = parts.map { moved(LineOffset.offset($0, by: distance, closed: closed), by: move) }
                                .filter { !isOffCanvas($0, margin: margin) }
                            if let rasterizer {
                                rasterizer.stroke(lines, closed: closed, width: width, color: color, capExtension: closed ? 0 : capExtension)
                            } else {
                                canvas.stroke(lines: lines, closed: closed, width: width, color: color, cap: cap, join: join,
                                              miterLimit: miterLimit)
                            }
                        }
                    }
                }
            }
            if let rasterizer {
                strokeFeatures()
                rasterizer.finish()
            } else {
                clipped(group, strokeFeatures)
            }
        }
        return true
    }

    /// The margin beyond a stroke's centre line its ink can reach: half the width, stretched by a
    /// miter or a square cap, plus a pixel of antialiasing.
    func strokeMargin(width: Double, miterLimit: Double) -> Double {
        width / 2 * max(miterLimit, 1.5) + 2
    }

    /// How far a thin line's cap reaches past its end, as a length of line with the same area: a
    /// square cap half the width, a round one π/8 of it squared over the width.
    static func capExtension(_ cap: RenderCanvas.LineCap, width: Double) -> Double {
        switch cap {
        case .butt: 0
        case .square: width / 2
        case .round: width / 2 * Double.pi / 4
        }
    }

    /// The lines a dash pattern is laid along. Vector tiles were cut by their producer, so each
    /// line of the tile starts its pattern afresh. GeoJSON is cut here the way MapLibre tiles it
    /// (``GeoJSONLineTiling``), each tile's pieces drawn inside the tile's square.
    private func dashPieces(_ parts: [[ScreenPoint]], closed: Bool, tiled: Bool, maxZoom: Int)
        -> [(clip: [ScreenPoint]?, lines: [[ScreenPoint]], closed: Bool)] {
        guard tiled else { return [(nil, parts, closed)] }
        let z = Int(min(max(layoutZoom, 0), Double(maxZoom)))
        let corners = [(0.0, 0.0), (transform.halfWidth * 2, 0), (0, transform.halfHeight * 2),
                       (transform.halfWidth * 2, transform.halfHeight * 2)].map { transform.world(screenX: $0.0, screenY: $0.1) }
        let bounds = (minX: corners.map(\.x).min()!, minY: corners.map(\.y).min()!, maxX: corners.map(\.x).max()!, maxY: corners.map(\.y).max()!)
        let n = Double(1 << z)
        var byTile: [Int: (clip: [ScreenPoint], lines: [[ScreenPoint]])] = [:]
        var order: [Int] = []
        for part in parts {
            let world = part.map { transform.world(screenX: $0.x, screenY: $0.y) }
            for tile in GeoJSONLineTiling.tiles(of: world, closed: closed, z: z, maxZoom: maxZoom, bounds: bounds) {
                let key = tile.y * (1 << 20) + tile.x
                let lines = tile.pieces.map { $0.map { transform.screen(worldX: $0.x, worldY: $0.y) } }
                if byTile[key] == nil {
                    order.append(key)
                    let clip = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)].map {
                        transform.screen(worldX: (Double(tile.x) + $0.0) / n, worldY: (Double(tile.y) + $0.1) / n)
                    }
                    byTile[key] = (clip, lines)
                } else {
                    byTile[key]!.lines += lines
                }
            }
        }
        return order.map { (byTile[$0]!.clip, byTile[$0]!.lines, false) }
    }

    private func clippedTo(_ clip: [ScreenPoint]?, _ body: () -> Void) {
        guard let clip else { return body() }
        canvas.save()
        canvas.clip(to: clip)
        body()
        canvas.restore()
    }

    /// One line's dashes: cut square inside the line, rounded (an ellipse half a pattern unit
    /// long) with `line-cap: round`, and the line's own ends take its cap. A translucent line's
    /// dashes and round ends are composed first so that they blend once.
    private func drawDashes(_ dashes: [Dash], style: StrokeStyle, color: RenderColor, blur: Double, unit: Double) {
        guard !dashes.isEmpty else { return }
        let half = style.width / 2
        var lines: [[ScreenPoint]] = []
        var ends: [(center: (x: Double, y: Double), axis: (x: Double, y: Double), along: Double, across: Double)] = []
        for dash in dashes {
            var points = dash.points
            if style.cap == .square {
                if dash.startsLine { points[0] = (points[0].x - dash.startDirection.x * half, points[0].y - dash.startDirection.y * half) }
                if dash.endsLine {
                    let last = points.count - 1
                    points[last] = (points[last].x + dash.endDirection.x * half, points[last].y + dash.endDirection.y * half)
                }
            } else if style.cap == .round {
                ends.append((points[0], dash.startDirection, dash.startsLine ? half : unit / 2, half))
                ends.append((points[points.count - 1], dash.endDirection, dash.endsLine ? half : unit / 2, half))
            }
            lines.append(points)
        }
        var butt = style
        butt.cap = .butt
        if blur > 0 {
            strokeBlurred(lines, closed: false, style: butt, color: color, blur: blur)
            return
        }
        let composed = color.alpha < 1 && !ends.isEmpty
        var opaque = color
        if composed {
            canvas.beginGroup()
            opaque.alpha = 1
        }
        canvas.stroke(lines: lines, closed: false, width: style.width, color: opaque, cap: .butt, join: style.join,
                      miterLimit: style.miterLimit)
        if !ends.isEmpty { canvas.fillEllipses(ends, color: opaque) }
        if composed { canvas.endGroup(opacity: color.alpha) }
    }

    struct StrokeStyle {
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
}
