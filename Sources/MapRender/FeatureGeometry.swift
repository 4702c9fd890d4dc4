import Foundation
import MapFormats
import MapGeometry
import MapStyle

/// A point on the canvas, in logical points (the canvas scale turns them into device pixels).
typealias ScreenPoint = (x: Double, y: Double)

/// The camera as a map from Web Mercator world coordinates (0…1 across the world, y down) to the
/// canvas. The world is `512 · 2^zoom` points wide (MapLibre's zoom), the centre coordinate sits
/// in the middle of the canvas, and a positive bearing turns the map counter-clockwise (with
/// bearing 90, east is up).
struct ScreenTransform {
    let centerX: Double, centerY: Double
    let worldSize: Double
    let cosBearing: Double, sinBearing: Double
    let halfWidth: Double, halfHeight: Double

    init(center: CLLocationCoordinate2D, zoom: Double, bearing: Double, width: Double, height: Double) {
        let world = Self.world(center)
        (centerX, centerY) = (world.x, world.y)
        worldSize = MapViewport.worldPointsAtZoomZero * exp2(zoom)
        let radians = bearing * .pi / 180
        (cosBearing, sinBearing) = (cos(radians), sin(radians))
        (halfWidth, halfHeight) = (width / 2, height / 2)
    }

    /// Longitude/latitude to world coordinates, through MapGeometry's spherical Mercator.
    static func world(_ coordinate: CLLocationCoordinate2D) -> ScreenPoint {
        let point = MKMapPoint(coordinate)
        return (point.x / MKMapSize.worldWidth, point.y / MKMapSize.worldWidth)
    }

    func screen(worldX: Double, worldY: Double) -> ScreenPoint {
        let dx = (worldX - centerX) * worldSize, dy = (worldY - centerY) * worldSize
        return rotate(dx, dy, x: halfWidth, y: halfHeight)
    }

    /// A vector in map-aligned points turned with the map (for translations anchored to the map).
    func rotate(_ dx: Double, _ dy: Double, x: Double = 0, y: Double = 0) -> ScreenPoint {
        (x + dx * cosBearing + dy * sinBearing, y - dx * sinBearing + dy * cosBearing)
    }

    /// The inverse: a canvas point back to world coordinates (for covering the view with tiles).
    func world(screenX: Double, screenY: Double) -> ScreenPoint {
        let sx = screenX - halfWidth, sy = screenY - halfHeight
        let dx = sx * cosBearing - sy * sinBearing, dy = sx * sinBearing + sy * cosBearing
        return (centerX + dx / worldSize, centerY + dy / worldSize)
    }
}

/// A feature ready to draw: its data for expressions and its geometry already on the canvas.
struct RenderFeature {
    enum Shape {
        case points([ScreenPoint])
        case lines([[ScreenPoint]])
        /// Polygons, each its exterior ring followed by its holes.
        case polygons([[[ScreenPoint]]])
    }

    var properties: ExpressionObject
    var id: ExpressionValue
    var shape: Shape

    /// What `["geometry-type"]` and legacy `$type` report: the single type for Multi* geometries too.
    var geometryType: String {
        switch shape {
        case .points: "Point"
        case .lines: "LineString"
        case .polygons: "Polygon"
        }
    }
}

/// The features of one source drawn together under one clip: one vector tile (clipped to its
/// square so that buffered geometry is not drawn twice at seams), or a whole GeoJSON source.
struct FeatureGroup {
    /// The tile's square on the canvas; nil for GeoJSON, which is not tiled.
    var clip: [ScreenPoint]?
    /// Features by source layer (GeoJSON sources have one layer, keyed "").
    var layers: [String: [RenderFeature]]
    /// Whether lines know their progress along the whole line (GeoJSON `lineMetrics`, which
    /// `line-gradient` needs): only whole, untiled lines do here.
    var lineMetrics = false
    /// For GeoJSON: the source's maxzoom, the deepest zoom MapLibre tiles it at (where it stops
    /// simplifying lines).
    var maxZoom = 18
    /// The vector tile the features were projected from (in the same order per source layer), which
    /// keeps filter results across layers' renders; nil for GeoJSON.
    var prepared: PreparedTile?
    /// The tile's unwrapped column, its row and its zoom; nil for GeoJSON. A pitched frame's flat
    /// drawings overlap, so the same tile is drawn by several: this tells its features apart from
    /// another tile's when the extrusions they gathered are merged (see `ExtrusionGatherer`).
    var tile: (x: Int, y: Int, z: Int)?

    init(clip: [ScreenPoint]?, layers: [String: [RenderFeature]], lineMetrics: Bool = false, maxZoom: Int = 18) {
        (self.clip, self.layers, self.lineMetrics, self.maxZoom) = (clip, layers, lineMetrics, maxZoom)
    }
}

// MARK: - Vector tiles

/// A vector tile's drawable features converted once, when the tile is first drawn: properties as
/// expression values, geometry in tile units as doubles. Later renders only move the points onto
/// the canvas, and layers reuse what their filter picked at each integer zoom. Not thread-safe,
/// like the renderer that keeps it.
final class PreparedTile {
    struct Feature {
        var properties: ExpressionObject
        var id: ExpressionValue
        /// In tile units (0…extent across the tile); points in the tile's buffer already dropped.
        var shape: RenderFeature.Shape
    }

    struct Layer {
        var features: [Feature]
        var extent: Double
    }

    private(set) var layers: [String: [Layer]] = [:]
    /// Feature indices (into the source layer's features in order) a style layer's filter passed,
    /// by layer position and the integer zoom it was evaluated at.
    private var matches: [MatchKey: [Int]] = [:]

    private struct MatchKey: Hashable { let layer: Int; let zoom: Double }

    init(_ tile: VectorTile, needed: Set<String>) {
        for layer in tile.layers where needed.contains(layer.name) {
            let extent = Int32(layer.extent)
            var features: [Feature] = []
            features.reserveCapacity(layer.features.count)
            func point(_ p: VectorTile.TilePoint) -> ScreenPoint { (Double(p.x), Double(p.y)) }
            for feature in layer.features {
                let shape: RenderFeature.Shape
                switch feature.geometry {
                case .points(let points):
                    // Points in the tile's buffer belong to the neighbouring tile.
                    shape = .points(points.filter { $0.x >= 0 && $0.y >= 0 && $0.x < extent && $0.y < extent }.map(point))
                case .lines(let lines): shape = .lines(lines.map { $0.map(point) })
                case .polygons(let polygons): shape = .polygons(polygons.map { $0.map { $0.map(point) } })
                case .unknown: continue
                }
                var properties = ExpressionObject()
                for property in feature.properties {
                    properties[property.key] = VectorTileProjection.expressionValue(property.value)
                }
                features.append(Feature(properties: properties, id: feature.id.map { .number(Double($0)) } ?? .null, shape: shape))
            }
            layers[layer.name, default: []].append(Layer(features: features, extent: Double(max(layer.extent, 1))))
        }
    }

    /// The indices of the features of `sourceLayer` that `layer`'s filter passes at integer zoom
    /// `zoom`, computed on first use (filters read properties, the geometry type and the zoom only).
    func matching(_ layer: Int, zoom: Double, features: [RenderFeature], filter: (RenderFeature) -> Bool) -> [Int] {
        let key = MatchKey(layer: layer, zoom: zoom)
        if let cached = matches[key] { return cached }
        var result: [Int] = []
        for (index, feature) in features.enumerated() where filter(feature) { result.append(index) }
        matches[key] = result
        return result
    }
}

enum VectorTileProjection {
    /// The features of a prepared tile placed on the canvas. `origin` is the tile's top-left corner
    /// in world coordinates and `size` its width there; tile coordinates run 0…extent across it.
    static func group(tile: PreparedTile, origin: ScreenPoint, size: Double, transform: ScreenTransform) -> FeatureGroup {
        var layers: [String: [RenderFeature]] = [:]
        for (name, parts) in tile.layers {
            var features: [RenderFeature] = []
            for layer in parts {
                // One affine map from tile units to the canvas: world = origin + p · scale, then
                // the camera's translation, scale and rotation (as ScreenTransform.screen).
                let scale = size / layer.extent * transform.worldSize
                let ox = (origin.x - transform.centerX) * transform.worldSize
                let oy = (origin.y - transform.centerY) * transform.worldSize
                let (c, s) = (transform.cosBearing, transform.sinBearing)
                let (a, b, tx) = (scale * c, scale * s, transform.halfWidth + ox * c + oy * s)
                let (d, e, ty) = (-scale * s, scale * c, transform.halfHeight - ox * s + oy * c)
                @inline(__always) func project(_ p: ScreenPoint) -> ScreenPoint { (a * p.x + b * p.y + tx, d * p.x + e * p.y + ty) }
                func ring(_ points: [ScreenPoint]) -> [ScreenPoint] {
                    // An empty array is the standard library's shared empty storage, and the
                    // initialiser below writes its count even there: tiles are projected on several
                    // threads, so that would be a (harmless, but reported) race on one global.
                    guard !points.isEmpty else { return [] }
                    return [ScreenPoint](unsafeUninitializedCapacity: points.count) { buffer, count in
                        points.withUnsafeBufferPointer { source in
                            for i in 0..<source.count { buffer[i] = project(source[i]) }
                        }
                        count = points.count
                    }
                }
                features.reserveCapacity(features.count + layer.features.count)
                for feature in layer.features {
                    let shape: RenderFeature.Shape = switch feature.shape {
                    case .points(let points): .points(ring(points))
                    case .lines(let lines): .lines(lines.map(ring))
                    case .polygons(let polygons): .polygons(polygons.map { $0.map(ring) })
                    }
                    features.append(RenderFeature(properties: feature.properties, id: feature.id, shape: shape))
                }
            }
            layers[name] = features
        }
        let corners = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)].map {
            transform.screen(worldX: origin.x + $0.0 * size, worldY: origin.y + $0.1 * size)
        }
        var group = FeatureGroup(clip: corners, layers: layers)
        group.prepared = tile
        return group
    }

    static func expressionValue(_ value: VectorTile.Value) -> ExpressionValue {
        switch value {
        case .string(let s): .string(s)
        case .float(let f): .number(Double(f))
        case .double(let d): .number(d)
        case .int(let i), .sint(let i): .number(Double(i))
        case .uint(let u): .number(Double(u))
        case .bool(let b): .boolean(b)
        }
    }
}

// MARK: - GeoJSON

/// GeoJSON features kept in world coordinates, parsed once when the renderer is made.
struct GeoJSONFeatures {
    enum Shape {
        case points([ScreenPoint])
        case lines([[ScreenPoint]])
        case polygons([[[ScreenPoint]]])
    }

    struct Feature {
        var properties: ExpressionObject
        var id: ExpressionValue
        var shape: Shape
    }

    var features: [Feature] = []
    /// The source's `lineMetrics` option.
    var lineMetrics = false
    /// The source's `maxzoom` (18 unless the style says otherwise).
    var maxZoom = 18
    /// For a clustered source (`"cluster": true`): its points and clusters, which replace
    /// `features` with what the frame's tile zoom shows.
    var clusters: GeoJSONClusters?

    /// Reads a FeatureCollection, a Feature or a bare geometry. Unknown or malformed members are
    /// skipped rather than failing the whole source, as MapLibre does.
    init(_ json: JSONValue) {
        append(json, properties: ExpressionObject(), id: .null)
    }

    private mutating func append(_ json: JSONValue, properties: ExpressionObject, id: ExpressionValue) {
        guard let type = json["type"]?.stringValue else { return }
        func position(_ value: JSONValue) -> ScreenPoint? {
            guard let a = value.arrayValue, a.count >= 2, let lon = a[0].numberValue, let lat = a[1].numberValue else { return nil }
            return ScreenTransform.world(CLLocationCoordinate2D(latitude: lat, longitude: lon))
        }
        func line(_ value: JSONValue?) -> [ScreenPoint] { value?.arrayValue?.compactMap(position) ?? [] }
        func polygon(_ value: JSONValue?) -> [[ScreenPoint]] { value?.arrayValue?.map { line($0) } ?? [] }
        let coordinates = json["coordinates"]
        switch type {
        case "FeatureCollection":
            for feature in json["features"]?.arrayValue ?? [] { append(feature, properties: properties, id: id) }
        case "Feature":
            let (object, featureID) = GeoJSONFeatureAttributes.of(json)
            if let geometry = json["geometry"] { append(geometry, properties: object, id: featureID) }
        case "Point":
            if let p = coordinates.flatMap(position) { features.append(Feature(properties: properties, id: id, shape: .points([p]))) }
        case "MultiPoint":
            features.append(Feature(properties: properties, id: id, shape: .points(line(coordinates))))
        case "LineString":
            features.append(Feature(properties: properties, id: id, shape: .lines([line(coordinates)])))
        case "MultiLineString":
            features.append(Feature(properties: properties, id: id, shape: .lines(coordinates?.arrayValue?.map { line($0) } ?? [])))
        case "Polygon":
            features.append(Feature(properties: properties, id: id, shape: .polygons([polygon(coordinates)])))
        case "MultiPolygon":
            features.append(Feature(properties: properties, id: id, shape: .polygons(coordinates?.arrayValue?.map { polygon($0) } ?? [])))
        case "GeometryCollection":
            for geometry in json["geometries"]?.arrayValue ?? [] { append(geometry, properties: properties, id: id) }
        default:
            break
        }
    }

    init(clusters: GeoJSONClusters) {
        self.clusters = clusters
    }

    /// All features projected for one camera, in source order (a clustered source's points and
    /// clusters at the camera's tile zoom).
    ///
    /// Lines and polygons reaching far beyond the canvas are cut to a box around it first. A
    /// GeoJSON source is not cut into tiles here (MapLibre's geojson-vt does that), so at a high
    /// zoom a polygon the size of a country, or the world outside the data (`NoDataArea`), lies
    /// millions of points off the canvas, past what Cairo's fixed-point coordinates hold.
    func group(transform: ScreenTransform, zoom: Double) -> FeatureGroup {
        func project(_ p: ScreenPoint) -> ScreenPoint { transform.screen(worldX: p.x, worldY: p.y) }
        // Out to the canvas's own size on every side: wide line joins, patterns and outlines
        // near the edge are drawn as without the cut.
        let width = 2 * transform.halfWidth, height = 2 * transform.halfHeight
        let box = MKMapRect(x: -width - 256, y: -height - 256, width: 3 * width + 512, height: 3 * height + 512)
        let limit = Double(1 << 20)
        func reachesFar(_ points: [ScreenPoint]) -> Bool {
            points.contains { abs($0.x) > limit || abs($0.y) > limit }
        }
        func cut(line: [ScreenPoint]) -> [[ScreenPoint]] {
            guard reachesFar(line) else { return [line] }
            return Clipping.clipPolyline(line.map { MKMapPoint(x: $0.x, y: $0.y) }, to: box).map { $0.map { ($0.x, $0.y) } }
        }
        func cut(polygon: [[ScreenPoint]]) -> [[ScreenPoint]]? {
            guard polygon.contains(where: reachesFar) else { return polygon }
            let clipped = Clipping.clipPolygon(polygon.map { $0.map { MKMapPoint(x: $0.x, y: $0.y) } }, to: box)
            return clipped.isEmpty ? nil : clipped.map { $0.map { ($0.x, $0.y) } }
        }
        let features = clusters?.drawnFeatures(atZoom: zoom) ?? features
        let projected = features.map { feature -> RenderFeature in
            let shape: RenderFeature.Shape = switch feature.shape {
            case .points(let points): .points(points.map(project))
            case .lines(let lines): .lines(lines.flatMap { cut(line: $0.map(project)) })
            case .polygons(let polygons): .polygons(polygons.compactMap { cut(polygon: $0.map { $0.map(project) }) })
            }
            return RenderFeature(properties: feature.properties, id: feature.id, shape: shape)
        }
        return FeatureGroup(clip: nil, layers: ["": projected], lineMetrics: lineMetrics, maxZoom: maxZoom)
    }
}

// MARK: - Line offsets

enum LineOffset {
    /// The polyline moved `distance` points to the right of its drawing direction (negative: left),
    /// each vertex along the bisector of its two segments' normals so parallel segments stay
    /// `distance` apart. `closed` treats the line as a ring.
    static func offset(_ points: [ScreenPoint], by distance: Double, closed: Bool) -> [ScreenPoint] {
        guard distance != 0, points.count >= 2 else { return points }
        let n = points.count
        func normal(_ a: ScreenPoint, _ b: ScreenPoint) -> ScreenPoint? {
            let dx = b.x - a.x, dy = b.y - a.y, length = (dx * dx + dy * dy).squareRoot()
            return length > 0 ? (-dy / length, dx / length) : nil
        }
        var result: [ScreenPoint] = []
        result.reserveCapacity(n)
        for i in 0..<n {
            let previous = i > 0 ? normal(points[i - 1], points[i]) : (closed ? normal(points[n - 1], points[0]) : nil)
            let next = i < n - 1 ? normal(points[i], points[i + 1]) : (closed ? normal(points[n - 1], points[0]) : nil)
            let a = previous ?? next ?? (0, 0), b = next ?? previous ?? (0, 0)
            var bx = a.x + b.x, by = a.y + b.y
            let length = (bx * bx + by * by).squareRoot()
            if length < 1e-9 { (bx, by) = (a.x, a.y) } else { (bx, by) = (bx / length, by / length) }
            // Scale so the offset is `distance` from both segments (1 / cos of half the turn), capped.
            let cosHalf = max(bx * a.x + by * a.y, 0.25)
            result.append((points[i].x + bx * distance / cosHalf, points[i].y + by * distance / cosHalf))
        }
        return result
    }
}

/// A GeoJSON Feature's `properties` and `id` as expressions read them (an id that is neither a
/// number nor a string is none), shared by drawing and clustering GeoJSON.
enum GeoJSONFeatureAttributes {
    static func of(_ feature: JSONValue) -> (properties: ExpressionObject, id: ExpressionValue) {
        var object = ExpressionObject()
        for member in feature["properties"]?.objectValue?.members ?? [] { object[member.key] = ExpressionValue(member.value) }
        let id: ExpressionValue = switch feature["id"] {
        case .number(let n)?: .number(n)
        case .string(let s)?: .string(s)
        default: .null
        }
        return (object, id)
    }
}
