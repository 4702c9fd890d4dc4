import Dispatch
import Foundation
import Hummingbird
import MapFormats
import MapGeometry
import MapRender
import MapStyle
import OpenMapKit

/// `/styles/{style}/{z}/{x}/{y}.png` and `{y}@2x.png`: 256-point raster tiles of the default
/// styles, drawn on the server's render pool and kept in its response cache.
struct RasterTileRoutes {
    let server: MapServer
    let state: TileRouteState

    /// The tiles' size in points (the XYZ convention of Leaflet, OpenLayers and MapKit's tile overlays).
    static let tileSize = 256
    /// Device-pixel scales served: `{y}.png`, `{y}@2x.png`, `{y}@3x.png`.
    static let scales = 1...3

    /// The route, also the label of its metrics series (``CachedTileHandler`` answers cached tiles
    /// under the same label).
    static let route = "/styles/{style}/{z}/{x}/{file}"

    func register(on router: Router<ServerContext>) {
        router.get(RouterPath(Self.route)) { request, context in try await rasterTile(request, context) }
    }

    private func rasterTile(_ request: Request, _ context: ServerContext) async throws -> Response {
        let styleName = try TileRequest.pathSegment(context, "style")
        let address = try TileAddress(context, extensions: ["png"], scales: Self.scales)
        let query = try QueryParameters(request)
        let regionName = query["region"]
        let snapshot = server.regions.snapshot
        let source = try snapshot.source(named: regionName)
        let style = try StyleRoutes.style(named: styleName, for: source)
        guard Self.tileSize * address.scale <= server.configuration.maximumImageSide else {
            throw APIError.badRequest("a tile at @\(address.scale)x would be larger than this server's image limit",
                                      details: ["at most \(server.configuration.maximumImageSide) pixels a side"])
        }
        let key = TileRequest.rasterTileCacheKey(generation: snapshot.generation, region: regionName, style: style.rawValue,
                                                 z: address.z, x: address.x, y: address.y, scale: address.scale)
        if let cached = server.cache.value(for: key) {
            return TileRequest.respond(request, cached, cacheControl: TileRequest.tileCacheControl)
        }
        let rendererKey = WarmRenderers.Key(style: style.rawValue, region: regionName ?? "", generation: snapshot.generation)
        let renderers = state.renderers
        let result: Result<[UInt8], TileRenderError> = try await server.renderPool.run {
            do {
                return try renderers.withRenderer(rendererKey, make: { try Self.makeRenderer(style: style, source: source) }) { renderer in
                    Result { () throws(TileRenderError) in
                        try renderer.pngData(z: address.z, x: address.x, y: address.y, tileSize: Self.tileSize, scale: Double(address.scale))
                    }
                }
            } catch {
                return .failure(.render("cannot prepare the \(style.rawValue) style: \(error)"))
            }
        }
        let png: [UInt8]
        switch result {
        case .success(let bytes): png = bytes
        case .failure(.invalidTile(let z, let x, let y)): throw APIError.notFound("\(z)/\(x)/\(y) is outside the tile pyramid")
        case .failure(let error): throw APIError(.internalServerError, "cannot draw tile \(address.z)/\(address.x)/\(address.y): \(error)")
        }
        let entry = CachedResponse(body: png, contentType: "image/png", etag: TileRequest.contentETag(png))
        server.cache.insert(entry, for: key)
        return TileRequest.respond(request, entry, cacheControl: TileRequest.tileCacheControl)
    }

    /// A tile renderer of `style` reading `source`'s tiles, its sprite from the default styles'
    /// resources and, for hybrid and imagery, the source's imagery overlay.
    static func makeRenderer(style: DefaultStyle, source: MapDataSource) throws -> TileRenderer {
        let imagery = source.imagery
        let loader = StyleResourceLoader(tile: { sourceID, id in
            if sourceID == DefaultStyle.imagerySourceID {
                guard let imagery else { return nil }
                return Self.imageryTile(imagery, id: id, scale: 1)
            }
            return source.vectorTile(id)
        }, resource: { url in DefaultStyle.resource(url) })
        return try TileRenderer(style: style.makeStyle(extrudedBuildings: false, dataBounds: source.dataBounds), loader: loader)
    }

    /// An imagery tile, waiting for the overlay's asynchronous loading (renderers draw synchronously).
    private static func imageryTile(_ overlay: MKTileOverlay, id: TileID, scale: Double) -> [UInt8]? {
        final class Box: @unchecked Sendable { var data: Data? }
        let box = Box(), done = DispatchSemaphore(value: 0)
        let y = overlay.isGeometryFlipped ? (1 << id.z) - 1 - id.y : id.y
        overlay.loadTile(at: MKTileOverlayPath(x: id.x, y: y, z: id.z, contentScaleFactor: CGFloat(scale))) { data, _ in
            box.data = data
            done.signal()
        }
        guard done.wait(timeout: .now() + 30) == .success else { return nil }
        return box.data.map { [UInt8]($0) }
    }
}

/// Tile renderers kept between requests, by style, region and region generation.
///
/// Making a renderer compiles the whole style, and a warm one keeps decoded vector tiles, shaped
/// labels and opened fonts, so tiles are drawn by renderers taken from here. A renderer is not
/// thread-safe, so each is lent to one render at a time; at most as many stay idle per style as
/// the pool has workers. Renderers of an older region generation are dropped as soon as a newer
/// one is seen (they hold the replaced bundle's tiles).
///
/// A renderer keeps every tile it has decoded (StyleRenderer's caches have no bound), so one that
/// has drawn ``maximumUses`` tiles is let go and replaced: memory stays flat however many
/// distinct tiles are asked for, at the cost of compiling the style again now and then.
final class WarmRenderers: @unchecked Sendable {
    struct Key: Hashable {
        var style: String
        var region: String
        var generation: Int
    }

    /// Band threads each render may draw with (``StyleRenderer/maximumThreads``).
    let threadsPerRender: Int
    let idlePerStyle: Int
    private let lock = NSLock()
    /// Tiles a renderer draws before it is replaced.
    let maximumUses: Int
    private final class Warm {
        let renderer: TileRenderer
        var uses = 0
        init(_ renderer: TileRenderer) { self.renderer = renderer }
    }
    private var idle: [Key: [Warm]] = [:]
    private var newestGeneration = 0
    private(set) var created = 0

    init(threadsPerRender: Int, idlePerStyle: Int, maximumUses: Int = 256) {
        self.threadsPerRender = max(1, threadsPerRender)
        self.idlePerStyle = max(1, idlePerStyle)
        self.maximumUses = max(1, maximumUses)
    }

    /// Runs `body` with an idle renderer for `key`, or a new one from `make`, and keeps it after.
    func withRenderer<T>(_ key: Key, make: () throws -> TileRenderer, _ body: (TileRenderer) throws -> T) throws -> T {
        let warm: Warm
        if let idleOne = lock.withLock({ idle[key]?.popLast() }) {
            warm = idleOne
        } else {
            let renderer = try make()
            renderer.renderer.maximumThreads = threadsPerRender
            warm = Warm(renderer)
            lock.withLock { created += 1 }
        }
        warm.uses += 1
        defer { giveBack(warm, key) }
        return try body(warm.renderer)
    }

    private func giveBack(_ warm: Warm, _ key: Key) {
        guard warm.uses < maximumUses else { return }
        lock.withLock {
            if key.generation > newestGeneration {
                newestGeneration = key.generation
                idle = idle.filter { $0.key.generation >= key.generation }
            }
            guard key.generation == newestGeneration, idle[key, default: []].count < idlePerStyle else { return }
            idle[key, default: []].append(warm)
        }
    }

    /// How many renderers wait idle (for tests).
    var idleCount: Int { lock.withLock { idle.values.reduce(0) { $0 + $1.count } } }
}
