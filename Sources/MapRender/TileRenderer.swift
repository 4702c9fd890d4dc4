import Foundation
import MapGeometry
import MapStyle

/// Why a raster tile could not be drawn.
public enum TileRenderError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The zoom is outside 0…``TileRenderer/maximumZoom`` or the column or row outside 0..<2^zoom.
    case invalidTile(z: Int, x: Int, y: Int)
    /// Tiles are 256 or 512 points a side.
    case unsupportedTileSize(Int)
    /// The scale must be positive, finite, at most 4, and give whole pixels for the tile.
    case unsupportedScale(Double)
    /// The style renderer failed (an image too large, a style problem found while drawing).
    case render(String)

    public var description: String {
        switch self {
        case let .invalidTile(z, x, y):
            "\(z)/\(x)/\(y) is not a tile: the zoom must be 0…\(TileRenderer.maximumZoom) and the column and row 0 ≤ X, Y < 2^zoom"
        case .unsupportedTileSize(let size): "tile size \(size) is not supported: use 256 or 512"
        case .unsupportedScale(let scale): "scale \(scale) is not supported: use a positive scale up to 4 (1, 2 or 3 usually)"
        case .render(let message): message
        }
    }
}

/// Draws XYZ raster tiles of a style, the way MapLibre's tile servers and `render_tile` do.
///
/// Zoom follows MapLibre: the world is 512 points wide at zoom 0, so a 512-point tile z/x/y shows
/// the camera zoom z and a 256-point tile z/x/y the same area at zoom z − 1 (a 256-point tile
/// at zoom 0 is the whole world at zoom −1, where sources with `minzoom` 0 draw nothing).
///
/// Each tile is drawn on a canvas ``margin`` points larger on every side, centred on the tile, and
/// then cut out. Whatever crosses a tile's edge — wide strokes, circles whose centre lies in the
/// neighbouring vector tile, labels that the renderer places for the larger view (with its
/// ``StyleRenderer/labelMargin`` widened to the margin) — is therefore drawn from the same
/// geometry in both neighbours, and the pixels continue across the seam. Label collisions still
/// depend on what else is near, so a label close to an edge can be kept in one tile and dropped
/// in the next where their neighbourhoods differ.
///
/// Not thread-safe (it draws with one ``StyleRenderer``, which caches decoded tiles): give each
/// thread its own.
public final class TileRenderer {
    /// The deepest zoom a tile may have: beyond it a 512-point tile is less than a millimetre of
    /// ground, and Mercator world coordinates start to lose precision in the crop.
    public static let maximumZoom = 24

    /// The renderer each tile is drawn with; its ``StyleRenderer/warnings`` describe the last tile.
    public let renderer: StyleRenderer
    /// Points drawn beyond each side of the tile and then discarded. Labels and symbols wider
    /// than this can still be cut at a tile edge.
    public var margin: Double

    /// Draws tiles with an existing renderer.
    public init(renderer: StyleRenderer, margin: Double = 128) {
        self.renderer = renderer
        self.margin = max(0, margin.isFinite ? margin : 128)
    }

    /// Compiles the style (see ``StyleRenderer/init(style:loader:)`` for what it checks).
    public convenience init(style: Style, loader: StyleResourceLoader, margin: Double = 128) throws(RenderError) {
        self.init(renderer: try StyleRenderer(style: style, loader: loader), margin: margin)
    }

    /// The camera of a tile: its centre, the MapLibre zoom that shows it at `tileSize` points, and
    /// nothing else (tiles are never rotated).
    public static func camera(z: Int, x: Int, y: Int, tileSize: Int = 256) throws(TileRenderError) -> (center: CLLocationCoordinate2D, zoom: Double) {
        guard (0...maximumZoom).contains(z), x >= 0, y >= 0, x < 1 << z, y < 1 << z else {
            throw .invalidTile(z: z, x: x, y: y)
        }
        guard tileSize == 256 || tileSize == 512 else { throw .unsupportedTileSize(tileSize) }
        let n = Double(1 << z)
        let center = MKMapPoint(x: (Double(x) + 0.5) / n * MKMapSize.worldWidth,
                                y: (Double(y) + 0.5) / n * MKMapSize.worldWidth).coordinate
        return (center, Double(z) + log2(Double(tileSize) / MapViewport.worldPointsAtZoomZero))
    }

    /// Draws tile z/x/y (XYZ rows, from the north) `tileSize` points a side at `scale` device
    /// pixels per point: a canvas of `tileSize × scale` pixels.
    public func render(z: Int, x: Int, y: Int, tileSize: Int = 256, scale: Double = 1) throws(TileRenderError) -> RenderCanvas {
        let camera = try Self.camera(z: z, x: x, y: y, tileSize: tileSize)
        let size = Double(tileSize)
        // The tile must start on a whole device pixel of the larger canvas, or the crop would
        // resample it: the margin is rounded up to whole pixels.
        guard scale.isFinite, scale > 0, scale <= 4, (size * scale).rounded() == size * scale else {
            throw .unsupportedScale(scale)
        }
        let inset = (margin * scale).rounded(.up) / scale
        // Labels are also placed beyond the larger canvas, so that collisions near its edge, and
        // so what survives near the tile, depend less on where the canvas happens to end.
        let labelMargin = renderer.labelMargin
        renderer.labelMargin = max(labelMargin, inset)
        defer { renderer.labelMargin = labelMargin }
        do {
            let canvas = try renderer.render(center: camera.center, zoom: camera.zoom, bearing: 0,
                                             width: size + 2 * inset, height: size + 2 * inset, pixelRatio: scale)
            return try canvas.cropped(x: inset, y: inset, width: size, height: size)
        } catch {
            throw .render(error.description)
        }
    }

    /// The tile as a PNG file (see ``render(z:x:y:tileSize:scale:)``), encoded for speed with
    /// ``RenderCanvas/fastPNGData(level:threads:)`` on as many threads as the renderer draws with
    /// (``StyleRenderer/maximumThreads``).
    public func pngData(z: Int, x: Int, y: Int, tileSize: Int = 256, scale: Double = 1) throws(TileRenderError) -> [UInt8] {
        let canvas = try render(z: z, x: x, y: y, tileSize: tileSize, scale: scale)
        do { return try canvas.fastPNGData(threads: renderer.maximumThreads) } catch { throw .render(error.description) }
    }
}
