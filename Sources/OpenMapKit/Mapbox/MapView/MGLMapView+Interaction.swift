// MGLMapView's gestures (as calls, with Mapbox's switches), ornaments (drawn by the engine's
// ornament code at Mapbox's positions) and the user's location (the engine's, fed by a Mapbox
// location manager).

import Foundation
import MapGeometry

/// When an ornament shows (Mapbox's `MGLOrnamentVisibility`).
public enum MGLOrnamentVisibility: Int, Sendable, Hashable {
    /// As the map needs (the compass: while the map is rotated).
    case adaptive = 0
    /// Never.
    case hidden = 1
    /// Always.
    case visible = 2
}

/// An ornament of a map view (the scale bar, the logo, the attribution): where it is drawn and
/// whether it is hidden (Mapbox's `UIView`, `UIImageView` and `UIButton` ornaments).
///
/// Differs from Mapbox: a model with ``isHidden`` and ``frame`` only; the map view draws it.
public final class MGLOrnamentView {
    private let frameProvider: () -> CGRect?
    private let hiddenChanged: (Bool) -> Void

    init(frame: @escaping () -> CGRect?, hiddenChanged: @escaping (Bool) -> Void = { _ in }) {
        frameProvider = frame
        self.hiddenChanged = hiddenChanged
    }

    /// Whether it is hidden (not drawn).
    public var isHidden = false {
        didSet { hiddenChanged(isHidden) }
    }

    /// Where it is drawn now, in the map view's points; `.null` while it is not drawn.
    public var frame: CGRect { frameProvider() ?? .null }
}

/// The compass of a map view (Mapbox's `MGLCompassButton`): shows the heading; a tap turns the
/// map north up.
///
/// Differs from Mapbox: a model (not a `UIImageView`); taps arrive through the map view's
/// ``MGLMapView/tap(at:)``.
public final class MGLCompassButton {
    private unowned let mapView: MGLMapView

    init(mapView: MGLMapView) { self.mapView = mapView }

    /// When it shows: adaptive (while the map is rotated, the default), always or never.
    public var compassVisibility = MGLOrnamentVisibility.adaptive {
        didSet { mapView.updateCompass() }
    }

    /// Whether it is hidden regardless of ``compassVisibility``.
    public var isHidden = false {
        didSet { mapView.updateCompass() }
    }

    /// Where it is drawn now; `.null` while it is not drawn.
    public var frame: CGRect { mapView.engine.compassFrame ?? .null }
}

extension MGLMapView {
    // MARK: - Gesture switches

    /// Whether the user may zoom (default true; code may zoom regardless).
    public var isZoomEnabled: Bool {
        get { engine.isZoomEnabled }
        set { engine.isZoomEnabled = newValue }
    }

    /// Whether the user may pan (default true; code may move the map regardless).
    public var isScrollEnabled: Bool {
        get { engine.isScrollEnabled }
        set { engine.isScrollEnabled = newValue }
    }

    /// Whether the user may rotate (default true; code may rotate regardless).
    public var isRotateEnabled: Bool {
        get { gestureSwitches.rotate }
        set { gestureSwitches.rotate = newValue }
    }

    /// Whether the user may tilt (default true; code may tilt regardless).
    public var isPitchEnabled: Bool {
        get { gestureSwitches.pitch }
        set { gestureSwitches.pitch = newValue }
    }

    /// Which ways a pan may move the map (default both).
    public var panScrollingMode: MGLPanScrollingMode {
        get { gestureSwitches.panScrollingMode }
        set { gestureSwitches.panScrollingMode = newValue }
    }

    /// Whether pinches and rotations turn about the centre of the content area instead of the
    /// fingers (default false).
    public var anchorRotateOrZoomGesturesToCenterCoordinate: Bool {
        get { gestureSwitches.anchorToCenter }
        set { gestureSwitches.anchorToCenter = newValue }
    }

    /// Whether rotating to north gives a haptic tap (default true). Kept, with no effect: there is
    /// no haptic hardware on Linux.
    public var isHapticFeedbackEnabled: Bool {
        get { gestureSwitches.haptics }
        set { gestureSwitches.haptics = newValue }
    }

    /// How quickly a released pan slows down: UIScrollView's per-millisecond factor, so a pan
    /// coasts for r / (1 − r) milliseconds of its release speed (``MGLMapViewDecelerationRateNormal``
    /// ≈ 0.5 s, ``MGLMapViewDecelerationRateFast`` ≈ 0.1 s, ``MGLMapViewDecelerationRateImmediate``
    /// stops at once).
    public var decelerationRate: CGFloat {
        get { gestureSwitches.decelerationRate }
        set {
            let rate = newValue.isFinite ? min(max(newValue, 0), 0.9999) : MGLMapViewDecelerationRateNormal
            gestureSwitches.decelerationRate = rate
            engine.decelerationTime = Double(rate / (1 - rate)) / 1000
        }
    }

    // MARK: - Gestures (OpenMapKit additions)

    /// Starts a gesture (finger down); see ``MKMapView/beginGesture()``.
    public func beginGesture() { engine.beginGesture() }

    /// Ends the gesture; with a release velocity the map coasts as ``decelerationRate`` says.
    public func endGesture(velocity: CGPoint = .zero) { engine.endGesture(velocity: velocity) }

    /// A pan: the content moves by `translation` points, only horizontally or vertically as
    /// ``panScrollingMode`` allows. Ignored when ``isScrollEnabled`` is false. A pan stops user
    /// tracking.
    public func pan(by translation: CGPoint) {
        var t = translation
        switch panScrollingMode {
        case .horizontal: t.y = 0
        case .vertical: t.x = 0
        case .default: break
        }
        engine.pan(by: t)
    }

    /// A pinch: zooms by `scale` (2: one level in) about `point` — or the content area's centre
    /// with ``anchorRotateOrZoomGesturesToCenterCoordinate``, or the user's location while
    /// tracking. Ignored when ``isZoomEnabled`` is false.
    public func pinch(scale: CGFloat, around point: CGPoint) {
        engine.pinch(scale: scale, around: gestureAnchor(point))
    }

    /// A rotation by `degrees` clockwise about `point` (anchored as ``pinch(scale:around:)``).
    /// Ignored when ``isRotateEnabled`` is false.
    public func rotate(by degrees: CLLocationDirection, around point: CGPoint) {
        guard isRotateEnabled else { return }
        engine.rotate(by: degrees, around: gestureAnchor(point))
    }

    /// A two-finger drag tilting the map by `degrees`. Ignored when ``isPitchEnabled`` is false.
    public func tilt(by degrees: Double) {
        guard isPitchEnabled else { return }
        engine.tilt(by: degrees)
    }

    /// A double tap: zooms in one level about `point` (anchored as ``pinch(scale:around:)``).
    public func doubleTap(at point: CGPoint) { engine.doubleTap(at: gestureAnchor(point)) }

    /// A two-finger tap: zooms out one level (anchored as ``pinch(scale:around:)``).
    public func twoFingerTap(at point: CGPoint) { engine.twoFingerTap(at: gestureAnchor(point)) }

    /// A tap: on the selected annotation's callout, `tapOnCalloutFor`; on the compass, north up;
    /// on an annotation, selects it (animated); on the bare map, deselects.
    public func tap(at point: CGPoint) {
        if let frame = engine.selectedCalloutFrame(), frame.contains(point),
           let selected = engine.selectedAnnotations.first as? MGLPointAdapter {
            engine.withCallbacks { delegate?.mapView(self, tapOnCalloutFor: selected.annotation) }
            return
        }
        if let view = engine.annotationView(at: point), let adapter = view.annotation as? MGLPointAdapter, !engine.isOnCompass(point) {
            selectAnnotation(adapter.annotation, animated: true, completionHandler: nil)
            return
        }
        engine.tap(at: point)
    }

    /// Where a pinch or rotation at `point` turns: the user's location while tracking, the
    /// content area's centre when anchored to it, else `point`.
    func gestureAnchor(_ point: CGPoint) -> CGPoint {
        if userTrackingMode != .none, let location = userLocation?.location {
            let p = convert(location.coordinate, toPointTo: self)
            if p.x.isFinite, p.y.isFinite { return p }
        }
        if anchorRotateOrZoomGesturesToCenterCoordinate {
            return engine.viewport.paddedCenter(MKMapView.usable(contentInset, in: bounds.size))
        }
        return point
    }

    // MARK: - Ornaments

    /// Whether the scale bar may show (default false). It shows only while the view spans less
    /// than 800 km (Mapbox's rule), in metric units.
    public var showsScale: Bool {
        get { engine.showsScale }
        set { engine.showsScale = newValue }
    }

    /// The scale bar.
    public var scaleBar: MGLOrnamentView { ornamentViews.scaleBar }

    /// The scale bar's corner (default top left).
    public var scaleBarPosition: MGLOrnamentPosition {
        get { MGLMapView.position(of: engine.ornamentLayout.scale.corner) }
        set { engine.ornamentLayout.scale.corner = MGLMapView.corner(of: newValue) }
    }

    /// The scale bar's distances from its corner's edges (default 8, 8).
    public var scaleBarMargins: CGPoint {
        get { engine.ornamentLayout.scale.margins }
        set { engine.ornamentLayout.scale.margins = newValue }
    }

    /// The compass.
    public var compassView: MGLCompassButton { ornamentViews.compass }

    /// The compass's corner (default top right).
    public var compassViewPosition: MGLOrnamentPosition {
        get { MGLMapView.position(of: engine.ornamentLayout.compass.corner) }
        set { engine.ornamentLayout.compass.corner = MGLMapView.corner(of: newValue) }
    }

    /// The compass's distances from its corner's edges (default 8, 8).
    public var compassViewMargins: CGPoint {
        get { engine.ornamentLayout.compass.margins }
        set { engine.ornamentLayout.compass.margins = newValue }
    }

    /// The logo (OpenMapKit's wordmark where Mapbox's logo would be).
    public var logoView: MGLOrnamentView { ornamentViews.logo }

    /// The logo's corner (default bottom left).
    public var logoViewPosition: MGLOrnamentPosition {
        get { MGLMapView.position(of: engine.ornamentLayout.logo?.placement.corner ?? .bottomLeft) }
        set { engine.ornamentLayout.logo?.placement.corner = MGLMapView.corner(of: newValue) }
    }

    /// The logo's distances from its corner's edges (default 8, 8).
    public var logoViewMargins: CGPoint {
        get { engine.ornamentLayout.logo?.placement.margins ?? .zero }
        set { engine.ornamentLayout.logo?.placement.margins = newValue }
    }

    /// The attribution: the style's sources' notices ("© OpenStreetMap contributors" for the
    /// bundle's data), drawn as text (Mapbox's button opening a sheet).
    public var attributionButton: MGLOrnamentView { ornamentViews.attribution }

    /// The attribution's corner (default bottom right).
    public var attributionButtonPosition: MGLOrnamentPosition {
        get { MGLMapView.position(of: engine.ornamentLayout.attribution?.placement.corner ?? .bottomRight) }
        set { engine.ornamentLayout.attribution?.placement.corner = MGLMapView.corner(of: newValue) }
    }

    /// The attribution's distances from its corner's edges (default 8, 8).
    public var attributionButtonMargins: CGPoint {
        get { engine.ornamentLayout.attribution?.placement.margins ?? .zero }
        set { engine.ornamentLayout.attribution?.placement.margins = newValue }
    }

    /// The attribution's text now: the style's sources' notices, in order, each once (an
    /// OpenMapKit addition; Mapbox shows them in a sheet).
    public var attributionText: String { (style?.attributions ?? []).joined(separator: " ") }

    func updateCompass() {
        let compass = ornamentViews.compass
        engine.ornamentLayout.compassVisibility = compass.isHidden ? .hidden
            : MKFeatureVisibility(rawValue: compass.compassVisibility.rawValue) ?? .adaptive
    }

    static func position(of corner: MapViewOrnamentLayout.Corner) -> MGLOrnamentPosition {
        switch corner {
        case .topLeft: .topLeft
        case .topRight: .topRight
        case .bottomLeft: .bottomLeft
        case .bottomRight: .bottomRight
        }
    }

    static func corner(of position: MGLOrnamentPosition) -> MapViewOrnamentLayout.Corner {
        switch position {
        case .topLeft: .topLeft
        case .topRight: .topRight
        case .bottomLeft: .bottomLeft
        case .bottomRight: .bottomRight
        }
    }

    // MARK: - User location

    /// Where locations come from (default: one that reports that Linux has no Core Location).
    /// Set yours before ``showsUserLocation``; nil restores the default.
    public var locationManager: (any MGLLocationManager)! {
        get { storedLocationManager }
        set {
            storedLocationManager = newValue ?? MGLUnavailableLocationManager()
            engine.userLocationProvider = MGLLocationManagerProvider(manager: storedLocationManager)
        }
    }

    /// Whether the map looks for the user and shows their location (default false).
    public var showsUserLocation: Bool {
        get { engine.showsUserLocation }
        set { engine.showsUserLocation = newValue }
    }

    /// The annotation for the user's location; nil while ``showsUserLocation`` is false.
    public var userLocation: MGLUserLocation? {
        guard showsUserLocation else { return nil }
        return mglUserLocation
    }

    /// Whether the user's location (with its accuracy) is in view.
    public var isUserLocationVisible: Bool { engine.isUserLocationVisible }

    /// How the map follows the user (default none). Setting it animates.
    public var userTrackingMode: MGLUserTrackingMode {
        get { trackingMode }
        set { setUserTrackingMode(newValue, animated: true, completionHandler: nil) }
    }

    /// Sets the tracking mode (deprecated in Mapbox).
    @available(*, deprecated, message: "Use setUserTrackingMode(_:animated:completionHandler:).")
    public func setUserTrackingMode(_ mode: MGLUserTrackingMode, animated: Bool) {
        setUserTrackingMode(mode, animated: animated, completionHandler: nil)
    }

    /// Sets the tracking mode, then calls `completion` once the first move to the user ends (at
    /// once when there is nothing to move to). `animated` applies to this change only; later
    /// locations always animate. Following turns ``showsUserLocation`` on.
    public func setUserTrackingMode(_ mode: MGLUserTrackingMode, animated: Bool, completionHandler completion: (() -> Void)?) {
        guard mode != trackingMode else {
            engine.complete(completion)
            return
        }
        trackingMode = mode
        let engineMode: MKUserTrackingMode = switch mode {
        case .none: .none
        case .follow, .followWithCourse: .follow
        case .followWithHeading: .followWithHeading
        }
        if engine.userTrackingMode == engineMode {
            // follow ↔ followWithCourse: the engine's mode stays; report and move here.
            engine.withCallbacks { delegate?.mapView(self, didChange: mode, animated: animated) }
        } else {
            reportingTrackingChange = true
            engine.setUserTrackingMode(engineMode, animated: animated)
            reportingTrackingChange = false
        }
        if mode != .none, engine.userLocation.location != nil {
            // Move now with the completion (the engine's own move, if any, is replaced).
            guard let location = engine.userLocation.location else { return }
            var target = engine.viewport
            target.centerCoordinate = location.coordinate
            if target.zoomLevel < MKMapView.trackingZoomLevel - 1 { target.zoomLevel = MKMapView.trackingZoomLevel }
            let placed = placeFollowed(location, target)
            var transition = CameraTransition(duration: animated ? MGLMapView.animationDuration : 0)
            transition.timing = CAMediaTimingFunction(name: .default)
            transition.completion = completion
            engine.requestCameraChange { [engine] in engine.apply(placed, transition: transition, padding: engine.cameraPadding) }
        } else {
            engine.complete(completion)
        }
    }

    /// The engine's tracking mode changed (a pan ended following, a rotation fell back to follow).
    func engineTrackingModeDidChange(_ mode: MKUserTrackingMode, animated: Bool) {
        if !reportingTrackingChange {
            trackingMode = switch mode {
            case .none: .none
            case .follow: .follow
            case .followWithHeading: .followWithHeading
            }
        }
        delegate?.mapView(self, didChange: trackingMode, animated: animated)
    }

    /// Where the followed user sits (default centre of the content area).
    public var userLocationVerticalAlignment: MGLAnnotationVerticalAlignment {
        get { verticalAlignment }
        set { setUserLocationVerticalAlignment(newValue, animated: true) }
    }

    /// Sets ``userLocationVerticalAlignment``, moving the followed map.
    public func setUserLocationVerticalAlignment(_ alignment: MGLAnnotationVerticalAlignment, animated: Bool) {
        verticalAlignment = alignment
        guard trackingMode != .none, let location = engine.userLocation.location else { return }
        let placed = placeFollowed(location, engine.viewport)
        engine.requestCameraChange { [engine] in engine.apply(placed, animated: animated) }
    }

    /// The padding that puts the followed location where the alignment says: the content inset,
    /// with half the content area added below (top alignment) or above (bottom alignment).
    var trackingPadding: MKEdgeInsets {
        var padding = MKMapView.usable(contentInset, in: bounds.size)
        let height = bounds.height - padding.top - padding.bottom
        switch verticalAlignment {
        case .center: break
        case .top: padding.bottom += height / 2
        case .bottom: padding.top += height / 2
        }
        return padding
    }

    /// The viewport following shows for `location`: `target` (centred on it) with the location
    /// moved to the alignment's point, turned to the course in course mode, and zoomed to show
    /// the target coordinate too when there is one.
    func placeFollowed(_ location: CLLocation, _ target: MapViewport) -> MapViewport {
        var logical = target
        logical.centerCoordinate = location.coordinate
        if trackingMode == .followWithCourse {
            if location.course >= 0 { logical.heading = location.course }
            if CLLocationCoordinate2DIsValid(targetCoordinate),
               let both = engine.fitting([location.coordinate, targetCoordinate], padding: trackingPadding + MKEdgeInsets(top: 30, left: 30, bottom: 30, right: 30),
                                         heading: logical.heading, pitch: logical.pitch) {
                logical.zoomLevel = both.zoomLevel
                return engine.constrained(both).framed(padding: MKMapView.usable(trackingPadding, in: bounds.size))
            }
        }
        return engine.constrained(logical).framed(padding: trackingPadding)
    }

    /// Whether the user's location shows a heading arrow (default false). Kept, with no effect:
    /// the user's location is drawn as a dot.
    public var showsUserHeadingIndicator: Bool {
        get { locationSwitches.headingIndicator }
        set { locationSwitches.headingIndicator = newValue }
    }

    /// Whether to prompt for compass calibration (default true). Kept, with no effect: there is
    /// no prompt.
    public var displayHeadingCalibration: Bool {
        get { locationSwitches.headingCalibration }
        set { locationSwitches.headingCalibration = newValue }
    }

    /// The coordinate to keep in view with the user in course-tracking mode (default invalid: none).
    public var targetCoordinate: CLLocationCoordinate2D {
        get { locationSwitches.target }
        set { setTargetCoordinate(newValue, animated: true, completionHandler: nil) }
    }

    /// Sets ``targetCoordinate``; in course-tracking mode the map moves to show both, then calls
    /// `completion`.
    public func setTargetCoordinate(_ targetCoordinate: CLLocationCoordinate2D, animated: Bool, completionHandler completion: (() -> Void)?) {
        locationSwitches.target = targetCoordinate
        guard trackingMode == .followWithCourse, let location = engine.userLocation.location else {
            engine.complete(completion)
            return
        }
        let placed = placeFollowed(location, engine.viewport)
        var transition = CameraTransition(duration: animated ? MGLMapView.animationDuration : 0)
        transition.completion = completion
        engine.requestCameraChange { [engine] in engine.apply(placed, transition: transition, padding: engine.cameraPadding) }
    }

    /// Repositions the user's dot from the last location (it is redrawn every frame anyway).
    public func updateUserLocationAnnotationView() {}

    /// Repositions the user's dot (it is redrawn every frame anyway; `duration` is not used).
    public func updateUserLocationAnnotationViewAnimated(withDuration duration: TimeInterval) {}
}
