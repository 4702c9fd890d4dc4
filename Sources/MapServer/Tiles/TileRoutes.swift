import Foundation
import HTTPTypes
import Hummingbird
import MapFormats
import MapGeometry
import MapBundle
import NIOCore
import OpenMapKit

/// Tiles and everything a MapLibre GL client needs to draw them: TileJSON (`/tiles.json`), vector
/// tiles (`/tiles/{z}/{x}/{y}.mvt`), style documents (`/styles/{style}.json`, listed at
/// `/styles`), sprites (`/sprites/…`), glyph ranges (`/fonts/{fontstack}/{start}-{end}.pbf`) and
/// raster tiles drawn by the renderer (`/styles/{style}/{z}/{x}/{y}.png` and `@2x.png`).
///
/// Path segments are hostile input like query parameters: each is percent-decoded and checked
/// before use (no separators, no dot-segments, no control characters, bounded length), and nothing
/// here reads a file named by a request — styles, sprites and fonts are looked up by name among
/// the server's own.
struct TileRoutes {
    let server: MapServer
    let state: TileRouteState

    init(server: MapServer) {
        self.server = server
        self.state = TileRouteState(server: server)
    }

    /// The vector tile route, also the label of its metrics series (``CachedTileHandler`` answers
    /// cached tiles under the same label).
    static let vectorTileRoute = "/tiles/{z}/{x}/{file}"

    func register(on router: Router<ServerContext>) {
        router.get("/tiles.json") { request, context in try tileJSON(request, context) }
        router.get(RouterPath(Self.vectorTileRoute)) { request, context in try vectorTile(request, context) }
        StyleRoutes(server: server, state: state).register(on: router)
        RasterTileRoutes(server: server, state: state).register(on: router)
    }

    // MARK: TileJSON

    private func tileJSON(_ request: Request, _ context: ServerContext) throws -> Response {
        let query = try QueryParameters(request)
        let regionName = query["region"]
        let snapshot = server.regions.snapshot
        let source = try snapshot.source(named: regionName)
        let info = try state.metadata(for: source, key: "\(snapshot.generation)|\(regionName ?? "")")
        let base = TileRequest.baseURL(request, configuration: server.configuration)
        let suffix = TileRequest.regionQuery(regionName)
        var document: [String: Any] = [
            "tilejson": "3.0.0",
            "name": info.name,
            "attribution": info.attribution,
            "scheme": "xyz",
            "format": "pbf",
            "minzoom": info.minimumZoom,
            "maxzoom": info.maximumZoom,
            "bounds": info.bounds,
            "center": info.center,
            "vector_layers": info.vectorLayers,
            "tiles": ["\(base)/tiles/{z}/{x}/{y}.mvt\(suffix)"],
        ]
        if let description = info.description { document["description"] = description }
        let body = try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes])
        let etag = TileRequest.etag([UInt8](body), generation: snapshot.generation)
        return TileRequest.respond(request, CachedResponse(body: [UInt8](body), contentType: "application/json", etag: etag),
                                   cacheControl: TileRequest.documentCacheControl)
    }

    // MARK: Vector tiles

    private func vectorTile(_ request: Request, _ context: ServerContext) throws -> Response {
        let address = try TileAddress(context, extensions: ["mvt", "pbf"])
        let query = try QueryParameters(request)
        let regionName = query["region"]
        let snapshot = server.regions.snapshot
        let source = try snapshot.source(named: regionName)
        let key = TileRequest.vectorTileCacheKey(generation: snapshot.generation, region: regionName, z: address.z, x: address.x, y: address.y)
        let stored: CachedResponse
        if let cached = server.cache.value(for: key) {
            stored = cached
        } else {
            // An empty body stands for "no tile here", so sea tiles are answered from the cache too.
            let bytes = TileID(z: address.z, x: address.x, y: address.y).flatMap { source.vectorTile($0) } ?? []
            let gzipped = Compression.isGzip(bytes)
            stored = CachedResponse(body: bytes, contentType: "application/vnd.mapbox-vector-tile",
                                    etag: TileRequest.contentETag(bytes),
                                    contentEncoding: gzipped ? "gzip" : nil)
            server.cache.insert(stored, for: key)
        }
        guard !stored.isEmpty else {
            return Response(status: .noContent, headers: [.cacheControl: TileRequest.tileCacheControl])
        }
        if stored.contentEncoding == "gzip", !TileRequest.acceptsGzip(request) {
            // Importer tiles are stored gzipped; a client that cannot take gzip gets them inflated
            // (a distinct representation, so a distinct entity tag).
            let inflated: [UInt8]
            do { inflated = try Compression.inflate(stored.body, container: .gzip, limit: 64 << 20) } catch {
                throw APIError(.internalServerError, "tile \(address.z)/\(address.x)/\(address.y) is stored corrupt: \(error)")
            }
            let plain = CachedResponse(body: inflated, contentType: stored.contentType,
                                       etag: String(stored.etag.dropLast()) + "-identity\"")
            return TileRequest.respond(request, plain, cacheControl: TileRequest.tileCacheControl, vary: true)
        }
        return TileRequest.respond(request, stored, cacheControl: TileRequest.tileCacheControl, vary: true)
    }
}

/// State shared by the tile route groups: TileJSON facts per region generation, warm renderers,
/// glyph generators.
final class TileRouteState: @unchecked Sendable {
    /// What TileJSON says about a source, read once per region generation from the bundles'
    /// MBTiles metadata.
    struct Metadata: @unchecked Sendable {
        var name: String
        var description: String?
        var attribution: String
        var minimumZoom: Int
        var maximumZoom: Int
        var bounds: [Double]
        var center: [Double]
        var vectorLayers: [Any]
    }

    private let lock = NSLock()
    private var metadataByKey: [String: Metadata] = [:]
    let renderers: WarmRenderers
    let glyphGenerators = GlyphGeneratorPool()

    init(server: MapServer) {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        // The pool already runs `renderWorkers` tiles at once; each render's bands share what is
        // left of the cores, so the machine is used fully without oversubscribing it.
        renderers = WarmRenderers(threadsPerRender: max(1, cores / max(1, server.renderPool.workers)),
                                  idlePerStyle: server.renderPool.workers)
    }

    func metadata(for source: MapDataSource, key: String) throws -> Metadata {
        if let known = lock.withLock({ metadataByKey[key] }) { return known }
        var names: [String] = [], attribution = "© OpenStreetMap contributors", description: String?
        var minimumZoom = Int.max, maximumZoom = Int.min
        var west = 180.0, south = 85.0511, east = -180.0, north = -85.0511
        var layers: [Any] = []
        var layerIDs = Set<String>()
        for bundle in source.bundles {
            let metadata: [String: String]
            do { metadata = try bundle.tiles().metadata() } catch {
                throw APIError(.internalServerError, "cannot read the tile metadata of \(bundle.url.lastPathComponent): \(error)")
            }
            names.append(metadata["name"] ?? RegionRegistry.regionName(for: bundle.url))
            if let text = metadata["attribution"], !text.isEmpty { attribution = text }
            description = description ?? metadata["description"]
            minimumZoom = min(minimumZoom, metadata["minzoom"].flatMap { Int($0) } ?? bundle.manifest.minimumZoom)
            maximumZoom = max(maximumZoom, metadata["maxzoom"].flatMap { Int($0) } ?? bundle.manifest.maximumZoom)
            let box = (metadata["bounds"] ?? bundle.manifest.bounds ?? "").split(separator: ",").compactMap { Double($0) }
            if box.count == 4, box.allSatisfy(\.isFinite) {
                west = min(west, box[0]); south = min(south, box[1]); east = max(east, box[2]); north = max(north, box[3])
            }
            if let json = metadata["json"]?.data(using: .utf8),
               let object = try? JSONSerialization.jsonObject(with: json) as? [String: Any],
               let vectorLayers = object["vector_layers"] as? [[String: Any]] {
                for layer in vectorLayers {
                    guard let id = layer["id"] as? String, layerIDs.insert(id).inserted else { continue }
                    layers.append(layer)
                }
            }
        }
        if west > east || south > north { (west, south, east, north) = (-180, -85.0511, 180, 85.0511) }
        if minimumZoom > maximumZoom { (minimumZoom, maximumZoom) = (0, 14) }
        let centerZoom = Double(min(maximumZoom, max(minimumZoom, 12)))
        let result = Metadata(name: names.joined(separator: " + "), description: description, attribution: attribution,
                              minimumZoom: minimumZoom, maximumZoom: maximumZoom, bounds: [west, south, east, north],
                              center: [(west + east) / 2, (south + north) / 2, centerZoom], vectorLayers: layers)
        lock.withLock {
            // Old generations' entries are dropped rather than kept forever.
            if metadataByKey.count > 64 { metadataByKey.removeAll() }
            metadataByKey[key] = result
        }
        return result
    }
}

/// A tile address from the path `…/{z}/{x}/{file}` where the file is `{y}.{ext}`, optionally
/// `{y}@{n}x.{ext}` for raster tiles.
struct TileAddress: Equatable {
    var z: Int
    var x: Int
    var y: Int
    /// Device pixels per point: 1, or n for `@nx`.
    var scale: Int
    var fileExtension: String

    /// Parses and checks the address: 400 for what is not a tile address at all (non-numbers,
    /// signs, absurd lengths), 404 for numbers outside the pyramid (z > 24, x or y ≥ 2^z) or an
    /// extension not in `extensions`.
    init(_ context: ServerContext, extensions: Set<String>, scales: ClosedRange<Int> = 1...1) throws {
        let zText = try TileRequest.pathSegment(context, "z")
        let xText = try TileRequest.pathSegment(context, "x")
        let file = try TileRequest.pathSegment(context, "file")
        guard let dot = file.lastIndex(of: ".") else {
            throw APIError.notFound("\(QueryParameters.quoted(file)) is not a tile file", details: ["expected {y}.\(extensions.sorted().joined(separator: "|"))"])
        }
        let ext = String(file[file.index(after: dot)...]).lowercased()
        guard extensions.contains(ext) else {
            throw APIError.notFound("tiles here are .\(extensions.sorted().joined(separator: " or ."))", details: ["got \(QueryParameters.quoted(file))"])
        }
        var yText = file[..<dot]
        var scale = 1
        if let at = yText.firstIndex(of: "@") {
            let suffix = yText[yText.index(after: at)...]
            guard suffix.count >= 2, suffix.count <= 3, suffix.last == "x", suffix.dropLast().allSatisfy({ ("0"..."9").contains($0) }),
                  let n = Int(suffix.dropLast()) else {
                throw APIError.badRequest("\(QueryParameters.quoted(file)): the scale is written @2x")
            }
            guard scales.contains(n), scales.count > 1 else {
                throw APIError.notFound("scale @\(n)x is not served here", details: ["scales: " + scales.map { "@\($0)x" }.joined(separator: ", ")])
            }
            scale = n
            yText = yText[..<at]
        }
        func number(_ text: Substring, _ name: String) throws -> Int {
            guard !text.isEmpty, text.utf8.count <= 9, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                  let value = Int(text) else {
                throw APIError.badRequest("tile \(name) must be a non-negative integer", details: ["got \(QueryParameters.quoted(String(text)))"])
            }
            return value
        }
        z = try number(Substring(zText), "zoom")
        x = try number(Substring(xText), "column")
        y = try number(yText, "row")
        self.scale = scale
        fileExtension = ext
        guard z <= TileRequest.maximumZoom else {
            throw APIError.notFound("zoom \(z) is beyond the deepest tile zoom \(TileRequest.maximumZoom)")
        }
        guard x < 1 << z, y < 1 << z else {
            throw APIError.notFound("\(z)/\(x)/\(y) is outside the tile pyramid", details: ["at zoom \(z), x and y must be below \(1 << z)"])
        }
    }
}

/// Helpers shared by the tile, style, sprite and font routes.
enum TileRequest {
    static let maximumZoom = 24
    /// Tiles are revalidated hourly (with their ETag): bundles can be replaced while serving.
    static let tileCacheControl = "public, max-age=3600"
    /// Documents naming this server's address (TileJSON, styles) are short-lived.
    static let documentCacheControl = "public, max-age=300"
    /// Sprites and glyphs change only with the software.
    static let assetCacheControl = "public, max-age=86400"
    /// The longest path segment accepted.
    static let maximumSegmentLength = 256

    /// A path parameter, percent-decoded and checked: 400 when it cannot be decoded, is too
    /// long, or contains a separator, a dot-segment or a control character (including NUL).
    static func pathSegment(_ context: ServerContext, _ name: String) throws -> String {
        guard let raw = context.parameters.get(name) else { throw APIError.badRequest("missing path segment \(name)") }
        // Tile addresses are all plain ASCII: take those as they are, since Foundation's percent
        // decoding and the Unicode checks below cost more than the rest of a cached tile request.
        if raw.utf8.count <= maximumSegmentLength, isPlain(raw) { return raw }
        guard raw.utf8.count <= maximumSegmentLength * 3 else {
            throw APIError.badRequest("path segment \(name) is too long", details: ["at most \(maximumSegmentLength) characters"])
        }
        guard let decoded = raw.removingPercentEncoding else {
            throw APIError.badRequest("path segment \(name) is not valid percent-encoded UTF-8", details: ["got \(QueryParameters.quoted(raw))"])
        }
        guard decoded.utf8.count <= maximumSegmentLength else {
            throw APIError.badRequest("path segment \(name) is too long", details: ["at most \(maximumSegmentLength) characters"])
        }
        guard !decoded.contains("/"), !decoded.contains("\\"), !decoded.contains(".."),
              !decoded.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw APIError.badRequest("path segment \(name) contains a separator, a dot-segment or a control character",
                                      details: ["got \(QueryParameters.quoted(decoded))"])
        }
        return decoded
    }

    /// Whether `segment` needs no decoding or checking: letters, digits, `-`, `_`, `@`, `+`, `,`
    /// and single dots, so no escapes, separators, dot-segments or control characters.
    private static func isPlain(_ segment: String) -> Bool {
        var previous: UInt8 = 0
        for byte in segment.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"),
                 UInt8(ascii: "@"), UInt8(ascii: "+"), UInt8(ascii: ","):
                break
            case UInt8(ascii: "."):
                if previous == UInt8(ascii: ".") { return false }
            default:
                return false
            }
            previous = byte
        }
        return true
    }

    /// `scheme://host[:port]` of this server as the client reached it: the request's authority
    /// (Host header) and `X-Forwarded-Proto` when a proxy says https; the configured address when
    /// the request names none or names something that is not a host.
    static func baseURL(_ request: Request, configuration: ServerConfiguration) -> String {
        let forwarded = header(request, "x-forwarded-proto")?.split(separator: ",").first?
            .trimmingCharacters(in: .whitespaces).lowercased()
        let scheme = forwarded == "https" ? "https" : "http"
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:[]_")
        if let host = request.head.authority ?? header(request, "host"),
           !host.isEmpty, host.count <= 255, host.allSatisfy({ allowed.contains($0) }) {
            return "\(scheme)://\(host)"
        }
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        return "\(scheme)://\(host):\(configuration.port)"
    }

    /// A header's value by its lower-case name (for names HTTPTypes has no constant for).
    static func header(_ request: Request, _ name: String) -> String? {
        request.headers.first { $0.name.canonicalName == name }?.value
    }

    /// `?region=NAME` for URLs the client will call back, or nothing.
    static func regionQuery(_ region: String?) -> String {
        guard let region else { return "" }
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+#")
        return "?region=" + (region.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")
    }

    /// A tile's strong entity tag: its content's SHA-256, whatever the regions' generation, so
    /// that after an update from change files only the tiles that changed get new tags and a
    /// client's cached copies of the others stay valid.
    static func contentETag(_ body: [UInt8]) -> String {
        let digest = MessageAuthentication.sha256(body).prefix(12)
        return "\"t" + digest.map { String($0 >> 4, radix: 16) + String($0 & 15, radix: 16) }.joined() + "\""
    }

    /// A strong entity tag for `body` served from region generation `generation`.
    static func etag(_ body: [UInt8], generation: Int) -> String {
        "\"\(generation)-\(String(Compression.crc32(body), radix: 16))-\(String(body.count, radix: 16))\""
    }

    /// The response cache's key for a vector tile.
    static func vectorTileCacheKey(generation: Int, region: String?, z: Int, x: Int, y: Int) -> String {
        "mvt|\(generation)|\(region ?? "")|\(z)/\(x)/\(y)"
    }

    /// The response cache's key for a raster tile of a style.
    static func rasterTileCacheKey(generation: Int, region: String?, style: String, z: Int, x: Int, y: Int, scale: Int) -> String {
        "png|\(generation)|\(region ?? "")|\(style)|\(z)/\(x)/\(y)@\(scale)"
    }

    /// Whether the client takes `Content-Encoding: gzip` (and did not refuse it with q=0).
    static func acceptsGzip(_ request: Request) -> Bool {
        guard let header = request.headers[.acceptEncoding] else { return false }
        return acceptsGzip(header)
    }

    /// Whether an `Accept-Encoding` value takes gzip (and does not refuse it with q=0).
    static func acceptsGzip(_ header: String) -> Bool {
        // Read as bytes without allocating: this runs for every cached tile, and Foundation's
        // trimming and per-item strings showed up in that path on Linux.
        func trimmed(_ bytes: Substring.UTF8View) -> Substring.UTF8View {
            var bytes = bytes
            while let first = bytes.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { bytes.removeFirst() }
            while let last = bytes.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { bytes.removeLast() }
            return bytes
        }
        func equalsIgnoringCase(_ bytes: Substring.UTF8View, _ lowercase: StaticString) -> Bool {
            guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
            return zip(bytes, UnsafeBufferPointer(start: lowercase.utf8Start, count: lowercase.utf8CodeUnitCount))
                .allSatisfy { ($0 | 0x20) == $1 || $0 == $1 }
        }
        for item in header.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
            var parts = item.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false)[...]
            guard let first = parts.popFirst() else { continue }
            let coding = trimmed(Substring(first).utf8)
            guard equalsIgnoringCase(coding, "gzip") || equalsIgnoringCase(coding, "*") else { continue }
            let refused = parts.contains { part in
                let parameter = trimmed(Substring(part).utf8)
                guard parameter.count >= 2, parameter.first! | 0x20 == UInt8(ascii: "q"),
                      parameter[parameter.index(after: parameter.startIndex)] == UInt8(ascii: "=") else { return false }
                return Double(String(Substring(parameter.dropFirst(2)))) == 0
            }
            if !refused { return true }
        }
        return false
    }

    /// Whether `If-None-Match` names `etag` (or is `*`).
    static func notModified(_ request: Request, etag: String) -> Bool {
        guard let header = request.headers[.ifNoneMatch] else { return false }
        return notModified(header, etag: etag)
    }

    /// Whether an `If-None-Match` value names `etag` (or is `*`).
    static func notModified(_ header: String, etag: String) -> Bool {
        for tag in header.split(separator: ",") {
            var tag = tag.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            if tag == etag { return true }
        }
        return false
    }

    /// 304 when the client has this version, else 200 with the body, its type, entity tag and
    /// caching headers.
    static func respond(_ request: Request, _ entry: CachedResponse, cacheControl: String, vary: Bool = false) -> Response {
        let notModified = notModified(request, etag: entry.etag)
        var headers = HTTPFields()
        forEachHeader(of: entry, cacheControl: cacheControl, vary: vary, notModified: notModified) { headers[$0] = $1 }
        return notModified ? Response(status: .notModified, headers: headers)
            : Response(status: .ok, headers: headers, body: .init(byteBuffer: entry.buffer))
    }

    /// The headers of an answer from the cache, in order: entity tag, caching, `Vary` when the
    /// representation depends on `Accept-Encoding`, and unless the answer is a 304 the body's
    /// type and encoding. ``respond(_:_:cacheControl:vary:)`` and ``CachedTileHandler`` both
    /// write these, so the two paths cannot send different headers.
    static func forEachHeader(of entry: CachedResponse, cacheControl: String, vary: Bool, notModified: Bool,
                              _ body: (HTTPField.Name, String) -> Void) {
        body(.eTag, entry.etag)
        body(.cacheControl, cacheControl)
        if vary { body(.vary, "Accept-Encoding") }
        guard !notModified else { return }
        body(.contentType, entry.contentType)
        if let encoding = entry.contentEncoding { body(.contentEncoding, encoding) }
    }
}
