// MKMapView's annotation dragging: a press on a draggable view, moves, and a release or cancel.

import Foundation
import MapGeometry

/// An annotation whose coordinate the map may set (MapKit asks draggable annotations for
/// `setCoordinate(_:)`; here they conform to this protocol). ``MKPointAnnotation`` does.
public protocol MKMovableAnnotation: MKAnnotation {
    var coordinate: CLLocationCoordinate2D { get set }
}

extension MKPointAnnotation: MKMovableAnnotation {}

/// The drag in progress.
struct MapViewDragState {
    let view: MKAnnotationView
    let annotation: any MKMovableAnnotation
    let original: CLLocationCoordinate2D
    /// From the press to the annotation's point, in points, so the view doesn't jump under the finger.
    let grabOffset: CGPoint
}

extension MKMapView {
    /// Starts dragging the draggable view under `point` (after a long press): its drag state goes
    /// `starting`, reported to the delegate. False, and nothing happens, when the view under the
    /// point is not draggable or its annotation's coordinate cannot be set.
    @discardableResult
    public func beginDrag(at point: CGPoint) -> Bool {
        guard dragState == nil, let view = annotationView(at: point), view.isDraggable,
              let annotation = view.annotation as? any MKMovableAnnotation else { return false }
        let anchor = viewport.convert(annotation.coordinate)
        guard anchor.x.isFinite, anchor.y.isFinite else { return false }
        dragState = MapViewDragState(view: view, annotation: annotation, original: annotation.coordinate,
                                     grabOffset: CGPoint(x: anchor.x - point.x, y: anchor.y - point.y))
        withCallbacks { changeDragState(of: view, to: .starting) }
        return true
    }

    /// Moves the dragged annotation so its view follows `point`; the first move goes `dragging`.
    public func drag(to point: CGPoint) {
        guard let drag = dragState, point.x.isFinite, point.y.isFinite else { return }
        let coordinate = viewport.convert(CGPoint(x: point.x + drag.grabOffset.x, y: point.y + drag.grabOffset.y))
        guard CLLocationCoordinate2DIsValid(coordinate) else { return }
        withCallbacks {
            if drag.view.dragState == .starting { changeDragState(of: drag.view, to: .dragging) }
            drag.annotation.coordinate = coordinate
        }
    }

    /// Ends the drag: `ending` then `none`, keeping the new coordinate; or, cancelled,
    /// `canceling` then `none`, putting the annotation back where it was.
    public func endDrag(cancelled: Bool = false) {
        guard let drag = dragState else { return }
        dragState = nil
        withCallbacks {
            if cancelled { drag.annotation.coordinate = drag.original }
            changeDragState(of: drag.view, to: cancelled ? .canceling : .ending)
            changeDragState(of: drag.view, to: .none)
            updateVisibleContent()
        }
    }

    private func changeDragState(of view: MKAnnotationView, to state: MKAnnotationView.DragState) {
        let old = view.dragState
        guard old != state else { return }
        view.setDragState(state, animated: true)
        delegate?.mapView(self, annotationView: view, didChange: state, fromOldState: old)
    }
}
