import OpenMapKit

/// The map view's delegate while a window shows it: redraw requests, the window's markers with
/// callouts and its route's look. The delegate the map view had before is kept (weakly, as the
/// map view held it) and every callback is passed on to it; it gives the views of annotations
/// and the renderers of overlays the window did not add.
final class WindowMapDelegate: MKMapViewDelegate {
    weak var owner: MapWindow?
    weak var forwarded: (any MKMapViewDelegate)?

    init(forwardingTo forwarded: (any MKMapViewDelegate)?) { self.forwarded = forwarded }

    // MARK: Region

    func mapView(_ mapView: MKMapView, regionWillChangeAnimated animated: Bool) {
        forwarded?.mapView(mapView, regionWillChangeAnimated: animated)
    }

    func mapViewDidChangeVisibleRegion(_ mapView: MKMapView) {
        owner?.regionMoved()
        forwarded?.mapViewDidChangeVisibleRegion(mapView)
    }

    func mapView(_ mapView: MKMapView, regionDidChangeAnimated animated: Bool) {
        owner?.cameraSettled()
        forwarded?.mapView(mapView, regionDidChangeAnimated: animated)
    }

    // MARK: Loading and rendering

    func mapViewWillStartLoadingMap(_ mapView: MKMapView) { forwarded?.mapViewWillStartLoadingMap(mapView) }
    func mapViewDidFinishLoadingMap(_ mapView: MKMapView) { forwarded?.mapViewDidFinishLoadingMap(mapView) }
    func mapViewDidFailLoadingMap(_ mapView: MKMapView, withError error: any Error) {
        forwarded?.mapViewDidFailLoadingMap(mapView, withError: error)
    }
    func mapViewWillStartRenderingMap(_ mapView: MKMapView) { forwarded?.mapViewWillStartRenderingMap(mapView) }
    func mapViewDidFinishRenderingMap(_ mapView: MKMapView, fullyRendered: Bool) {
        forwarded?.mapViewDidFinishRenderingMap(mapView, fullyRendered: fullyRendered)
    }

    // MARK: User location

    func mapViewWillStartLocatingUser(_ mapView: MKMapView) { forwarded?.mapViewWillStartLocatingUser(mapView) }
    func mapViewDidStopLocatingUser(_ mapView: MKMapView) { forwarded?.mapViewDidStopLocatingUser(mapView) }
    func mapView(_ mapView: MKMapView, didUpdate userLocation: MKUserLocation) { forwarded?.mapView(mapView, didUpdate: userLocation) }
    func mapView(_ mapView: MKMapView, didFailToLocateUserWithError error: any Error) {
        forwarded?.mapView(mapView, didFailToLocateUserWithError: error)
    }
    func mapView(_ mapView: MKMapView, didChange mode: MKUserTrackingMode, animated: Bool) {
        forwarded?.mapView(mapView, didChange: mode, animated: animated)
    }

    // MARK: Annotation views

    func mapView(_ mapView: MKMapView, viewFor annotation: any MKAnnotation) -> MKAnnotationView? {
        if let forwarded, owner?.owns(annotation: annotation) != true { return forwarded.mapView(mapView, viewFor: annotation) }
        let view = MKMarkerAnnotationView(annotation: annotation, reuseIdentifier: nil)
        view.canShowCallout = true
        switch annotation.title ?? nil {
        // A route's ends are never hidden by markers that collide with them.
        case "Start":
            view.markerTintColor = UIColor(red: 0.2, green: 0.7, blue: 0.3, alpha: 1)
            view.displayPriority = .required
        case "End":
            view.markerTintColor = UIColor(red: 0.9, green: 0.25, blue: 0.2, alpha: 1)
            view.displayPriority = .required
        default: break
        }
        return view
    }

    func mapView(_ mapView: MKMapView, didAdd views: [MKAnnotationView]) { forwarded?.mapView(mapView, didAdd: views) }

    func mapView(_ mapView: MKMapView, clusterAnnotationForMemberAnnotations memberAnnotations: [any MKAnnotation]) -> MKClusterAnnotation {
        forwarded?.mapView(mapView, clusterAnnotationForMemberAnnotations: memberAnnotations)
            ?? MKClusterAnnotation(memberAnnotations: memberAnnotations)
    }

    func mapView(_ mapView: MKMapView, annotationView view: MKAnnotationView, didChange newState: MKAnnotationView.DragState,
                 fromOldState oldState: MKAnnotationView.DragState) {
        forwarded?.mapView(mapView, annotationView: view, didChange: newState, fromOldState: oldState)
    }

    // MARK: Selection

    func mapView(_ mapView: MKMapView, didSelect view: MKAnnotationView) { forwarded?.mapView(mapView, didSelect: view) }
    func mapView(_ mapView: MKMapView, didDeselect view: MKAnnotationView) { forwarded?.mapView(mapView, didDeselect: view) }

    func mapView(_ mapView: MKMapView, didSelect annotation: any MKAnnotation) {
        owner?.selectionChanged()
        forwarded?.mapView(mapView, didSelect: annotation)
    }

    func mapView(_ mapView: MKMapView, didDeselect annotation: any MKAnnotation) {
        owner?.selectionChanged()
        forwarded?.mapView(mapView, didDeselect: annotation)
    }

    // MARK: Overlays

    func mapView(_ mapView: MKMapView, rendererFor overlay: any MKOverlay) -> MKOverlayRenderer {
        if let forwarded, owner?.owns(overlay: overlay) != true { return forwarded.mapView(mapView, rendererFor: overlay) }
        guard let line = overlay as? MKPolyline else { return MKOverlayRenderer(overlay: overlay) }
        let renderer = MKPolylineRenderer(polyline: line)
        renderer.strokeColor = UIColor(red: 0, green: 0.48, blue: 1, alpha: 1)
        renderer.lineWidth = 6
        return renderer
    }

    func mapView(_ mapView: MKMapView, didAdd renderers: [MKOverlayRenderer]) { forwarded?.mapView(mapView, didAdd: renderers) }
}
