import Foundation
import MapStyle

/// The colour operations of a raster layer, in the order MapLibre's raster shader applies them:
/// `raster-hue-rotate` (a rotation about the grey axis), `raster-saturation`, `raster-contrast`,
/// then `raster-brightness-min`/`-max` mapping 0…1 onto min…max. (`raster-fade-duration` only
/// matters while tiles arrive, never in a still image.)
struct RasterAdjustment: Equatable {
    var hueRotate = 0.0, saturation = 0.0, contrast = 0.0, brightnessMin = 0.0, brightnessMax = 1.0

    init(_ layer: CompiledLayer, zoom: Double) {
        let context = EvaluationContext(zoom: zoom)
        hueRotate = layer.paint["raster-hue-rotate"]?.number(context) ?? 0
        saturation = min(max(layer.paint["raster-saturation"]?.number(context) ?? 0, -1), 1)
        contrast = min(max(layer.paint["raster-contrast"]?.number(context) ?? 0, -1), 1)
        brightnessMin = min(max(layer.paint["raster-brightness-min"]?.number(context) ?? 0, 0), 1)
        brightnessMax = min(max(layer.paint["raster-brightness-max"]?.number(context) ?? 1, 0), 1)
    }

    /// Whether the image is drawn unchanged.
    var isIdentity: Bool {
        hueRotate.truncatingRemainder(dividingBy: 360) == 0 && saturation == 0 && contrast == 0 && brightnessMin == 0 && brightnessMax == 1
    }

    /// One straight colour (0…1 channels) adjusted.
    func apply(_ r: Double, _ g: Double, _ b: Double) -> (Double, Double, Double) {
        var (r, g, b) = (r, g, b)
        if hueRotate != 0 {
            let angle = hueRotate * .pi / 180, s = sin(angle), c = cos(angle)
            let w0 = (2 * c + 1) / 3, w1 = (-(3.0).squareRoot() * s - c + 1) / 3, w2 = ((3.0).squareRoot() * s - c + 1) / 3
            (r, g, b) = (r * w0 + g * w1 + b * w2, r * w2 + g * w0 + b * w1, r * w1 + g * w2 + b * w0)
        }
        if saturation != 0 {
            let factor = saturation > 0 ? 1 - 1 / (1.001 - saturation) : -saturation
            let average = (r + g + b) / 3
            (r, g, b) = (r + (average - r) * factor, g + (average - g) * factor, b + (average - b) * factor)
        }
        if contrast != 0 {
            let factor = contrast > 0 ? 1 / (1 - contrast) : 1 + contrast
            (r, g, b) = ((r - 0.5) * factor + 0.5, (g - 0.5) * factor + 0.5, (b - 0.5) * factor + 0.5)
        }
        func brightness(_ v: Double) -> Double {
            let v = min(max(v, 0), 1)
            return brightnessMin + (brightnessMax - brightnessMin) * v
        }
        return (brightness(r), brightness(g), brightness(b))
    }

    /// The image with every pixel adjusted (alpha kept).
    func apply(to image: RenderImage) -> RenderImage? {
        var rgba = image.rgbaPixels()
        for i in stride(from: 0, to: rgba.count, by: 4) where rgba[i + 3] > 0 {
            let (r, g, b) = apply(Double(rgba[i]) / 255, Double(rgba[i + 1]) / 255, Double(rgba[i + 2]) / 255)
            rgba[i] = UInt8((min(max(r, 0), 1) * 255).rounded())
            rgba[i + 1] = UInt8((min(max(g, 0), 1) * 255).rounded())
            rgba[i + 2] = UInt8((min(max(b, 0), 1) * 255).rounded())
        }
        return RenderImage(width: image.width, height: image.height, rgba: rgba)
    }
}
