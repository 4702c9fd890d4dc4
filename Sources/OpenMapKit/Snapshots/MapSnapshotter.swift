import Foundation
import MapGeometry
import MapRender
import MapStyle

/// A rendered image (UIKit's `UIImage`, AppKit's `NSImage`): what a snapshot's
/// ``MKMapSnapshotter/Snapshot/image`` is. Its ``size`` is in points; it has ``scale`` device pixels
/// per point.
///
/// Differs from UIKit: it reads and writes PNG only (``init(data:scale:)``,
/// ``init(contentsOfFile:)``, ``pngData()``).
public final class UIImage: @unchecked Sendable {
    let canvas: RenderCanvas
    /// The size in points.
    public var size: CGSize { CGSize(width: canvas.width, height: canvas.height) }
    /// Device pixels per point.
    public var scale: CGFloat { CGFloat(canvas.scale) }

    init(canvas: RenderCanvas) { self.canvas = canvas }

    /// An image from PNG data; `scale` device pixels per point (a 2× PNG of 64 pixels is 32
    /// points). Nil when the data is not a PNG.
    public convenience init?(data: Data, scale: CGFloat = 1) {
        guard scale > 0, scale.isFinite, let image = try? RenderImage(png: [UInt8](data)),
              let canvas = try? RenderCanvas(width: Double(image.width) / Double(scale), height: Double(image.height) / Double(scale),
                                             scale: Double(scale)) else { return nil }
        canvas.draw(image, x: 0, y: 0, width: canvas.width, height: canvas.height)
        self.init(canvas: canvas)
    }

    /// An image from a PNG file (at scale 2 when its name ends in `@2x.png`, 3 for `@3x.png`).
    public convenience init?(contentsOfFile path: String) {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let scale: CGFloat = path.hasSuffix("@3x.png") ? 3 : path.hasSuffix("@2x.png") ? 2 : 1
        self.init(data: data, scale: scale)
    }

    /// The image as a PNG file; nil if encoding fails.
    public func pngData() -> Data? {
        (try? canvas.pngData()).map { Data($0) }
    }

    /// The image's width and height in pixels.
    public var pixelSize: (width: Int, height: Int) { (canvas.pixelWidth, canvas.pixelHeight) }

    /// The colour of the pixel at (`x`, `y`) in pixels from the top-left corner (an OpenMapKit
    /// addition, for checking what was drawn where); nil outside the image.
    public func pixelColor(x: Int, y: Int) -> UIColor? {
        guard x >= 0, y >= 0, x < canvas.pixelWidth, y < canvas.pixelHeight else { return nil }
        let p = canvas.pixel(x: x, y: y)
        return UIColor(red: CGFloat(p.red) / 255, green: CGFloat(p.green) / 255, blue: CGFloat(p.blue) / 255, alpha: CGFloat(p.alpha) / 255)
    }

    /// The colour at a point (in points), read from the pixel under it.
    public func color(at point: CGPoint) -> UIColor? {
        guard point.x.isFinite, point.y.isFinite else { return nil }
        return pixelColor(x: Int((Double(point.x) * canvas.scale).rounded(.down)), y: Int((Double(point.y) * canvas.scale).rounded(.down)))
    }
}

/// AppKit's name for ``UIImage``.
public typealias NSImage = UIImage

/// Renders a map into an image (MapKit's `MKMapSnapshotter`).
///
/// The map comes from a ``MapDataSource``: the one given to ``init(options:dataSource:)``, else
/// ``MapDataSource/default`` (set in code or from `OPENMAPKIT_BUNDLE`). Without one, starting
/// fails with an ``MKError`` that names the variable. Drawing happens on a background queue.
///
/// As in MapKit, the image holds the map only: no overlays, no annotations. OpenMapKit can draw
/// them for you, opt-in, with ``Options/addOverlay(_:level:)->()`` and ``Options/addAnnotation(_:)``.
///
/// Differs from MapKit: the map is your bundles' OpenStreetMap data drawn with OpenMapKit's
/// MapLibre styles, not Apple's cartography. `start(completionHandler:)` calls back on the main
/// queue, which on Linux runs only when the program runs it; ``start(with:completionHandler:)``
/// names another queue, and `start()` is async.
public final class MKMapSnapshotter: @unchecked Sendable {
    /// MapKit's completion handler: a snapshot, or an error.
    public typealias CompletionHandler = @Sendable (Snapshot?, (any Error)?) -> Void

    private let options: Options
    private let dataSource: MapDataSource?
    private let lifecycle = RequestLifecycle(.oneShot)

    /// A snapshotter for `options` (copied: later changes to them do not affect it).
    public init(options: Options) {
        self.options = options.copy()
        dataSource = nil
    }

    /// A snapshotter that draws from `dataSource` rather than the default (an OpenMapKit addition).
    public init(options: Options, dataSource: MapDataSource) {
        self.options = options.copy()
        self.dataSource = dataSource
    }

    /// Whether a snapshot is being made.
    public var isLoading: Bool { lifecycle.isRunning }

    /// Stops the snapshot being made; its start fails with `CancellationError`.
    public func cancel() { lifecycle.cancel() }

    /// Makes the snapshot.
    public func start() async throws -> Snapshot {
        let options = options, dataSource = dataSource
        return try await lifecycle.start { isCancelled in
            try SnapshotEngine.render(options: options, dataSource: dataSource, isCancelled: isCancelled)
        }
    }

    /// Makes the snapshot on the calling thread (an OpenMapKit addition for callers that already
    /// run on a worker of their own, such as the server's render pool or the command line, and
    /// would otherwise block it waiting for ``start(with:completionHandler:)``).
    package func snapshot() throws -> Snapshot {
        try lifecycle.runHere { isCancelled in
            try SnapshotEngine.render(options: options, dataSource: dataSource, isCancelled: isCancelled)
        }
    }

    /// Makes the snapshot and calls `completionHandler` on the main queue, as MapKit does.
    public func start(completionHandler: @escaping CompletionHandler) {
        start(with: .main, completionHandler: completionHandler)
    }

    /// Makes the snapshot and calls `completionHandler` on `queue`.
    public func start(with queue: DispatchQueue, completionHandler: @escaping CompletionHandler) {
        let options = options, dataSource = dataSource
        lifecycle.start(on: queue, { isCancelled in
            try SnapshotEngine.render(options: options, dataSource: dataSource, isCancelled: isCancelled)
        }) { $0.deliver(to: completionHandler) }
    }
}

/// MapKit's older names.
public typealias MKMapSnapshotOptions = MKMapSnapshotter.Options
public typealias MKMapSnapshot = MKMapSnapshotter.Snapshot

extension MKMapSnapshotter {
    /// What to draw and how (MapKit's `MKMapSnapshotter.Options`).
    ///
    /// The area is given by ``region``, ``mapRect`` or ``camera``: the one set last wins (default:
    /// the whole world). A camera's heading and pitch are drawn: a pitched camera (clamped to
    /// 0 … `MapViewport.maximumPitch`, 60°; a non-finite pitch is 0) shows the ground in
    /// perspective, far things smaller, and overlays, annotations and ``Snapshot/point(for:)``
    /// use the same projection.
    public final class Options: @unchecked Sendable {
        enum Framing { case region(MKCoordinateRegion), mapRect(MKMapRect), camera(MKMapCamera) }
        var framing = Framing.mapRect(.world)

        public init() {}

        /// The area to show, fitted to the image's aspect ratio (grown, never cut).
        public var region: MKCoordinateRegion {
            get {
                switch framing {
                case .region(let region): region
                case .mapRect(let rect): MKCoordinateRegion(rect)
                case .camera: viewport.region
                }
            }
            set { framing = .region(newValue) }
        }

        /// The map rectangle to show, fitted to the image's aspect ratio.
        public var mapRect: MKMapRect {
            get {
                switch framing {
                case .mapRect(let rect): rect
                case .region(let region): MKMapRect(region)
                case .camera: viewport.visibleMapRect
                }
            }
            set { framing = .mapRect(newValue) }
        }

        /// The camera to look through.
        public var camera: MKMapCamera {
            get {
                if case .camera(let camera) = framing { return camera }
                return viewport.camera
            }
            set { framing = .camera(newValue.copy()) }
        }

        /// The image size in points (default 256 × 256).
        public var size = CGSize(width: 256, height: 256)

        /// Device pixels per point (default 1; the same as `traitCollection.displayScale`).
        public var scale: CGFloat {
            get { traitCollection.displayScale > 0 ? traitCollection.displayScale : 1 }
            set { traitCollection.displayScale = newValue }
        }

        /// The map's configuration: standard (default or muted emphasis, POI filter), hybrid or imagery.
        public var preferredConfiguration: MKMapConfiguration = MKStandardMapConfiguration()

        /// The kind of map; setting it replaces ``preferredConfiguration`` with the matching one.
        public var mapType: MKMapType {
            get { preferredConfiguration.mapType }
            set { preferredConfiguration = newValue.configuration }
        }

        /// Which points of interest to show; nil leaves it to the configuration (all by default).
        public var pointOfInterestFilter: MKPointOfInterestFilter?

        /// Whether points of interest are shown (MapKit's deprecated switch; false is
        /// ``MKPointOfInterestFilter/excludingAll``).
        public var showsPointsOfInterest: Bool {
            get { !(effectivePointOfInterestFilter?.isExcludingAll ?? false) }
            set { pointOfInterestFilter = newValue ? nil : .excludingAll }
        }

        /// Whether buildings are drawn (default true).
        public var showsBuildings = true

        /// Light or dark appearance and display scale.
        public var traitCollection = UITraitCollection()

        /// The macOS appearance; `.darkAqua` draws the dark map.
        public var appearance: NSAppearance?

        /// A MapLibre style file to draw instead of the built-in styles (an OpenMapKit addition).
        /// Its relative paths resolve against its folder; vector sources with `bundle://` tile URLs
        /// (or none) read the data source's bundles.
        public var styleURL: URL?

        /// Overlays to draw into the snapshot, with their renderers (an OpenMapKit addition;
        /// MapKit's snapshots have none).
        public private(set) var overlays: [(renderer: MKOverlayRenderer, level: MKOverlayLevel)] = []

        /// Annotations to draw as marker balloons over the map (an OpenMapKit addition).
        public var annotations: [any MKAnnotation] {
            get { markers.compactMap(\.annotation) }
            set { markers = newValue.map { MarkerItem(annotation: $0) } }
        }

        var markers: [MarkerItem] = []
        var customAnnotations: [AnnotationItem] = []
        var userLocation: CLLocationCoordinate2D?
        /// Whether annotation titles are drawn.
        var showsAnnotationTitles = true

        /// Whether the snapshot carries the map data's credit, "© OpenStreetMap contributors" (and
        /// any a style file's sources name), in a label at its bottom-right corner, as MapKit's
        /// snapshots carry their "Legal" text (an OpenMapKit addition; default true).
        ///
        /// OpenStreetMap's licence asks for the credit wherever its map is shown: set this to
        /// false only where your app shows the credit beside the image itself.
        public var showsAttribution = true

        /// Draws `renderer`'s overlay into the snapshot at `level` (default above labels, as MapKit).
        public func addOverlay(_ renderer: MKOverlayRenderer, level: MKOverlayLevel = .aboveLabels) {
            overlays.append((renderer, level))
        }

        /// Draws `overlay` with its default renderer (``MKOverlayRenderer/defaultRenderer(for:)``).
        @discardableResult
        public func addOverlay(_ overlay: any MKOverlay, level: MKOverlayLevel = .aboveLabels) -> MKOverlayRenderer {
            let renderer = MKOverlayRenderer.defaultRenderer(for: overlay)
            if let path = renderer as? MKOverlayPathRenderer {
                path.strokeColor = UIColor.systemBlue
                path.lineWidth = 4
                if !(renderer is MKPolylineRenderer || renderer is MKMultiPolylineRenderer) {
                    path.fillColor = UIColor.systemBlue.withAlphaComponent(0.25)
                }
            }
            addOverlay(renderer, level: level)
            return renderer
        }

        /// Draws an annotation as a red marker balloon, titled with its title.
        public func addAnnotation(_ annotation: any MKAnnotation) {
            markers.append(MarkerItem(annotation: annotation))
        }

        public func removeOverlays() { overlays = [] }

        var effectivePointOfInterestFilter: MKPointOfInterestFilter? {
            pointOfInterestFilter ?? preferredConfiguration.configurationPointOfInterestFilter
        }

        var isDark: Bool { traitCollection.userInterfaceStyle == .dark || appearance?.isDark == true }

        /// The viewport the options frame: a region or map rect flat, a camera with its pitch
        /// clamped as `MapViewport` uses it (so the pitch drawn and the one reported agree).
        var viewport: MapViewport {
            var viewport: MapViewport
            switch framing {
            case .region(let region): viewport = MapViewport(size: size, region: region)
            case .mapRect(let rect): viewport = MapViewport(size: size, visibleMapRect: rect)
            case .camera(let camera): viewport = MapViewport(size: size, camera: camera)
            }
            viewport.pitch = viewport.effectivePitch
            return viewport
        }

        /// A copy holding the same values (overlays and annotations are shared, not copied).
        public func copy() -> Options {
            let copy = Options()
            copy.framing = framing
            copy.size = size
            copy.traitCollection = traitCollection
            copy.preferredConfiguration = preferredConfiguration
            copy.pointOfInterestFilter = pointOfInterestFilter
            copy.showsBuildings = showsBuildings
            copy.appearance = appearance
            copy.styleURL = styleURL
            copy.overlays = overlays
            copy.markers = markers
            copy.customAnnotations = customAnnotations
            copy.userLocation = userLocation
            copy.showsAnnotationTitles = showsAnnotationTitles
            copy.showsAttribution = showsAttribution
            return copy
        }
    }

    /// A finished snapshot (MapKit's `MKMapSnapshotter.Snapshot`).
    public final class Snapshot: @unchecked Sendable {
        /// The image.
        public let image: UIImage
        /// The traits it was drawn with.
        public let traitCollection: UITraitCollection
        /// The macOS appearance it was drawn with.
        public let appearance: NSAppearance?
        /// The view the image shows (an OpenMapKit addition).
        public let viewport: MapViewport
        /// The credits of the data drawn (the style's sources), drawn or not.
        let attribution: [String]

        init(image: UIImage, traitCollection: UITraitCollection, appearance: NSAppearance?, viewport: MapViewport, attribution: [String]) {
            (self.image, self.traitCollection, self.appearance, self.viewport) = (image, traitCollection, appearance, viewport)
            self.attribution = attribution
        }

        /// Where `coordinate` is in the image, in points from its top-left corner.
        public func point(for coordinate: CLLocationCoordinate2D) -> CGPoint {
            viewport.convert(coordinate)
        }
    }
}

/// The drawing shared by ``MKMapSnapshotter`` and ``Map``: style, passes, overlays, annotations.
enum SnapshotEngine {
    /// How long a snapshot waits for the tiles of its tile overlays, all together.
    static let tileWait: TimeInterval = 30

    static func render(options: MKMapSnapshotter.Options, dataSource explicit: MapDataSource?,
                       tileWait: TimeInterval = tileWait,
                       isCancelled: () -> Bool = { false }) throws -> MKMapSnapshotter.Snapshot {
        let size = options.size, scale = Double(options.scale)
        guard size.width > 0, size.height > 0, size.width.isFinite, size.height.isFinite else {
            throw MKError(.unknown, reason: "snapshot size \(size.width) × \(size.height) is not a positive size")
        }
        guard scale > 0, scale.isFinite, scale <= 8 else { throw MKError(.unknown, reason: "snapshot scale \(scale) is not between 0 and 8") }
        let viewport = options.viewport
        let replacesMap = options.overlays.contains { $0.renderer.overlay.canReplaceMapContent }
        let canvas: RenderCanvas
        do { canvas = try RenderCanvas(width: Double(size.width), height: Double(size.height), scale: scale) } catch {
            throw MKError(.unknown, reason: error.description)
        }
        if isCancelled() { throw CancellationError() }

        // A map drawn only from tile overlays shows no OpenStreetMap data of ours to credit.
        var attribution: [String] = []
        if replacesMap {
            canvas.fill(RenderColor(red: 0.96, green: 0.95, blue: 0.93))
            let below = options.overlays.filter { $0.level == .aboveRoads }.map(\.renderer)
            let above = options.overlays.filter { $0.level == .aboveLabels }.map(\.renderer)
            for renderer in below + above {
                renderer.render(on: canvas, viewport: viewport, tileWait: tileWait)
                if isCancelled() { throw CancellationError() }
            }
        } else {
            let dataSource = try explicit ?? MapDataSource.resolved()
            let style = try makeStyle(options: options, dataSource: dataSource)
            let loader = makeLoader(style: style, dataSource: dataSource, scale: scale, styleURL: options.styleURL)
            canvas.draw(try drawMap(options: options, renderers: MapStyleRenderers(style: style, loader: loader), tileWait: tileWait,
                                    isCancelled: isCancelled))
            attribution = MapAttribution.lines(of: style)
        }
        if isCancelled() { throw CancellationError() }
        AnnotationDrawing.draw(markers: options.markers, annotations: options.customAnnotations, userLocation: options.userLocation,
                               showTitles: options.showsAnnotationTitles, dark: options.isDark, on: canvas, viewport: viewport)
        if options.showsAttribution { MapAttribution.draw(attribution, at: MapAttribution.placement, in: size, on: canvas) }
        return MKMapSnapshotter.Snapshot(image: UIImage(canvas: canvas), traitCollection: options.traitCollection,
                                         appearance: options.appearance, viewport: viewport, attribution: attribution)
    }

    /// The map for the options drawn by `renderers`, with the overlays at their levels (not the
    /// markers and annotations): the whole style then the `aboveLabels` overlays, or, when there
    /// are `aboveRoads` overlays, the style's base, those overlays, its labels, then the rest.
    /// The map's labels make way for the markers and annotations to be drawn over it.
    static func drawMap(options: MKMapSnapshotter.Options, renderers: MapStyleRenderers, tileWait: TimeInterval = tileWait,
                        isCancelled: () -> Bool = { false }) throws -> RenderCanvas {
        let viewport = options.viewport
        let reserved = AnnotationDrawing.reservedAreas(markers: options.markers, annotations: options.customAnnotations,
                                                       showTitles: options.showsAnnotationTitles, viewport: viewport)
        func draw(_ renderer: StyleRenderer) throws -> RenderCanvas {
            renderer.reservedLabelAreas = reserved
            do {
                return try renderer.render(center: viewport.centerCoordinate, zoom: viewport.zoomLevel, bearing: viewport.heading,
                                           pitch: viewport.pitch, width: Double(options.size.width),
                                           height: Double(options.size.height), pixelRatio: Double(options.scale))
            } catch {
                throw MKError(.serverFailure, reason: "cannot draw the map: \(error.description)")
            }
        }
        let below = options.overlays.filter { $0.level == .aboveRoads }.map(\.renderer)
        let above = options.overlays.filter { $0.level == .aboveLabels }.map(\.renderer)
        let canvas: RenderCanvas
        renderers.drawn = []
        if below.isEmpty {
            let whole = try renderers.whole()
            canvas = try draw(whole)
            renderers.drawn = [whole]
        } else {
            // MapKit's aboveRoads level lies between the base map and its labels.
            let (base, labels) = try renderers.split()
            canvas = try draw(base)
            if isCancelled() { throw CancellationError() }
            for renderer in below { renderer.render(on: canvas, viewport: viewport, tileWait: tileWait) }
            if let labels { canvas.draw(try draw(labels)) }
            renderers.drawn = [base] + (labels.map { [$0] } ?? [])
        }
        if isCancelled() { throw CancellationError() }
        for renderer in above { renderer.render(on: canvas, viewport: viewport, tileWait: tileWait) }
        return canvas
    }

    /// The style for the options: a style file or the configuration's built-in style (its
    /// buildings extruded for realistic elevation), with the POI filter and building switch
    /// applied.
    static func makeStyle(options: MKMapSnapshotter.Options, dataSource: MapDataSource) throws -> Style {
        var style: Style
        if let url = options.styleURL {
            do { style = try Style(data: [UInt8](Data(contentsOf: url))) } catch {
                throw MKError(.serverFailure, reason: "\(url.path): \(error)")
            }
            style = try StyleFetching.resolvingTileJSON(style, base: url)
        } else {
            let builtIn = options.preferredConfiguration.defaultStyle(dark: options.isDark)
            if builtIn == .hybrid || builtIn == .imagery, dataSource.imagery == nil {
                throw MKError(.serverFailure, reason: "the \(builtIn.rawValue) map needs imagery tiles: give the map data source "
                              + "an MKTileOverlay (MapDataSource(path:imagery:))")
            }
            // Realistic elevation stands the buildings up when the map is pitched (MapKit's 3D
            // buildings); terrain stays flat (no elevation data).
            style = builtIn.makeStyle(extrudedBuildings: options.preferredConfiguration.elevationStyle == .realistic,
                                      dataBounds: dataSource.dataBounds)
        }
        options.effectivePointOfInterestFilter?.apply(to: &style)
        if !options.showsBuildings { style.layers.removeAll { $0.sourceLayer == "building" } }
        return style
    }

    /// Where the renderer reads: imagery tiles from the data source's imagery overlay, vector tiles
    /// from its bundles (or, in a style file, from the files its sources name), tiles named by
    /// `http(s)` templates through the ``TileFetcher`` (waited for, each at most
    /// `StyleFetching.timeout`; a tile that failed is named in the renderer's warnings),
    /// resources from the built-in styles or the style file's folder.
    static func makeLoader(style: Style, dataSource: MapDataSource, scale: Double, styleURL: URL?,
                           fetcher: TileFetcher = .shared) -> StyleResourceLoader {
        let files = styleURL.map { StyleResourceLoader.files(relativeTo: $0.deletingLastPathComponent().path, style: style) }
        var fromFiles: Set<String> = []
        var remote: [String: [String]] = [:]
        for (id, source) in style.sources where !source.tiles.isEmpty && !source.tiles.allSatisfy({ $0.hasPrefix("bundle://") }) {
            if source.tiles.contains(where: StyleFetching.isRemote) {
                remote[id] = source.tiles
            } else if files != nil {
                fromFiles.insert(id)
            }
        }
        let fileSources = fromFiles, remoteSources = remote
        let imagery = dataSource.imagery
        let failures = TileFailureLog()
        return StyleResourceLoader(tile: { sourceID, id in
            if sourceID == DefaultStyle.imagerySourceID, let imagery {
                let path = imagery.path(x: id.x, y: id.y, z: id.z, scale: CGFloat(scale))
                switch imagery.tileResult(at: path) {
                case .success(let data): return data.map { [UInt8]($0) }
                case .failure(let error):
                    failures.note(sourceID, id, "\(error.localizedDescription)")
                    return nil
                }
            }
            if let templates = remoteSources[sourceID] {
                // The first template that gives the tile wins; the last failure is the one reported.
                for template in templates {
                    let filled = StyleFetching.fill(template, id)
                    if !StyleFetching.isRemote(template) {
                        if let bytes = files?.resource(filled) { return bytes }
                        continue
                    }
                    guard let url = URL(string: filled) else { continue }
                    switch fetcher.data(for: url, timeout: StyleFetching.timeout) {
                    case .success(let data): return [UInt8](data)
                    case .failure(.httpStatus(_, 404)): continue  // a tile the server does not have: the sea, outside the extract
                    case .failure(let error): failures.note(sourceID, id, error.description)
                    }
                }
                return nil
            }
            if fileSources.contains(sourceID) { return files?.tile(sourceID, id) }
            return dataSource.vectorTile(id)
        }, resource: { url in
            // Absolute file URLs (a runtime-styling shape source's GeoJSON) read with any style.
            if StyleFetching.isRemote(url), let remote = URL(string: url) {
                return (try? fetcher.data(for: remote, timeout: StyleFetching.timeout).get()).map { [UInt8]($0) }
            }
            return DefaultStyle.resource(url) ?? files?.resource(url)
                ?? (url.hasPrefix("file://") ? URL(string: url).flatMap { try? Data(contentsOf: $0) }.map { [UInt8]($0) } : nil)
        }, tileFailure: { sourceID, id in failures.take(sourceID, id) })
    }
}

/// The style renderers that draw a map: the whole style, or its base (up to its first symbol
/// layer) and its labels for overlays drawn between them, each made when first needed. A
/// snapshot makes one set per image; a map view keeps its set from frame to frame, so that what
/// one frame decoded, shaped and loaded (vector tiles, labels, sprites, fonts) serves the next.
final class MapStyleRenderers {
    let style: Style
    let loader: StyleResourceLoader
    /// Paint properties blending from a style shown before (a map view's runtime styling).
    let transitions: PaintTransitions
    private var wholeRenderer: StyleRenderer?
    private var splitRenderers: (base: StyleRenderer, labels: StyleRenderer?)?
    /// The renderers that drew the last map, bottom first (the whole style, or its base and its
    /// labels); empty before the first and after one that failed.
    var drawn: [StyleRenderer] = []
    /// The time the renderers blend ``transitions`` at (see ``StyleRenderer/transitionTime``).
    var transitionTime: TimeInterval = .infinity {
        didSet {
            wholeRenderer?.transitionTime = transitionTime
            splitRenderers?.base.transitionTime = transitionTime
            splitRenderers?.labels?.transitionTime = transitionTime
        }
    }

    init(style: Style, loader: StyleResourceLoader, transitions: PaintTransitions = PaintTransitions()) {
        (self.style, self.loader, self.transitions) = (style, loader, transitions)
    }

    /// The renderer of the whole style.
    func whole() throws -> StyleRenderer {
        if let wholeRenderer { return wholeRenderer }
        let renderer = try make(style)
        wholeRenderer = renderer
        return renderer
    }

    /// The renderers of the style's base and of its labels (nil when it has none).
    func split() throws -> (base: StyleRenderer, labels: StyleRenderer?) {
        if let splitRenderers { return splitRenderers }
        let (base, labels) = style.splitAtFirstSymbolLayer()
        let made = (try make(base), labels.layers.isEmpty ? nil : try make(labels))
        splitRenderers = made
        return made
    }

    /// What `query` finds in each renderer of the last map, topmost first (the labels' features
    /// over the base's), each feature's place in the drawing counted in this whole style's layers.
    func features(_ query: (StyleRenderer) -> [RenderedFeature]) -> [RenderedFeature] {
        var positions: [String: Int] = [:]
        for (index, layer) in style.layers.enumerated() where positions[layer.id] == nil { positions[layer.id] = index }
        return drawn.reversed().flatMap { renderer in
            query(renderer).map { feature in
                var feature = feature
                feature.zOrder.layer = positions[feature.layerID] ?? feature.zOrder.layer
                return feature
            }
        }
    }

    private func make(_ style: Style) throws -> StyleRenderer {
        do {
            let renderer = try StyleRenderer(style: style, loader: loader, transitions: transitions)
            renderer.transitionTime = transitionTime
            return renderer
        } catch {
            throw MKError(.serverFailure, reason: "cannot draw the map: \(error.description)")
        }
    }
}
