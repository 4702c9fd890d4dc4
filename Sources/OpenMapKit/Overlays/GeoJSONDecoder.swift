// MKGeoJSONDecoder, MKGeoJSONFeature and (an OpenMapKit addition) MKGeoJSONEncoder.
// The reading and writing themselves live in MapFormats (GeoJSON.swift); this file maps between
// its value model and MapKit's shape classes.

import Foundation
import MapFormats

/// A GeoJSON `Feature`: shapes plus an identifier and opaque properties (MapKit's `MKGeoJSONFeature`).
open class MKGeoJSONFeature: NSObject, MKGeoJSONObject {
    /// The feature's `id`, as a string even when the JSON id was a number (`42` → `"42"`).
    public let identifier: String?
    /// The feature's `properties` member: the JSON object's bytes exactly as they were in the
    /// input, not interpreted. nil when `properties` was null or missing. Decode it yourself, e.g.
    /// with `JSONSerialization` or `JSONDecoder`.
    public let properties: Data?
    /// The feature's shapes: one for a simple geometry, the flattened members of a
    /// `GeometryCollection`, none for a null geometry.
    public let geometry: [any MKShape & MKGeoJSONObject]
    /// Whether the JSON id was a number, so the encoder writes it back as one.
    let identifierIsNumeric: Bool

    /// A feature (an OpenMapKit addition: MapKit makes features only by decoding). `properties`
    /// must hold a JSON object for ``MKGeoJSONEncoder`` to write it.
    public init(identifier: String? = nil, properties: Data? = nil, geometry: [any MKShape & MKGeoJSONObject]) {
        self.identifier = identifier
        self.properties = properties
        self.geometry = geometry
        identifierIsNumeric = false
        super.init()
    }

    init(identifier: String?, identifierIsNumeric: Bool, properties: Data?, geometry: [any MKShape & MKGeoJSONObject]) {
        self.identifier = identifier
        self.properties = properties
        self.geometry = geometry
        self.identifierIsNumeric = identifierIsNumeric
        super.init()
    }
}

/// Decodes GeoJSON (RFC 7946) into MapKit shapes (MapKit's `MKGeoJSONDecoder`).
///
/// | GeoJSON | result |
/// |---|---|
/// | Point | ``MKPointAnnotation`` |
/// | MultiPoint | ``MKMultiPoint`` |
/// | LineString | ``MKPolyline`` |
/// | MultiLineString | ``MKMultiPolyline`` |
/// | Polygon | ``MKPolygon``, holes in ``MKPolygon/interiorPolygons`` |
/// | MultiPolygon | ``MKMultiPolygon`` |
/// | GeometryCollection | its geometries, flattened |
/// | Feature | ``MKGeoJSONFeature`` |
/// | FeatureCollection | its features |
///
/// Altitudes are dropped. Input is treated as hostile; any malformed input throws
/// ``MKError`` with code ``MKError/Code/decodingFailed`` whose ``MKError/reason`` names the JSON
/// path and the problem. See `GeoJSON.parse(_:)` in MapFormats for every rule.
open class MKGeoJSONDecoder: NSObject {
    public override init() {
        super.init()
    }

    /// Decodes a GeoJSON document.
    /// - Returns: the shapes of a geometry, one feature, or a collection's features.
    /// - Throws: ``MKError`` `.decodingFailed`.
    open func decode(_ data: Data) throws -> [any MKGeoJSONObject] {
        let document: GeoJSON
        do {
            document = try GeoJSON.parse(data)
        } catch {
            throw MKError(.decodingFailed, reason: error.message)
        }
        switch document {
        case .geometry(let geometry):
            return MKGeoJSONDecoder.shapes(geometry)
        case .feature(let feature):
            return [MKGeoJSONDecoder.feature(feature)]
        case .featureCollection(let features):
            return features.map(MKGeoJSONDecoder.feature)
        }
    }

    static func feature(_ feature: GeoJSONFeature) -> MKGeoJSONFeature {
        MKGeoJSONFeature(identifier: feature.id, identifierIsNumeric: feature.idIsNumeric,
                         properties: feature.properties, geometry: feature.geometry.map(shapes) ?? [])
    }

    static func shapes(_ geometry: GeoJSONGeometry) -> [any MKShape & MKGeoJSONObject] {
        switch geometry {
        case .point(let position):
            return [MKPointAnnotation(coordinate: coordinate(position))]
        case .multiPoint(let positions):
            return [MKMultiPoint(coordinates: positions.map(coordinate))]
        case .lineString(let positions):
            return [MKPolyline(coordinates: positions.map(coordinate))]
        case .multiLineString(let lines):
            return [MKMultiPolyline(lines.map { MKPolyline(coordinates: $0.map(coordinate)) })]
        case .polygon(let rings):
            return [polygon(rings)]
        case .multiPolygon(let polygons):
            return [MKMultiPolygon(polygons.map(polygon))]
        case .geometryCollection(let members):
            return members.flatMap(shapes)
        }
    }

    private static func polygon(_ rings: [[GeoJSONPosition]]) -> MKPolygon {
        let holes = rings.dropFirst().map { MKPolygon(coordinates: $0.map(coordinate)) }
        return MKPolygon(coordinates: (rings.first ?? []).map(coordinate), interiorPolygons: holes.isEmpty ? nil : holes)
    }

    private static func coordinate(_ position: GeoJSONPosition) -> CLLocationCoordinate2D {
        CLLocationCoordinate2D(latitude: position.latitude, longitude: position.longitude)
    }
}

/// Encodes MapKit shapes and features as GeoJSON (RFC 7946). An OpenMapKit addition: MapKit only
/// decodes.
///
/// | object | GeoJSON |
/// |---|---|
/// | ``MKPointAnnotation`` | Point |
/// | ``MKPolygon`` | Polygon: the ring written closed, then one ring per interior polygon |
/// | ``MKPolyline``, ``MKGeodesicPolyline`` | LineString (a geodesic polyline's densified points) |
/// | ``MKMultiPoint`` | MultiPoint |
/// | ``MKMultiPolyline`` | MultiLineString |
/// | ``MKMultiPolygon`` | MultiPolygon |
/// | ``MKGeoJSONFeature`` | Feature: no shape → null geometry, one → that geometry, several → a GeometryCollection |
///
/// Longitudes are wrapped into −180…180 as RFC 7946 requires (a shape that crosses the 180th
/// meridian is not split). Titles and subtitles are not written; altitudes are not kept by the
/// shapes. An interior polygon's own interior polygons are not written.
open class MKGeoJSONEncoder: NSObject {
    public override init() {
        super.init()
    }

    /// Encodes objects as one document: a FeatureCollection when any object is a feature (bare
    /// shapes become features without id or properties), else the one shape's geometry, else a
    /// GeometryCollection. Decoding the result gives back equal objects.
    /// - Throws: ``MKError`` `.unknown` for an object it cannot write (a class of your own, a
    ///   polyline with fewer than 2 points, a polygon with fewer than 3, a NaN coordinate,
    ///   properties that are not a JSON object); the reason says which.
    open func encode(_ objects: [any MKGeoJSONObject]) throws -> Data {
        let document: GeoJSON
        if objects.contains(where: { $0 is MKGeoJSONFeature }) {
            document = .featureCollection(try objects.enumerated().map { index, object in
                if let feature = object as? MKGeoJSONFeature { return try self.feature(feature, at: "[\(index)]") }
                return GeoJSONFeature(geometry: try geometry(object, at: "[\(index)]"))
            })
        } else if objects.count == 1 {
            document = .geometry(try geometry(objects[0], at: "[0]"))
        } else {
            document = .geometry(.geometryCollection(try objects.enumerated().map { index, object in
                try geometry(object, at: "[\(index)]")
            }))
        }
        do {
            return try document.serialized()
        } catch {
            throw MKError(.unknown, reason: "GeoJSON encoding failed: \(error.message)")
        }
    }

    /// Encodes one object: a Feature for a feature, else a geometry.
    open func encode(_ object: any MKGeoJSONObject) throws -> Data {
        let document: GeoJSON
        if let feature = object as? MKGeoJSONFeature {
            document = .feature(try self.feature(feature, at: "object"))
        } else {
            document = .geometry(try geometry(object, at: "object"))
        }
        do {
            return try document.serialized()
        } catch {
            throw MKError(.unknown, reason: "GeoJSON encoding failed: \(error.message)")
        }
    }

    private func feature(_ feature: MKGeoJSONFeature, at place: String) throws -> GeoJSONFeature {
        let shapes = try feature.geometry.enumerated().map { index, shape in
            try geometry(shape, at: "\(place).geometry[\(index)]")
        }
        let combined: GeoJSONGeometry? = switch shapes.count {
        case 0: nil
        case 1: shapes[0]
        default: .geometryCollection(shapes)
        }
        return GeoJSONFeature(id: feature.identifier, idIsNumeric: feature.identifierIsNumeric,
                              geometry: combined, properties: feature.properties)
    }

    private func geometry(_ object: any MKGeoJSONObject, at place: String) throws -> GeoJSONGeometry {
        func fail(_ problem: String) -> MKError {
            MKError(.unknown, reason: "GeoJSON encoding failed: \(place): \(problem)")
        }
        func position(_ c: CLLocationCoordinate2D) throws -> GeoJSONPosition {
            guard c.latitude.isFinite, c.longitude.isFinite else { throw fail("a coordinate is not a finite number") }
            return GeoJSONPosition(longitude: normalizedLongitude(c.longitude), latitude: c.latitude)
        }
        func line(_ polyline: MKPolyline) throws -> [GeoJSONPosition] {
            guard polyline.pointCount >= 2 else {
                throw fail("a polyline needs at least 2 points, it has \(polyline.pointCount)")
            }
            return try polyline.coordinates.map(position)
        }
        func rings(_ polygon: MKPolygon) throws -> [[GeoJSONPosition]] {
            var result: [[GeoJSONPosition]] = []
            for ring in [polygon] + (polygon.interiorPolygons ?? []) {
                let corners = ring.pointCount - (ring.repeatsFirstPoint ? 1 : 0)
                guard corners >= 3 else {
                    throw fail("a polygon ring needs at least 3 corners, it has \(corners)")
                }
                var positions = try ring.coordinates.map(position)
                // GeoJSON rings end on their first position; a ring already written closed keeps its one repeat.
                if !ring.repeatsFirstPoint { positions.append(positions[0]) }
                result.append(positions)
            }
            return result
        }
        switch object {
        case let point as MKPointAnnotation:
            return .point(try position(point.coordinate))
        case let polygon as MKPolygon:
            return .polygon(try rings(polygon))
        case let polyline as MKPolyline:
            return .lineString(try line(polyline))
        case let multiPoint as MKMultiPoint:
            return .multiPoint(try multiPoint.coordinates.map(position))
        case let multi as MKMultiPolyline:
            return .multiLineString(try multi.polylines.map(line))
        case let multi as MKMultiPolygon:
            return .multiPolygon(try multi.polygons.map(rings))
        case is MKGeoJSONFeature:
            throw fail("a feature cannot be a geometry")
        default:
            throw fail("\(type(of: object)) has no GeoJSON form")
        }
    }
}
