// MGLMapView's annotations: point annotations shown through the engine's annotation views
// (adapters carry Mapbox's annotations, views and images), polylines and polygons through the
// engine's overlays and renderers (with the delegate's colours, widths and opacity), selection,
// callouts, reuse queues and framing.

import Foundation
import MapGeometry

/// The engine's annotation for one of Mapbox's point annotations.
final class MGLPointAdapter: NSObject, MKMovableAnnotation {
    let annotation: any MGLAnnotation

    init(_ annotation: any MGLAnnotation) {
        self.annotation = annotation
        super.init()
    }

    var coordinate: CLLocationCoordinate2D {
        get { annotation.coordinate }
        set { (annotation as? MGLPointAnnotation)?.coordinate = newValue }
    }
    var title: String? { annotation.title ?? nil }
    var subtitle: String? { annotation.subtitle ?? nil }
}

/// The engine's overlay for one of Mapbox's polylines or polygons, with the MapKit shape it is
/// drawn as (made again when the shape's points change).
final class MGLShapeAdapter: NSObject, MKOverlay {
    let shape: MGLMultiPoint
    let drawn: MKMultiPoint & MKOverlay
    let revision: Int

    init(_ shape: MGLMultiPoint) {
        self.shape = shape
        revision = shape.revision
        if let polygon = shape as? MGLPolygon {
            drawn = MKPolygon(coordinates: polygon.coordinates,
                              interiorPolygons: polygon.interiorPolygons?.map { MKPolygon(coordinates: $0.coordinates) })
        } else {
            drawn = MKPolyline(coordinates: shape.coordinates)
        }
        super.init()
    }

    var coordinate: CLLocationCoordinate2D { drawn.coordinate }
    var boundingMapRect: MKMapRect { drawn.boundingMapRect }
    var title: String? { shape.title }
    var subtitle: String? { shape.subtitle }
}

/// The engine's view for a point annotation shown by an ``MGLAnnotationView`` or an
/// ``MGLAnnotationImage``. Never queued by the engine (no reuse identifier): Mapbox's views go to
/// the face's own queue when the engine lets them go.
final class MGLEngineAnnotationView: MKAnnotationView {
    /// The Mapbox view it shows (nil for an image).
    var annotationView: MGLAnnotationView?
    /// The Mapbox image it shows (nil for a view).
    var annotationImage: MGLAnnotationImage?
    /// Called when the engine lets go of the view (its annotation left the screen or the map).
    var onRelease: ((MGLEngineAnnotationView) -> Void)?

    required init(annotation: (any MKAnnotation)?, reuseIdentifier: String?) {
        super.init(annotation: annotation, reuseIdentifier: reuseIdentifier)
    }

    override var annotation: (any MKAnnotation)? {
        didSet {
            if annotation == nil, oldValue != nil { onRelease?(self) }
        }
    }

    override func setSelected(_ selected: Bool, animated: Bool) {
        super.setSelected(selected, animated: animated)
        if annotationView?.isSelected != selected { annotationView?.setSelected(selected, animated: animated) }
    }

    override func setDragState(_ newDragState: MKAnnotationView.DragState, animated: Bool) {
        super.setDragState(newDragState, animated: animated)
    }

    /// Copies the Mapbox view's or image's presentation into the engine's view model.
    func refresh() {
        if let view = annotationView {
            image = view.renderedImage()
            frame = CGRect(origin: .zero, size: view.frame.size)
            centerOffset = CGPoint(x: view.centerOffset.dx, y: view.centerOffset.dy)
            isHidden = view.isHidden
            alpha = view.alpha
            isEnabled = view.isEnabled
            isDraggable = view.isDraggable
        } else if let picture = annotationImage {
            image = picture.image
            centerOffset = .zero
            isEnabled = picture.isEnabled
        }
    }

    override func prepareForDisplay() { refresh() }
}

extension MGLMapView {
    // MARK: - Adding and removing

    /// The annotations on the map in the order added (the user location not included); nil
    /// when there are none (Mapbox's rule).
    public var annotations: [any MGLAnnotation]? { annotationList.isEmpty ? nil : annotationList }

    /// Adds an annotation: point annotations show as views or images, polylines and polygons as
    /// shapes. Multi-shapes, collections and plain multipoints are silently ignored, as in Mapbox.
    public func addAnnotation(_ annotation: any MGLAnnotation) {
        addAnnotations([annotation])
    }

    /// Adds annotations (see ``addAnnotation(_:)``); those already on the map are skipped.
    public func addAnnotations(_ annotations: [any MGLAnnotation]) {
        var points: [MGLPointAdapter] = [], shapes: [MGLShapeAdapter] = []
        for annotation in annotations {
            let id = ObjectIdentifier(annotation)
            guard pointAdapters[id] == nil, shapeAdapters[id] == nil else { continue }
            if annotation is MGLMultiPolyline || annotation is MGLMultiPolygon || annotation is MGLShapeCollection
                || annotation is MGLPointCollection || annotation is MGLUserLocation { continue }
            if let multiPoint = annotation as? MGLMultiPoint {
                guard multiPoint is MGLPolyline || multiPoint is MGLPolygon, multiPoint.pointCount > 0 else { continue }
                let adapter = MGLShapeAdapter(multiPoint)
                shapeAdapters[id] = adapter
                shapes.append(adapter)
            } else {
                let adapter = MGLPointAdapter(annotation)
                pointAdapters[id] = adapter
                points.append(adapter)
            }
            annotationList.append(annotation)
        }
        if !shapes.isEmpty { engine.addOverlays(shapes, level: .aboveLabels) }
        if !points.isEmpty { engine.addAnnotations(points) }
    }

    /// Removes an annotation, deselecting it first when selected; one not on the map is ignored.
    public func removeAnnotation(_ annotation: any MGLAnnotation) {
        removeAnnotations([annotation])
    }

    /// Removes annotations (deselecting a selected one first).
    public func removeAnnotations(_ annotations: [any MGLAnnotation]) {
        var points: [MGLPointAdapter] = [], shapes: [MGLShapeAdapter] = []
        var gone = Set<ObjectIdentifier>()
        for annotation in annotations {
            let id = ObjectIdentifier(annotation)
            if let point = pointAdapters.removeValue(forKey: id) { points.append(point); gone.insert(id) }
            if let shape = shapeAdapters.removeValue(forKey: id) { shapes.append(shape); gone.insert(id) }
        }
        guard !gone.isEmpty else { return }
        annotationList.removeAll { gone.contains(ObjectIdentifier($0)) }
        if !points.isEmpty { engine.removeAnnotations(points) }
        if !shapes.isEmpty { engine.removeOverlays(shapes) }
    }

    /// The overlays on the map: the annotations that are ``MGLOverlay``s (polylines and
    /// polygons), in the order added; empty when there are none.
    public var overlays: [any MGLOverlay] { annotationList.compactMap { $0 as? any MGLOverlay } }

    /// Adds an overlay (an annotation, as in Mapbox).
    public func addOverlay(_ overlay: any MGLOverlay) { addAnnotations([overlay]) }
    /// Adds overlays.
    public func addOverlays(_ overlays: [any MGLOverlay]) { addAnnotations(overlays) }
    /// Removes an overlay; one not on the map is ignored.
    public func removeOverlay(_ overlay: any MGLOverlay) { removeAnnotations([overlay]) }
    /// Removes overlays; those not on the map are ignored.
    public func removeOverlays(_ overlays: [any MGLOverlay]) { removeAnnotations(overlays) }

    // MARK: - Views and images

    /// The view presenting `annotation` now; nil when it has none (off screen, or shown by an image).
    public func view(for annotation: any MGLAnnotation) -> MGLAnnotationView? {
        guard let adapter = pointAdapters[ObjectIdentifier(annotation)] else { return nil }
        return (engine.view(for: adapter) as? MGLEngineAnnotationView)?.annotationView
    }

    /// A view queued under `identifier` (after its annotation left the screen or the map),
    /// prepared for reuse; nil when none is queued.
    public func dequeueReusableAnnotationView(withIdentifier identifier: String) -> MGLAnnotationView? {
        guard let view = viewReuseQueues[identifier]?.popLast() else { return nil }
        view.prepareForReuse()
        return view
    }

    /// The image shared under `identifier` (the first one the delegate gave with it, or the
    /// default marker's `default_marker`); nil when there is none yet.
    public func dequeueReusableAnnotationImage(withIdentifier identifier: String) -> MGLAnnotationImage? {
        annotationImages[identifier]
    }

    /// The engine view for a point annotation coming on screen: the delegate's view, else its
    /// image, else the default marker (nil here: the engine's balloon marker).
    func engineView(for adapter: MGLPointAdapter) -> MKAnnotationView? {
        let annotation = adapter.annotation
        if annotation is MGLUserLocation { return nil }
        if let shown = delegate?.mapView(self, viewFor: annotation) {
            shown.annotation = annotation
            let view = MGLEngineAnnotationView(annotation: adapter, reuseIdentifier: nil)
            view.annotationView = shown
            view.canShowCallout = canShowCallout(annotation)
            view.onRelease = { [weak self] released in self?.release(released) }
            view.refresh()
            return view
        }
        var picture = delegate?.mapView(self, imageFor: annotation)
        if let given = picture {
            // The first image given under an identifier is the one shared under it.
            if annotationImages[given.reuseIdentifier] == nil { annotationImages[given.reuseIdentifier] = given }
        } else {
            picture = annotationImages[MGLAnnotationImage.defaultMarkerIdentifier] ?? {
                let marker = MGLAnnotationImage(defaultMarkerWith: MGLMapView.placeholderImage)
                annotationImages[marker.reuseIdentifier] = marker
                return marker
            }()
        }
        guard let picture, !picture.isDefaultMarker else {
            let marker = MKMarkerAnnotationView(annotation: adapter, reuseIdentifier: nil)
            marker.canShowCallout = canShowCallout(annotation)
            marker.displayPriority = .required
            return marker
        }
        let view = MGLEngineAnnotationView(annotation: adapter, reuseIdentifier: nil)
        view.annotationImage = picture
        view.canShowCallout = canShowCallout(annotation)
        view.refresh()
        return view
    }

    /// A one-pixel transparent image standing for the default marker's picture.
    static var placeholderImage: UIImage { UIImage(data: MGLMapView.transparentPNG) ?? UIImage(data: Data())! }

    /// A 1 × 1 transparent PNG.
    private static let transparentPNG = Data(base64Encoded:
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")!

    private func canShowCallout(_ annotation: any MGLAnnotation) -> Bool {
        guard let delegate else { return false }
        let can = delegate.mapView(self, annotationCanShowCallout: annotation)
        if can { _ = delegate.mapView(self, calloutViewFor: annotation) }
        return can
    }

    /// The engine let go of a view: a Mapbox view goes to its reuse queue.
    private func release(_ view: MGLEngineAnnotationView) {
        guard let shown = view.annotationView else { return }
        view.annotationView = nil
        shown.annotation = nil
        shown.setSelected(false, animated: false)
        if let identifier = shown.reuseIdentifier { viewReuseQueues[identifier, default: []].append(shown) }
    }

    /// The renderer for a shape: the delegate's stroke and fill colours, line width and opacity.
    func renderer(for adapter: MGLShapeAdapter) -> MKOverlayRenderer {
        let alpha = delegate?.mapView(self, alphaForShapeAnnotation: adapter.shape) ?? 1
        let stroke = delegate?.mapView(self, strokeColorForShapeAnnotation: adapter.shape) ?? tintColor
        if let polygon = adapter.shape as? MGLPolygon, let drawn = adapter.drawn as? MKPolygon {
            let renderer = MKPolygonRenderer(polygon: drawn)
            renderer.fillColor = delegate?.mapView(self, fillColorForPolygonAnnotation: polygon) ?? tintColor
            renderer.strokeColor = stroke
            renderer.lineWidth = 1
            renderer.alpha = alpha
            return renderer
        }
        let renderer = MKPolylineRenderer(polyline: adapter.drawn as? MKPolyline ?? MKPolyline(coordinates: adapter.shape.coordinates))
        renderer.strokeColor = stroke
        renderer.lineWidth = (adapter.shape as? MGLPolyline).map { delegate?.mapView(self, lineWidthForPolylineAnnotation: $0) ?? 3 } ?? 3
        renderer.alpha = alpha
        return renderer
    }

    /// Shapes whose points changed get a new engine overlay (and renderer); views get their
    /// Mapbox view's current looks. Run before each frame.
    func syncShapeAnnotations() {
        for annotation in annotationList {
            let id = ObjectIdentifier(annotation)
            if let adapter = shapeAdapters[id], adapter.revision != adapter.shape.revision {
                let fresh = MGLShapeAdapter(adapter.shape)
                shapeAdapters[id] = fresh
                engine.removeOverlay(adapter)
                engine.addOverlay(fresh, level: .aboveLabels)
            } else if let adapter = pointAdapters[id], let view = engine.view(for: adapter) as? MGLEngineAnnotationView {
                view.refresh()
            }
        }
    }

    // MARK: - Visibility

    /// The annotations on screen: point annotations whose point or view is inside the frame,
    /// shapes whose bounds meet the visible bounds; nil when there are none.
    public var visibleAnnotations: [any MGLAnnotation]? { visibleAnnotations(in: bounds) }

    /// The annotations meeting `rect` (in this view's points): point annotations whose point or
    /// view is inside it, shapes whose bounds meet its coordinate bounds; nil when there are none.
    public func visibleAnnotations(in rect: CGRect) -> [any MGLAnnotation]? {
        guard engine.hasArea, !rect.isNull, rect.width.isFinite, rect.height.isFinite else { return nil }
        let area = convert(rect, toCoordinateBoundsFrom: self)
        let found = annotationList.filter { annotation in
            let id = ObjectIdentifier(annotation)
            if let adapter = pointAdapters[id] {
                if let view = engine.view(for: adapter), let frame = engine.frame(of: view), !view.isHidden, frame.intersects(rect) { return true }
                let p = convert(annotation.coordinate, toPointTo: self)
                return p.x.isFinite && p.y.isFinite && rect.contains(p)
            }
            if let shape = shapeAdapters[id]?.shape as? any MGLOverlay {
                let b = shape.overlayBounds
                return [0.0, 360, -360].contains { shift in
                    MGLCoordinateBoundsIntersectsCoordinateBounds(MGLCoordinateBoundsOffset(b, MGLCoordinateSpan(latitudeDelta: 0, longitudeDelta: shift)), area)
                        || MGLCoordinateInCoordinateBounds(CLLocationCoordinate2D(latitude: b.sw.latitude, longitude: b.sw.longitude + shift), area)
                }
            }
            return false
        }
        return found.isEmpty ? nil : found
    }

    /// Frames the annotations with Mapbox's default padding: a fifth of each side, at most 100 points.
    public func showAnnotations(_ annotations: [any MGLAnnotation], animated: Bool) {
        let y = min(bounds.height / 5, 100), x = min(bounds.width / 5, 100)
        showAnnotations(annotations, edgePadding: UIEdgeInsets(top: y, left: x, bottom: y, right: x), animated: animated, completionHandler: nil)
    }

    /// Frames the annotations with at least `insets` points clear around them (deprecated in Mapbox).
    @available(*, deprecated, message: "Use showAnnotations(_:edgePadding:animated:completionHandler:).")
    public func showAnnotations(_ annotations: [any MGLAnnotation], edgePadding insets: UIEdgeInsets, animated: Bool) {
        showAnnotations(annotations, edgePadding: insets, animated: animated, completionHandler: nil)
    }

    /// Frames the annotations (points and shapes' bounds) with at least `insets` points clear
    /// around them, then calls `completion`.
    public func showAnnotations(_ annotations: [any MGLAnnotation], edgePadding insets: UIEdgeInsets, animated: Bool,
                                completionHandler completion: (() -> Void)?) {
        var coordinates: [CLLocationCoordinate2D] = []
        for annotation in annotations {
            if let shape = annotation as? MGLShape, !(annotation is MGLPointAnnotation) {
                coordinates += shape.fittingCoordinates
            } else {
                coordinates.append(annotation.coordinate)
            }
        }
        coordinates = coordinates.filter(CLLocationCoordinate2DIsValid)
        guard !coordinates.isEmpty else {
            engine.complete(completion)
            return
        }
        setVisibleCoordinates(coordinates, count: UInt(coordinates.count), edgePadding: insets, direction: direction,
                              duration: animated ? MGLMapView.animationDuration : 0, animationTimingFunction: nil, completionHandler: completion)
    }

    // MARK: - Selection

    /// The selected annotations (at most one). Setting it selects the first annotation given,
    /// moving the map to show it when it is off screen (Mapbox's rule); setting it empty deselects.
    public var selectedAnnotations: [any MGLAnnotation] {
        get { engine.selectedAnnotations.compactMap { ($0 as? MGLPointAdapter)?.annotation } }
        set {
            if let first = newValue.first {
                selectAnnotation(first, animated: true, completionHandler: nil)
            } else if let selected = selectedAnnotations.first {
                deselectAnnotation(selected, animated: false)
            }
        }
    }

    /// Selects an annotation (deprecated in Mapbox).
    @available(*, deprecated, message: "Use selectAnnotation(_:animated:completionHandler:).")
    public func selectAnnotation(_ annotation: any MGLAnnotation, animated: Bool) {
        selectAnnotation(annotation, animated: animated, completionHandler: nil)
    }

    /// Selects a point annotation, on screen or not, showing its callout when the delegate allows
    /// one. Animated, a point annotation off screen (or partly) is brought into view with its
    /// callout by the shortest pan, not centred; not animated, the map does not move. Then calls
    /// `completion` (after the pan). Shapes cannot be selected here.
    public func selectAnnotation(_ annotation: any MGLAnnotation, animated: Bool, completionHandler completion: (() -> Void)?) {
        guard let adapter = pointAdapters[ObjectIdentifier(annotation)] else {
            engine.complete(completion)
            return
        }
        engine.provisionView(for: adapter)
        engine.selectAnnotation(adapter, animated: animated)
        guard animated, let view = engine.view(for: adapter), let frame = engine.frame(of: view) else {
            engine.complete(completion)
            return
        }
        // The annotation's view and the room its callout takes above it, inside the content area.
        var needed = frame
        if view.canShowCallout, let title = annotation.title ?? nil, !title.isEmpty {
            needed = needed.union(CGRect(x: frame.midX - 100, y: frame.minY - 70, width: 200, height: 70))
        }
        let inset = contentInset
        let area = CGRect(x: inset.left, y: inset.top, width: bounds.width - inset.left - inset.right, height: bounds.height - inset.top - inset.bottom)
        var dx: CGFloat = 0, dy: CGFloat = 0
        if needed.width <= area.width {
            if needed.minX < area.minX { dx = area.minX - needed.minX } else if needed.maxX > area.maxX { dx = area.maxX - needed.maxX }
        } else { dx = area.midX - needed.midX }
        if needed.height <= area.height {
            if needed.minY < area.minY { dy = area.minY - needed.minY } else if needed.maxY > area.maxY { dy = area.maxY - needed.maxY }
        } else { dy = area.midY - needed.midY }
        guard dx != 0 || dy != 0 else {
            engine.complete(completion)
            return
        }
        // The content moves by (dx, dy): the point that far from the centre comes to the centre.
        var target = logicalViewport
        let centre = engine.viewport.paddedCenter(MKMapView.usable(contentInset, in: bounds.size))
        target.centerCoordinate = engine.viewport.convert(CGPoint(x: centre.x - dx, y: centre.y - dy))
        move(to: target, padding: contentInset, duration: MGLMapView.animationDuration, timing: nil, completion: completion)
    }

    /// Deselects an annotation (nil or one not selected does nothing).
    public func deselectAnnotation(_ annotation: (any MGLAnnotation)?, animated: Bool) {
        guard let annotation, let adapter = pointAdapters[ObjectIdentifier(annotation)] else { return }
        engine.deselectAnnotation(adapter, animated: animated)
    }
}
