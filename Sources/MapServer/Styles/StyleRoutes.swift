import Foundation
import Hummingbird
import MapFormats
import MapRender
import MapStyle
import NIOCore
import OpenMapKit

/// `/styles`, `/styles/{style}.json`, `/sprites/{name}[@2x].{json,png}` and
/// `/fonts/{fontstack}/{start}-{end}.pbf`: the default styles as documents MapLibre GL JS loads
/// unchanged, with every resource they name served from here. `?elevation=realistic` serves a
/// style with its buildings standing (MapKit's `MKMapConfiguration.ElevationStyle.realistic`).
struct StyleRoutes {
    let server: MapServer
    let state: TileRouteState

    func register(on router: Router<ServerContext>) {
        router.get("/styles") { request, _ in try styleList(request) }
        // The same capture name as the raster tiles' `/styles/:style/…`: the router's tree allows one per position.
        router.get("/styles/:style") { request, context in try styleDocument(request, context) }
        router.get("/sprites/:file") { request, context in try sprite(request, context) }
        router.get("/fonts/:fontstack/:range") { request, context in try await glyphs(request, context) }
    }

    /// The styles a source can draw: the vector ones always, hybrid and imagery only with imagery.
    static func available(for source: MapDataSource) -> [DefaultStyle] {
        DefaultStyle.allCases.filter { ($0 != .hybrid && $0 != .imagery) || source.imagery != nil }
    }

    /// The style named `name` for `source`; 404 naming the choices otherwise.
    static func style(named name: String, for source: MapDataSource) throws -> DefaultStyle {
        let choices = available(for: source).map(\.rawValue).joined(separator: ", ")
        guard let style = DefaultStyle(rawValue: name) else {
            throw APIError.notFound("no style named \(QueryParameters.quoted(name))", details: ["styles: \(choices)"])
        }
        guard available(for: source).contains(style) else {
            throw APIError.notFound("the \(name) style needs imagery tiles, and this server has none configured", details: ["styles: \(choices)"])
        }
        return style
    }

    private func styleList(_ request: Request) throws -> Response {
        let query = try QueryParameters(request)
        let snapshot = server.regions.snapshot
        let source = try snapshot.source(named: query["region"])
        let base = TileRequest.baseURL(request, configuration: server.configuration)
        let region = TileRequest.regionQuery(query["region"])
        let list: [[String: Any]] = Self.available(for: source).map { style in
            let name = (try? JSONValue.parse(style.json))?["name"]?.stringValue ?? style.rawValue
            return ["id": style.rawValue, "name": name, "version": 8, "url": "\(base)/styles/\(style.rawValue).json\(region)",
                    "tiles": "\(base)/styles/\(style.rawValue)/{z}/{x}/{y}.png\(region)"]
        }
        let body = [UInt8](try JSONSerialization.data(withJSONObject: list, options: [.sortedKeys, .withoutEscapingSlashes]))
        return TileRequest.respond(request, CachedResponse(body: body, contentType: "application/json",
                                                           etag: TileRequest.etag(body, generation: snapshot.generation)),
                                   cacheControl: TileRequest.documentCacheControl)
    }

    private func styleDocument(_ request: Request, _ context: ServerContext) throws -> Response {
        let file = try TileRequest.pathSegment(context, "style")
        guard file.hasSuffix(".json") else {
            throw APIError.notFound("styles are served as {style}.json", details: ["got \(QueryParameters.quoted(file))"])
        }
        let query = try QueryParameters(request)
        let regionName = query["region"]
        let snapshot = server.regions.snapshot
        let source = try snapshot.source(named: regionName)
        let style = try Self.style(named: String(file.dropLast(5)), for: source)
        let base = TileRequest.baseURL(request, configuration: server.configuration)
        // MapKit's elevation style: `realistic` stands buildings up as extrusions (seen pitched).
        let elevation = query["elevation"] ?? "flat"
        guard ["flat", "realistic"].contains(elevation) else {
            throw APIError.badRequest("elevation is flat or realistic", details: ["got \(QueryParameters.quoted(elevation))"])
        }
        let extruded = elevation == "realistic"
        let key = "style|\(snapshot.generation)|\(style.rawValue)|\(base)|\(regionName ?? "")|\(elevation)"
        if let cached = server.cache.value(for: key) {
            return TileRequest.respond(request, cached, cacheControl: TileRequest.documentCacheControl)
        }
        let body = try Self.servedDocument(style, base: base, region: regionName, imagery: source.imagery, extrudedBuildings: extruded,
                                           dataBounds: source.dataBounds)
        let entry = CachedResponse(body: body, contentType: "application/json", etag: TileRequest.etag(body, generation: snapshot.generation))
        server.cache.insert(entry, for: key)
        return TileRequest.respond(request, entry, cacheControl: TileRequest.documentCacheControl)
    }

    /// The style's document with its `openmapkit://` and `bundle://` addresses replaced by this
    /// server's URLs (`base` is `scheme://host:port`), so a MapLibre client can load it as is.
    /// With `extrudedBuildings`, buildings are a `fill-extrusion` layer; the world outside
    /// `dataBounds` (the region's bundles' bounds) is hatched as having no data
    /// (``DefaultStyle/json(extrudedBuildings:dataBounds:)``).
    static func servedDocument(_ style: DefaultStyle, base: String, region: String?, imagery: MKTileOverlay?,
                               extrudedBuildings: Bool = false, dataBounds: [MKMapRect] = []) throws -> [UInt8] {
        guard case .object(var root) = try JSONValue.parse(style.json(extrudedBuildings: extrudedBuildings, dataBounds: dataBounds)) else {
            throw APIError(.internalServerError, "the \(style.rawValue) style is not a JSON object")
        }
        if let sprite = root["sprite"]?.stringValue, let name = sprite.split(separator: "/").last {
            root.set("sprite", .string("\(base)/sprites/\(name)"))
        }
        root.set("glyphs", .string("\(base)/fonts/{fontstack}/{range}.pbf"))
        if case .object(let sources)? = root["sources"] {
            var rewritten = JSONObject()
            for (id, value) in sources.members {
                if id == DefaultStyle.vectorSourceID {
                    rewritten.set(id, .object(JSONObject([
                        ("type", .string("vector")),
                        ("url", .string("\(base)/tiles.json\(TileRequest.regionQuery(region))")),
                    ])))
                } else if id == DefaultStyle.imagerySourceID, case .object(var imagerySource) = value {
                    // Only remote imagery can be named to a browser; the server does not proxy files.
                    guard let template = imagery?.urlTemplate, template.hasPrefix("http://") || template.hasPrefix("https://") else {
                        throw APIError.notFound("the \(style.rawValue) style needs imagery tiles a browser can load (an http(s) URL template)")
                    }
                    imagerySource.set("tiles", .array([.string(template)]))
                    rewritten.set(id, .object(imagerySource))
                } else {
                    rewritten.set(id, value)
                }
            }
            root.set("sources", .object(rewritten))
        }
        var text = ""
        JSONText.write(.object(root), into: &text)
        return Array(text.utf8)
    }

    /// The sprite the default styles name (`openmapkit://sprites/default`).
    static let spriteURL = (try? JSONValue.parse(DefaultStyle.standard.json))?["sprite"]?.stringValue ?? "openmapkit://sprites/default"

    private func sprite(_ request: Request, _ context: ServerContext) throws -> Response {
        let file = try TileRequest.pathSegment(context, "file")
        let spriteURL = Self.spriteURL
        let prefix = spriteURL.lastIndex(of: "/").map { String(spriteURL[...$0]) } ?? ""
        guard let dot = file.lastIndex(of: "."), ["json", "png"].contains(String(file[file.index(after: dot)...])),
              let bytes = DefaultStyle.resource(prefix + file) else {
            let name = spriteURL.split(separator: "/").last.map(String.init) ?? "default"
            throw APIError.notFound("no sprite file \(QueryParameters.quoted(file))",
                                    details: ["sprite files: \(name).json, \(name).png, \(name)@2x.json, \(name)@2x.png"])
        }
        let type = file.hasSuffix(".png") ? "image/png" : "application/json"
        return TileRequest.respond(request, CachedResponse(body: bytes, contentType: type, etag: TileRequest.etag(bytes, generation: 0)),
                                   cacheControl: TileRequest.assetCacheControl)
    }

    private func glyphs(_ request: Request, _ context: ServerContext) async throws -> Response {
        let fontStack = try TileRequest.pathSegment(context, "fontstack")
        let rangeText = try TileRequest.pathSegment(context, "range")
        guard rangeText.hasSuffix(".pbf") else {
            throw APIError.notFound("glyph ranges are served as {start}-{end}.pbf", details: ["got \(QueryParameters.quoted(rangeText))"])
        }
        let bounds = rangeText.dropLast(4).split(separator: "-", omittingEmptySubsequences: false)
        guard bounds.count == 2, bounds.allSatisfy({ !$0.isEmpty && $0.count <= 6 && $0.allSatisfy { ("0"..."9").contains($0) } }),
              let start = Int(bounds[0]), let end = Int(bounds[1]) else {
            throw APIError.badRequest("a glyph range is {start}-{end}.pbf with two numbers", details: ["got \(QueryParameters.quoted(rangeText))"])
        }
        do { _ = try GlyphRangeGenerator.validatedStart(start: start, end: end) } catch {
            throw APIError.badRequest(error.description)
        }
        let key = "glyphs|\(fontStack)|\(start)"
        if let cached = server.cache.value(for: key) {
            return TileRequest.respond(request, cached, cacheControl: TileRequest.assetCacheControl)
        }
        let generators = state.glyphGenerators
        let result: Result<[UInt8], GlyphRangeError> = try await server.renderPool.run {
            generators.withGenerator { generator in Result { () throws(GlyphRangeError) in try generator.range(fontStack: fontStack, start: start) } }
        }
        let body: [UInt8]
        switch result {
        case .success(let bytes): body = bytes
        case .failure(.fontLibrary(let reason)): throw APIError(.internalServerError, reason)
        case .failure(let error): throw APIError.badRequest(error.description)
        }
        let entry = CachedResponse(body: body, contentType: "application/x-protobuf", etag: TileRequest.etag(body, generation: 0))
        server.cache.insert(entry, for: key)
        return TileRequest.respond(request, entry, cacheControl: TileRequest.assetCacheControl)
    }
}

/// Glyph generators kept between requests, each used by one thread at a time (their FreeType
/// faces stay open, so later ranges of the same fonts start at once).
final class GlyphGeneratorPool: @unchecked Sendable {
    private let lock = NSLock()
    private var idle: [GlyphRangeGenerator] = []

    func withGenerator<T>(_ body: (GlyphRangeGenerator) -> T) -> T {
        let generator = lock.withLock { idle.popLast() } ?? GlyphRangeGenerator()
        defer { lock.withLock { if idle.count < 8 { idle.append(generator) } } }
        return body(generator)
    }
}

/// JSON text of a ``JSONValue``, keys in document order (layer order and readability survive).
enum JSONText {
    static func write(_ value: JSONValue, into text: inout String) {
        switch value {
        case .null: text += "null"
        case .bool(let flag): text += flag ? "true" : "false"
        case .number(let number):
            if number == number.rounded(), abs(number) < 1e15 { text += String(Int64(number)) }
            else if number.isFinite { text += "\(number)" }
            else { text += "null" }
        case .string(let string): quote(string, into: &text)
        case .array(let items):
            text += "["
            for (index, item) in items.enumerated() {
                if index > 0 { text += "," }
                write(item, into: &text)
            }
            text += "]"
        case .object(let object):
            text += "{"
            for (index, member) in object.members.enumerated() {
                if index > 0 { text += "," }
                quote(member.key, into: &text)
                text += ":"
                write(member.value, into: &text)
            }
            text += "}"
        }
    }

    static func quote(_ string: String, into text: inout String) {
        text += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            default:
                if scalar.value < 0x20 {
                    text += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
                } else {
                    text.unicodeScalars.append(scalar)
                }
            }
        }
        text += "\""
    }
}
