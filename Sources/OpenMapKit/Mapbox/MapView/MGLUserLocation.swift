// Mapbox's user location: the annotation, the location manager protocol that feeds it (bridged
// onto the engine's MKUserLocationProvider), and the Core Location types it speaks.

import Foundation
import MapGeometry

/// A heading reading (Core Location's `CLHeading`), as a location manager reports it.
///
/// Differs from Core Location: a plain value object built by whoever reads the compass; there
/// are no raw magnetometer components.
public final class CLHeading: @unchecked Sendable, CustomStringConvertible {
    /// Degrees clockwise from magnetic north.
    public let magneticHeading: CLLocationDirection
    /// Degrees clockwise from true north; negative when unknown.
    public let trueHeading: CLLocationDirection
    /// The largest error in degrees; negative when the reading is invalid.
    public let headingAccuracy: CLLocationDirection
    /// When it was measured.
    public let timestamp: Date

    public init(magneticHeading: CLLocationDirection, trueHeading: CLLocationDirection, headingAccuracy: CLLocationDirection = 0,
                timestamp: Date = Date()) {
        (self.magneticHeading, self.trueHeading, self.headingAccuracy, self.timestamp) = (magneticHeading, trueHeading, headingAccuracy, timestamp)
    }

    public var description: String { "CLHeading(true: \(trueHeading)°, magnetic: \(magneticHeading)°, ±\(headingAccuracy)°)" }
}

/// Whether the app may use location (Core Location's `CLAuthorizationStatus`).
public enum CLAuthorizationStatus: Int32, Sendable, Hashable {
    case notDetermined = 0
    case restricted = 1
    case denied = 2
    case authorizedAlways = 3
    case authorizedWhenInUse = 4
}

/// What a location manager tells the map view (Mapbox's `MGLLocationManagerDelegate`). The map
/// view sets itself as its manager's delegate; a manager calls these on the map view's thread.
public protocol MGLLocationManagerDelegate: AnyObject {
    /// New locations, oldest first (the map view uses the last).
    func locationManager(_ manager: any MGLLocationManager, didUpdate locations: [CLLocation])
    /// A new heading.
    func locationManager(_ manager: any MGLLocationManager, didUpdate newHeading: CLHeading)
    /// Whether to show the compass calibration prompt (never shown here).
    func locationManagerShouldDisplayHeadingCalibration(_ manager: any MGLLocationManager) -> Bool
    /// Locating failed.
    func locationManager(_ manager: any MGLLocationManager, didFailWithError error: any Error)
    /// The authorisation changed.
    func locationManagerDidChangeAuthorization(_ manager: any MGLLocationManager)
}

/// A source of locations and headings for a map view (Mapbox's `MGLLocationManager`).
///
/// Differs from Mapbox: a Swift protocol whose optional members (filters, accuracy, activity
/// type) are left out; there is no Core Location on Linux, so the default manager reports that
/// locating is unavailable: give the map view one of your own (a GPS reader, a replayed track).
public protocol MGLLocationManager: AnyObject {
    /// Where to send locations and headings; the map view sets it.
    var delegate: (any MGLLocationManagerDelegate)? { get set }
    /// Whether locations may be used.
    var authorizationStatus: CLAuthorizationStatus { get }
    func requestAlwaysAuthorization()
    func requestWhenInUseAuthorization()
    func startUpdatingLocation()
    func stopUpdatingLocation()
    func startUpdatingHeading()
    func stopUpdatingHeading()
    func dismissHeadingCalibrationDisplay()
}

/// The default location manager: Linux has no Core Location, so starting reports an error.
final class MGLUnavailableLocationManager: MGLLocationManager {
    weak var delegate: (any MGLLocationManagerDelegate)?
    var authorizationStatus: CLAuthorizationStatus { .restricted }
    func requestAlwaysAuthorization() {}
    func requestWhenInUseAuthorization() {}
    func startUpdatingLocation() {
        delegate?.locationManager(self, didFailWithError: MKError(.unknown, reason: "there is no Core Location on Linux: give the map view a locationManager"))
    }
    func stopUpdatingLocation() {}
    func startUpdatingHeading() {}
    func stopUpdatingHeading() {}
    func dismissHeadingCalibrationDisplay() {}
}

/// Feeds a Mapbox location manager's reports to the engine as an ``MKUserLocationProvider``.
final class MGLLocationManagerProvider: MKUserLocationProvider, MGLLocationManagerDelegate {
    let manager: any MGLLocationManager
    private var handler: ((MKUserLocationEvent) -> Void)?
    /// The last course reported (degrees; negative when unknown), for course tracking.
    private(set) var lastCourse: CLLocationDirection = -1

    init(manager: any MGLLocationManager) { self.manager = manager }

    func startUpdatingLocation(_ handler: @escaping (MKUserLocationEvent) -> Void) {
        self.handler = handler
        manager.delegate = self
        manager.startUpdatingLocation()
        manager.startUpdatingHeading()
    }

    func stopUpdatingLocation() {
        manager.stopUpdatingLocation()
        manager.stopUpdatingHeading()
        handler = nil
    }

    func locationManager(_ manager: any MGLLocationManager, didUpdate locations: [CLLocation]) {
        guard let last = locations.last else { return }
        lastCourse = last.course
        handler?(.location(last))
    }

    func locationManager(_ manager: any MGLLocationManager, didUpdate newHeading: CLHeading) {
        let heading = newHeading.trueHeading >= 0 ? newHeading.trueHeading : newHeading.magneticHeading
        handler?(.heading(heading))
    }

    func locationManagerShouldDisplayHeadingCalibration(_ manager: any MGLLocationManager) -> Bool { false }

    func locationManager(_ manager: any MGLLocationManager, didFailWithError error: any Error) {
        handler?(.failure(error))
    }

    func locationManagerDidChangeAuthorization(_ manager: any MGLLocationManager) {}
}

/// The annotation for the user's location (Mapbox's `MGLUserLocation`). Its coordinate is
/// invalid until a location arrives.
///
/// Differs from Mapbox: ``heading`` comes from the location manager's `CLHeading`
/// reports (its true heading, else magnetic), kept as a ``CLHeading``.
public final class MGLUserLocation: NSObject, MGLAnnotation {
    let engineLocation: MKUserLocation

    init(engineLocation: MKUserLocation) {
        self.engineLocation = engineLocation
        super.init()
    }

    /// The latest location; nil until one arrives.
    public var location: CLLocation? { engineLocation.location }
    /// The latest heading; nil until one arrives.
    public var heading: CLHeading? {
        engineLocation.heading.map { CLHeading(magneticHeading: $0, trueHeading: $0) }
    }
    /// Whether locations are being received.
    public var isUpdating: Bool { engineLocation.isUpdating }
    /// The callout title (Mapbox's "You Are Here").
    public var title: String? = "You Are Here"
    public var subtitle: String?
    /// The location's coordinate; invalid until one arrives.
    public var coordinate: CLLocationCoordinate2D { engineLocation.coordinate }
}
