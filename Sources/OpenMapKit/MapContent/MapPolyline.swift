import Foundation

/// A polyline (SwiftUI's `MapPolyline`); stroked blue, 3 points wide, unless `.stroke` says otherwise.
public struct MapPolyline: MapContent, PrimitiveMapContent {
    /// How segments follow the Earth: straight on the map, or along great circles.
    public struct ContourStyle: Hashable, Sendable {
        let geodesic: Bool
        public static let straight = ContourStyle(geodesic: false)
        public static let geodesic = ContourStyle(geodesic: true)
    }

    let polyline: MKPolyline

    public init(_ polyline: MKPolyline) { self.polyline = polyline }

    /// A route's path (the WWDC23 trip planner's `MapPolyline(route)`).
    public init(_ route: MKRoute) { polyline = route.polyline }

    public init(coordinates: [CLLocationCoordinate2D], contourStyle: ContourStyle = .straight) {
        polyline = contourStyle.geodesic ? MKGeodesicPolyline(coordinates: coordinates) : MKPolyline(coordinates: coordinates)
    }

    public init(points: [MKMapPoint], contourStyle: ContourStyle = .straight) {
        polyline = contourStyle.geodesic ? MKGeodesicPolyline(points: points) : MKPolyline(points: points)
    }

    func collect(into scene: inout MapScene, _ environment: MapContentEnvironment) {
        let renderer: MKPolylineRenderer
        if let gradient = environment.stroke as? Gradient {
            let gradientRenderer = MKGradientPolylineRenderer(polyline: polyline)
            gradientRenderer.setColors(gradient.stops.map { $0.color.uiColor }, locations: gradient.stops.map(\.location))
            renderer = gradientRenderer
        } else {
            renderer = MKPolylineRenderer(polyline: polyline)
            renderer.strokeColor = ((environment.stroke as? Color) ?? (environment.foreground as? Color) ?? .blue).uiColor
        }
        scene.apply(environment.strokeStyle ?? StrokeStyle(lineWidth: 3, lineCap: .round, lineJoin: .round), to: renderer)
        scene.addOverlay(renderer, environment)
    }
}
