import Foundation
import MapStyle

extension LayerPainter {
    /// `fill-extrusion` seen from straight above (pitch 0; a pitched frame draws its extrusions in
    /// 3D instead, see ``ExtrusionScene``): only the roofs show. Each
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

/// The style's `light` as MapLibre's extrusion shader uses it. The light's direction is
/// `position` [radial, azimuthal°, polar°]; a roof faces straight up, so only the polar angle
/// matters for it (with either anchor, since turning the map does not tilt a roof); a wall's
/// shade also depends on the azimuth and the `anchor` (see ``direction(bearing:)``).
struct ExtrusionLight {
    var color = RenderColor.white
    var intensity = 0.5
    var polar = 30.0
    var radial = 1.15
    var azimuthal = 210.0
    /// `anchor: "map"`: the light turns with the map; `"viewport"` (the default) keeps it fixed
    /// to the screen.
    var anchoredToMap = false

    init() {}

    /// Reads `light`; members that are missing or not constants keep their defaults.
    init(_ light: JSONObject?) {
        guard let light else { return }
        if let value = light["intensity"]?.numberValue, value.isFinite { intensity = min(max(value, 0), 1) }
        if let position = light["position"]?.arrayValue?.compactMap(\.numberValue), position.count == 3 {
            radial = position[0]
            azimuthal = position[1]
            polar = position[2]
        }
        anchoredToMap = light["anchor"]?.stringValue == "map"
        if let text = light["color"]?.stringValue, let parsed = StyleColor.parse(text) {
            color = RenderColor(red: parsed.r, green: parsed.g, blue: parsed.b, alpha: parsed.a)
        }
    }

    /// The lit roof colour: the light's vertical component mixes between a dark floor
    /// (1 − intensity) and a lift for dark colours, and each channel is clamped below by a
    /// floor that grows as the light's colour darkens.
    func roof(_ color: RenderColor) -> RenderColor {
        shade(color, facing: min(max(radial * cos(polar * .pi / 180), 0), 1))
    }

    /// The light's vector in a frame's ground axes (x right, y down, z up), as MapLibre's
    /// `lightPosition` makes it: `position` turned into Cartesian coordinates (azimuth + 90°, in
    /// the y-down axes, so the horizontal part points away from the azimuth the light comes
    /// from, clockwise from north, the top of the screen for the viewport anchor), and, for the
    /// map anchor, turned with the map by the camera's `bearing` (degrees). Roofs face +z; a wall
    /// is lit as its outward normal faces the opposite of the horizontal part.
    func direction(bearing: Double) -> (x: Double, y: Double, z: Double) {
        let a = (azimuthal + 90) * .pi / 180, p = polar * .pi / 180
        var (x, y) = (radial * cos(a) * sin(p), radial * sin(a) * sin(p))
        if anchoredToMap {
            // Map axes to the frame's: the frame is the map turned by −bearing.
            let t = -bearing * .pi / 180
            (x, y) = (cos(t) * x - sin(t) * y, sin(t) * x + cos(t) * y)
        }
        return (x, y, radial * cos(p))
    }

    /// A surface's lit colour, `facing` being the cosine between its normal and the light
    /// (clamped to 0…1), `gradient` the vertical gradient's factor for a point of a wall (1 for
    /// roofs; see ``wallGradient(top:base:height:)``).
    func shade(_ color: RenderColor, facing up: Double, gradient: Double = 1) -> RenderColor {
        let luminance = color.red * 0.2126 + color.green * 0.7152 + color.blue * 0.0722
        var directional = (1 - intensity) + (max(1 - luminance + intensity, 1) - (1 - intensity)) * up
        if gradient != 1 { directional *= gradient }
        func channel(_ c: Double, _ light: Double) -> Double { min(max(c * directional * light, 0.3 * (1 - light)), 1) }
        return RenderColor(red: channel(color.red, self.color.red), green: channel(color.green, self.color.green),
                           blue: channel(color.blue, self.color.blue), alpha: color.alpha)
    }

    /// MapLibre's `fill-extrusion-vertical-gradient` factor at the foot (`top` false) or the top
    /// of a wall: walls darken toward the ground, the more so for low buildings and a strong
    /// light. `base` and `height` are in metres, as the shader has them.
    func wallGradient(top: Bool, base: Double, height: Double) -> Double {
        let floor = 0.7 + (0.98 - 0.7) * (1 - intensity)
        return min(max(((top ? 1 : 0) + base) * (height / 150).squareRoot(), floor), 1)
    }
}
