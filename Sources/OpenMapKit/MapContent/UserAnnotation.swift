import Foundation

/// The user's location (SwiftUI's `UserAnnotation`): the blue dot, where ``Map/userLocation(_:)`` is.
///
/// Differs from MapKit: there is no location service; the dot is drawn where the map's
/// ``Map/userLocation(_:)`` puts it, and `anchor` is ignored.
public struct UserAnnotation: MapContent, PrimitiveMapContent {
    public init() {}
    public init(anchor: UnitPoint) {}
    func collect(into scene: inout MapScene, _ environment: MapContentEnvironment) {
        scene.showsUserLocation = true
    }
}
