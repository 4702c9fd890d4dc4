import Foundation

/// A latitude or longitude value in degrees (Core Location's name).
public typealias CLLocationDegrees = Double
/// A distance in metres (Core Location's name).
public typealias CLLocationDistance = Double
/// A direction in degrees clockwise from true north, 0 ..< 360 (Core Location's name).
public typealias CLLocationDirection = Double
/// An accuracy in metres; negative means "invalid" (Core Location's name).
public typealias CLLocationAccuracy = Double
/// A speed in metres per second (Core Location's name).
public typealias CLLocationSpeed = Double

/// A geographic coordinate on the WGS84 datum, in degrees.
///
/// Equality is exact; compare with a tolerance when values come from arithmetic.
/// Encoded as `{"latitude": …, "longitude": …}`, as Core Location's Codable conformance does.
public struct CLLocationCoordinate2D: Hashable, Codable, Sendable, CustomStringConvertible {
    /// Degrees north of the equator, −90 … 90.
    public var latitude: CLLocationDegrees
    /// Degrees east of the prime meridian, −180 … 180.
    public var longitude: CLLocationDegrees

    /// The coordinate (0, 0).
    public init() { self.init(latitude: 0, longitude: 0) }

    public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        self.latitude = latitude
        self.longitude = longitude
    }

    public var description: String {
        "CLLocationCoordinate2D(latitude: \(latitude), longitude: \(longitude))"
    }
}

/// Whether `coordinate` has a latitude in −90…90 and a longitude in −180…180 (and neither is NaN).
public func CLLocationCoordinate2DIsValid(_ coordinate: CLLocationCoordinate2D) -> Bool {
    (-90.0...90.0).contains(coordinate.latitude) && (-180.0...180.0).contains(coordinate.longitude)
}

/// Core Location's "no coordinate" marker: latitude and longitude −180, which is invalid.
public let kCLLocationCoordinate2DInvalid = CLLocationCoordinate2D(latitude: -180, longitude: -180)

/// Core Location's sentinel for "no distance limit".
public let CLLocationDistanceMax: CLLocationDistance = .greatestFiniteMagnitude

/// A geographic location: a coordinate with altitude, accuracies, course, speed and a timestamp.
///
/// Distances between locations are measured along the WGS84 ellipsoid (see ``distance(from:)``),
/// so they agree with GeographicLib to well under a millimetre.
public final class CLLocation: @unchecked Sendable, CustomStringConvertible {
    // Immutable after init, as in Core Location; hence the unchecked Sendable.
    public let coordinate: CLLocationCoordinate2D
    /// Metres above mean sea level.
    public let altitude: CLLocationDistance
    /// Radius of uncertainty in metres; negative when the coordinate is invalid.
    public let horizontalAccuracy: CLLocationAccuracy
    /// Altitude uncertainty in metres; negative when the altitude is invalid.
    public let verticalAccuracy: CLLocationAccuracy
    /// Direction of travel in degrees from true north; negative when unknown.
    public let course: CLLocationDirection
    /// Metres per second; negative when unknown.
    public let speed: CLLocationSpeed
    public let timestamp: Date

    /// A location with only a coordinate: altitude 0, horizontal accuracy 0, vertical accuracy −1.
    public convenience init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        self.init(coordinate: CLLocationCoordinate2D(latitude: latitude, longitude: longitude),
                  altitude: 0, horizontalAccuracy: 0, verticalAccuracy: -1, timestamp: Date())
    }

    public convenience init(coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance,
                            horizontalAccuracy: CLLocationAccuracy, verticalAccuracy: CLLocationAccuracy,
                            timestamp: Date) {
        self.init(coordinate: coordinate, altitude: altitude, horizontalAccuracy: horizontalAccuracy,
                  verticalAccuracy: verticalAccuracy, course: -1, speed: -1, timestamp: timestamp)
    }

    public init(coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance,
                horizontalAccuracy: CLLocationAccuracy, verticalAccuracy: CLLocationAccuracy,
                course: CLLocationDirection, speed: CLLocationSpeed, timestamp: Date) {
        self.coordinate = coordinate
        self.altitude = altitude
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
        self.course = course
        self.speed = speed
        self.timestamp = timestamp
    }

    public var description: String {
        "<\(coordinate.latitude),\(coordinate.longitude)> +/- \(horizontalAccuracy)m"
    }
}
