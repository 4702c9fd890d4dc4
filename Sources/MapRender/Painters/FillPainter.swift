import Foundation
import MapStyle

extension LayerPainter {
    /// Polygons are filled with hard edges, then (with `fill-antialias`, the default) outlined with
    /// a 1-device-pixel antialiased line in `fill-outline-color`, or the fill colour, at the fill's
    /// opacity. As in MapLibre, all outlines of a layer come after all its fills. MapLibre draws
    /// the outline as separate GL line segments, which have no joins: a bevel join adds nothing
    /// beyond the segments, where a miter would poke out at acute corners of small buildings.
    func paintFill(_ layer: CompiledLayer, groups: [FeatureGroup]) {
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
}
