import Foundation
import MapGeometry

/// The best accuracy, for navigation (Core Location's constant).
public let kCLLocationAccuracyBestForNavigation: CLLocationAccuracy = -2
/// The best accuracy the source gives (Core Location's constant).
public let kCLLocationAccuracyBest: CLLocationAccuracy = -1
/// Within ten metres.
public let kCLLocationAccuracyNearestTenMeters: CLLocationAccuracy = 10
/// Within a hundred metres.
public let kCLLocationAccuracyHundredMeters: CLLocationAccuracy = 100
/// Within a kilometre.
public let kCLLocationAccuracyKilometer: CLLocationAccuracy = 1000
/// Within three kilometres.
public let kCLLocationAccuracyThreeKilometers: CLLocationAccuracy = 3000
/// Core Location's reduced accuracy (three kilometres).
public let kCLLocationAccuracyReduced: CLLocationAccuracy = 3000
/// No distance filter: every location is reported.
public let kCLDistanceFilterNone: CLLocationDistance = -1

/// How precisely the app may know the location (Core Location's `CLAccuracyAuthorization`).
public enum CLAccuracyAuthorization: Int, Sendable, Hashable {
    /// Full accuracy (always, on Linux).
    case fullAccuracy = 0
    /// Approximate locations only.
    case reducedAccuracy = 1
}

/// What a ``CLLocationManager`` tells its delegate (Core Location's `CLLocationManagerDelegate`).
/// Every method has a default that does nothing, as Core Location's are optional.
public protocol CLLocationManagerDelegate: AnyObject {
    /// New locations, oldest first.
    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation])
    /// A new heading.
    func locationManager(_ manager: CLLocationManager, didUpdateHeading newHeading: CLHeading)
    /// Locating failed: `error` is a `CLError` saying why (for example that gpsd is not running).
    func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error)
    /// The authorisation was reported (on Linux it never changes: see
    /// ``CLLocationManager/authorizationStatus``).
    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager)
    /// The location came into a monitored region.
    func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion)
    /// The location left a monitored region.
    func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion)
    /// A region's state became known or changed, or ``CLLocationManager/requestState(for:)`` asked.
    func locationManager(_ manager: CLLocationManager, didDetermineState state: CLRegionState, for region: CLRegion)
    /// Monitoring of a region started.
    func locationManager(_ manager: CLLocationManager, didStartMonitoringFor region: CLRegion)
    /// A region cannot be monitored.
    func locationManager(_ manager: CLLocationManager, monitoringDidFailFor region: CLRegion?, withError error: any Error)
}

extension CLLocationManagerDelegate {
    /// Does nothing.
    public func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {}
    /// Does nothing.
    public func locationManager(_ manager: CLLocationManager, didUpdateHeading newHeading: CLHeading) {}
    /// Does nothing.
    public func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {}
    /// Does nothing.
    public func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {}
    /// Does nothing.
    public func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion) {}
    /// Does nothing.
    public func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion) {}
    /// Does nothing.
    public func locationManager(_ manager: CLLocationManager, didDetermineState state: CLRegionState, for region: CLRegion) {}
    /// Does nothing.
    public func locationManager(_ manager: CLLocationManager, didStartMonitoringFor region: CLRegion) {}
    /// Does nothing.
    public func locationManager(_ manager: CLLocationManager, monitoringDidFailFor region: CLRegion?, withError error: any Error) {}
}

/// Core Location's location manager, over the same location providers the map views read
/// (``MKUserLocationProvider``): a fixed location (``MKFixedLocationProvider``), a replayed GPX or
/// NMEA track (``MKReplayedLocationProvider``), or gpsd (``MKGPSDLocationProvider``, the default).
///
/// ```swift
/// let manager = CLLocationManager(provider: try MKReplayedLocationProvider(gpxFile: url))
/// manager.delegate = self
/// manager.distanceFilter = 10
/// manager.startUpdatingLocation()
/// ```
///
/// - ``startUpdatingLocation()`` reports every location from the provider that lies at least
///   ``distanceFilter`` metres from the last one reported; ``location`` is always the latest.
/// - ``requestLocation()`` reports one location: the first as accurate as ``desiredAccuracy``
///   (a negative accuracy such as ``kCLLocationAccuracyBest`` takes the first), or, if the
///   source ends or fails first, the most accurate seen; with none, `didFailWithError`.
/// - ``startMonitoring(for:)`` watches a ``CLCircularRegion``: the first location gives its state
///   (`didDetermineState`, no entry or exit event, as Core Location does not report crossing into
///   the state it starts in); each later crossing sends `didEnterRegion` / `didExitRegion` (when
///   ``CLRegion/notifyOnEntry`` / ``CLRegion/notifyOnExit`` allow) and `didDetermineState`.
///
/// The delegate is called on the queue the provider reports on: synchronously for a fixed
/// provider, the main queue for the replay's timer and gpsd.
///
/// **Authorisation.** Linux has no location permission: ``authorizationStatus`` is always
/// `.authorizedAlways` and ``accuracyAuthorization`` `.fullAccuracy`; the `request…Authorization`
/// methods prompt nobody and report that status to `locationManagerDidChangeAuthorization`.
///
/// Differs from Core Location: one provider instance feeds one consumer (a map view or a manager),
/// since ``MKUserLocationProvider`` hands each start a single handler; give each its own. Not
/// available, because nothing on Linux provides them: significant-change and visit monitoring,
/// beacons and ranging, background updates (`allowsBackgroundLocationUpdates`,
/// `pausesLocationUpdatesAutomatically`, `activityType`), deferred updates and heading filters.
/// ``desiredAccuracy`` cannot make a source more accurate; it chooses what ``requestLocation()``
/// waits for.
open class CLLocationManager: NSObject {
    /// Where locations come from (an OpenMapKit addition).
    public let provider: any MKUserLocationProvider
    /// The object told about locations, failures and regions.
    open weak var delegate: (any CLLocationManagerDelegate)?
    /// The least distance in metres between reported locations; ``kCLDistanceFilterNone`` (the
    /// default) or any value that is not positive reports every location.
    open var distanceFilter: CLLocationDistance = kCLDistanceFilterNone
    /// The accuracy ``requestLocation()`` waits for (default ``kCLLocationAccuracyBest``).
    open var desiredAccuracy: CLLocationAccuracy = kCLLocationAccuracyBest
    /// The latest location from the provider; nil until one arrives.
    open private(set) var location: CLLocation?
    /// The latest heading from the provider; nil until one arrives.
    open private(set) var heading: CLHeading?
    /// The regions being monitored.
    open private(set) var monitoredRegions: Set<CLRegion> = []
    /// The largest region radius that can be monitored (any: regions are checked by distance).
    open var maximumRegionMonitoringDistance: CLLocationDistance { CLLocationDistanceMax }

    private var updating = false
    private var providerRunning = false
    private var lastReported: CLLocation?
    private var regionStates: [String: CLRegionState] = [:]
    /// Whether a ``requestLocation()`` waits, and the most accurate location it has seen.
    private var requestPending = false
    private var requestBest: CLLocation?

    /// A manager reading gpsd on `localhost:2947` (see ``MKGPSDLocationProvider``); when gpsd is
    /// not running, starting reports that through `didFailWithError`.
    public override convenience init() {
        self.init(provider: MKGPSDLocationProvider())
    }

    /// A manager reading `provider` (an OpenMapKit addition).
    public init(provider: any MKUserLocationProvider) {
        self.provider = provider
        super.init()
    }

    // MARK: - Authorisation

    /// Always `.authorizedAlways`: Linux has no location permission to ask for.
    open var authorizationStatus: CLAuthorizationStatus { .authorizedAlways }
    /// Always `.fullAccuracy`.
    open var accuracyAuthorization: CLAccuracyAuthorization { .fullAccuracy }
    /// Always `.authorizedAlways` (Core Location's deprecated class form).
    open class func authorizationStatus() -> CLAuthorizationStatus { .authorizedAlways }
    /// Always true: a provider is always configured.
    open class func locationServicesEnabled() -> Bool { true }
    /// True for ``CLCircularRegion``, the region kind that can be monitored.
    open class func isMonitoringAvailable(for regionClass: AnyClass) -> Bool { regionClass is CLCircularRegion.Type }
    /// Always true: headings come from the provider when it has them.
    open class func headingAvailable() -> Bool { true }

    /// Prompts nobody; reports the (always authorised) status to the delegate.
    open func requestWhenInUseAuthorization() { delegate?.locationManagerDidChangeAuthorization(self) }
    /// Prompts nobody; reports the (always authorised) status to the delegate.
    open func requestAlwaysAuthorization() { delegate?.locationManagerDidChangeAuthorization(self) }

    // MARK: - Locations

    /// Starts reporting locations to the delegate.
    open func startUpdatingLocation() {
        updating = true
        lastReported = nil
        startProvider()
    }

    /// Stops reporting locations (the provider stops unless a region or a request still needs it).
    open func stopUpdatingLocation() {
        updating = false
        stopProviderIfIdle()
    }

    /// Reports one location (see the class's discussion), then stops unless updates are on.
    open func requestLocation() {
        requestPending = true
        requestBest = nil
        // A fixed location already started reports nothing new: its location is the answer.
        if providerRunning, let fixed = provider as? MKFixedLocationProvider { return finishRequest(with: fixed.location) }
        startProvider()
    }

    /// Headings come with locations from the provider; kept for Core Location's callers.
    open func startUpdatingHeading() {}
    /// Headings come with locations from the provider; kept for Core Location's callers.
    open func stopUpdatingHeading() {}

    // MARK: - Regions

    /// Starts watching `region` (a ``CLCircularRegion``; another kind fails with
    /// `regionMonitoringFailure`). A region with the identifier of one watched replaces it.
    open func startMonitoring(for region: CLRegion) {
        guard region is CLCircularRegion else {
            delegate?.locationManager(self, monitoringDidFailFor: region, withError: CLError(.regionMonitoringFailure, reason: "only CLCircularRegion can be monitored"))
            return
        }
        monitoredRegions.remove(region)
        monitoredRegions.insert(region)
        regionStates[region.identifier] = nil
        delegate?.locationManager(self, didStartMonitoringFor: region)
        if let location { updateState(of: region, at: location, initial: true) }
        startProvider()
    }

    /// Stops watching `region` (by identifier).
    open func stopMonitoring(for region: CLRegion) {
        monitoredRegions.remove(region)
        regionStates[region.identifier] = nil
        stopProviderIfIdle()
    }

    /// Reports `region`'s state for the latest location to `didDetermineState` (`.unknown` before
    /// any location).
    open func requestState(for region: CLRegion) {
        let state: CLRegionState = location.map { region.containsLocation($0.coordinate) ? .inside : .outside } ?? .unknown
        delegate?.locationManager(self, didDetermineState: state, for: region)
    }

    // MARK: - The provider

    private func startProvider() {
        guard !providerRunning else { return }
        providerRunning = true
        provider.startUpdatingLocation { [weak self] event in self?.receive(event) }
    }

    private func stopProviderIfIdle() {
        guard providerRunning, !updating, !requestPending, monitoredRegions.isEmpty else { return }
        providerRunning = false
        provider.stopUpdatingLocation()
    }

    private func receive(_ event: MKUserLocationEvent) {
        switch event {
        case .location(let new):
            guard CLLocationCoordinate2DIsValid(new.coordinate) else {
                delegate?.locationManager(self, didFailWithError: CLError(.locationUnknown, reason: "the provider gave an invalid coordinate"))
                return
            }
            location = new
            let reported = updating && passesDistanceFilter(new)
            if reported {
                lastReported = new
                delegate?.locationManager(self, didUpdateLocations: [new])
            }
            if requestPending {
                let accurateEnough = desiredAccuracy < 0 || (new.horizontalAccuracy >= 0 && new.horizontalAccuracy <= desiredAccuracy)
                if accurateEnough {
                    finishRequest(with: new, alreadyReported: reported)
                } else if requestBest.map({ new.horizontalAccuracy >= 0 && new.horizontalAccuracy < $0.horizontalAccuracy }) ?? true {
                    requestBest = new
                }
                // A replay that has ended will give nothing better.
                if requestPending, let replay = provider as? MKReplayedLocationProvider, replay.isFinished {
                    finishRequest(with: requestBest)
                }
            }
            for region in monitoredRegions { updateState(of: region, at: new, initial: false) }
        case .heading(let direction):
            let reading = CLHeading(magneticHeading: direction, trueHeading: direction)
            heading = reading
            delegate?.locationManager(self, didUpdateHeading: reading)
        case .failure(let error):
            if requestPending {
                finishRequest(with: requestBest, error: error)
            } else {
                delegate?.locationManager(self, didFailWithError: error)
            }
        }
    }

    private func finishRequest(with location: CLLocation?, alreadyReported: Bool = false, error: (any Error)? = nil) {
        requestPending = false
        requestBest = nil
        if let location {
            // Updates that just told the delegate about this location need not tell it twice.
            if !alreadyReported { delegate?.locationManager(self, didUpdateLocations: [location]) }
        } else {
            delegate?.locationManager(self, didFailWithError: error ?? CLError(.locationUnknown, reason: "the provider gave no location"))
        }
        stopProviderIfIdle()
    }

    private func passesDistanceFilter(_ new: CLLocation) -> Bool {
        guard distanceFilter > 0, let lastReported else { return true }
        let distance = new.distance(from: lastReported)
        return !distance.isFinite || distance >= distanceFilter
    }

    private func updateState(of region: CLRegion, at location: CLLocation, initial: Bool) {
        let state: CLRegionState = region.containsLocation(location.coordinate) ? .inside : .outside
        let previous = regionStates[region.identifier]
        guard previous != state else { return }
        regionStates[region.identifier] = state
        if let previous, previous != .unknown {
            if state == .inside, region.notifyOnEntry { delegate?.locationManager(self, didEnterRegion: region) }
            if state == .outside, region.notifyOnExit { delegate?.locationManager(self, didExitRegion: region) }
        }
        delegate?.locationManager(self, didDetermineState: state, for: region)
    }
}
