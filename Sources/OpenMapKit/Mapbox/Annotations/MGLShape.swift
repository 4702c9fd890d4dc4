// Mapbox's shape classes: MGLShape and its point, multipoint, polyline, polygon, multi-shape and
// collection subclasses, read from and written to GeoJSON.

import Foundation
import MapFormats
import MapGeometry

/// The abstract base of Mapbox's shapes (Mapbox's `MGLShape`): an annotation with a title and
/// subtitle, which can be read from and written as GeoJSON.
///
/// Differs from Mapbox: not `NSSecureCoding`; the GeoJSON initialiser is an initialiser of a
/// protocol every shape conforms to (``MGLShapeGeoJSONDecoding``), so `MGLShape(data:encoding:)`
/// returns the decoded subclass typed as ``MGLShape``, as Mapbox's factory does.
open class MGLShape: NSObject, MGLAnnotation, MGLShapeGeoJSONDecoding {
    /// The title shown in the callout.
    open var title: String?
    /// The subtitle shown in the callout.
    open var subtitle: String?
    /// The shape's centre point; `MGLShape` itself has none (`kCLLocationCoordinate2DInvalid`).
    open var coordinate: CLLocationCoordinate2D { kCLLocationCoordinate2DInvalid }

    public override init() { super.init() }

    /// The shape as GeoJSON in `encoding` (a `String.Encoding` raw value; UTF-8, UTF-16 and
    /// UTF-32 are written, others give UTF-8): a geometry, or a feature for the feature classes.
    open func geoJSONData(usingEncoding encoding: UInt) -> Data {
        let object: GeoJSON
        if let collection = self as? MGLShapeCollectionFeature, collection.identifier == nil, collection.attributes.isEmpty {
            object = .featureCollection(collection.features.map { MGLShapeGeoJSON.feature(of: $0) })
        } else if let feature = self as? any MGLFeature {
            object = .feature(MGLShapeGeoJSON.feature(of: feature))
        } else {
            object = .geometry(geoJSONGeometry)
        }
        let utf8 = (try? object.serialized()) ?? Data("{}".utf8)
        let stringEncoding = String.Encoding(rawValue: encoding)
        guard stringEncoding != .utf8, let text = String(data: utf8, encoding: .utf8), let data = text.data(using: stringEncoding) else { return utf8 }
        return data
    }

    /// The shape's geometry; subclasses give theirs (a plain shape is an empty collection).
    var geoJSONGeometry: GeoJSONGeometry { .geometryCollection([]) }

    /// The coordinates a camera must show to show the shape.
    var fittingCoordinates: [CLLocationCoordinate2D] { [] }
}

/// The GeoJSON initialiser of Mapbox's shapes (Mapbox's `+[MGLShape shapeWithData:encoding:error:]`):
/// `MGLShape(data:encoding:)` decodes a Point to an ``MGLPointAnnotation``, a LineString to an
/// ``MGLPolyline``, a Polygon to an ``MGLPolygon``, a MultiPoint to an ``MGLPointCollection``,
/// multi-lines and multi-polygons to ``MGLMultiPolyline`` and ``MGLMultiPolygon``, a
/// GeometryCollection to an ``MGLShapeCollection``, a Feature to the matching feature class
/// (``MGLPointFeature`` …) and a FeatureCollection to an ``MGLShapeCollectionFeature``.
///
/// Differs from Mapbox: a protocol (Swift initialisers cannot return a subclass), so calling it
/// on a subclass (`MGLPolyline(data:encoding:)`) throws when the data decodes to another class.
public protocol MGLShapeGeoJSONDecoding {}

extension MGLShapeGeoJSONDecoding {
    /// Decodes GeoJSON in `encoding` (a `String.Encoding` raw value); throws an `MKError` naming
    /// the problem for anything that is not valid GeoJSON.
    public init(data: Data, encoding: UInt) throws {
        var utf8 = data
        let stringEncoding = String.Encoding(rawValue: encoding)
        if stringEncoding != .utf8, stringEncoding != .ascii {
            guard let text = String(data: data, encoding: stringEncoding) else {
                throw MKError(.decodingFailed, reason: "the data is not text in the given encoding")
            }
            utf8 = Data(text.utf8)
        }
        let document: GeoJSON
        do { document = try GeoJSON.parse(utf8) } catch {
            throw MKError(.decodingFailed, reason: "GeoJSON: \(error.message)")
        }
        let shape = MGLShapeGeoJSON.shape(of: document)
        guard let typed = shape as? Self else {
            throw MKError(.decodingFailed, reason: "the GeoJSON decodes to \(type(of: shape)), not \(Self.self)")
        }
        self = typed
    }
}

// MARK: - Points

/// A shape at one point with a settable coordinate (Mapbox's `MGLPointAnnotation`): the usual
/// point annotation.
open class MGLPointAnnotation: MGLShape {
    private var storedCoordinate = CLLocationCoordinate2D()

    /// The point; settable (the map view follows the change on its next update).
    open override var coordinate: CLLocationCoordinate2D {
        get { storedCoordinate }
        set { storedCoordinate = newValue }
    }

    public override init() { super.init() }

    override var geoJSONGeometry: GeoJSONGeometry { .point(MGLShapeGeoJSON.position(coordinate)) }
    override var fittingCoordinates: [CLLocationCoordinate2D] { [coordinate] }
}

/// Several unconnected points as one shape (Mapbox's `MGLPointCollection`). A map view ignores it
/// as an annotation, as Mapbox's does.
open class MGLPointCollection: MGLShape, MGLOverlay {
    /// The points.
    public let coordinates: [CLLocationCoordinate2D]

    /// The first `count` coordinates of `coords`.
    public init(coordinates coords: UnsafePointer<CLLocationCoordinate2D>, count: UInt) {
        coordinates = Array(UnsafeBufferPointer(start: coords, count: Int(count)))
        super.init()
    }

    /// A collection of `coordinates` (an OpenMapKit addition: the array form).
    public init(coordinates: [CLLocationCoordinate2D]) {
        self.coordinates = coordinates
        super.init()
    }

    /// How many points there are.
    open var pointCount: UInt { UInt(coordinates.count) }

    /// Copies the points in `range` to `coords`; out-of-range parts copy nothing.
    open func getCoordinates(_ coords: UnsafeMutablePointer<CLLocationCoordinate2D>, range: NSRange) {
        MGLShapeGeoJSON.copy(coordinates, range: range, to: coords)
    }

    open override var coordinate: CLLocationCoordinate2D { MGLShapeGeoJSON.centre(of: coordinates) }
    open var overlayBounds: MGLCoordinateBounds { MGLShapeGeoJSON.bounds(of: coordinates) }

    override var geoJSONGeometry: GeoJSONGeometry { .multiPoint(coordinates.map(MGLShapeGeoJSON.position)) }
    override var fittingCoordinates: [CLLocationCoordinate2D] { coordinates }
}

// MARK: - Multipoints

/// A shape made of a sequence of points (Mapbox's `MGLMultiPoint`): the common part of
/// ``MGLPolyline`` and ``MGLPolygon``. The points can be changed after creation; a map view
/// showing the shape redraws it on its next frame.
///
/// Differs from Mapbox: ``coordinates`` is an array, not a pointer into the shape's storage.
open class MGLMultiPoint: MGLShape {
    private var storedCoordinates: [CLLocationCoordinate2D]
    /// Counts changes of the points (map views redraw when it moves).
    private(set) var revision = 0

    /// A shape through the first `count` coordinates of `coords`.
    public init(coordinates coords: UnsafePointer<CLLocationCoordinate2D>, count: UInt) {
        storedCoordinates = Array(UnsafeBufferPointer(start: coords, count: Int(count)))
        super.init()
    }

    /// A shape through `coordinates` (an OpenMapKit addition: the array form).
    public init(coordinates: [CLLocationCoordinate2D]) {
        storedCoordinates = coordinates
        super.init()
    }

    public override init() {
        storedCoordinates = []
        super.init()
    }

    /// The points, in order.
    open var coordinates: [CLLocationCoordinate2D] { storedCoordinates }

    /// How many points there are.
    open var pointCount: UInt { UInt(storedCoordinates.count) }

    /// Copies the points in `range` to `coords`; out-of-range parts copy nothing.
    open func getCoordinates(_ coords: UnsafeMutablePointer<CLLocationCoordinate2D>, range: NSRange) {
        MGLShapeGeoJSON.copy(storedCoordinates, range: range, to: coords)
    }

    /// Replaces every point with the first `count` of `coords`.
    open func setCoordinates(_ coords: UnsafePointer<CLLocationCoordinate2D>, count: UInt) {
        storedCoordinates = Array(UnsafeBufferPointer(start: coords, count: Int(count)))
        revision += 1
    }

    /// Inserts `count` points at `index` (past the end appends).
    open func insertCoordinates(_ coords: UnsafePointer<CLLocationCoordinate2D>, count: UInt, at index: UInt) {
        let at = min(Int(index), storedCoordinates.count)
        storedCoordinates.insert(contentsOf: UnsafeBufferPointer(start: coords, count: Int(count)), at: at)
        revision += 1
    }

    /// Appends `count` points.
    open func appendCoordinates(_ coords: UnsafePointer<CLLocationCoordinate2D>, count: UInt) {
        insertCoordinates(coords, count: count, at: UInt(storedCoordinates.count))
    }

    /// Replaces the points in `range` with as many from `coords`.
    open func replaceCoordinates(in range: NSRange, withCoordinates coords: UnsafePointer<CLLocationCoordinate2D>) {
        replaceCoordinates(in: range, withCoordinates: coords, count: UInt(max(range.length, 0)))
    }

    /// Replaces the points in `range` with `count` points from `coords`; a range past the end
    /// is cut to the points there are.
    open func replaceCoordinates(in range: NSRange, withCoordinates coords: UnsafePointer<CLLocationCoordinate2D>, count: UInt) {
        let lower = min(max(range.location, 0), storedCoordinates.count)
        let upper = min(max(lower + max(range.length, 0), lower), storedCoordinates.count)
        storedCoordinates.replaceSubrange(lower..<upper, with: UnsafeBufferPointer(start: coords, count: Int(count)))
        revision += 1
    }

    /// Removes the points in `range` (cut to the points there are).
    open func removeCoordinates(in range: NSRange) {
        let lower = min(max(range.location, 0), storedCoordinates.count)
        let upper = min(max(lower + max(range.length, 0), lower), storedCoordinates.count)
        storedCoordinates.removeSubrange(lower..<upper)
        revision += 1
    }

    /// The centre of the points' bounds.
    open override var coordinate: CLLocationCoordinate2D { MGLShapeGeoJSON.centre(of: storedCoordinates) }

    /// The smallest bounds holding the points.
    open var overlayBounds: MGLCoordinateBounds { MGLShapeGeoJSON.bounds(of: storedCoordinates) }

    override var geoJSONGeometry: GeoJSONGeometry { .multiPoint(storedCoordinates.map(MGLShapeGeoJSON.position)) }
    override var fittingCoordinates: [CLLocationCoordinate2D] { storedCoordinates }
}

/// An open line through points (Mapbox's `MGLPolyline`). Added to a map view as an annotation it
/// is drawn as a line, its colour, width and opacity asked of the delegate.
open class MGLPolyline: MGLMultiPoint, MGLOverlay {
    /// The point halfway along the line (Mapbox's polyline coordinate), or the bounds' centre
    /// when it has no length.
    open override var coordinate: CLLocationCoordinate2D {
        let points = coordinates
        guard points.count > 1 else { return points.first ?? kCLLocationCoordinate2DInvalid }
        var lengths: [Double] = [], total = 0.0
        for i in 1..<points.count {
            let a = MKMapPoint(points[i - 1]), b = MKMapPoint(points[i])
            let d = hypot(b.x - a.x, b.y - a.y)
            lengths.append(d)
            total += d
        }
        guard total > 0 else { return super.coordinate }
        var remaining = total / 2
        for (i, d) in lengths.enumerated() {
            if remaining <= d, d > 0 {
                let a = MKMapPoint(points[i]), b = MKMapPoint(points[i + 1]), t = remaining / d
                return MKMapPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t).coordinate
            }
            remaining -= d
        }
        return points[points.count - 1]
    }

    override var geoJSONGeometry: GeoJSONGeometry { .lineString(coordinates.map(MGLShapeGeoJSON.position)) }
}

/// A closed shape with optional holes (Mapbox's `MGLPolygon`). Added to a map view as an
/// annotation it is filled and outlined, its colours and opacity asked of the delegate.
open class MGLPolygon: MGLMultiPoint, MGLOverlay {
    /// The holes; nil when there are none.
    public let interiorPolygons: [MGLPolygon]?

    /// A polygon through the first `count` coordinates of `coords`.
    public override init(coordinates coords: UnsafePointer<CLLocationCoordinate2D>, count: UInt) {
        interiorPolygons = nil
        super.init(coordinates: coords, count: count)
    }

    /// A polygon through the first `count` coordinates of `coords` with holes.
    public init(coordinates coords: UnsafePointer<CLLocationCoordinate2D>, count: UInt, interiorPolygons: [MGLPolygon]?) {
        self.interiorPolygons = interiorPolygons
        super.init(coordinates: coords, count: count)
    }

    /// A polygon through `coordinates` (an OpenMapKit addition: the array form).
    public init(coordinates: [CLLocationCoordinate2D], interiorPolygons: [MGLPolygon]? = nil) {
        self.interiorPolygons = interiorPolygons
        super.init(coordinates: coordinates)
    }

    public override convenience init(coordinates: [CLLocationCoordinate2D]) {
        self.init(coordinates: coordinates, interiorPolygons: nil)
    }

    public override init() {
        interiorPolygons = nil
        super.init()
    }

    override var geoJSONGeometry: GeoJSONGeometry { .polygon(MGLShapeGeoJSON.rings(of: self)) }
}

// MARK: - Multi-shapes and collections

/// Several polylines as one shape (Mapbox's `MGLMultiPolyline`). A map view ignores it as an
/// annotation, as Mapbox's does.
open class MGLMultiPolyline: MGLShape, MGLOverlay {
    /// The polylines.
    public let polylines: [MGLPolyline]

    public init(polylines: [MGLPolyline]) {
        self.polylines = polylines
        super.init()
    }

    open override var coordinate: CLLocationCoordinate2D { MGLShapeGeoJSON.centre(of: fittingCoordinates) }
    open var overlayBounds: MGLCoordinateBounds { MGLShapeGeoJSON.bounds(of: fittingCoordinates) }

    override var geoJSONGeometry: GeoJSONGeometry { .multiLineString(polylines.map { $0.coordinates.map(MGLShapeGeoJSON.position) }) }
    override var fittingCoordinates: [CLLocationCoordinate2D] { polylines.flatMap(\.coordinates) }
}

/// Several polygons as one shape (Mapbox's `MGLMultiPolygon`). A map view ignores it as an
/// annotation, as Mapbox's does.
open class MGLMultiPolygon: MGLShape, MGLOverlay {
    /// The polygons.
    public let polygons: [MGLPolygon]

    public init(polygons: [MGLPolygon]) {
        self.polygons = polygons
        super.init()
    }

    open override var coordinate: CLLocationCoordinate2D { MGLShapeGeoJSON.centre(of: fittingCoordinates) }
    open var overlayBounds: MGLCoordinateBounds { MGLShapeGeoJSON.bounds(of: fittingCoordinates) }

    override var geoJSONGeometry: GeoJSONGeometry { .multiPolygon(polygons.map(MGLShapeGeoJSON.rings)) }
    override var fittingCoordinates: [CLLocationCoordinate2D] { polygons.flatMap(\.coordinates) }
}

/// Shapes of any kinds as one (Mapbox's `MGLShapeCollection`). A map view ignores it as an
/// annotation, as Mapbox's does.
open class MGLShapeCollection: MGLShape {
    /// The shapes.
    public let shapes: [MGLShape]

    public init(shapes: [MGLShape]) {
        self.shapes = shapes
        super.init()
    }

    open override var coordinate: CLLocationCoordinate2D { shapes.first?.coordinate ?? kCLLocationCoordinate2DInvalid }

    override var geoJSONGeometry: GeoJSONGeometry { .geometryCollection(shapes.map(\.geoJSONGeometry)) }
    override var fittingCoordinates: [CLLocationCoordinate2D] { shapes.flatMap(\.fittingCoordinates) }
}

// MARK: - Helpers

/// Conversions between Mapbox's shapes and MapFormats' GeoJSON model.
enum MGLShapeGeoJSON {
    static func position(_ c: CLLocationCoordinate2D) -> GeoJSONPosition { GeoJSONPosition(longitude: c.longitude, latitude: c.latitude) }
    static func coordinate(_ p: GeoJSONPosition) -> CLLocationCoordinate2D { CLLocationCoordinate2D(latitude: p.latitude, longitude: p.longitude) }

    static func rings(of polygon: MGLPolygon) -> [[GeoJSONPosition]] {
        [polygon.coordinates.map(position)] + (polygon.interiorPolygons ?? []).map { $0.coordinates.map(position) }
    }

    static func copy(_ coordinates: [CLLocationCoordinate2D], range: NSRange, to target: UnsafeMutablePointer<CLLocationCoordinate2D>) {
        guard range.location >= 0, range.length > 0, range.location < coordinates.count else { return }
        let upper = min(range.location + range.length, coordinates.count)
        for (offset, index) in (range.location..<upper).enumerated() { target[offset] = coordinates[index] }
    }

    static func bounds(of coordinates: [CLLocationCoordinate2D]) -> MGLCoordinateBounds {
        guard let first = coordinates.first else { return MGLCoordinateBounds() }
        var sw = first, ne = first
        for c in coordinates.dropFirst() {
            sw = CLLocationCoordinate2D(latitude: min(sw.latitude, c.latitude), longitude: min(sw.longitude, c.longitude))
            ne = CLLocationCoordinate2D(latitude: max(ne.latitude, c.latitude), longitude: max(ne.longitude, c.longitude))
        }
        return MGLCoordinateBounds(sw: sw, ne: ne)
    }

    static func centre(of coordinates: [CLLocationCoordinate2D]) -> CLLocationCoordinate2D {
        guard !coordinates.isEmpty else { return kCLLocationCoordinate2DInvalid }
        let b = bounds(of: coordinates)
        return CLLocationCoordinate2D(latitude: (b.sw.latitude + b.ne.latitude) / 2, longitude: (b.sw.longitude + b.ne.longitude) / 2)
    }

    /// The shape a GeoJSON document stands for.
    static func shape(of document: GeoJSON) -> MGLShape {
        switch document {
        case .geometry(let geometry): return shape(of: geometry)
        case .feature(let feature): return self.feature(of: feature)
        case .featureCollection(let features): return MGLShapeCollectionFeature(shapes: features.map(self.feature(of:)))
        }
    }

    static func shape(of geometry: GeoJSONGeometry) -> MGLShape {
        switch geometry {
        case .point(let p):
            let point = MGLPointAnnotation()
            point.coordinate = coordinate(p)
            return point
        case .multiPoint(let ps): return MGLPointCollection(coordinates: ps.map(coordinate))
        case .lineString(let ps): return MGLPolyline(coordinates: ps.map(coordinate))
        case .multiLineString(let lines): return MGLMultiPolyline(polylines: lines.map { MGLPolyline(coordinates: $0.map(coordinate)) })
        case .polygon(let rings): return polygon(rings)
        case .multiPolygon(let polygons): return MGLMultiPolygon(polygons: polygons.map(polygon))
        case .geometryCollection(let geometries): return MGLShapeCollection(shapes: geometries.map(shape(of:)))
        }
    }

    static func polygon(_ rings: [[GeoJSONPosition]]) -> MGLPolygon {
        let holes = rings.dropFirst().map { MGLPolygon(coordinates: $0.map(coordinate)) }
        return MGLPolygon(coordinates: (rings.first ?? []).map(coordinate), interiorPolygons: holes.isEmpty ? nil : Array(holes))
    }

    /// The feature class for a GeoJSON feature, with its identifier and attributes.
    static func feature(of feature: GeoJSONFeature) -> MGLShape & MGLFeature {
        let made: MGLShape & MGLFeature
        switch feature.geometry {
        case .point(let p)?:
            let point = MGLPointFeature()
            point.coordinate = coordinate(p)
            made = point
        case .multiPoint(let ps)?: made = MGLPointCollectionFeature(coordinates: ps.map(coordinate))
        case .lineString(let ps)?: made = MGLPolylineFeature(coordinates: ps.map(coordinate))
        case .multiLineString(let lines)?:
            made = MGLMultiPolylineFeature(polylines: lines.map { MGLPolyline(coordinates: $0.map(coordinate)) })
        case .polygon(let rings)?:
            let outline = polygon(rings)
            made = MGLPolygonFeature(coordinates: outline.coordinates, interiorPolygons: outline.interiorPolygons)
        case .multiPolygon(let polygons)?: made = MGLMultiPolygonFeature(polygons: polygons.map(polygon))
        case .geometryCollection(let geometries)?:
            made = MGLShapeCollectionFeature(shapes: geometries.map { self.feature(of: GeoJSONFeature(geometry: $0)) })
        case nil: made = MGLEmptyFeature()
        }
        if let id = feature.id {
            made.identifier = feature.idIsNumeric ? (Double(id).map { $0 == $0.rounded() && abs($0) < 1e15 ? NSNumber(value: Int64($0)) : NSNumber(value: $0) } ?? id) : id
        }
        if let data = feature.properties, let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
            made.attributes = object
        }
        return made
    }

    /// A GeoJSON feature for a feature object.
    static func feature(of feature: any MGLFeature) -> GeoJSONFeature {
        let geometry: GeoJSONGeometry? = feature is MGLEmptyFeature ? nil : (feature as? MGLShape)?.geoJSONGeometry
        var id: String?, numeric = false
        switch feature.identifier {
        case let number as NSNumber: (id, numeric) = (number.stringValue, true)
        case let int as Int: (id, numeric) = (String(int), true)
        case let double as Double: (id, numeric) = (String(double), true)
        case let string as String: id = string
        default: break
        }
        let attributes = feature.attributes
        let properties = attributes.isEmpty || !JSONSerialization.isValidJSONObject(attributes)
            ? nil : try? JSONSerialization.data(withJSONObject: attributes, options: [.sortedKeys])
        return GeoJSONFeature(id: id, idIsNumeric: numeric, geometry: geometry, properties: properties)
    }
}
