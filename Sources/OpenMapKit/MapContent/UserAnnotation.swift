import Foundation

/// The user's location (SwiftUI's `UserAnnotation`): the blue dot, where ``Map/userLocation(_:)`` is.
public struct UserAnnotation: MapContent, PrimitiveMapContent {
    public init() {}
    public init(anchor: UnitPoint) {}
    func collect(into scene: inout MapScene, _ environment: MapContentEnvironment) {
        scene.showsUserLocation = true
    }
}
