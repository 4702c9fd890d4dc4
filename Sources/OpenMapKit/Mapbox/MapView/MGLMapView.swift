// Mapbox's MGLMapView as a second face of OpenMapKit's map view engine: the state and behaviour
// live in an MKMapView the face owns (camera math, animations, gestures, annotation views,
// ornaments, drawing); this face speaks Mapbox's vocabulary — zoom levels, directions,
// coordinate bounds, content insets, style URLs, completion handlers — and translates.
//
// This file holds creation, the style, the camera and the conversions; annotations, ornaments,
// user location and the engine's delegate are in the neighbouring MGLMapView+*.swift files.

import Foundation
import MapGeometry
import MapStyle

/// Options for ``MGLMapView/decelerationRate``: how far a released pan coasts.
public typealias MGLMapViewDecelerationRate = CGFloat
/// The normal deceleration (UIScrollView's `.normal`): a pan coasts for about half a second of
/// its release speed.
public let MGLMapViewDecelerationRateNormal: MGLMapViewDecelerationRate = 0.998
/// A fast deceleration (UIScrollView's `.fast`): about a tenth of a second.
public let MGLMapViewDecelerationRateFast: MGLMapViewDecelerationRate = 0.99
/// No deceleration: the map stops where the finger lifts.
public let MGLMapViewDecelerationRateImmediate: MGLMapViewDecelerationRate = 0

/// Where an ornament sits in the map view (Mapbox's `MGLOrnamentPosition`).
public enum MGLOrnamentPosition: UInt, Sendable, Hashable {
    case topLeft = 0
    case topRight = 1
    case bottomLeft = 2
    case bottomRight = 3
}

/// How the map follows the user (Mapbox's `MGLUserTrackingMode`).
public enum MGLUserTrackingMode: UInt, Sendable, Hashable {
    /// The map does not follow the user.
    case none = 0
    /// The map centres on the user; a pan stops it.
    case follow = 1
    /// The map centres on the user and turns to the device's heading; a rotation falls back to follow.
    case followWithHeading = 2
    /// The map centres on the user and turns to the direction of travel (the location's course);
    /// with a ``MGLMapView/targetCoordinate`` it zooms to show both.
    case followWithCourse = 3
}

/// Which directions a user's pan may move the map (Mapbox's `MGLPanScrollingMode`).
public enum MGLPanScrollingMode: UInt, Sendable, Hashable {
    /// Only horizontally.
    case horizontal = 0
    /// Only vertically.
    case vertical = 1
    /// Both.
    case `default` = 2
}

/// Where the user's location sits when followed (Mapbox's `MGLAnnotationVerticalAlignment`).
public enum MGLAnnotationVerticalAlignment: UInt, Sendable, Hashable {
    /// In the middle of the content area.
    case center = 0
    /// A quarter of the way down the content area.
    case top = 1
    /// Three quarters of the way down.
    case bottom = 2
}

/// An interactive map with Mapbox's API (the Mapbox Maps SDK's / MapLibre's `MGLMapView`), as a
/// model: a second face of the engine behind ``MKMapView``, which it owns and drives.
///
/// **Numbers.** Zoom levels are Mapbox's: the world is 512 points wide at zoom 0 and doubles
/// each level, so ``metersPerPoint(atLatitude:)`` is 78,271.517 m at zoom 0 on the equator.
/// Zoom is limited to ``minimumZoomLevel`` (0; and never so far out that the world's height no
/// longer fills the view) … ``maximumZoomLevel`` (22, at most 25.5); pitch to ``minimumPitch``
/// (0) … ``maximumPitch`` (60, never above 60).
///
/// **Content inset.** ``contentInset`` moves the logical centre: ``centerCoordinate``, the camera
/// and fitting refer to the frame less the insets (a top inset moves the centre down).
///
/// **Animations** run on ``clock`` as the engine's do: the driver calls ``advanceAnimations()``.
/// Completion handlers run when the change lands, when another change or a gesture interrupts
/// it (as MapLibre's transitions finish), or at once for a change that jumps or changes nothing;
/// always after the change's delegate callbacks.
///
/// **Style.** The style loads on the first ``render()`` (or ``finishLoadingStyle()``) after
/// ``styleURL`` is set, so a delegate set after creating the view sees the loading callbacks, as
/// with Mapbox's asynchronous loading; ``style`` is nil until then and after a failure.
///
/// **Differs from Mapbox.** It is not a `UIView`: it draws a frame only when asked, with
/// ``render()``; gestures arrive as calls (``pan(by:)``, ``pinch(scale:around:)``, ``tap(at:)`` …);
/// there are no gesture recognisers, so `anchorPoint(forGesture:)` is not provided (its rules —
/// the user's location while tracking, the centre with
/// ``anchorRotateOrZoomGesturesToCenterCoordinate`` — apply inside the gesture calls);
/// `preferredFramesPerSecond`, `prefetchesTiles`, `debugMask` and `showAttribution(_:)` are not
/// supported; ``visibleFeatures(at:)`` and its variants answer for the last frame drawn. View parameters of the conversions are map views:
/// nil means the window, whose coordinates are the frame's origin plus the point.
open class MGLMapView {
    /// The engine: the map view model this face drives.
    let engine: MKMapView

    /// The engine, for a window that drives it (MapWindow): gestures and time go to the engine,
    /// frames come from ``render()``. Not API: its delegate is this face's bridge.
    @_spi(MapWindow) public var windowEngine: MKMapView { engine }
    /// Translates the engine's callbacks into this face's (see MGLMapView+Delegate.swift).
    lazy var bridge = MGLMapViewBridge(mapView: self)

    /// The delegate, held weakly.
    public weak var delegate: (any MGLMapViewDelegate)?

    /// The clock animations read (an OpenMapKit addition).
    public var clock: any MKMapViewClock { engine.clock }

    // State of the neighbouring extensions (MGLMapView+Annotations.swift, +Interaction.swift).
    var annotationList: [any MGLAnnotation] = []
    var pointAdapters: [ObjectIdentifier: MGLPointAdapter] = [:]
    var shapeAdapters: [ObjectIdentifier: MGLShapeAdapter] = [:]
    var annotationImages: [String: MGLAnnotationImage] = [:]
    var viewReuseQueues: [String: [MGLAnnotationView]] = [:]
    var gestureSwitches = MGLGestureSwitches()
    var locationSwitches = MGLLocationSwitches()
    var storedLocationManager: any MGLLocationManager = MGLUnavailableLocationManager()
    var trackingMode = MGLUserTrackingMode.none
    var reportingTrackingChange = false
    var verticalAlignment = MGLAnnotationVerticalAlignment.center
    lazy var mglUserLocation = MGLUserLocation(engineLocation: engine.userLocation)
    lazy var ornamentViews = MGLOrnamentViews(mapView: self)

    /// A map view with `frame` (in points) and the default style (Mapbox Streets).
    public convenience init(frame: CGRect) {
        self.init(frame: frame, styleURL: nil)
    }

    /// A map view with `frame` and the style at `styleURL` (nil for the default): a
    /// `mapbox://styles/mapbox/…` URL of one of Mapbox's styles (see ``MGLStyle``), a file URL or
    /// path of a MapLibre style JSON, or an `http(s)` URL of one.
    public convenience init(frame: CGRect, styleURL: URL?) {
        self.init(frame: frame, styleURL: styleURL, clock: MKSystemMapViewClock())
    }

    /// A map view whose animations read `clock` (an OpenMapKit addition: an
    /// ``MKManualMapViewClock`` for tests).
    public init(frame: CGRect, styleURL: URL?, clock: any MKMapViewClock) {
        engine = MKMapView(frame: frame, clock: clock)
        requestedStyleURL = styleURL ?? MGLStyle.streetsStyleURL
        engine.cameraLimits = MapViewCameraLimits(minimumZoom: 0, maximumZoom: 22, minimumPitch: 0, maximumPitch: 60)
        engine.delegate = bridge
        engine.gestureChangeFilter = { [weak self] from, to, reason in
            guard let self, let delegate else { return true }
            return delegate.mapView(self, shouldChangeFrom: camera(of: from), to: camera(of: to), reason: MGLCameraChangeReason(rawValue: reason.rawValue))
        }
        engine.userLocationProvider = MGLLocationManagerProvider(manager: storedLocationManager)
        engine.locationState.followPlacement = { [weak self] location, target in self?.placeFollowed(location, target) ?? target }
        engine.setStyleDocument(MGLMapView.emptyStyle, baseURL: nil)
        engine.showsCompass = true
        engine.ornamentLayout = .mapbox
        // At zoom 0 the world's height fills the view (Mapbox's farthest), centred on (0, 0).
        engine.move(to: MapViewport(size: engine.viewport.size, centerCoordinate: CLLocationCoordinate2D(), zoomLevel: 0),
                    padding: .zero, transition: .jump)
    }

    // MARK: - Frame

    /// The view's frame in its window, in points. Resizing keeps the centre and zoom level.
    open var frame: CGRect {
        get { engine.frame }
        set { engine.frame = newValue }
    }

    /// The view's bounds: its frame's size at the origin.
    open var bounds: CGRect { engine.bounds }

    /// The colour shape annotations default to (UIKit's `tintColor`; system blue).
    open var tintColor: UIColor = .systemBlue

    /// Where the map's data comes from (an OpenMapKit addition); nil uses
    /// ``MapDataSource/default``. Satellite styles need its imagery overlay.
    public var dataSource: MapDataSource? {
        get { engine.dataSource }
        set { engine.dataSource = newValue }
    }

    /// Device pixels per point of ``render()``'s image (default 1).
    public var contentScaleFactor: CGFloat {
        get { engine.contentScaleFactor }
        set { engine.contentScaleFactor = newValue }
    }

    // MARK: - Style

    private var requestedStyleURL: URL
    private var stylePending = true
    /// A style load has started and its first complete frame is still to come.
    var mapLoadOpen = false

    /// The style drawn; nil while it loads and after it failed to load.
    public private(set) var style: MGLStyle?

    /// The URL of the style. Setting it loads that style (on the next ``render()`` or
    /// ``finishLoadingStyle()``); setting nil loads the default style, whose URL it then reads.
    public var styleURL: URL! {
        get { requestedStyleURL }
        set {
            requestedStyleURL = newValue ?? MGLStyle.streetsStyleURL
            reloadStyle(nil)
        }
    }

    /// Loads the style again from ``styleURL`` (on the next ``render()`` or
    /// ``finishLoadingStyle()``); `sender` is ignored. Files and HTTP are read afresh (there is
    /// no cache).
    public func reloadStyle(_ sender: Any?) {
        style?.mapView = nil
        style = nil
        stylePending = true
    }

    /// Loads the style now if it is waiting to load (an OpenMapKit addition: Mapbox loads in the
    /// background; here loading happens on the next ``render()`` or this call):
    /// `mapViewWillStartLoadingMap`, then `didFinishLoading style` or `mapViewDidFailLoadingMap`.
    public func finishLoadingStyle() {
        guard stylePending else { return }
        stylePending = false
        mapLoadOpen = true
        engine.withCallbacks {
            delegate?.mapViewWillStartLoadingMap(self)
            do {
                let loaded = try MGLStyle.load(requestedStyleURL, dataSource: engine.dataSource ?? MapDataSource.default)
                loaded.mapView = self
                style = loaded
                engine.setStyleDocument(loaded.document, baseURL: loaded.baseURL)
                delegate?.mapView(self, didFinishLoading: loaded)
            } catch {
                style = nil
                mapLoadOpen = false
                engine.setStyleDocument(MGLMapView.emptyStyle, baseURL: nil)
                delegate?.mapViewDidFailLoadingMap(self, withError: error)
            }
        }
    }

    /// The style's document changed (runtime styling): the next frame draws the new one.
    func styleDocumentDidChange() {
        guard let style else { return }
        engine.setStyleDocument(style.document, baseURL: style.baseURL, transitioning: true)
    }

    /// What is drawn while no style is loaded: nothing.
    static let emptyStyle = try! Style(text: #"{"version": 8, "sources": {}, "layers": []}"#)

    /// Whether the map view adjusts ``contentInset`` for bars covering it (Mapbox's default
    /// true). Kept, with no effect: there are no bars on Linux.
    public var automaticallyAdjustsContentInset = true

    // MARK: - Drawing

    /// Draws what the map shows now (an OpenMapKit addition, as ``MKMapView/render()``): the
    /// style (loading it first if needed), shape annotations, annotation views and images, the
    /// selected annotation's callout, and the ornaments (scale bar, compass, logo, attribution).
    ///
    /// Reports `mapViewWillStartRenderingMap`, `mapViewWillStartRenderingFrame`,
    /// `mapViewDidFinishRenderingFrame`, `mapViewDidFinishLoadingMap` (the first frame after a
    /// style load), `mapViewDidFinishRenderingMap` and, when no animation runs,
    /// `mapViewDidBecomeIdle`.
    ///
    /// - Throws: ``MKError`` when the frame is zero-size, no data source is configured, or the
    ///   map cannot be drawn.
    public func render() throws -> UIImage {
        finishLoadingStyle()
        syncShapeAnnotations()
        let image = try engine.render()
        if !isAnimating { engine.withCallbacks { delegate?.mapViewDidBecomeIdle(self) } }
        return image
    }

    /// Moves the running animation to the clock's time (as ``MKMapView/advanceAnimations()``).
    public func advanceAnimations() { engine.advanceAnimations() }

    /// Whether an animation is running (an OpenMapKit addition): the camera moves, or a style
    /// change is still blending in over the style's ``MGLStyle/transition``. The driver should
    /// keep calling ``advanceAnimations()`` and drawing frames while it is true.
    public var isAnimating: Bool { engine.isAnimating || engine.isTransitioningStyle }

    // MARK: - Camera scalars

    /// What the map shows with its centre measured in the content inset.
    var logicalViewport: MapViewport { engine.logicalViewport(padding: contentInset) }

    /// The coordinate at the centre of the content area (the frame less ``contentInset``).
    /// Setting it keeps the zoom level; invalid coordinates are ignored.
    public var centerCoordinate: CLLocationCoordinate2D {
        get { logicalViewport.centerCoordinate }
        set { setCenter(newValue, animated: false) }
    }

    /// Centres the content area on `coordinate`, keeping the zoom level.
    public func setCenter(_ coordinate: CLLocationCoordinate2D, animated: Bool) {
        setCenter(coordinate, zoomLevel: zoomLevel, animated: animated)
    }

    /// Centres on `centerCoordinate` at `zoomLevel`.
    public func setCenter(_ centerCoordinate: CLLocationCoordinate2D, zoomLevel: Double, animated: Bool) {
        setCenter(centerCoordinate, zoomLevel: zoomLevel, direction: direction, animated: animated)
    }

    /// Centres on `centerCoordinate` at `zoomLevel`, turned to `direction` (negative: unchanged).
    public func setCenter(_ centerCoordinate: CLLocationCoordinate2D, zoomLevel: Double, direction: CLLocationDirection, animated: Bool) {
        setCenter(centerCoordinate, zoomLevel: zoomLevel, direction: direction, animated: animated, completionHandler: nil)
    }

    /// Centres on `centerCoordinate` at `zoomLevel`, turned to `direction` (negative: unchanged),
    /// then calls `completion`. Stops user tracking.
    public func setCenter(_ centerCoordinate: CLLocationCoordinate2D, zoomLevel: Double, direction: CLLocationDirection, animated: Bool,
                          completionHandler completion: (() -> Void)?) {
        userTrackingMode = .none
        var target = logicalViewport
        target.centerCoordinate = centerCoordinate
        target.zoomLevel = zoomLevel
        if direction >= 0 { target.heading = direction }
        move(to: target, padding: contentInset, duration: animated ? MGLMapView.animationDuration : 0, timing: nil, completion: completion)
    }

    /// The zoom level (Mapbox's: 512-point world at zoom 0). Setting it keeps the centre.
    public var zoomLevel: Double {
        get { engine.viewport.zoomLevel }
        set { setZoomLevel(newValue, animated: false) }
    }

    /// Zooms to `zoomLevel` keeping the centre.
    public func setZoomLevel(_ zoomLevel: Double, animated: Bool) {
        guard zoomLevel != self.zoomLevel else { return }
        var target = logicalViewport
        target.zoomLevel = zoomLevel
        move(to: target, padding: contentInset, duration: animated ? MGLMapView.animationDuration : 0, timing: nil, completion: nil)
    }

    /// The farthest zoom level (default 0). The view's aspect ratio may keep the map nearer, so
    /// that the world's height always fills the view.
    public var minimumZoomLevel: Double {
        get { engine.cameraLimits.minimumZoom ?? 0 }
        set {
            guard newValue.isFinite else { return }
            engine.cameraLimits.minimumZoom = max(newValue, 0)
            reconstrain()
        }
    }

    /// The nearest zoom level (default 22, at most 25.5).
    public var maximumZoomLevel: Double {
        get { engine.cameraLimits.maximumZoom }
        set {
            guard newValue.isFinite else { return }
            engine.cameraLimits.maximumZoom = min(max(newValue, 0), MGLMapView.maximumZoomLevelUpperBound)
            reconstrain()
        }
    }

    /// The highest ``maximumZoomLevel`` allowed.
    static let maximumZoomLevelUpperBound = 25.5

    /// The heading, degrees clockwise from true north (0: north up, 90: east up).
    public var direction: CLLocationDirection {
        get { engine.viewport.heading }
        set { setDirection(newValue, animated: false) }
    }

    /// Turns the map to `direction`, keeping centre and zoom. Following with heading falls back
    /// to following.
    public func setDirection(_ direction: CLLocationDirection, animated: Bool) {
        if userTrackingMode == .followWithHeading { userTrackingMode = .follow }
        guard direction.isFinite, direction != self.direction else { return }
        var target = logicalViewport
        target.heading = direction
        move(to: target, padding: contentInset, duration: animated ? MGLMapView.animationDuration : 0, timing: nil, completion: nil)
    }

    /// Turns the map north up, animated (reported with the reset-north reason).
    public func resetNorth() {
        if userTrackingMode == .followWithHeading { userTrackingMode = .follow }
        var target = logicalViewport
        target.heading = 0
        move(to: target, padding: contentInset, duration: MGLMapView.animationDuration, timing: nil, completion: nil,
             reason: [.programmatic, .resetNorth])
    }

    /// Moves to the style's default viewport (its `center`, `zoom`, `bearing`, `pitch`); what the
    /// style leaves out is the minimum zoom level at (0, 0), north up, flat.
    public func resetPosition() {
        let document = style?.document
        let target = MapViewport(size: engine.viewport.size, centerCoordinate: document?.center ?? CLLocationCoordinate2D(),
                                 zoomLevel: document?.zoom ?? minimumZoomLevel, heading: document?.bearing ?? 0, pitch: document?.pitch ?? 0)
        move(to: target, padding: contentInset, duration: 0, timing: nil, completion: nil)
    }

    /// The farthest the camera may tilt from looking straight down, in degrees (default 0).
    public var minimumPitch: CGFloat {
        get { CGFloat(engine.cameraLimits.minimumPitch) }
        set {
            guard newValue.isFinite else { return }
            engine.cameraLimits.minimumPitch = min(max(Double(newValue), 0), MapViewport.maximumPitch)
            reconstrain()
        }
    }

    /// The steepest tilt, in degrees (default 60; never above 60).
    public var maximumPitch: CGFloat {
        get { CGFloat(engine.cameraLimits.maximumPitch) }
        set {
            guard newValue.isFinite else { return }
            engine.cameraLimits.maximumPitch = min(max(Double(newValue), 0), MapViewport.maximumPitch)
            reconstrain()
        }
    }

    private func reconstrain() {
        move(to: logicalViewport, padding: engine.cameraPadding, duration: 0, timing: nil, completion: nil)
    }

    /// Mapbox's duration of an animated change, in seconds.
    static let animationDuration: TimeInterval = 0.3

    /// Runs a camera change through the engine: the timing nil is Core Animation's default curve.
    func move(to target: MapViewport, padding: MKEdgeInsets, duration: TimeInterval, timing: CAMediaTimingFunction?,
              completion: (() -> Void)?, reason: MGLCameraChangeReason = .programmatic) {
        var transition = CameraTransition(duration: max(duration.isFinite ? duration : 0, 0))
        transition.timing = timing ?? CAMediaTimingFunction(name: .default)
        transition.completion = completion
        engine.move(to: target, padding: padding, transition: transition, reason: MapViewChangeReason(rawValue: reason.rawValue))
    }

    // MARK: - Camera

    /// The camera for a viewport whose centre is its logical one.
    func camera(of logical: MapViewport) -> MGLMapCamera {
        let size = engine.viewport.size
        let pitch = CGFloat(logical.effectivePitch)
        return MGLMapCamera(lookingAtCenter: logical.centerCoordinate,
                            altitude: MGLAltitudeForZoomLevel(logical.zoomLevel, pitch, logical.centerCoordinate.latitude, size),
                            pitch: pitch, heading: logical.heading)
    }

    /// The viewport (logical centre) a camera stands for: zoom from its altitude and pitch; a
    /// negative heading or pitch keeps the current one, an invalid centre the current centre.
    func viewport(of camera: MGLMapCamera) -> MapViewport {
        var target = logicalViewport
        if CLLocationCoordinate2DIsValid(camera.centerCoordinate) { target.centerCoordinate = camera.centerCoordinate }
        if camera.heading >= 0 { target.heading = camera.heading }
        if camera.pitch >= 0 { target.pitch = Double(camera.pitch) }
        target.zoomLevel = MGLZoomLevelForAltitude(camera.altitude, CGFloat(target.pitch), target.centerCoordinate.latitude, engine.viewport.size)
        return target
    }

    /// The current viewpoint (a new object on every read). Setting it jumps there.
    public var camera: MGLMapCamera {
        get { camera(of: logicalViewport) }
        set { setCamera(newValue, animated: false) }
    }

    /// Moves to `camera`, animated or not.
    public func setCamera(_ camera: MGLMapCamera, animated: Bool) {
        setCamera(camera, withDuration: animated ? MGLMapView.animationDuration : 0, animationTimingFunction: nil)
    }

    /// Moves to `camera` over `duration` seconds (0 jumps) along `function` (nil: Core
    /// Animation's default curve; ignored when jumping).
    public func setCamera(_ camera: MGLMapCamera, withDuration duration: TimeInterval, animationTimingFunction function: CAMediaTimingFunction?) {
        setCamera(camera, withDuration: duration, animationTimingFunction: function, completionHandler: nil)
    }

    /// ``setCamera(_:withDuration:animationTimingFunction:)``, then `completion`.
    public func setCamera(_ camera: MGLMapCamera, withDuration duration: TimeInterval, animationTimingFunction function: CAMediaTimingFunction?,
                          completionHandler completion: (() -> Void)?) {
        userTrackingMode = .none
        move(to: viewport(of: camera), padding: contentInset, duration: duration, timing: function, completion: completion)
    }

    /// Moves to `camera` with `edgePadding` kept clear around its centre (added to
    /// ``contentInset``; ``cameraEdgeInsets`` reports the sum while this camera stands).
    public func setCamera(_ camera: MGLMapCamera, withDuration duration: TimeInterval, animationTimingFunction function: CAMediaTimingFunction?,
                          edgePadding: UIEdgeInsets, completionHandler completion: (() -> Void)?) {
        userTrackingMode = .none
        move(to: viewport(of: camera), padding: MKMapView.sanitized(edgePadding) + contentInset, duration: duration, timing: function,
             completion: completion)
    }

    /// Flies to `camera` along Mapbox's powered-flight path (zooming out, across, and in) with
    /// the duration its length gives.
    public func fly(to camera: MGLMapCamera, completionHandler completion: (() -> Void)?) {
        fly(to: camera, withDuration: -1, completionHandler: completion)
    }

    /// Flies to `camera` over `duration` seconds (0 jumps, negative: the path's own duration).
    public func fly(to camera: MGLMapCamera, withDuration duration: TimeInterval, completionHandler completion: (() -> Void)?) {
        fly(to: camera, withDuration: duration, peakAltitude: -1, completionHandler: completion)
    }

    /// Flies to `camera`, peaking at `peakAltitude` metres halfway (ignored when negative, and
    /// never below the higher end; as MapLibre, a peak lower than the natural one flattens the
    /// path). The peak's zoom is taken at the mean latitude and pitch of the two ends.
    public func fly(to camera: MGLMapCamera, withDuration duration: TimeInterval, peakAltitude: CLLocationDistance,
                    completionHandler completion: (() -> Void)?) {
        userTrackingMode = .none
        var transition = CameraTransition(duration: duration < 0 || !duration.isFinite ? nil : duration)
        transition.flies = true
        transition.completion = completion
        if peakAltitude >= 0, peakAltitude.isFinite {
            let latitude = (centerCoordinate.latitude + camera.centerCoordinate.latitude) / 2
            let pitch = (self.camera.pitch + max(camera.pitch, 0)) / 2
            transition.peakZoom = MGLZoomLevelForAltitude(peakAltitude, pitch, latitude, engine.viewport.size)
        }
        engine.move(to: viewport(of: camera), padding: contentInset, transition: transition)
    }

    // MARK: - Bounds and fitting

    /// The bounds of what the frame shows (longitudes may pass ±180° across the antimeridian).
    /// Setting it fits the bounds at once.
    public var visibleCoordinateBounds: MGLCoordinateBounds {
        get { convert(bounds, toCoordinateBoundsFrom: self) }
        set { setVisibleCoordinateBounds(newValue, animated: false) }
    }

    /// Shows `bounds` whole, as near as possible, keeping the direction.
    public func setVisibleCoordinateBounds(_ bounds: MGLCoordinateBounds, animated: Bool) {
        setVisibleCoordinateBounds(bounds, edgePadding: .zero, animated: animated, completionHandler: nil)
    }

    /// Shows `bounds` with at least `insets` points clear around it (deprecated in Mapbox).
    @available(*, deprecated, message: "Use setVisibleCoordinateBounds(_:edgePadding:animated:completionHandler:).")
    public func setVisibleCoordinateBounds(_ bounds: MGLCoordinateBounds, edgePadding insets: UIEdgeInsets, animated: Bool) {
        setVisibleCoordinateBounds(bounds, edgePadding: insets, animated: animated, completionHandler: nil)
    }

    /// Shows `bounds` with at least `insets` points clear around it, then calls `completion`.
    public func setVisibleCoordinateBounds(_ bounds: MGLCoordinateBounds, edgePadding insets: UIEdgeInsets, animated: Bool,
                                           completionHandler completion: (() -> Void)?) {
        var corners = MGLMapView.corners(of: bounds)
        setVisibleCoordinates(&corners, count: 4, edgePadding: insets, direction: direction,
                              duration: animated ? MGLMapView.animationDuration : 0, animationTimingFunction: nil, completionHandler: completion)
    }

    /// Shows the first `count` coordinates with at least `insets` points clear around them.
    public func setVisibleCoordinates(_ coordinates: UnsafePointer<CLLocationCoordinate2D>, count: UInt, edgePadding insets: UIEdgeInsets,
                                      animated: Bool) {
        setVisibleCoordinates(coordinates, count: count, edgePadding: insets, direction: direction,
                              duration: animated ? MGLMapView.animationDuration : 0, animationTimingFunction: nil, completionHandler: nil)
    }

    /// Shows the first `count` coordinates with at least `insets` points clear around them,
    /// turned to `direction` (negative: unchanged), over `duration` seconds along `function`,
    /// then calls `completion`. Longitudes beyond ±180° fit across the antimeridian. Stops
    /// user tracking.
    public func setVisibleCoordinates(_ coordinates: UnsafePointer<CLLocationCoordinate2D>, count: UInt, edgePadding insets: UIEdgeInsets,
                                      direction: CLLocationDirection, duration: TimeInterval,
                                      animationTimingFunction function: CAMediaTimingFunction?, completionHandler completion: (() -> Void)?) {
        userTrackingMode = .none
        let list = Array(UnsafeBufferPointer(start: coordinates, count: Int(count)))
        let padding = MKMapView.sanitized(insets) + contentInset
        let heading = direction >= 0 ? direction : self.direction
        guard let fitted = engine.fitting(list, padding: padding, heading: heading, pitch: logicalViewport.pitch) else {
            engine.complete(completion)
            return
        }
        move(to: fitted, padding: padding, duration: duration, timing: function, completion: completion)
    }

    /// The four corners of a bounds.
    static func corners(of bounds: MGLCoordinateBounds) -> [CLLocationCoordinate2D] {
        [CLLocationCoordinate2D(latitude: bounds.ne.latitude, longitude: bounds.sw.longitude), bounds.sw,
         CLLocationCoordinate2D(latitude: bounds.sw.latitude, longitude: bounds.ne.longitude), bounds.ne]
    }

    /// The camera showing `bounds` whole, as near as possible, with the current direction and pitch.
    public func cameraThatFitsCoordinateBounds(_ bounds: MGLCoordinateBounds) -> MGLMapCamera {
        cameraThatFitsCoordinateBounds(bounds, edgePadding: .zero)
    }

    /// The camera showing `bounds` with at least `insets` points clear around it (plus the
    /// content inset), with the current direction and pitch. Does not move the map.
    public func cameraThatFitsCoordinateBounds(_ bounds: MGLCoordinateBounds, edgePadding insets: UIEdgeInsets) -> MGLMapCamera {
        fittingCamera(MGLMapView.corners(of: bounds), insets: insets, heading: direction, pitch: logicalViewport.pitch)
    }

    /// `camera`'s direction and pitch with the centre and altitude that show `bounds` with at
    /// least `insets` points clear around it.
    public func camera(_ camera: MGLMapCamera, fitting bounds: MGLCoordinateBounds, edgePadding insets: UIEdgeInsets) -> MGLMapCamera {
        fittingCamera(MGLMapView.corners(of: bounds), insets: insets, heading: camera.heading, pitch: Double(camera.pitch))
    }

    /// `camera`'s direction and pitch with the centre and altitude that show `shape`.
    public func camera(_ camera: MGLMapCamera, fitting shape: MGLShape, edgePadding insets: UIEdgeInsets) -> MGLMapCamera {
        fittingCamera(shape.fittingCoordinates, insets: insets, heading: camera.heading, pitch: Double(camera.pitch))
    }

    /// The camera facing `direction`, with the current pitch, that shows `shape`.
    public func cameraThatFitsShape(_ shape: MGLShape, direction: CLLocationDirection, edgePadding insets: UIEdgeInsets) -> MGLMapCamera {
        fittingCamera(shape.fittingCoordinates, insets: insets, heading: direction, pitch: logicalViewport.pitch)
    }

    private func fittingCamera(_ coordinates: [CLLocationCoordinate2D], insets: UIEdgeInsets, heading: Double, pitch: Double) -> MGLMapCamera {
        let padding = MKMapView.sanitized(insets) + contentInset
        guard let fitted = engine.fitting(coordinates, padding: padding, heading: heading, pitch: pitch) else { return camera }
        var limited = engine.constrained(fitted)
        limited.centerCoordinate = fitted.centerCoordinate
        return camera(of: limited)
    }

    // MARK: - Insets

    private var storedContentInset = MKEdgeInsets.zero

    /// The distances from the frame's edges to the content area that centre, camera and fitting
    /// refer to (a top inset moves the centre down). Setting it keeps the centre coordinate,
    /// which moves on screen to the new content area's centre.
    public var contentInset: UIEdgeInsets {
        get { storedContentInset }
        set { setContentInset(newValue, animated: false, completionHandler: nil) }
    }

    /// Sets ``contentInset`` (deprecated in Mapbox).
    @available(*, deprecated, message: "Use setContentInset(_:animated:completionHandler:).")
    public func setContentInset(_ contentInset: UIEdgeInsets, animated: Bool) {
        setContentInset(contentInset, animated: animated, completionHandler: nil)
    }

    /// Sets ``contentInset``, the map sliding so the centre coordinate sits at the new content
    /// area's centre, then calls `completion`.
    public func setContentInset(_ contentInset: UIEdgeInsets, animated: Bool, completionHandler completion: (() -> Void)?) {
        let inset = MKMapView.sanitized(contentInset)
        let target = logicalViewport
        storedContentInset = inset
        move(to: target, padding: inset, duration: animated ? MGLMapView.animationDuration : 0, timing: nil, completion: completion)
    }

    /// The padding the current camera is measured in: ``contentInset`` plus the edge padding of
    /// the last camera change given one (until a change without one).
    public var cameraEdgeInsets: UIEdgeInsets { engine.cameraPadding }

    // MARK: - Conversions

    /// `point` in `view`'s coordinates as a point of this view (nil: the window's).
    private func local(_ point: CGPoint, from view: MGLMapView?) -> CGPoint {
        if view === self { return point }
        let origin = view?.frame.origin ?? .zero
        return CGPoint(x: point.x + origin.x - frame.origin.x, y: point.y + origin.y - frame.origin.y)
    }

    /// A point of this view in `view`'s coordinates (nil: the window's).
    private func external(_ point: CGPoint, to view: MGLMapView?) -> CGPoint {
        if view === self { return point }
        let origin = view?.frame.origin ?? .zero
        return CGPoint(x: point.x + frame.origin.x - origin.x, y: point.y + frame.origin.y - origin.y)
    }

    /// The coordinate under `point`, given in `view`'s coordinates (this map view, another, or
    /// nil for the window). Invalid for non-finite points or a zero-size view.
    public func convert(_ point: CGPoint, toCoordinateFrom view: MGLMapView?) -> CLLocationCoordinate2D {
        guard point.x.isFinite, point.y.isFinite, engine.hasArea else { return kCLLocationCoordinate2DInvalid }
        return engine.viewport.convert(local(point, from: view))
    }

    /// Where `coordinate` shows, in `view`'s coordinates (nil: the window's). (NaN, NaN) when it
    /// cannot be seen (behind a pitched camera) or the view is zero-size.
    public func convert(_ coordinate: CLLocationCoordinate2D, toPointTo view: MGLMapView?) -> CGPoint {
        let p = engine.convert(coordinate, toPointTo: engine)
        guard p.x.isFinite, p.y.isFinite else { return p }
        return external(p, to: view)
    }

    /// The bounds of the ground under `rect` (in `view`'s coordinates; nil: the window's); its
    /// longitudes continue past ±180° when it crosses the antimeridian.
    public func convert(_ rect: CGRect, toCoordinateBoundsFrom view: MGLMapView?) -> MGLCoordinateBounds {
        guard !rect.isNull else { return MGLCoordinateBounds() }
        let origin = local(rect.origin, from: view)
        guard let box = engine.unwrappedBounds(of: CGRect(origin: origin, size: rect.size)) else { return MGLCoordinateBounds() }
        return MGLCoordinateBounds(sw: box.sw, ne: box.ne)
    }

    /// The rectangle, in `view`'s coordinates (nil: the window's), spanned by the corners of
    /// `bounds` (longitudes beyond ±180° taken as given).
    public func convert(_ bounds: MGLCoordinateBounds, toRectTo view: MGLMapView?) -> CGRect {
        let sw = engine.unwrappedPoint(for: bounds.sw), ne = engine.unwrappedPoint(for: bounds.ne)
        guard sw.x.isFinite, sw.y.isFinite, ne.x.isFinite, ne.y.isFinite else { return .null }
        let rect = CGRect(x: min(sw.x, ne.x), y: min(sw.y, ne.y), width: abs(ne.x - sw.x), height: abs(ne.y - sw.y))
        return CGRect(origin: external(rect.origin, to: view), size: rect.size)
    }

    /// Ground metres per point at `latitude` and the current zoom level: 78,271.517 × cos(latitude)
    /// / 2^zoom (WGS 84's equatorial circumference over a 512-point world).
    public func metersPerPoint(atLatitude latitude: CLLocationDegrees) -> CLLocationDistance {
        MKMetersPerMapPointAtLatitude(min(max(latitude, -MKMercatorMaximumLatitude), MKMercatorMaximumLatitude))
            * exp2(19 - engine.viewport.zoomLevel)
    }

    /// A projection that keeps converting with the camera of now (Mapbox's `MGLMapProjection`).
    public func mapProjection() -> MGLMapProjection { MGLMapProjection(viewport: engine.viewport) }
}

/// The gesture switches of a map view.
struct MGLGestureSwitches {
    var rotate = true
    var pitch = true
    var panScrollingMode = MGLPanScrollingMode.default
    var anchorToCenter = false
    var haptics = true
    var decelerationRate = MGLMapViewDecelerationRateNormal
}

/// The user-location switches of a map view.
struct MGLLocationSwitches {
    var headingIndicator = false
    var headingCalibration = true
    var target = kCLLocationCoordinate2DInvalid
}

/// The ornament models of a map view.
final class MGLOrnamentViews {
    let scaleBar: MGLOrnamentView
    let compass: MGLCompassButton
    let logo: MGLOrnamentView
    let attribution: MGLOrnamentView

    init(mapView: MGLMapView) {
        scaleBar = MGLOrnamentView(frame: { [unowned mapView] in mapView.engine.scaleBarFrame },
                                   hiddenChanged: { [unowned mapView] hidden in mapView.engine.ornamentLayout.scaleHidden = hidden })
        compass = MGLCompassButton(mapView: mapView)
        logo = MGLOrnamentView(frame: { [unowned mapView] in mapView.engine.logoFrame },
                               hiddenChanged: { [unowned mapView] hidden in mapView.engine.ornamentLayout.logo?.isHidden = hidden })
        attribution = MGLOrnamentView(frame: { [unowned mapView] in mapView.engine.attributionFrame },
                                      hiddenChanged: { [unowned mapView] hidden in mapView.engine.ornamentLayout.attribution?.isHidden = hidden })
    }
}

/// Conversions with a fixed camera (Mapbox's `MGLMapProjection`), taken from a map view by
/// ``MGLMapView/mapProjection()``: later camera changes do not affect it.
///
/// Differs from Mapbox: made only by a map view; it cannot be given another camera.
public final class MGLMapProjection {
    private let viewport: MapViewport

    init(viewport: MapViewport) { self.viewport = viewport }

    /// Where `coordinate` shows, in the map view's points.
    public func convert(_ coordinate: CLLocationCoordinate2D) -> CGPoint { viewport.convert(coordinate) }

    /// The coordinate under `point` (in the map view's points).
    public func convert(_ point: CGPoint) -> CLLocationCoordinate2D { viewport.convert(point) }

    /// Ground metres per point at the centre latitude.
    public var metersPerPoint: CLLocationDistance { viewport.metersPerPoint }
}
