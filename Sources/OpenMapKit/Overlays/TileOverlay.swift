import Foundation
import MapRender

/// The address of one tile of a ``MKTileOverlay`` (MapKit's `MKTileOverlayPath`).
public struct MKTileOverlayPath: Hashable, Sendable {
    public var x: Int
    public var y: Int
    public var z: Int
    /// Device pixels per point of the image wanted (fills `{scale}` in URL templates).
    public var contentScaleFactor: CGFloat

    public init(x: Int, y: Int, z: Int, contentScaleFactor: CGFloat) {
        (self.x, self.y, self.z, self.contentScaleFactor) = (x, y, z, contentScaleFactor)
    }

    public init() { self.init(x: 0, y: 0, z: 0, contentScaleFactor: 1) }
}

/// Bitmap tiles laid over (or instead of) the map (MapKit's `MKTileOverlay`).
///
/// The URL template's `{x}`, `{y}`, `{z}` and `{scale}` are filled from each tile's path. Tiles
/// are read from files — the template is a `file://` URL or a plain path, and a path with no
/// placeholders that names a folder means `folder/{z}/{x}/{y}.png` — or fetched from `http(s)`
/// URLs, through OpenMapKit's tile client: a few requests in flight at once (the rest queued), a
/// disk cache that keeps tiles as long as the server's `Cache-Control: max-age` or `Expires`
/// allows and then revalidates them (`ETag`, `Last-Modified`), in `$OPENMAPKIT_TILE_CACHE` or
/// else `~/.cache/openmapkit/tiles`. A tile that cannot be fetched gives a ``TileFetchError`` to
/// ``loadTile(at:result:)``'s result. A subclass that overrides ``loadTile(at:result:)`` can
/// load tiles from anywhere (it may call `result` on any thread).
///
/// Tiles at zoom z cover the world in 2^z × 2^z squares of ``tileSize`` points, rows from the top
/// (``isGeometryFlipped`` false, as OpenStreetMap) or from the bottom (true, as TMS); the y in the
/// paths given to ``url(forTilePath:)`` is already flipped.
open class MKTileOverlay: NSObject, MKOverlay, @unchecked Sendable {
    /// The template the tile URLs are made from; nil when a subclass supplies URLs itself.
    public let urlTemplate: String?
    /// The tiles' size in points (default 256 × 256).
    open var tileSize = CGSize(width: 256, height: 256)
    /// Whether tile rows count from the bottom (TMS) instead of the top.
    open var isGeometryFlipped = false
    /// The zoom levels the tiles exist at; below ``minimumZ`` nothing is drawn, above
    /// ``maximumZ`` the deepest tiles are stretched.
    open var minimumZ = 0
    open var maximumZ = 21
    /// Whether the tiles cover the map entirely, so the map underneath need not be drawn. A
    /// snapshot with such an overlay draws no map (and reads no bundle): a plain light
    /// background shows where tiles are missing.
    open var canReplaceMapContent = false
    /// The area the tiles cover (default: the world).
    open var boundingMapRect = MKMapRect.world
    /// The centre of ``boundingMapRect``.
    open var coordinate: CLLocationCoordinate2D {
        MKMapPoint(x: boundingMapRect.midX, y: boundingMapRect.midY).coordinate
    }
    /// The client `http(s)` tiles are fetched with (tests give one with its own cache).
    var fetcher: TileFetcher = .shared

    public init(urlTemplate: String?) {
        self.urlTemplate = urlTemplate
        super.init()
    }

    /// The URL of a tile: the template with the path filled in.
    open func url(forTilePath path: MKTileOverlayPath) -> URL {
        guard var template = urlTemplate else { return URL(fileURLWithPath: "/dev/null") }
        let scale = path.contentScaleFactor == path.contentScaleFactor.rounded() ? String(Int(path.contentScaleFactor)) : "\(path.contentScaleFactor)"
        if !template.contains("{"), !template.contains("://") {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: template, isDirectory: &isFolder), isFolder.boolValue {
                template = (template.hasSuffix("/") ? template : template + "/") + "{z}/{x}/{y}.png"
            }
        }
        let filled = template.replacingOccurrences(of: "{x}", with: String(path.x))
            .replacingOccurrences(of: "{y}", with: String(path.y))
            .replacingOccurrences(of: "{z}", with: String(path.z))
            .replacingOccurrences(of: "{scale}", with: scale)
        if filled.contains("://"), let url = URL(string: filled) { return url }
        return URL(fileURLWithPath: filled)
    }

    /// Loads a tile's image bytes (PNG) and passes them to `result`. The default reads
    /// ``url(forTilePath:)`` when it is a file (a missing file gives (nil, nil), as a tile the
    /// server does not have, at once on the caller's thread), and fetches it when it is an
    /// `http(s)` URL (on another thread, or at once when the disk cache has it fresh; a failure
    /// gives a ``TileFetchError``: the server's status, a transport failure, a timeout, a body
    /// too large). Other URLs give an ``MKError``.
    open func loadTile(at path: MKTileOverlayPath, result: @escaping (Data?, (any Error)?) -> Void) {
        let url = url(forTilePath: path)
        if url.isFileURL {
            result(try? Data(contentsOf: url), nil)
            return
        }
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            result(nil, MKError(.serverFailure, reason: "\(url.absoluteString): tiles load from files and http(s) URLs; "
                                + "override MKTileOverlay.loadTile(at:result:) to load them from elsewhere"))
            return
        }
        // `result` is MapKit's non-Sendable block; the fetcher calls it once, from one thread.
        nonisolated(unsafe) let deliver = result
        fetcher.fetch(url) { outcome in
            switch outcome {
            case .success(let data): deliver(data, nil)
            case .failure(let error): deliver(nil, error)
            }
        }
    }

    /// The tile's bytes or the error ``loadTile(at:result:)`` gave, waiting for it up to
    /// `timeout` seconds (renderers draw synchronously; MapKit's loading is asynchronous).
    func tileResult(at path: MKTileOverlayPath, timeout: TimeInterval = 30) -> Result<Data?, any Error> {
        final class Box: @unchecked Sendable { var result: Result<Data?, any Error>? }
        let box = Box(), done = DispatchSemaphore(value: 0)
        loadTile(at: path) { data, error in
            box.result = error.map { .failure($0) } ?? .success(data)
            done.signal()
        }
        guard done.wait(timeout: .now() + timeout) == .success, let result = box.result else {
            return .failure(TileFetchError.timedOut(url: url(forTilePath: path).absoluteString, seconds: timeout))
        }
        return result
    }

    /// The tile's bytes, waiting for ``loadTile(at:result:)`` up to `timeout` seconds; nil when
    /// it is missing or failed.
    func tileData(at path: MKTileOverlayPath, timeout: TimeInterval = 30) -> Data? {
        (try? tileResult(at: path, timeout: timeout).get()) ?? nil
    }

    /// The path of the tile `x`, `y` (rows from the top) at `z`, flipped when the overlay's rows
    /// count from the bottom.
    func path(x: Int, y: Int, z: Int, scale: CGFloat) -> MKTileOverlayPath {
        MKTileOverlayPath(x: x, y: isGeometryFlipped ? (1 << z) - 1 - y : y, z: z, contentScaleFactor: scale)
    }
}

/// Draws a ``MKTileOverlay``'s tiles (MapKit's `MKTileOverlayRenderer`).
///
/// The tile zoom is the one whose tiles are nearest their own size on screen, clamped to the
/// overlay's range (stretched above ``MKTileOverlay/maximumZ``; nothing below
/// ``MKTileOverlay/minimumZ``). Missing or undecodable tiles leave their square undrawn; the
/// tiles that failed are named in ``warnings`` (with the error ``MKTileOverlay/loadTile(at:result:)``
/// gave). Loaded tiles are kept until ``reloadData()``.
///
/// All the tiles a drawing needs are asked for at once. A snapshot (``MKMapSnapshotter``, a
/// map view whose overlay replaces the map) waits for them, at most 30 seconds in all; a map
/// view's frame (``MKMapView/render()``) draws the tiles already loaded or cached and does not
/// wait for the rest: they are drawn by a later frame, and until then the frame's
/// `mapViewDidFinishRenderingMap(_:fullyRendered:)` says false; ``MKMapView/hasNewlyLoadedTiles``
/// tells when they have come.
///
/// Differs from MapKit: only PNG tiles are decoded; a failed tile is not asked for again until
/// ``reloadData()``.
open class MKTileOverlayRenderer: MKOverlayRenderer, @unchecked Sendable {
    public init(tileOverlay overlay: MKTileOverlay) {
        super.init(overlay: overlay)
    }

    public override init(overlay: any MKOverlay) {
        super.init(overlay: overlay)
    }

    /// What a tile became: an image, nothing (missing, or failed with a reason).
    private enum Loaded { case image(RenderImage), missing, failed(String) }

    private let cacheLock = NSLock()
    nonisolated(unsafe) private var cache: [MKTileOverlayPath: Loaded] = [:]
    /// Tiles asked for and not answered yet.
    nonisolated(unsafe) private var loading: Set<MKTileOverlayPath> = []
    /// Bumped by ``reloadData()``: answers to requests made before it are dropped.
    nonisolated(unsafe) private var generation = 0
    /// How long ``draw(_:zoomScale:in:)`` waits for tiles not loaded yet: a snapshot's 30 s, a
    /// map view frame's 0.
    var tileWait: TimeInterval = 30
    private var lastWarnings: [String] = []
    private var lastPending = 0
    /// Whether tiles came after the last drawing took its tiles (a later frame would show them).
    nonisolated(unsafe) private var arrived = false

    /// The tiles the last drawing could not draw, each with why (an OpenMapKit addition): the
    /// error the overlay's ``MKTileOverlay/loadTile(at:result:)`` gave (an HTTP status, a
    /// transport failure, a timeout), bytes that are not a PNG, or a tile still loading when a
    /// snapshot's wait ran out. Tiles that do not exist (a file that is not there) are not named.
    public var warnings: [String] { cacheLock.withLock { lastWarnings } }

    /// Whether the last drawing left out tiles still loading (a map view frame draws them later).
    var hasPendingTiles: Bool { cacheLock.withLock { lastPending > 0 } }

    /// Whether tiles loaded after the last drawing took its tiles, which a new drawing would show.
    var hasNewTiles: Bool { cacheLock.withLock { arrived } }

    /// Forgets loaded tiles so the next drawing loads them again.
    open func reloadData() {
        cacheLock.withLock {
            cache = [:]
            loading = []
            generation += 1
        }
        setNeedsDisplay()
    }

    open override func draw(_ mapRect: MKMapRect, zoomScale: MKZoomScale, in context: CGContext) {
        guard let overlay = overlay as? MKTileOverlay else { return }
        let tileWidth = max(1, Double(overlay.tileSize.width))
        // zoomScale is screen points per map point; a tile at z is 2^28 / 2^z map points wide.
        let exact = log2(Double(zoomScale) * MKMapSize.worldWidth / tileWidth)
        guard exact.isFinite else { return }
        let wanted = Int(exact.rounded())
        guard wanted >= overlay.minimumZ - 1 else { return }
        let z = min(max(wanted, overlay.minimumZ), min(overlay.maximumZ, 28))
        let n = 1 << z
        let tileMapSize = MKMapSize.worldWidth / Double(n)
        let area = mapRect.intersection(overlay.boundingMapRect)
        guard !area.isNull, area.width > 0 else { return }
        let minX = Int((area.minX / tileMapSize).rounded(.down)), maxX = Int((area.maxX / tileMapSize).rounded(.down))
        let minY = max(0, Int((area.minY / tileMapSize).rounded(.down))), maxY = min(n - 1, Int((area.maxY / tileMapSize).rounded(.down)))
        guard minY <= maxY, maxX >= minX, (maxX - minX + 1) * (maxY - minY + 1) <= 1024 else { return }
        var squares: [(x: Int, y: Int, path: MKTileOverlayPath)] = []
        for y in minY...maxY {
            for x in minX...maxX {
                let wrapped = ((x % n) + n) % n
                squares.append((x, y, overlay.path(x: wrapped, y: y, z: z, scale: context.contentScale)))
            }
        }
        let loaded = load(squares.map(\.path), overlay: overlay)
        var warnings: [String] = [], pending = 0
        for square in squares {
            let origin = MKMapPoint(x: Double(square.x) * tileMapSize, y: Double(square.y) * tileMapSize)
            let name = "tile \(square.path.z)/\(square.path.x)/\(square.path.y)"
            switch loaded[square.path] {
            case .image(let image)?: context.drawTile(image, mapOrigin: origin, mapSize: tileMapSize)
            case .missing?: break
            case .failed(let reason)?: warnings.append("\(name): \(reason)")
            case nil:
                pending += 1
                if tileWait > 0 { warnings.append("\(name): not loaded within \(tileWait.formatted()) s") }
            }
        }
        cacheLock.withLock { (lastWarnings, lastPending) = (warnings, pending) }
    }

    /// The tiles of `paths` loaded now: those kept from earlier drawings, and those asked for now
    /// that came within ``tileWait`` (all are asked for at once; late answers are kept for the
    /// next drawing).
    private func load(_ paths: [MKTileOverlayPath], overlay: MKTileOverlay) -> [MKTileOverlayPath: Loaded] {
        let group = DispatchGroup()
        let (wanted, asked): ([MKTileOverlayPath], Int) = cacheLock.withLock {
            let wanted = Array(Set(paths.filter { cache[$0] == nil && !loading.contains($0) }))
            loading.formUnion(wanted)
            return (wanted, generation)
        }
        for path in wanted {
            group.enter()
            overlay.loadTile(at: path) { [self] data, error in
                let tile: Loaded
                if let error {
                    tile = .failed((error as? TileFetchError)?.description ?? "\(error)")
                } else if let data {
                    do { tile = .image(try RenderImage(png: [UInt8](data))) } catch { tile = .failed("not a PNG image: \(error)") }
                } else {
                    tile = .missing
                }
                cacheLock.withLock {
                    guard generation == asked else { return }
                    cache[path] = tile
                    loading.remove(path)
                    arrived = true
                }
                group.leave()
            }
        }
        if !wanted.isEmpty, tileWait > 0 { _ = group.wait(timeout: .now() + tileWait) }
        return cacheLock.withLock {
            // What came until now is drawn by this drawing; only later tiles are new.
            arrived = false
            var found: [MKTileOverlayPath: Loaded] = [:]
            for path in paths { if let tile = cache[path] { found[path] = tile } }
            return found
        }
    }
}
