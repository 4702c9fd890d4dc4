import Foundation
import MapFormats
import MapGeometry
import MapStyle

/// Where a renderer gets the bytes a style refers to.
public struct StyleResourceLoader: Sendable {
    /// The raw bytes (possibly gzipped) of a vector tile of a source; nil when there is none.
    public var tile: @Sendable (_ sourceID: String, _ tile: TileID) -> [UInt8]?
    /// The bytes behind a URL a style names (a GeoJSON source's `data` string).
    public var resource: @Sendable (_ url: String) -> [UInt8]?

    public init(tile: @escaping @Sendable (_ sourceID: String, _ tile: TileID) -> [UInt8]?,
                resource: @escaping @Sendable (_ url: String) -> [UInt8]? = { _ in nil }) {
        self.tile = tile
        self.resource = resource
    }

    /// Reads files: relative tile templates and data paths are resolved against `directory` (the
    /// folder that holds the style), `{z}`, `{x}` and `{y}` filled in from the tile.
    public static func files(relativeTo directory: String, style: Style) -> StyleResourceLoader {
        let base = URL(fileURLWithPath: directory, isDirectory: true)
        @Sendable func read(_ path: String) -> [UInt8]? {
            let url = path.hasPrefix("file://") ? URL(string: path) : URL(fileURLWithPath: path, relativeTo: base)
            guard let url, let data = try? Data(contentsOf: url) else { return nil }
            return [UInt8](data)
        }
        var templates: [String: [String]] = [:]
        for (id, source) in style.sources { templates[id] = source.tiles }
        let fixedTemplates = templates
        return StyleResourceLoader(tile: { sourceID, tile in
            for template in fixedTemplates[sourceID] ?? [] {
                let path = template.replacingOccurrences(of: "{z}", with: String(tile.z))
                    .replacingOccurrences(of: "{x}", with: String(tile.x)).replacingOccurrences(of: "{y}", with: String(tile.y))
                if let bytes = read(path) { return bytes }
            }
            return nil
        }, resource: read)
    }
}

/// Draws a MapLibre style (v8) for a camera with Cairo.
///
/// Supported layer types: `background`, `fill`, `line` and `circle`, from vector tile and GeoJSON
/// sources, with filters, zoom ranges, visibility and data-driven paint; `raster` from PNG tiles
/// (opacity and resampling only). Not drawn yet (skipped without error): `symbol` (text placement
/// and collision are a project of their own), `hillshade`, `color-relief`, `fill-extrusion` and `heatmap`. Not supported within the drawn
/// types: `circle-blur`, patterns, `*-sort-key` and pitch.
///
/// Every property and filter is compiled once, in `init`, so a style mistake is reported before
/// anything is drawn and each frame only evaluates small typed expression trees.
///
/// Geometry follows MapLibre's still-mode images: vector tiles are 512 points, chosen at the
/// floored zoom (overzoomed above the source's maxzoom) and clipped to their squares; GeoJSON is
/// drawn whole, without MapLibre's internal tiling and simplification, and is not repeated
/// across the antimeridian. Not thread-safe: it caches decoded tiles between renders.
public final class StyleRenderer {
    public let style: Style
    private let loader: StyleResourceLoader
    private let layers: [CompiledLayer]
    private var geoJSON: [String: GeoJSONFeatures] = [:]
    private var tileCache: [TileKey: VectorTile?] = [:]
    private var imageCache: [TileKey: RenderImage?] = [:]
    /// The source layers drawn layers read, by source.
    private let neededSourceLayers: [String: Set<String>]

    private struct TileKey: Hashable { let source: String; let tile: TileID }

    /// Compiles the style. Throws when a filter or a property of a drawn layer type is not a valid
    /// expression for that property, or a GeoJSON source's data cannot be read.
    public init(style: Style, loader: StyleResourceLoader) throws(RenderError) {
        self.style = style
        self.loader = loader
        var compiled: [CompiledLayer] = []
        for layer in style.layers { compiled.append(try CompiledLayer(layer)) }
        layers = compiled
        var needed: [String: Set<String>] = [:]
        for layer in compiled where CompiledLayer.paintNames[layer.layer.type] != nil {
            if let source = layer.layer.source, let sourceLayer = layer.layer.sourceLayer { needed[source, default: []].insert(sourceLayer) }
        }
        neededSourceLayers = needed
        for (id, source) in style.sources where source.type == .geojson {
            guard let data = source.data else { continue }
            if let url = data.stringValue {
                guard let bytes = loader.resource(url) else { throw RenderError("source \(id): cannot read \(url)") }
                do {
                    geoJSON[id] = GeoJSONFeatures(try JSONValue.parse(bytes))
                } catch {
                    throw RenderError("source \(id): \(url): \(error)")
                }
            } else {
                geoJSON[id] = GeoJSONFeatures(data)
            }
        }
    }

    /// Draws the style for a camera on a new canvas of `width × height` points at `pixelRatio`
    /// device pixels per point. Lengths in the style are points, so they scale with the ratio.
    public func render(center: CLLocationCoordinate2D, zoom: Double, bearing: Double = 0,
                       width: Double, height: Double, pixelRatio: Double = 1) throws(RenderError) -> RenderCanvas {
        let canvas = try RenderCanvas(width: width, height: height, scale: pixelRatio)
        let transform = ScreenTransform(center: center, zoom: zoom, bearing: bearing, width: width, height: height)
        var groups: [String: [FeatureGroup]] = [:]
        let painter = LayerPainter(canvas: canvas, transform: transform, zoom: zoom, pixelRatio: pixelRatio)
        for layer in layers where layer.isDrawn(atZoom: zoom) {
            if layer.layer.type == .background {
                painter.paintBackground(layer)
                continue
            }
            guard let sourceID = layer.layer.source else { continue }
            if layer.layer.type == .raster {
                painter.paintRaster(layer, tiles: rasterTiles(sourceID: sourceID, zoom: zoom, transform: transform))
                continue
            }
            if groups[sourceID] == nil { groups[sourceID] = featureGroups(sourceID: sourceID, zoom: zoom, transform: transform) }
            painter.paint(layer, groups: groups[sourceID] ?? [])
        }
        return canvas
    }

    /// The source's features for this camera: the vector tiles covering the view, or the GeoJSON.
    private func featureGroups(sourceID: String, zoom: Double, transform: ScreenTransform) -> [FeatureGroup] {
        if let features = geoJSON[sourceID] { return [features.group(transform: transform)] }
        guard let source = style.source(sourceID), source.type == .vector else { return [] }
        // Tiles of 512 points: the tile zoom is the camera's, floored, within what the source has
        // (above its maxzoom the deepest tiles are stretched); below minzoom nothing is drawn.
        guard zoom >= source.minzoom else { return [] }
        let z = Int(min(max(zoom.rounded(.down), source.minzoom), source.maxzoom))
        let size = 1 / Double(1 << z)
        return Self.coveringTiles(z: z, transform: transform).compactMap { x, y, id in
            vectorTile(sourceID: sourceID, id: id).map {
                VectorTileProjection.group(tile: $0, origin: (Double(x) * size, Double(y) * size), size: size, transform: transform,
                                           needed: neededSourceLayers[sourceID] ?? [])
            }
        }
    }

    /// The tiles of zoom `z` that cover the view: their unwrapped column and row (for placing
    /// them, left or right of the antimeridian) and their address (for loading them).
    private static func coveringTiles(z: Int, transform: ScreenTransform) -> [(x: Int, y: Int, id: TileID)] {
        let n = 1 << z
        let corners = [(0.0, 0.0), (transform.halfWidth * 2, 0), (0, transform.halfHeight * 2),
                       (transform.halfWidth * 2, transform.halfHeight * 2)].map { transform.world(screenX: $0.0, screenY: $0.1) }
        let minX = Int((corners.map(\.x).min()! * Double(n)).rounded(.down))
        let maxX = Int((corners.map(\.x).max()! * Double(n)).rounded(.down))
        let minY = max(0, Int((corners.map(\.y).min()! * Double(n)).rounded(.down)))
        let maxY = min(n - 1, Int((corners.map(\.y).max()! * Double(n)).rounded(.down)))
        guard minY <= maxY, maxX - minX < 64 else { return [] }
        var tiles: [(x: Int, y: Int, id: TileID)] = []
        for y in minY...maxY {
            for x in minX...maxX {
                if let id = TileID(z: z, x: ((x % n) + n) % n, y: y) { tiles.append((x, y, id)) }
            }
        }
        return tiles
    }

    /// The raster tiles covering the view, each with its top-left corner in world coordinates and
    /// its width there. MapLibre picks raster tiles by rounding, not flooring: a 256-point source
    /// uses zoom `round(zoom + 1)`, clamped to the source's range.
    private func rasterTiles(sourceID: String, zoom: Double, transform: ScreenTransform) -> [(image: RenderImage, origin: ScreenPoint, size: Double)] {
        guard let source = style.source(sourceID), source.type == .raster, zoom >= source.minzoom else { return [] }
        let tileSize = source.tileSize ?? 512
        let z = Int(min(max((zoom + log2(512 / tileSize)).rounded(), source.minzoom), source.maxzoom))
        let size = 1 / Double(1 << z)
        return Self.coveringTiles(z: z, transform: transform).compactMap { x, y, id in
            let key = TileKey(source: sourceID, tile: id)
            if imageCache[key] == nil { imageCache[key] = .some(loader.tile(sourceID, id).flatMap { try? RenderImage(png: $0) }) }
            return imageCache[key]!.map { ($0, (Double(x) * size, Double(y) * size), size) }
        }
    }

    /// A decoded tile, kept for later frames; a missing or undecodable tile draws nothing.
    private func vectorTile(sourceID: String, id: TileID) -> VectorTile? {
        let key = TileKey(source: sourceID, tile: id)
        if let cached = tileCache[key] { return cached }
        var tile: VectorTile?
        if var bytes = loader.tile(sourceID, id) {
            if bytes.count >= 2, bytes[0] == 0x1F, bytes[1] == 0x8B,
               let inflated = try? bytes.withUnsafeBytes({ raw throws(CompressionError) in try Compression.inflate(raw) }) {
                bytes = inflated
            }
            tile = try? VectorTile(decoding: bytes)
        }
        tileCache[key] = tile
        return tile
    }
}

/// One style layer with its filter and the properties its type uses compiled.
struct CompiledLayer {
    let layer: StyleLayer
    let filter: CompiledFilter?
    let paint: [String: CompiledProperty]
    let layout: [String: CompiledProperty]

    /// The paint and layout properties each drawn layer type reads.
    static let paintNames: [StyleLayer.Kind: [String]] = [
        .background: ["background-color", "background-opacity"],
        .fill: ["fill-color", "fill-opacity", "fill-outline-color", "fill-antialias", "fill-translate", "fill-translate-anchor"],
        .line: ["line-color", "line-width", "line-opacity", "line-dasharray", "line-gap-width", "line-offset", "line-blur",
                "line-translate", "line-translate-anchor"],
        .raster: ["raster-opacity", "raster-resampling"],
        .circle: ["circle-radius", "circle-color", "circle-opacity", "circle-stroke-width", "circle-stroke-color",
                  "circle-stroke-opacity", "circle-translate", "circle-translate-anchor"],
    ]
    static let layoutNames: [StyleLayer.Kind: [String]] = [
        .line: ["line-cap", "line-join", "line-miter-limit"],
    ]

    init(_ layer: StyleLayer) throws(RenderError) {
        self.layer = layer
        // Layers of types not drawn yet are not compiled, so they cannot fail the style.
        let drawn = Self.paintNames[layer.type] != nil
        if drawn, layer.filter != nil {
            guard let expression = layer.filterExpression else { throw RenderError("layer \(layer.id): the filter does not compile") }
            filter = CompiledFilter(expression: expression)
        } else {
            filter = nil
        }
        let compiler = PropertyCompiler(layer: layer)
        var paint: [String: CompiledProperty] = [:], layout: [String: CompiledProperty] = [:]
        for name in Self.paintNames[layer.type] ?? [] { paint[name] = try compiler.paint(name) }
        for name in Self.layoutNames[layer.type] ?? [] { layout[name] = try compiler.layout(name) }
        self.paint = paint
        self.layout = layout
    }

    /// MapLibre draws a layer when `minzoom <= zoom < maxzoom` and it is not hidden; layer types
    /// this renderer does not draw yet are skipped here.
    func isDrawn(atZoom zoom: Double) -> Bool {
        guard layer.isVisible, Self.paintNames[layer.type] != nil else { return false }
        if let minzoom = layer.minzoom, zoom < minzoom { return false }
        if let maxzoom = layer.maxzoom, zoom >= maxzoom { return false }
        return true
    }

    /// Whether the layer's paint is written for a property (the default is not the same as unset,
    /// for `fill-outline-color`).
    func hasPaint(_ name: String) -> Bool { layer.paint.contains { $0.name == name } }
}
