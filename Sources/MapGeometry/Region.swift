import Foundation

/// The width and height of a region, in degrees. Smaller deltas mean a closer zoom.
public struct MKCoordinateSpan: Hashable, Sendable, Codable, CustomStringConvertible {
    /// North–south extent in degrees (one degree of latitude is about 111 km everywhere).
    public var latitudeDelta: CLLocationDegrees
    /// East–west extent in degrees (one degree of longitude is about 111 km at the equator, 0 at the poles).
    public var longitudeDelta: CLLocationDegrees

    /// The empty span (0, 0).
    public init() { latitudeDelta = 0; longitudeDelta = 0 }

    public init(latitudeDelta: CLLocationDegrees, longitudeDelta: CLLocationDegrees) {
        self.latitudeDelta = latitudeDelta
        self.longitudeDelta = longitudeDelta
    }

    public var description: String { "MKCoordinateSpan(latitudeDelta: \(latitudeDelta), longitudeDelta: \(longitudeDelta))" }
}

/// A rectangular geographic region: a centre and a span in degrees.
///
/// **Which centre.** As on `MKMapView`, the centre is the centre of the region's map rectangle
/// (``MKMapRect/midX``, ``MKMapRect/midY``), not the average of its north and south latitudes —
/// Mercator stretches the north half of a rectangle more than the south half. `MKCoordinateRegion(mapRect)`
/// and `MKMapRect(region)` are exact inverses under this rule (see ``MKMapRect/init(_:)``).
///
/// **Metres.** `init(center:latitudinalMeters:longitudinalMeters:)` takes the *full* extents, as
/// Apple's implementation does: 1000 m north–south gives a latitudeDelta of about 0.009°.
public struct MKCoordinateRegion: Hashable, Sendable, Codable, CustomStringConvertible {
    public var center: CLLocationCoordinate2D
    public var span: MKCoordinateSpan

    /// The empty region at (0, 0).
    public init() { center = CLLocationCoordinate2D(); span = MKCoordinateSpan() }

    public init(center: CLLocationCoordinate2D, span: MKCoordinateSpan) {
        self.center = center
        self.span = span
    }

    /// A region `latitudinalMeters` tall and `longitudinalMeters` wide (full extents) around `center`.
    ///
    /// Metres become degrees with the WGS84 ellipsoid's radii of curvature at the centre latitude,
    /// so the extents are true ground distances through the centre.
    public init(center centerCoordinate: CLLocationCoordinate2D, latitudinalMeters: CLLocationDistance,
                longitudinalMeters: CLLocationDistance) {
        let (meridional, parallel) = WGS84.metersPerDegree(atLatitude: centerCoordinate.latitude)
        let longitudeDelta = parallel > 0 ? longitudinalMeters / parallel : 360
        self.init(center: centerCoordinate,
                  span: MKCoordinateSpan(latitudeDelta: latitudinalMeters / meridional,
                                         longitudeDelta: min(longitudeDelta, 360)))
    }

    /// The region a map rectangle covers: its centre's coordinate, and the latitudes and
    /// longitudes of its edges. A null rectangle gives the empty region at (0, 0).
    public init(_ rect: MKMapRect) {
        guard !rect.isNull else { self.init(); return }
        let north = MKMapPoint(x: rect.minX, y: rect.minY).coordinate.latitude
        let south = MKMapPoint(x: rect.minX, y: rect.maxY).coordinate.latitude
        let center = MKMapPoint(x: rect.midX, y: rect.midY).coordinate
        self.init(center: center.normalized,
                  span: MKCoordinateSpan(latitudeDelta: north - south,
                                         longitudeDelta: rect.width / MKMapSize.worldWidth * 360))
    }

    /// Whether the centre is a valid coordinate and the span is within 0…180 by 0…360 degrees,
    /// the conditions MapKit enforces with an "Invalid Region" exception.
    public var isValid: Bool {
        CLLocationCoordinate2DIsValid(center)
            && (0...180).contains(span.latitudeDelta) && (0...360).contains(span.longitudeDelta)
    }

    public var description: String { "MKCoordinateRegion(center: \(center), span: \(span))" }
}

extension MKMapRect {
    /// The map rectangle a region covers (an OpenMapKit addition; MapKit leaves this to callers).
    ///
    /// Its centre is the projection of `region.center`, and its height is chosen so that its top
    /// and bottom edges are `span.latitudeDelta` degrees apart — the exact inverse of
    /// `MKCoordinateRegion(_:)`. A region reaching past ±180° longitude gives a rectangle past
    /// the world's side (``spans180thMeridian``); one reaching past Mercator's latitude limit is
    /// cut at the world's top or bottom.
    public init(_ region: MKCoordinateRegion) {
        let center = MKMapPoint(region.center)
        let width = region.span.longitudeDelta / 360 * MKMapSize.worldWidth
        let height = mercatorHeight(centeredAt: center.y, latitudeDelta: region.span.latitudeDelta)
        var rect = MKMapRect(x: center.x - width / 2, y: center.y - height / 2, width: width, height: height)
        // A rectangle taller than the part of the world above or below its centre is clipped there.
        let top = max(rect.minY, 0), bottom = min(rect.maxY, MKMapSize.worldWidth)
        rect.origin.y = top
        rect.size.height = max(bottom - top, 0)
        self = rect
    }
}

/// The height in map points of a rectangle centred at map y `centerY` whose top and bottom
/// latitudes differ by `latitudeDelta`. Latitude difference grows monotonically with height,
/// so Newton's method with a bisection guard finds it to full precision.
private func mercatorHeight(centeredAt centerY: Double, latitudeDelta: Double) -> Double {
    guard latitudeDelta > 0, latitudeDelta.isFinite else { return 0 }
    let world = MKMapSize.worldWidth
    func latitude(_ y: Double) -> Double { atan(sinh(.pi * (1 - 2 * y / world))) * 180 / .pi }
    func delta(_ h: Double) -> Double { latitude(centerY - h / 2) - latitude(centerY + h / 2) }
    // d(latitude)/dy in degrees per map point, at y.
    func slope(_ y: Double) -> Double { 360 / world / cosh(.pi * (1 - 2 * y / world)) }
    var low = 0.0, high = 4 * world  // delta(4·world) is essentially 180°, the most any height can give.
    if delta(high) <= latitudeDelta { return high }
    var h = latitudeDelta / slope(centerY)
    for _ in 0..<100 {
        let f = delta(h) - latitudeDelta
        if f > 0 { high = h } else { low = h }
        if abs(f) < 1e-13 { break }
        let derivative = (slope(centerY - h / 2) + slope(centerY + h / 2)) / 2
        var next = h - f / derivative
        if !(next > low && next < high) { next = (low + high) / 2 }
        if next == h { break }
        h = next
    }
    return h
}

/// The WGS84 ellipsoid's constants and the radii of curvature used to turn metres into degrees.
public enum WGS84 {
    /// Equatorial radius, metres.
    public static let equatorialRadius: Double = 6_378_137
    /// Flattening.
    public static let flattening: Double = 1 / 298.257223563
    /// First eccentricity squared, f(2 − f).
    public static let eccentricitySquared: Double = flattening * (2 - flattening)

    /// Metres per degree of latitude (along the meridian) and of longitude (along the parallel)
    /// at a latitude, from the meridional radius M and the prime-vertical radius N:
    /// M = a(1 − e²)/(1 − e² sin²φ)^{3/2}, N = a/(1 − e² sin²φ)^{1/2}, parallel = N cos φ.
    public static func metersPerDegree(atLatitude latitude: CLLocationDegrees) -> (meridional: Double, parallel: Double) {
        let phi = min(max(latitude, -90), 90) * .pi / 180
        let w2 = 1 - eccentricitySquared * sin(phi) * sin(phi)
        let meridional = equatorialRadius * (1 - eccentricitySquared) / (w2 * w2.squareRoot())
        let primeVertical = equatorialRadius / w2.squareRoot()
        let parallel = abs(latitude) >= 90 ? 0 : primeVertical * cos(phi)
        return (meridional * .pi / 180, parallel * .pi / 180)
    }
}
