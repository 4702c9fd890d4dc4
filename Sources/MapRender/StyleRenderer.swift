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
    /// Why `tile` had no bytes for a tile that should exist (a fetch that failed: an HTTP error,
    /// a timeout), asked only after `tile` returned nil; nil for a tile that simply does not
    /// exist. The renderer names such tiles in its warnings.
    public var tileFailure: @Sendable (_ sourceID: String, _ tile: TileID) -> String?

    public init(tile: @escaping @Sendable (_ sourceID: String, _ tile: TileID) -> [UInt8]?,
                resource: @escaping @Sendable (_ url: String) -> [UInt8]? = { _ in nil },
                tileFailure: @escaping @Sendable (_ sourceID: String, _ tile: TileID) -> String? = { _, _ in nil }) {
        self.tile = tile
        self.resource = resource
        self.tileFailure = tileFailure
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
/// Supported layer types: `background`, `fill`, `line`, `circle`, `heatmap` and `fill-extrusion`
/// (its roofs at pitch 0, walls and roofs in 3D when pitched) from vector tile and GeoJSON sources, with filters, zoom
/// ranges, visibility, data-driven paint, sort keys and sprite patterns; `raster` from PNG tiles
/// and from `image` sources (a PNG stretched over its four corners, as two triangles, as a GPU
/// draws it) with MapLibre's colour adjustments; `hillshade` and `color-relief` from `raster-dem` PNG tiles
/// (Mapbox, Terrarium or custom encoding); `symbol` text and sprite icons, placed with collisions as
/// MapLibre does (see ``SymbolPlacer``; text drawn with the installed fonts, see ``FontCatalog``).
/// A pitched camera is drawn by warping the flat map into perspective, so labels and circles lean
/// with the ground (`text-pitch-alignment`, `circle-pitch-scale`/`-alignment` change nothing).
/// Extrusions of a pitched camera stand up: each building's footprint and roof (its height in
/// metres at the map's scale at the centre) are projected through the warp's camera and drawn
/// over the warped map as walls facing the camera and roofs, lit by the style's `light` as
/// MapLibre's shader lights them (with `fill-extrusion-vertical-gradient`), farthest first (the
/// painter's algorithm, where MapLibre depth-tests: see `ExtrusionScene`); the layers above them
/// are warped separately and laid on top, so labels stay above buildings. Not supported:
/// `fill-extrusion-pattern`,
/// hillshade methods other than "standard" (the first light is used), `raster-fade-duration`
/// (nothing fades in a still image).
///
/// Paint properties changed since a style shown before blend in over their transitions when the
/// renderer is given ``PaintTransitions`` and a ``transitionTime`` (a map view's runtime styling).
///
/// Every property and filter is compiled once, in `init`, so a style mistake is reported before
/// anything is drawn and each frame only evaluates small typed expression trees.
///
/// Geometry follows MapLibre's still-mode images: vector tiles are 512 points, chosen at the
/// floored zoom (overzoomed above the source's maxzoom) and clipped to their squares; GeoJSON is
/// drawn whole, without MapLibre's internal tiling and simplification (except dashed lines, whose
/// pattern restarts per tile as in MapLibre, see `GeoJSONLineTiling`), and is not repeated
/// across the antimeridian. A clustered GeoJSON source (`"cluster": true`) shows the points and
/// clusters of the floored zoom, as MapLibre's tiles of that zoom do (see ``GeoJSONClusters``).
/// Not thread-safe: it caches decoded tiles between renders.
///
/// After a render, ``features(at:tolerance:layers:filter:)`` and ``features(in:layers:filter:)``
/// report what that frame drew at a point or in a rectangle of the image (Mapbox's
/// `visibleFeatures`), from the same tiles, filters and placed labels, without drawing again.
///
/// Bad input is refused or worked around, never drawn as a silently blank or wrong image:
/// - Errors (``RenderError``): a style whose filters or drawn properties do not compile, a GeoJSON
///   source whose data cannot be read; a camera with a centre that is not a coordinate, a zoom
///   outside ``minimumZoom``…``maximumZoom``, a non-finite bearing, a pixel ratio outside
///   (0, ``maximumPixelRatio``], or an image size that is not positive or exceeds
///   ``RenderCanvas/maximumPixelSide`` pixels a side. (Invalid JSON, unknown layer types and
///   properties are refused earlier, by `Style`.)
/// - Fallbacks, each named in ``warnings`` after the render: a tile the loader has but that cannot
///   be decoded (corrupt or truncated protobuf, garbage, a gzip stream inflating beyond
///   ``maximumInflatedTileSize``, a
///   PNG that does not decode or claims more than ``maximumRasterTileSide`` pixels a side) is left
///   out and the rest drawn; a view where none of a source's tiles exist draws that source's
///   layers empty; a layer whose source the style lacks is skipped; a sprite that cannot be loaded,
///   or an `icon-image` it lacks, leaves the icon out (its text is still placed).
/// - Silent, as in MapLibre: a missing tile among existing ones (the sea, outside the extract),
///   latitudes beyond Web Mercator's ±85.05° (clamped), bearings beyond ±180° (turned round).
public final class StyleRenderer {
    public let style: Style
    private let loader: StyleResourceLoader
    let layers: [CompiledLayer]
    private var geoJSON: [String: GeoJSONFeatures] = [:]
    private var tileCache: [TileKey: VectorTile?] = [:]
    /// The vector tiles of `tileCache` that decoded, converted for drawing.
    private var preparedTiles: [TileKey: PreparedTile] = [:]
    private var imageCache: [TileKey: RenderImage?] = [:]
    /// Why a cached tile (vector or raster) is nil though the loader had bytes for it.
    private var tileFailures: [TileKey: String] = [:]
    /// What happened to the tiles of each source during the current render.
    var tileProblems: [String: TileTally] = [:]
    /// What the last ``render(center:zoom:bearing:pitch:width:height:pixelRatio:)`` could not draw as the
    /// style asks: tiles that could not be decoded or were refused (too large once inflated), a
    /// view where none of a source's tiles exist, layers whose source the style lacks. Empty when
    /// everything was drawn.
    public private(set) var warnings: [String] = []
    /// The source layers drawn layers read, by source.
    private let neededSourceLayers: [String: Set<String>]
    /// How far beyond the image, in points, labels may still be placed (and drawn, cut by the
    /// image's edge). 0, the default, places only labels wholly inside the image; a tile renderer
    /// that draws tiles with a margin can keep labels crossing tile edges consistent.
    public var labelMargin: Double = 0
    /// Rectangles of the image, in points from its top-left corner, where no label may be
    /// placed: where the caller will draw markers and their titles, so that the map's own labels
    /// make way for them as they do in MapKit.
    public var reservedLabelAreas: [(x: Double, y: Double, width: Double, height: Double)] = []
    /// How many threads one render may draw with, each a horizontal band of the image; by default
    /// one per core. A server rendering several images at once on a pool sized to the cores, or
    /// small tiles in bulk, sets 1.
    public var maximumThreads = ProcessInfo.processInfo.activeProcessorCount
    /// The fonts labels are drawn with: the installed fonts, opened by this renderer only.
    /// Made on the first render with labels, so styles without text never scan the fonts.
    private lazy var fonts = FontCatalog(entries: FontCatalog.installed.entries)
    /// The style's sprites, loaded on first use, for 1× and for 2× screens.
    private var sprites: [Bool: StyleSprites] = [:]
    /// The symbols the last render placed, by layer id (for tests).
    private(set) var placedSymbols: [String: [PlacedSymbol]] = [:]
    /// What the last render drew, for feature queries (see `FeatureQuery.swift`): its camera and
    /// the symbols each of its flat drawings placed. nil before the first render and after one
    /// that failed.
    var lastFrame: RenderedFrame?
    /// Labels shaped by earlier renders, kept for the next ones (a map redrawn as it pans shows
    /// mostly the same labels); emptied when it grows large.
    private var labelShapes: [TextShapeKey: ShapedLabel?] = [:]

    private struct TileKey: Hashable { let source: String; let tile: TileID }

    /// The tiles of one source a render asked for, and which of them it could not use.
    struct TileTally {
        var requested = 0, loaded = 0
        var failures: [(tile: TileID, reason: String)] = []
        mutating func note(_ tile: TileID, loaded isLoaded: Bool, failure: String?) {
            requested += 1
            if isLoaded { loaded += 1 }
            if let failure { failures.append((tile, failure)) }
        }
    }

    /// The time, on the clock of the ``PaintTransitions`` given to `init`, that the next render
    /// blends transitions at; by default the end of time, where every transition is over.
    public var transitionTime: TimeInterval {
        get { transitionClock.now }
        set { transitionClock.now = newValue.isNaN ? .infinity : newValue }
    }
    private let transitionClock: TransitionClock

    /// Compiles the style. Throws when a filter or a property of a drawn layer type is not a valid
    /// expression for that property, or a GeoJSON source's data cannot be read.
    ///
    /// `transitions` are the paint properties still blending from earlier values of a style shown
    /// before (see ``PaintTransitions``); they blend at ``transitionTime``.
    public init(style: Style, loader: StyleResourceLoader, transitions: PaintTransitions = PaintTransitions()) throws(RenderError) {
        self.style = style
        self.loader = loader
        let transitionClock = TransitionClock()
        self.transitionClock = transitionClock
        var compiled: [CompiledLayer] = []
        for layer in style.layers {
            let blending = transitions.isEmpty ? [:] : transitions.transitions(ofLayer: layer.id)
            var layer = try CompiledLayer(layer, transitions: blending, clock: transitionClock)
            layer.position = compiled.count
            compiled.append(layer)
        }
        layers = compiled
        var needed: [String: Set<String>] = [:]
        for layer in compiled where CompiledLayer.paintNames[layer.layer.type] != nil {
            if let source = layer.layer.source, let sourceLayer = layer.layer.sourceLayer { needed[source, default: []].insert(sourceLayer) }
        }
        neededSourceLayers = needed
        for (id, source) in style.sources where source.type == .geojson {
            guard let data = try Self.geoJSONData(id: id, source: source, loader: loader) else { continue }
            if GeoJSONClusters.isClustered(source) {
                // Clustered once per data and options, shared with renderers of later styles.
                do {
                    geoJSON[id] = GeoJSONFeatures(clusters: try GeoJSONClusters.shared(source: source, data: data))
                } catch {
                    throw RenderError("source \(id): \(error.description)")
                }
            } else {
                geoJSON[id] = GeoJSONFeatures(data)
            }
            geoJSON[id]?.lineMetrics = source.properties["lineMetrics"]?.boolValue ?? false
            geoJSON[id]?.maxZoom = Int(min(max(source.maxzoom, 0), 24))
        }
    }

    /// A GeoJSON source's data: inline, or read through `loader` when it is a URL; nil without data.
    static func geoJSONData(id: String, source: StyleSource, loader: StyleResourceLoader) throws(RenderError) -> JSONValue? {
        guard let data = source.data else { return nil }
        guard let url = data.stringValue else { return data }
        guard let bytes = loader.resource(url) else { throw RenderError("source \(id): cannot read \(url)") }
        do {
            return try JSONValue.parse(bytes)
        } catch {
            throw RenderError("source \(id): \(url): \(error)")
        }
    }

    /// The clustered points of a GeoJSON source with `"cluster": true` (nil for other sources):
    /// the very index this renderer draws them from, for cluster queries (children, leaves,
    /// expansion zoom).
    public func clusters(sourceID: String) -> GeoJSONClusters? { geoJSON[sourceID]?.clusters }

    /// Draws the style for a camera on a new canvas of `width × height` points at `pixelRatio`
    /// device pixels per point. Lengths in the style are points, so they scale with the ratio.
    ///
    /// A `pitch` (degrees from looking straight down, 0 … ``maximumPitch``) tilts the ground plane
    /// away from the viewer with `MapViewport`'s camera (field of view 2·atan(1/3), 1.5 view
    /// heights above the centre): the map is drawn flat and then warped into perspective (see
    /// `PerspectiveWarp`), so every pixel lies where `MapViewport.point(for:)` puts its map point.
    /// Labels are warped with the ground they are drawn on; `fill-extrusion` layers are drawn in
    /// 3D over the warped layers below them. Pitch 0 draws the flat map directly.
    public func render(center: CLLocationCoordinate2D, zoom: Double, bearing: Double = 0, pitch: Double = 0,
                       width: Double, height: Double, pixelRatio: Double = 1) throws(RenderError) -> RenderCanvas {
        lastFrame = nil
        guard pitch.isFinite, pitch >= 0, pitch <= Self.maximumPitch else {
            throw RenderError("pitch \(pitch) is outside 0…\(Self.maximumPitch)°")
        }
        guard pitch > 0 else { return try renderFlat(center: center, zoom: zoom, bearing: bearing, width: width, height: height, pixelRatio: pixelRatio) }
        let center = try Self.validatedCamera(center: center, zoom: zoom, bearing: bearing, width: width, height: height,
                                              pixelRatio: pixelRatio)
        let (canvas, tierWarnings, drawn) = try renderPitched(center: center, zoom: zoom, bearing: bearing, pitch: pitch, width: width,
                                                              height: height, pixelRatio: pixelRatio)
        warnings = tierWarnings
        lastFrame = drawn
        return canvas
    }

    /// The steepest pitch drawn, in degrees: MapLibre's limit. Beyond about 71.6° the horizon is in
    /// view (above it the sky is drawn, see `PerspectiveWarp`); `MapViewport` stops at 60°.
    public static let maximumPitch = 85.0

    /// The colour the style's background paints at `zoom` (the top drawn background layer's colour
    /// with its opacity); nil when the style has none, as its labels half has none.
    func backgroundColor(atZoom zoom: Double) -> RenderColor? {
        let context = EvaluationContext(zoom: zoom)
        for layer in layers.reversed() where layer.layer.type == .background && layer.isDrawn(atZoom: zoom) {
            guard let color = layer.paint["background-color"]?.color(context) else { continue }
            return color.withOpacity(layer.paint["background-opacity"]?.number(context) ?? 1)
        }
        return nil
    }

    /// The flat map (pitch 0): what ``render(center:zoom:bearing:pitch:width:height:pixelRatio:)``
    /// draws looking straight down, and each flat piece a pitched frame is warped from.
    func renderFlat(center: CLLocationCoordinate2D, zoom: Double, bearing: Double = 0,
                    width: Double, height: Double, pixelRatio: Double = 1) throws(RenderError) -> RenderCanvas {
        // Without a gatherer every layer is drawn on the one canvas.
        try renderFlatLayers(center: center, zoom: zoom, bearing: bearing, width: width, height: height, pixelRatio: pixelRatio,
                             extrusions: nil)[0]!
    }

    /// The flat map, cut at its `fill-extrusion` layers when `extrusions` is given: those layers
    /// are not drawn but gathered into it (a pitched frame draws them in 3D over the warped
    /// map), and the layers between them are drawn on separate canvases, one per run of layers
    /// (nil for an empty run), so that what lies above a building stays above it. Without
    /// `extrusions`, one canvas with every layer.
    func renderFlatLayers(center: CLLocationCoordinate2D, zoom: Double, bearing: Double = 0, width: Double, height: Double,
                          pixelRatio: Double = 1, extrusions: ExtrusionGatherer?) throws(RenderError) -> [RenderCanvas?] {
        warnings = []
        let center = try Self.validatedCamera(center: center, zoom: zoom, bearing: bearing, width: width, height: height,
                                              pixelRatio: pixelRatio)
        defer { warnings += Self.summary(of: tileProblems); tileProblems = [:] }
        let canvas = try RenderCanvas(width: width, height: height, scale: pixelRatio)
        let transform = ScreenTransform(center: center, zoom: zoom, bearing: bearing, width: width, height: height)
        var groups: [String: [FeatureGroup]] = [:]
        var painter = LayerPainter(canvas: canvas, transform: transform, zoom: zoom, pixelRatio: pixelRatio)
        painter.patterns = { [unowned self] name in self.styleSprites(pixelRatio: pixelRatio).image(name) }
        painter.light = ExtrusionLight(style.light)
        let symbols = placeSymbols(zoom: zoom, transform: transform, width: width, height: height, pixelRatio: pixelRatio, groups: &groups)
        let drawn = RenderedFrame(transform: transform, zoom: zoom, pitch: 0, pixelRatio: pixelRatio,
                                  flats: [RenderedFrame.Flat(transform: transform, symbols: symbols?.placed ?? [:])])
        // Everything that reads or fills the renderer's caches happens here, on this thread; the
        // drawing steps that follow only read, so bands of the image can run them at once.
        var steps: [DrawStep] = []
        // The runs of layers between extrusion layers, when those are gathered.
        var runs: [[DrawStep]] = []
        for (index, layer) in layers.enumerated() where layer.isDrawn(atZoom: zoom) {
            switch layer.layer.type {
            case .symbol:
                steps.append(.symbols(layer, index: index))
                continue
            case .background:
                steps.append(.background(layer))
                continue
            default: break
            }
            guard let sourceID = layer.layer.source else { continue }
            guard style.source(sourceID) != nil else {
                warnings.append("layer \(layer.layer.id): the style has no source \(sourceID); the layer is not drawn")
                continue
            }
            switch layer.layer.type {
            case .raster where style.source(sourceID)?.type == .image:
                if let image = sourceImage(sourceID), let corners = imageCorners(sourceID) {
                    steps.append(.image(layer, image: image, corners: corners))
                }
            case .raster:
                steps.append(.raster(layer, tiles: rasterTiles(sourceID: sourceID, zoom: zoom, transform: transform)))
            case .hillshade, .colorRelief:
                steps.append(.elevation(layer, tiles: rasterTiles(sourceID: sourceID, zoom: zoom, transform: transform),
                                        encoding: DEMEncoding(style.source(sourceID))))
            default:
                if groups[sourceID] == nil { groups[sourceID] = featureGroups(sourceID: sourceID, zoom: zoom, transform: transform) }
                let layerGroups = groups[sourceID] ?? []
                if layer.layer.type == .fillExtrusion, let extrusions {
                    extrusions.gather(layer, index: index, groups: layerGroups, painter: painter)
                    runs.append(steps)
                    steps = []
                    continue
                }
                painter.selectFeatures(layer, groups: layerGroups)
                steps.append(.features(layer, groups: layerGroups))
            }
        }
        if steps.contains(where: \.usesPatterns) || runs.joined().contains(where: \.usesPatterns) { _ = styleSprites(pixelRatio: pixelRatio) }
        if extrusions != nil {
            // The layers above the last extrusion layer.
            runs.append(steps)
            var canvases: [RenderCanvas?] = []
            var placer = symbols
            for (number, run) in runs.enumerated() {
                // The first run's canvas is always made: the warp draws the sky around it.
                guard !run.isEmpty || number == 0 else {
                    canvases.append(nil)
                    continue
                }
                let runCanvas = number == 0 ? canvas : try RenderCanvas(width: width, height: height, scale: pixelRatio)
                var runPainter = painter
                runPainter.canvas = runCanvas
                try drawSteps(run, on: runCanvas, painter: runPainter, symbols: &placer)
                canvases.append(runCanvas)
            }
            lastFrame = drawn
            return canvases
        }
        var placer = symbols
        try drawSteps(steps, on: canvas, painter: painter, symbols: &placer)
        lastFrame = drawn
        return [canvas]
    }

    /// Draws steps on a canvas, in horizontal bands on several threads when it is large enough
    /// (see ``bandRows(canvas:steps:)``).
    private func drawSteps(_ steps: [DrawStep], on canvas: RenderCanvas, painter: LayerPainter, symbols: inout SymbolPlacer?) throws(RenderError) {
        let bands = bandRows(canvas: canvas, steps: steps)
        guard bands.count > 1 else {
            Self.draw(steps, painter: painter, symbols: &symbols)
            return
        }
        var bandCanvases: [RenderCanvas] = []
        for rows in bands { bandCanvases.append(try RenderCanvas(band: canvas, rows: rows)) }
        // Shared by the threads, which only read them: the tiles' caches were filled above, each
        // band draws into its own rows through its own Cairo context, and each gets its own copy
        // of the painter and of the placed symbols (their sprite masks are made per copy).
        nonisolated(unsafe) let (sharedPainter, sharedSymbols, sharedSteps, canvases) = (painter, symbols, steps, bandCanvases)
        DispatchQueue.concurrentPerform(iterations: canvases.count) { band in
            var bandPainter = sharedPainter
            bandPainter.canvas = canvases[band]
            var bandSymbols = sharedSymbols
            Self.draw(sharedSteps, painter: bandPainter, symbols: &bandSymbols)
        }
        bandCanvases = []
        canvas.finishBands()
    }

    /// One layer's drawing, with what it draws already gathered.
    private enum DrawStep {
        case background(CompiledLayer)
        case raster(CompiledLayer, tiles: [(image: RenderImage, origin: ScreenPoint, size: Double)])
        case elevation(CompiledLayer, tiles: [(image: RenderImage, origin: ScreenPoint, size: Double)], encoding: DEMEncoding)
        case features(CompiledLayer, groups: [FeatureGroup])
        case symbols(CompiledLayer, index: Int)
        /// An `image` source's picture, its corners (top left, top right, bottom right, bottom
        /// left) in world coordinates.
        case image(CompiledLayer, image: RenderImage, corners: [ScreenPoint])

        var layer: CompiledLayer {
            switch self {
            case .background(let layer), .raster(let layer, _), .elevation(let layer, _, _), .features(let layer, _),
                 .symbols(let layer, _), .image(let layer, _, _): layer
            }
        }

        /// Whether the step may draw sprite images as patterns (loaded before drawing starts).
        var usesPatterns: Bool { layer.layer.paint.contains { $0.name.hasSuffix("-pattern") } }
    }

    private static func draw(_ steps: [DrawStep], painter: LayerPainter, symbols: inout SymbolPlacer?) {
        for step in steps {
            switch step {
            case .background(let layer): painter.paintBackground(layer)
            case .raster(let layer, let tiles): painter.paintRaster(layer, tiles: tiles)
            case .elevation(let layer, let tiles, let encoding): painter.paintDEM(layer, tiles: tiles, encoding: encoding)
            case .features(let layer, let groups): painter.paint(layer, groups: groups)
            case .symbols(let layer, let index): symbols?.draw(layer, index: index, on: painter.canvas)
            case .image(let layer, let image, let corners): painter.paintImage(layer, image: image, corners: corners)
            }
        }
    }

    /// The pixel rows each thread draws: the image cut into horizontal bands, one per thread up
    /// to ``maximumThreads``, when it is large enough to be worth it. Layers that work on the whole
    /// image at once (heatmap densities, extrusions sorted across it, hillshade) keep it whole.
    /// Images several bands draw from (sprite sheets, raster tiles) are read by one at a time
    /// (``RenderImage``'s source lock).
    private func bandRows(canvas: RenderCanvas, steps: [DrawStep]) -> [Range<Int>] {
        let whole = [0..<canvas.pixelHeight]
        // Below about 256 × 256 pixels a band's fixed costs (walking every layer, building paths that
        // cross bands twice) outweigh what a second core saves.
        let pixels = canvas.pixelWidth * canvas.pixelHeight
        let count = min(maximumThreads, pixels / 65_536, canvas.pixelHeight / 64)
        guard count > 1 else { return whole }
        let wholeImageTypes: Set<StyleLayer.Kind> = [.heatmap, .fillExtrusion, .hillshade, .colorRelief]
        guard !steps.contains(where: { wholeImageTypes.contains($0.layer.layer.type) }) else { return whole }
        return RenderCanvas.rowBands(height: canvas.pixelHeight, count: count)
    }

    /// The style's sprite sheets for this pixel ratio, loaded on first use (icons and patterns).
    private func styleSprites(pixelRatio: Double) -> StyleSprites {
        let highDensity = pixelRatio >= 2
        if sprites[highDensity] == nil { sprites[highDensity] = StyleSprites(style.sprite, images: style.images, pixelRatio: pixelRatio, loader: loader) }
        return sprites[highDensity] ?? StyleSprites()
    }

    /// Places the labels of every symbol layer, top layer first, before anything is drawn (drawing
    /// then goes bottom up); nil when the style draws no symbols at this zoom.
    private func placeSymbols(zoom: Double, transform: ScreenTransform, width: Double, height: Double, pixelRatio: Double,
                              groups: inout [String: [FeatureGroup]]) -> SymbolPlacer? {
        let symbolLayers = layers.enumerated().filter { $0.element.layer.type == .symbol && $0.element.isDrawn(atZoom: zoom) }
        guard !symbolLayers.isEmpty else {
            placedSymbols = [:]
            return nil
        }
        let sheets = styleSprites(pixelRatio: pixelRatio)
        var placer = SymbolPlacer(transform: transform, zoom: zoom, pixelRatio: pixelRatio, width: width, height: height,
                                  margin: labelMargin, catalog: fonts, sprites: sheets, shapes: labelShapes.count < 50_000 ? labelShapes : [:])
        for area in reservedLabelAreas where area.width > 0 && area.height > 0 {
            placer.collision.insert(CollisionBox(minX: area.x, minY: area.y, maxX: area.x + area.width, maxY: area.y + area.height))
        }
        for (index, layer) in symbolLayers.reversed() {
            guard let sourceID = layer.layer.source else { continue }
            if groups[sourceID] == nil { groups[sourceID] = featureGroups(sourceID: sourceID, zoom: zoom, transform: transform) }
            placer.place(layer, index: index, groups: groups[sourceID] ?? [])
        }
        // A sprite that would not load, an `icon-image` the sprite lacks: the text is still drawn.
        warnings += sheets.problems + placer.warnings.sorted()
        placedSymbols = [:]
        for (index, layer) in symbolLayers { placedSymbols[layer.layer.id] = placer.placed[index] ?? [] }
        labelShapes = placer.shapes
        return placer
    }

    /// The source's features for this camera: the vector tiles covering the view (or, given an
    /// `area` of the canvas, those covering it), or the GeoJSON.
    func featureGroups(sourceID: String, zoom: Double, transform: ScreenTransform, area: CanvasRect? = nil) -> [FeatureGroup] {
        if let features = geoJSON[sourceID] { return [features.group(transform: transform, zoom: zoom)] }
        guard let source = style.source(sourceID), source.type == .vector else { return [] }
        // Tiles of 512 points: the tile zoom is the camera's, floored, within what the source has
        // (above its maxzoom the deepest tiles are stretched); below minzoom nothing is drawn.
        guard zoom >= source.minzoom else { return [] }
        let z = Int(min(max(zoom.rounded(.down), source.minzoom), source.maxzoom))
        let size = 1 / Double(1 << z)
        // Tiles are read (and cached) here; moving their points onto the canvas, most of the work,
        // is independent per tile and runs on the render's threads.
        nonisolated(unsafe) let tiles = Self.coveringTiles(z: z, transform: transform, area: area).compactMap { x, y, id in
            preparedTile(sourceID: sourceID, id: id).map { (x: x, y: y, tile: $0) }
        }
        @Sendable func project(_ index: Int) -> FeatureGroup {
            let (x, y, tile) = tiles[index]
            var group = VectorTileProjection.group(tile: tile, origin: (Double(x) * size, Double(y) * size), size: size, transform: transform)
            group.tile = (x, y, z)
            return group
        }
        guard tiles.count > 1, maximumThreads > 1 else { return tiles.indices.map(project) }
        nonisolated(unsafe) var groups = [FeatureGroup?](repeating: nil, count: tiles.count)
        groups.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let buffer = buffer
            DispatchQueue.concurrentPerform(iterations: tiles.count) { buffer[$0] = project($0) }
        }
        return groups.compactMap { $0 }
    }

    /// The tiles of zoom `z` that cover the view (or `area` of the canvas): their unwrapped column
    /// and row (for placing them, left or right of the antimeridian) and their address (for
    /// loading them).
    private static func coveringTiles(z: Int, transform: ScreenTransform, area: CanvasRect? = nil) -> [(x: Int, y: Int, id: TileID)] {
        let n = 1 << z
        let a = area ?? CanvasRect(minX: 0, minY: 0, maxX: transform.halfWidth * 2, maxY: transform.halfHeight * 2)
        let corners = [(a.minX, a.minY), (a.maxX, a.minY), (a.minX, a.maxY), (a.maxX, a.maxY)].map { transform.world(screenX: $0.0, screenY: $0.1) }
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
        guard let source = style.source(sourceID), source.type == .raster || source.type == .rasterDEM,
              zoom >= source.minzoom else { return [] }
        let tileSize = source.tileSize ?? 512
        let z = Int(min(max((zoom + log2(512 / tileSize)).rounded(), source.minzoom), source.maxzoom))
        let size = 1 / Double(1 << z)
        return Self.coveringTiles(z: z, transform: transform).compactMap { x, y, id in
            let key = TileKey(source: sourceID, tile: id)
            if imageCache[key] == nil { imageCache[key] = .some(rasterImage(key)) }
            let image = imageCache[key]!
            tileProblems[sourceID, default: TileTally()].note(id, loaded: image != nil, failure: tileFailures[key])
            return image.map { ($0, (Double(x) * size, Double(y) * size), size) }
        }
    }

    /// An `image` source's picture (the one given in code, else its `url` read through the
    /// loader's resources, PNG), kept for later frames; nil when it is missing or undecodable
    /// (then named in ``warnings``).
    private func sourceImage(_ sourceID: String) -> RenderImage? {
        let key = TileKey(source: sourceID, tile: TileID(z: 0, x: 0, y: 0)!)
        if let cached = imageCache[key] { return cached }
        var image: RenderImage?
        if let given = style.sourceImages[sourceID] {
            do { image = try RenderImage(png: given.png) } catch {
                warnings.append("source \(sourceID): its image cannot be read: \(error.description)")
            }
        } else if let url = style.source(sourceID)?.url, let bytes = loader.resource(url) {
            do { image = try RenderImage(png: bytes) } catch {
                warnings.append("source \(sourceID): its image \(url) cannot be read: \(error.description)")
            }
        } else {
            warnings.append("source \(sourceID): its image \(style.source(sourceID)?.url ?? "(no url)") is missing")
        }
        imageCache[key] = .some(image)
        return image
    }

    /// An `image` source's four corners in world coordinates; nil unless it has exactly four
    /// valid ones.
    private func imageCorners(_ sourceID: String) -> [ScreenPoint]? {
        guard let coordinates = style.source(sourceID)?.coordinates, coordinates.count == 4,
              coordinates.allSatisfy({ $0.latitude.isFinite && $0.longitude.isFinite && abs($0.latitude) <= 90 }) else {
            warnings.append("source \(sourceID): an image source needs four corner coordinates")
            return nil
        }
        return coordinates.map(ScreenTransform.world)
    }

    /// The largest a gzip-compressed vector tile may inflate to: a decompression bomb is refused
    /// (and named in ``warnings``) once inflating reaches it. Real tiles stay well below 64 MiB.
    public var maximumInflatedTileSize = 64 << 20

    /// The largest raster tile accepted, in pixels a side: a PNG header claiming more is refused
    /// before Cairo allocates its surface (a small file can claim gigabytes of pixels).
    public static let maximumRasterTileSide = 4096

    /// The loader's bytes for a tile. A `"scheme": "tms"` source numbers its rows from the south,
    /// so the loader is asked for the flipped row (MapLibre's render test tms/tms).
    private func tileBytes(_ sourceID: String, _ id: TileID) -> [UInt8]? {
        var asked = id
        if style.sources.first(where: { $0.id == sourceID })?.source.scheme == "tms", let flipped = TileID(z: id.z, x: id.x, tmsY: id.y) {
            asked = flipped
        }
        if let bytes = loader.tile(sourceID, asked) { return bytes }
        // A tile that should have come (a failed fetch) is named in the warnings, not silently missing.
        if let failure = loader.tileFailure(sourceID, asked) { tileFailures[TileKey(source: sourceID, tile: id)] = failure }
        return nil
    }

    /// A raster tile's image; nil when missing, or undecodable (then noted in `tileFailures`).
    private func rasterImage(_ key: TileKey) -> RenderImage? {
        guard let bytes = tileBytes(key.source, key.tile) else { return nil }
        // PNG: 8-byte signature, then the IHDR chunk's length and type, then width and height.
        if bytes.count >= 24, bytes[12..<16].elementsEqual("IHDR".utf8) {
            func be32(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
            let (width, height) = (be32(16), be32(20))
            guard width <= Self.maximumRasterTileSide, height <= Self.maximumRasterTileSide else {
                tileFailures[key] = "a \(width) × \(height) image is larger than \(Self.maximumRasterTileSide) pixels a side"
                return nil
            }
        }
        do { return try RenderImage(png: bytes) } catch {
            tileFailures[key] = error.description
            return nil
        }
    }

    /// A decoded tile, kept for later frames; a missing or undecodable tile draws nothing, and an
    /// undecodable one is named in ``warnings``. Gzip is inflated up to
    /// ``maximumInflatedTileSize``, so a decompression bomb is refused, not inflated into memory.
    private func vectorTile(sourceID: String, id: TileID) -> VectorTile? {
        let key = TileKey(source: sourceID, tile: id)
        let tile: VectorTile?
        if let cached = tileCache[key] {
            tile = cached
        } else {
            if let bytes = tileBytes(sourceID, id) {
                var decoder = VectorTileDecoder(maxInflatedSize: maximumInflatedTileSize)
                do { tile = try decoder.decode(bytes) } catch {
                    tile = nil
                    tileFailures[key] = "\(error)"
                }
            } else {
                tile = nil
            }
            tileCache[key] = tile
        }
        tileProblems[sourceID, default: TileTally()].note(id, loaded: tile != nil, failure: tileFailures[key])
        return tile
    }

    /// A decoded tile converted for drawing (see ``PreparedTile``), kept for later frames.
    private func preparedTile(sourceID: String, id: TileID) -> PreparedTile? {
        let key = TileKey(source: sourceID, tile: id)
        if let prepared = preparedTiles[key] {
            tileProblems[sourceID, default: TileTally()].note(id, loaded: true, failure: nil)
            return prepared
        }
        guard let tile = vectorTile(sourceID: sourceID, id: id) else { return nil }
        let prepared = PreparedTile(tile, needed: neededSourceLayers[sourceID] ?? [])
        preparedTiles[key] = prepared
        return prepared
    }

    /// Refuses a camera the canvas or the projection cannot honour, instead of drawing nonsense
    /// or trapping on a conversion: see the type's documentation for what is accepted.
    private static func validatedCamera(center: CLLocationCoordinate2D, zoom: Double, bearing: Double, width: Double,
                                        height: Double, pixelRatio: Double) throws(RenderError) -> CLLocationCoordinate2D {
        guard CLLocationCoordinate2DIsValid(center) else {
            throw RenderError("centre \(center.latitude), \(center.longitude) is not a coordinate (latitude −90…90, longitude −180…180)")
        }
        guard zoom.isFinite, (minimumZoom...maximumZoom).contains(zoom) else {
            throw RenderError("zoom \(zoom) is outside \(minimumZoom)…\(maximumZoom)")
        }
        guard bearing.isFinite else { throw RenderError("bearing \(bearing) is not a finite angle") }
        guard pixelRatio.isFinite, pixelRatio > 0, pixelRatio <= maximumPixelRatio else {
            throw RenderError("pixel ratio \(pixelRatio) is outside (0, \(maximumPixelRatio)]")
        }
        let side = Double(RenderCanvas.maximumPixelSide)
        guard width.isFinite, height.isFinite, width > 0, height > 0, width * pixelRatio <= side, height * pixelRatio <= side else {
            throw RenderError("image size \(width) × \(height) at pixel ratio \(pixelRatio) is not between 1 and \(RenderCanvas.maximumPixelSide) pixels a side")
        }
        // Web Mercator stops at ±85.05°: beyond it the map is clamped there, as MapLibre does.
        let limit = 85.051128779806604
        return CLLocationCoordinate2D(latitude: min(max(center.latitude, -limit), limit), longitude: center.longitude)
    }

    /// The zooms a camera may have: MapLibre's range, extended to −1 for 256-point tiles of zoom 0.
    public static let minimumZoom = -1.0
    public static let maximumZoom = 25.5
    /// The densest pixel ratio drawn (a 4× screen); beyond it lengths in points lose their meaning.
    public static let maximumPixelRatio = 4.0

    /// Turns the tile tallies of one render into warnings.
    private static func summary(of tallies: [String: TileTally]) -> [String] {
        tallies.sorted { $0.key < $1.key }.compactMap { source, tally in
            if let first = tally.failures.first {
                return "source \(source): \(tally.failures.count) of \(tally.requested) tiles could not be read and were left out"
                    + " (first \(first.tile): \(first.reason))"
            }
            if tally.loaded == 0, tally.requested > 0 {
                return "source \(source): none of the \(tally.requested) tiles covering the view exist"
            }
            return nil
        }
    }
}

/// One style layer with its filter and the properties its type uses compiled.
struct CompiledLayer {
    let layer: StyleLayer
    let filter: CompiledFilter?
    let paint: [String: CompiledProperty]
    let layout: [String: CompiledProperty]
    /// Where the layer is in its renderer's style: tells layers apart in per-tile caches even
    /// when (invalidly) two share an id.
    var position = 0

    /// The paint and layout properties each drawn layer type reads.
    static let paintNames: [StyleLayer.Kind: [String]] = [
        .background: ["background-color", "background-opacity", "background-pattern"],
        .fill: ["fill-color", "fill-opacity", "fill-outline-color", "fill-antialias", "fill-translate", "fill-translate-anchor",
                "fill-pattern"],
        .line: ["line-color", "line-width", "line-opacity", "line-dasharray", "line-gap-width", "line-offset", "line-blur",
                "line-translate", "line-translate-anchor", "line-pattern", "line-gradient"],
        .raster: ["raster-opacity", "raster-resampling", "raster-brightness-min", "raster-brightness-max", "raster-contrast",
                  "raster-saturation", "raster-hue-rotate"],
        .circle: ["circle-radius", "circle-color", "circle-opacity", "circle-stroke-width", "circle-stroke-color",
                  "circle-stroke-opacity", "circle-translate", "circle-translate-anchor", "circle-blur"],
        .fillExtrusion: ["fill-extrusion-color", "fill-extrusion-opacity", "fill-extrusion-translate",
                         "fill-extrusion-translate-anchor", "fill-extrusion-height", "fill-extrusion-base",
                         "fill-extrusion-vertical-gradient"],
        .heatmap: ["heatmap-radius", "heatmap-weight", "heatmap-intensity", "heatmap-color", "heatmap-opacity"],
        .hillshade: ["hillshade-illumination-direction", "hillshade-illumination-anchor", "hillshade-exaggeration",
                     "hillshade-shadow-color", "hillshade-highlight-color", "hillshade-accent-color"],
        .colorRelief: ["color-relief-opacity", "color-relief-color"],
        .symbol: SymbolProperties.paint,
    ]
    static let layoutNames: [StyleLayer.Kind: [String]] = [
        .line: ["line-cap", "line-join", "line-miter-limit", "line-sort-key"],
        .fill: ["fill-sort-key"],
        .circle: ["circle-sort-key"],
        .symbol: SymbolProperties.layout,
    ]

    init(_ layer: StyleLayer, transitions: [String: PaintTransitions.Transition] = [:], clock: TransitionClock = TransitionClock()) throws(RenderError) {
        self.layer = layer
        // Layers of types not drawn yet are not compiled, so they cannot fail the style.
        let drawn = Self.paintNames[layer.type] != nil
        if drawn, layer.filter != nil {
            guard let expression = layer.filterExpression else { throw RenderError("layer \(layer.id): the filter does not compile") }
            filter = CompiledFilter(expression: expression)
        } else {
            filter = nil
        }
        let compiler = PropertyCompiler(layer: layer, transitions: transitions, clock: clock)
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
