// MKMapView's decluttering: annotation views that collide on screen with a view of higher
// display priority are hidden, as MapKit hides them.
//
// What is hidden follows from what is on screen now (the camera, the views' frames, offsets,
// priorities and collision modes, the selection, the clusters), and views are plain objects whose
// properties change without telling the map; so it is worked out afresh whenever it is asked —
// by each frame drawn and each tap — rather than kept and invalidated.
//
// The rules:
// - Views with `required` priority, the selected annotation's view and a view being dragged are
//   always shown; they are placed first and hide lower views that overlap them (required views
//   may overlap each other).
// - The others are placed by descending display priority; one that overlaps a view already
//   placed is hidden. At equal priority clusters come before single annotations (a cluster stands
//   for several), then the order added (clusters in the order formed), so the view that was there
//   first keeps its place, as clustering keeps it.
// - The collision shape is the view's frame where it is drawn (`rectangle`), the circle inscribed
//   in that frame (`circle`), or nothing (`none`: never hidden, never hides another). Shapes that
//   only touch do not overlap. A view with an empty frame draws nothing and takes no part.
// - The user-location view takes no part: it is always drawn and hides nothing.
// - Members drawn as part of a cluster are not drawn at all; the cluster's view takes part with
//   its own priority and collision mode.

import Foundation
import MapGeometry

/// A view's collision shape on screen.
struct CollisionShape {
    enum Kind { case rectangle, circle }
    let kind: Kind
    let rect: CGRect

    var minX: Double { Double(rect.minX) }
    var minY: Double { Double(rect.minY) }
    var maxX: Double { Double(rect.maxX) }
    var maxY: Double { Double(rect.maxY) }
    var radius: Double { Double(min(rect.width, rect.height)) / 2 }

    /// Whether the two shapes overlap (share interior points).
    func overlaps(_ other: CollisionShape) -> Bool {
        // Bounding boxes first: every shape lies inside its frame.
        guard minX < other.maxX, other.minX < maxX, minY < other.maxY, other.minY < maxY else { return false }
        switch (kind, other.kind) {
        case (.rectangle, .rectangle):
            return true
        case (.circle, .circle):
            let dx = Double(rect.midX - other.rect.midX), dy = Double(rect.midY - other.rect.midY), reach = radius + other.radius
            return dx * dx + dy * dy < reach * reach
        case (.circle, .rectangle):
            return CollisionShape.circle(self, overlaps: other)
        case (.rectangle, .circle):
            return CollisionShape.circle(other, overlaps: self)
        }
    }

    /// Whether a circle overlaps a rectangle: the rectangle's point nearest the centre is
    /// closer than the radius.
    private static func circle(_ circle: CollisionShape, overlaps rectangle: CollisionShape) -> Bool {
        let cx = Double(circle.rect.midX), cy = Double(circle.rect.midY), r = circle.radius
        let nx = min(max(cx, rectangle.minX), rectangle.maxX), ny = min(max(cy, rectangle.minY), rectangle.maxY)
        let dx = cx - nx, dy = cy - ny
        return dx * dx + dy * dy < r * r
    }
}

/// The placed shapes, bucketed in a grid so that each new shape is tested against its neighbours only.
struct CollisionGrid {
    static let cell = 64.0
    private var cells: [Int64: [Int]] = [:]
    private var shapes: [CollisionShape] = []

    private static func range(_ low: Double, _ high: Double) -> ClosedRange<Int64> {
        // Frames far off screen are clamped so the cell numbers stay small.
        let a = Int64((min(max(low, -1e9), 1e9) / cell).rounded(.down)), b = Int64((min(max(high, -1e9), 1e9) / cell).rounded(.down))
        return a...max(a, b)
    }

    private static func key(_ x: Int64, _ y: Int64) -> Int64 { (x << 32) ^ (y & 0xFFFF_FFFF) }

    func collides(_ shape: CollisionShape) -> Bool {
        for x in CollisionGrid.range(shape.minX, shape.maxX) {
            for y in CollisionGrid.range(shape.minY, shape.maxY) {
                guard let bucket = cells[CollisionGrid.key(x, y)] else { continue }
                if bucket.contains(where: { shapes[$0].overlaps(shape) }) { return true }
            }
        }
        return false
    }

    mutating func insert(_ shape: CollisionShape) {
        shapes.append(shape)
        for x in CollisionGrid.range(shape.minX, shape.maxX) {
            for y in CollisionGrid.range(shape.minY, shape.maxY) { cells[CollisionGrid.key(x, y), default: []].append(shapes.count - 1) }
        }
    }
}

extension MKMapView {
    /// The annotations (and clusters) whose views are hidden now because they collide with a
    /// view of higher priority, by the annotation's identity. See the rules at the top of the file.
    func declutteredAnnotations() -> Set<ObjectIdentifier> {
        guard hasArea, !annotationViews.isEmpty else { return [] }
        struct Candidate {
            let id: ObjectIdentifier
            let shape: CollisionShape
            let forced: Bool
            let priority: Float
            let isCluster: Bool
            let order: Int
        }
        var candidates: [Candidate] = []
        let clusters = clusterState.clusters.map { $0.annotation as any MKAnnotation }
        for (order, annotation) in (annotationStore.list + clusters).enumerated() {
            guard !(annotation is MKUserLocation) else { continue }
            let id = ObjectIdentifier(annotation)
            guard let view = annotationViews[id], !view.isHidden, view.alpha > 0, view.collisionMode != .none,
                  !isClusteredMember(annotation), let frame = frame(of: view),
                  frame.width > 0, frame.height > 0, frame.minX.isFinite, frame.minY.isFinite else { continue }
            let forced = view.displayPriority >= .required || selectedAnnotation === annotation || view.isSelected
                || (dragState?.annotation === annotation)
            let kind: CollisionShape.Kind = view.collisionMode == .circle ? .circle : .rectangle
            let priority = view.displayPriority.rawValue.isNaN ? 0 : view.displayPriority.rawValue
            candidates.append(Candidate(id: id, shape: CollisionShape(kind: kind, rect: frame), forced: forced, priority: priority,
                                        isCluster: annotation is MKClusterAnnotation && isKnownCluster(annotation), order: order))
        }
        guard candidates.count > 1 else { return [] }
        candidates.sort { a, b in
            if a.forced != b.forced { return a.forced }
            if a.priority != b.priority { return a.priority > b.priority }
            if a.isCluster != b.isCluster { return a.isCluster }
            return a.order < b.order
        }
        var grid = CollisionGrid()
        var hidden: Set<ObjectIdentifier> = []
        for candidate in candidates {
            if !candidate.forced, grid.collides(candidate.shape) {
                hidden.insert(candidate.id)
            } else {
                grid.insert(candidate.shape)
            }
        }
        return hidden
    }

    /// Whether `view` is hidden now by decluttering (MapKit gives no way to ask; internal, for
    /// tests). False for views the map is not showing.
    func isDecluttered(_ view: MKAnnotationView) -> Bool {
        guard let annotation = view.annotation, annotationViews[ObjectIdentifier(annotation)] === view else { return false }
        return declutteredAnnotations().contains(ObjectIdentifier(annotation))
    }
}
