import Foundation
import MapStyle

extension LayerPainter {
    /// Raster tiles at `raster-opacity`, turned with the map; `raster-resampling` "nearest" keeps
    /// pixels square, the default resamples linearly.
    func paintRaster(_ layer: CompiledLayer, tiles: [(image: RenderImage, origin: ScreenPoint, size: Double)]) {
        let context = EvaluationContext(zoom: zoom)
        let opacity = layer.paint["raster-opacity"]?.number(context) ?? 1
        let smooth = layer.paint["raster-resampling"]?.string(context) != "nearest"
        let angle = atan2(-transform.sinBearing, transform.cosBearing)
        let adjustment = RasterAdjustment(layer, zoom: zoom)
        for tile in tiles {
            let corner = transform.screen(worldX: tile.origin.x, worldY: tile.origin.y)
            let image = adjustment.isIdentity ? tile.image : (adjustment.apply(to: tile.image) ?? tile.image)
            canvas.draw(image, x: corner.x, y: corner.y, size: tile.size * transform.worldSize, angle: angle,
                        opacity: opacity, smooth: smooth)
        }
    }
}
