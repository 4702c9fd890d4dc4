/// Everything an expression may read while it is evaluated for one feature at one camera state.
/// A value type so callers can keep one per tile and only swap the feature-specific fields.
public struct EvaluationContext: Sendable {
    public var zoom: Double?
    public var heatmapDensity: Double?
    public var lineProgress: Double?
    public var elevation: Double?
    /// The feature's properties (`get`, `has`, `properties`).
    public var properties: ExpressionObject
    /// The feature id, `.null` when the feature has none.
    public var id: ExpressionValue
    /// "Point", "LineString" or "Polygon" (multi-geometries report their single-geometry type).
    public var geometryType: String?
    public var featureState: ExpressionObject
    public var globalState: ExpressionObject
    /// Images the sprite has: `image` reports whether its name is among them.
    public var availableImages: Set<String>?
    /// The feature's geometry in longitude/latitude, for `within` and `distance`.
    public var geometry: ExpressionGeometry?
    /// The tile the feature came from. `within` then tests on the tile's integer grid, so a point
    /// exactly on a polygon edge stays on it despite the tile's coordinate rounding.
    public var canonicalTile: CanonicalTileID?
    /// What `["accumulated"]` reads: the value a cluster property has gathered so far, while a
    /// clustered GeoJSON source folds a cluster's members (its `clusterProperties` reduce
    /// expressions); nil (read as null) elsewhere.
    public var accumulated: ExpressionValue?

    public init(zoom: Double? = nil, properties: ExpressionObject = ExpressionObject(), id: ExpressionValue = .null,
                geometryType: String? = nil, featureState: ExpressionObject = ExpressionObject(),
                globalState: ExpressionObject = ExpressionObject(), heatmapDensity: Double? = nil,
                lineProgress: Double? = nil, elevation: Double? = nil, availableImages: Set<String>? = nil,
                geometry: ExpressionGeometry? = nil) {
        self.zoom = zoom
        self.properties = properties
        self.id = id
        self.geometryType = geometryType
        self.featureState = featureState
        self.globalState = globalState
        self.heatmapDensity = heatmapDensity
        self.lineProgress = lineProgress
        self.elevation = elevation
        self.availableImages = availableImages
        self.geometry = geometry
    }

    /// Convenience for properties given as JSON.
    public init(zoom: Double? = nil, properties: [String: JSONValue], id: JSONValue? = nil, geometryType: String? = nil) {
        var object = ExpressionObject()
        for key in properties.keys.sorted() { object[key] = ExpressionValue(properties[key]!) }
        self.init(zoom: zoom, properties: object, id: id.map(ExpressionValue.init) ?? .null, geometryType: geometryType)
    }
}

/// A tile address (zoom, column, row) in the Web Mercator tile pyramid.
public struct CanonicalTileID: Hashable, Sendable {
    public var z: Int, x: Int, y: Int
    public init(z: Int, x: Int, y: Int) { self.z = z; self.x = x; self.y = y }
}

/// A feature geometry in longitude/latitude degrees: lists of rings or lines of [lon, lat] points.
public enum ExpressionGeometry: Sendable, Hashable {
    case points([[Double]])
    case lines([[[Double]]])
    /// Each polygon is a list of rings, the first the outer ring.
    case polygons([[[[Double]]]])

    /// Reads a GeoJSON geometry object (Point … MultiPolygon, GeometryCollection is not supported).
    public init?(geoJSON: JSONValue) {
        guard let type = geoJSON["type"]?.stringValue else { return nil }
        if type == "Feature", let g = geoJSON["geometry"] { self.init(geoJSON: g); return }
        if type == "FeatureCollection" || type == "GeometryCollection" {
            let members = (geoJSON["features"] ?? geoJSON["geometries"])?.arrayValue ?? []
            let parts = members.compactMap { ExpressionGeometry(geoJSON: $0) }
            guard !parts.isEmpty, parts.count == members.count else { return nil }
            var points: [[Double]] = [], lines: [[[Double]]] = [], polygons: [[[[Double]]]] = []
            for p in parts {
                switch p { case .points(let x): points += x; case .lines(let x): lines += x; case .polygons(let x): polygons += x }
            }
            if !polygons.isEmpty && points.isEmpty && lines.isEmpty { self = .polygons(polygons) }
            else if !lines.isEmpty && points.isEmpty && polygons.isEmpty { self = .lines(lines) }
            else if !points.isEmpty && lines.isEmpty && polygons.isEmpty { self = .points(points) }
            else { return nil }
            return
        }
        guard let coords = geoJSON["coordinates"] else { return nil }
        func point(_ v: JSONValue) -> [Double]? {
            guard let a = v.arrayValue, a.count >= 2, let x = a[0].numberValue, let y = a[1].numberValue else { return nil }
            return [x, y]
        }
        func line(_ v: JSONValue) -> [[Double]]? {
            guard let a = v.arrayValue else { return nil }
            let pts = a.compactMap(point)
            return pts.count == a.count ? pts : nil
        }
        func polygon(_ v: JSONValue) -> [[[Double]]]? {
            guard let a = v.arrayValue else { return nil }
            let rings = a.compactMap(line)
            return rings.count == a.count ? rings : nil
        }
        func many<T>(_ v: JSONValue, _ f: (JSONValue) -> T?) -> [T]? {
            guard let a = v.arrayValue else { return nil }
            let items = a.compactMap(f)
            return items.count == a.count ? items : nil
        }
        switch type {
        case "Point": guard let p = point(coords) else { return nil }; self = .points([p])
        case "MultiPoint": guard let p = many(coords, point) else { return nil }; self = .points(p)
        case "LineString": guard let l = line(coords) else { return nil }; self = .lines([l])
        case "MultiLineString": guard let l = many(coords, line) else { return nil }; self = .lines(l)
        case "Polygon": guard let p = polygon(coords) else { return nil }; self = .polygons([p])
        case "MultiPolygon": guard let p = many(coords, polygon) else { return nil }; self = .polygons(p)
        default: return nil
        }
    }
}
