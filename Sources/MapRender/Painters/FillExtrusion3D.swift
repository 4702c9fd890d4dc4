// `fill-extrusion` for a pitched camera: buildings as prisms standing on the warped map. Each
// flat drawing of the frame (see `PerspectivePlan`) gathers its extrusion layers' features
// instead of drawing them; once the map below them is warped, their walls and roofs are projected
// through the same camera as the warp and drawn, farthest first.

import Foundation
import MapGeometry
import MapStyle

/// One extruded polygon, in a pitched frame's ground axes: offsets from the frame's centre on its
/// flat map, in points (x right, y down).
struct ExtrusionPrism {
    /// The exterior ring, then the holes; not closed (the last point is not the first again).
    var rings: [[ScreenPoint]]
    /// Per ring, per edge (from point i to i + 1, the last to the first): whether the edge lies on
    /// the edge of its tile, where the tile's clip cut the building. Such an edge gets no wall
    /// (MapLibre's `isBoundaryEdge`): the building goes on in the next tile.
    var cut: [[Bool]]
    /// `fill-extrusion-base` and `fill-extrusion-height`, in metres, clamped at 0 as the shader does.
    var base: Double, height: Double
    var color: RenderColor
}

/// What the flat drawings of one pitched frame gather from its `fill-extrusion` layers. The
/// drawings overlap, so a tile's feature is met by several: each is kept once, from the first.
final class ExtrusionGatherer {
    struct Layer {
        var layer: CompiledLayer
        /// The layer's place in the style.
        var index: Int
        var prisms: [ExtrusionPrism] = []
    }

    /// The extrusion layers drawn at the frame's zoom, in the style's order.
    private(set) var layers: [Layer] = []
    /// The ground offset of the current flat drawing's top-left corner from the frame's centre.
    var origin: ScreenPoint = (0, 0)
    private struct Key: Hashable { var layer, x, y, z, feature: Int }
    private var seen: Set<Key> = []

    /// Gathers a layer's polygons from the current flat drawing's feature groups (its painter's
    /// canvas coordinates), clipped to their tiles and moved by `fill-extrusion-translate`.
    func gather(_ layer: CompiledLayer, index: Int, groups: [FeatureGroup], painter: LayerPainter) {
        if !layers.contains(where: { $0.index == index }) { layers.append(Layer(layer: layer, index: index)) }
        let slot = layers.firstIndex { $0.index == index }!
        for group in groups {
            // A vector tile's features are picked in the same order by every drawing (its filter
            // results are kept with the tile); GeoJSON is one group, in source order.
            let tile = group.tile ?? (-1, -1, -1)
            for (number, (feature, context)) in painter.features(layer, in: group).enumerated() {
                guard case .polygons(let polygons) = feature.shape,
                      let color = layer.paint["fill-extrusion-color"]?.color(context),
                      seen.insert(Key(layer: index, x: tile.x, y: tile.y, z: tile.z, feature: number)).inserted else { continue }
                let offset = painter.translation(layer, "fill-extrusion", context)
                let shift: ScreenPoint = (offset.x + origin.x, offset.y + origin.y)
                let height = max(layer.paint["fill-extrusion-height"]?.number(context) ?? 0, 0)
                let base = max(layer.paint["fill-extrusion-base"]?.number(context) ?? 0, 0)
                for polygon in polygons {
                    var rings: [[ScreenPoint]] = [], cut: [[Bool]] = []
                    for ring in polygon {
                        var points = ring
                        if points.count > 1, let first = points.first, let last = points.last, first == last { points.removeLast() }
                        let clipped: (points: [ScreenPoint], cut: [Bool]) = group.clip.map { Self.clip(points, to: $0) }
                            ?? (points: points, cut: Array(repeating: false, count: points.count))
                        guard clipped.points.count >= 3 else {
                            // A hole clipped away leaves the exterior; an exterior clipped away, nothing.
                            if rings.isEmpty { break }
                            continue
                        }
                        rings.append(clipped.points.map { ($0.x + shift.x, $0.y + shift.y) })
                        cut.append(clipped.cut)
                    }
                    guard !rings.isEmpty else { continue }
                    layers[slot].prisms.append(ExtrusionPrism(rings: rings, cut: cut, base: base, height: height, color: color))
                }
            }
        }
    }

    /// A ring cut to a convex clip polygon (a tile's square on the canvas) by Sutherland–Hodgman,
    /// with which edges of the result lie along the clip's edges. A ring wholly inside is kept
    /// as it is, none of its edges cut.
    static func clip(_ ring: [ScreenPoint], to clip: [ScreenPoint]) -> (points: [ScreenPoint], cut: [Bool]) {
        guard clip.count >= 3 else { return (ring, Array(repeating: false, count: ring.count)) }
        var area = 0.0
        for i in clip.indices {
            let (a, b) = (clip[i], clip[(i + 1) % clip.count])
            area += a.x * b.y - b.x * a.y
        }
        let orientation = area < 0 ? -1.0 : 1.0
        // How far inside the clip edge from a to b a point is (negative outside), in points.
        func inside(_ p: ScreenPoint, _ a: ScreenPoint, _ b: ScreenPoint) -> Double {
            let (ex, ey) = (b.x - a.x, b.y - a.y)
            let length = (ex * ex + ey * ey).squareRoot()
            guard length > 0 else { return 0 }
            return orientation * (ex * (p.y - a.y) - ey * (p.x - a.x)) / length
        }
        let edges = clip.indices.map { (clip[$0], clip[($0 + 1) % clip.count]) }
        if ring.allSatisfy({ p in edges.allSatisfy { inside(p, $0.0, $0.1) >= 0 } }) {
            return (ring, Array(repeating: false, count: ring.count))
        }
        var points = ring
        for (a, b) in edges where !points.isEmpty {
            var output: [ScreenPoint] = []
            for i in points.indices {
                let p = points[i], q = points[(i + 1) % points.count]
                let dp = inside(p, a, b), dq = inside(q, a, b)
                if dp >= 0 { output.append(p) }
                if (dp >= 0) != (dq >= 0) {
                    let t = dp / (dp - dq)
                    output.append((p.x + (q.x - p.x) * t, p.y + (q.y - p.y) * t))
                }
            }
            points = output
        }
        // An edge is a cut when both its ends lie on one clip edge (within a thousandth of a point).
        let cut = points.indices.map { i in
            let p = points[i], q = points[(i + 1) % points.count]
            return edges.contains { abs(inside(p, $0.0, $0.1)) < 1e-3 && abs(inside(q, $0.0, $0.1)) < 1e-3 }
        }
        return (points, cut)
    }
}

/// Draws gathered extrusions onto a pitched frame.
///
/// Differs from MapLibre: MapLibre rasterises the prisms' triangles with a depth buffer, so every
/// pixel shows the nearest surface exactly. Here each visible face (walls facing the camera, and
/// roofs) is a polygon filled whole, farthest first by the distance from the camera to its
/// centre (the painter's algorithm): right for separate buildings and for one building's own
/// faces (its front walls never overlap, and no wall of it hides its roof from above), but where
/// faces of different buildings interpenetrate or a long face's centre misleads, a face may be
/// drawn over one that should hide it. Faces reaching behind the camera's near plane (a very tall
/// building right below it) are left out rather than clipped. Edges are hard, as MapLibre draws
/// them without multisampling.
enum ExtrusionScene {
    /// The nearest a drawn face's corner may be, in camera distances from the camera.
    static let nearPlane = 0.05

    /// One layer's prisms drawn on `canvas` (the frame), grouped and laid down at the layer's
    /// `fill-extrusion-opacity`, so faces of the layer do not show through one another.
    /// `pointsPerMetre` converts heights (the map's scale at the centre's latitude, as MapLibre
    /// scales heights for the whole view); `bearing` turns a map-anchored light.
    static func draw(_ layer: ExtrusionGatherer.Layer, on canvas: RenderCanvas, projection: PerspectiveProjection, zoom: Double,
                     pointsPerMetre: Double, light: ExtrusionLight, bearing: Double) {
        let context = EvaluationContext(zoom: zoom)
        let opacity = layer.layer.paint["fill-extrusion-opacity"]?.number(context) ?? 1
        let gradient = layer.layer.paint["fill-extrusion-vertical-gradient"]?.evaluate(context).booleanValue ?? true
        let faces = faces(of: layer.prisms, projection: projection, pointsPerMetre: pointsPerMetre, light: light, bearing: bearing,
                          verticalGradient: gradient)
        guard !faces.isEmpty, opacity > 0 else { return }
        canvas.beginGroup()
        canvas.save()
        canvas.antialias = false
        for face in faces {
            switch face.shape {
            case .wall(let quad, let foot, let top):
                if foot == top {
                    canvas.fill(rings: [quad], color: foot)
                } else {
                    // quad: foot at a, foot at b, top at b, top at a.
                    canvas.fill(quad: quad, colors: [foot, foot, top, top])
                }
            case .roof(let rings, let color):
                canvas.fill(rings: rings, color: color)
            }
        }
        canvas.restore()
        canvas.endGroup(opacity: opacity)
    }

    struct Face {
        enum Shape {
            case wall(quad: [ScreenPoint], foot: RenderColor, top: RenderColor)
            case roof(rings: [[ScreenPoint]], color: RenderColor)
        }
        var shape: Shape
        /// From the camera to the face's centre, in points.
        var distance: Double
    }

    /// The faces to draw, in frame points, farthest first: the walls that face the camera and
    /// the roofs below it, each shaded.
    static func faces(of prisms: [ExtrusionPrism], projection: PerspectiveProjection, pointsPerMetre: Double,
                      light: ExtrusionLight, bearing: Double, verticalGradient: Bool) -> [Face] {
        let camera = projection.cameraPosition
        let near = nearPlane * projection.cameraDistance
        let (cx, cy) = (projection.width / 2, projection.height / 2)
        let lightDirection = light.direction(bearing: bearing)
        let roofFacing = min(max(lightDirection.z, 0), 1)
        // A point of the frame, or nil when it is too near the camera (or behind it).
        func project(_ p: ScreenPoint, _ z: Double) -> ScreenPoint? {
            guard projection.depth(groundY: p.y, height: z) > near,
                  let v = projection.view(groundX: p.x, groundY: p.y, height: z) else { return nil }
            return (cx + v.dx, cy + v.dy)
        }
        func distance(_ x: Double, _ y: Double, _ z: Double) -> Double {
            let (dx, dy, dz) = (x - camera.x, y - camera.y, z - camera.z)
            return (dx * dx + dy * dy + dz * dz).squareRoot()
        }
        var faces: [Face] = []
        for prism in prisms {
            let bottom = prism.base * pointsPerMetre, top = prism.height * pointsPerMetre
            if top > bottom {
                let foot = verticalGradient ? light.wallGradient(top: false, base: prism.base, height: prism.height) : 1
                let head = verticalGradient ? light.wallGradient(top: true, base: prism.base, height: prism.height) : 1
                for (number, ring) in prism.rings.enumerated() {
                    // Which side of its edges the building is on: the exterior runs one way round
                    // and holes the other, whichever way the data winds them.
                    var area = 0.0
                    for i in ring.indices {
                        let (a, b) = (ring[i], ring[(i + 1) % ring.count])
                        area += a.x * b.y - b.x * a.y
                    }
                    guard area != 0 else { continue }
                    let outward = (area > 0 ? 1.0 : -1.0) * (number == 0 ? 1 : -1)
                    for i in ring.indices where !prism.cut[number][i] {
                        let a = ring[i], b = ring[(i + 1) % ring.count]
                        let (ex, ey) = (b.x - a.x, b.y - a.y)
                        let length = (ex * ex + ey * ey).squareRoot()
                        guard length > 0 else { continue }
                        // In y-down axes a positive area runs clockwise on screen, the inside on
                        // the right of each edge: outward is (ey, −ex).
                        let normal = (x: outward * ey / length, y: -outward * ex / length)
                        let middle = (x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)
                        // Back faces (turned away from the camera) are hidden by the building.
                        guard (camera.x - middle.x) * normal.x + (camera.y - middle.y) * normal.y > 0 else { continue }
                        guard let a0 = project(a, bottom), let b0 = project(b, bottom), let b1 = project(b, top),
                              let a1 = project(a, top) else { continue }
                        // MapLibre's wall normals point into the building (the perpendicular of
                        // each edge of a ring wound as vector tiles wind exteriors), and its
                        // Cartesian `position` points away from where the light comes from: a
                        // wall is lit as its outward normal faces −position. Taken from the
                        // outward normal here, so data wound the other way is lit the same.
                        let facing = min(max(-(normal.x * lightDirection.x + normal.y * lightDirection.y), 0), 1)
                        let footColor = light.shade(prism.color, facing: facing, gradient: foot)
                        let topColor = light.shade(prism.color, facing: facing, gradient: head)
                        faces.append(Face(shape: .wall(quad: [a0, b0, b1, a1], foot: footColor, top: topColor),
                                          distance: distance(middle.x, middle.y, (bottom + top) / 2)))
                    }
                }
            }
            // A roof is seen from above only; one at or above the camera's height is not drawn.
            guard top < camera.z, let exterior = prism.rings.first else { continue }
            var rings: [[ScreenPoint]] = []
            for ring in prism.rings {
                let projected = ring.compactMap { project($0, top) }
                guard projected.count == ring.count else {
                    rings = []
                    break
                }
                rings.append(projected)
            }
            guard !rings.isEmpty else { continue }
            let n = Double(exterior.count)
            let centre = exterior.reduce((x: 0.0, y: 0.0)) { ($0.x + $1.x / n, $0.y + $1.y / n) }
            faces.append(Face(shape: .roof(rings: rings, color: light.shade(prism.color, facing: roofFacing)),
                              distance: distance(centre.x, centre.y, top)))
        }
        // Farthest first; ties keep the style's feature order.
        return faces.enumerated().sorted { ($0.element.distance, $1.offset) > ($1.element.distance, $0.offset) }.map(\.element)
    }
}
