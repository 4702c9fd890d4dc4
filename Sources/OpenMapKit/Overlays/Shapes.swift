// MapKit's annotation and overlay model: MKAnnotation, MKOverlay and the MKShape classes.
//
// Shapes keep both their map points (MapKit's storage) and, when built from coordinates, the
// coordinates themselves, so `getCoordinates(_:range:)` returns exactly what was given (MapKit
// projects and unprojects, which clamps latitudes beyond ±85.05° and adds rounding noise).
// Shapes are immutable after init except for `title`/`subtitle` (and `MKPointAnnotation`'s
// coordinate); like MapKit's they are not `Sendable`.

import Foundation

// MARK: - Protocols

/// An object that carries the data of a point on the map (MapKit's `MKAnnotation`).
///
/// Only ``coordinate`` is required; ``title`` and ``subtitle`` default to nil.
///
/// Differs from MapKit: a Swift protocol, so ``title`` and ``subtitle`` have default
/// implementations rather than being optional requirements, and an annotation the map may
/// move conforms to ``MKMovableAnnotation`` (MapKit asks for `setCoordinate(_:)`).
public protocol MKAnnotation: AnyObject {
    /// The annotation's centre point.
    var coordinate: CLLocationCoordinate2D { get }
    /// The title shown in the callout.
    var title: String? { get }
    /// The subtitle shown in the callout.
    var subtitle: String? { get }
}

extension MKAnnotation {
    public var title: String? { nil }
    public var subtitle: String? { nil }
}

/// An annotation that covers an area of the map (MapKit's `MKOverlay`).
///
/// An overlay is visible when its ``boundingMapRect`` intersects the visible map rectangle. If an
/// overlay is added as an annotation instead, it is treated as one: only its ``MKAnnotation/coordinate``
/// counts.
public protocol MKOverlay: MKAnnotation {
    /// The projected rectangle that encloses the overlay. It may reach past the world's right
    /// edge (x > 2^28) when the overlay crosses the 180th meridian.
    var boundingMapRect: MKMapRect { get }
    /// Whether `mapRect` intersects the overlay. The default compares with ``MKOverlay/boundingMapRect``,
    /// both cut at the 180th meridian, so an overlay that crosses it is found from either side.
    func intersects(_ mapRect: MKMapRect) -> Bool
    /// Whether the overlay replaces the map underneath it (a rendering optimisation). Default false.
    var canReplaceMapContent: Bool { get }
}

extension MKOverlay {
    public func intersects(_ mapRect: MKMapRect) -> Bool {
        intersectAcross180thMeridian(boundingMapRect, mapRect)
    }

    public var canReplaceMapContent: Bool { false }
}

/// The kinds of object ``MKGeoJSONDecoder`` returns (MapKit's `MKGeoJSONObject`). Only OpenMapKit's
/// classes conform: ``MKGeoJSONFeature``, ``MKPointAnnotation``, ``MKMultiPoint``, ``MKPolyline``,
/// ``MKGeodesicPolyline``, ``MKPolygon``, ``MKMultiPolyline``, ``MKMultiPolygon``.
public protocol MKGeoJSONObject: AnyObject {}

/// Whether the rectangles share area, each first cut into its pieces within the world, so
/// rectangles past the world's sides (across the 180th meridian) meet their wrapped twins.
func intersectAcross180thMeridian(_ a: MKMapRect, _ b: MKMapRect) -> Bool {
    let theirs = b.worldPieces
    for x in a.worldPieces {
        for y in theirs where x.intersects(y) { return true }
    }
    return false
}

/// The coordinate of a rectangle's centre, longitude wrapped into −180…180; invalid for `null`.
private func centreCoordinate(of rect: MKMapRect) -> CLLocationCoordinate2D {
    if rect.isNull { return kCLLocationCoordinate2DInvalid }
    return MKMapPoint(x: rect.midX, y: rect.midY).coordinate.normalized
}

// MARK: - MKShape

/// The abstract base of the shape classes: a title and subtitle and a coordinate (MapKit's `MKShape`).
open class MKShape: NSObject, MKAnnotation {
    open var title: String?
    open var subtitle: String?

    /// The shape's centre point. Subclasses override it; `MKShape` itself has none
    /// (`kCLLocationCoordinate2DInvalid`).
    open var coordinate: CLLocationCoordinate2D { kCLLocationCoordinate2DInvalid }

    public override init() {
        super.init()
    }
}

// MARK: - MKPointAnnotation

/// An annotation at one point with a title and subtitle (MapKit's `MKPointAnnotation`); GeoJSON
/// `Point`s decode to it.
open class MKPointAnnotation: MKShape, MKGeoJSONObject {
    private var storedCoordinate: CLLocationCoordinate2D

    /// The point; settable.
    open override var coordinate: CLLocationCoordinate2D {
        get { storedCoordinate }
        set { storedCoordinate = newValue }
    }

    /// An annotation at (0, 0).
    public override init() {
        storedCoordinate = CLLocationCoordinate2D()
        super.init()
    }

    public init(coordinate: CLLocationCoordinate2D) {
        storedCoordinate = coordinate
        super.init()
    }

    public convenience init(coordinate: CLLocationCoordinate2D, title: String?, subtitle: String?) {
        self.init(coordinate: coordinate)
        self.title = title
        self.subtitle = subtitle
    }
}

// MARK: - MKMultiPoint

/// A shape made of a sequence of points (MapKit's `MKMultiPoint`): the common part of
/// ``MKPolyline`` and ``MKPolygon``, and what a GeoJSON `MultiPoint` decodes to.
///
/// Differs from MapKit: a shape built from coordinates keeps them, so ``coordinates`` and
/// ``getCoordinates(_:range:)`` give back exactly what was given (MapKit converts through map
/// points, which clamps latitudes beyond ±85.05° and adds rounding noise); ``points()``
/// returns an array, not a pointer.
open class MKMultiPoint: MKShape, MKGeoJSONObject {
    private let storedPoints: [MKMapPoint]
    private let storedCoordinates: [CLLocationCoordinate2D]
    private let bounds: MKMapRect
    /// Cumulative map-point lengths along the shape, made on first use.
    private var cumulativeLengths: [Double]?

    /// A shape with no points.
    public override init() {
        storedPoints = []
        storedCoordinates = []
        bounds = .null
        super.init()
    }

    /// A shape through map points (a Swift-friendly form of `init(points:count:)`).
    public init(points: [MKMapPoint]) {
        storedPoints = points
        storedCoordinates = points.map(\.coordinate)
        bounds = MKMapRect(boundingPoints: points)
        super.init()
    }

    /// A shape through coordinates (a Swift-friendly form of `init(coordinates:count:)`).
    /// Longitudes outside −180…180 project beyond the world's sides, which is how a shape that
    /// crosses the 180th meridian is written: 179 → 181 is a short step east.
    public init(coordinates: [CLLocationCoordinate2D]) {
        let points = coordinates.map(MKMapPoint.init)
        storedPoints = points
        storedCoordinates = coordinates
        bounds = MKMapRect(boundingPoints: points)
        super.init()
    }

    /// A shape through `count` map points read from `points`.
    public convenience init(points: UnsafePointer<MKMapPoint>, count: Int) {
        self.init(points: Array(UnsafeBufferPointer(start: points, count: max(count, 0))))
    }

    /// A shape through `count` coordinates read from `coordinates`.
    public convenience init(coordinates: UnsafePointer<CLLocationCoordinate2D>, count: Int) {
        self.init(coordinates: Array(UnsafeBufferPointer(start: coordinates, count: max(count, 0))))
    }

    /// The shape's map points, in order. (MapKit returns a pointer; an array is the safe Swift form.)
    public func points() -> [MKMapPoint] { storedPoints }

    /// The number of points.
    public var pointCount: Int { storedPoints.count }

    /// The shape's coordinates, in order: exactly those given when the shape was built from
    /// coordinates, else the map points unprojected (an OpenMapKit convenience).
    public var coordinates: [CLLocationCoordinate2D] { storedCoordinates }

    /// Copies the coordinates in `range` into `coords`, which must have room for `range.length`.
    public func getCoordinates(_ coords: UnsafeMutablePointer<CLLocationCoordinate2D>, range: NSRange) {
        precondition(range.location >= 0 && range.length >= 0 && range.location + range.length <= pointCount,
                     "range \(range) is outside the shape's \(pointCount) points")
        for k in 0..<range.length {
            coords[k] = storedCoordinates[range.location + k]
        }
    }

    /// The smallest map rectangle holding every point; `null` for a shape without points.
    /// A shape whose coordinates cross the 180th meridian (longitudes past 180) gives a rectangle
    /// past the world's right edge, whose `MKMapRect.spans180thMeridian` is true.
    open var boundingMapRect: MKMapRect { bounds }

    /// The centre of ``boundingMapRect`` (as MapKit reports it for lines and polygons), longitude
    /// wrapped into −180…180; `kCLLocationCoordinate2DInvalid` when there are no points.
    open override var coordinate: CLLocationCoordinate2D { centreCoordinate(of: bounds) }

    /// Whether the shape's outline returns from the last point to the first (polygons).
    var isClosed: Bool { false }

    /// The unit distance along the shape of the point at `index`: 0 at the first point, 1 at the
    /// end of the shape (MapKit's `location(atPointIndex:)`, which positions the colour stops of
    /// `MKGradientPolylineRenderer`). Lengths are measured in map points, the plane the renderer
    /// draws in. A polygon's outline includes its closing side, so its last point is below 1
    /// (at 1 when the ring repeats its first point at the end: the closing side ends there).
    /// A shape of zero length gives 0 for every point. For metres along the shape, see
    /// ``distance(atPointIndex:)``.
    public func location(atPointIndex index: Int) -> CGFloat {
        precondition(index >= 0 && index < pointCount, "point index \(index) is outside 0..<\(pointCount)")
        let lengths = cumulative()
        let total = lengths[lengths.count - 1]
        return total > 0 ? CGFloat(lengths[index] / total) : 0
    }

    /// ``location(atPointIndex:)`` for each index, in ascending index order (MapKit's `locations(at:)`).
    public func locations(at indexes: IndexSet) -> [CGFloat] {
        indexes.map { location(atPointIndex: $0) }
    }

    /// ``location(atPointIndex:)`` for each index (MapKit's Objective-C `locationsAtPointIndexes:`).
    public func locations(atPointIndexes indexes: IndexSet) -> [CGFloat] {
        locations(at: indexes)
    }

    /// Metres along the shape from its first point to the point at `index`, each segment measured
    /// along the WGS84 geodesic between its ends (an OpenMapKit addition).
    public func distance(atPointIndex index: Int) -> CLLocationDistance {
        precondition(index >= 0 && index < pointCount, "point index \(index) is outside 0..<\(pointCount)")
        var total = 0.0
        var k = 1
        while k <= index {
            let a = storedCoordinates[k - 1].normalized, b = storedCoordinates[k].normalized
            total += Geodesic.wgs84.inverse(latitude1: a.latitude, longitude1: a.longitude,
                                            latitude2: b.latitude, longitude2: b.longitude).distance
            k += 1
        }
        return total
    }

    /// Map-point length from the first point to each point; one extra entry (the whole outline's
    /// length) follows the last point: equal to the last point's for open shapes.
    private func cumulative() -> [Double] {
        if let cumulativeLengths { return cumulativeLengths }
        var lengths: [Double] = []
        lengths.reserveCapacity(storedPoints.count + 1)
        var total = 0.0
        for (k, p) in storedPoints.enumerated() {
            if k > 0 { total += hypot(p.x - storedPoints[k - 1].x, p.y - storedPoints[k - 1].y) }
            lengths.append(total)
        }
        if isClosed, let first = storedPoints.first, let last = storedPoints.last {
            total += hypot(first.x - last.x, first.y - last.y)
        }
        lengths.append(total)
        cumulativeLengths = lengths
        return lengths
    }
}

// MARK: - Polylines

/// An open polyline: points joined in order, the last not joined to the first (MapKit's `MKPolyline`).
/// Segments are straight on the map (rhumb lines); see ``MKGeodesicPolyline`` for shortest paths.
open class MKPolyline: MKMultiPoint, MKOverlay {}

/// A polyline whose segments follow geodesics, the shortest paths on the WGS84 ellipsoid
/// (MapKit's `MKGeodesicPolyline`).
///
/// As in MapKit, the given points are replaced by the densified path: ``MKMultiPoint/points()`` and
/// ``MKMultiPoint/pointCount`` describe the curve that is drawn. Each segment is cut into pieces no longer
/// than ``maximumSpacing`` (50 km), so the straight map segments between neighbours depart from
/// the true geodesic by at most ~50 m in mid-latitudes (s²/8R for s = 50 km), a few hundred metres
/// near the poles, never a visible amount at the zoom levels where a whole segment shows.
///
/// Longitudes are unwrapped along the path, each within 180° of the previous point, so a path
/// across the 180th meridian stays continuous: from (0, 170) to (0, −170) runs east through
/// longitude 180 to 190, its map points go past the world's right edge, and its
/// ``MKMultiPoint/boundingMapRect`` spans the 180th meridian.
open class MKGeodesicPolyline: MKPolyline {
    /// The longest piece, in metres, a segment is cut into.
    public static let maximumSpacing: CLLocationDistance = 50_000

    public override init() {
        super.init()
    }

    /// A geodesic polyline through the coordinates of `points`.
    public override init(points: [MKMapPoint]) {
        super.init(coordinates: MKGeodesicPolyline.densify(points.map(\.coordinate)))
    }

    /// A geodesic polyline through `coordinates`.
    public override init(coordinates: [CLLocationCoordinate2D]) {
        super.init(coordinates: MKGeodesicPolyline.densify(coordinates))
    }

    static func densify(_ coordinates: [CLLocationCoordinate2D]) -> [CLLocationCoordinate2D] {
        guard let first = coordinates.first else { return [] }
        var result = [first.normalized]
        for k in coordinates.indices.dropFirst() {
            let a = coordinates[k - 1].normalized, b = coordinates[k].normalized
            let previous = result[result.count - 1]
            guard CLLocationCoordinate2DIsValid(a), CLLocationCoordinate2DIsValid(b) else {
                result.append(b)   // nothing sensible to interpolate (NaN, latitude beyond ±90)
                continue
            }
            let piece = Geodesic.wgs84.interpolate(from: a, to: b, maximumSpacing: maximumSpacing)
            guard let start = piece.first else {
                result.append(b)
                continue
            }
            // Continue from where the previous segment ended, whole turns of the globe apart.
            let shift = 360 * ((previous.longitude - start.longitude) / 360).rounded()
            for c in piece.dropFirst() {
                result.append(CLLocationCoordinate2D(latitude: c.latitude, longitude: c.longitude + shift))
            }
        }
        return result
    }
}

/// Several polylines as one overlay (MapKit's `MKMultiPolyline`); a GeoJSON `MultiLineString`.
open class MKMultiPolyline: MKShape, MKOverlay, MKGeoJSONObject {
    /// The polylines, in order.
    public let polylines: [MKPolyline]
    private let bounds: MKMapRect

    public init(_ polylines: [MKPolyline]) {
        self.polylines = polylines
        bounds = polylines.reduce(MKMapRect.null) { $0.union($1.boundingMapRect) }
        super.init()
    }

    /// The union of the polylines' rectangles.
    open var boundingMapRect: MKMapRect { bounds }
    /// The centre of ``boundingMapRect``.
    open override var coordinate: CLLocationCoordinate2D { centreCoordinate(of: bounds) }
}

// MARK: - Polygons

/// A closed polygon (MapKit's `MKPolygon`): points joined in order and the last joined back to
/// the first.
///
/// - The ring is closed implicitly: the last point is joined back to the first. The points are
///   kept as given, as MapKit keeps them: a ring that repeats its first point at the end (as
///   GeoJSON rings do) keeps the repeat, and ``MKMultiPoint/pointCount`` counts it. Drawing, the
///   outline's length and GeoJSON encoding treat such a repeat as the closing point, not as an
///   extra side.
/// - ``interiorPolygons`` cut holes. Filling follows the even-odd rule: a point is inside when a
///   ray from it crosses the outline and the holes' outlines an odd number of times, so
///   overlapping holes fill in again and a self-intersecting outline leaves its doubly covered
///   parts empty.
/// - ``MKMultiPoint/boundingMapRect`` is the exterior ring's.
open class MKPolygon: MKMultiPoint, MKOverlay {
    /// The holes; nil when the polygon has none.
    public let interiorPolygons: [MKPolygon]?

    public init(points: [MKMapPoint], interiorPolygons: [MKPolygon]?) {
        self.interiorPolygons = interiorPolygons
        super.init(points: points)
    }

    public init(coordinates: [CLLocationCoordinate2D], interiorPolygons: [MKPolygon]?) {
        self.interiorPolygons = interiorPolygons
        super.init(coordinates: coordinates)
    }

    public override convenience init() {
        self.init(points: [], interiorPolygons: nil)
    }

    public override convenience init(points: [MKMapPoint]) {
        self.init(points: points, interiorPolygons: nil)
    }

    public override convenience init(coordinates: [CLLocationCoordinate2D]) {
        self.init(coordinates: coordinates, interiorPolygons: nil)
    }

    public convenience init(points: UnsafePointer<MKMapPoint>, count: Int, interiorPolygons: [MKPolygon]?) {
        self.init(points: Array(UnsafeBufferPointer(start: points, count: max(count, 0))), interiorPolygons: interiorPolygons)
    }

    public convenience init(coordinates: UnsafePointer<CLLocationCoordinate2D>, count: Int,
                            interiorPolygons: [MKPolygon]?) {
        self.init(coordinates: Array(UnsafeBufferPointer(start: coordinates, count: max(count, 0))),
                  interiorPolygons: interiorPolygons)
    }

    override var isClosed: Bool { true }

    /// Whether the last point repeats the first (the ring is written closed, as GeoJSON writes it).
    var repeatsFirstPoint: Bool {
        let points = points()
        return points.count >= 2 && points.first == points.last
    }
}

/// Several polygons as one overlay (MapKit's `MKMultiPolygon`); a GeoJSON `MultiPolygon`.
open class MKMultiPolygon: MKShape, MKOverlay, MKGeoJSONObject {
    /// The polygons, in order.
    public let polygons: [MKPolygon]
    private let bounds: MKMapRect

    public init(_ polygons: [MKPolygon]) {
        self.polygons = polygons
        bounds = polygons.reduce(MKMapRect.null) { $0.union($1.boundingMapRect) }
        super.init()
    }

    /// The union of the polygons' rectangles.
    open var boundingMapRect: MKMapRect { bounds }
    /// The centre of ``boundingMapRect``.
    open override var coordinate: CLLocationCoordinate2D { centreCoordinate(of: bounds) }
}

// MARK: - MKCircle

/// A circle of a radius in metres around a centre (MapKit's `MKCircle`).
open class MKCircle: MKShape, MKOverlay {
    private let center: CLLocationCoordinate2D
    /// The radius in metres.
    public let radius: CLLocationDistance
    private let bounds: MKMapRect

    /// A circle of `radius` metres around `center`.
    ///
    /// Its ``boundingMapRect`` is the square of side 2·radius·`MKMapPointsPerMeterAtLatitude(_:)`
    /// at the centre's latitude, centred on the centre's map point: map points per metre grow
    /// with latitude (as 1 / cos φ), so the same radius covers more map points nearer the poles.
    public init(center: CLLocationCoordinate2D, radius: CLLocationDistance) {
        self.center = center
        self.radius = radius
        let r = radius.isFinite ? max(radius, 0) : 0
        let half = r * MKMapPointsPerMeterAtLatitude(center.latitude)
        let c = MKMapPoint(center)
        bounds = MKMapRect(x: c.x - half, y: c.y - half, width: 2 * half, height: 2 * half)
        super.init()
    }

    /// The largest circle centred in `mapRect`: its diameter is the rectangle's shorter side, in
    /// map points, converted to metres at the latitude of the rectangle's centre. A null
    /// rectangle gives a zero circle at an invalid coordinate.
    public convenience init(mapRect: MKMapRect) {
        guard !mapRect.isNull else {
            self.init(center: kCLLocationCoordinate2DInvalid, radius: 0)
            return
        }
        let center = centreCoordinate(of: mapRect)
        let diameter = min(mapRect.width, mapRect.height)
        self.init(center: center, radius: diameter / 2 * MKMetersPerMapPointAtLatitude(center.latitude))
    }

    /// The centre.
    open override var coordinate: CLLocationCoordinate2D { center }
    /// The square that holds the circle; see ``init(center:radius:)``.
    open var boundingMapRect: MKMapRect { bounds }
}
