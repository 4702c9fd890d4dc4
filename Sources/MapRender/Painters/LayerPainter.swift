import Foundation
import MapStyle

/// Draws the features of one layer on the canvas: evaluates the layer's compiled properties per
/// feature and turns them into Cairo fills and strokes the way MapLibre's shaders look.
struct LayerPainter {
    var canvas: RenderCanvas
    let transform: ScreenTransform
    let zoom: Double
    let pixelRatio: Double
    /// The style's sprite images by name, for `*-pattern`; nil draws patterned layers in colour.
    var patterns: ((String) -> (sheet: SpriteSheet, entry: SpriteSheet.Entry)?)?
    /// The style's `light`, which shades `fill-extrusion` roofs.
    var light = ExtrusionLight()

    init(canvas: RenderCanvas, transform: ScreenTransform, zoom: Double, pixelRatio: Double) {
        (self.canvas, self.transform, self.zoom, self.pixelRatio) = (canvas, transform, zoom, pixelRatio)
    }

    /// Filters and layout properties are evaluated at the tile's integer zoom, as MapLibre does
    /// when it lays out a tile; paint properties at the camera's fractional zoom.
    private var layoutZoom: Double { zoom.rounded(.down) }

    func paintBackground(_ layer: CompiledLayer) {
        let context = EvaluationContext(zoom: zoom)
        guard let color = layer.paint["background-color"]?.color(context) else { return }
        let opacity = layer.paint["background-opacity"]?.number(context) ?? 1
        // A pattern the sprite has replaces the colour; one it lacks draws nothing, as in MapLibre.
        if let name = layer.paint["background-pattern"]?.imageName(context) {
            if let pattern = pattern(named: name) { canvas.paint(pattern, patternPlacement(pattern, anchor: nil), opacity: opacity) }
            return
        }
        canvas.fill(color.withOpacity(opacity))
    }

    func paint(_ layer: CompiledLayer, groups: [FeatureGroup]) {
        switch layer.layer.type {
        case .fill: paintFill(layer, groups: groups)
        case .line: paintLine(layer, groups: groups)
        case .circle: paintCircle(layer, groups: groups)
        case .heatmap: paintHeatmap(layer, groups: groups)
        case .fillExtrusion: paintFillExtrusion(layer, groups: groups)
        default: break
        }
    }

    // MARK: Feature selection

    /// The features of a group the layer draws, each with its evaluation context at paint zoom.
    func features(_ layer: CompiledLayer, in group: FeatureGroup) -> [(feature: RenderFeature, context: EvaluationContext)] {
        let key = group.clip == nil ? "" : (layer.layer.sourceLayer ?? "")
        var result: [(RenderFeature, EvaluationContext)] = []
        let all = group.layers[key] ?? []
        if let filter = layer.filter, let prepared = group.prepared {
            // A tile's filter results only change with the integer zoom: kept with the tile.
            let indices = prepared.matching(layer.position, zoom: layoutZoom, features: all) { feature in
                filter.matches(EvaluationContext(zoom: layoutZoom, properties: feature.properties, id: feature.id,
                                                 geometryType: feature.geometryType))
            }
            result.reserveCapacity(indices.count)
            for index in indices {
                let feature = all[index]
                result.append((feature, EvaluationContext(zoom: zoom, properties: feature.properties, id: feature.id,
                                                          geometryType: feature.geometryType)))
            }
        } else {
            for feature in all {
                var context = EvaluationContext(zoom: layoutZoom, properties: feature.properties, id: feature.id,
                                                geometryType: feature.geometryType)
                if let filter = layer.filter, !filter.matches(context) { continue }
                context.zoom = zoom
                result.append((feature, context))
            }
        }
        // `*-sort-key`: features of a tile are drawn in ascending key order (stable, so equal keys
        // keep source order), as MapLibre sorts them when it lays out a tile.
        let sortKey = layer.layer.type.rawValue + "-sort-key"
        if let key = layer.layout[sortKey], layer.layer.layout[sortKey] != nil {
            let keys = result.map { key.number($0.1) }
            result = result.indices.sorted { keys[$0] < keys[$1] || (keys[$0] == keys[$1] && $0 < $1) }.map { result[$0] }
        }
        return result
    }

    /// The features of a group the layer draws, in drawing order, for paint that does not depend
    /// on the feature (no evaluation context is made unless a sort key needs one).
    func selected(_ layer: CompiledLayer, in group: FeatureGroup) -> [RenderFeature] {
        let sortKey = layer.layer.type.rawValue + "-sort-key"
        let key = group.clip == nil ? "" : (layer.layer.sourceLayer ?? "")
        guard layer.layer.layout[sortKey] == nil else { return features(layer, in: group).map(\.feature) }
        let all = group.layers[key] ?? []
        guard let filter = layer.filter else { return all }
        func passes(_ feature: RenderFeature) -> Bool {
            filter.matches(EvaluationContext(zoom: layoutZoom, properties: feature.properties, id: feature.id,
                                             geometryType: feature.geometryType))
        }
        guard let prepared = group.prepared else { return all.filter(passes) }
        return prepared.matching(layer.position, zoom: layoutZoom, features: all, filter: passes).map { all[$0] }
    }

    /// Works out which features of each group the layer draws, so that drawing, perhaps on several
    /// threads, only reads the tiles' cached choices.
    func selectFeatures(_ layer: CompiledLayer, groups: [FeatureGroup]) {
        for group in groups where group.prepared != nil && layer.filter != nil { _ = selected(layer, in: group) }
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
    func translation(_ layer: CompiledLayer, _ prefix: String, _ context: EvaluationContext) -> ScreenPoint {
        let values = layer.paint[prefix + "-translate"]?.numbers(context) ?? []
        guard values.count == 2, values[0] != 0 || values[1] != 0 else { return (0, 0) }
        if layer.paint[prefix + "-translate-anchor"]?.string(context) == "viewport" { return (values[0], values[1]) }
        return transform.rotate(values[0], values[1])
    }

    func moved(_ points: [ScreenPoint], by offset: ScreenPoint) -> [ScreenPoint] {
        offset.x == 0 && offset.y == 0 ? points : points.map { ($0.x + offset.x, $0.y + offset.y) }
    }

    // MARK: Fill

    /// Polygons are filled with hard edges, then (with `fill-antialias`, the default) outlined with
    /// a 1-device-pixel antialiased line in `fill-outline-color`, or the fill colour, at the fill's
    /// opacity. As in MapLibre, all outlines of a layer come after all its fills. MapLibre draws
    /// the outline as separate GL line segments, which have no joins: a bevel join adds nothing
    /// beyond the segments, where a miter would poke out at acute corners of small buildings.
    private func paintFill(_ layer: CompiledLayer, groups: [FeatureGroup]) {
        if paintUniformFill(layer, groups: groups) { return }
        // Looked up once, not per feature.
        let fillAntialiasProperty = layer.paint["fill-antialias"]
        let fillColorProperty = layer.paint["fill-color"]
        let fillOpacityProperty = layer.paint["fill-opacity"]
        let fillOutlineColorProperty = layer.paint["fill-outline-color"]
        let fillPatternProperty = layer.paint["fill-pattern"]
        let hasOutlineColor = layer.hasPaint("fill-outline-color")
        var outlines: [(group: Int, rings: [[ScreenPoint]], color: RenderColor)] = []
        for (index, group) in groups.enumerated() {
            clipped(group) {
                canvas.antialias = false
                defer { canvas.antialias = true }
                for (feature, context) in features(layer, in: group) {
                    guard case .polygons(let polygons) = feature.shape,
                          let fillColor = fillColorProperty?.color(context) else { continue }
                    let opacity = fillOpacityProperty?.number(context) ?? 1
                    let offset = translation(layer, "fill", context)
                    if let name = fillPatternProperty?.imageName(context) {
                        // The pattern replaces the colour, outline included.
                        guard let pattern = pattern(named: name) else { continue }
                        let placement = patternPlacement(pattern, anchor: group.clip?.first)
                        let moved = polygons.map { $0.map { self.moved($0, by: offset) } }
                        canvas.fill(polygons: moved, pattern: pattern, placement, opacity: opacity)
                        if fillAntialiasProperty?.evaluate(context).booleanValue ?? true {
                            canvas.antialias = true
                            canvas.stroke(rings: moved.flatMap { $0 }, width: 1 / pixelRatio, pattern: pattern, placement, opacity: opacity)
                            canvas.antialias = false
                        }
                        continue
                    }
                    let color = fillColor.withOpacity(opacity)
                    for polygon in polygons {
                        let rings = polygon.map { moved($0, by: offset) }
                        if let exterior = rings.first, isOffCanvas(exterior, margin: 2) { continue }
                        canvas.fill(rings: rings, color: color)
                        guard fillAntialiasProperty?.evaluate(context).booleanValue ?? true else { continue }
                        let outline = hasOutlineColor ? (fillOutlineColorProperty?.color(context) ?? fillColor) : fillColor
                        outlines.append((index, rings, outline.withOpacity(opacity)))
                    }
                }
            }
        }
        strokeOutlines(outlines, groups: groups)
    }

    /// Whether a line or ring, grown by `margin` points all round, lies wholly outside the canvas:
    /// a tile's features mostly do when the view shows only a corner of it, and Cairo would
    /// still build their whole outline before clipping it away.
    func isOffCanvas(_ points: [ScreenPoint], margin: Double) -> Bool {
        guard let first = points.first else { return true }
        var (minX, minY, maxX, maxY) = (first.x, first.y, first.x, first.y)
        for p in points {
            minX = min(minX, p.x); maxX = max(maxX, p.x)
            minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        return maxX < -margin || maxY < canvas.drawnMinY - margin || minX > canvas.width + margin || minY > canvas.drawnMaxY + margin
    }

    /// The margin beyond a stroke's centre line its ink can reach: half the width, stretched by a
    /// miter or a square cap, plus a pixel of antialiasing.
    func strokeMargin(width: Double, miterLimit: Double) -> Double {
        width / 2 * max(miterLimit, 1.5) + 2
    }

    /// Whether none of `names` depends on the feature, so the layer can evaluate them once.
    private func isUniform(_ layer: CompiledLayer, _ names: [String]) -> Bool {
        names.allSatisfy { layer.paint[$0]?.isFeatureConstant ?? true }
    }

    /// A fill layer whose paint is the same for every feature (the common case) without a
    /// pattern: its properties are evaluated once, and features are picked without building an
    /// evaluation context each. Each polygon is still filled on its own: translucent overlaps
    /// blend twice, as in MapLibre (one Cairo path per layer measured no faster). Returns false
    /// when the layer needs the general path.
    private func paintUniformFill(_ layer: CompiledLayer, groups: [FeatureGroup]) -> Bool {
        guard isUniform(layer, ["fill-color", "fill-opacity", "fill-outline-color", "fill-antialias", "fill-translate",
                                "fill-translate-anchor", "fill-pattern"]) else { return false }
        let context = EvaluationContext(zoom: zoom)
        guard layer.paint["fill-pattern"]?.imageName(context) == nil else { return false }
        guard let fillColor = layer.paint["fill-color"]?.color(context) else { return true }
        let opacity = layer.paint["fill-opacity"]?.number(context) ?? 1
        let offset = translation(layer, "fill", context)
        let color = fillColor.withOpacity(opacity)
        let antialias = layer.paint["fill-antialias"]?.evaluate(context).booleanValue ?? true
        let outline = (layer.hasPaint("fill-outline-color") ? (layer.paint["fill-outline-color"]?.color(context) ?? fillColor) : fillColor)
            .withOpacity(opacity)
        var outlines: [(group: Int, rings: [[ScreenPoint]], color: RenderColor)] = []
        for (index, group) in groups.enumerated() {
            clipped(group) {
                canvas.antialias = false
                defer { canvas.antialias = true }
                for feature in selected(layer, in: group) {
                    guard case .polygons(let polygons) = feature.shape else { continue }
                    for polygon in polygons {
                        let rings = polygon.map { moved($0, by: offset) }
                        // Holes lie inside the exterior ring: it alone decides.
                        if let exterior = rings.first, isOffCanvas(exterior, margin: 2) { continue }
                        canvas.fill(rings: rings, color: color)
                        if antialias { outlines.append((index, rings, outline)) }
                    }
                }
            }
        }
        strokeOutlines(outlines, groups: groups)
        return true
    }

    /// Strokes fill outlines (collected in group order) 1 device pixel wide, each group inside
    /// its tile's clip.
    private func strokeOutlines(_ outlines: [(group: Int, rings: [[ScreenPoint]], color: RenderColor)], groups: [FeatureGroup]) {
        var start = 0
        while start < outlines.count {
            let index = outlines[start].group
            var end = start
            while end < outlines.count, outlines[end].group == index { end += 1 }
            if let rasterizer = canvas.thinLineRasterizer(clip: groups[index].clip) {
                for outline in outlines[start..<end] {
                    rasterizer.stroke(outline.rings, closed: true, width: 1 / pixelRatio, color: outline.color)
                }
                rasterizer.finish()
            } else {
                clipped(groups[index]) {
                    for outline in outlines[start..<end] {
                        canvas.stroke(lines: outline.rings, closed: true, width: 1 / pixelRatio, color: outline.color,
                                      cap: .butt, join: .bevel, miterLimit: 2)
                    }
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

    // MARK: Raster

    /// Raster tiles at `raster-opacity`, turned with the map; `raster-resampling` "nearest" keeps
    /// pixels square, the default resamples linearly.
    func paintRaster(_ layer: CompiledLayer, tiles: [(image: RenderImage, origin: ScreenPoint, size: Double)]) {
        let context = EvaluationContext(zoom: zoom)
        let opacity = layer.paint["raster-opacity"]?.number(context) ?? 1
        let smooth = layer.paint["raster-resampling"]?.string(context) != "nearest"
        let angle = atan2(-transform.sinBearing, transform.cosBearing)
        let adjustment = RasterAdjustment(layer, zoom: zoom)
        for tile in tiles {
            let corner = transform.screen(worldX: tile.origin.x, worldY: tile.origin.y)
            let image = adjustment.isIdentity ? tile.image : (adjustment.apply(to: tile.image) ?? tile.image)
            canvas.draw(image, x: corner.x, y: corner.y, size: tile.size * transform.worldSize, angle: angle,
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
}

extension LayerPainter {
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

extension RenderColor {
    /// The colour with its alpha multiplied by a layer opacity (clamped to 0…1).
    func withOpacity(_ opacity: Double) -> RenderColor {
        var color = self
        color.alpha *= min(max(opacity, 0), 1)
        return color
    }
}
