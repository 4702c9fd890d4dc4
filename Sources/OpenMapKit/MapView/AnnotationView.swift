// MapKit's annotation view models: MKAnnotationView and MKMarkerAnnotationView, headless.
//
// On Apple platforms these are UIViews. Here they hold the same properties — what to draw, where
// relative to the coordinate, how it collides and clusters, whether it is selected or dragged —
// and the map view reads them to lay out, hit-test, cluster and draw its annotations.

import Foundation

/// Whether a feature of the map is shown (MapKit's `MKFeatureVisibility`): left to the map
/// (`adaptive`), always hidden, or always visible.
public enum MKFeatureVisibility: Int, Sendable, Hashable {
    case adaptive = 0
    case hidden = 1
    case visible = 2
}

/// How important an annotation is when annotations collide (MapKit's `MKFeatureDisplayPriority`):
/// a lower-priority view that overlaps a higher one is hidden; `required` views are never hidden.
public struct MKFeatureDisplayPriority: RawRepresentable, Hashable, Comparable, Sendable {
    public var rawValue: Float
    public init(rawValue: Float) { self.rawValue = rawValue }
    public init(_ rawValue: Float) { self.rawValue = rawValue }

    public static let required = MKFeatureDisplayPriority(rawValue: 1000)
    public static let defaultHigh = MKFeatureDisplayPriority(rawValue: 750)
    public static let defaultLow = MKFeatureDisplayPriority(rawValue: 250)

    public static func < (a: MKFeatureDisplayPriority, b: MKFeatureDisplayPriority) -> Bool { a.rawValue < b.rawValue }
}

/// The drawing order of annotation views (MapKit's `MKAnnotationViewZPriority`): higher is in front.
public struct MKAnnotationViewZPriority: RawRepresentable, Hashable, Comparable, Sendable {
    public var rawValue: Float
    public init(rawValue: Float) { self.rawValue = rawValue }
    public init(_ rawValue: Float) { self.rawValue = rawValue }

    public static let max = MKAnnotationViewZPriority(rawValue: 1000)
    public static let defaultSelected = MKAnnotationViewZPriority(rawValue: 1000)
    public static let defaultUnselected = MKAnnotationViewZPriority(rawValue: 500)
    public static let min = MKAnnotationViewZPriority(rawValue: 0)

    public static func < (a: MKAnnotationViewZPriority, b: MKAnnotationViewZPriority) -> Bool { a.rawValue < b.rawValue }
}

/// The reuse identifier of the view the map uses when its delegate supplies none for an annotation.
public let MKMapViewDefaultAnnotationViewReuseIdentifier = "MKMapViewDefaultAnnotationViewReuseIdentifier"
/// The reuse identifier of the view the map uses when its delegate supplies none for a cluster.
public let MKMapViewDefaultClusterAnnotationViewReuseIdentifier = "MKMapViewDefaultClusterAnnotationViewReuseIdentifier"

/// How an annotation is presented on a map view (MapKit's `MKAnnotationView`), as a model: an
/// image or drawing anchored at the annotation's coordinate, offsets, selection, dragging,
/// collision and clustering settings.
///
/// Views are recycled: when an annotation leaves the screen its view goes to the map view's reuse
/// queue under its ``reuseIdentifier``, and ``prepareForReuse()`` runs when it is dequeued for
/// another annotation. Configure views through their properties; don't tie them to one annotation.
///
/// Subclasses that override ``init(annotation:reuseIdentifier:)`` mark the override `required`
/// (here the map view creates registered classes from their metatype, which Swift allows only
/// through a required initialiser).
///
/// Differs from MapKit: a model, not a `UIView`: it has no subviews and no drawing code of its
/// own. ``MKMapView/render()`` draws its ``image`` (or, for an ``MKMarkerAnnotationView``, the
/// balloon); a view with neither draws nothing.
open class MKAnnotationView {
    /// The title drawn under the view's image, for a `Map`'s ``Annotation`` (MapKit draws an
    /// annotation view's own content only).
    var contentTitle: String?

    /// How a view's collision frame is read when views are decluttered (MapKit's
    /// `MKAnnotationView.CollisionMode`).
    public enum CollisionMode: Int, Sendable, Hashable {
        /// The view's frame.
        case rectangle = 0
        /// The largest circle inscribed in the view's frame.
        case circle = 1
        /// The view never collides.
        case none = 2
    }

    /// Where a drag of a draggable view is (MapKit's `MKAnnotationView.DragState`).
    public enum DragState: UInt, Sendable, Hashable {
        case none = 0
        case starting = 1
        case dragging = 2
        case canceling = 3
        case ending = 4
    }

    /// The annotation the view presents.
    open var annotation: (any MKAnnotation)?
    /// The identifier the view is queued under for reuse; nil views are not reused.
    public let reuseIdentifier: String?

    /// The image drawn at the coordinate; setting it sizes the view to the image.
    open var image: UIImage? {
        didSet { if let image { frame.size = image.size } }
    }

    /// The view's frame in the map view's coordinates, in points. The map view places the view's
    /// centre at the annotation's point plus ``centerOffset``.
    open var frame = CGRect.zero

    /// The view's bounds: its frame's size at the origin.
    open var bounds: CGRect { CGRect(origin: .zero, size: frame.size) }

    /// The displacement of the view's centre from the annotation's point, in points (positive
    /// y is down).
    open var centerOffset = CGPoint.zero
    /// The displacement of the callout's anchor from the top centre of the view, in points.
    open var calloutOffset = CGPoint.zero
    /// Whether the view shows a callout with the annotation's title when selected (MapKit shows
    /// none for an annotation without a title).
    open var canShowCallout = false
    /// The view at the callout's left end (often an image); a tap on it, when it is a
    /// ``UIControl``, calls the delegate's `calloutAccessoryControlTapped`.
    open var leftCalloutAccessoryView: UIView?
    /// The view at the callout's right end (often `UIButton(type: .detailDisclosure)`); a tap on
    /// it, when it is a ``UIControl``, calls the delegate's `calloutAccessoryControlTapped`.
    open var rightCalloutAccessoryView: UIView?
    /// A view shown under the title in place of the subtitle.
    open var detailCalloutAccessoryView: UIView?
    /// Whether the view takes part in selection (a disabled view cannot be selected by a tap).
    open var isEnabled = true
    /// Whether the view is drawn highlighted (pressed): a marker's balloon, a pin's head or a
    /// view's image darkens, as UIKit darkens a touched view.
    open var isHighlighted = false
    /// Whether the view is hidden.
    open var isHidden = false
    /// The view's opacity, 0 … 1.
    open var alpha: CGFloat = 1

    /// Whether the view is selected. The map view sets it; use the map view's `selectAnnotation`
    /// to select.
    open var isSelected: Bool {
        get { selected }
        set { setSelected(newValue, animated: false) }
    }
    private var selected = false

    /// Selects or deselects the view (the map view calls it when its annotation is selected).
    open func setSelected(_ selected: Bool, animated: Bool) { self.selected = selected }

    /// Whether the view can be dragged to move its annotation (which must then have a settable
    /// coordinate).
    open var isDraggable = false
    /// Where a drag is. The map view moves it through starting → dragging → ending (or canceling)
    /// → none and tells its delegate at each step.
    open var dragState: DragState {
        get { storedDragState }
        set { setDragState(newValue, animated: false) }
    }
    private var storedDragState = DragState.none

    /// Sets the drag state.
    open func setDragState(_ newDragState: DragState, animated: Bool) { storedDragState = newDragState }

    /// The priority used when views collide; `required` views are always shown. A view that
    /// overlaps (by its ``collisionMode``) a view of higher priority is hidden — not drawn and not
    /// tappable — until the camera or the views change so that it fits again; at equal priority
    /// the view added first stays (see MKMapView+Decluttering.swift). Clustering lets the higher
    /// priorities gather their neighbours first.
    open var displayPriority = MKFeatureDisplayPriority.required
    /// The drawing order when not selected: views of higher priority are drawn over (and take
    /// taps before) lower ones; at equal priority the southern view is in front.
    open var zPriority = MKAnnotationViewZPriority.defaultUnselected
    /// The drawing order when selected (by default above every unselected view).
    open var selectedZPriority = MKAnnotationViewZPriority.defaultSelected

    /// When the map view gave the view to its annotation, on the map view's clock: where an
    /// appearing animation (a marker's, a dropping pin's) starts; nil when it does not animate.
    var appearedAt: TimeInterval?
    /// How the view's frame collides with other views when the map hides colliding views: the
    /// frame, the circle inscribed in it, or not at all.
    open var collisionMode = CollisionMode.rectangle

    /// Views sharing a non-nil identifier are grouped into one ``MKClusterAnnotation`` when
    /// they come close on screen (``MKMapView/clusteringRadius``); nil never clusters. The map
    /// reads it when the view is shown and at every later update, so it may be set in the
    /// delegate's `viewFor`, by the view's class, or afterwards.
    open var clusteringIdentifier: String?
    /// The cluster view that stands in for this view while it is clustered (nil while the
    /// cluster is off screen); the map view sets it.
    open weak var cluster: MKAnnotationView?

    /// A view for `annotation`, queued under `reuseIdentifier` when it leaves the screen.
    public required init(annotation: (any MKAnnotation)?, reuseIdentifier: String?) {
        self.annotation = annotation
        self.reuseIdentifier = reuseIdentifier
    }

    /// Called when the view is taken from the reuse queue: resets the per-annotation state
    /// (selection, highlight, drag, cluster). Subclasses call super.
    open func prepareForReuse() {
        selected = false
        isHighlighted = false
        appearedAt = nil
        storedDragState = .none
        cluster = nil
    }

    /// Called just before the view is shown for its (possibly new) annotation.
    open func prepareForDisplay() {}
}

/// The balloon marker of the Maps app (MapKit's `MKMarkerAnnotationView`): a coloured balloon with
/// a glyph, and the annotation's title under it. It is the view a map view uses when its delegate
/// supplies none.
///
/// Differs from MapKit: the balloon does not grow when selected (the selected one is drawn on
/// top, see ``MKAnnotationView/selectedZPriority``).
open class MKMarkerAnnotationView: MKAnnotationView {
    /// The balloon's colour; nil is MapKit's red.
    open var markerTintColor: UIColor?
    /// The glyph's colour (the text and the pin or icon glyph; a glyph image is drawn as it is,
    /// there are no template images here); nil is white.
    open var glyphTintColor: UIColor?
    /// Up to three characters shown in the balloon instead of the pin glyph.
    open var glyphText: String?
    /// An image shown in the balloon instead of the pin glyph.
    open var glyphImage: UIImage?
    /// The glyph of a `Map`'s ``Marker`` shown by this view (a point-of-interest icon has no
    /// MapKit property); wins over ``glyphText`` and ``glyphImage``.
    var contentGlyph: MarkerItem.Glyph?
    /// The glyph image shown while selected; nil keeps ``glyphImage``.
    open var selectedGlyphImage: UIImage?
    /// Whether the title is drawn under the balloon (adaptive: unless it collides).
    open var titleVisibility = MKFeatureVisibility.adaptive
    /// Whether the subtitle is drawn under the title: `adaptive` while the marker is selected
    /// (as MapKit), `visible` always, `hidden` never. It shows only where the title does.
    open var subtitleVisibility = MKFeatureVisibility.adaptive
    /// Whether the marker grows from its tip when it appears: over
    /// ``MKMarkerAnnotationView/appearDuration`` on the map view's clock, from nothing to its full
    /// size (``MKMapView/isAnimating`` stays true meanwhile, so a driver keeps drawing).
    open var animatesWhenAdded = false

    /// How long a marker takes to grow in when ``animatesWhenAdded`` is true, in seconds.
    public static let appearDuration: TimeInterval = 0.3

    public required init(annotation: (any MKAnnotation)?, reuseIdentifier: String?) {
        super.init(annotation: annotation, reuseIdentifier: reuseIdentifier)
        // The balloon's box, the tip at the coordinate: the view's centre sits above the point.
        frame = CGRect(x: 0, y: 0, width: 2 * AnnotationDrawing.headRadius, height: AnnotationDrawing.tipToCenter + AnnotationDrawing.headRadius)
        centerOffset = CGPoint(x: 0, y: -(AnnotationDrawing.tipToCenter + AnnotationDrawing.headRadius) / 2)
        displayPriority = .defaultLow
        collisionMode = .circle
    }

    /// The balloon colour drawn: ``markerTintColor`` or MapKit's red.
    var effectiveTint: UIColor { markerTintColor ?? .systemRed }
}

/// The pin colours of MapKit's deprecated `pinColor` (MapKit's `MKPinAnnotationColor`).
@available(*, deprecated, message: "use MKPinAnnotationView.pinTintColor")
public enum MKPinAnnotationColor: UInt, Sendable, Hashable {
    case red = 0
    case green = 1
    case purple = 2
}

/// The classic pin of the Maps app (MapKit's `MKPinAnnotationView`, deprecated since iOS 16 in
/// favour of ``MKMarkerAnnotationView`` but used by a decade of code): a round head on a needle
/// whose point is on the coordinate.
///
/// The view is 16 × 40 points, its centre offset so that the needle's point is on the
/// annotation's point. With ``animatesDrop`` the pin falls from above the map's top edge onto its
/// place over ``MKPinAnnotationView/dropDuration`` on the map view's clock when it appears.
open class MKPinAnnotationView: MKAnnotationView {
    /// The head's colour; nil is the standard red (``MKPinAnnotationView/redPinColor()``).
    open var pinTintColor: UIColor?
    /// Whether the pin drops onto the map when it appears.
    open var animatesDrop = false

    /// The standard red pin colour.
    open class func redPinColor() -> UIColor { UIColor(red: 1, green: 59 / 255, blue: 48 / 255, alpha: 1) }
    /// The standard green pin colour.
    open class func greenPinColor() -> UIColor { UIColor(red: 52 / 255, green: 199 / 255, blue: 89 / 255, alpha: 1) }
    /// The standard purple pin colour.
    open class func purplePinColor() -> UIColor { UIColor(red: 175 / 255, green: 82 / 255, blue: 222 / 255, alpha: 1) }

    /// The pin's colour as MapKit's deprecated enumeration: setting it sets ``pinTintColor``;
    /// reading it gives `.red` for a colour that is not one of the three.
    @available(*, deprecated, message: "use pinTintColor")
    open var pinColor: MKPinAnnotationColor {
        get {
            let tint = pinTintColor ?? Self.redPinColor()
            return tint == Self.greenPinColor() ? .green : tint == Self.purplePinColor() ? .purple : .red
        }
        set {
            switch newValue {
            case .red: pinTintColor = Self.redPinColor()
            case .green: pinTintColor = Self.greenPinColor()
            case .purple: pinTintColor = Self.purplePinColor()
            }
        }
    }

    /// How long a dropping pin falls, in seconds.
    public static let dropDuration: TimeInterval = 0.4

    public required init(annotation: (any MKAnnotation)?, reuseIdentifier: String?) {
        super.init(annotation: annotation, reuseIdentifier: reuseIdentifier)
        frame = CGRect(x: 0, y: 0, width: PinDrawing.width, height: PinDrawing.height)
        centerOffset = CGPoint(x: 0, y: -PinDrawing.height / 2)
        calloutOffset = CGPoint(x: 0, y: 2)
    }

    /// The head colour drawn.
    var effectiveTint: UIColor { pinTintColor ?? Self.redPinColor() }
}

/// The view of the user's location (MapKit's `MKUserLocationView`): the blue dot with its white
/// ring, over a translucent circle as wide as the location's horizontal accuracy. A map view
/// shows it for ``MKUserLocation`` when its delegate returns no view.
open class MKUserLocationView: MKAnnotationView {
    /// Whether the accuracy circle is drawn around the dot (an OpenMapKit name for what MapKit
    /// always draws; default true).
    open var showsAccuracyRing = true
    /// The dot's colour; nil is the system blue.
    open var tintColor: UIColor?

    public required init(annotation: (any MKAnnotation)?, reuseIdentifier: String?) {
        super.init(annotation: annotation, reuseIdentifier: reuseIdentifier)
        // The dot with its halo: a 22-point square centred on the location.
        frame = CGRect(x: 0, y: 0, width: 22, height: 22)
        canShowCallout = true
        displayPriority = .required
        collisionMode = .none
    }
}

/// Several annotations shown as one (MapKit's `MKClusterAnnotation`), made when views with the
/// same ``MKAnnotationView/clusteringIdentifier`` overlap.
open class MKClusterAnnotation: NSObject, MKAnnotation {
    /// The annotations the cluster stands for.
    public let memberAnnotations: [any MKAnnotation]
    open var title: String?
    open var subtitle: String?

    /// The centre of the members in map points (so it lies where they are drawn, across the
    /// 180th meridian too); (0, 0) for no members.
    open var coordinate: CLLocationCoordinate2D {
        let points = memberAnnotations.map(\.coordinate).filter(CLLocationCoordinate2DIsValid)
        guard let first = points.first else { return CLLocationCoordinate2D() }
        let origin = MKMapPoint(first)
        var sx = 0.0, sy = 0.0
        for point in points {
            var p = MKMapPoint(point)
            // Members beyond the meridian from the first are measured the short way round.
            if p.x - origin.x > MKMapSize.worldWidth / 2 { p.x -= MKMapSize.worldWidth }
            if origin.x - p.x > MKMapSize.worldWidth / 2 { p.x += MKMapSize.worldWidth }
            sx += p.x
            sy += p.y
        }
        let n = Double(points.count)
        return MKMapPoint(x: sx / n, y: sy / n).coordinate.normalized
    }

    public init(memberAnnotations: [any MKAnnotation]) {
        self.memberAnnotations = memberAnnotations
        super.init()
    }
}

/// How the map follows the user (MapKit's `MKUserTrackingMode`).
public enum MKUserTrackingMode: Int, Sendable, Hashable {
    /// The map doesn't follow the user.
    case none = 0
    /// The map is centred on the user's location.
    case follow = 1
    /// The map is centred on the user's location and turned to their heading.
    case followWithHeading = 2
}

/// The annotation for the user's location (MapKit's `MKUserLocation`). Its coordinate is invalid
/// until a location arrives.
///
/// Differs from MapKit: locations come from the map view's ``MKMapView/userLocationProvider``,
/// not Core Location, and ``heading`` is a direction in degrees, not a `CLHeading`.
public final class MKUserLocation: NSObject, MKAnnotation {
    /// The latest location; nil until one arrives.
    public internal(set) var location: CLLocation?
    /// The direction the device faces, degrees from true north; nil when unknown (MapKit's
    /// `heading` is a `CLHeading`; its true heading is what is kept here).
    public internal(set) var heading: CLLocationDirection?
    /// Whether locations are being received.
    public internal(set) var isUpdating = false
    public var title: String? = "My Location"
    public var subtitle: String?

    public var coordinate: CLLocationCoordinate2D { location?.coordinate ?? kCLLocationCoordinate2DInvalid }

    override init() { super.init() }
}

/// Annotation views compare by identity, as MapKit's (UIView) do.
extension MKAnnotationView: Hashable {
    public static func == (a: MKAnnotationView, b: MKAnnotationView) -> Bool { a === b }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
