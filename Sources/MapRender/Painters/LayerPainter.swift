import Foundation
import MapStyle

/// Draws the features of one layer on the canvas: evaluates the layer's compiled properties per
/// feature and turns them into Cairo fills and strokes the way MapLibre's shaders look.
///
/// Each layer type is drawn by an extension in its own file beside this one (`BackgroundPainter`,
/// `FillPainter`, `LinePainter`, `CirclePainter`, `RasterPainter`, `FillExtrusionPainter`,
/// `HeatmapPainter`, `HillshadePainter`; symbols by ``SymbolPlacer``), as MapLibre Native has one
/// renderer per layer type. This file keeps what they share: the dispatch by type, feature
/// selection and drawing helpers; sprite patterns are in `LayerPainter+Patterns`.
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
    var layoutZoom: Double { zoom.rounded(.down) }

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

    /// How this painter picks features (see ``FeatureSelection``), shared with feature queries.
    var selection: FeatureSelection { FeatureSelection(zoom: zoom, transform: transform) }

    /// The features of a group the layer draws, each with its evaluation context at paint zoom.
    func features(_ layer: CompiledLayer, in group: FeatureGroup) -> [(feature: RenderFeature, context: EvaluationContext)] {
        selection.features(layer, in: group)
    }

    /// The features of a group the layer draws, in drawing order, for paint that does not depend
    /// on the feature.
    func selected(_ layer: CompiledLayer, in group: FeatureGroup) -> [RenderFeature] { selection.selected(layer, in: group) }

    /// Works out which features of each group the layer draws, so that drawing, perhaps on several
    /// threads, only reads the tiles' cached choices.
    func selectFeatures(_ layer: CompiledLayer, groups: [FeatureGroup]) {
        for group in groups where group.prepared != nil && layer.filter != nil { _ = selected(layer, in: group) }
    }

    // MARK: Drawing helpers

    /// Runs `body` with the group's tile clip applied (nothing for GeoJSON).
    func clipped(_ group: FeatureGroup, _ body: () -> Void) {
        guard let clip = group.clip else { return body() }
        canvas.save()
        canvas.clip(to: clip)
        body()
        canvas.restore()
    }

    /// A `*-translate` offset on the canvas: anchored to the map it turns with the bearing.
    func translation(_ layer: CompiledLayer, _ prefix: String, _ context: EvaluationContext) -> ScreenPoint {
        selection.translation(layer, prefix, context)
    }

    func moved(_ points: [ScreenPoint], by offset: ScreenPoint) -> [ScreenPoint] {
        offset.x == 0 && offset.y == 0 ? points : points.map { ($0.x + offset.x, $0.y + offset.y) }
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

    /// Whether none of `names` depends on the feature, so the layer can evaluate them once.
    func isUniform(_ layer: CompiledLayer, _ names: [String]) -> Bool {
        names.allSatisfy { layer.paint[$0]?.isFeatureConstant ?? true }
    }
}

/// Which features of a group a layer draws at a camera, in drawing order, and where its
/// `*-translate` moves them: what every painter draws and what a feature query (see
/// `FeatureQuery.swift`) tests, so that both read the same choices.
struct FeatureSelection {
    let zoom: Double
    let transform: ScreenTransform

    /// Filters and layout properties are evaluated at the tile's integer zoom, as MapLibre does
    /// when it lays out a tile; paint properties at the camera's fractional zoom.
    var layoutZoom: Double { zoom.rounded(.down) }

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

    /// A `*-translate` offset on the canvas: anchored to the map it turns with the bearing.
    func translation(_ layer: CompiledLayer, _ prefix: String, _ context: EvaluationContext) -> ScreenPoint {
        let values = layer.paint[prefix + "-translate"]?.numbers(context) ?? []
        guard values.count == 2, values[0] != 0 || values[1] != 0 else { return (0, 0) }
        if layer.paint[prefix + "-translate-anchor"]?.string(context) == "viewport" { return (values[0], values[1]) }
        return transform.rotate(values[0], values[1])
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
