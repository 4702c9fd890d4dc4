import Foundation
import MapStyle

/// How a `raster-dem` source packs elevations into a PNG's red, green and blue bytes:
/// `elevation = r·red + g·green + b·blue + base` in metres.
struct DEMEncoding: Equatable {
    var red: Double, green: Double, blue: Double, base: Double

    /// Mapbox Terrain-RGB: tenths of a metre above −10 000 m.
    static let mapbox = DEMEncoding(red: 6553.6, green: 25.6, blue: 0.1, base: -10000)
    /// Terrarium: metres above −32 768 m, the blue byte a fraction of a metre.
    static let terrarium = DEMEncoding(red: 256, green: 1, blue: 1.0 / 256, base: -32768)

    init(red: Double, green: Double, blue: Double, base: Double) {
        (self.red, self.green, self.blue, self.base) = (red, green, blue, base)
    }

    /// The source's `encoding` ("mapbox", the default, "terrarium" or "custom" with
    /// `redFactor`, `greenFactor`, `blueFactor` and `baseShift`).
    init(_ source: StyleSource?) {
        let properties = source?.properties
        switch properties?["encoding"]?.stringValue {
        case "terrarium": self = .terrarium
        case "custom":
            func number(_ key: String, _ fallback: Double) -> Double {
                guard let value = properties?[key]?.numberValue, value.isFinite else { return fallback }
                return value
            }
            self.init(red: number("redFactor", 1), green: number("greenFactor", 1), blue: number("blueFactor", 1),
                      base: number("baseShift", 0))
        default: self = .mapbox
        }
    }

    /// The elevations of a decoded tile, row by row.
    func elevations(_ image: RenderImage) -> [Double] {
        let rgba = image.rgbaPixels()
        var result = [Double](repeating: 0, count: image.width * image.height)
        for i in 0..<result.count {
            result[i] = Double(rgba[i * 4]) * red + Double(rgba[i * 4 + 1]) * green + Double(rgba[i * 4 + 2]) * blue + base
        }
        return result
    }
}

extension LayerPainter {
    /// `hillshade` and `color-relief` from a `raster-dem` source. Each tile's elevations are
    /// turned into an image of the tile's own resolution, which is then drawn like a raster tile
    /// (resampled linearly, turned with the map). The slope at a tile's edge reads the next row or
    /// column from the neighbouring tile when it is in view (as MapLibre backfills DEM borders), so
    /// the shading continues across tile seams; at the view's edge the tile's own edge is repeated.
    func paintDEM(_ layer: CompiledLayer, tiles: [(image: RenderImage, origin: ScreenPoint, size: Double)], encoding: DEMEncoding) {
        let context = EvaluationContext(zoom: zoom)
        let angle = atan2(-transform.sinBearing, transform.cosBearing)
        var opacity = 1.0
        if layer.layer.type == .colorRelief { opacity = layer.paint["color-relief-opacity"]?.number(context) ?? 1 }
        let decoded = tiles.map { encoding.elevations($0.image) }
        struct Key: Hashable { let x: Int, y: Int }
        func key(_ tile: (image: RenderImage, origin: ScreenPoint, size: Double), dx: Int = 0, dy: Int = 0) -> Key {
            Key(x: Int((tile.origin.x / tile.size).rounded()) + dx, y: Int((tile.origin.y / tile.size).rounded()) + dy)
        }
        var index: [Key: Int] = [:]
        for (i, tile) in tiles.enumerated() { index[key(tile)] = i }
        for (i, tile) in tiles.enumerated() {
            let elevations = decoded[i]
            let rgba: [UInt8]
            if layer.layer.type == .hillshade {
                let width = tile.image.width, height = tile.image.height
                // The tile's elevations with a one-pixel border from its neighbours.
                func neighbour(_ dx: Int, _ dy: Int) -> [Double]? {
                    guard let j = index[key(tile, dx: dx, dy: dy)], tiles[j].image.width == width, tiles[j].image.height == height else { return nil }
                    return decoded[j]
                }
                var padded = [Double](repeating: 0, count: (width + 2) * (height + 2))
                for py in 0..<(height + 2) {
                    for px in 0..<(width + 2) {
                        let x = px - 1, y = py - 1
                        let dx = x < 0 ? -1 : x >= width ? 1 : 0, dy = y < 0 ? -1 : y >= height ? 1 : 0
                        var value: Double
                        if dx == 0 && dy == 0 {
                            value = elevations[y * width + x]
                        } else if let other = neighbour(dx, dy) {
                            value = other[(y - dy * height) * width + (x - dx * width)]
                        } else {
                            value = elevations[min(max(y, 0), height - 1) * width + min(max(x, 0), width - 1)]
                        }
                        padded[py * (width + 2) + px] = value
                    }
                }
                rgba = hillshade(layer, padded: padded, width: width, height: height, origin: tile.origin, size: tile.size)
            } else {
                rgba = colorRelief(layer, elevations: elevations)
            }
            guard let image = RenderImage(width: tile.image.width, height: tile.image.height, rgba: rgba) else { continue }
            let corner = transform.screen(worldX: tile.origin.x, worldY: tile.origin.y)
            canvas.draw(image, x: corner.x, y: corner.y, size: tile.size * transform.worldSize, angle: angle, opacity: opacity)
        }
    }

    /// MapLibre's hillshade: a Sobel gradient of the elevations (scaled for the tile's ground
    /// resolution and damped by 2^0.3–2^0.4 by zoom, clamped to ±1), its slope exaggerated by
    /// `hillshade-exaggeration`, its aspect compared with `hillshade-illumination-direction`
    /// (turned with the map when the anchor is "viewport"), shading between the shadow and
    /// highlight colours over the accent colour on steep ground.
    private func hillshade(_ layer: CompiledLayer, padded: [Double], width: Int, height: Int, origin: ScreenPoint, size: Double) -> [UInt8] {
        let context = EvaluationContext(zoom: zoom)
        let exaggeration = min(max(layer.paint["hillshade-exaggeration"]?.number(context) ?? 0.5, 0), 1)
        // Newer styles may give several lights (`hillshade-method: multidirectional`); this draws
        // the standard method with the first direction and colours.
        var azimuth = (layer.paint["hillshade-illumination-direction"]?.numbers(context).first ?? 335) * .pi / 180
        if layer.paint["hillshade-illumination-anchor"]?.string(context) != "map" {
            azimuth += atan2(transform.sinBearing, transform.cosBearing)
        }
        func premultiplied(_ name: String, _ fallback: RenderColor) -> (Double, Double, Double, Double) {
            let c = layer.paint[name]?.colors(context).first ?? fallback
            return (c.red * c.alpha, c.green * c.alpha, c.blue * c.alpha, c.alpha)
        }
        let shadow = premultiplied("hillshade-shadow-color", .black)
        let highlight = premultiplied("hillshade-highlight-color", .white)
        let accent = premultiplied("hillshade-accent-color", .black)
        let tileZoom = -log2(size)
        let damping = exp2(tileZoom < 2 ? 0.4 : tileZoom < 4.5 ? 0.35 : 0.3)
        // Metres per DEM pixel at the equator; the latitude enters through `scale` below.
        let spacing = 40_075_016.686 * size / Double(width)
        let base = 1.875 - exaggeration * 1.75
        let maxSlope = 0.5 * Double.pi
        let strength = min(max(exaggeration * 2, 0), 1)
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            let worldY = origin.y + (Double(y) + 0.5) / Double(height) * size
            let latitude = atan(sinh(Double.pi * (1 - 2 * worldY)))
            let scale = max(cos(latitude), 1e-6)
            for x in 0..<width {
                func e(_ dx: Int, _ dy: Int) -> Double { padded[(y + 1 + dy) * (width + 2) + x + 1 + dx] }
                let a = e(-1, -1), b = e(0, -1), c = e(1, -1), d = e(-1, 0), f = e(1, 0), g = e(-1, 1), h = e(0, 1), i = e(1, 1)
                let dzdx = min(max(((c + 2 * f + i) - (a + 2 * d + g)) / (8 * spacing) / damping, -1), 1)
                let dzdy = min(max(((g + 2 * h + i) - (a + 2 * b + c)) / (8 * spacing) / damping, -1), 1)
                let slope = atan(1.25 * (dzdx * dzdx + dzdy * dzdy).squareRoot() / scale)
                let aspect = dzdx != 0 ? atan2(dzdy, -dzdx) : Double.pi / 2 * (dzdy > 0 ? 1 : -1)
                let scaledSlope = exaggeration != 0.5 ? (pow(base, slope) - 1) / (pow(base, maxSlope) - 1) * maxSlope : slope
                let accentAmount = (1 - cos(scaledSlope)) * strength
                var turn = ((aspect + azimuth + Double.pi) / Double.pi + 0.5).truncatingRemainder(dividingBy: 2)
                if turn < 0 { turn += 2 }
                let shade = abs(turn - 1)
                let shading = sin(scaledSlope) * strength
                let s0 = (shadow.0 + (highlight.0 - shadow.0) * shade) * shading
                let s1 = (shadow.1 + (highlight.1 - shadow.1) * shade) * shading
                let s2 = (shadow.2 + (highlight.2 - shadow.2) * shade) * shading
                let s3 = (shadow.3 + (highlight.3 - shadow.3) * shade) * shading
                let alpha = accent.3 * accentAmount * (1 - s3) + s3
                let k = (y * width + x) * 4
                guard alpha > 0 else { continue }
                func straight(_ accentChannel: Double, _ shadeChannel: Double) -> UInt8 {
                    UInt8((min(max((accentChannel * accentAmount * (1 - s3) + shadeChannel) / alpha, 0), 1) * 255).rounded())
                }
                rgba[k] = straight(accent.0, s0)
                rgba[k + 1] = straight(accent.1, s1)
                rgba[k + 2] = straight(accent.2, s2)
                rgba[k + 3] = UInt8((min(alpha, 1) * 255).rounded())
            }
        }
        return rgba
    }

    /// `color-relief`: `color-relief-color` read with `["elevation"]`, sampled in 1024 steps over
    /// the tile's range of elevations.
    private func colorRelief(_ layer: CompiledLayer, elevations: [Double]) -> [UInt8] {
        guard let low = elevations.min(), let high = elevations.max(), let property = layer.paint["color-relief-color"] else {
            return [UInt8](repeating: 0, count: elevations.count * 4)
        }
        let steps = high > low ? 1024 : 1
        var ramp: [RenderColor] = []
        for step in 0..<steps {
            var context = EvaluationContext(zoom: zoom)
            context.elevation = low + (high - low) * Double(step) / Double(max(steps - 1, 1))
            ramp.append(property.color(context) ?? RenderColor(red: 0, green: 0, blue: 0, alpha: 0))
        }
        var rgba = [UInt8](repeating: 0, count: elevations.count * 4)
        for (i, elevation) in elevations.enumerated() {
            let index = steps > 1 ? Int(((elevation - low) / (high - low) * Double(steps - 1)).rounded()) : 0
            let c = ramp[min(max(index, 0), steps - 1)]
            rgba[i * 4] = UInt8((min(max(c.red, 0), 1) * 255).rounded())
            rgba[i * 4 + 1] = UInt8((min(max(c.green, 0), 1) * 255).rounded())
            rgba[i * 4 + 2] = UInt8((min(max(c.blue, 0), 1) * 255).rounded())
            rgba[i * 4 + 3] = UInt8((min(max(c.alpha, 0), 1) * 255).rounded())
        }
        return rgba
    }
}
