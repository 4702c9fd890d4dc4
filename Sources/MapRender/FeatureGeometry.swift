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
}

// MARK: - Vector tiles

enum VectorTileProjection {
    /// The features of a decoded tile placed on the canvas. `origin` is the tile's top-left corner
    /// in world coordinates and `size` its width there; tile coordinates run 0…extent across it.
    /// Only the source layers in `needed` are projected: a street map's tiles carry many layers a
    /// style may not draw.
    static func group(tile: VectorTile, origin: ScreenPoint, size: Double, transform: ScreenTransform,
                      needed: Set<String>) -> FeatureGroup {
        var layers: [String: [RenderFeature]] = [:]
        for layer in tile.layers where needed.contains(layer.name) {
            let scale = size / Double(max(layer.extent, 1))
            func project(_ p: VectorTile.TilePoint) -> ScreenPoint {
                transform.screen(worldX: origin.x + Double(p.x) * scale, worldY: origin.y + Double(p.y) * scale)
            }
            var features: [RenderFeature] = []
            features.reserveCapacity(layer.features.count)
            for feature in layer.features {
                let shape: RenderFeature.Shape
                switch feature.geometry {
                case .points(let points):
                    // Points in the tile's buffer belong to the neighbouring tile.
                    let extent = Int32(layer.extent)
                    shape = .points(points.filter { $0.x >= 0 && $0.y >= 0 && $0.x < extent && $0.y < extent }.map(project))
                case .lines(let lines): shape = .lines(lines.map { $0.map(project) })
                case .polygons(let polygons): shape = .polygons(polygons.map { $0.map { $0.map(project) } })
                case .unknown: continue
                }
                var properties = ExpressionObject()
                for property in feature.properties { properties[property.key] = expressionValue(property.value) }
                features.append(RenderFeature(properties: properties, id: feature.id.map { .number(Double($0)) } ?? .null, shape: shape))
            }
            layers[layer.name, default: []].append(contentsOf: features)
        }
        let corners = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)].map {
            transform.screen(worldX: origin.x + $0.0 * size, worldY: origin.y + $0.1 * size)
        }
        return FeatureGroup(clip: corners, layers: layers)
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
            var object = ExpressionObject()
            for member in json["properties"]?.objectValue?.members ?? [] { object[member.key] = ExpressionValue(member.value) }
            let featureID: ExpressionValue = switch json["id"] {
            case .number(let n)?: .number(n)
            case .string(let s)?: .string(s)
            default: .null
            }
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

    /// All features projected for one camera, in source order.
    func group(transform: ScreenTransform) -> FeatureGroup {
        func project(_ p: ScreenPoint) -> ScreenPoint { transform.screen(worldX: p.x, worldY: p.y) }
        let projected = features.map { feature -> RenderFeature in
            let shape: RenderFeature.Shape = switch feature.shape {
            case .points(let points): .points(points.map(project))
            case .lines(let lines): .lines(lines.map { $0.map(project) })
            case .polygons(let polygons): .polygons(polygons.map { $0.map { $0.map(project) } })
            }
            return RenderFeature(properties: feature.properties, id: feature.id, shape: shape)
        }
        return FeatureGroup(clip: nil, layers: ["": projected])
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
