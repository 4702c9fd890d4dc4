import Foundation
import MapGeometry

/// Whether a location is inside a region (Core Location's `CLRegionState`).
public enum CLRegionState: Int, Sendable, Hashable {
    /// Not known yet (no location since monitoring started).
    case unknown = 0
    /// Inside the region.
    case inside = 1
    /// Outside the region.
    case outside = 2
}

/// An area a location manager can monitor (Core Location's `CLRegion`), known by its
/// ``identifier``. Use the subclass ``CLCircularRegion``.
///
/// Regions are equal when their identifiers are, as Core Location's monitored regions are: starting
/// to monitor a region with the identifier of one already monitored replaces it.
open class CLRegion: NSObject, @unchecked Sendable {
    /// The name that identifies the region.
    public let identifier: String
    /// Whether the delegate's `locationManager(_:didEnterRegion:)` is sent when
    /// the location comes into the region (default true).
    open var notifyOnEntry = true
    /// Whether the delegate's `locationManager(_:didExitRegion:)` is sent when
    /// the location leaves the region (default true).
    open var notifyOnExit = true

    /// A region named `identifier`.
    public init(identifier: String) {
        self.identifier = identifier
        super.init()
    }

    /// Equal identifiers, as Core Location compares regions.
    open override func isEqual(_ object: Any?) -> Bool {
        (object as? CLRegion)?.identifier == identifier
    }

    /// The identifier's hash.
    open override var hash: Int { identifier.hashValue }

    /// Whether `coordinate` lies in the region; the base region contains nothing.
    func containsLocation(_ coordinate: CLLocationCoordinate2D) -> Bool { false }
}

/// A circle on the earth (Core Location's `CLCircularRegion`): a centre and a radius in metres.
///
/// ``contains(_:)`` measures the distance along the WGS84 ellipsoid (Karney's geodesic, as
/// `CLLocation.distance(from:)` does), so a point exactly at the radius is inside.
open class CLCircularRegion: CLRegion, @unchecked Sendable {
    /// The circle's centre.
    public let center: CLLocationCoordinate2D
    /// The circle's radius in metres.
    public let radius: CLLocationDistance

    /// A circle of `radius` metres around `center`, named `identifier`. A negative or non-finite
    /// radius is taken as 0 (Core Location clamps it too), so the region holds only its centre.
    public init(center: CLLocationCoordinate2D, radius: CLLocationDistance, identifier: String) {
        self.center = center
        self.radius = radius.isFinite && radius > 0 ? radius : 0
        super.init(identifier: identifier)
    }

    /// Whether `coordinate` is within ``radius`` metres of ``center``; false for an invalid
    /// coordinate (or an invalid centre).
    open func contains(_ coordinate: CLLocationCoordinate2D) -> Bool {
        guard CLLocationCoordinate2DIsValid(coordinate), CLLocationCoordinate2DIsValid(center) else { return false }
        let distance = CLLocation(latitude: center.latitude, longitude: center.longitude)
            .distance(from: CLLocation(latitude: coordinate.latitude, longitude: coordinate.longitude))
        return distance.isFinite && distance <= radius
    }

    override func containsLocation(_ coordinate: CLLocationCoordinate2D) -> Bool { contains(coordinate) }

    /// `CLCircularRegion (identifier: …, center: …, radius: … m)`.
    open override var description: String {
        "CLCircularRegion (identifier:'\(identifier)', center:<\(center.latitude),\(center.longitude)>, radius:\(radius)m)"
    }
}
