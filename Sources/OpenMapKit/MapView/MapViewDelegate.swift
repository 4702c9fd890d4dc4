// MapKit's MKMapViewDelegate: how a map view reports what it does and asks for views and renderers.

import Foundation

/// The events of a map view and the questions it asks (MapKit's `MKMapViewDelegate`). Every
/// method is optional: the extension below implements each one as MapKit behaves when a delegate
/// leaves it out.
///
/// **Order.** A map view calls its delegate synchronously, in MapKit's order:
/// - a camera change: `regionWillChangeAnimated` → `mapViewDidChangeVisibleRegion` (once for an
///   immediate change, once per frame of an animation or gesture) → views for annotations that came
///   on screen (`viewFor` each, then one `didAdd` views), renderers for overlays that came on screen
///   (`rendererFor` each, then one `didAdd` renderers) → `regionDidChangeAnimated`;
/// - adding annotations or overlays that are on screen: `viewFor`/`rendererFor` each, then one
///   `didAdd` for the batch;
/// - clustering, within the same pass: after the annotations' `viewFor`s,
///   `clusterAnnotationForMemberAnnotations` for each new cluster, then `viewFor` each cluster
///   coming on screen; the one `didAdd` lists the annotations' views, then the clusters';
/// - selection: `didDeselect` of the previously selected annotation (view, then annotation), then
///   `didSelect` (view, then annotation);
/// - loading and rendering: `mapViewWillStartLoadingMap` → `mapViewDidFinishLoadingMap` or
///   `mapViewDidFailLoadingMap` (exactly one per load), `mapViewWillStartRenderingMap` →
///   `mapViewDidFinishRenderingMap(fullyRendered:)`;
/// - user location: `mapViewWillStartLocatingUser` when `showsUserLocation` becomes true, then
///   `didUpdate userLocation` per location or `didFailToLocateUserWithError`, and
///   `mapViewDidStopLocatingUser` when it becomes false; `didChange mode` when the tracking mode
///   changes (also when a user's pan ends following).
///
/// **Re-entrancy.** A delegate may call back into the map view from any callback. The map view is
/// consistent whenever it calls out (the region, annotations, views and selection it reports are
/// already in place). Camera changes (region, centre, camera, zoom, gestures, tracking moves)
/// requested from inside any callback are queued and applied in order as soon as the callbacks of
/// the current operation have returned, so every `regionWillChange` is matched by its
/// `regionDidChange` before the next begins; reading `region` inside the callback still gives the
/// region being reported. Annotation, overlay and selection changes made from a callback take
/// effect at once; the lists being walked are copies and each entry is checked again after the
/// delegate returns, so an annotation or overlay removed from a callback is not provisioned, and
/// one added from a callback is provisioned once. A content pass asked for while one runs runs
/// again right after it. Delegate methods cannot throw; a delegate that traps stops the process
/// as any Swift code would.
///
/// The map view holds its delegate weakly, as MapKit does.
///
/// - callout accessories: a tap on an enabled ``UIControl`` shown as the selected view's left,
///   right or detail callout accessory calls `calloutAccessoryControlTapped` (and nothing else:
///   the selection stays).
///
/// Differs from MapKit: a Swift protocol whose methods have default implementations, not an
/// Objective-C protocol with optional methods.
public protocol MKMapViewDelegate: AnyObject {
    // MARK: Region
    /// The visible region is about to change; `animated` says whether the change animates.
    func mapView(_ mapView: MKMapView, regionWillChangeAnimated animated: Bool)
    /// The visible region changed (called continuously while it animates or follows a gesture).
    func mapViewDidChangeVisibleRegion(_ mapView: MKMapView)
    /// The visible region finished changing.
    func mapView(_ mapView: MKMapView, regionDidChangeAnimated animated: Bool)

    // MARK: Loading and rendering
    /// The map is about to load the data for what it shows.
    func mapViewWillStartLoadingMap(_ mapView: MKMapView)
    /// The map loaded the data for what it shows.
    func mapViewDidFinishLoadingMap(_ mapView: MKMapView)
    /// The map could not load its data.
    func mapViewDidFailLoadingMap(_ mapView: MKMapView, withError error: any Error)
    /// The map is about to draw what it shows.
    func mapViewWillStartRenderingMap(_ mapView: MKMapView)
    /// The map drew what it shows; `fullyRendered` is false when some data could not be loaded.
    func mapViewDidFinishRenderingMap(_ mapView: MKMapView, fullyRendered: Bool)

    // MARK: User location
    /// The map started looking for the user's location (`showsUserLocation` became true).
    func mapViewWillStartLocatingUser(_ mapView: MKMapView)
    /// The map stopped looking for the user's location.
    func mapViewDidStopLocatingUser(_ mapView: MKMapView)
    /// A new location (or, following with heading, a new heading) arrived.
    func mapView(_ mapView: MKMapView, didUpdate userLocation: MKUserLocation)
    /// The user's location could not be found.
    func mapView(_ mapView: MKMapView, didFailToLocateUserWithError error: any Error)
    /// The user tracking mode changed.
    func mapView(_ mapView: MKMapView, didChange mode: MKUserTrackingMode, animated: Bool)

    // MARK: Annotation views
    /// The view for an annotation coming on screen; nil uses the default view (a marker, or the
    /// user-location dot for ``MKUserLocation``).
    func mapView(_ mapView: MKMapView, viewFor annotation: any MKAnnotation) -> MKAnnotationView?
    /// Views were added for annotations that came on screen (they are in place already).
    func mapView(_ mapView: MKMapView, didAdd views: [MKAnnotationView])
    /// The cluster annotation that stands for `memberAnnotations`; the default makes a plain
    /// ``MKClusterAnnotation``.
    func mapView(_ mapView: MKMapView, clusterAnnotationForMemberAnnotations memberAnnotations: [any MKAnnotation]) -> MKClusterAnnotation
    /// A draggable view's drag state changed.
    func mapView(_ mapView: MKMapView, annotationView view: MKAnnotationView, didChange newState: MKAnnotationView.DragState,
                 fromOldState oldState: MKAnnotationView.DragState)
    /// A control shown as one of `view`'s callout accessories was tapped.
    func mapView(_ mapView: MKMapView, annotationView view: MKAnnotationView, calloutAccessoryControlTapped control: UIControl)

    // MARK: Selection
    /// An annotation view was selected.
    func mapView(_ mapView: MKMapView, didSelect view: MKAnnotationView)
    /// An annotation view was deselected.
    func mapView(_ mapView: MKMapView, didDeselect view: MKAnnotationView)
    /// An annotation was selected (called after the view form).
    func mapView(_ mapView: MKMapView, didSelect annotation: any MKAnnotation)
    /// An annotation was deselected (called after the view form).
    func mapView(_ mapView: MKMapView, didDeselect annotation: any MKAnnotation)

    // MARK: Overlays
    /// The renderer that draws an overlay coming on screen. The default is a plain
    /// ``MKOverlayRenderer``, which draws nothing, as MapKit draws nothing for an overlay its
    /// delegate gives no renderer.
    func mapView(_ mapView: MKMapView, rendererFor overlay: any MKOverlay) -> MKOverlayRenderer
    /// Renderers were added for overlays that came on screen.
    func mapView(_ mapView: MKMapView, didAdd renderers: [MKOverlayRenderer])
}

extension MKMapViewDelegate {
    public func mapView(_ mapView: MKMapView, regionWillChangeAnimated animated: Bool) {}
    public func mapViewDidChangeVisibleRegion(_ mapView: MKMapView) {}
    public func mapView(_ mapView: MKMapView, regionDidChangeAnimated animated: Bool) {}

    public func mapViewWillStartLoadingMap(_ mapView: MKMapView) {}
    public func mapViewDidFinishLoadingMap(_ mapView: MKMapView) {}
    public func mapViewDidFailLoadingMap(_ mapView: MKMapView, withError error: any Error) {}
    public func mapViewWillStartRenderingMap(_ mapView: MKMapView) {}
    public func mapViewDidFinishRenderingMap(_ mapView: MKMapView, fullyRendered: Bool) {}

    public func mapViewWillStartLocatingUser(_ mapView: MKMapView) {}
    public func mapViewDidStopLocatingUser(_ mapView: MKMapView) {}
    public func mapView(_ mapView: MKMapView, didUpdate userLocation: MKUserLocation) {}
    public func mapView(_ mapView: MKMapView, didFailToLocateUserWithError error: any Error) {}
    public func mapView(_ mapView: MKMapView, didChange mode: MKUserTrackingMode, animated: Bool) {}

    public func mapView(_ mapView: MKMapView, viewFor annotation: any MKAnnotation) -> MKAnnotationView? { nil }
    public func mapView(_ mapView: MKMapView, didAdd views: [MKAnnotationView]) {}
    public func mapView(_ mapView: MKMapView, clusterAnnotationForMemberAnnotations memberAnnotations: [any MKAnnotation]) -> MKClusterAnnotation {
        MKClusterAnnotation(memberAnnotations: memberAnnotations)
    }
    public func mapView(_ mapView: MKMapView, annotationView view: MKAnnotationView, didChange newState: MKAnnotationView.DragState,
                        fromOldState oldState: MKAnnotationView.DragState) {}
    public func mapView(_ mapView: MKMapView, annotationView view: MKAnnotationView, calloutAccessoryControlTapped control: UIControl) {}

    public func mapView(_ mapView: MKMapView, didSelect view: MKAnnotationView) {}
    public func mapView(_ mapView: MKMapView, didDeselect view: MKAnnotationView) {}
    public func mapView(_ mapView: MKMapView, didSelect annotation: any MKAnnotation) {}
    public func mapView(_ mapView: MKMapView, didDeselect annotation: any MKAnnotation) {}

    public func mapView(_ mapView: MKMapView, rendererFor overlay: any MKOverlay) -> MKOverlayRenderer {
        MKOverlayRenderer(overlay: overlay)
    }
    public func mapView(_ mapView: MKMapView, didAdd renderers: [MKOverlayRenderer]) {}
}
