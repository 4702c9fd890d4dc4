import Foundation
import Hummingbird
import MapBundle
import MapRender
import NIOCore

/// The web map: `/` (the page, also at the Maps URL paths `/search`, `/place`, `/directions`,
/// `/frame` and `/look-around`), `/webmap/{file}` (its scripts, styles and images) and
/// `/webmap/config.json` (where the served regions are, so the page opens on the data, and
/// whether it needs an API key).
///
/// The page's files are read from the module's resources once, into memory: they are small, and
/// serving from a fixed table means a request can only ever name one of those files — a path with
/// `..`, `/` or an encoded separator is simply not a key, so there is no traversal to guard against.
struct WebMapRoutes {
    let server: MapServer

    /// The Maps URL actions the page follows (mapsurl.js reads their parameters).
    static let mapsURLActions = ["/frame", "/search", "/place", "/directions", "/look-around"]

    func register(on router: Router<ServerContext>) {
        router.get("/") { request, _ -> Response in
            try WebMapAssets.shared.response(for: "index.html", request: request)
        }
        router.get("/index.html") { request, _ -> Response in
            try WebMapAssets.shared.response(for: "index.html", request: request)
        }
        // Apple's unified Maps URLs on this host open the page, which reads what they ask for.
        for action in Self.mapsURLActions {
            router.get(RouterPath(action)) { request, _ -> Response in
                try WebMapAssets.shared.response(for: "index.html", request: request)
            }
        }
        router.get("/webmap/:file") { request, context -> Response in
            let name = context.parameters.get("file") ?? ""
            if name == "config.json" { return try configuration(request) }
            return try WebMapAssets.shared.response(for: name, request: request)
        }
    }

    /// What the page needs to open on the data: the regions' bounds and zoom range, how far the
    /// camera may go (`maxBounds`), and the styles it can switch between. Built from one registry
    /// snapshot, so it matches the tiles served.
    private func configuration(_ request: Request) throws -> Response {
        let snapshot = server.regions.snapshot
        // The page opens on each bundle's main part of the data; the camera may roam over all of it.
        let source = snapshot.combined
        let opening = source.openingBounds, everything = GeographicBounds.union(source.dataCoverage)
        var minimumZoom = 22, maximumZoom = 0
        for bundle in source.bundles {
            minimumZoom = min(minimumZoom, bundle.manifest.minimumZoom)
            maximumZoom = max(maximumZoom, bundle.manifest.maximumZoom)
        }
        if minimumZoom > maximumZoom { (minimumZoom, maximumZoom) = (0, 14) }
        struct Config: Encodable {
            let regions: [String]
            let bounds: [Double]
            /// The data's bounds with a margin: the camera stays inside, so the page shows the
            /// hatched no-data area around the data but does not invite panning far into it.
            /// Nil when the data's bounds are unknown.
            let maxBounds: [Double]?
            let minZoom: Int
            let maxZoom: Int
            let styles: [String]
            let generation: Int
            /// Whether the API and the raster tiles need a key: the page then asks for one.
            let requiresKey: Bool
        }
        let bounds: [Double] = opening.map { [$0.west, $0.south, $0.east, $0.north] } ?? [-180, -85, 180, 85]
        let config = Config(regions: snapshot.regions.map(\.name), bounds: bounds, maxBounds: everything.map { Self.cameraLimits($0) },
                            minZoom: minimumZoom, maxZoom: maximumZoom,
                            styles: WebMapAssets.styles, generation: snapshot.generation,
                            requiresKey: server.configuration.requiresKeys)
        let body = try JSONEncoder().encode(config)
        return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-cache"],
                        body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}

extension WebMapRoutes {
    /// How far the web map's camera may go around the data's bounds: the bounds' larger side (in
    /// degrees) beyond each edge, kept on the globe, so the data can be seen whole with its
    /// surroundings, a zoom level or two out from the opening view, and no farther away.
    /// [west, south, east, north].
    static func cameraLimits(_ bounds: GeographicBounds) -> [Double] {
        let margin = max(bounds.east - bounds.west, bounds.north - bounds.south)
        return [max(bounds.west - margin, -180), max(bounds.south - margin, -85), min(bounds.east + margin, 180),
                min(bounds.north + margin, 85)]
    }
}

/// The web page's files, read once from the module's resources.
final class WebMapAssets: Sendable {
    struct Asset: Sendable {
        let body: [UInt8]
        let contentType: String
        let etag: String
    }

    /// The styles the page offers: the default styles that need no imagery of their own.
    static let styles = [DefaultStyle.standard, .dark, .muted].map(\.rawValue)

    static let shared = WebMapAssets()

    let assets: [String: Asset]

    private init() {
        var assets: [String: Asset] = [:]
        let folder = Bundle.module.resourceURL?.appendingPathComponent("WebMap")
        let names = folder.flatMap { try? FileManager.default.contentsOfDirectory(atPath: $0.path) } ?? []
        for name in names where !name.hasPrefix(".") {
            guard let folder, let type = Self.contentType(for: name),
                  let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) else { continue }
            let bytes = [UInt8](data)
            assets[name] = Asset(body: bytes, contentType: type, etag: "\"\(Self.digest(bytes))\"")
        }
        self.assets = assets
    }

    /// The file `name` with revalidation: the ETag is the content's hash, so a browser asks again
    /// each time (`no-cache`) but gets a 304 with no body until the server is upgraded.
    func response(for name: String, request: Request) throws -> Response {
        guard let asset = assets[name] else {
            throw APIError.notFound("no web map file named \(QueryParameters.quoted(name))")
        }
        var headers: HTTPFields = [.contentType: asset.contentType, .cacheControl: "no-cache", .eTag: asset.etag]
        headers[.xContentTypeOptions] = "nosniff"
        if request.headers[values: .ifNoneMatch].contains(where: { $0 == asset.etag || $0 == "*" }) {
            return Response(status: .notModified, headers: headers)
        }
        if name == "index.html" {
            // The page runs only our own files; saying so stops injected markup from loading others.
            // MapLibre GL JS starts its tile workers from a blob: URL it makes from its own code.
            headers[.contentSecurityPolicy] = "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; "
                + "worker-src 'self' blob:; child-src 'self' blob:; connect-src 'self'; frame-ancestors 'none'"
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: asset.body)))
    }

    private static func contentType(for name: String) -> String? {
        switch (name as NSString).pathExtension.lowercased() {
        case "html": "text/html; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "json": "application/json; charset=utf-8"
        case "ico": "image/x-icon"
        default: nil
        }
    }

    /// FNV-1a 64: a content fingerprint for the ETag (not a security boundary).
    private static func digest(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(hash, radix: 16)
    }
}
