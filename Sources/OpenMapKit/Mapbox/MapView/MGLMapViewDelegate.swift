// Mapbox's MGLMapViewDelegate: what an MGLMapView reports and asks.

import Foundation
import MapGeometry

/// Why the camera moved (Mapbox's `MGLCameraChangeReason` bits), reported with region changes.
/// A rotation usually comes with some pinching, so several bits may be set.
public struct MGLCameraChangeReason: OptionSet, Hashable, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// A public method moved the camera.
    public static let programmatic = MGLCameraChangeReason(rawValue: 1 << 0)
    /// The compass (or `resetNorth()`) turned the map north up.
    public static let resetNorth = MGLCameraChangeReason(rawValue: 1 << 1)
    /// The user panned.
    public static let gesturePan = MGLCameraChangeReason(rawValue: 1 << 2)
    /// The user pinched.
    public static let gesturePinch = MGLCameraChangeReason(rawValue: 1 << 3)
    /// The user rotated.
    public static let gestureRotate = MGLCameraChangeReason(rawValue: 1 << 4)
    /// The user double-tapped to zoom in.
    public static let gestureZoomIn = MGLCameraChangeReason(rawValue: 1 << 5)
    /// The user two-finger-tapped to zoom out.
    public static let gestureZoomOut = MGLCameraChangeReason(rawValue: 1 << 6)
    /// The user zoomed with one finger (not produced here: no such gesture call).
    public static let gestureOneFingerZoom = MGLCameraChangeReason(rawValue: 1 << 7)
    /// The user tilted the map.
    public static let gestureTilt = MGLCameraChangeReason(rawValue: 1 << 8)
    /// A transition was cancelled by another change or a gesture.
    public static let transitionCancelled = MGLCameraChangeReason(rawValue: 1 << 16)
}

/// The events of an ``MGLMapView`` and the questions it asks (Mapbox's `MGLMapViewDelegate`).
/// Every method is optional: the extension implements each one as Mapbox behaves when a
/// delegate leaves it out.
///
/// **Order.** The map view calls its delegate synchronously, in Mapbox's order:
/// - camera changes: `regionWillChangeWith(reason:animated:)` → `regionIsChangingWith(reason:)`
///   per animation frame or gesture step (not for a change that jumps) → `regionDidChangeWith(reason:animated:)`.
///   The reason forms call the plain forms (`regionWillChangeAnimated` …) by default, so a
///   delegate implements either; gestures first ask `shouldChangeFrom(_:to:reason:)`, which calls
///   `shouldChangeFrom(_:to:)` by default;
/// - loading: `mapViewWillStartLoadingMap` → `didFinishLoading style` (or
///   `mapViewDidFailLoadingMap`) when a style loads (on the first ``MGLMapView/render()`` or
///   ``MGLMapView/finishLoadingStyle()`` after the style URL is set); then per frame
///   `mapViewWillStartRenderingMap` → `mapViewWillStartRenderingFrame` →
///   `mapViewDidFinishRenderingFrame(fullyRendered:)` → `mapViewDidFinishLoadingMap` (the first
///   frame after a style load) → `mapViewDidFinishRenderingMap(fullyRendered:)` →
///   `mapViewDidBecomeIdle` (when no animation is running);
/// - selection: `didDeselect` annotation, then its view; then `didSelect` annotation, then its view
///   (views only for annotations shown by an ``MGLAnnotationView``);
/// - user location: `mapViewWillStartLocatingUser`, `didUpdate userLocation` /
///   `didFailToLocateUserWithError`, `mapViewDidStopLocatingUser`, `didChange mode`.
///
/// **Re-entrancy.** As for ``MKMapViewDelegate``: camera changes asked for inside a callback wait
/// until the callbacks of the change being reported return; completion handlers run after them.
///
/// Differs from Mapbox: a Swift protocol with default implementations; annotation views are
/// asked for when their annotation comes on screen (Mapbox asks when it is added too); custom
/// callout views and accessory views are not supported (`calloutViewFor` is asked, and its answer
/// ignored: callouts are drawn as OpenMapKit's bubble with the title and subtitle);
/// `didFailToLoadImage`, `shouldRemoveStyleImage`, `mapViewStyleForDefaultUserLocationAnnotationView`,
/// `mapViewUserLocationAnchorPoint`, `shapeAnnotationIsEnabled` and
/// `didChangeLocationManagerAuthorization` are not part of it.
public protocol MGLMapViewDelegate: AnyObject {
    // MARK: Camera
    /// Whether a gesture may move the camera from `oldCamera` to `newCamera`; false keeps it.
    func mapView(_ mapView: MGLMapView, shouldChangeFrom oldCamera: MGLMapCamera, to newCamera: MGLMapCamera) -> Bool
    /// The reason form of ``mapView(_:shouldChangeFrom:to:)``; by default calls it.
    func mapView(_ mapView: MGLMapView, shouldChangeFrom oldCamera: MGLMapCamera, to newCamera: MGLMapCamera,
                 reason: MGLCameraChangeReason) -> Bool
    /// The viewpoint is about to change.
    func mapView(_ mapView: MGLMapView, regionWillChangeAnimated animated: Bool)
    /// The reason form of ``mapView(_:regionWillChangeAnimated:)``; by default calls it.
    func mapView(_ mapView: MGLMapView, regionWillChangeWith reason: MGLCameraChangeReason, animated: Bool)
    /// The viewpoint is changing (each animation frame or gesture step).
    func mapViewRegionIsChanging(_ mapView: MGLMapView)
    /// The reason form of ``mapViewRegionIsChanging(_:)``; by default calls it.
    func mapView(_ mapView: MGLMapView, regionIsChangingWith reason: MGLCameraChangeReason)
    /// The viewpoint finished changing.
    func mapView(_ mapView: MGLMapView, regionDidChangeAnimated animated: Bool)
    /// The reason form of ``mapView(_:regionDidChangeAnimated:)``; by default calls it.
    func mapView(_ mapView: MGLMapView, regionDidChangeWith reason: MGLCameraChangeReason, animated: Bool)

    // MARK: Loading and rendering
    /// A style started loading.
    func mapViewWillStartLoadingMap(_ mapView: MGLMapView)
    /// The first frame after a style load was drawn with all its data.
    func mapViewDidFinishLoadingMap(_ mapView: MGLMapView)
    /// The style or the map's data could not be loaded.
    func mapViewDidFailLoadingMap(_ mapView: MGLMapView, withError error: any Error)
    /// A frame is about to be drawn.
    func mapViewWillStartRenderingMap(_ mapView: MGLMapView)
    /// A frame was drawn; `fullyRendered` is false when data was missing.
    func mapViewDidFinishRenderingMap(_ mapView: MGLMapView, fullyRendered: Bool)
    /// A frame is about to be drawn.
    func mapViewWillStartRenderingFrame(_ mapView: MGLMapView)
    /// A frame was drawn.
    func mapViewDidFinishRenderingFrame(_ mapView: MGLMapView, fullyRendered: Bool)
    /// Nothing is moving: no animation is running after a frame.
    func mapViewDidBecomeIdle(_ mapView: MGLMapView)
    /// A style loaded; the earliest moment to change it.
    func mapView(_ mapView: MGLMapView, didFinishLoading style: MGLStyle)

    // MARK: User location
    /// The map started looking for the user (`showsUserLocation` became true).
    func mapViewWillStartLocatingUser(_ mapView: MGLMapView)
    /// The map stopped looking for the user.
    func mapViewDidStopLocatingUser(_ mapView: MGLMapView)
    /// A new location (or heading while following with heading) arrived.
    func mapView(_ mapView: MGLMapView, didUpdate userLocation: MGLUserLocation?)
    /// Locating the user failed.
    func mapView(_ mapView: MGLMapView, didFailToLocateUserWithError error: any Error)
    /// The tracking mode changed.
    func mapView(_ mapView: MGLMapView, didChange mode: MGLUserTrackingMode, animated: Bool)

    // MARK: Annotation appearance
    /// The image marking a point annotation; nil uses a view (``mapView(_:viewFor:)``) or the
    /// default marker.
    func mapView(_ mapView: MGLMapView, imageFor annotation: any MGLAnnotation) -> MGLAnnotationImage?
    /// The view marking a point annotation; nil uses an image.
    func mapView(_ mapView: MGLMapView, viewFor annotation: any MGLAnnotation) -> MGLAnnotationView?
    /// Views were added for annotations that came on screen.
    func mapView(_ mapView: MGLMapView, didAdd annotationViews: [MGLAnnotationView])
    /// A shape annotation's opacity (default 1).
    func mapView(_ mapView: MGLMapView, alphaForShapeAnnotation annotation: MGLShape) -> CGFloat
    /// A shape annotation's outline colour (default the map view's tint colour).
    func mapView(_ mapView: MGLMapView, strokeColorForShapeAnnotation annotation: MGLShape) -> UIColor
    /// A polygon annotation's fill colour (default the map view's tint colour).
    func mapView(_ mapView: MGLMapView, fillColorForPolygonAnnotation annotation: MGLPolygon) -> UIColor
    /// A polyline annotation's width in points (default 3).
    func mapView(_ mapView: MGLMapView, lineWidthForPolylineAnnotation annotation: MGLPolyline) -> CGFloat

    // MARK: Selection and callouts
    /// An annotation was selected (before its view's form).
    func mapView(_ mapView: MGLMapView, didSelect annotation: any MGLAnnotation)
    /// An annotation was deselected (before its view's form).
    func mapView(_ mapView: MGLMapView, didDeselect annotation: any MGLAnnotation)
    /// An annotation view was selected.
    func mapView(_ mapView: MGLMapView, didSelect annotationView: MGLAnnotationView)
    /// An annotation view was deselected.
    func mapView(_ mapView: MGLMapView, didDeselect annotationView: MGLAnnotationView)
    /// Whether a selected annotation shows a callout with its title and subtitle (default false;
    /// an annotation without a title never does).
    func mapView(_ mapView: MGLMapView, annotationCanShowCallout annotation: any MGLAnnotation) -> Bool
    /// A custom callout view (Mapbox's `MGLCalloutView`); asked, and its answer ignored: callouts
    /// are always OpenMapKit's bubble.
    func mapView(_ mapView: MGLMapView, calloutViewFor annotation: any MGLAnnotation) -> AnyObject?
    /// The user tapped the callout of `annotation`.
    func mapView(_ mapView: MGLMapView, tapOnCalloutFor annotation: any MGLAnnotation)
}

extension MGLMapViewDelegate {
    public func mapView(_ mapView: MGLMapView, shouldChangeFrom oldCamera: MGLMapCamera, to newCamera: MGLMapCamera) -> Bool { true }
    public func mapView(_ mapView: MGLMapView, shouldChangeFrom oldCamera: MGLMapCamera, to newCamera: MGLMapCamera,
                        reason: MGLCameraChangeReason) -> Bool {
        self.mapView(mapView, shouldChangeFrom: oldCamera, to: newCamera)
    }
    public func mapView(_ mapView: MGLMapView, regionWillChangeAnimated animated: Bool) {}
    public func mapView(_ mapView: MGLMapView, regionWillChangeWith reason: MGLCameraChangeReason, animated: Bool) {
        self.mapView(mapView, regionWillChangeAnimated: animated)
    }
    public func mapViewRegionIsChanging(_ mapView: MGLMapView) {}
    public func mapView(_ mapView: MGLMapView, regionIsChangingWith reason: MGLCameraChangeReason) {
        mapViewRegionIsChanging(mapView)
    }
    public func mapView(_ mapView: MGLMapView, regionDidChangeAnimated animated: Bool) {}
    public func mapView(_ mapView: MGLMapView, regionDidChangeWith reason: MGLCameraChangeReason, animated: Bool) {
        self.mapView(mapView, regionDidChangeAnimated: animated)
    }

    public func mapViewWillStartLoadingMap(_ mapView: MGLMapView) {}
    public func mapViewDidFinishLoadingMap(_ mapView: MGLMapView) {}
    public func mapViewDidFailLoadingMap(_ mapView: MGLMapView, withError error: any Error) {}
    public func mapViewWillStartRenderingMap(_ mapView: MGLMapView) {}
    public func mapViewDidFinishRenderingMap(_ mapView: MGLMapView, fullyRendered: Bool) {}
    public func mapViewWillStartRenderingFrame(_ mapView: MGLMapView) {}
    public func mapViewDidFinishRenderingFrame(_ mapView: MGLMapView, fullyRendered: Bool) {}
    public func mapViewDidBecomeIdle(_ mapView: MGLMapView) {}
    public func mapView(_ mapView: MGLMapView, didFinishLoading style: MGLStyle) {}

    public func mapViewWillStartLocatingUser(_ mapView: MGLMapView) {}
    public func mapViewDidStopLocatingUser(_ mapView: MGLMapView) {}
    public func mapView(_ mapView: MGLMapView, didUpdate userLocation: MGLUserLocation?) {}
    public func mapView(_ mapView: MGLMapView, didFailToLocateUserWithError error: any Error) {}
    public func mapView(_ mapView: MGLMapView, didChange mode: MGLUserTrackingMode, animated: Bool) {}

    public func mapView(_ mapView: MGLMapView, imageFor annotation: any MGLAnnotation) -> MGLAnnotationImage? { nil }
    public func mapView(_ mapView: MGLMapView, viewFor annotation: any MGLAnnotation) -> MGLAnnotationView? { nil }
    public func mapView(_ mapView: MGLMapView, didAdd annotationViews: [MGLAnnotationView]) {}
    public func mapView(_ mapView: MGLMapView, alphaForShapeAnnotation annotation: MGLShape) -> CGFloat { 1 }
    public func mapView(_ mapView: MGLMapView, strokeColorForShapeAnnotation annotation: MGLShape) -> UIColor { mapView.tintColor }
    public func mapView(_ mapView: MGLMapView, fillColorForPolygonAnnotation annotation: MGLPolygon) -> UIColor { mapView.tintColor }
    public func mapView(_ mapView: MGLMapView, lineWidthForPolylineAnnotation annotation: MGLPolyline) -> CGFloat { 3 }

    public func mapView(_ mapView: MGLMapView, didSelect annotation: any MGLAnnotation) {}
    public func mapView(_ mapView: MGLMapView, didDeselect annotation: any MGLAnnotation) {}
    public func mapView(_ mapView: MGLMapView, didSelect annotationView: MGLAnnotationView) {}
    public func mapView(_ mapView: MGLMapView, didDeselect annotationView: MGLAnnotationView) {}
    public func mapView(_ mapView: MGLMapView, annotationCanShowCallout annotation: any MGLAnnotation) -> Bool { false }
    public func mapView(_ mapView: MGLMapView, calloutViewFor annotation: any MGLAnnotation) -> AnyObject? { nil }
    public func mapView(_ mapView: MGLMapView, tapOnCalloutFor annotation: any MGLAnnotation) {}
}
