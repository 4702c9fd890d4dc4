import Foundation

/// Where a map looks (SwiftUI's `MapCameraPosition`).
///
/// Differs from MapKit: `allowsAutomaticPitch` and `followsHeading` are accepted and ignored, and
/// ``positionedByUser`` is always false (no one moves a headless map by hand).
public struct MapCameraPosition: Sendable {
    indirect enum Kind: Sendable {
        case automatic
        case region(MKCoordinateRegion)
        case rect(MKMapRect)
        case camera(MapCamera)
        case userLocation(fallback: MapCameraPosition)
        case item(MKMapItem)
    }
    let kind: Kind

    /// Frames all the map's content, with room for markers and their titles.
    public static let automatic = MapCameraPosition(kind: .automatic)
    public static func region(_ region: MKCoordinateRegion) -> MapCameraPosition { MapCameraPosition(kind: .region(region)) }
    public static func rect(_ rect: MKMapRect) -> MapCameraPosition { MapCameraPosition(kind: .rect(rect)) }
    public static func camera(_ camera: MapCamera) -> MapCameraPosition { MapCameraPosition(kind: .camera(camera)) }
    /// Shows a map item, centred at the single-marker zoom.
    public static func item(_ item: MKMapItem, allowsAutomaticPitch: Bool = false) -> MapCameraPosition {
        MapCameraPosition(kind: .item(item))
    }
    /// The map item shown, for an `.item` position.
    public var item: MKMapItem? { if case .item(let item) = kind { item } else { nil } }
    /// Centres on the user's location (``Map/userLocation(_:)``), or uses `fallback` when it is unknown.
    public static func userLocation(followsHeading: Bool = false, fallback: MapCameraPosition) -> MapCameraPosition {
        MapCameraPosition(kind: .userLocation(fallback: fallback))
    }

    public var region: MKCoordinateRegion? { if case .region(let region) = kind { region } else { nil } }
    public var rect: MKMapRect? { if case .rect(let rect) = kind { rect } else { nil } }
    public var camera: MapCamera? { if case .camera(let camera) = kind { camera } else { nil } }
    /// Whether the position follows the user's location.
    public var followsUserLocation: Bool { if case .userLocation = kind { true } else { false } }
    /// Whether a person moved the map; headless maps are only positioned by code.
    public var positionedByUser: Bool { false }
}
