import Foundation
import MapGeometry
import MapStyle

// Clustered GeoJSON sources (`"cluster": true`), as MapLibre Native draws them: its
// geojson_source_impl.cpp hands the source's features to supercluster with `extent` 8192 and
// `radius = round(clusterRadius · 8192 / 512)` (so clusterRadius is in points of 512-point tiles),
// `maxZoom = clusterMaxZoom`, and the `clusterProperties` as map/reduce functions; each tile of
// zoom z then shows supercluster's items of zoom z. Here the same index is MapGeometry's
// PointClusterIndex, which follows supercluster step for step, built once per source data and
// shared (see `GeoJSONClusters.shared`) by every renderer of that data and by the cluster queries
// of OpenMapKit's Mapbox face, so what is drawn and what the queries answer cannot diverge.

/// The points of a clustered GeoJSON source (`"cluster": true`) grouped as MapLibre groups them,
/// for drawing and for cluster queries (Mapbox's `leaves(of:offset:limit:)`, `children(of:)` and
/// `zoomLevel(forExpanding:)`).
///
/// Built from the source's options as MapLibre Native reads them: `clusterRadius` (default 50) in
/// points of 512-point tiles, `clusterMaxZoom` (default the source's `maxzoom` − 1; above it
/// every point stands alone), `clusterMinPoints` (default 2) and `clusterProperties`, each
/// `[reduce, map]`, the reduce being an expression over `["accumulated"]` and the member's
/// value (`["get", name]`) or an operator name standing for `[operator, ["accumulated"], ["get",
/// name]]`. A cluster's properties are `cluster` (true), `cluster_id`, `point_count`,
/// `point_count_abbreviated` ("1.2k", a string, as MapLibre Native writes it) and the folded
/// cluster properties; its id is its `cluster_id`. A point keeps its properties and id.
///
/// Only `Point` features are clustered; other geometries in a clustered source are left out (the
/// clusterer takes points only). A feature without geometry is never shown but counts among the
/// points, as in supercluster, so cluster ids are supercluster's. One instance serves every renderer of the same data and
/// options: see ``shared(source:data:)``. Thread-safe.
public final class GeoJSONClusters: @unchecked Sendable {
    /// A point or a cluster, as a map draws it at some zoom.
    public struct Feature: Sendable {
        public var coordinate: CLLocationCoordinate2D
        /// A point's own properties; a cluster's `cluster`, `cluster_id`, `point_count`,
        /// `point_count_abbreviated` and folded `clusterProperties`.
        public var properties: ExpressionObject
        /// A point's own id (null without one); a cluster's `cluster_id`.
        public var id: ExpressionValue
        /// The cluster's id; nil for a single point.
        public var clusterID: Int?
        /// How many points the feature stands for (1 for a point).
        public var pointCount: Int
    }

    /// The index the points are clustered with (supercluster's algorithm).
    public let index: PointClusterIndex
    /// The source's `maxzoom`: the deepest tile zoom, which caps the zoom clusters are taken at.
    public let sourceMaxZoom: Int
    private let points: [(coordinate: CLLocationCoordinate2D, properties: ExpressionObject, id: ExpressionValue)]
    private let clusterValues: [Int: ExpressionObject]
    private let lock = NSLock()
    private var byZoom: [Int: [GeoJSONFeatures.Feature]] = [:]

    /// Clusters the points of `data` (GeoJSON) with `source`'s options. Throws when a
    /// `clusterProperties` expression does not compile or an option is out of range.
    public init(source: StyleSource, data: JSONValue) throws(RenderError) {
        let options = try Self.options(source)
        var points: [(coordinate: CLLocationCoordinate2D, properties: ExpressionObject, id: ExpressionValue)] = []
        Self.collectPoints(data, into: &points)
        self.points = points
        sourceMaxZoom = Int(min(max(source.maxzoom, 0), 24))
        do {
            index = try PointClusterIndex(points: points.enumerated().map { PointClusterIndex.Point(coordinate: $1.coordinate, payload: $0) },
                                          options: options)
        } catch {
            throw RenderError("clustered source: \(error)")
        }
        let properties = try Self.clusterProperties(source.properties["clusterProperties"])
        guard !properties.isEmpty else {
            clusterValues = [:]
            return
        }
        let sourcePoints = points
        // MapLibre Native's map: a point without properties contributes nothing; its reduce folds
        // only the members that have the property, evaluating with the member's values as the
        // feature's properties and the value so far as `accumulated`. Errors give null.
        clusterValues = index.aggregate(map: { point -> ExpressionObject in
            let own = sourcePoints[point.payload].properties
            var mapped = ExpressionObject()
            guard own.count > 0 else { return mapped }
            let context = EvaluationContext(properties: own, geometryType: "Point")
            for (name, map, _) in properties { mapped[name] = (try? map.evaluate(context)) ?? .null }
            return mapped
        }, reduce: { accumulated, member in
            for (name, _, reduce) in properties where member[name] != nil {
                var context = EvaluationContext(properties: member, geometryType: "Point")
                context.accumulated = accumulated[name] ?? .null
                accumulated[name] = (try? reduce.evaluate(context)) ?? .null
            }
        })
    }

    /// The tile zoom MapLibre shows a camera zoom with: floored, within 0 … the source's maxzoom.
    public func tileZoom(forZoom zoom: Double) -> Int {
        Int(min(max(zoom.rounded(.down), 0), Double(sourceMaxZoom)))
    }

    /// Every point and cluster shown at camera zoom `zoom` (see ``tileZoom(forZoom:)``), in the
    /// index's order.
    public func features(atZoom zoom: Double) -> [Feature] {
        index.clusters(west: -180, south: -90, east: 180, north: 90, zoom: Double(tileZoom(forZoom: zoom))).map(feature)
    }

    /// The points and clusters a cluster splits into one zoom in. Throws
    /// `PointClusterError.unknownCluster` for an id this source does not have.
    public func children(of clusterID: Int) throws -> [Feature] {
        try index.children(of: clusterID).map(feature)
    }

    /// Up to `limit` of a cluster's points after skipping `offset`, in supercluster's order.
    public func leaves(of clusterID: Int, limit: Int, offset: Int) throws -> [Feature] {
        try index.leaves(of: clusterID, limit: limit, offset: offset).map(feature)
    }

    /// The zoom at which a cluster splits into several items.
    public func expansionZoom(of clusterID: Int) throws -> Int {
        try index.expansionZoom(of: clusterID)
    }

    private func feature(_ item: PointClusterIndex.Item) -> Feature {
        switch item.kind {
        case .point(let index, _):
            let point = points[index]
            return Feature(coordinate: point.coordinate, properties: point.properties, id: point.id, clusterID: nil, pointCount: 1)
        case .cluster(let id, let count):
            var properties = clusterValues[id] ?? ExpressionObject()
            properties["cluster"] = .boolean(true)
            properties["cluster_id"] = .number(Double(id))
            properties["point_count"] = .number(Double(count))
            properties["point_count_abbreviated"] = .string(PointClusterIndex.abbreviatedCount(count))
            return Feature(coordinate: item.coordinate, properties: properties, id: .number(Double(id)), clusterID: id, pointCount: count)
        }
    }

    /// The features drawn at camera zoom `zoom`, in world coordinates, made once per tile zoom.
    func drawnFeatures(atZoom zoom: Double) -> [GeoJSONFeatures.Feature] {
        let z = tileZoom(forZoom: zoom)
        lock.lock()
        defer { lock.unlock() }
        if let cached = byZoom[z] { return cached }
        let made = features(atZoom: zoom).map {
            GeoJSONFeatures.Feature(properties: $0.properties, id: $0.id, shape: .points([ScreenTransform.world($0.coordinate)]))
        }
        byZoom[z] = made
        return made
    }

    // MARK: - Options

    /// supercluster's options as MapLibre Native sets them for a source.
    static func options(_ source: StyleSource) throws(RenderError) -> PointClusterOptions {
        let object = source.properties
        // MapLibre Native reads clusterRadius and clusterMaxZoom as integers (truncated).
        let radius = (object["clusterRadius"]?.numberValue ?? 50).rounded(.towardZero)
        let maxZoom = object["clusterMaxZoom"]?.numberValue.map { Int($0.rounded(.towardZero)) }
            ?? Int(min(max(source.maxzoom, 0), 24)) - 1
        let minPoints = Int(object["clusterMinPoints"]?.numberValue ?? 2)
        let options = PointClusterOptions(radius: (radius * 8192 / 512).rounded(), extent: 8192, minZoom: 0,
                                          maxZoom: min(max(maxZoom, 0), 30), minPoints: max(minPoints, 2))
        do { try options.validate() } catch { throw RenderError("clustered source: \(error)") }
        return options
    }

    /// The `clusterProperties` compiled: name, map expression, reduce expression, in the style's order.
    static func clusterProperties(_ json: JSONValue?) throws(RenderError) -> [(String, MapStyle.Expression, MapStyle.Expression)] {
        guard let members = json?.objectValue?.members else { return [] }
        var result: [(String, MapStyle.Expression, MapStyle.Expression)] = []
        for (name, value) in members {
            guard let pair = value.arrayValue, pair.count == 2 else {
                throw RenderError("clusterProperties.\(name): an array of a reduce and a map expression expected")
            }
            let reduceJSON: JSONValue = if let op = pair[0].stringValue {
                .array([.string(op), .array([.string("accumulated")]), .array([.string("get"), .string(name)])])
            } else {
                pair[0]
            }
            do {
                result.append((name, try MapStyle.Expression.parse(pair[1]), try MapStyle.Expression.parse(reduceJSON)))
            } catch {
                throw RenderError("clusterProperties.\(name): \(error)")
            }
        }
        return result
    }

    /// The Point features of GeoJSON, in order (a FeatureCollection's, a Feature's, a bare Point).
    private static func collectPoints(_ json: JSONValue,
                                      into points: inout [(coordinate: CLLocationCoordinate2D, properties: ExpressionObject, id: ExpressionValue)],
                                      properties: ExpressionObject = ExpressionObject(), id: ExpressionValue = .null) {
        switch json["type"]?.stringValue {
        case "FeatureCollection":
            for feature in json["features"]?.arrayValue ?? [] { collectPoints(feature, into: &points) }
        case "Feature":
            let (object, featureID) = GeoJSONFeatureAttributes.of(json)
            if let geometry = json["geometry"], geometry != .null {
                collectPoints(geometry, into: &points, properties: object, id: featureID)
            } else {
                // supercluster counts a feature without geometry among its points (never shown),
                // which numbers the cluster ids; it is kept so that they are the same here.
                points.append((CLLocationCoordinate2D(latitude: .nan, longitude: .nan), object, featureID))
            }
        case "Point":
            guard let a = json["coordinates"]?.arrayValue, a.count >= 2, let lon = a[0].numberValue, let lat = a[1].numberValue else { return }
            points.append((CLLocationCoordinate2D(latitude: lat, longitude: lon), properties, id))
        default:
            break
        }
    }

    // MARK: - Sharing

    private struct Key: Hashable {
        let data: JSONValue
        let options: [JSONValue?]
        let maxzoom: Double
    }

    nonisolated(unsafe) private static var cache: [(key: Key, clusters: GeoJSONClusters)] = []
    private static let cacheLock = NSLock()

    /// The clusters of `data` with `source`'s options, made once and shared: renderers made again
    /// for a changed style (runtime styling replaces the style document) and cluster queries of
    /// the same data and options get the same index. The last few sources are kept.
    public static func shared(source: StyleSource, data: JSONValue) throws(RenderError) -> GeoJSONClusters {
        let names = ["clusterRadius", "clusterMaxZoom", "clusterMinPoints", "clusterProperties"]
        let key = Key(data: data, options: names.map { source.properties[$0] }, maxzoom: source.maxzoom)
        cacheLock.lock()
        if let found = cache.first(where: { $0.key == key }) {
            cacheLock.unlock()
            return found.clusters
        }
        cacheLock.unlock()
        let made = try GeoJSONClusters(source: source, data: data)
        cacheLock.lock()
        defer { cacheLock.unlock() }
        if let found = cache.first(where: { $0.key == key }) { return found.clusters }
        cache.append((key, made))
        if cache.count > 8 { cache.removeFirst() }
        return made
    }

    /// Whether a source asks for clustering (`"cluster": true`).
    public static func isClustered(_ source: StyleSource) -> Bool {
        source.type == .geojson && source.properties["cluster"]?.boolValue == true
    }
}
