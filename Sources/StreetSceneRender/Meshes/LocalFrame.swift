// Degrees to the scene's metres. A scene spans a few hundred metres, where the tangent plane at its
// origin is exact to centimetres; the scale comes from the WGS84 ellipsoid's radii of curvature at
// the origin's latitude (not a sphere), so distances agree with the geodesics elsewhere in MapGeometry.

import Foundation
import MapGeometry

/// A flat frame in metres around a coordinate: x east, y north.
public struct LocalFrame: Sendable {
    public let origin: CLLocationCoordinate2D
    /// Metres per degree of longitude and of latitude at the origin.
    public let metresPerDegreeLongitude: Double
    public let metresPerDegreeLatitude: Double

    public init(origin: CLLocationCoordinate2D) {
        self.origin = origin
        let a = 6_378_137.0, f = 1 / 298.257223563
        let e2 = f * (2 - f)
        let phi = origin.latitude * .pi / 180
        let s = sin(phi)
        let w = (1 - e2 * s * s).squareRoot()
        let primeVertical = a / w                      // N: radius of curvature east–west
        let meridional = a * (1 - e2) / (w * w * w)    // M: radius of curvature north–south
        metresPerDegreeLongitude = primeVertical * cos(phi) * .pi / 180
        metresPerDegreeLatitude = meridional * .pi / 180
    }

    /// The point of `coordinate` in metres from the origin.
    public func point(_ coordinate: CLLocationCoordinate2D) -> ScenePoint2 {
        ScenePoint2(x: (coordinate.longitude - origin.longitude) * metresPerDegreeLongitude,
                    y: (coordinate.latitude - origin.latitude) * metresPerDegreeLatitude)
    }

    /// The coordinate of a point in metres from the origin.
    public func coordinate(_ point: ScenePoint2) -> CLLocationCoordinate2D {
        CLLocationCoordinate2D(latitude: origin.latitude + point.y / metresPerDegreeLatitude,
                               longitude: origin.longitude + point.x / metresPerDegreeLongitude)
    }

    /// The latitude/longitude box `radius` metres around the origin, for querying a scene file.
    public func box(radius: Double) -> (minLatitude: Double, minLongitude: Double, maxLatitude: Double, maxLongitude: Double) {
        let dLat = radius / metresPerDegreeLatitude, dLon = radius / max(metresPerDegreeLongitude, 1e-6)
        return (origin.latitude - dLat, origin.longitude - dLon, origin.latitude + dLat, origin.longitude + dLon)
    }
}

/// A point on the scene's ground plane, in metres.
public struct ScenePoint2: Hashable, Sendable {
    public var x: Double, y: Double
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
    static func + (a: Self, b: Self) -> Self { Self(x: a.x + b.x, y: a.y + b.y) }
    static func - (a: Self, b: Self) -> Self { Self(x: a.x - b.x, y: a.y - b.y) }
    static func * (a: Self, s: Double) -> Self { Self(x: a.x * s, y: a.y * s) }
    func dot(_ b: Self) -> Double { x * b.x + y * b.y }
    var length: Double { (x * x + y * y).squareRoot() }
    /// The unit vector along this one (zero stays zero).
    var normalized: Self { let l = length; return l > 0 ? Self(x: x / l, y: y / l) : self }
    /// Turned 90° clockwise (to the right of a direction of travel).
    var right: Self { Self(x: y, y: -x) }
}

/// Ring measures the meshes need.
enum Rings {
    /// Twice the signed area: positive when the ring runs counter-clockwise (x east, y north).
    static func signedArea2(_ ring: [ScenePoint2]) -> Double {
        guard ring.count >= 3 else { return 0 }
        var sum = 0.0
        var previous = ring[ring.count - 1]
        for point in ring {
            sum += previous.x * point.y - point.x * previous.y
            previous = point
        }
        return sum
    }

    /// The ring without its repeated closing point and without consecutive duplicates.
    static func open(_ ring: [ScenePoint2]) -> [ScenePoint2] {
        var result: [ScenePoint2] = []
        result.reserveCapacity(ring.count)
        for point in ring where result.last.map({ ($0 - point).length > 0.01 }) ?? true { result.append(point) }
        if result.count > 1, let first = result.first, let last = result.last, (first - last).length <= 0.01 { result.removeLast() }
        return result
    }

    /// The area-weighted centre of a ring (its vertices' mean for a degenerate one).
    static func centroid(_ ring: [ScenePoint2]) -> ScenePoint2 {
        let a2 = signedArea2(ring)
        guard abs(a2) > 1e-9 else {
            let n = Double(max(ring.count, 1))
            return ring.reduce(ScenePoint2(x: 0, y: 0), +) * (1 / n)
        }
        var cx = 0.0, cy = 0.0
        var previous = ring[ring.count - 1]
        for point in ring {
            let cross = previous.x * point.y - point.x * previous.y
            cx += (previous.x + point.x) * cross
            cy += (previous.y + point.y) * cross
            previous = point
        }
        return ScenePoint2(x: cx / (3 * a2), y: cy / (3 * a2))
    }

    /// Whether `point` lies inside `ring` (even–odd rule).
    static func contains(_ ring: [ScenePoint2], _ point: ScenePoint2) -> Bool {
        var inside = false
        var j = ring.count - 1
        for i in 0..<ring.count {
            let a = ring[i], b = ring[j]
            if (a.y > point.y) != (b.y > point.y), point.x < (b.x - a.x) * (point.y - a.y) / (b.y - a.y) + a.x { inside.toggle() }
            j = i
        }
        return inside
    }
}
