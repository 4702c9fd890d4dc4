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
/// The URL template's `{x}`, `{y}`, `{z}` and `{scale}` are filled from each tile's path. On Linux
/// tiles are read from files: the template is a `file://` URL or a plain path, and a path with no
/// placeholders that names a folder means `folder/{z}/{x}/{y}.png`. Other URLs (`https://…`) are
/// not fetched by the default ``loadTile(at:result:)``; a subclass that overrides it can load tiles
/// from anywhere (it may call `result` on any thread).
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
    /// ``url(forTilePath:)`` when it is a file; a missing file gives (nil, nil), as a tile the
    /// server does not have; a remote URL gives an error.
    open func loadTile(at path: MKTileOverlayPath, result: @escaping (Data?, (any Error)?) -> Void) {
        let url = url(forTilePath: path)
        guard url.isFileURL else {
            result(nil, MKError(.serverFailure, reason: "\(url.absoluteString): remote tiles are not fetched; "
                                + "override MKTileOverlay.loadTile(at:result:) to load them"))
            return
        }
        result(try? Data(contentsOf: url), nil)
    }

    /// The tile's bytes, waiting for ``loadTile(at:result:)`` up to `timeout` seconds (renderers
    /// draw synchronously; MapKit's loading is asynchronous).
    func tileData(at path: MKTileOverlayPath, timeout: TimeInterval = 30) -> Data? {
        final class Box: @unchecked Sendable { var data: Data? }
        let box = Box(), done = DispatchSemaphore(value: 0)
        loadTile(at: path) { data, _ in
            box.data = data
            done.signal()
        }
        guard done.wait(timeout: .now() + timeout) == .success else { return nil }
        return box.data
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
/// ``MKTileOverlay/minimumZ``). Missing or undecodable tiles leave their square undrawn.
///
/// Differs from MapKit: tiles are loaded while the image is drawn, waiting up to 30 seconds
/// for each, and kept until ``reloadData()``; only PNG tiles are decoded.
open class MKTileOverlayRenderer: MKOverlayRenderer, @unchecked Sendable {
    public init(tileOverlay overlay: MKTileOverlay) {
        super.init(overlay: overlay)
    }

    public override init(overlay: any MKOverlay) {
        super.init(overlay: overlay)
    }

    private let cacheLock = NSLock()
    nonisolated(unsafe) private var cache: [MKTileOverlayPath: RenderImage?] = [:]

    /// Forgets loaded tiles so the next drawing loads them again.
    open func reloadData() {
        cacheLock.withLock { cache = [:] }
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
        for y in minY...maxY {
            for x in minX...maxX {
                let wrapped = ((x % n) + n) % n
                let path = overlay.path(x: wrapped, y: y, z: z, scale: context.contentScale)
                guard let image = tile(path, overlay: overlay) else { continue }
                let origin = MKMapPoint(x: Double(x) * tileMapSize, y: Double(y) * tileMapSize)
                context.drawTile(image, mapOrigin: origin, mapSize: tileMapSize)
            }
        }
    }

    private func tile(_ path: MKTileOverlayPath, overlay: MKTileOverlay) -> RenderImage? {
        if let cached = cacheLock.withLock({ cache[path] }) { return cached }
        let image = overlay.tileData(at: path).flatMap { try? RenderImage(png: [UInt8]($0)) }
        cacheLock.withLock { cache[path] = .some(image) }
        return image
    }
}
