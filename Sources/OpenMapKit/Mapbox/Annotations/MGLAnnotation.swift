// Mapbox's annotation and overlay protocols.

import Foundation
import MapGeometry

/// An object that marks a point on the map (Mapbox's `MGLAnnotation`): a coordinate, and
/// optionally a title and subtitle for its callout.
///
/// Differs from Mapbox: a Swift protocol (not an `NSObjectProtocol`), so ``title`` and
/// ``subtitle`` have default implementations (nil) rather than being optional requirements. A
/// moving annotation is followed on the next camera change or ``MGLMapView/render()``, not
/// through key-value observing.
public protocol MGLAnnotation: AnyObject {
    /// The annotation's point.
    var coordinate: CLLocationCoordinate2D { get }
    /// The title shown in its callout.
    var title: String? { get }
    /// The subtitle shown in its callout.
    var subtitle: String? { get }
}

extension MGLAnnotation {
    public var title: String? { nil }
    public var subtitle: String? { nil }
}

/// An annotation that covers an area (Mapbox's `MGLOverlay`): polylines, polygons and their
/// multi-shapes conform.
///
/// Differs from Mapbox: a Swift protocol; ``intersects(_:)`` has a default implementation that
/// compares with ``overlayBounds``.
public protocol MGLOverlay: MGLAnnotation {
    /// The smallest bounds holding the overlay.
    var overlayBounds: MGLCoordinateBounds { get }
    /// Whether the overlay meets `overlayBounds`.
    func intersects(_ overlayBounds: MGLCoordinateBounds) -> Bool
}

extension MGLOverlay {
    public func intersects(_ overlayBounds: MGLCoordinateBounds) -> Bool {
        MGLCoordinateBoundsIntersectsCoordinateBounds(self.overlayBounds, overlayBounds)
    }
}
