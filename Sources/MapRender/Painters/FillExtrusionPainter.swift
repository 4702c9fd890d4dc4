import Foundation
import MapStyle

extension LayerPainter {
    /// `fill-extrusion` seen from straight above (pitch is always 0 here): only the roofs show. Each
    /// roof is a flat fill of `fill-extrusion-color` shaded as MapLibre's extrusion shader shades
    /// an upward-facing surface under the style's `light` (see ``ExtrusionLight``). Taller roofs
    /// cover lower ones (MapLibre's depth test), and the layer is composed first and laid down
    /// once at `fill-extrusion-opacity`, so overlapping buildings do not blend twice.
    func paintFillExtrusion(_ layer: CompiledLayer, groups: [FeatureGroup]) {
        let opacity = layer.paint["fill-extrusion-opacity"]?.number(EvaluationContext(zoom: zoom)) ?? 1
        var roofs: [(height: Double, order: Int, group: Int, polygons: [[[ScreenPoint]]], color: RenderColor)] = []
        for (index, group) in groups.enumerated() {
            for (feature, context) in features(layer, in: group) {
                guard case .polygons(let polygons) = feature.shape,
                      let color = layer.paint["fill-extrusion-color"]?.color(context) else { continue }
                let offset = translation(layer, "fill-extrusion", context)
                let moved = polygons.map { $0.map { self.moved($0, by: offset) } }
                roofs.append((Self.roofHeight(layer, context), roofs.count, index, moved, light.roof(color)))
            }
        }
        guard !roofs.isEmpty else { return }
        roofs.sort { ($0.height, $0.order) < ($1.height, $1.order) }
        canvas.beginGroup()
        for roof in roofs {
            let group = groups[roof.group]
            if let clip = group.clip {
                canvas.save()
                canvas.clip(to: clip)
            }
            for polygon in roof.polygons { canvas.fill(rings: polygon, color: roof.color) }
            if group.clip != nil { canvas.restore() }
        }
        canvas.endGroup(opacity: opacity)
    }

    /// How high a feature's roof is (`fill-extrusion-height`, or the base when that is higher):
    /// roofs are drawn lowest first, so a higher one covers a lower one.
    static func roofHeight(_ layer: CompiledLayer, _ context: EvaluationContext) -> Double {
        let height = layer.paint["fill-extrusion-height"]?.number(context) ?? 0
        let base = layer.paint["fill-extrusion-base"]?.number(context) ?? 0
        return max(height, base)
    }
}

/// The style's `light` as the extrusion shader uses it for a roof. The light's direction is
/// `position` [radial, azimuthal°, polar°]; a roof faces straight up, so only the polar angle
/// matters (with either anchor, since turning the map does not tilt a roof).
struct ExtrusionLight {
    var color = RenderColor.white
    var intensity = 0.5
    var polar = 30.0
    var radial = 1.15

    init() {}

    /// Reads `light`; members that are missing or not constants keep their defaults.
    init(_ light: JSONObject?) {
        guard let light else { return }
        if let value = light["intensity"]?.numberValue, value.isFinite { intensity = min(max(value, 0), 1) }
        if let position = light["position"]?.arrayValue?.compactMap(\.numberValue), position.count == 3 {
            radial = position[0]
            polar = position[2]
        }
        if let text = light["color"]?.stringValue, let parsed = StyleColor.parse(text) {
            color = RenderColor(red: parsed.r, green: parsed.g, blue: parsed.b, alpha: parsed.a)
        }
    }

    /// The lit roof colour: the light's vertical component mixes between a dark floor
    /// (1 − intensity) and a lift for dark colours, and each channel is clamped below by a
    /// floor that grows as the light's colour darkens.
    func roof(_ color: RenderColor) -> RenderColor {
        let up = min(max(radial * cos(polar * .pi / 180), 0), 1)
        let luminance = color.red * 0.2126 + color.green * 0.7152 + color.blue * 0.0722
        let directional = (1 - intensity) + (max(1 - luminance + intensity, 1) - (1 - intensity)) * up
        func channel(_ c: Double, _ light: Double) -> Double { min(max(c * directional * light, 0.3 * (1 - light)), 1) }
        return RenderColor(red: channel(color.red, self.color.red), green: channel(color.green, self.color.green),
                           blue: channel(color.blue, self.color.blue), alpha: color.alpha)
    }
}
