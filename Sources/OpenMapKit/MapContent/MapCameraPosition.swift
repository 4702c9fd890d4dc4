import Foundation

/// Where a map looks (SwiftUI's `MapCameraPosition`).
///
/// A ``MapHost`` applies a position when the map's position binding changes and writes the
/// binding back when the person moves the map: the position then reports
/// ``positionedByUser`` and none of ``region``, ``rect``, ``camera`` or ``item`` (as in MapKit;
/// `onMapCameraChange(frequency:_:)` reports where the map looks).
///
/// Differs from MapKit: `allowsAutomaticPitch` is accepted and ignored (an item is shown from
/// above).
public struct MapCameraPosition: Sendable, Equatable {
    indirect enum Kind: Sendable {
        case automatic
        case region(MKCoordinateRegion)
        case rect(MKMapRect)
        case camera(MapCamera)
        case userLocation(followsHeading: Bool, fallback: MapCameraPosition)
        case item(MKMapItem)
        /// Where the person moved the map.
        case positionedByUser(MapCamera)
    }
    let kind: Kind

    /// Frames all the map's content, with room for markers and their titles.
    public static let automatic = MapCameraPosition(kind: .automatic)
    /// Shows a region.
    public static func region(_ region: MKCoordinateRegion) -> MapCameraPosition { MapCameraPosition(kind: .region(region)) }
    /// Shows a map rectangle.
    public static func rect(_ rect: MKMapRect) -> MapCameraPosition { MapCameraPosition(kind: .rect(rect)) }
    /// Shows what a camera sees.
    public static func camera(_ camera: MapCamera) -> MapCameraPosition { MapCameraPosition(kind: .camera(camera)) }
    /// Shows a map item: its extent when the place index knows it (a bay, a park), else the point
    /// at the single-marker zoom.
    public static func item(_ item: MKMapItem, allowsAutomaticPitch: Bool = false) -> MapCameraPosition {
        MapCameraPosition(kind: .item(item))
    }
    /// Follows the user's location (heading up with `followsHeading`), or uses `fallback` while
    /// it is unknown.
    public static func userLocation(followsHeading: Bool = false, fallback: MapCameraPosition) -> MapCameraPosition {
        MapCameraPosition(kind: .userLocation(followsHeading: followsHeading, fallback: fallback))
    }

    /// The map item shown, for an `.item` position.
    public var item: MKMapItem? { if case .item(let item) = kind { item } else { nil } }
    /// The region shown, for a `.region` position.
    public var region: MKCoordinateRegion? { if case .region(let region) = kind { region } else { nil } }
    /// The rectangle shown, for a `.rect` position.
    public var rect: MKMapRect? { if case .rect(let rect) = kind { rect } else { nil } }
    /// The camera, for a `.camera` position.
    public var camera: MapCamera? { if case .camera(let camera) = kind { camera } else { nil } }
    /// The fallback of a `.userLocation` position.
    public var fallbackPosition: MapCameraPosition? {
        if case .userLocation(_, let fallback) = kind { fallback } else { nil }
    }
    /// Whether the position follows the user's location.
    public var followsUserLocation: Bool { if case .userLocation = kind { true } else { false } }
    /// Whether the position follows the user's location with the map turned to their heading.
    public var followsHeading: Bool { if case .userLocation(true, _) = kind { true } else { false } }
    /// Whether the person moved the map to where it is (rather than code setting the position).
    public var positionedByUser: Bool { if case .positionedByUser = kind { true } else { false } }

    /// Where the person left the map, for a position they made.
    var userCamera: MapCamera? { if case .positionedByUser(let camera) = kind { camera } else { nil } }

    public static func == (a: MapCameraPosition, b: MapCameraPosition) -> Bool {
        switch (a.kind, b.kind) {
        case (.automatic, .automatic): true
        case (.region(let x), .region(let y)):
            x.center.latitude == y.center.latitude && x.center.longitude == y.center.longitude
                && x.span.latitudeDelta == y.span.latitudeDelta && x.span.longitudeDelta == y.span.longitudeDelta
        case (.rect(let x), .rect(let y)): x == y
        case (.camera(let x), .camera(let y)): x == y
        case (.userLocation(let h1, let f1), .userLocation(let h2, let f2)): h1 == h2 && f1 == f2
        case (.item(let x), .item(let y)): x == y
        case (.positionedByUser(let x), .positionedByUser(let y)): x == y
        default: false
        }
    }
}
