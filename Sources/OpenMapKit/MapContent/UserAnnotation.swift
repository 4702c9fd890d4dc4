import Foundation

/// The user's location (SwiftUI's `UserAnnotation`): the blue dot.
///
/// In a ``MapHost`` the dot follows the map view's ``MKMapView/userLocationProvider`` (a GPX or
/// NMEA replay, gpsd, a fixed place), or the map's ``Map/userLocation(_:)``; a snapshot draws it
/// where ``Map/userLocation(_:)`` puts it. `anchor` is ignored: the dot is centred.
public struct UserAnnotation: MapContent, PrimitiveMapContent {
    public init() {}
    public init(anchor: UnitPoint) {}
    func collect(into scene: inout MapScene, _ environment: MapContentEnvironment) {
        scene.showsUserLocation = true
    }
}
