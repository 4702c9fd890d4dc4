// Mapbox's MGLShapeSource: shapes and features in code, or a GeoJSON URL, as a MapLibre
// `geojson` source.

import Foundation
import MapFormats
import MapRender
import MapStyle

/// An option of a shape source (Mapbox's `MGLShapeSourceOption`), each a member of MapLibre's
/// `geojson` source.
public struct MGLShapeSourceOption: Hashable, RawRepresentable, Sendable {
    /// The option's name.
    public let rawValue: String
    /// An option named `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A Boolean: whether points are clustered (`cluster`): nearby points are drawn as one
    /// cluster feature (``MGLPointFeatureCluster``) up to ``maximumZoomLevelForClustering``.
    public static let clustered = MGLShapeSourceOption(rawValue: "cluster")
    /// A number: the cluster radius in points (`clusterRadius`, default 50, a whole number);
    /// only with ``clustered``.
    public static let clusterRadius = MGLShapeSourceOption(rawValue: "clusterRadius")
    /// A number: the fewest points a cluster has (`clusterMinPoints`); only with ``clustered``.
    public static let clusterMinPoints = MGLShapeSourceOption(rawValue: "clusterMinPoints")
    /// A number: the highest zoom level at which points cluster (`clusterMaxZoom`, default one
    /// less than ``maximumZoomLevel``); only with ``clustered``.
    public static let maximumZoomLevelForClustering = MGLShapeSourceOption(rawValue: "clusterMaxZoom")
    /// A dictionary of attribute name → `[reduce expression, map expression]` (`clusterProperties`);
    /// only with ``clustered``. The map expression reads a point's attributes; the reduce
    /// expression folds the mapped values with `$featureAccumulated` (or is an operator name as a
    /// constant expression, such as `+`). Each cluster gets the folded value as that attribute.
    public static let clusterProperties = MGLShapeSourceOption(rawValue: "clusterProperties")
    /// A number: the source's minimum zoom level. Differs from Mapbox: MapLibre's `geojson`
    /// sources have no `minzoom`, so a value is refused (precondition).
    public static let minimumZoomLevel = MGLShapeSourceOption(rawValue: "minzoom")
    /// A number: the zoom level up to which the data is detailed (`maxzoom`, default 18).
    public static let maximumZoomLevel = MGLShapeSourceOption(rawValue: "maxzoom")
    /// A number: the tile buffer (`buffer`, default 128).
    public static let buffer = MGLShapeSourceOption(rawValue: "buffer")
    /// A number: the simplification tolerance (`tolerance`, default 0.375). Differs from Mapbox:
    /// stored in the style; OpenMapKit draws shape sources whole, without simplifying them.
    public static let simplificationTolerance = MGLShapeSourceOption(rawValue: "tolerance")
    /// A Boolean: whether line distances are computed, for `lineGradient` (`lineMetrics`).
    public static let lineDistanceMetrics = MGLShapeSourceOption(rawValue: "lineMetrics")
}

/// A source of shapes and features given in code or read from a GeoJSON URL (Mapbox's
/// `MGLShapeSource`; MapLibre's `geojson` source). Setting ``shape`` or ``url`` of a source in a
/// style redraws it on the next frame.
///
/// With ``MGLShapeSourceOption/clustered`` the source's points are clustered as MapLibre
/// clusters them (supercluster's algorithm; the cluster radius in points of 512-point tiles, the
/// clusters of the floored zoom level drawn): layers of the source draw clusters as
/// ``MGLPointFeatureCluster`` features, with `cluster`, `cluster_id`, `point_count`,
/// `point_count_abbreviated` and the cluster properties as attributes, and points not in a
/// cluster as they are. ``leaves(of:offset:limit:)``, ``children(of:)`` and
/// ``zoomLevel(forExpanding:)`` answer from the same clustering the map draws.
///
/// Differs from Mapbox: a clustered source clusters its point features only (other geometries
/// are left out). A URL is read when the map is drawn: `file://` URLs and the paths the map
/// view's resource loader knows; cluster queries of a URL source read `file://` URLs only.
public class MGLShapeSource: MGLSource {
    /// A source of `shape` (nil for an empty one) with `options`.
    public init(identifier: String, shape: MGLShape?, options: [MGLShapeSourceOption: Any]? = nil) {
        super.init(identifier: identifier, object: MGLShapeSource.object(data: MGLShapeSource.data(of: shape), options: options))
    }

    /// A source of `features` (their attributes kept, for predicates and data-driven styling).
    public convenience init(identifier: String, features: [MGLShape & MGLFeature], options: [MGLShapeSourceOption: Any]? = nil) {
        self.init(identifier: identifier, shape: MGLShapeCollectionFeature(shapes: features), options: options)
    }

    /// A source of `shapes` (as geometries: features among them lose their attributes, as in
    /// Mapbox).
    public convenience init(identifier: String, shapes: [MGLShape], options: [MGLShapeSourceOption: Any]? = nil) {
        self.init(identifier: identifier, shape: MGLShapeCollection(shapes: shapes), options: options)
    }

    /// A source of the GeoJSON at `url`.
    public init(identifier: String, url: URL, options: [MGLShapeSourceOption: Any]? = nil) {
        super.init(identifier: identifier, object: MGLShapeSource.object(data: .string(url.absoluteString), options: options))
    }

    required init(wrapping identifier: String, object: JSONObject) {
        super.init(wrapping: identifier, object: object)
    }

    /// The source's shapes; nil for a source read from a URL. A FeatureCollection reads as an
    /// ``MGLShapeCollectionFeature``, a Feature as its feature class.
    public var shape: MGLShape? {
        get {
            guard let data = object["data"], data.stringValue == nil,
                  let bytes = try? JSONSerialization.data(withJSONObject: FoundationJSON.object(data)) else { return nil }
            return try? MGLShape(data: bytes, encoding: String.Encoding.utf8.rawValue)
        }
        set { update("shape") { $0.set("data", MGLShapeSource.data(of: newValue)) } }
    }

    /// The URL of the source's GeoJSON; nil for a source of shapes.
    public var url: URL? {
        get { object["data"]?.stringValue.flatMap { URL(string: $0) } }
        set { update("url") { $0.set("data", newValue.map { .string($0.absoluteString) } ?? MGLShapeSource.data(of: nil)) } }
    }

    /// The features of the source's shapes that satisfy `predicate` (all for nil): the shapes
    /// as given, not clipped to tiles as Mapbox's are. Empty for a source read from a URL.
    public func features(matching predicate: NSPredicate?) -> [MGLShape & MGLFeature] {
        let all: [MGLShape & MGLFeature]
        switch shape {
        case let collection as MGLShapeCollectionFeature: all = collection.features
        case let feature as MGLShape & MGLFeature: all = [feature]
        default: all = []
        }
        guard let predicate else { return all }
        guard let json = try? MGLJSON.predicateJSON(predicate),
              let filter = try? MapStyle.Expression.parse(json, expected: .boolean) else { return [] }
        return all.filter { feature in
            var properties: [String: JSONValue] = [:]
            for (key, value) in feature.attributes { properties[key] = try? FoundationJSON.value(value) }
            let id: JSONValue? = switch feature.identifier {
            case let number as NSNumber: .number(number.doubleValue)
            case let string as String: .string(string)
            default: nil
            }
            let context = EvaluationContext(properties: properties, id: id, geometryType: MGLShapeSource.geometryType(of: feature))
            return (try? filter.evaluate(context)) == .boolean(true)
        }
    }

    static func geometryType(of shape: MGLShape) -> String? {
        switch shape {
        case is MGLPointAnnotation, is MGLPointCollection: "Point"
        case is MGLPolygon, is MGLMultiPolygon: "Polygon"
        case is MGLPolyline, is MGLMultiPolyline: "LineString"
        default: nil
        }
    }

    /// A shape as the `data` of a `geojson` source (an empty FeatureCollection for nil).
    static func data(of shape: MGLShape?) -> JSONValue {
        let empty = JSONValue.object(JSONObject([("type", .string("FeatureCollection")), ("features", .array([]))]))
        guard let shape else { return empty }
        return (try? JSONValue.parse([UInt8](shape.geoJSONData(usingEncoding: String.Encoding.utf8.rawValue)))) ?? empty
    }

    /// The source's JSON for `data` and Mapbox's options.
    static func object(data: JSONValue, options: [MGLShapeSourceOption: Any]?) -> JSONObject {
        var object = JSONObject([("type", .string("geojson")), ("data", data)])
        for (option, value) in (options ?? [:]).sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            let json: JSONValue
            if option == .clusterProperties {
                guard let properties = value as? [String: Any] else {
                    preconditionFailure("MGLShapeSourceOption.clusterProperties: a dictionary of [NSExpression, NSExpression] expected")
                }
                var members: [(key: String, value: JSONValue)] = []
                for (name, pair) in properties.sorted(by: { $0.key < $1.key }) {
                    guard let expressions = pair as? [NSExpression], expressions.count == 2,
                          let reduce = try? expressions[0].mglJSON(), let map = try? expressions[1].mglJSON() else {
                        preconditionFailure("MGLShapeSourceOption.clusterProperties[\(name)]: two expressions expected")
                    }
                    members.append((name, .array([reduce, map])))
                }
                json = .object(JSONObject(members))
            } else {
                do { json = try FoundationJSON.value(value) } catch {
                    preconditionFailure("MGLShapeSourceOption.\(option.rawValue): \(error)")
                }
            }
            precondition(option != .minimumZoomLevel, "MGLShapeSourceOption.minimumZoomLevel: MapLibre's geojson sources have no minzoom")
            object.set(option.rawValue, json)
        }
        return object
    }

    // MARK: - Clusters

    /// The points of a cluster, up to `limit` after skipping the first `offset`, in the order
    /// supercluster gives them (depth first through the cluster's children); each a feature as
    /// the source holds it. Empty when the source is not clustered or the cluster is not one of
    /// its clusters (Mapbox's `leavesOfCluster:offset:limit:`).
    public func leaves(of cluster: MGLPointFeatureCluster, offset: UInt, limit: UInt) -> [MGLFeature] {
        guard let clusters = clusters(), let id = Int(exactly: cluster.clusterIdentifier),
              let found = try? clusters.leaves(of: id, limit: Int(min(limit, UInt(Int.max))), offset: Int(min(offset, UInt(Int.max))))
        else { return [] }
        return found.map(MGLShapeSource.feature)
    }

    /// What a cluster splits into one zoom level in: points and smaller clusters
    /// (``MGLPointFeatureCluster``). Empty when the source is not clustered or the cluster is not
    /// one of its clusters (Mapbox's `childrenOfCluster:`).
    public func children(of cluster: MGLPointFeatureCluster) -> [MGLFeature] {
        guard let clusters = clusters(), let id = Int(exactly: cluster.clusterIdentifier),
              let found = try? clusters.children(of: id) else { return [] }
        return found.map(MGLShapeSource.feature)
    }

    /// The zoom level at which a cluster splits into several features: where to zoom the map
    /// when it is tapped. −1 when the source is not clustered or the cluster is not one of its
    /// clusters (Mapbox's `zoomLevelForExpandingCluster:`).
    public func zoomLevel(forExpanding cluster: MGLPointFeatureCluster) -> Double {
        guard let clusters = clusters(), let id = Int(exactly: cluster.clusterIdentifier),
              let zoom = try? clusters.expansionZoom(of: id) else { return -1 }
        return Double(zoom)
    }

    /// The source's clustering: the one the map's renderer draws from (shared by data and
    /// options, see MapRender's `GeoJSONClusters.shared`); nil when the source is not clustered
    /// or its data cannot be read.
    func clusters() -> GeoJSONClusters? {
        let object = self.object
        guard let source = StyleSource(object), GeoJSONClusters.isClustered(source), let data = source.data else { return nil }
        let json: JSONValue
        if let url = data.stringValue {
            guard let fileURL = URL(string: url), fileURL.isFileURL, let bytes = try? Data(contentsOf: fileURL),
                  let parsed = try? JSONValue.parse([UInt8](bytes)) else { return nil }
            json = parsed
        } else {
            json = data
        }
        return try? GeoJSONClusters.shared(source: source, data: json)
    }

    /// A point or cluster of the clustering as a feature: an ``MGLPointFeatureCluster`` for a
    /// cluster, an ``MGLPointFeature`` for a point.
    static func feature(_ item: GeoJSONClusters.Feature) -> MGLFeature {
        let feature = item.clusterID == nil ? MGLPointFeature() : MGLPointFeatureCluster()
        feature.coordinate = item.coordinate
        feature.identifier = item.id.isNull ? nil : FoundationJSON.object(item.id.json)
        feature.attributes = Dictionary(item.properties.keys.map { ($0, FoundationJSON.object(item.properties[$0]!.json)) },
                                        uniquingKeysWith: { _, last in last })
        return feature
    }
}
