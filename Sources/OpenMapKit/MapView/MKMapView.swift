// MapKit's MKMapView as a headless model: the state of an interactive map (frame, camera,
// constraints, configuration, annotations, overlays, selection) and its behaviour (animations on
// an injectable clock, delegate callbacks in MapKit's order). Any surface can drive it: tests, a
// server, a desktop window.
//
// This file holds the frame, the camera and its animations; the annotation, overlay and
// conversion members are in the neighbouring MKMapView+*.swift files.

import Foundation
import MapGeometry

/// An interactive map (MapKit's `MKMapView`), as a model that owns all the state and behaviour
/// and draws nothing by itself.
///
/// **State.** The map shows a `MapViewport`: the frame's size, a centre, a zoom level, a heading
/// and a pitch. ``region``, ``visibleMapRect`` and ``camera`` are views of it, and setting any of
/// them moves it, fitted to the frame's aspect ratio as MapKit does.
///
/// **Constraints.** Every change — by code or by gesture — is clamped: the centre to the Mercator
/// world and to ``cameraBoundary``; the camera distance to ``cameraZoomRange`` and to the map's
/// own zoom limits (the world fills the frame's shorter side at the farthest, zoom 22 at the
/// nearest); the pitch to 0 … 60° (0 when ``isPitchEnabled`` is false); the heading to 0 ..< 360°
/// (0 when ``isRotateEnabled`` is false).
///
/// **Hostile input.** Regions, map rectangles, cameras and coordinates that are invalid (NaN,
/// infinite, latitude beyond ±90°, negative spans, a null rectangle) are ignored: the map stays
/// as it was and no callback fires. Valid but extreme values are clamped as above. A frame with a
/// non-finite or negative size counts as zero-size. While the frame is zero-size the map shows
/// nothing (no annotation views, no renderers); a region or rectangle set then is kept and fitted
/// when the frame gets a size, as MapKit does for a view that is not laid out yet.
///
/// **Clustering.** Annotations whose views share a ``MKAnnotationView/clusteringIdentifier`` and
/// come within ``clusteringRadius`` points of each other are shown as one ``MKClusterAnnotation``
/// (from the delegate's `clusterAnnotationForMemberAnnotations`) with a view of its own; see
/// MKMapView+Clustering.swift. Clusters change with the whole zoom level, not with panning.
///
/// **Animations** run on ``clock``: an animated change starts at once and moves each time the
/// driver calls ``advanceAnimations()``; ``isAnimating`` says whether it should keep calling.
///
/// **Threads.** Like MapKit's, a map view is not thread-safe: create and use it on one thread.
///
/// **Delegate.** See ``MKMapViewDelegate`` for the order of callbacks and what happens when a
/// delegate calls back into the map view.
///
/// **Differs from MapKit.** It is not a `UIView`: it draws a frame only when asked, with
/// ``render()``; gestures arrive as calls such as ``pan(by:)`` and ``tap(at:)``; the user's
/// location comes from ``userLocationProvider``; an invalid region is ignored where MapKit
/// raises an exception.
public final class MKMapView {
    /// The delegate, held weakly.
    public weak var delegate: (any MKMapViewDelegate)?

    /// The clock animations read (an OpenMapKit addition).
    public let clock: any MKMapViewClock

    /// What the map shows now (an OpenMapKit addition): size, centre, zoom, heading, pitch.
    public private(set) var viewport: MapViewport

    /// A framing asked for while the frame was zero-size, applied when it gets a size.
    private var pendingFraming: (rect: MKMapRect, edgePadding: MKEdgeInsets)?
    /// Whether code or a gesture has moved the map (until then a resize keeps the whole world in view).
    private var positioned = false

    /// The camera animation in progress.
    var animation: CameraAnimation?

    /// How deep the map view is in delegate callbacks; camera changes asked for meanwhile wait.
    private var callbackDepth = 0
    private var queuedCameraChanges: [() -> Void] = []

    // Annotation and overlay state (used by the MKMapView+Annotations / +Overlays files).
    var annotationStore = AnnotationStore()
    var annotationViews: [ObjectIdentifier: MKAnnotationView] = [:]
    var reuseQueues: [String: [MKAnnotationView]] = [:]
    var registeredViewClasses: [String: MKAnnotationView.Type] = [:]
    var selectedAnnotation: (any MKAnnotation)?
    var overlayLists: [[any MKOverlay]] = [[], []]
    var overlayRenderers: [ObjectIdentifier: MKOverlayRenderer] = [:]
    var updatingContent = false
    var contentNeedsAnotherPass = false
    var configurationState = MapViewConfigurationState()
    var locationState = MapViewLocationState()
    var gestureState = MapViewGestureState()
    var dragState: MapViewDragState?
    var renderState = MapViewRenderState()
    var clusterState = MapViewClusterState()
    var featureState = MapViewFeatureState()
    var clusterRadius = MKMapView.defaultClusteringRadius
    /// The limits a face may set beyond MapKit's (see ``MapViewCameraLimits``).
    var cameraLimits = MapViewCameraLimits()
    /// How long a released pan coasts, in seconds of its release speed (UIScrollView's normal
    /// deceleration; Mapbox's `decelerationRate` sets it, 0 stops at once).
    var decelerationTime = MKMapView.decelerationTime
    /// The padding the last camera change measured its centre in (Mapbox's content inset plus
    /// edge padding; zero for MapKit's face): where an animation's centre starts from.
    var cameraPadding = MKEdgeInsets.zero
    /// Why the change being reported now happens (read by delegate adapters during callbacks).
    var changeReason: MapViewChangeReason = .programmatic
    /// Asked before each gesture step moves the map, with the viewport before and after and the
    /// gesture's reason; false keeps the map where it is (Mapbox's `shouldChangeFrom:to:`).
    var gestureChangeFilter: ((MapViewport, MapViewport, MapViewChangeReason) -> Bool)?
    /// Completion handlers of camera changes that have ended, run once the callbacks return.
    private var pendingCompletions: [() -> Void] = []

    /// The default duration of an animated camera change, in seconds.
    public static let defaultAnimationDuration: TimeInterval = 0.35
    /// The nearest zoom level the map allows (about 2 cm per point at the equator).
    public static let maximumZoomLevel = 22.0

    /// A map view with `frame` (in points), showing the whole world, north up and flat.
    ///
    /// - Parameter frame: the view's frame in its window, in points (while its size is zero the
    ///   map shows nothing).
    /// - Parameter clock: where animations read the time; the system clock by default, a
    ///   ``MKManualMapViewClock`` for tests.
    public init(frame: CGRect = .zero, clock: any MKMapViewClock = MKSystemMapViewClock()) {
        self.clock = clock
        let size = MKMapView.sanitized(frame.size)
        storedFrame = CGRect(origin: MKMapView.sanitized(frame.origin), size: size)
        // The farthest zoom allowed: the whole world across the shorter side.
        viewport = MapViewport(size: size, centerCoordinate: CLLocationCoordinate2D(), zoomLevel: -100)
        viewport = constrained(viewport)
    }

    // MARK: - Frame

    private var storedFrame: CGRect

    /// The view's frame in its window, in points. Changing the size keeps the centre and zoom
    /// (a region set while the frame was zero-size is fitted now) and reports the region change.
    public var frame: CGRect {
        get { storedFrame }
        set {
            let size = MKMapView.sanitized(newValue.size)
            storedFrame = CGRect(origin: MKMapView.sanitized(newValue.origin), size: size)
            guard size != viewport.size else { return }
            requestCameraChange { [self] in
                stopAnimation()
                var target = viewport
                target.size = size
                if let pending = pendingFraming, size.width > 0, size.height > 0 {
                    pendingFraming = nil
                    target = framing(pending.rect, edgePadding: pending.edgePadding, size: size)
                } else if !positioned {
                    // Never positioned: keep showing the whole world at the new size.
                    target.zoomLevel = -100
                }
                let wasPositioned = positioned
                apply(target, animated: false)
                positioned = wasPositioned
            }
        }
    }

    /// The view's bounds: its frame's size at the origin.
    public var bounds: CGRect { CGRect(origin: .zero, size: storedFrame.size) }

    static func sanitized(_ size: CGSize) -> CGSize {
        func clean(_ v: CGFloat) -> CGFloat { v.isFinite && v > 0 ? v : 0 }
        return CGSize(width: clean(size.width), height: clean(size.height))
    }

    static func sanitized(_ point: CGPoint) -> CGPoint {
        CGPoint(x: point.x.isFinite ? point.x : 0, y: point.y.isFinite ? point.y : 0)
    }

    var hasArea: Bool { viewport.size.width > 0 && viewport.size.height > 0 }

    // MARK: - Region, centre, visible rectangle

    /// The area the map shows. Setting it fits the region to the frame's aspect ratio (reading it
    /// back gives ``regionThatFits(_:)`` of it) and turns the map north up and flat. Invalid
    /// regions are ignored.
    public var region: MKCoordinateRegion {
        get {
            if !hasArea, let pending = pendingFraming { return MKCoordinateRegion(pending.rect) }
            return viewport.region
        }
        set { setRegion(newValue, animated: false) }
    }

    /// Sets ``region``, animated or not.
    public func setRegion(_ region: MKCoordinateRegion, animated: Bool) {
        guard MKMapView.isUsable(region) else { return }
        setVisibleMapRect(MKMapRect(region), edgePadding: .zero, animated: animated)
    }

    /// The centre of the map. Setting it keeps the zoom level (so the span in degrees may
    /// change with latitude). Invalid coordinates are ignored.
    public var centerCoordinate: CLLocationCoordinate2D {
        get { hasArea || pendingFraming == nil ? viewport.centerCoordinate : MKCoordinateRegion(pendingFraming!.rect).center }
        set { setCenter(newValue, animated: false) }
    }

    /// Sets ``centerCoordinate``, animated or not.
    public func setCenter(_ coordinate: CLLocationCoordinate2D, animated: Bool) {
        guard coordinate.latitude.isFinite, coordinate.longitude.isFinite, abs(coordinate.latitude) <= 90 else { return }
        requestCameraChange { [self] in
            if !hasArea, let pending = pendingFraming {
                // Not laid out yet: move the framing that will be applied.
                let c = MKMapPoint(coordinate)
                pendingFraming = (MKMapRect(x: c.x - pending.rect.width / 2, y: c.y - pending.rect.height / 2,
                                            width: pending.rect.width, height: pending.rect.height), pending.edgePadding)
            }
            var target = currentTarget
            target.centerCoordinate = coordinate.normalized
            apply(target, animated: animated)
        }
    }

    /// The map rectangle the map shows. Setting it fits the rectangle to the frame's aspect ratio
    /// and turns the map north up and flat. Null, empty or non-finite rectangles are ignored.
    public var visibleMapRect: MKMapRect {
        get {
            if !hasArea, let pending = pendingFraming { return pending.rect }
            return viewport.visibleMapRect
        }
        set { setVisibleMapRect(newValue, animated: false) }
    }

    /// Sets ``visibleMapRect``, animated or not.
    public func setVisibleMapRect(_ mapRect: MKMapRect, animated: Bool) {
        setVisibleMapRect(mapRect, edgePadding: .zero, animated: animated)
    }

    /// Shows `mapRect` with `edgePadding` (in points) kept clear around it.
    public func setVisibleMapRect(_ mapRect: MKMapRect, edgePadding insets: MKEdgeInsets, animated: Bool) {
        guard MKMapView.isUsable(mapRect) else { return }
        let padding = MKMapView.sanitized(insets)
        requestCameraChange { [self] in
            guard hasArea else {
                pendingFraming = (mapRect, padding)
                positioned = true
                return
            }
            pendingFraming = nil
            apply(framing(mapRect, edgePadding: padding, size: viewport.size), animated: animated)
        }
    }

    /// The viewport showing `mapRect` (north up, flat) in a frame of `size`; a point is centred
    /// as near as allowed.
    private func framing(_ mapRect: MKMapRect, edgePadding: MKEdgeInsets, size: CGSize) -> MapViewport {
        guard mapRect.width > 0 || mapRect.height > 0 else {
            return MapViewport(size: size, centerCoordinate: MKMapPoint(x: mapRect.midX, y: mapRect.midY).coordinate.normalized,
                               zoomLevel: MKMapView.maximumZoomLevel)
        }
        return MapViewport(size: size, visibleMapRect: mapRect, edgePadding: edgePadding)
    }

    /// The region ``region`` would become if set to `region`: grown about its centre to the
    /// frame's aspect ratio. Invalid regions come back unchanged.
    public func regionThatFits(_ region: MKCoordinateRegion) -> MKCoordinateRegion {
        guard MKMapView.isUsable(region), hasArea else { return region }
        return viewport.regionThatFits(region)
    }

    /// The rectangle with the frame's aspect ratio, centred on `mapRect`, that contains it.
    public func mapRectThatFits(_ mapRect: MKMapRect) -> MKMapRect {
        mapRectThatFits(mapRect, edgePadding: .zero)
    }

    /// The rectangle with the frame's aspect ratio that shows `mapRect` inside the frame less
    /// `insets`.
    public func mapRectThatFits(_ mapRect: MKMapRect, edgePadding insets: MKEdgeInsets) -> MKMapRect {
        guard MKMapView.isUsable(mapRect) else { return mapRect }
        return viewport.mapRectThatFits(mapRect, edgePadding: MKMapView.sanitized(insets))
    }

    // MARK: - Camera

    /// The camera the map is seen through (a new object on every read; MapKit copies it too).
    /// Setting it applies its centre, distance, heading and pitch, constrained as described on the
    /// class. Cameras with non-finite values or an invalid centre are ignored; a distance of 0 or
    /// less is the nearest allowed.
    public var camera: MKMapCamera {
        get { viewport.camera }
        set { setCamera(newValue, animated: false) }
    }

    /// Sets ``camera``, animated or not.
    public func setCamera(_ camera: MKMapCamera, animated: Bool) {
        let c = camera.centerCoordinate
        guard c.latitude.isFinite, c.longitude.isFinite, abs(c.latitude) <= 90, camera.centerCoordinateDistance.isFinite,
              camera.heading.isFinite, camera.pitch.isFinite else { return }
        let center = c.normalized, distance = camera.centerCoordinateDistance, heading = camera.heading, pitch = camera.pitch
        requestCameraChange { [self] in
            pendingFraming = nil
            var target = currentTarget
            target.centerCoordinate = center
            target.heading = heading
            target.pitch = pitch
            target.zoomLevel = distance > 0 && hasArea
                ? MapViewport.zoomLevel(forCenterCoordinateDistance: distance, latitude: center.latitude, viewHeight: Double(viewport.size.height))
                : (distance > 0 ? target.zoomLevel : MKMapView.maximumZoomLevel)
            apply(target, animated: animated)
        }
    }

    /// The zoom level the map shows (an OpenMapKit addition; MapLibre's convention, see
    /// `MapViewport`).
    public var zoomLevel: Double { viewport.zoomLevel }

    /// Moves to `zoomLevel` keeping the centre (an OpenMapKit addition). Non-finite levels are ignored.
    public func setZoomLevel(_ zoomLevel: Double, animated: Bool) {
        guard zoomLevel.isFinite else { return }
        requestCameraChange { [self] in
            var target = currentTarget
            target.zoomLevel = zoomLevel
            apply(target, animated: animated)
        }
    }

    // MARK: - Constraints

    /// Where the map's centre may go; nil for anywhere. Setting it moves the map inside at once.
    public var cameraBoundary: CameraBoundary? {
        get { storedBoundary?.copy() }
        set { setCameraBoundary(newValue, animated: false) }
    }
    private var storedBoundary: CameraBoundary?

    /// Sets ``cameraBoundary``, moving the map inside it, animated or not.
    public func setCameraBoundary(_ boundary: CameraBoundary?, animated: Bool) {
        storedBoundary = boundary?.copy()
        reconstrain(animated: animated)
    }

    /// How near and far the camera may be. Setting nil restores the unlimited range (MapKit's
    /// property is implicitly unwrapped for that reason). Setting it moves the map into range at once.
    public var cameraZoomRange: CameraZoomRange! {
        get { storedZoomRange.copy() }
        set { setCameraZoomRange(newValue, animated: false) }
    }
    private var storedZoomRange = CameraZoomRange.unlimited

    /// Sets ``cameraZoomRange``, moving the map into range, animated or not.
    public func setCameraZoomRange(_ range: CameraZoomRange?, animated: Bool) {
        storedZoomRange = range?.copy() ?? .unlimited
        reconstrain(animated: animated)
    }

    /// Whether the camera's pitch tilts the map. Turning it off flattens the map.
    public var isPitchEnabled = true {
        didSet { if oldValue != isPitchEnabled { reconstrain(animated: false) } }
    }

    /// Whether the camera's heading turns the map. Turning it off turns the map north up.
    public var isRotateEnabled = true {
        didSet { if oldValue != isRotateEnabled { reconstrain(animated: false) } }
    }

    /// Whether a person may pan the map (code may move it regardless).
    public var isScrollEnabled = true
    /// Whether a person may zoom the map (code may zoom it regardless).
    public var isZoomEnabled = true

    private func reconstrain(animated: Bool) {
        requestCameraChange { [self] in
            apply(currentTarget, animated: animated)
        }
    }

    /// The viewport `proposed` becomes under the map's constraints.
    func constrained(_ proposed: MapViewport) -> MapViewport {
        var v = proposed
        // Heading and pitch.
        v.heading = isRotateEnabled ? MKMapView.normalizedHeading(v.heading) : 0
        v.pitch = isPitchEnabled ? min(max(v.effectivePitch, cameraLimits.minimumPitch), cameraLimits.maximumPitch) : 0
        // Centre: inside Mercator's world, then inside the boundary.
        var center = v.centerCoordinate.normalized
        center.latitude = min(max(center.latitude, -MKMercatorMaximumLatitude), MKMercatorMaximumLatitude)
        if let boundary = storedBoundary {
            center = boundary.clamp(MKMapPoint(center)).coordinate.normalized
        }
        v.centerCoordinate = center
        // Zoom: the map's own limits, then the camera zoom range (distances depend on latitude and height).
        var minZoom: Double, maxZoom = cameraLimits.maximumZoom
        if let minimum = cameraLimits.minimumZoom {
            // Mapbox: no farther than the minimum, nor so far that the world's height no longer
            // fills the view (so it never repeats vertically).
            let height = Double(v.size.height)
            minZoom = height > 0 ? max(minimum, log2(height / MapViewport.worldPointsAtZoomZero)) : minimum
        } else {
            // MapKit: the whole world across the shorter side at the farthest.
            let shorterSide = Double(min(v.size.width, v.size.height))
            minZoom = shorterSide > 0 ? min(0, log2(shorterSide / MapViewport.worldPointsAtZoomZero)) : 0
        }
        let height = Double(v.size.height)
        if height > 0 {
            let range = storedZoomRange
            if range.minCenterCoordinateDistance != MKMapCameraZoomDefault {
                maxZoom = min(maxZoom, MapViewport.zoomLevel(forCenterCoordinateDistance: max(range.minCenterCoordinateDistance, 1e-6),
                                                             latitude: center.latitude, viewHeight: height))
            }
            if range.maxCenterCoordinateDistance != MKMapCameraZoomDefault {
                minZoom = max(minZoom, MapViewport.zoomLevel(forCenterCoordinateDistance: max(range.maxCenterCoordinateDistance, 1e-6),
                                                             latitude: center.latitude, viewHeight: height))
            }
            if minZoom > maxZoom { minZoom = maxZoom }
        }
        v.zoomLevel = min(max(v.zoomLevel.isFinite ? v.zoomLevel : minZoom, minZoom), maxZoom)
        return v
    }

    static func normalizedHeading(_ heading: Double) -> Double {
        guard heading.isFinite else { return 0 }
        let h = heading.truncatingRemainder(dividingBy: 360)
        return h < 0 ? h + 360 : (h == 360 ? 0 : h)
    }

    // MARK: - Validation

    static func isUsable(_ region: MKCoordinateRegion) -> Bool {
        region.center.latitude.isFinite && region.center.longitude.isFinite && abs(region.center.latitude) <= 90
            && region.span.latitudeDelta.isFinite && region.span.longitudeDelta.isFinite
            && region.span.latitudeDelta >= 0 && region.span.longitudeDelta >= 0
            && region.span.latitudeDelta <= 180 && region.span.longitudeDelta <= 360
    }

    static func isUsable(_ rect: MKMapRect) -> Bool {
        !rect.isNull && rect.minX.isFinite && rect.minY.isFinite && rect.width.isFinite && rect.height.isFinite
            && rect.width >= 0 && rect.height >= 0
    }

    static func sanitized(_ insets: MKEdgeInsets) -> MKEdgeInsets {
        func clean(_ v: CGFloat) -> CGFloat { v.isFinite ? max(v, 0) : 0 }
        return MKEdgeInsets(top: clean(insets.top), left: clean(insets.left), bottom: clean(insets.bottom), right: clean(insets.right))
    }

    // MARK: - Applying changes

    /// Where the map is headed: the end of the running animation, else what it shows.
    var currentTarget: MapViewport { animation?.to ?? viewport }

    /// Runs `change` now, or after the current delegate callbacks return when called from one;
    /// the callbacks it makes report `reason` (``changeReason``).
    func requestCameraChange(reason: MapViewChangeReason = .programmatic, _ change: @escaping () -> Void) {
        let run = { [self] in
            let outer = changeReason
            changeReason = reason
            change()
            changeReason = outer
        }
        if callbackDepth > 0 {
            queuedCameraChanges.append(run)
            return
        }
        withCallbacks(run)
    }

    /// Runs `body` as if no callbacks were under way, so camera changes it makes happen at once
    /// (for the gesture veto: Mapbox's delegate may set a camera there and read it back); what the
    /// outer callbacks queued waits until they return, as before.
    func outsideCallbacks<T>(_ body: () -> T) -> T {
        let depth = callbackDepth, queued = queuedCameraChanges, completions = pendingCompletions
        (callbackDepth, queuedCameraChanges, pendingCompletions) = (0, [], [])
        let result = body()
        callbackDepth = depth
        queuedCameraChanges = queued + queuedCameraChanges
        pendingCompletions = completions + pendingCompletions
        return result
    }

    /// Whether the gesture veto lets a gesture move the map from `from` to `to`.
    func allowsGestureChange(from: MapViewport, to: MapViewport, reason: MapViewChangeReason) -> Bool {
        guard let filter = gestureChangeFilter else { return true }
        return outsideCallbacks { filter(from, to, reason) }
    }

    /// Queues a camera change's completion handler: it runs when the callbacks under way have
    /// returned (at once when there are none), so it may start another change.
    func complete(_ completion: (() -> Void)?) {
        guard let completion else { return }
        pendingCompletions.append(completion)
        if callbackDepth == 0 { withCallbacks {} }
    }

    /// Runs `body`, which may call the delegate; camera changes the delegate asks for wait until
    /// the outermost such body has returned, then run in order.
    func withCallbacks(_ body: () -> Void) {
        callbackDepth += 1
        body()
        callbackDepth -= 1
        guard callbackDepth == 0 else { return }
        while !queuedCameraChanges.isEmpty {
            let next = queuedCameraChanges.removeFirst()
            withCallbacks(next)
        }
        while callbackDepth == 0, !pendingCompletions.isEmpty {
            pendingCompletions.removeFirst()()
        }
    }

    /// Moves to `proposed` (constrained): at once with will/visible/did callbacks, or by starting
    /// an animation. A change that changes nothing calls nothing. Must run inside ``withCallbacks(_:)``.
    func apply(_ proposed: MapViewport, animated: Bool, duration: TimeInterval = MKMapView.defaultAnimationDuration) {
        apply(proposed, transition: CameraTransition(duration: animated ? duration : 0), padding: cameraPadding)
    }

    /// Moves to `proposed` (a frame viewport, constrained here) as `transition` says, its centre
    /// measured in `padding` at the end (the animation's centre moves from the one measured in
    /// ``cameraPadding``). A change that changes nothing calls no delegate method; its completion
    /// still runs. Must run inside ``withCallbacks(_:)``.
    func apply(_ proposed: MapViewport, transition: CameraTransition, padding: MKEdgeInsets) {
        let target = constrained(proposed)
        let fromPadding = cameraPadding
        if animation != nil {
            if animation!.to == target, !transition.flies {
                // Already headed there: the running animation goes on and completes for both.
                if let completion = transition.completion { animation!.completions.append(completion) }
                cameraPadding = padding
                return
            }
            stopAnimation()
        }
        positioned = true
        cameraPadding = padding
        guard target != viewport else {
            complete(transition.completion)
            return
        }
        if gestureState.reportedWill {
            // Code moves the map mid-gesture: the gesture's change ends here, so pairs stay
            // balanced; its next step starts a new one.
            gestureState.reportedWill = false
            delegate?.mapView(self, regionDidChangeAnimated: false)
        }
        var duration = transition.duration ?? 0
        var flight: FlightPath?
        if transition.flies, hasArea, target.size == viewport.size {
            let inner = CGSize(width: max(viewport.size.width - padding.left - padding.right, 1),
                               height: max(viewport.size.height - padding.top - padding.bottom, 1))
            let limits = (cameraLimits.minimumZoom ?? -100)...cameraLimits.maximumZoom
            let path = FlightPath(from: viewport.logical(padding: fromPadding), to: target.logical(padding: padding),
                                  span: Double(max(inner.width, inner.height)), peakZoom: transition.peakZoom,
                                  zoomLimits: limits.lowerBound <= limits.upperBound ? limits : limits.upperBound...limits.upperBound)
            if transition.duration == nil { duration = path.defaultDuration }
            flight = path
        }
        if duration > 0, hasArea, target.size == viewport.size {
            delegate?.mapView(self, regionWillChangeAnimated: true)
            var running = CameraAnimation(from: viewport, to: target, start: clock.now, duration: duration)
            running.timing = transition.timing ?? (flight != nil ? CameraAnimation.flightTiming : nil)
            running.flight = flight
            running.fromPadding = fromPadding
            running.toPadding = padding
            running.reason = changeReason
            if let completion = transition.completion { running.completions = [completion] }
            animation = running
            return
        }
        delegate?.mapView(self, regionWillChangeAnimated: false)
        viewport = target
        delegate?.mapViewDidChangeVisibleRegion(self)
        updateVisibleContent()
        delegate?.mapView(self, regionDidChangeAnimated: false)
        complete(transition.completion)
    }

    /// Ends the running animation where it is, reporting the end of its change (with the
    /// transition-cancelled reason) and queueing its completion handlers.
    func stopAnimation() {
        guard let running = animation else { return }
        animation = nil
        let outer = changeReason
        changeReason = running.reason.union(.transitionCancelled)
        delegate?.mapView(self, regionDidChangeAnimated: running.reportsAnimated)
        changeReason = outer
        for completion in running.completions { complete(completion) }
    }

    /// Shows `next` now, reporting `mapViewDidChangeVisibleRegion` (a gesture step, an animation frame).
    func show(_ next: MapViewport) {
        guard next != viewport else { return }
        positioned = true
        viewport = next
        delegate?.mapViewDidChangeVisibleRegion(self)
        updateVisibleContent()
    }

    /// Whether an animation is running: a camera change, or an annotation view appearing (a
    /// marker that ``MKMarkerAnnotationView/animatesWhenAdded``, a pin that
    /// ``MKPinAnnotationView/animatesDrop``). The driver should keep calling
    /// ``advanceAnimations()`` and drawing frames meanwhile.
    public var isAnimating: Bool { animation != nil || annotationsAppearing }

    /// Moves the running animation to the clock's current time: each step reports
    /// `mapViewDidChangeVisibleRegion`; the last one also `regionDidChangeAnimated(true)`.
    public func advanceAnimations() {
        guard let reason = animation?.reason else { return }
        requestCameraChange(reason: reason) { [self] in
            guard let running = animation else { return }
            changeReason = running.reason
            let progress = running.progress(at: clock.now)
            let next = progress >= 1 ? running.to : running.viewport(at: progress)
            if progress >= 1 { animation = nil }
            show(next)
            if progress >= 1 {
                delegate?.mapView(self, regionDidChangeAnimated: running.reportsAnimated)
                for completion in running.completions { complete(completion) }
            }
        }
    }

    // MARK: - Content passes

    /// Brings annotation views and overlay renderers in line with what is on screen. A pass asked
    /// for while one runs (from a delegate callback) runs again after it.
    func updateVisibleContent() {
        if updatingContent {
            contentNeedsAnotherPass = true
            return
        }
        updatingContent = true
        repeat {
            contentNeedsAnotherPass = false
            updateAnnotationViews()
            updateOverlayRenderers()
        } while contentNeedsAnotherPass
        updatingContent = false
    }
}

/// A camera animation: from one viewport to another over `duration` seconds. The centre moves in
/// map points the short way round the world, the zoom level linearly (so the scale changes at a
/// steady rate), the heading the short way round. With paddings, the centre that moves so is the
/// one at the padded area's centre (the paddings themselves move linearly from one to the other);
/// a flight moves centre and zoom along Mapbox's powered-flight path (``FlightPath``).
struct CameraAnimation {
    enum Curve {
        /// Eased in and out: programmatic changes.
        case easeInOut
        /// Fast at first, slowing to a stop (1 − (1 − t)³): a pan's deceleration, whose start
        /// speed is 3 × distance / duration.
        case decelerate
    }

    let from: MapViewport
    let to: MapViewport
    let start: TimeInterval
    let duration: TimeInterval
    var curve = Curve.easeInOut
    /// The `animated` flag its `regionDidChange` reports (false for a gesture's deceleration,
    /// whose `regionWillChange` said false).
    var reportsAnimated = true
    /// A timing curve replacing ``curve``.
    var timing: CAMediaTimingFunction?
    /// The powered-flight path of centre and zoom, when the change flies.
    var flight: FlightPath?
    /// The paddings the centre is measured in at the start and at the end.
    var fromPadding = MKEdgeInsets.zero
    var toPadding = MKEdgeInsets.zero
    /// Why it runs (reported with each of its callbacks).
    var reason: MapViewChangeReason = .programmatic
    /// Called once when it ends, landed or interrupted.
    var completions: [() -> Void] = []

    /// MapLibre's default ease for flights (`DEFAULT_TRANSITION_EASE`).
    static let flightTiming = CAMediaTimingFunction(controlPoints: 0, 0, 0.25, 1)

    init(from: MapViewport, to: MapViewport, start: TimeInterval, duration: TimeInterval, curve: Curve = .easeInOut,
         reportsAnimated: Bool = true) {
        (self.from, self.to, self.start, self.duration, self.curve, self.reportsAnimated) = (from, to, start, duration, curve, reportsAnimated)
    }

    func progress(at now: TimeInterval) -> Double {
        guard duration > 0, now.isFinite else { return 1 }
        return min(max((now - start) / duration, 0), 1)
    }

    /// The eased fraction of the change at `progress` of the time.
    func eased(_ progress: Double) -> Double {
        if let timing { return timing.value(at: progress) }
        return switch curve {
        case .easeInOut: progress * progress * (3 - 2 * progress)
        case .decelerate: 1 - (1 - progress) * (1 - progress) * (1 - progress)
        }
    }

    func viewport(at progress: Double) -> MapViewport {
        let t = eased(progress)
        guard flight != nil || fromPadding != .zero || toPadding != .zero else {
            return CameraAnimation.interpolate(from, to, centre: t, zoom: from.zoomLevel + (to.zoomLevel - from.zoomLevel) * t, t)
        }
        let a = from.logical(padding: fromPadding), b = to.logical(padding: toPadding)
        let (zoom, centre) = flight?.state(at: t) ?? (a.zoomLevel + (b.zoomLevel - a.zoomLevel) * t, t)
        let logical = CameraAnimation.interpolate(a, b, centre: centre, zoom: zoom, t)
        return logical.framed(padding: MKEdgeInsets.interpolate(fromPadding, toPadding, t))
    }

    /// `a` moved towards `b`: the centre `centre` of the way in map points (the short way round),
    /// the zoom level given, heading (the short way) and pitch `t` of the way.
    static func interpolate(_ a: MapViewport, _ b: MapViewport, centre: Double, zoom: Double, _ t: Double) -> MapViewport {
        let p = MKMapPoint(a.centerCoordinate), q = MKMapPoint(b.centerCoordinate)
        var dx = q.x - p.x
        if dx > MKMapSize.worldWidth / 2 { dx -= MKMapSize.worldWidth }
        if dx < -MKMapSize.worldWidth / 2 { dx += MKMapSize.worldWidth }
        var x = p.x + dx * centre
        x = x.truncatingRemainder(dividingBy: MKMapSize.worldWidth)
        if x < 0 { x += MKMapSize.worldWidth }
        let center = MKMapPoint(x: x, y: p.y + (q.y - p.y) * centre).coordinate.normalized
        var dh = b.heading - a.heading
        if dh > 180 { dh -= 360 }
        if dh < -180 { dh += 360 }
        return MapViewport(size: b.size, centerCoordinate: center, zoomLevel: zoom,
                           heading: MKMapView.normalizedHeading(a.heading + dh * t), pitch: a.pitch + (b.pitch - a.pitch) * t)
    }
}

/// Limits on the camera a face may set beyond MapKit's own (Mapbox's minimum and maximum zoom
/// levels and pitches). The defaults are MapKit's: the world across the shorter side at the
/// farthest, zoom 22 at the nearest, pitch 0 … 60°.
struct MapViewCameraLimits {
    /// The farthest zoom level; nil for MapKit's rule (the whole world across the shorter side).
    var minimumZoom: Double?
    /// The nearest zoom level.
    var maximumZoom = MKMapView.maximumZoomLevel
    var minimumPitch = 0.0
    var maximumPitch = MapViewport.maximumPitch
}

/// Map views compare by identity, as MapKit's (NSObject) do.
extension MKMapView: Hashable {
    public static func == (a: MKMapView, b: MKMapView) -> Bool { a === b }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
