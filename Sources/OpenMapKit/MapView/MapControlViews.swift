// MapKit's stand-alone map controls: MKUserTrackingButton, MKPitchControl and MKZoomControl, as
// views an app places itself (turning the map view's own off), drawn by MapViewControls as the
// map view draws its own and acting on the map view they are made for.

import Foundation
import MapRender

/// A button that cycles the map view's user-tracking mode (MapKit's `MKUserTrackingButton`):
/// none → follow → follow with heading (when a heading is known) → none. It shows the mode set
/// elsewhere too: the arrow outlined while not following, filled while following, turned up
/// with a heading bar while following with heading.
///
/// Differs from MapKit: a model; whoever draws it (``render(scale:)``) passes taps on it to
/// ``tap()``.
public final class MKUserTrackingButton: UIView {
    /// The map view it controls.
    public weak var mapView: MKMapView?

    /// A button for `mapView`, 44 points square.
    public init(mapView: MKMapView?) {
        self.mapView = mapView
        super.init(frame: CGRect(x: 0, y: 0, width: MapViewControls.buttonSide, height: MapViewControls.buttonSide))
    }

    /// A tap: the map view's next tracking mode, animated.
    public func tap() {
        guard !isHidden else { return }
        mapView?.cycleUserTrackingMode()
    }

    /// The button drawn at its frame's size, `scale` pixels per point (the map view's
    /// ``MKMapView/contentScaleFactor`` by default), in the map view's appearance; nil without a
    /// map view, while hidden or with an empty frame.
    public func render(scale: CGFloat? = nil) -> UIImage? {
        guard let mapView, !isHidden, let canvas = MapViewControls.canvas(for: frame, scale: scale ?? mapView.contentScaleFactor) else { return nil }
        MapViewControls.drawUserTrackingButton(mapView.userTrackingMode, in: bounds, dark: mapView.traitCollection.userInterfaceStyle == .dark,
                                               on: canvas)
        return UIImage(canvas: canvas)
    }
}

/// A button that tilts the map view into 3D and back (MapKit's `MKPitchControl`): "3D" on a
/// flat map, "2D" on a tilted one.
///
/// Differs from MapKit: a model (drawn with ``render(scale:)``, tapped with ``tap()``); MapKit's
/// macOS control is a rotary knob, this is the iOS button.
public final class MKPitchControl: UIView {
    /// The map view it controls.
    public weak var mapView: MKMapView?

    /// A control for `mapView`, 44 points square.
    public init(mapView: MKMapView?) {
        self.mapView = mapView
        super.init(frame: CGRect(x: 0, y: 0, width: MapViewControls.buttonSide, height: MapViewControls.buttonSide))
    }

    /// Whether it shows: while the map view allows pitching and it is not hidden.
    public var isVisible: Bool { !isHidden && (mapView?.isPitchEnabled ?? false) }

    /// A tap: a flat map tilts to 45°, a tilted one goes flat, animated.
    public func tap() {
        guard isVisible else { return }
        mapView?.togglePitch()
    }

    /// The control drawn at its frame's size (see ``MKUserTrackingButton/render(scale:)``); nil
    /// while it is not visible.
    public func render(scale: CGFloat? = nil) -> UIImage? {
        guard isVisible, let mapView, let canvas = MapViewControls.canvas(for: frame, scale: scale ?? mapView.contentScaleFactor) else { return nil }
        MapViewControls.drawPitchControl(pitched: mapView.camera.pitch > MapViewControls.flatPitch, in: bounds,
                                         dark: mapView.traitCollection.userInterfaceStyle == .dark, on: canvas)
        return UIImage(canvas: canvas)
    }
}

/// The zoom buttons (MapKit's `MKZoomControl`): "+" over "−", each zooming the map view one
/// level about its centre, animated.
///
/// Differs from MapKit: a model (drawn with ``render(scale:)``, tapped with ``tap(at:)``).
public final class MKZoomControl: UIView {
    /// The map view it controls.
    public weak var mapView: MKMapView?

    /// A control for `mapView`, 44 × 88 points.
    public init(mapView: MKMapView?) {
        self.mapView = mapView
        super.init(frame: CGRect(origin: .zero, size: MapViewControls.zoomControlSize))
    }

    /// Whether it shows: while the map view allows zooming and it is not hidden.
    public var isVisible: Bool { !isHidden && (mapView?.isZoomEnabled ?? false) }

    /// A tap at `point` in the control's own coordinates: the upper half zooms in, the lower
    /// half out; a point outside its bounds does nothing.
    public func tap(at point: CGPoint) {
        guard isVisible, bounds.contains(point) else { return }
        mapView?.zoomStep(in: point.y < bounds.midY)
    }

    /// The control drawn at its frame's size (see ``MKUserTrackingButton/render(scale:)``); a
    /// half that can zoom no further is faded; nil while it is not visible.
    public func render(scale: CGFloat? = nil) -> UIImage? {
        guard isVisible, let mapView, let canvas = MapViewControls.canvas(for: frame, scale: scale ?? mapView.contentScaleFactor) else { return nil }
        let zoom = mapView.viewport.zoomLevel
        MapViewControls.drawZoomControl(in: bounds, canZoomIn: zoom < mapView.maximumAllowedZoom - 1e-6,
                                        canZoomOut: zoom > mapView.minimumAllowedZoom + 1e-6,
                                        dark: mapView.traitCollection.userInterfaceStyle == .dark, on: canvas)
        return UIImage(canvas: canvas)
    }
}

extension MapViewControls {
    /// A clear canvas the size of `frame`; nil for an empty or absurd frame or scale.
    static func canvas(for frame: CGRect, scale: CGFloat) -> RenderCanvas? {
        guard frame.width > 0, frame.height > 0, frame.width <= 4096, frame.height <= 4096 else { return nil }
        return try? RenderCanvas(width: Double(frame.width), height: Double(frame.height), scale: Double(scale))
    }
}
