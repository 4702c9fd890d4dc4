// The engine's delegate for Mapbox's face: turns MKMapViewDelegate callbacks into
// MGLMapViewDelegate ones, in Mapbox's order and vocabulary.

import Foundation
import MapGeometry

/// The engine's delegate (held strongly by its ``MGLMapView``): forwards camera, loading,
/// rendering, location, annotation and selection callbacks to the face's delegate.
final class MGLMapViewBridge: MKMapViewDelegate {
    unowned let mapView: MGLMapView
    /// Whether the camera change being reported jumps (its region-is-changing is not reported).
    private var changeJumps = false
    /// Whether the frame being drawn has reported its start but not its end.
    private var frameOpen = false
    /// The engine view selected in the callback pair under way (Mapbox reports the annotation first).
    private var pendingSelectedView: MKAnnotationView?
    private var pendingDeselectedView: MKAnnotationView?

    init(mapView: MGLMapView) { self.mapView = mapView }

    private var delegate: (any MGLMapViewDelegate)? { mapView.delegate }
    private var reason: MGLCameraChangeReason { MGLCameraChangeReason(rawValue: mapView.engine.changeReason.rawValue) }

    // MARK: Camera

    func mapView(_ engine: MKMapView, regionWillChangeAnimated animated: Bool) {
        let reason = self.reason
        changeJumps = !animated && reason.isDisjoint(with: MGLCameraChangeReason(rawValue: MapViewChangeReason.anyGesture.rawValue))
        delegate?.mapView(mapView, regionWillChangeWith: reason, animated: animated)
    }

    func mapViewDidChangeVisibleRegion(_ engine: MKMapView) {
        guard !changeJumps else { return }
        delegate?.mapView(mapView, regionIsChangingWith: reason)
    }

    func mapView(_ engine: MKMapView, regionDidChangeAnimated animated: Bool) {
        changeJumps = false
        delegate?.mapView(mapView, regionDidChangeWith: reason, animated: animated)
    }

    // MARK: Loading and rendering

    func mapViewWillStartLoadingMap(_ engine: MKMapView) {
        // Mapbox reports loading per style load (MGLMapView.finishLoadingStyle()), not per tile set.
    }

    func mapViewWillStartRenderingMap(_ engine: MKMapView) {
        delegate?.mapViewWillStartRenderingMap(mapView)
        frameOpen = true
        delegate?.mapViewWillStartRenderingFrame(mapView)
    }

    private func closeFrame(fullyRendered: Bool) {
        guard frameOpen else { return }
        frameOpen = false
        delegate?.mapViewDidFinishRenderingFrame(mapView, fullyRendered: fullyRendered)
    }

    func mapViewDidFinishLoadingMap(_ engine: MKMapView) {
        closeFrame(fullyRendered: true)
        if mapView.mapLoadOpen {
            mapView.mapLoadOpen = false
            delegate?.mapViewDidFinishLoadingMap(mapView)
        }
    }

    func mapViewDidFailLoadingMap(_ engine: MKMapView, withError error: any Error) {
        closeFrame(fullyRendered: false)
        mapView.mapLoadOpen = false
        delegate?.mapViewDidFailLoadingMap(mapView, withError: error)
    }

    func mapViewDidFinishRenderingMap(_ engine: MKMapView, fullyRendered: Bool) {
        closeFrame(fullyRendered: fullyRendered)
        if fullyRendered, mapView.mapLoadOpen {
            mapView.mapLoadOpen = false
            delegate?.mapViewDidFinishLoadingMap(mapView)
        }
        delegate?.mapViewDidFinishRenderingMap(mapView, fullyRendered: fullyRendered)
    }

    // MARK: User location

    func mapViewWillStartLocatingUser(_ engine: MKMapView) { delegate?.mapViewWillStartLocatingUser(mapView) }
    func mapViewDidStopLocatingUser(_ engine: MKMapView) { delegate?.mapViewDidStopLocatingUser(mapView) }
    func mapView(_ engine: MKMapView, didUpdate userLocation: MKUserLocation) { delegate?.mapView(mapView, didUpdate: mapView.userLocation) }
    func mapView(_ engine: MKMapView, didFailToLocateUserWithError error: any Error) {
        delegate?.mapView(mapView, didFailToLocateUserWithError: error)
    }
    func mapView(_ engine: MKMapView, didChange mode: MKUserTrackingMode, animated: Bool) {
        mapView.engineTrackingModeDidChange(mode, animated: animated)
    }

    // MARK: Annotations

    func mapView(_ engine: MKMapView, viewFor annotation: any MKAnnotation) -> MKAnnotationView? {
        guard let point = annotation as? MGLPointAdapter else { return nil }
        return mapView.engineView(for: point)
    }

    func mapView(_ engine: MKMapView, didAdd views: [MKAnnotationView]) {
        let added = views.compactMap { ($0 as? MGLEngineAnnotationView)?.annotationView }
        if !added.isEmpty { delegate?.mapView(mapView, didAdd: added) }
    }

    func mapView(_ engine: MKMapView, didSelect view: MKAnnotationView) { pendingSelectedView = view }

    func mapView(_ engine: MKMapView, didSelect annotation: any MKAnnotation) {
        let view = pendingSelectedView
        pendingSelectedView = nil
        guard let point = annotation as? MGLPointAdapter else { return }
        delegate?.mapView(mapView, didSelect: point.annotation)
        if let shown = (view as? MGLEngineAnnotationView)?.annotationView { delegate?.mapView(mapView, didSelect: shown) }
    }

    func mapView(_ engine: MKMapView, didDeselect view: MKAnnotationView) { pendingDeselectedView = view }

    func mapView(_ engine: MKMapView, didDeselect annotation: any MKAnnotation) {
        let view = pendingDeselectedView
        pendingDeselectedView = nil
        guard let point = annotation as? MGLPointAdapter else { return }
        delegate?.mapView(mapView, didDeselect: point.annotation)
        if let shown = (view as? MGLEngineAnnotationView)?.annotationView { delegate?.mapView(mapView, didDeselect: shown) }
    }

    func mapView(_ engine: MKMapView, annotationView view: MKAnnotationView, didChange newState: MKAnnotationView.DragState,
                 fromOldState oldState: MKAnnotationView.DragState) {
        guard let shown = (view as? MGLEngineAnnotationView)?.annotationView,
              let state = MGLAnnotationViewDragState(rawValue: newState.rawValue) else { return }
        shown.setDragState(state, animated: false)
    }

    // MARK: Shapes

    func mapView(_ engine: MKMapView, rendererFor overlay: any MKOverlay) -> MKOverlayRenderer {
        guard let adapter = overlay as? MGLShapeAdapter else { return MKOverlayRenderer(overlay: overlay) }
        return mapView.renderer(for: adapter)
    }
}
