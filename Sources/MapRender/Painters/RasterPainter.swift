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

extension LayerPainter {
    /// An `image` source drawn by a raster layer: the picture stretched over its four corners as
    /// MapLibre draws it, two triangles (top left, top right, bottom left; top right, bottom
    /// right, bottom left) each mapped affinely, with the layer's opacity, resampling and colour
    /// adjustments.
    func paintImage(_ layer: CompiledLayer, image: RenderImage, corners: [ScreenPoint]) {
        guard corners.count == 4 else { return }
        let context = EvaluationContext(zoom: zoom)
        let opacity = layer.paint["raster-opacity"]?.number(context) ?? 1
        let smooth = layer.paint["raster-resampling"]?.string(context) != "nearest"
        let adjustment = RasterAdjustment(layer, zoom: zoom)
        let picture = adjustment.isIdentity ? image : (adjustment.apply(to: image) ?? image)
        let screen = corners.map { transform.screen(worldX: $0.x, worldY: $0.y) }
        let (tl, tr, br, bl) = (screen[0], screen[1], screen[2], screen[3])
        let w = Double(picture.width), h = Double(picture.height)
        // Triangle 1: (0,0)→tl, (w,0)→tr, (0,h)→bl.
        canvas.draw(picture, triangle: [tl, tr, bl],
                    affine: ((tr.x - tl.x) / w, (tr.y - tl.y) / w, (bl.x - tl.x) / h, (bl.y - tl.y) / h, tl.x, tl.y),
                    opacity: opacity, smooth: smooth)
        // Triangle 2: (w,0)→tr, (w,h)→br, (0,h)→bl: x along br − bl, y along br − tr.
        let a = (br.x - bl.x) / w, b = (br.y - bl.y) / w, c = (br.x - tr.x) / h, d = (br.y - tr.y) / h
        canvas.draw(picture, triangle: [tr, br, bl], affine: (a, b, c, d, tr.x - a * w, tr.y - b * w),
                    opacity: opacity, smooth: smooth)
    }
}
