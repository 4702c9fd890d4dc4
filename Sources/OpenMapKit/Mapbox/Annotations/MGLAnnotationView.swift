// Mapbox's two presentations of point annotations: annotation views (MGLAnnotationView) and
// annotation images (MGLAnnotationImage). The map view shows both through its engine's
// annotation views (see MGLMapView+Annotations.swift).

import Foundation
import MapGeometry
import MapRender

/// The drag states of a draggable annotation view (Mapbox's `MGLAnnotationViewDragState`).
public enum MGLAnnotationViewDragState: UInt, Sendable, Hashable {
    case none = 0
    case starting = 1
    case dragging = 2
    case canceling = 3
    case ending = 4
}

/// How a point annotation is presented as a view (Mapbox's `MGLAnnotationView`): a rectangle
/// centred on the annotation's point plus ``centerOffset``, selectable, draggable, recycled
/// through the map view's reuse queue under ``reuseIdentifier``.
///
/// Differs from Mapbox: a model, not a `UIView`: it has no subviews, layers or drawing code.
/// ``MGLMapView/render()`` fills its ``bounds`` with ``backgroundColor`` (nothing when nil), at
/// ``alpha``, unless ``isHidden``; for a picture, use an ``MGLAnnotationImage``. Views always stay
/// upright and keep their size: ``scalesWithViewingDistance`` and ``rotatesToMatchCamera`` are kept
/// but not drawn. `init?(coder:)` exists for subclasses written as UIKit's, and always fails.
open class MGLAnnotationView {
    /// The annotation the view presents.
    open var annotation: (any MGLAnnotation)?
    /// The identifier the view is queued under for reuse; nil views are not reused.
    public let reuseIdentifier: String?

    /// The view's frame, in the map view's coordinates once placed (its origin follows the
    /// annotation; set the size through ``bounds`` or here).
    open var frame = CGRect.zero
    /// The view's bounds: its size at the origin; setting it resizes the view about its centre.
    open var bounds: CGRect {
        get { CGRect(origin: .zero, size: frame.size) }
        set {
            let centre = CGPoint(x: frame.midX, y: frame.midY)
            frame = CGRect(x: centre.x - newValue.width / 2, y: centre.y - newValue.height / 2, width: newValue.width, height: newValue.height)
        }
    }
    /// The view's centre in the map view's coordinates (set by the map view as the camera moves).
    open var center: CGPoint {
        get { CGPoint(x: frame.midX, y: frame.midY) }
        set { frame.origin = CGPoint(x: newValue.x - frame.width / 2, y: newValue.y - frame.height / 2) }
    }
    /// The displacement of the view's centre from the annotation's point, in points (positive
    /// dy is down).
    open var centerOffset = CGVector.zero
    /// The colour that fills the view's bounds; nil draws nothing (the view still takes taps).
    open var backgroundColor: UIColor?
    /// Whether the view is hidden (not drawn, not tappable).
    open var isHidden = false
    /// The view's opacity, 0 … 1.
    open var alpha: CGFloat = 1
    /// Whether the view shrinks as the map is pitched away (Mapbox's default true). Kept only:
    /// views are drawn at their size.
    open var scalesWithViewingDistance = true
    /// Whether the view turns with the map (Mapbox's default false). Kept only: views are drawn upright.
    open var rotatesToMatchCamera = false
    /// Whether the view takes part in selection.
    open var isEnabled = true
    /// Whether the view can be dragged to move its annotation (which must be an
    /// ``MGLPointAnnotation`` or have a settable coordinate).
    open var isDraggable = false

    private var selected = false
    private var storedDragState = MGLAnnotationViewDragState.none

    /// Whether the view is selected; the map view sets it (use `selectAnnotation` to select).
    open var isSelected: Bool {
        get { selected }
        set { setSelected(newValue, animated: false) }
    }

    /// Selects or deselects the view; the map view calls it when its annotation is (de)selected.
    /// Subclasses call super.
    open func setSelected(_ selected: Bool, animated: Bool) { self.selected = selected }

    /// Where a drag is.
    open var dragState: MGLAnnotationViewDragState {
        get { storedDragState }
        set { setDragState(newValue, animated: false) }
    }

    /// Sets the drag state; subclasses call super.
    open func setDragState(_ dragState: MGLAnnotationViewDragState, animated: Bool) { storedDragState = dragState }

    /// A view queued under `reuseIdentifier`.
    public init(reuseIdentifier: String?) {
        self.reuseIdentifier = reuseIdentifier
    }

    /// A view for `annotation`, queued under `reuseIdentifier`.
    public init(annotation: (any MGLAnnotation)?, reuseIdentifier: String?) {
        self.annotation = annotation
        self.reuseIdentifier = reuseIdentifier
    }

    /// UIKit's archive initialiser, for subclasses written as UIKit's; views are never archived here.
    public required init?(coder: NSCoder) { return nil }

    /// Called when the view is taken from the reuse queue: resets selection and drag state.
    /// Subclasses call super.
    open func prepareForReuse() {
        selected = false
        storedDragState = .none
    }

    /// The picture drawn for the view: its background colour over its bounds; nil when there is
    /// nothing to draw.
    func renderedImage() -> UIImage? {
        guard let color = backgroundColor, color.alpha > 0, frame.width > 0, frame.height > 0, frame.width <= 4096, frame.height <= 4096,
              let canvas = try? RenderCanvas(width: Double(frame.width), height: Double(frame.height), scale: 2) else { return nil }
        canvas.fill(color.renderColor)
        return UIImage(canvas: canvas)
    }
}

/// Annotation views compare by identity, as Mapbox's (UIView) do.
extension MGLAnnotationView: Hashable {
    public static func == (a: MGLAnnotationView, b: MGLAnnotationView) -> Bool { a === b }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// A picture that marks point annotations (Mapbox's `MGLAnnotationImage`), shared by every
/// annotation the delegate gives it for and found again with the map view's
/// `dequeueReusableAnnotationImage(withIdentifier:)`.
///
/// Differs from Mapbox: the image is drawn centred on the point, upright, at its size, by the
/// map view's annotation drawing (not as a style symbol).
public final class MGLAnnotationImage {
    /// The picture; replacing it redraws every annotation using this image on the next frame.
    public var image: UIImage
    /// The identifier it is shared and found under.
    public let reuseIdentifier: String
    /// Whether annotations with this image can be selected (default true).
    public var isEnabled = true
    /// Whether it stands for Mapbox's default marker (drawn as OpenMapKit's balloon marker).
    let isDefaultMarker: Bool

    /// An image shared under `reuseIdentifier`.
    public init(image: UIImage, reuseIdentifier: String) {
        self.image = image
        self.reuseIdentifier = reuseIdentifier
        isDefaultMarker = false
    }

    /// Mapbox's default marker image.
    init(defaultMarkerWith image: UIImage) {
        self.image = image
        reuseIdentifier = MGLAnnotationImage.defaultMarkerIdentifier
        isDefaultMarker = true
    }

    /// The identifier of the default marker (Mapbox's `default_marker`).
    static let defaultMarkerIdentifier = "default_marker"
}
