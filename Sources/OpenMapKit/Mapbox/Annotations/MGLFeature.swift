// Mapbox's features: shapes with an identifier and attributes (GeoJSON features).

import Foundation
import MapFormats
import MapGeometry

/// A shape with an identifier and attributes (Mapbox's `MGLFeature`), as GeoJSON features have.
///
/// Differs from Mapbox: a Swift protocol; ``attribute(forKey:)`` and ``geoJSONDictionary()``
/// have default implementations, and the feature classes are separate classes conforming to it.
public protocol MGLFeature: MGLAnnotation {
    /// The feature's identifier (a string or a number), nil when it has none.
    var identifier: Any? { get set }
    /// The feature's attributes (GeoJSON `properties`): strings, numbers, booleans, arrays and
    /// dictionaries of them.
    var attributes: [String: Any] { get set }
    /// The attribute named `key`; nil when there is none.
    func attribute(forKey key: String) -> Any?
    /// The feature as a GeoJSON dictionary (`type`, `id`, `geometry`, `properties`).
    func geoJSONDictionary() -> [String: Any]
}

extension MGLFeature {
    public func attribute(forKey key: String) -> Any? { attributes[key] }

    public func geoJSONDictionary() -> [String: Any] { defaultGeoJSONDictionary() }

    /// The feature form of ``geoJSONDictionary()`` (what the protocol's default gives).
    func defaultGeoJSONDictionary() -> [String: Any] {
        guard let data = try? GeoJSON.feature(MGLShapeGeoJSON.feature(of: self)).serialized(),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return ["type": "Feature"] }
        return object
    }
}

/// A point feature (Mapbox's `MGLPointFeature`).
open class MGLPointFeature: MGLPointAnnotation, MGLFeature {
    /// The identifier; nil when it has none.
    open var identifier: Any?
    /// The attributes.
    open var attributes: [String: Any] = [:]
}

/// A cluster of points (Mapbox's `MGLCluster`): a feature a clustered shape source draws in
/// place of several of its points.
public protocol MGLCluster: MGLFeature {
    /// The cluster's identifier within its source (its `cluster_id` attribute), which the source's
    /// cluster queries take.
    var clusterIdentifier: UInt { get }
    /// How many of the source's points the cluster holds (its `point_count` attribute).
    var clusterPointCount: UInt { get }
}

/// A cluster of a clustered ``MGLShapeSource`` (Mapbox's `MGLPointFeatureCluster`): a point
/// feature at the cluster's centre whose attributes are `cluster` (true), `cluster_id`,
/// `point_count`, `point_count_abbreviated` and the source's cluster properties. Map feature
/// queries (``MGLMapView/visibleFeatures(at:)``) and the source's cluster queries answer clusters
/// with this class; pass one to ``MGLShapeSource/leaves(of:offset:limit:)``,
/// ``MGLShapeSource/children(of:)`` or ``MGLShapeSource/zoomLevel(forExpanding:)``.
open class MGLPointFeatureCluster: MGLPointFeature, MGLCluster {
    /// The `cluster_id` attribute (0 when it is missing).
    open var clusterIdentifier: UInt { Self.count(attributes["cluster_id"]) }

    /// The `point_count` attribute (0 when it is missing).
    open var clusterPointCount: UInt { Self.count(attributes["point_count"]) }

    /// A whole number ≥ 0 read from an attribute (0 when it is not one).
    private static func count(_ value: Any?) -> UInt {
        let number: Double? = switch value {
        case let d as Double: d
        case let i as Int: Double(i)
        case let u as UInt: Double(u)
        case let n as NSNumber: n.doubleValue
        default: nil
        }
        guard let number, number.isFinite, number >= 0, number < 1e18 else { return 0 }
        return UInt(number)
    }
}

/// A points feature (Mapbox's `MGLPointCollectionFeature`).
open class MGLPointCollectionFeature: MGLPointCollection, MGLFeature {
    /// The identifier; nil when it has none.
    open var identifier: Any?
    /// The attributes.
    open var attributes: [String: Any] = [:]
}

/// A line feature (Mapbox's `MGLPolylineFeature`).
open class MGLPolylineFeature: MGLPolyline, MGLFeature {
    /// The identifier; nil when it has none.
    open var identifier: Any?
    /// The attributes.
    open var attributes: [String: Any] = [:]
}

/// A polygon feature (Mapbox's `MGLPolygonFeature`).
open class MGLPolygonFeature: MGLPolygon, MGLFeature {
    /// The identifier; nil when it has none.
    open var identifier: Any?
    /// The attributes.
    open var attributes: [String: Any] = [:]
}

/// A lines feature (Mapbox's `MGLMultiPolylineFeature`).
open class MGLMultiPolylineFeature: MGLMultiPolyline, MGLFeature {
    /// The identifier; nil when it has none.
    open var identifier: Any?
    /// The attributes.
    open var attributes: [String: Any] = [:]
}

/// A polygons feature (Mapbox's `MGLMultiPolygonFeature`).
open class MGLMultiPolygonFeature: MGLMultiPolygon, MGLFeature {
    /// The identifier; nil when it has none.
    open var identifier: Any?
    /// The attributes.
    open var attributes: [String: Any] = [:]
}

/// A collection of features as one feature (Mapbox's `MGLShapeCollectionFeature`): what a GeoJSON
/// FeatureCollection decodes to.
open class MGLShapeCollectionFeature: MGLShapeCollection, MGLFeature {
    /// The identifier; nil when it has none.
    open var identifier: Any?
    /// The attributes.
    open var attributes: [String: Any] = [:]

    /// The member features.
    public var features: [MGLShape & MGLFeature] { shapes.compactMap { $0 as? MGLShape & MGLFeature } }

    public init(shapes: [MGLShape & MGLFeature]) {
        super.init(shapes: shapes)
    }

    /// A FeatureCollection when it has neither identifier nor attributes (what it was read from).
    public func geoJSONDictionary() -> [String: Any] {
        guard identifier == nil, attributes.isEmpty else {
            return defaultGeoJSONDictionary()
        }
        return ["type": "FeatureCollection", "features": features.map { $0.geoJSONDictionary() }]
    }
}

/// A feature with no geometry (Mapbox's `MGLEmptyFeature`): a GeoJSON feature whose geometry is null.
open class MGLEmptyFeature: MGLShape, MGLFeature {
    /// The identifier; nil when it has none.
    open var identifier: Any?
    /// The attributes.
    open var attributes: [String: Any] = [:]
}
