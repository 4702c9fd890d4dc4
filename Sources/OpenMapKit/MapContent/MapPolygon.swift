import Foundation

/// A polygon (SwiftUI's `MapPolygon`); filled with its foreground style (translucent blue by
/// default) and stroked only when `.stroke` is given.
public struct MapPolygon: MapContent, PrimitiveMapContent {
    let polygon: MKPolygon
    public init(_ polygon: MKPolygon) { self.polygon = polygon }
    public init(coordinates: [CLLocationCoordinate2D]) { polygon = MKPolygon(coordinates: coordinates) }
    public init(points: [MKMapPoint]) { polygon = MKPolygon(points: points) }

    func collect(into scene: inout MapScene, _ environment: MapContentEnvironment) {
        let renderer = MKPolygonRenderer(polygon: polygon)
        scene.fillAndStroke(renderer, environment)
    }
}
