import Foundation

/// A circle of a radius in metres (SwiftUI's `MapCircle`), styled as ``MapPolygon``.
public struct MapCircle: MapContent, PrimitiveMapContent {
    let circle: MKCircle
    public init(_ circle: MKCircle) { self.circle = circle }
    public init(center: CLLocationCoordinate2D, radius: CLLocationDistance) { circle = MKCircle(center: center, radius: radius) }
    /// The largest circle centred in `mapRect`.
    public init(mapRect: MKMapRect) { circle = MKCircle(mapRect: mapRect) }

    func collect(into scene: inout MapScene, _ environment: MapContentEnvironment) {
        scene.fillAndStroke(MKCircleRenderer(circle: circle), environment)
    }
}
