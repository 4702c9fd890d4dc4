import Foundation

/// What a map's content amounts to: things to draw and the points `.automatic` must frame.
struct MapScene {
    var markers: [MarkerItem] = []
    var annotations: [AnnotationItem] = []
    var overlays: [(renderer: MKOverlayRenderer, level: MKOverlayLevel)] = []
    var showsUserLocation = false
    /// Everything the content covers, for automatic framing.
    var points: [MKMapPoint] = []
    var rects: [MKMapRect] = []

    mutating func addOverlay(_ renderer: MKOverlayRenderer, _ environment: MapContentEnvironment) {
        // SwiftUI maps put overlays above roads by default (MKMapView's default is above labels).
        overlays.append((renderer, environment.level ?? .aboveRoads))
        rects.append(renderer.overlay.boundingMapRect)
    }

    mutating func fillAndStroke(_ renderer: MKOverlayPathRenderer, _ environment: MapContentEnvironment) {
        renderer.fillColor = ((environment.foreground as? Color) ?? Color.blue.opacity(0.3)).uiColor
        if let stroke = environment.stroke as? Color {
            renderer.strokeColor = stroke.uiColor
            apply(environment.strokeStyle ?? StrokeStyle(lineWidth: 1), to: renderer)
        } else if let style = environment.strokeStyle {
            renderer.strokeColor = UIColor.systemBlue
            apply(style, to: renderer)
        }
        addOverlay(renderer, environment)
    }

    func apply(_ style: StrokeStyle, to renderer: MKOverlayPathRenderer) {
        renderer.lineWidth = style.lineWidth
        renderer.lineCap = style.lineCap
        renderer.lineJoin = style.lineJoin
        renderer.miterLimit = style.miterLimit
        renderer.lineDashPattern = style.dash.isEmpty ? nil : style.dash.map { NSNumber(value: Double($0)) }
        renderer.lineDashPhase = style.dashPhase
    }
}
