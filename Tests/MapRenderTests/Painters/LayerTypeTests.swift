import Foundation
import MapGeometry
@testable import MapRender
import MapStyle
import XCTest

/// The layer types and paint properties MapLibre draws beyond plain fills, lines and circles:
/// patterns from the sprite, circle blur, sort keys, line gradients, raster colour adjustments,
/// fill-extrusion roofs, heatmaps, hillshading and colour relief from `raster-dem` tiles. Each
/// test draws a small inline style and reads pixels where the property must show.
final class LayerTypeTests: XCTestCase {
    private let center = CLLocationCoordinate2D(latitude: 0, longitude: 0)

    // MARK: Helpers

    private func rgb(_ p: (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8)) -> [Int] { [Int(p.red), Int(p.green), Int(p.blue)] }
    private func luminance(_ p: (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8)) -> Double {
        0.299 * Double(p.red) + 0.587 * Double(p.green) + 0.114 * Double(p.blue)
    }

    /// PNG bytes of straight RGBA pixels, made with the renderer's own canvas.
    private func png(width: Int, height: Int, rgba: [UInt8]) throws -> [UInt8] { try Self.png(width: width, height: height, rgba: rgba) }

    private static func png(width: Int, height: Int, rgba: [UInt8]) throws -> [UInt8] {
        guard let image = RenderImage(width: width, height: height, rgba: rgba) else { throw RenderError("no image") }
        let canvas = try RenderCanvas(width: Double(width), height: Double(height))
        canvas.drawPixels(image, opacity: 1)
        return try canvas.pngData()
    }

    /// A sprite with one 8 × 4 image "stripe": columns 0–3 red, 4–7 blue.
    private func spriteLoader(tiles: @escaping @Sendable (String, TileID) -> [UInt8]? = { _, _ in nil }) throws -> StyleResourceLoader {
        var rgba: [UInt8] = []
        for _ in 0..<4 { for x in 0..<8 { rgba += x < 4 ? [255, 0, 0, 255] : [0, 0, 255, 255] } }
        let image = try png(width: 8, height: 4, rgba: rgba)
        let index = Array(#"{"stripe": {"x": 0, "y": 0, "width": 8, "height": 4, "pixelRatio": 1}}"#.utf8)
        return StyleResourceLoader(tile: tiles, resource: { url in
            switch url {
            case "sprite.json": index
            case "sprite.png": image
            default: nil
            }
        })
    }

    private func render(_ json: String, loader: StyleResourceLoader, center: CLLocationCoordinate2D? = nil, zoom: Double,
                        width: Double = 64, height: Double = 64) throws -> RenderCanvas {
        try StyleRenderer(style: Style(text: json), loader: loader).render(center: center ?? self.center, zoom: zoom, width: width,
                                                                          height: height)
    }

    /// The colour class of a pixel of the stripe sprite: "r", "b" or "?".
    private func stripe(_ p: (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8)) -> Character {
        if p.red > 200 && p.blue < 60 { return "r" }
        if p.blue > 200 && p.red < 60 { return "b" }
        return "?"
    }

    // MARK: Patterns

    /// fill-pattern repeats the sprite image: at an integer zoom one image pixel is one point, so a
    /// row of the fill goes four red, four blue, with a period of eight pixels.
    func testFillPatternRepeatsWithTheImagesPeriod() throws {
        let style = """
        {"version": 8, "sprite": "sprite", "sources": {"s": {"type": "geojson", "data": {"type": "Polygon",
          "coordinates": [[[-60, -60], [60, -60], [60, 60], [-60, 60], [-60, -60]]]}}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                    {"id": "f", "type": "fill", "source": "s", "paint": {"fill-pattern": "stripe", "fill-antialias": false}}]}
        """
        let canvas = try render(style, loader: spriteLoader(), zoom: 2)
        let row = (8..<56).map { stripe(canvas.pixel(x: $0, y: 30)) }
        XCTAssertFalse(row.contains("?"), "every pixel is one of the image's colours: \(String(row))")
        for i in 0..<(row.count - 8) { XCTAssertEqual(row[i], row[i + 8], "period 8 at \(i + 8)") }
        XCTAssertEqual(row.filter { $0 == "r" }.count, row.count / 2, "half red, half blue")
        XCTAssertEqual(stripe(canvas.pixel(x: 30, y: 10)), stripe(canvas.pixel(x: 30, y: 50)), "the image repeats down the fill")
    }

    /// background-pattern covers the canvas with the image; a name the sprite lacks draws nothing.
    func testBackgroundPatternAndMissingImage() throws {
        let style = #"{"version": 8, "sprite": "sprite", "sources": {}, "layers": [{"id": "bg", "type": "background", "paint": {"background-pattern": "stripe"}}]}"#
        let canvas = try render(style, loader: spriteLoader(), zoom: 3)
        let row = (0..<32).map { stripe(canvas.pixel(x: $0, y: 5)) }
        XCTAssertEqual(row.filter { $0 == "r" }.count, 16)
        XCTAssertEqual(row.filter { $0 == "b" }.count, 16)
        for i in 0..<24 { XCTAssertEqual(row[i], row[i + 8]) }
        let missing = #"{"version": 8, "sprite": "sprite", "sources": {}, "layers": [{"id": "bg", "type": "background", "paint": {"background-pattern": "nothing"}}]}"#
        XCTAssertEqual(try render(missing, loader: spriteLoader(), zoom: 3).pixel(x: 10, y: 10).alpha, 0)
    }

    /// line-pattern runs the image along the line: red and blue alternate every four points.
    func testLinePatternRunsAlongTheLine() throws {
        let style = """
        {"version": 8, "sprite": "sprite", "sources": {"s": {"type": "geojson", "data": {"type": "LineString",
          "coordinates": [[-80, 0], [80, 0]]}}},
         "layers": [{"id": "l", "type": "line", "source": "s", "paint": {"line-pattern": "stripe", "line-width": 4}}]}
        """
        let canvas = try render(style, loader: spriteLoader(), zoom: 1, width: 128, height: 16)
        let row = (20..<108).map { stripe(canvas.pixel(x: $0, y: 8)) }
        // Where the image's pixels straddle the canvas's, resampling blends red and blue.
        XCTAssertLessThanOrEqual(row.filter { $0 == "?" }.count, row.count / 4, String(row))
        XCTAssertEqual(row.filter { $0 == "r" }.count, row.filter { $0 == "b" }.count, accuracy: 2, String(row))
        for i in 0..<(row.count - 8) { XCTAssertEqual(row[i], row[i + 8], "period 8 at \(i + 20)") }
        XCTAssertEqual(canvas.pixel(x: 64, y: 1).alpha, 0, "nothing beyond the line's width")
    }

    // MARK: Circles and order

    /// circle-blur 1 fades a circle from its centre to its edge; without blur the edge is sharp.
    func testCircleBlurFadesToTheEdge() throws {
        func style(_ blur: Double) -> String {
            """
            {"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}},
             "layers": [{"id": "c", "type": "circle", "source": "s", "paint": {"circle-radius": 20, "circle-color": "#000000",
               "circle-blur": \(blur)}}]}
            """
        }
        let blurred = try render(style(1), loader: spriteLoader(), zoom: 1)
        XCTAssertGreaterThan(blurred.pixel(x: 32, y: 32).alpha, 240, "opaque centre")
        let halfway = blurred.pixel(x: 42, y: 32).alpha
        XCTAssertTrue((70...190).contains(halfway), "half the radius out: \(halfway)")
        XCTAssertLessThan(blurred.pixel(x: 50, y: 32).alpha, 20, "near the edge")
        let sharp = try render(style(0), loader: spriteLoader(), zoom: 1)
        XCTAssertEqual(sharp.pixel(x: 42, y: 32).alpha, 255)
        XCTAssertEqual(sharp.pixel(x: 50, y: 32).alpha, 255)
    }

    /// fill-sort-key draws higher keys later: the first feature (key 2) ends up over the second.
    func testFillSortKeyReordersFeatures() throws {
        func style(_ sort: Bool) -> String {
            """
            {"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [
              {"type": "Feature", "properties": {"k": 2, "c": "#ff0000"}, "geometry": {"type": "Polygon", "coordinates": [[[-30, -30], [10, -30], [10, 10], [-30, 10], [-30, -30]]]}},
              {"type": "Feature", "properties": {"k": 1, "c": "#0000ff"}, "geometry": {"type": "Polygon", "coordinates": [[[-10, -10], [30, -10], [30, 30], [-10, 30], [-10, -10]]]}}]}}},
             "layers": [{"id": "f", "type": "fill", "source": "s", \(sort ? #""layout": {"fill-sort-key": ["get", "k"]},"# : "")
               "paint": {"fill-color": ["get", "c"]}}]}
            """
        }
        XCTAssertEqual(rgb(try render(style(true), loader: spriteLoader(), zoom: 1).pixel(x: 32, y: 32)), [255, 0, 0])
        XCTAssertEqual(rgb(try render(style(false), loader: spriteLoader(), zoom: 1).pixel(x: 32, y: 32)), [0, 0, 255])
    }

    /// line-gradient colours a line by its progress: red at the start, blue at the end, purple
    /// half way (GeoJSON with lineMetrics).
    func testLineGradientFollowsProgress() throws {
        let style = """
        {"version": 8, "sources": {"s": {"type": "geojson", "lineMetrics": true, "data": {"type": "LineString",
          "coordinates": [[-80, 0], [80, 0]]}}},
         "layers": [{"id": "l", "type": "line", "source": "s", "paint": {"line-width": 6,
           "line-gradient": ["interpolate", ["linear"], ["line-progress"], 0, "#ff0000", 1, "#0000ff"]}}]}
        """
        let canvas = try render(style, loader: spriteLoader(), zoom: 0, width: 256, height: 16)
        // The line runs from x = 128 - 113.8 to 128 + 113.8.
        let start = canvas.pixel(x: 17, y: 8), middle = canvas.pixel(x: 128, y: 8), end = canvas.pixel(x: 239, y: 8)
        XCTAssertGreaterThan(start.red, 240)
        XCTAssertLessThan(start.blue, 15)
        XCTAssertGreaterThan(end.blue, 240)
        XCTAssertLessThan(end.red, 15)
        XCTAssertTrue((110...145).contains(middle.red) && (110...145).contains(middle.blue), "\(middle)")
        XCTAssertEqual(canvas.pixel(x: 128, y: 1).alpha, 0)
    }

    // MARK: Raster

    /// raster-saturation −1 turns a tile grey, raster-brightness-max halves it, raster-hue-rotate
    /// 120 turns red into green.
    func testRasterColourAdjustments() throws {
        var rgba: [UInt8] = []
        for _ in 0..<(256 * 256) { rgba += [255, 0, 0, 255] }
        let tile = try png(width: 256, height: 256, rgba: rgba)
        let loader = StyleResourceLoader(tile: { _, _ in tile })
        func style(_ paint: String) -> String {
            """
            {"version": 8, "sources": {"r": {"type": "raster", "tiles": ["t/{z}/{x}/{y}.png"], "tileSize": 256}},
             "layers": [{"id": "r", "type": "raster", "source": "r", "paint": {\(paint)}}]}
            """
        }
        XCTAssertEqual(rgb(try render(style("\"raster-opacity\": 1"), loader: loader, zoom: 2).pixel(x: 30, y: 30)), [255, 0, 0])
        let grey = try render(style("\"raster-saturation\": -1"), loader: loader, zoom: 2).pixel(x: 30, y: 30)
        XCTAssertEqual(Int(grey.red), Int(grey.green), accuracy: 1)
        XCTAssertEqual(Int(grey.red), 85, accuracy: 2, "the average of (255, 0, 0)")
        let dim = try render(style("\"raster-brightness-max\": 0.5"), loader: loader, zoom: 2).pixel(x: 30, y: 30)
        XCTAssertEqual(rgb(dim)[0], 128, accuracy: 2)
        let green = try render(style("\"raster-hue-rotate\": 120"), loader: loader, zoom: 2).pixel(x: 30, y: 30)
        XCTAssertGreaterThan(green.green, 240)
        XCTAssertLessThan(green.red, 15)
    }

    // MARK: Fill extrusion

    /// From straight above only roofs show: the taller building covers the shorter one although it
    /// comes first, a light-coloured roof keeps its colour under the default light, and the layer's
    /// opacity is applied once, so the overlap is no darker than the rest of the tall roof.
    func testFillExtrusionRoofs() throws {
        let style = """
        {"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [
          {"type": "Feature", "properties": {"h": 30, "c": "#ff0000"}, "geometry": {"type": "Polygon", "coordinates": [[[-30, -30], [10, -30], [10, 10], [-30, 10], [-30, -30]]]}},
          {"type": "Feature", "properties": {"h": 10, "c": "#0000ff"}, "geometry": {"type": "Polygon", "coordinates": [[[-10, -10], [30, -10], [30, 30], [-10, 30], [-10, -10]]]}}]}}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                    {"id": "x", "type": "fill-extrusion", "source": "s", "paint": {"fill-extrusion-color": ["get", "c"],
                     "fill-extrusion-height": ["get", "h"], "fill-extrusion-opacity": 0.5}}]}
        """
        let canvas = try render(style, loader: spriteLoader(), zoom: 1)
        // At zoom 1 a degree is 2.8 points: red spans x < 60, y > 4; blue x > 4, y < 60.
        let overlap = canvas.pixel(x: 32, y: 32), tallOnly = canvas.pixel(x: 2, y: 50), shortOnly = canvas.pixel(x: 62, y: 10)
        XCTAssertEqual(rgb(overlap), rgb(tallOnly), "the tall red roof covers the overlap, blended once")
        XCTAssertEqual(Int(tallOnly.red), 255)
        XCTAssertEqual(Int(tallOnly.green), 128, accuracy: 1, "red at half opacity over white")
        XCTAssertGreaterThan(shortOnly.blue, 200)
        XCTAssertLessThan(shortOnly.red, 160)
        // A mid grey roof is lit to 0.5 · (0.5 + 0.5 · 0.996): just under its own colour.
        let lit = ExtrusionLight().roof(RenderColor(red: 0.5, green: 0.5, blue: 0.5))
        XCTAssertEqual(lit.red, 0.499, accuracy: 0.002)
    }

    // MARK: Heatmap

    /// A point whose kernel peaks above density 1 takes the ramp's top colour at its centre; the
    /// density falls with distance, through the ramp's middle to nothing.
    func testHeatmapCentreTakesTheTopColour() throws {
        let style = """
        {"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}},
         "layers": [{"id": "h", "type": "heatmap", "source": "s", "paint": {"heatmap-radius": 20, "heatmap-intensity": 3,
           "heatmap-color": ["interpolate", ["linear"], ["heatmap-density"], 0, "rgba(0, 0, 255, 0)", 0.5, "#00ff00", 1, "#ff0000"]}}]}
        """
        let canvas = try render(style, loader: spriteLoader(), zoom: 1)
        let centre = canvas.pixel(x: 32, y: 32)
        XCTAssertEqual(rgb(centre), [255, 0, 0])
        XCTAssertEqual(centre.alpha, 255)
        // 3/√(2π) · exp(−4.5 · (8.5/20)²) ≈ 0.53: close to the green middle of the ramp.
        let ring = canvas.pixel(x: 40, y: 32)
        XCTAssertGreaterThan(ring.green, 180, "\(ring)")
        XCTAssertEqual(canvas.pixel(x: 63, y: 63).alpha, 0, "beyond the kernel")
        // Two points' kernels add up.
        let twoPoints = style.replacingOccurrences(of: #""data": {"type": "Point", "coordinates": [0, 0]}"#,
                                                   with: #""data": {"type": "MultiPoint", "coordinates": [[-2, 0], [2, 0]]}"#)
        // 12 points below: one kernel gives 1.2 · e^(−4.5 · 0.36) ≈ 0.24, two 5.7 points to either side ≈ 0.33.
        let double = try render(twoPoints, loader: spriteLoader(), zoom: 1).pixel(x: 32, y: 44)
        let single = canvas.pixel(x: 32, y: 44)
        XCTAssertGreaterThan(Int(double.alpha), Int(single.alpha))
    }

    /// A canvas of more than 4 million pixels sums the density on a coarser grid: the kernel
    /// still peaks in the ramp's top colour at the point and fades to nothing around it.
    func testHeatmapOnALargeCanvas() throws {
        let style = """
        {"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}},
         "layers": [{"id": "h", "type": "heatmap", "source": "s", "paint": {"heatmap-radius": 40, "heatmap-intensity": 3,
           "heatmap-color": ["interpolate", ["linear"], ["heatmap-density"], 0, "rgba(0, 0, 255, 0)", 0.5, "#00ff00", 1, "#ff0000"]}}]}
        """
        let canvas = try render(style, loader: spriteLoader(), zoom: 3, width: 2100, height: 2000)
        XCTAssertEqual(rgb(canvas.pixel(x: 1050, y: 1000)), [255, 0, 0])
        // 17 points out: 1.2 · e^(−4.5 · (17/40)²) ≈ 0.53, the green middle of the ramp.
        XCTAssertGreaterThan(canvas.pixel(x: 1067, y: 1000).green, 150)
        XCTAssertEqual(canvas.pixel(x: 1050, y: 1100).alpha, 0)
    }

    // MARK: Raster DEM

    /// A 256-pixel DEM tile with a Gaussian hill (500 m high, σ 30 pixels) in its middle,
    /// encoded as Mapbox Terrain-RGB or Terrarium.
    private func hillTile(terrarium: Bool) throws -> [UInt8] {
        var rgba: [UInt8] = []
        rgba.reserveCapacity(256 * 256 * 4)
        for y in 0..<256 {
            for x in 0..<256 {
                let r2 = Double((x - 128) * (x - 128) + (y - 128) * (y - 128))
                let height = 200 + 500 * exp(-r2 / (2 * 30 * 30))
                if terrarium {
                    let v = height + 32768
                    rgba += [UInt8(Int(v) / 256), UInt8(Int(v) % 256), UInt8(Int((v - v.rounded(.down)) * 256)), 255]
                } else {
                    let v = Int(((height + 10000) * 10).rounded())
                    rgba += [UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255), 255]
                }
            }
        }
        return try png(width: 256, height: 256, rgba: rgba)
    }

    /// The centre of tile (2048, 2048) at zoom 12, where the view shows one DEM tile 1 : 2.
    private let demCenter: CLLocationCoordinate2D = {
        let n = 4096.0, wx = 2048.5 / n, wy = 2048.5 / n
        return CLLocationCoordinate2D(latitude: atan(sinh(Double.pi * (1 - 2 * wy))) * 180 / .pi, longitude: wx * 360 - 180)
    }()

    private func demStyle(encoding: String, layer: String) -> String {
        """
        {"version": 8, "sources": {"dem": {"type": "raster-dem", "tiles": ["dem/{z}/{x}/{y}.png"], "tileSize": 512,
           "minzoom": 12, "maxzoom": 12, "encoding": "\(encoding)"}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#808080"}}, \(layer)]}
        """
    }

    /// Hillshade with the default light from the north-west (335°): the hill's north-west flank
    /// is lighter than its south-east flank, flat ground keeps the background, and the same hill
    /// in Terrarium encoding shades the same way. Light from the south-east (155°) swaps them.
    func testHillshadeLightsTheSunnySide() throws {
        for encoding in ["mapbox", "terrarium"] {
            let tile = try hillTile(terrarium: encoding == "terrarium")
            let loader = StyleResourceLoader(tile: { _, _ in tile })
            let lightNW = try render(demStyle(encoding: encoding, layer: #"{"id": "h", "type": "hillshade", "source": "dem"}"#),
                                     loader: loader, center: demCenter, zoom: 12, width: 512, height: 512)
            // DEM pixel (128 ± 25) is screen 256 ± 50.
            let northWest = luminance(lightNW.pixel(x: 206, y: 206)), southEast = luminance(lightNW.pixel(x: 306, y: 306))
            XCTAssertGreaterThan(northWest, 128 + 8, "\(encoding): lit flank")
            XCTAssertLessThan(southEast, 128 - 8, "\(encoding): shaded flank")
            XCTAssertGreaterThan(northWest - southEast, 30, encoding)
            XCTAssertEqual(luminance(lightNW.pixel(x: 8, y: 8)), 128, accuracy: 2, "\(encoding): flat ground")
            let lightSE = try render(demStyle(encoding: encoding, layer: """
                {"id": "h", "type": "hillshade", "source": "dem", "paint": {"hillshade-illumination-direction": 155}}
                """), loader: loader, center: demCenter, zoom: 12, width: 512, height: 512)
            XCTAssertLessThan(luminance(lightSE.pixel(x: 206, y: 206)), 128 - 8, "\(encoding): now in shadow")
            XCTAssertGreaterThan(luminance(lightSE.pixel(x: 306, y: 306)), 128 + 8, "\(encoding): now lit")
        }
    }

    /// A slope rising steadily eastward across several DEM tiles, lit from the west, shades evenly: at the edge
    /// between two tiles the gradient reads the neighbour's pixels, so no seam shows.
    func testHillshadeContinuesAcrossTileEdges() throws {
        let loader = StyleResourceLoader(tile: { _, id in
            var rgba: [UInt8] = []
            for _ in 0..<256 {
                for x in 0..<256 {
                    // 10 m per DEM pixel, counted from a little west of the view.
                    let height = 10 * Double((id.x - 2046) * 256 + x)
                    let v = Int(((height + 10000) * 10).rounded())
                    rgba += [UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255), 255]
                }
            }
            return try? Self.png(width: 256, height: 256, rgba: rgba)
        })
        // The view's centre is the corner of tiles 2048 and 2049: their edge is column 256.
        let n = 4096.0, wx = 2049 / n, wy = 2048.5 / n
        let corner = CLLocationCoordinate2D(latitude: atan(sinh(Double.pi * (1 - 2 * wy))) * 180 / .pi, longitude: wx * 360 - 180)
        let layer = #"{"id": "h", "type": "hillshade", "source": "dem", "paint": {"hillshade-illumination-direction": 270}}"#
        let canvas = try render(demStyle(encoding: "mapbox", layer: layer), loader: loader, center: corner, zoom: 12, width: 512, height: 512)
        let inside = luminance(canvas.pixel(x: 240, y: 256))
        XCTAssertGreaterThan(abs(inside - 128), 10, "the slope is shaded")
        for x in [250, 254, 255, 256, 257, 262] {
            XCTAssertEqual(luminance(canvas.pixel(x: x, y: 256)), inside, accuracy: 2, "column \(x)")
        }
    }

    /// color-relief colours elevation: the hill's top (700 m) red, the plain (200 m) blue.
    func testColorReliefFollowsElevation() throws {
        let tile = try hillTile(terrarium: false)
        let loader = StyleResourceLoader(tile: { _, _ in tile })
        let layer = """
        {"id": "c", "type": "color-relief", "source": "dem", "paint": {"color-relief-color":
          ["interpolate", ["linear"], ["elevation"], 200, "#0000ff", 700, "#ff0000"]}}
        """
        let canvas = try render(demStyle(encoding: "mapbox", layer: layer), loader: loader, center: demCenter, zoom: 12,
                                width: 512, height: 512)
        let top = canvas.pixel(x: 256, y: 256), plain = canvas.pixel(x: 8, y: 8)
        XCTAssertGreaterThan(top.red, 240)
        XCTAssertLessThan(top.blue, 20)
        XCTAssertGreaterThan(plain.blue, 240)
        XCTAssertLessThan(plain.red, 20)
    }

    /// DEM encodings decode as documented.
    func testDEMEncodings() throws {
        let mapbox = DEMEncoding.mapbox, terrarium = DEMEncoding.terrarium
        // 1000 m: Mapbox (1000 + 10000) · 10 = 110000 = 0x01ADB0; Terrarium 33768 = 0x83E8.
        XCTAssertEqual(1 * mapbox.red + 0xAD * mapbox.green + 0xB0 * mapbox.blue + mapbox.base, 1000, accuracy: 1e-6)
        XCTAssertEqual(0x83 * terrarium.red + 0xE8 * terrarium.green + 0 * terrarium.blue + terrarium.base, 1000, accuracy: 1e-6)
    }
}
