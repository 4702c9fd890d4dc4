// MKMapView's annotations: the store, views (provisioning, reuse), selection and framing.

import Foundation
import MapGeometry

/// The map view's annotations in the order added, with identity lookup.
struct AnnotationStore {
    private(set) var list: [any MKAnnotation] = []
    private var ids: Set<ObjectIdentifier> = []

    func contains(_ annotation: any MKAnnotation) -> Bool { ids.contains(ObjectIdentifier(annotation)) }

    /// Adds `annotation` unless it is already there; whether it was added.
    mutating func insert(_ annotation: any MKAnnotation) -> Bool {
        guard ids.insert(ObjectIdentifier(annotation)).inserted else { return false }
        list.append(annotation)
        return true
    }

    /// Removes those of `annotations` that are there; the ones removed.
    mutating func remove(_ annotations: [any MKAnnotation]) -> [any MKAnnotation] {
        var gone: Set<ObjectIdentifier> = []
        for annotation in annotations where ids.remove(ObjectIdentifier(annotation)) != nil { gone.insert(ObjectIdentifier(annotation)) }
        guard !gone.isEmpty else { return [] }
        var removed: [any MKAnnotation] = []
        list.removeAll { annotation in
            guard gone.contains(ObjectIdentifier(annotation)) else { return false }
            removed.append(annotation)
            return true
        }
        return removed
    }
}

extension MKMapView {
    // MARK: - Adding and removing

    /// The annotations on the map, in the order added (the user-location annotation included
    /// while it is shown). The clusters the map makes are not in it (see ``clusterAnnotations``).
    public var annotations: [any MKAnnotation] { annotationStore.list }

    /// Adds an annotation; adding one already on the map does nothing. If it is on screen, its
    /// view is provisioned at once (`viewFor`, then `didAdd`). An annotation whose coordinate is
    /// invalid is kept but never shown.
    public func addAnnotation(_ annotation: any MKAnnotation) {
        addAnnotations([annotation])
    }

    /// Adds annotations; the views of those on screen are reported in one `didAdd`.
    public func addAnnotations(_ annotations: [any MKAnnotation]) {
        var added = false
        for annotation in annotations where annotationStore.insert(annotation) { added = true }
        guard added else { return }
        withCallbacks { updateVisibleContent() }
    }

    /// Removes an annotation: a selected one is deselected first (with its callbacks), its view
    /// goes to the reuse queue. Removing one that is not on the map does nothing.
    public func removeAnnotation(_ annotation: any MKAnnotation) {
        removeAnnotations([annotation])
    }

    /// Removes annotations (those not on the map are skipped).
    public func removeAnnotations(_ annotations: [any MKAnnotation]) {
        withCallbacks {
            if let selected = selectedAnnotation, annotations.contains(where: { $0 === selected }), annotationStore.contains(selected) {
                deselectAnnotation(selected, animated: false)
            }
            let removed = annotationStore.remove(annotations)
            for annotation in removed {
                if let view = annotationViews.removeValue(forKey: ObjectIdentifier(annotation)) { enqueueForReuse(view) }
            }
            // Clusters with removed members are recomputed at once.
            if forgetClusterKeys(of: removed) { updateVisibleContent() }
        }
    }

    /// The annotations whose coordinates lie in `mapRect` (either side of the 180th meridian for
    /// a rectangle that crosses it). Elements are the annotation objects when their class is
    /// `Hashable` (as `NSObject` subclasses are), else their `ObjectIdentifier`s.
    public func annotations(in mapRect: MKMapRect) -> Set<AnyHashable> {
        Set(annotationList(in: mapRect).map { ($0 as? AnyHashable) ?? AnyHashable(ObjectIdentifier($0)) })
    }

    /// The annotations whose coordinates lie in `mapRect`, in the order added (an OpenMapKit
    /// addition: ``annotations(in:)`` without the hashing).
    public func annotationList(in mapRect: MKMapRect) -> [any MKAnnotation] {
        guard MKMapView.isUsable(mapRect) else { return [] }
        let pieces = mapRect.worldPieces
        return annotationStore.list.filter { annotation in
            let c = annotation.coordinate
            guard CLLocationCoordinate2DIsValid(c) else { return false }
            let p = MKMapPoint(c)
            return pieces.contains { piece in
                p.x >= piece.minX && p.x <= piece.maxX && p.y >= piece.minY && p.y <= piece.maxY
            }
        }
    }

    /// Frames the annotations: the map moves (north up, flat) so all of them show, with room for
    /// marker balloons and titles. A single annotation is centred at a street-level zoom. Invalid
    /// coordinates are skipped; with none left nothing happens.
    public func showAnnotations(_ annotations: [any MKAnnotation], animated: Bool) {
        let points = annotations.map(\.coordinate).filter(CLLocationCoordinate2DIsValid).map(MKMapPoint.init)
        guard !points.isEmpty else { return }
        let bounds = MKMapRect(boundingPoints: points)
        if !hasArea {
            setVisibleMapRect(bounds, edgePadding: Map.automaticPadding, animated: animated)
            return
        }
        let single = MapViewport(size: viewport.size, centerCoordinate: MKMapPoint(x: bounds.midX, y: bounds.midY).coordinate,
                                 zoomLevel: Map.singlePointZoom)
        if bounds.width <= single.visibleMapRect.width / 2, bounds.height <= single.visibleMapRect.height / 2 {
            requestCameraChange { [self] in apply(single, animated: animated) }
        } else {
            setVisibleMapRect(bounds, edgePadding: Map.automaticPadding, animated: animated)
        }
    }

    // MARK: - Views

    /// Registers the view class to create for `identifier` in
    /// ``dequeueReusableAnnotationView(withIdentifier:for:)``. Classes that are not
    /// ``MKAnnotationView`` subclasses, and empty identifiers, are ignored.
    public func register(_ viewClass: AnyClass?, forAnnotationViewWithReuseIdentifier identifier: String) {
        guard !identifier.isEmpty else { return }
        if let type = viewClass as? MKAnnotationView.Type {
            registeredViewClasses[identifier] = type
        } else if viewClass == nil {
            registeredViewClasses[identifier] = nil
        }
    }

    /// A queued view for `identifier`, prepared for reuse; nil when none is queued.
    public func dequeueReusableAnnotationView(withIdentifier identifier: String) -> MKAnnotationView? {
        // Popped in place: copying the queue out and back made each dequeue cost its length
        // (quadratic when 100,000 annotations come and go).
        guard let view = reuseQueues[identifier]?.popLast() else { return nil }
        view.prepareForReuse()
        return view
    }

    /// A view for `annotation`: a queued one for `identifier`, else a new one of the class
    /// registered for it. MapKit raises an exception when no class is registered; here a
    /// ``MKMarkerAnnotationView`` with that identifier is made instead.
    public func dequeueReusableAnnotationView(withIdentifier identifier: String, for annotation: any MKAnnotation) -> MKAnnotationView {
        if let view = dequeueReusableAnnotationView(withIdentifier: identifier) {
            view.annotation = annotation
            return view
        }
        let type = registeredViewClasses[identifier] ?? MKMarkerAnnotationView.self
        return type.init(annotation: annotation, reuseIdentifier: identifier)
    }

    /// The view presenting `annotation`; nil when it is not on the map or not on screen.
    public func view(for annotation: any MKAnnotation) -> MKAnnotationView? {
        annotationViews[ObjectIdentifier(annotation)]
    }

    /// Puts a view that left the screen on its reuse queue (views without an identifier are dropped).
    func enqueueForReuse(_ view: MKAnnotationView) {
        view.setSelected(false, animated: false)
        view.annotation = nil
        guard let identifier = view.reuseIdentifier else { return }
        reuseQueues[identifier, default: []].append(view)
    }

    /// The view the map uses when the delegate supplies none: MapKit's default for the kind of
    /// annotation, from the registered class when there is one.
    func defaultView(for annotation: any MKAnnotation) -> MKAnnotationView {
        if annotation is MKUserLocation, registeredViewClasses[MKMapViewDefaultAnnotationViewReuseIdentifier] == nil {
            // The user's dot: MapKit's MKUserLocationView.
            return MKUserLocationView(annotation: annotation, reuseIdentifier: nil)
        }
        let identifier = annotation is MKClusterAnnotation ? MKMapViewDefaultClusterAnnotationViewReuseIdentifier
            : MKMapViewDefaultAnnotationViewReuseIdentifier
        return dequeueReusableAnnotationView(withIdentifier: identifier, for: annotation)
    }

    /// Whether `annotation`'s point is on screen, allowing a margin for views that straddle the edge.
    func isOnScreen(_ annotation: any MKAnnotation) -> Bool {
        guard hasArea else { return false }
        let c = annotation.coordinate
        guard CLLocationCoordinate2DIsValid(c) else { return false }
        let p = viewport.convert(c)
        guard p.x.isFinite, p.y.isFinite else { return false }
        let margin = MKMapView.annotationMargin
        return p.x >= -margin && p.y >= -margin && p.x <= viewport.size.width + margin && p.y <= viewport.size.height + margin
    }

    /// How far off screen an annotation's point may be and still have a view, in points.
    static let annotationMargin: CGFloat = 64

    /// Gives views to annotations that came on screen and queues those of annotations that left
    /// it (the selected annotation keeps its view). Part of ``updateVisibleContent()``.
    func updateAnnotationViews() {
        // Views that left first, so they can be reused for those that arrive in the same pass.
        for annotation in annotationStore.list {
            let id = ObjectIdentifier(annotation)
            guard let view = annotationViews[id], !isOnScreen(annotation), !(selectedAnnotation === annotation) else { continue }
            annotationViews[id] = nil
            enqueueForReuse(view)
        }
        var added: [MKAnnotationView] = []
        for annotation in annotationStore.list {
            let id = ObjectIdentifier(annotation)
            guard annotationViews[id] == nil, isOnScreen(annotation) else { continue }
            let view = delegate?.mapView(self, viewFor: annotation) ?? defaultView(for: annotation)
            // The delegate may have removed the annotation, or provisioned it through a nested pass.
            guard annotationStore.contains(annotation), annotationViews[id] == nil else { continue }
            view.annotation = annotation
            view.prepareForDisplay()
            annotationViews[id] = view
            startAppearing(view)
            added.append(view)
        }
        // Views sharing a clusteringIdentifier that are close on screen give way to the view of
        // their MKClusterAnnotation (MKMapView+Clustering.swift).
        updateClusters(added: &added)
        if !added.isEmpty { delegate?.mapView(self, didAdd: added) }
    }

    /// Gives `annotation` a view now even when it is off screen (Mapbox selects off-screen
    /// annotations): `viewFor`, then `didAdd`. Its view stays while it is selected. Nil when it is
    /// not on the map; its view when it has one.
    @discardableResult
    func provisionView(for annotation: any MKAnnotation) -> MKAnnotationView? {
        let id = ObjectIdentifier(annotation)
        guard annotationStore.contains(annotation) else { return nil }
        if let view = annotationViews[id] { return view }
        var provisioned: MKAnnotationView?
        withCallbacks {
            let view = delegate?.mapView(self, viewFor: annotation) ?? defaultView(for: annotation)
            guard annotationStore.contains(annotation), annotationViews[id] == nil else { return }
            view.annotation = annotation
            view.prepareForDisplay()
            annotationViews[id] = view
            startAppearing(view)
            delegate?.mapView(self, didAdd: [view])
            provisioned = view
        }
        return provisioned ?? annotationViews[id]
    }

    /// Where a view is drawn, in the map view's coordinates: centred on its annotation's point
    /// plus its centre offset (an OpenMapKit addition, for hit-testing and drawing).
    public func frame(of view: MKAnnotationView) -> CGRect? {
        guard let annotation = view.annotation, annotationViews[ObjectIdentifier(annotation)] === view else { return nil }
        let p = viewport.convert(annotation.coordinate)
        guard p.x.isFinite, p.y.isFinite else { return nil }
        let size = view.frame.size
        return CGRect(x: p.x + view.centerOffset.x - size.width / 2, y: p.y + view.centerOffset.y - size.height / 2,
                      width: size.width, height: size.height)
    }

    // MARK: - Selection

    /// The selected annotations (at most one, as in MapKit). Setting it selects the first
    /// annotation given (deselecting any other); setting it empty deselects.
    public var selectedAnnotations: [any MKAnnotation] {
        get { selectedAnnotation.map { [$0] } ?? [] }
        set {
            if let first = newValue.first {
                selectAnnotation(first, animated: false)
            } else if let selected = selectedAnnotation {
                deselectAnnotation(selected, animated: false)
            }
        }
    }

    /// Selects an annotation: the previous selection is deselected first, then `didSelect` is
    /// called with its view and then with the annotation. As in MapKit, an annotation that is not
    /// on the map, or has no view because it is off screen, is not selected; selecting the
    /// selected annotation does nothing. A cluster the map shows (``clusterAnnotations``) can be
    /// selected; an annotation drawn as part of a cluster cannot (select its cluster).
    public func selectAnnotation(_ annotation: any MKAnnotation, animated: Bool) {
        guard annotationStore.contains(annotation) || isKnownCluster(annotation) || isSelectedMapFeature(annotation),
              !isClusteredMember(annotation), !(selectedAnnotation === annotation),
              let view = annotationViews[ObjectIdentifier(annotation)] else { return }
        withCallbacks {
            if let previous = selectedAnnotation { deselectAnnotation(previous, animated: animated) }
            // A deselect callback may have changed things: select only if still possible.
            guard selectedAnnotation == nil, annotationStore.contains(annotation) || isKnownCluster(annotation) || isSelectedMapFeature(annotation),
                  !isClusteredMember(annotation), annotationViews[ObjectIdentifier(annotation)] === view else { return }
            selectedAnnotation = annotation
            view.setSelected(true, animated: animated)
            delegate?.mapView(self, didSelect: view)
            if selectedAnnotation === annotation { delegate?.mapView(self, didSelect: annotation) }
        }
    }

    /// Deselects an annotation (`didDeselect` with its view, then with the annotation). Passing
    /// an annotation that is not selected, or nil, does nothing.
    public func deselectAnnotation(_ annotation: (any MKAnnotation)?, animated: Bool) {
        guard let annotation, let selected = selectedAnnotation, selected === annotation else { return }
        withCallbacks {
            selectedAnnotation = nil
            let view = annotationViews[ObjectIdentifier(annotation)]
            view?.setSelected(false, animated: animated)
            if let view { delegate?.mapView(self, didDeselect: view) }
            delegate?.mapView(self, didDeselect: annotation)
            // A map feature lives only while selected (unless the delegate selected it again).
            if !(selectedAnnotation === annotation) { forgetMapFeature(annotation) }
            // Its view may have stayed only because it was selected.
            if let view, annotationStore.contains(annotation) || isKnownCluster(annotation), !isOnScreen(annotation),
               annotationViews[ObjectIdentifier(annotation)] === view, !(selectedAnnotation === annotation) {
                annotationViews[ObjectIdentifier(annotation)] = nil
                enqueueForReuse(view)
            }
        }
    }
}
