// MKMapView's configuration (map type, points of interest, display switches) and the user's
// location from an injectable provider, with the tracking modes.

import Foundation
import MapGeometry

/// Where a map view gets the user's location (an OpenMapKit addition standing in for Core
/// Location): a GPS reader, a replayed track, a fixed test location.
///
/// The map view calls ``startUpdatingLocation(_:)`` when it starts looking for the user and
/// ``stopUpdatingLocation()`` when it stops; the provider passes each event to the handler on the
/// map view's thread (synchronously from `start` is fine).
public protocol MKUserLocationProvider: AnyObject {
    func startUpdatingLocation(_ handler: @escaping (MKUserLocationEvent) -> Void)
    func stopUpdatingLocation()
}

/// What a location provider reports.
/// (An OpenMapKit addition, for ``MKUserLocationProvider``.)
public enum MKUserLocationEvent {
    /// A new location.
    case location(CLLocation)
    /// A new heading, degrees clockwise from true north.
    case heading(CLLocationDirection)
    /// Locating failed (the map keeps its last location, if any).
    case failure(any Error)
}

extension MKMapView {
    // MARK: - Configuration

    /// The map's configuration: standard (default or muted, with a POI filter), hybrid or imagery.
    public var preferredConfiguration: MKMapConfiguration {
        get { configurationState.configuration }
        set { configurationState.configuration = newValue }
    }

    /// The kind of map; setting it replaces ``preferredConfiguration`` with the matching one.
    public var mapType: MKMapType {
        get { configurationState.configuration.mapType }
        set { configurationState.configuration = newValue.configuration }
    }

    /// Which points of interest are shown; nil leaves it to the configuration (all by default).
    public var pointOfInterestFilter: MKPointOfInterestFilter? {
        get { configurationState.pointOfInterestFilter }
        set { configurationState.pointOfInterestFilter = newValue }
    }

    /// Whether points of interest are shown (MapKit's deprecated switch: false is
    /// ``MKPointOfInterestFilter/excludingAll``).
    public var showsPointsOfInterest: Bool {
        get { !((configurationState.pointOfInterestFilter ?? preferredConfiguration.configurationPointOfInterestFilter)?.isExcludingAll ?? false) }
        set { configurationState.pointOfInterestFilter = newValue ? nil : .excludingAll }
    }

    /// Whether buildings are drawn (default true).
    public var showsBuildings: Bool {
        get { configurationState.showsBuildings }
        set { configurationState.showsBuildings = newValue }
    }
    /// Whether traffic is drawn (default false; there is no traffic data on Linux, so nothing is).
    public var showsTraffic: Bool {
        get { configurationState.showsTraffic }
        set { configurationState.showsTraffic = newValue }
    }
    /// Whether the compass is drawn while the map is rotated (default true): MapKit's dark round
    /// button with a red needle pointing to north, in the top-right corner; a tap on it turns the
    /// map north up (see MapViewOrnaments.swift).
    public var showsCompass: Bool {
        get { configurationState.showsCompass }
        set { configurationState.showsCompass = newValue }
    }
    /// Whether the scale bar is drawn (default false), in the top-left corner, in ``scaleUnits``.
    /// MapKit shows it only while the map zooms; ``render()`` draws it on every frame while this
    /// is true.
    public var showsScale: Bool {
        get { configurationState.showsScale }
        set { configurationState.showsScale = newValue }
    }
    /// Whether the zoom control is drawn (default false; MapKit has it on macOS): "+" over "−"
    /// at the bottom right, above the legal label; a tap on "+" zooms in one level, on "−" out
    /// (see ``zoomControlFrame``). Not drawn while ``isZoomEnabled`` is false.
    public var showsZoomControls: Bool {
        get { configurationState.showsZoomControls }
        set { configurationState.showsZoomControls = newValue }
    }
    /// Whether the pitch button is drawn (default false; MapKit's `pitchButtonVisibility` on iOS):
    /// "3D" on a flat map, "2D" on a tilted one, at the top right; a tap tilts or flattens the
    /// map (see ``pitchControlFrame``). Not drawn while ``isPitchEnabled`` is false.
    public var showsPitchControl: Bool {
        get { configurationState.showsPitchControl }
        set { configurationState.showsPitchControl = newValue }
    }
    /// Whether the user-tracking button is drawn (default false): the location arrow at the top
    /// right, over the pitch button, outlined while not following and filled while following; a
    /// tap cycles ``userTrackingMode`` (see ``userTrackingButtonFrame``).
    public var showsUserTrackingButton: Bool {
        get { configurationState.showsUserTrackingButton }
        set { configurationState.showsUserTrackingButton = newValue }
    }

    // MARK: - User location

    /// Where the user's location comes from (an OpenMapKit addition). Replacing it while the map
    /// shows the user's location stops the old provider and starts the new one.
    public var userLocationProvider: (any MKUserLocationProvider)? {
        get { locationState.provider }
        set {
            let showing = showsUserLocation
            if showing { locationState.provider?.stopUpdatingLocation() }
            locationState.provider = newValue
            if showing { startProvider() }
        }
    }

    /// The annotation for the user's location (its coordinate is invalid until a location arrives).
    public var userLocation: MKUserLocation { locationState.userLocation }

    /// Whether the map looks for the user's location and shows it (default false). Turning it on
    /// calls `mapViewWillStartLocatingUser` and starts the provider (with no provider,
    /// `didFailToLocateUserWithError` follows); turning it off stops the provider, removes the
    /// user-location annotation, ends tracking and calls `mapViewDidStopLocatingUser`.
    public var showsUserLocation: Bool {
        get { locationState.showsUserLocation }
        set {
            guard newValue != locationState.showsUserLocation else { return }
            locationState.showsUserLocation = newValue
            withCallbacks {
                if newValue {
                    userLocation.isUpdating = true
                    delegate?.mapViewWillStartLocatingUser(self)
                    startProvider()
                } else {
                    locationState.provider?.stopUpdatingLocation()
                    userLocation.isUpdating = false
                    if locationState.userTrackingMode != .none { setUserTrackingMode(.none, animated: false) }
                    removeAnnotation(userLocation)
                    delegate?.mapViewDidStopLocatingUser(self)
                }
            }
        }
    }

    /// Whether the user's location, with its accuracy, touches the visible area; false when unknown.
    public var isUserLocationVisible: Bool {
        guard showsUserLocation, let location = userLocation.location, CLLocationCoordinate2DIsValid(location.coordinate) else { return false }
        let p = MKMapPoint(location.coordinate)
        let radius = max(location.horizontalAccuracy, 0) * MKMapPointsPerMeterAtLatitude(location.coordinate.latitude)
        return intersectAcross180thMeridian(MKMapRect(x: p.x - radius, y: p.y - radius, width: 2 * radius, height: 2 * radius), visibleMapRect)
    }

    /// How the map follows the user (default none).
    public var userTrackingMode: MKUserTrackingMode {
        get { locationState.userTrackingMode }
        set { setUserTrackingMode(newValue, animated: false) }
    }

    /// Sets the tracking mode and reports it (`didChange mode`). Following turns
    /// ``showsUserLocation`` on; once a location is known the map centres on it (zooming in to
    /// street level if it is farther out), and with `followWithHeading` turns to the heading.
    /// `animated` applies to this change only: later location updates always animate.
    public func setUserTrackingMode(_ mode: MKUserTrackingMode, animated: Bool) {
        guard mode != locationState.userTrackingMode else { return }
        locationState.userTrackingMode = mode
        withCallbacks {
            delegate?.mapView(self, didChange: mode, animated: animated)
            guard mode != .none else { return }
            if !showsUserLocation { showsUserLocation = true }
            follow(animated: animated, zoomIn: true)
        }
    }

    /// The tracking mode a user's pan or rotation ends: following stops, rotation with heading
    /// falls back to following.
    func userInteractionInterruptsTracking(panned: Bool) {
        let mode = locationState.userTrackingMode
        if panned, mode != .none { setUserTrackingMode(.none, animated: true) }
        if !panned, mode == .followWithHeading { setUserTrackingMode(.follow, animated: true) }
    }

    private func startProvider() {
        guard let provider = locationState.provider else {
            delegate?.mapView(self, didFailToLocateUserWithError: MKError(.unknown, reason: "the map view has no userLocationProvider"))
            return
        }
        provider.startUpdatingLocation { [weak self, weak provider] event in
            guard let self, let provider, self.locationState.provider === provider, self.showsUserLocation else { return }
            self.receive(event)
        }
    }

    private func receive(_ event: MKUserLocationEvent) {
        withCallbacks {
            switch event {
            case .location(let location):
                guard location.coordinate.latitude.isFinite, location.coordinate.longitude.isFinite,
                      CLLocationCoordinate2DIsValid(location.coordinate) else {
                    delegate?.mapView(self, didFailToLocateUserWithError: MKError(.unknown, reason: "the location provider gave an invalid coordinate"))
                    return
                }
                userLocation.location = location
                if !annotationStore.contains(userLocation) { addAnnotation(userLocation) } else { updateVisibleContent() }
                delegate?.mapView(self, didUpdate: userLocation)
                follow(animated: true, zoomIn: false)
            case .heading(let heading):
                guard heading.isFinite else { return }
                userLocation.heading = MKMapView.normalizedHeading(heading)
                if locationState.userTrackingMode == .followWithHeading {
                    delegate?.mapView(self, didUpdate: userLocation)
                    follow(animated: true, zoomIn: false)
                }
            case .failure(let error):
                delegate?.mapView(self, didFailToLocateUserWithError: error)
            }
        }
    }

    /// Moves the camera to the user as the tracking mode says.
    private func follow(animated: Bool, zoomIn: Bool) {
        let mode = locationState.userTrackingMode
        guard mode != .none, let location = userLocation.location else { return }
        requestCameraChange { [self] in
            var target = currentTarget
            target.centerCoordinate = location.coordinate
            if zoomIn, target.zoomLevel < MKMapView.trackingZoomLevel - 1 { target.zoomLevel = MKMapView.trackingZoomLevel }
            if mode == .followWithHeading, let heading = userLocation.heading { target.heading = heading }
            if let placement = locationState.followPlacement { target = placement(location, target) }
            apply(target, animated: animated)
        }
    }

    /// The zoom level following starts at when the map is farther out.
    static let trackingZoomLevel = 16.0
}

/// The configuration switches a map view keeps (they affect drawing, not the camera).
struct MapViewConfigurationState {
    var configuration: MKMapConfiguration = MKStandardMapConfiguration()
    var pointOfInterestFilter: MKPointOfInterestFilter?
    var showsBuildings = true
    var showsTraffic = false
    var showsCompass = true
    var showsScale = false
    var scaleUnits = MKDistanceFormatter.Units.metric
    var showsZoomControls = false
    var showsPitchControl = false
    var showsUserTrackingButton = false
    var userInterfaceStyle = UIUserInterfaceStyle.unspecified
    /// Where the ornaments sit (MapKit's layout unless a face sets its own).
    var ornaments = MapViewOrnamentLayout.mapKit
    /// The attribution lines of a layout that draws one.
    var attribution: [String] = []
}

/// The user-location state of a map view.
struct MapViewLocationState {
    var provider: (any MKUserLocationProvider)?
    let userLocation = MKUserLocation()
    var showsUserLocation = false
    var userTrackingMode = MKUserTrackingMode.none
    /// A face's own placement of the followed location (Mapbox's vertical alignment, content
    /// inset, course and target coordinate): given the location and the viewport following
    /// would show (centred on it), the viewport to show instead.
    var followPlacement: ((CLLocation, MapViewport) -> MapViewport)?
}
