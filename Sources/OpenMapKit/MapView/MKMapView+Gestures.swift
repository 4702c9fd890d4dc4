// MKMapView's gestures as input events: whatever surface drives the map (a window's mouse and
// touchpad, a test) reports pans, pinches, rotations, tilts and taps here.

import Foundation
import MapGeometry

/// The state of the gesture in progress.
struct MapViewGestureState {
    /// Between ``MKMapView/beginGesture()`` and ``MKMapView/endGesture(velocity:)``.
    var active = false
    /// Whether its `regionWillChange` has been reported (at its first step that moves the map).
    var reportedWill = false
    /// Whether it panned (which ends user tracking).
    var panned = false
    var rotated = false
    /// The kinds of gesture step it made (reported as the change's reason).
    var reason: MapViewChangeReason = []
}

extension MKMapView {
    /// How long a pan keeps going after release, as UIScrollView's normal deceleration: the
    /// distance coasted is the release velocity × this many seconds.
    static let decelerationTime: TimeInterval = 0.5
    /// Releases slower than this (points per second) stop at once.
    static let minimumDecelerationSpeed: CGFloat = 20
    /// Release speeds are capped at this many points per second.
    static let maximumDecelerationSpeed: CGFloat = 20_000

    // MARK: - Continuous gestures

    /// Starts a gesture (finger or button down). Stops any running animation. The gesture's
    /// `regionWillChange(false)` is reported when it first moves the map; steps outside a
    /// begin/end pair are gestures of their own.
    public func beginGesture() {
        requestCameraChange { [self] in
            stopAnimation()
            gestureState = MapViewGestureState(active: true)
        }
    }

    /// Ends the gesture (finger or button up). With a release `velocity` (points per second, the
    /// content's motion) the map coasts to a stop — `mapViewDidChangeVisibleRegion` each frame as
    /// the clock advances — and `regionDidChange(false)` follows when it stops; otherwise at once.
    /// A gesture that panned ends user tracking (`didChange mode: .none`).
    public func endGesture(velocity: CGPoint = .zero) {
        requestCameraChange(reason: gestureState.reason) { [self] in
            guard gestureState.active else { return }
            let state = gestureState
            changeReason = state.reason
            gestureState = MapViewGestureState()
            if state.panned { userInteractionInterruptsTracking(panned: true) } else if state.rotated { userInteractionInterruptsTracking(panned: false) }
            guard state.reportedWill else { return }
            // Non-finite components count as 0; absurd speeds are capped.
            let cap = MKMapView.maximumDecelerationSpeed
            let vx = velocity.x.isFinite ? min(max(velocity.x, -cap), cap) : 0, vy = velocity.y.isFinite ? min(max(velocity.y, -cap), cap) : 0
            let speed = (vx * vx + vy * vy).squareRoot()
            if isScrollEnabled, speed >= MKMapView.minimumDecelerationSpeed, hasArea, decelerationTime > 0 {
                let t = decelerationTime
                let target = constrained(panned(viewport, by: CGPoint(x: vx * t, y: vy * t)))
                if target != viewport, allowsGestureChange(from: viewport, to: target, reason: state.reason) {
                    // Ease-out cubic starts at 3 × distance / duration: the release speed.
                    var coast = CameraAnimation(from: viewport, to: target, start: clock.now, duration: 3 * t,
                                                curve: .decelerate, reportsAnimated: false)
                    coast.reason = state.reason
                    animation = coast
                    return
                }
            }
            delegate?.mapView(self, regionDidChangeAnimated: false)
        }
    }

    /// Pans: the content moves by `translation` points (a drag to the right shows what is west).
    /// Ignored when ``isScrollEnabled`` is false.
    public func pan(by translation: CGPoint) {
        guard isScrollEnabled, translation.x.isFinite, translation.y.isFinite, translation != .zero else { return }
        gestureStep(panned: true, reason: .gesturePan) { [self] v in panned(v, by: translation) }
    }

    /// Pinches: the zoom scale multiplies by `scale` (2 zooms in one level) keeping the place under
    /// `point` there. Ignored when ``isZoomEnabled`` is false or `scale` is not positive.
    public func pinch(scale: CGFloat, around point: CGPoint) {
        guard isZoomEnabled, scale.isFinite, scale > 0, scale != 1, point.x.isFinite, point.y.isFinite else { return }
        gestureStep(reason: .gesturePinch) { [self] v in zoomed(v, by: log2(Double(scale)), around: point) }
    }

    /// Rotates: the map turns by `degrees` clockwise (the heading decreases) about `point`.
    /// Ignored when ``isRotateEnabled`` is false. Following with heading falls back to following.
    public func rotate(by degrees: CLLocationDirection, around point: CGPoint) {
        guard isRotateEnabled, degrees.isFinite, degrees != 0, point.x.isFinite, point.y.isFinite else { return }
        gestureStep(rotated: true, reason: .gestureRotate) { [self] v in
            let anchor = v.mapPoint(for: point)
            var next = v
            next.heading = MKMapView.normalizedHeading(v.heading - degrees)
            return keeping(anchor, at: point, in: next)
        }
    }

    /// Tilts (two fingers dragged up or down): the pitch grows by `degrees`, within 0 … 60°.
    /// Ignored when ``isPitchEnabled`` is false.
    public func tilt(by degrees: Double) {
        guard isPitchEnabled, degrees.isFinite, degrees != 0 else { return }
        gestureStep(reason: .gestureTilt) { v in
            var next = v
            next.pitch = min(max(v.pitch + degrees, 0), MapViewport.maximumPitch)
            return next
        }
    }

    // MARK: - Discrete gestures

    /// Zooms by `levels` (positive in) keeping the place under `point` there, as a mouse wheel
    /// does; animated, it reports like an animated change. Ignored when ``isZoomEnabled`` is false.
    public func zoom(by levels: Double, around point: CGPoint, animated: Bool) {
        guard isZoomEnabled, levels.isFinite, levels != 0, point.x.isFinite, point.y.isFinite else { return }
        let reason: MapViewChangeReason = levels > 0 ? .gestureZoomIn : .gestureZoomOut
        requestCameraChange(reason: reason) { [self] in
            guard hasArea else { return }
            let target = zoomed(currentTarget, by: levels, around: point)
            guard allowsGestureChange(from: viewport, to: constrained(target), reason: reason) else { return }
            apply(target, animated: animated)
        }
    }

    /// A double tap: zooms in one level about `point`, animated.
    public func doubleTap(at point: CGPoint) { zoom(by: 1, around: point, animated: true) }

    /// A two-finger tap: zooms out one level about `point` (between the fingers), animated.
    public func twoFingerTap(at point: CGPoint) { zoom(by: -1, around: point, animated: true) }

    /// Turns the map north up, animated — what a tap on the compass does (here and on
    /// ``MKCompassButton``). The rest of the camera is the one the map is headed for, so a zoom
    /// or pan animation under way still ends where it was going.
    func turnNorth() {
        requestCameraChange(reason: [.resetNorth]) { [self] in
            var target = currentTarget
            target.heading = 0
            apply(target, animated: true)
        }
    }

    /// A tap, handled by what is drawn at `point`, front-most first:
    /// - the selected annotation's callout: a tap on an enabled ``UIControl`` accessory calls the
    ///   delegate's `calloutAccessoryControlTapped`; anywhere else on the callout does nothing;
    /// - the compass (while shown) turns the map north up, animated;
    /// - the user-tracking button cycles ``userTrackingMode``, the pitch button tilts or
    ///   flattens the map, the zoom control zooms in (upper half) or out (lower half);
    /// - an annotation view: its annotation is selected (the front-most enabled view);
    /// - a label of the map (a point of interest, a place, a water or peak name) whose kind is in
    ///   ``selectableMapFeatures``: it is selected as an ``MKMapFeatureAnnotation``;
    /// - the bare map: the selected annotation is deselected.
    public func tap(at point: CGPoint) {
        guard point.x.isFinite, point.y.isFinite else { return }
        // The callout is drawn over everything else.
        if let callout = selectedCalloutLayout(), callout.box.contains(point) {
            if let control = callout.control(at: point), let selected = selectedAnnotation,
               let view = annotationViews[ObjectIdentifier(selected)] {
                withCallbacks { delegate?.mapView(self, annotationView: view, calloutAccessoryControlTapped: control) }
            }
            return
        }
        // The compass is above the annotations: a tap on it turns the map north up, as in MapKit.
        if isOnCompass(point) {
            turnNorth()
            return
        }
        if tapControl(at: point) { return }
        if let view = annotationView(at: point), let annotation = view.annotation {
            selectAnnotation(annotation, animated: true)
        } else if let feature = mapFeature(at: point) {
            selectMapFeature(feature)
        } else if let selected = selectedAnnotation {
            deselectAnnotation(selected, animated: true)
        }
    }

    /// The front-most visible, enabled annotation view whose frame contains `point` (an OpenMapKit
    /// addition, for hit-testing); views hidden because they collide with higher-priority ones
    /// (decluttered) are skipped. Front-most: the selected view, then higher `zPriority`, then
    /// the southern one (drawn later).
    public func annotationView(at point: CGPoint) -> MKAnnotationView? {
        var best: (view: MKAnnotationView, z: Float, y: CGFloat)?
        // Views hidden by decluttering are not drawn, so they cannot be tapped.
        let decluttered = declutteredAnnotations()
        for (_, view) in annotationViews where view.isEnabled && !view.isHidden && view.alpha > 0 {
            // A clustered annotation's view is not drawn: its cluster's view takes the taps.
            if let annotation = view.annotation, isClusteredMember(annotation) || decluttered.contains(ObjectIdentifier(annotation)) { continue }
            guard let frame = frame(of: view), frame.contains(point) else { continue }
            let z = view.isSelected ? view.selectedZPriority.rawValue : view.zPriority.rawValue
            if best == nil || z > best!.z || (z == best!.z && frame.maxY > best!.y) { best = (view, z, frame.maxY) }
        }
        return best?.view
    }

    // MARK: - Helpers

    /// One step of a gesture: reports `regionWillChange(false)` at the first step that moves the
    /// map, then `mapViewDidChangeVisibleRegion` per step. A step outside a gesture is one by itself.
    private func gestureStep(panned: Bool = false, rotated: Bool = false, reason: MapViewChangeReason,
                             _ transform: @escaping (MapViewport) -> MapViewport) {
        requestCameraChange(reason: reason) { [self] in
            guard hasArea else { return }
            let standalone = !gestureState.active
            if standalone {
                stopAnimation()
                gestureState = MapViewGestureState(active: true)
            } else if animation != nil {
                stopAnimation()
            }
            let next = constrained(transform(viewport))
            if next != viewport, allowsGestureChange(from: viewport, to: next, reason: reason) {
                gestureState.reason.formUnion(reason)
                if !gestureState.reportedWill {
                    gestureState.reportedWill = true
                    delegate?.mapView(self, regionWillChangeAnimated: false)
                }
                if panned { gestureState.panned = true }
                if rotated { gestureState.rotated = true }
                show(next)
            }
            if standalone { endGesture() }
        }
    }

    /// `v` with its content moved by `translation` points.
    func panned(_ v: MapViewport, by translation: CGPoint) -> MapViewport {
        let size = v.size
        let p = v.mapPoint(for: CGPoint(x: size.width / 2 - translation.x, y: size.height / 2 - translation.y))
        guard p.x.isFinite, p.y.isFinite else { return v }
        var next = v
        next.centerCoordinate = MapViewportAnchor.wrapped(p).coordinate.normalized
        return next
    }

    /// `v` zoomed by `levels` with the place under `point` kept there (zoom limits applied first,
    /// so a clamped zoom still keeps the anchor).
    func zoomed(_ v: MapViewport, by levels: Double, around point: CGPoint) -> MapViewport {
        let anchor = v.mapPoint(for: point)
        var next = v
        next.zoomLevel = v.zoomLevel + levels
        next.zoomLevel = constrained(next).zoomLevel
        return keeping(anchor, at: point, in: next)
    }

    /// `v` moved so that map point `anchor` shows at `point` (exact when flat; a few refinements
    /// when pitched, where the scale varies across the view).
    func keeping(_ anchor: MKMapPoint, at point: CGPoint, in v: MapViewport) -> MapViewport {
        v.moved(anchor, to: point)
    }
}

enum MapViewportAnchor {
    /// A map point with x wrapped into the world and y kept inside it.
    static func wrapped(_ p: MKMapPoint) -> MKMapPoint {
        var x = p.x.truncatingRemainder(dividingBy: MKMapSize.worldWidth)
        if x < 0 { x += MKMapSize.worldWidth }
        return MKMapPoint(x: x, y: min(max(p.y, 0), MKMapSize.worldWidth))
    }
}
