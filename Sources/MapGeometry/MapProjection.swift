import Foundation

// MapKit's flat map is spherical ("Web") Mercator on a sphere of WGS84's equatorial radius, scaled so
// the whole world is 2^28 map points square, origin top-left (180° W, 85.0511° N), y growing south.

/// The radius of the sphere behind spherical Mercator, in metres (WGS84's equatorial radius).
public let MKMercatorEarthRadius: Double = 6_378_137

/// The northern- and southernmost latitude that spherical Mercator can show, in degrees:
/// the latitude at which the square world ends, 2·atan(e^π) − 90°.
public let MKMercatorMaximumLatitude: CLLocationDegrees = 85.051128779806592

/// The Earth's circumference at the equator on the Mercator sphere, in metres.
@usableFromInline let mercatorCircumference = 2 * Double.pi * MKMercatorEarthRadius

/// A point on MapKit's two-dimensional Mercator projection, in map points.
///
/// Work in map points to make geometry planar; store latitudes and longitudes, not map points.
public struct MKMapPoint: Hashable, Sendable, Codable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    /// The point (0, 0): the map's top-left corner.
    @inlinable public init() { x = 0; y = 0 }

    @inlinable public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// Projects a coordinate. Latitudes beyond ±``MKMercatorMaximumLatitude`` are clamped to the
    /// map's edge; longitudes outside ±180 project beyond the world's sides (x < 0 or x > width),
    /// which is how rectangles that cross the 180th meridian are written.
    @inlinable public init(_ coordinate: CLLocationCoordinate2D) {
        let world = MKMapSize.worldWidth
        x = (coordinate.longitude + 180) / 360 * world
        let latitude = min(max(coordinate.latitude, -MKMercatorMaximumLatitude), MKMercatorMaximumLatitude)
        let sinLatitude = sin(latitude * .pi / 180)
        // 0.5 − ln(tan(π/4 + φ/2)) / 2π, written with the atanh form that stays accurate near the poles.
        y = (0.5 - atanh(sinLatitude) / (2 * .pi)) * world
    }

    /// The coordinate of this point (the inverse projection). Longitude is not wrapped: a point
    /// right of the world has a longitude above 180; use ``MKMapRect/remainder`` style wrapping
    /// or ``CLLocationCoordinate2D/normalized`` when a −180…180 value is needed.
    @inlinable public var coordinate: CLLocationCoordinate2D {
        let world = MKMapSize.worldWidth
        let longitude = x / world * 360 - 180
        let latitude = atan(sinh(.pi * (1 - 2 * y / world))) * 180 / .pi
        return CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
    }

    /// Metres between this point and `other` along the WGS84 ellipsoid.
    public func distance(to other: MKMapPoint) -> CLLocationDistance {
        MKMetersBetweenMapPoints(self, other)
    }

    public var description: String { "{\(x), \(y)}" }
}

/// A width and height on the Mercator projection, in map points.
public struct MKMapSize: Hashable, Sendable, Codable, CustomStringConvertible {
    public var width: Double
    public var height: Double

    @inlinable public init() { width = 0; height = 0 }
    @inlinable public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// 2^28 map points: the world's side.
    public static let worldWidth: Double = 268_435_456
    /// The size of the whole world: 2^28 × 2^28 map points.
    public static let world = MKMapSize(width: worldWidth, height: worldWidth)

    public var description: String { "{\(width), \(height)}" }
}

/// Map points per metre at a latitude: 2^28 / (2π · 6 378 137 m · cos φ).
public func MKMapPointsPerMeterAtLatitude(_ latitude: CLLocationDegrees) -> Double {
    1 / MKMetersPerMapPointAtLatitude(latitude)
}

/// Metres per map point at a latitude (about 0.1493 at the equator, shrinking with cos φ).
public func MKMetersPerMapPointAtLatitude(_ latitude: CLLocationDegrees) -> CLLocationDistance {
    let clamped = min(max(latitude, -MKMercatorMaximumLatitude), MKMercatorMaximumLatitude)
    return mercatorCircumference * cos(clamped * .pi / 180) / MKMapSize.worldWidth
}

/// Metres between two map points, measured along the WGS84 ellipsoid between their coordinates
/// (the shortest way round, so points either side of the 180th meridian are close).
public func MKMetersBetweenMapPoints(_ a: MKMapPoint, _ b: MKMapPoint) -> CLLocationDistance {
    let ca = a.coordinate, cb = b.coordinate
    return Geodesic.wgs84.inverse(latitude1: ca.latitude, longitude1: ca.longitude,
                                  latitude2: cb.latitude, longitude2: cb.longitude).distance
}

/// A rectangle on the Mercator projection, in map points.
///
/// Rectangles follow Core Graphics' rules: `null` is the "no rectangle" value (origin at +∞),
/// `contains(point)` includes the minimum edges and excludes the maximum ones, and two
/// rectangles that only touch do not intersect. A rectangle may extend past the world's right
/// edge (x > 2^28) to cross the 180th meridian; see ``spans180thMeridian`` and ``remainder``.
public struct MKMapRect: Hashable, Sendable, Codable, CustomStringConvertible {
    public var origin: MKMapPoint
    public var size: MKMapSize

    /// The empty rectangle at (0, 0).
    @inlinable public init() { origin = MKMapPoint(); size = MKMapSize() }

    @inlinable public init(origin: MKMapPoint, size: MKMapSize) {
        self.origin = origin
        self.size = size
    }

    @inlinable public init(x: Double, y: Double, width: Double, height: Double) {
        origin = MKMapPoint(x: x, y: y)
        size = MKMapSize(width: width, height: height)
    }

    /// The smallest rectangle holding both points.
    @inlinable public init(corner a: MKMapPoint, corner b: MKMapPoint) {
        self.init(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(a.x - b.x), height: abs(a.y - b.y))
    }

    /// The smallest rectangle holding every point; `null` for none.
    @inlinable
    public init<S: Sequence>(boundingPoints points: S) where S.Element == MKMapPoint {
        var iterator = points.makeIterator()
        guard let first = iterator.next() else { self = .null; return }
        var minX = first.x, maxX = first.x, minY = first.y, maxY = first.y
        while let p = iterator.next() {
            minX = min(minX, p.x)
            maxX = max(maxX, p.x)
            minY = min(minY, p.y)
            maxY = max(maxY, p.y)
        }
        self.init(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// The null rectangle: origin (+∞, +∞), size 0. Union with it is the identity.
    public static let null = MKMapRect(x: .infinity, y: .infinity, width: 0, height: 0)
    /// The whole world: (0, 0, 2^28, 2^28).
    public static let world = MKMapRect(origin: MKMapPoint(), size: .world)
    /// The whole world, by its C name `MKMapRectWorld`.
    public static var worldRect: MKMapRect { world }

    @inlinable public var minX: Double { origin.x }
    @inlinable public var minY: Double { origin.y }
    @inlinable public var midX: Double { origin.x + size.width / 2 }
    @inlinable public var midY: Double { origin.y + size.height / 2 }
    @inlinable public var maxX: Double { origin.x + size.width }
    @inlinable public var maxY: Double { origin.y + size.height }
    @inlinable public var width: Double { size.width }
    @inlinable public var height: Double { size.height }

    /// Whether this is the null rectangle (an infinite origin).
    @inlinable public var isNull: Bool { origin.x.isInfinite || origin.y.isInfinite }
    /// Whether the rectangle has no area (null, or zero width or height).
    @inlinable public var isEmpty: Bool { isNull || size.width <= 0 || size.height <= 0 }

    /// Whether the rectangle reaches past the world's left or right side, i.e. across the
    /// 180th meridian.
    public var spans180thMeridian: Bool {
        !isNull && (minX < 0 || maxX > MKMapSize.worldWidth)
    }

    /// The part of the rectangle outside the world's sides, moved back into the world
    /// (shifted by one world width); `null` when the rectangle lies within the world.
    public var remainder: MKMapRect {
        guard spans180thMeridian else { return .null }
        let w = MKMapSize.worldWidth
        if maxX > w {
            return intersection(MKMapRect(x: w, y: minY, width: maxX - w, height: height)).offsetBy(dx: -w, dy: 0)
        }
        return intersection(MKMapRect(x: minX, y: minY, width: -minX, height: height)).offsetBy(dx: w, dy: 0)
    }

    /// The rectangle cut at the world's sides into pieces that each lie within 0 … 2^28 in x:
    /// one piece normally, two when it crosses the 180th meridian. Range queries use this so
    /// nothing on the far side of the meridian is dropped.
    public var worldPieces: [MKMapRect] {
        if isNull { return [] }
        if width >= MKMapSize.worldWidth { return [MKMapRect(x: 0, y: minY, width: MKMapSize.worldWidth, height: height)] }
        guard spans180thMeridian else { return [self] }
        let inside = intersection(MKMapRect(x: 0, y: minY, width: MKMapSize.worldWidth, height: height))
        return [inside, remainder].filter { !$0.isNull }
    }

    /// Whether `point` lies inside (minimum edges included, maximum edges excluded).
    @inlinable public func contains(_ point: MKMapPoint) -> Bool {
        point.x >= minX && point.x < maxX && point.y >= minY && point.y < maxY
    }

    /// Whether `rect` lies wholly inside this rectangle (edges may touch).
    public func contains(_ rect: MKMapRect) -> Bool {
        if isNull || rect.isNull { return false }
        return rect.minX >= minX && rect.maxX <= maxX && rect.minY >= minY && rect.maxY <= maxY
    }

    /// Whether the two rectangles share some area; rectangles that only touch do not.
    public func intersects(_ rect: MKMapRect) -> Bool {
        if isNull || rect.isNull { return false }
        return minX < rect.maxX && rect.minX < maxX && minY < rect.maxY && rect.minY < maxY
    }

    /// The smallest rectangle holding both; a null rectangle contributes nothing.
    public func union(_ rect: MKMapRect) -> MKMapRect {
        if isNull { return rect }
        if rect.isNull { return self }
        let x0 = min(minX, rect.minX), y0 = min(minY, rect.minY)
        return MKMapRect(x: x0, y: y0, width: max(maxX, rect.maxX) - x0, height: max(maxY, rect.maxY) - y0)
    }

    /// The shared area, or `null` when the rectangles do not overlap. Rectangles that touch
    /// along an edge give an empty (zero-width) rectangle on that edge, as Core Graphics does.
    public func intersection(_ rect: MKMapRect) -> MKMapRect {
        if isNull || rect.isNull { return .null }
        let x0 = max(minX, rect.minX), y0 = max(minY, rect.minY)
        let x1 = min(maxX, rect.maxX), y1 = min(maxY, rect.maxY)
        if x1 < x0 || y1 < y0 { return .null }
        return MKMapRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The rectangle shrunk by `dx` on the left and right and `dy` on the top and bottom
    /// (grown for negative values); `null` when that leaves a negative size.
    public func insetBy(dx: Double, dy: Double) -> MKMapRect {
        if isNull { return self }
        let r = MKMapRect(x: minX + dx, y: minY + dy, width: width - 2 * dx, height: height - 2 * dy)
        return (r.width < 0 || r.height < 0) ? .null : r
    }

    /// The rectangle moved by (`dx`, `dy`).
    @inlinable public func offsetBy(dx: Double, dy: Double) -> MKMapRect {
        MKMapRect(x: minX + dx, y: minY + dy, width: width, height: height)
    }

    /// Splits the rectangle into a slice `distance` map points deep from `edge` and the rest.
    /// The distance is clamped to 0 … the rectangle's extent along that axis.
    public func divided(atDistance distance: Double, from edge: CGRectEdge) -> (slice: MKMapRect, remainder: MKMapRect) {
        if isNull { return (.null, .null) }
        switch edge {
        case .minXEdge:
            let d = min(max(distance, 0), width)
            return (MKMapRect(x: minX, y: minY, width: d, height: height),
                    MKMapRect(x: minX + d, y: minY, width: width - d, height: height))
        case .maxXEdge:
            let d = min(max(distance, 0), width)
            return (MKMapRect(x: maxX - d, y: minY, width: d, height: height),
                    MKMapRect(x: minX, y: minY, width: width - d, height: height))
        case .minYEdge:
            let d = min(max(distance, 0), height)
            return (MKMapRect(x: minX, y: minY, width: width, height: d),
                    MKMapRect(x: minX, y: minY + d, width: width, height: height - d))
        case .maxYEdge:
            let d = min(max(distance, 0), height)
            return (MKMapRect(x: minX, y: maxY - d, width: width, height: d),
                    MKMapRect(x: minX, y: minY, width: width, height: height - d))
        }
    }

    public var description: String { "{\(origin), \(size)}" }
}

extension CLLocationCoordinate2D {
    /// The same place with the longitude wrapped into −180 ..< 180 (and 180 kept as 180).
    public var normalized: CLLocationCoordinate2D {
        CLLocationCoordinate2D(latitude: latitude, longitude: normalizedLongitude(longitude))
    }
}

/// Wraps a longitude into −180 ..< 180; exactly 180 stays 180 so the antimeridian keeps its name.
@inlinable public func normalizedLongitude(_ longitude: CLLocationDegrees) -> CLLocationDegrees {
    if longitude >= -180 && longitude <= 180 { return longitude }
    let wrapped = (longitude + 180).truncatingRemainder(dividingBy: 360)
    return (wrapped < 0 ? wrapped + 360 : wrapped) - 180
}
