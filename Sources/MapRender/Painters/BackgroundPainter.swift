import Foundation
import MapStyle

extension LayerPainter {
    func paintBackground(_ layer: CompiledLayer) {
        let context = EvaluationContext(zoom: zoom)
        guard let color = layer.paint["background-color"]?.color(context) else { return }
        let opacity = layer.paint["background-opacity"]?.number(context) ?? 1
        // A pattern the sprite has replaces the colour; one it lacks draws nothing, as in MapLibre.
        if let name = layer.paint["background-pattern"]?.imageName(context) {
            if let pattern = pattern(named: name) { canvas.paint(pattern, patternPlacement(pattern, anchor: nil), opacity: opacity) }
            return
        }
        canvas.fill(color.withOpacity(opacity))
    }
}
