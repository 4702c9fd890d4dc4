// Mapbox's geometry value types and functions (MGLGeometry.h): coordinate spans and bounds,
// quads, degree/radian conversions and the zoom ↔ altitude conversions, plus Core Graphics'
// CGVector that MGLAnnotationView's centre offset is.

import Foundation
import MapGeometry

/// A two-dimensional vector (Core Graphics' `CGVector`), the type of Mapbox's
/// `MGLAnnotationView.centerOffset`.
///
/// Differs from Core Graphics: defined by OpenMapKit, as Linux's Foundation has no `CGVector`.
public struct CGVector: Hashable, Sendable, Codable, CustomStringConvertible {
    public var dx: CGFloat
    public var dy: CGFloat

    public init() { (dx, dy) = (0, 0) }
    public init(dx: CGFloat, dy: CGFloat) { (self.dx, self.dy) = (dx, dy) }
    public init(dx: Double, dy: Double) { (self.dx, self.dy) = (CGFloat(dx), CGFloat(dy)) }
    public init(dx: Int, dy: Int) { (self.dx, self.dy) = (CGFloat(dx), CGFloat(dy)) }

    /// The zero vector.
    public static let zero = CGVector()

    public var description: String { "(\(dx), \(dy))" }
}

/// The area spanned by an ``MGLCoordinateBounds`` (Mapbox's `MGLCoordinateSpan`), in degrees.
public struct MGLCoordinateSpan: Hashable, Sendable {
    /// Latitudes spanned.
    public var latitudeDelta: CLLocationDegrees
    /// Longitudes spanned.
    public var longitudeDelta: CLLocationDegrees

    public init() { (latitudeDelta, longitudeDelta) = (0, 0) }
    public init(latitudeDelta: CLLocationDegrees, longitudeDelta: CLLocationDegrees) {
        (self.latitudeDelta, self.longitudeDelta) = (latitudeDelta, longitudeDelta)
    }
}

/// A span from its latitude and longitude deltas.
public func MGLCoordinateSpanMake(_ latitudeDelta: CLLocationDegrees, _ longitudeDelta: CLLocationDegrees) -> MGLCoordinateSpan {
    MGLCoordinateSpan(latitudeDelta: latitudeDelta, longitudeDelta: longitudeDelta)
}

/// Whether two spans have the same deltas.
public func MGLCoordinateSpanEqualToCoordinateSpan(_ span1: MGLCoordinateSpan, _ span2: MGLCoordinateSpan) -> Bool {
    span1.latitudeDelta == span2.latitudeDelta && span1.longitudeDelta == span2.longitudeDelta
}

/// An area of zero width and height.
public let MGLCoordinateSpanZero = MGLCoordinateSpan()

/// A rectangle on the map given by its south-west and north-east corners (Mapbox's
/// `MGLCoordinateBounds`). A longitude below −180° or above 180° means the rectangle crosses the
/// 180th meridian: Tokyo and San Francisco are both inside (35.68476, −220.24257) … (37.78428,
/// −122.41310).
public struct MGLCoordinateBounds: Hashable, Sendable {
    /// The south-west corner.
    public var sw: CLLocationCoordinate2D
    /// The north-east corner.
    public var ne: CLLocationCoordinate2D

    public init() { (sw, ne) = (CLLocationCoordinate2D(), CLLocationCoordinate2D()) }
    public init(sw: CLLocationCoordinate2D, ne: CLLocationCoordinate2D) { (self.sw, self.ne) = (sw, ne) }
}

/// A quadrilateral on the map (Mapbox's `MGLCoordinateQuad`): corners counter-clockwise from the
/// top left, so it can stand for a rotated view.
public struct MGLCoordinateQuad: Hashable, Sendable {
    public var topLeft: CLLocationCoordinate2D
    public var bottomLeft: CLLocationCoordinate2D
    public var bottomRight: CLLocationCoordinate2D
    public var topRight: CLLocationCoordinate2D

    public init(topLeft: CLLocationCoordinate2D, bottomLeft: CLLocationCoordinate2D, bottomRight: CLLocationCoordinate2D,
                topRight: CLLocationCoordinate2D) {
        (self.topLeft, self.bottomLeft, self.bottomRight, self.topRight) = (topLeft, bottomLeft, bottomRight, topRight)
    }
}

/// Bounds from their south-west and north-east corners.
public func MGLCoordinateBoundsMake(_ sw: CLLocationCoordinate2D, _ ne: CLLocationCoordinate2D) -> MGLCoordinateBounds {
    MGLCoordinateBounds(sw: sw, ne: ne)
}

/// A quad from its four corners.
public func MGLCoordinateQuadMake(_ topLeft: CLLocationCoordinate2D, _ bottomLeft: CLLocationCoordinate2D,
                                  _ bottomRight: CLLocationCoordinate2D, _ topRight: CLLocationCoordinate2D) -> MGLCoordinateQuad {
    MGLCoordinateQuad(topLeft: topLeft, bottomLeft: bottomLeft, bottomRight: bottomRight, topRight: topRight)
}

/// The quad of a bounds: its north-east corner at the top right, its south-west at the bottom left.
public func MGLCoordinateQuadFromCoordinateBounds(_ bounds: MGLCoordinateBounds) -> MGLCoordinateQuad {
    MGLCoordinateQuad(topLeft: CLLocationCoordinate2D(latitude: bounds.ne.latitude, longitude: bounds.sw.longitude), bottomLeft: bounds.sw,
                      bottomRight: CLLocationCoordinate2D(latitude: bounds.sw.latitude, longitude: bounds.ne.longitude), topRight: bounds.ne)
}

/// Whether two bounds have the same corners.
public func MGLCoordinateBoundsEqualToCoordinateBounds(_ bounds1: MGLCoordinateBounds, _ bounds2: MGLCoordinateBounds) -> Bool {
    bounds1.sw.latitude == bounds2.sw.latitude && bounds1.sw.longitude == bounds2.sw.longitude
        && bounds1.ne.latitude == bounds2.ne.latitude && bounds1.ne.longitude == bounds2.ne.longitude
}

/// Whether two bounds share area (touching edges do not count), comparing longitudes as given.
public func MGLCoordinateBoundsIntersectsCoordinateBounds(_ bounds1: MGLCoordinateBounds, _ bounds2: MGLCoordinateBounds) -> Bool {
    bounds1.ne.latitude > bounds2.sw.latitude && bounds1.sw.latitude < bounds2.ne.latitude
        && bounds1.ne.longitude > bounds2.sw.longitude && bounds1.sw.longitude < bounds2.ne.longitude
}

/// Whether `coordinate` lies inside `bounds` or on its edge, comparing longitudes as given (as
/// Mapbox does: 140° is not inside bounds written from −220° to −122°).
public func MGLCoordinateInCoordinateBounds(_ coordinate: CLLocationCoordinate2D, _ bounds: MGLCoordinateBounds) -> Bool {
    coordinate.latitude >= bounds.sw.latitude && coordinate.latitude <= bounds.ne.latitude
        && coordinate.longitude >= bounds.sw.longitude && coordinate.longitude <= bounds.ne.longitude
}

/// The span of a bounds: north minus south, east minus west.
public func MGLCoordinateBoundsGetCoordinateSpan(_ bounds: MGLCoordinateBounds) -> MGLCoordinateSpan {
    MGLCoordinateSpan(latitudeDelta: bounds.ne.latitude - bounds.sw.latitude, longitudeDelta: bounds.ne.longitude - bounds.sw.longitude)
}

/// The bounds moved by `offset`.
public func MGLCoordinateBoundsOffset(_ bounds: MGLCoordinateBounds, _ offset: MGLCoordinateSpan) -> MGLCoordinateBounds {
    var moved = bounds
    moved.sw.latitude += offset.latitudeDelta
    moved.sw.longitude += offset.longitudeDelta
    moved.ne.latitude += offset.latitudeDelta
    moved.ne.longitude += offset.longitudeDelta
    return moved
}

/// Whether the bounds covers no area (a zero latitude or longitude span).
public func MGLCoordinateBoundsIsEmpty(_ bounds: MGLCoordinateBounds) -> Bool {
    let span = MGLCoordinateBoundsGetCoordinateSpan(bounds)
    return span.latitudeDelta == 0 || span.longitudeDelta == 0
}

/// The bounds as text: `{ sw = {lat, lon}, ne = {lat, lon}}` with one decimal.
public func MGLStringFromCoordinateBounds(_ bounds: MGLCoordinateBounds) -> String {
    String(format: "{ sw = {%.1f, %.1f}, ne = {%.1f, %.1f}}", bounds.sw.latitude, bounds.sw.longitude, bounds.ne.latitude, bounds.ne.longitude)
}

/// Radians from degrees.
public func MGLRadiansFromDegrees(_ degrees: CLLocationDegrees) -> CGFloat { CGFloat(degrees * .pi / 180) }

/// Degrees from radians.
public func MGLDegreesFromRadians(_ radians: CGFloat) -> CLLocationDegrees { Double(radians) * 180 / .pi }

/// The altitude of a camera showing `zoomLevel` at `latitude` in a view of `size`, tilted by
/// `pitch` degrees.
///
/// Differs from Mapbox: OpenMapKit's camera has the MapLibre renderer's field of view
/// (2·atan(1/3) ≈ 36.87° vertically, the eye 1.5 view heights from the centre), the one
/// `MKMapCamera` distances use too; Mapbox's conversion assumes a 30° field, so its
/// altitudes for the same zoom level are about 24% higher.
public func MGLAltitudeForZoomLevel(_ zoomLevel: Double, _ pitch: CGFloat, _ latitude: CLLocationDegrees, _ size: CGSize) -> CLLocationDistance {
    let viewport = MapViewport(size: size, centerCoordinate: CLLocationCoordinate2D(latitude: latitude, longitude: 0), zoomLevel: zoomLevel)
    return viewport.centerCoordinateDistance * cos(Double(pitch) * .pi / 180)
}

/// The zoom level at which a camera at `altitude` metres, tilted by `pitch` degrees, shows
/// `latitude` in a view of `size` (the inverse of ``MGLAltitudeForZoomLevel(_:_:_:_:)``, with its
/// field of view).
public func MGLZoomLevelForAltitude(_ altitude: CLLocationDistance, _ pitch: CGFloat, _ latitude: CLLocationDegrees, _ size: CGSize) -> Double {
    let cosine = cos(Double(pitch) * .pi / 180)
    let distance = cosine > 1e-9 ? altitude / cosine : altitude
    return MapViewport.zoomLevel(forCenterCoordinateDistance: distance, latitude: latitude, viewHeight: Double(size.height))
}
