import Foundation

/// A map control (SwiftUI's compass, scale and buttons). A ``MapHost`` draws the controls its map
/// lists in ``Map/mapControls(_:)`` with the map view's own controls (``MKMapView/showsCompass``,
/// ``MKMapView/showsScale``, ``MKMapView/showsUserTrackingButton``, ``MKMapView/showsPitchControl``,
/// ``MKMapView/showsZoomControls``), where MapKit puts them, and taps on them work; snapshots draw
/// none.
///
/// Differs from MapKit: a control made with a `scope` is drawn in its default place on the map of
/// that scope (there is no SwiftUI layout to put it elsewhere); `MapPitchSlider` is not drawn.
public protocol MapControl {
    /// Whether the control shows: automatic (MapKit's rule, e.g. the compass while the map is
    /// turned), always or never.
    var visibility: Visibility { get set }
}

extension MapControl {
    /// The control shown always, never or by MapKit's rule (SwiftUI's `mapControlVisibility`).
    public func mapControlVisibility(_ visibility: Visibility) -> Self {
        var copy = self
        copy.visibility = visibility
        return copy
    }
}

/// SwiftUI's `MapCompass`: shown while the map is turned away from north; a tap turns it north.
public struct MapCompass: MapControl {
    public var visibility = Visibility.automatic
    public init(scope: Namespace.ID? = nil) {}
}
/// SwiftUI's `MapScaleView`: the scale bar.
public struct MapScaleView: MapControl {
    public var visibility = Visibility.automatic
    public init(anchorEdge: HorizontalEdge = .leading, scope: Namespace.ID? = nil) {}
}
/// SwiftUI's `MapUserLocationButton`: a tap follows the user's location.
public struct MapUserLocationButton: MapControl {
    public var visibility = Visibility.automatic
    public init(scope: Namespace.ID? = nil) {}
}
/// SwiftUI's `MapPitchToggle`: a tap tilts the map or lays it flat.
public struct MapPitchToggle: MapControl {
    public var visibility = Visibility.automatic
    public init(scope: Namespace.ID? = nil) {}
}
/// The WWDC23 beta's name for ``MapPitchToggle``.
public typealias MapPitchButton = MapPitchToggle
/// SwiftUI's `MapZoomStepper`: buttons that zoom in and out.
public struct MapZoomStepper: MapControl {
    public var visibility = Visibility.automatic
    public init(scope: Namespace.ID? = nil) {}
}
/// SwiftUI's `MapPitchSlider` (macOS): accepted and not drawn (see ``MapControl``).
public struct MapPitchSlider: MapControl {
    public var visibility = Visibility.automatic
    public init(scope: Namespace.ID? = nil) {}
}

/// SwiftUI's `HorizontalEdge`, for ``MapScaleView``'s anchor.
public enum HorizontalEdge: Sendable { case leading, trailing }

/// Builds a list of map controls (SwiftUI's `MapControlBuilder`).
@resultBuilder
public enum MapControlBuilder {
    public static func buildExpression(_ control: any MapControl) -> [any MapControl] { [control] }
    public static func buildBlock(_ parts: [any MapControl]...) -> [any MapControl] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [any MapControl]?) -> [any MapControl] { part ?? [] }
    public static func buildEither(first: [any MapControl]) -> [any MapControl] { first }
    public static func buildEither(second: [any MapControl]) -> [any MapControl] { second }
}

extension Map {
    /// The controls shown over the map in a ``MapHost`` (instead of MapKit's default: the compass
    /// while the map is turned).
    public func mapControls(@MapControlBuilder _ content: () -> [any MapControl]) -> Map {
        var copy = self
        copy.controls = content()
        return copy
    }

    /// Applies the map's controls to the map view that shows it: each one listed shows by its
    /// visibility, the others not at all.
    func applyControls(to mapView: MKMapView) {
        let controls = self.controls ?? [MapCompass()]
        func visibility<Control: MapControl>(_ type: Control.Type) -> Visibility {
            controls.compactMap { $0 as? Control }.first?.visibility ?? .hidden
        }
        let compass = visibility(MapCompass.self)
        mapView.showsCompass = compass != .hidden
        mapView.ornamentLayout.compassVisibility = compass == .visible ? .visible : compass == .hidden ? .hidden : .adaptive
        mapView.showsScale = visibility(MapScaleView.self) != .hidden
        mapView.showsUserTrackingButton = visibility(MapUserLocationButton.self) != .hidden
        mapView.showsPitchControl = visibility(MapPitchToggle.self) != .hidden
        mapView.showsZoomControls = visibility(MapZoomStepper.self) != .hidden
    }
}
