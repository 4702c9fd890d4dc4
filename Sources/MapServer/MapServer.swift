import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import OpenMapKit

/// The request context every route sees.
public struct ServerContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The API key that authorised the request, when keys are configured (see ``APIKeyMiddleware``).
    public var apiKey: String?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        apiKey = nil
    }
}

/// How `openmapkit serve` runs: address, limits, caches, security.
public struct ServerConfiguration: Sendable {
    /// The address to listen on; loopback by default so nothing is exposed unless asked.
    public var host = "127.0.0.1"
    public var port = 8080
    /// Origins allowed to call the server from a browser: empty for none (same-origin only),
    /// `["*"]` for any, or a list of origins such as `https://example.com`.
    public var corsAllowedOrigins: [String] = []
    /// API keys and their rate limits; empty (with no ``mapsKeys``) leaves the API open (the loopback default).
    public var apiKeys: [APIKey] = []
    /// Maps keys teams registered (Apple's flow: signed JWTs and signed snapshot URLs); empty
    /// (with no ``apiKeys``) leaves the API open.
    public var mapsKeys: [MapsKey] = []
    /// Whether requests to the API need a key, an access token or a signature.
    public var requiresKeys: Bool { !apiKeys.isEmpty || !mapsKeys.isEmpty }
    /// Concurrent renders (tiles and snapshots): the cores by default.
    public var renderWorkers = ProcessInfo.processInfo.activeProcessorCount
    /// Renders allowed to wait for a worker; beyond it the server answers 503 at once.
    public var renderQueueLimit = 64
    /// Memory budget of the rendered-image cache.
    public var cacheBytes = 256 << 20
    /// The request log's format.
    public var requestLog: RequestLogFormat = .text
    /// The largest side of a rendered image in pixels (snapshots and raster tiles, after scale).
    public var maximumImageSide = 4096
    /// Whether vector and raster tiles already in the cache are answered on the event loop in
    /// front of the router (``CachedTileHandler``): the same answers at about three times the
    /// rate. Off sends every request through the router; tests compare the two.
    public var answersCachedTilesBeforeRouter = true
    /// How long a client has, from connecting and from the end of each request it sent, to send
    /// the next request's head whole (``RequestHeadDeadline``): slow clients and silent keep-alive
    /// connections are closed after it.
    public var requestHeadTimeout: TimeAmount = .seconds(30)
    /// The folder holding the web map's browser libraries (`maplibre/srcjs/`); nil looks in
    /// `$OPENMAPKIT_WEB_LIBRARIES` and `.build/web` beside the executable (see `WebLibraries`).
    public var webLibraries: URL?

    public init() {}
}

/// OpenMapKit's HTTP server: tiles, styles, glyphs and sprites, raster tiles and static snapshots,
/// the Apple Maps Server API's `/v1` endpoints, operations endpoints and the web map page — over
/// the bundles in a ``RegionRegistry``.
///
/// The route groups are small types that each own one family of endpoints and register them on
/// the router; they share this object's services (render pool, cache, metrics). Build an
/// application with ``application()`` and run it, or call ``run()`` which also handles SIGTERM and
/// SIGINT by finishing the requests in flight and stopping.
public final class MapServer: Sendable {
    public let configuration: ServerConfiguration
    public let regions: RegionRegistry
    public let renderPool: RenderPool
    public let cache: ResponseCache
    public let metrics: ServerMetrics
    /// Metrics and the log line for each answered request, whichever path answered it.
    let requestLog: RequestLog

    public init(configuration: ServerConfiguration, regions: RegionRegistry, logOutput: RequestLogOutput = RequestLogOutput()) {
        self.configuration = configuration
        self.regions = regions
        self.renderPool = RenderPool(workers: configuration.renderWorkers, queueLimit: configuration.renderQueueLimit)
        self.cache = ResponseCache(budget: configuration.cacheBytes)
        self.metrics = ServerMetrics()
        self.requestLog = RequestLog(metrics: metrics, format: configuration.requestLog, output: logOutput)
    }

    /// The router with every endpoint and middleware.
    public func router() -> Router<ServerContext> {
        // HEAD answers like GET without the body (caches, link checkers and `curl -I` use it).
        let router = Router(context: ServerContext.self, options: .autoGenerateHeadEndpoints)
        // Order matters: metrics see the final status, errors become JSON before metrics count
        // them, CORS headers go on error bodies too, keys are checked before any work is done.
        router.add(middleware: RequestMetricsMiddleware(log: requestLog))
        if let cors = corsMiddleware() { router.add(middleware: cors) }
        router.add(middleware: ErrorMiddleware())
        if configuration.requiresKeys { router.add(middleware: APIKeyMiddleware(keys: configuration.apiKeys, mapsKeys: configuration.mapsKeys)) }

        OperationsRoutes(server: self).register(on: router)
        TileRoutes(server: self).register(on: router)
        SnapshotRoutes(server: self).register(on: router)
        LookAroundRoutes(server: self).register(on: router)
        MapsAPIRoutes(server: self).register(on: router)
        WebMapRoutes(server: self).register(on: router)
        MapKitJSRoutes().register(on: router)
        WebLibraries(configured: configuration.webLibraries).register(on: router)
        return router
    }

    /// The Hummingbird application listening at the configured address; `onServerRunning` gets
    /// the port it bound (useful with port 0, which picks a free one).
    public func application(onServerRunning: @escaping @Sendable (_ port: Int) async -> Void = { _ in }) -> some ApplicationProtocol {
        var logger = Logger(label: "openmapkit.serve")
        logger.logLevel = .info
        let configuration = self.configuration
        let serverName = "OpenMapKit"
        // Hummingbird's HTTP/1 channel, with a deadline on request heads (RequestHeadDeadline)
        // and cached tiles answered on the event loop in front of the router (CachedTileHandler).
        let server = HTTPServerBuilder { responder in
            ServerHTTP1Channel(http1: HTTP1Channel(responder: responder), server: self, serverName: serverName)
        }
        return Application(router: router(), server: server,
                           configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: serverName),
                           onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? configuration.port) },
                           logger: logger)
    }

    /// Serves until SIGTERM or SIGINT, then finishes the requests in flight and returns.
    public func run(onServerRunning: @escaping @Sendable (_ port: Int) async -> Void = { _ in }) async throws {
        try await application(onServerRunning: onServerRunning).runService()
    }

    private func corsMiddleware() -> CORSPolicy? {
        configuration.corsAllowedOrigins.isEmpty ? nil : CORSPolicy(allowedOrigins: configuration.corsAllowedOrigins)
    }
}

/// `/healthz` and `/metrics`.
struct OperationsRoutes {
    let server: MapServer

    func register(on router: Router<ServerContext>) {
        router.get("/healthz") { _, _ -> Response in
            let snapshot = server.regions.snapshot
            struct Health: Encodable { let status: String; let regions: [String]; let generation: Int }
            let body = try JSONEncoder().encode(Health(status: "ok", regions: snapshot.regions.map(\.name), generation: snapshot.generation))
            return Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                            body: .init(byteBuffer: ByteBuffer(bytes: body)))
        }
        router.get("/metrics") { _, _ -> Response in
            let pool = server.renderPool.statistics
            let cache = server.cache.statistics
            let text = server.metrics.exposition(gauges: [
                ("openmapkit_render_running", "Renders running now.", Double(pool.running)),
                ("openmapkit_render_queued", "Renders waiting for a worker.", Double(pool.queued)),
                ("openmapkit_render_completed_total", "Renders finished.", Double(pool.completed)),
                ("openmapkit_render_rejected_total", "Renders refused with 503 because the queue was full.", Double(pool.rejected)),
                ("openmapkit_cache_entries", "Rendered images in the cache.", Double(cache.entries)),
                ("openmapkit_cache_bytes", "Bytes held by the rendered-image cache.", Double(cache.bytes)),
                ("openmapkit_cache_hits_total", "Cache lookups that found an image.", Double(cache.hits)),
                ("openmapkit_cache_misses_total", "Cache lookups that did not.", Double(cache.misses)),
                ("openmapkit_http_answered_before_router_total", "Cached tiles answered on the event loop, in front of the router.",
                 Double(server.metrics.answeredBeforeRouter)),
                ("openmapkit_region_generation", "Bumped each time a region is replaced.", Double(server.regions.snapshot.generation)),
            ])
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                            body: .init(byteBuffer: ByteBuffer(string: text)))
        }
    }
}
