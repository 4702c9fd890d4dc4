import Foundation

/// A TileJSON document (versions 2 and 3) as far as drawing needs it: where the tiles are and
/// which of them exist. `vector_layers`, `center`, `name` and the rest are not read.
///
/// Reading it checks it: a document that is not a JSON object, or has no tile template, is an
/// error; members of the wrong type are ignored as if absent. Relative tile templates are
/// resolved against the document's own URL, as MapLibre does.
public struct TileJSON: Sendable, Equatable {
    /// Tile URL templates with `{z}/{x}/{y}` tokens, relative ones resolved.
    public var tiles: [String]
    /// The zoom range the tiles exist at; nil when the document does not say.
    public var minzoom: Double?
    public var maxzoom: Double?
    /// [west, south, east, north] in degrees.
    public var bounds: [Double]?
    /// "xyz" or "tms".
    public var scheme: String?
    /// The credit the tiles need (HTML).
    public var attribution: String?

    /// Reads a TileJSON document fetched from `url` (nil when its address is unknown; relative
    /// templates then stay as written).
    public init(bytes: [UInt8], url: URL?) throws(TileJSONError) {
        let document: JSONValue
        do { document = try JSONValue.parse(bytes) } catch {
            throw TileJSONError("not JSON: \(error.description)")
        }
        guard let object = document.objectValue else { throw TileJSONError("not a JSON object") }
        let templates = object["tiles"]?.arrayValue?.compactMap(\.stringValue) ?? []
        guard !templates.isEmpty else { throw TileJSONError("no \"tiles\" templates") }
        tiles = templates.map { template in
            guard let url, !template.contains("://") else { return template }
            // The braces of {z}/{x}/{y} are not legal in a URL: resolve with them percent-encoded, then restore them.
            let encoded = template.replacingOccurrences(of: "{", with: "%7B").replacingOccurrences(of: "}", with: "%7D")
            guard let resolved = URL(string: encoded, relativeTo: url)?.absoluteString else { return template }
            return resolved.replacingOccurrences(of: "%7B", with: "{").replacingOccurrences(of: "%7D", with: "}")
        }
        minzoom = object["minzoom"]?.numberValue.flatMap { $0.isFinite && $0 >= 0 && $0 <= 30 ? $0 : nil }
        maxzoom = object["maxzoom"]?.numberValue.flatMap { $0.isFinite && $0 >= 0 && $0 <= 30 ? $0 : nil }
        let box = object["bounds"]?.arrayValue?.compactMap(\.numberValue) ?? []
        bounds = box.count == 4 && box.allSatisfy(\.isFinite) ? box : nil
        scheme = object["scheme"]?.stringValue.flatMap { $0 == "xyz" || $0 == "tms" ? $0 : nil }
        attribution = object["attribution"]?.stringValue
    }
}

/// Why a TileJSON document cannot be used.
public struct TileJSONError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

extension StyleSource {
    /// Whether the source's tiles are named by a TileJSON document (`url`) still to be read:
    /// a tiled source with a `url` and no `tiles`.
    public var needsTileJSON: Bool {
        (type == .vector || type == .raster || type == .rasterDEM) && tiles.isEmpty && url != nil
    }

    /// Takes the tiles and their extent from `tileJSON`. Members the style gives the source
    /// itself win over the document's, as in MapLibre.
    public mutating func apply(_ tileJSON: TileJSON) {
        func given(_ key: String) -> Bool { properties[key] != nil }
        tiles = tileJSON.tiles
        properties.set("tiles", .array(tileJSON.tiles.map(JSONValue.string)))
        if !given("minzoom"), let value = tileJSON.minzoom { minzoom = value; properties.set("minzoom", .number(value)) }
        if !given("maxzoom"), let value = tileJSON.maxzoom { maxzoom = value; properties.set("maxzoom", .number(value)) }
        if !given("bounds"), let value = tileJSON.bounds { bounds = value; properties.set("bounds", .array(value.map(JSONValue.number))) }
        if !given("scheme"), let value = tileJSON.scheme { scheme = value; properties.set("scheme", .string(value)) }
        if !given("attribution"), let value = tileJSON.attribution { attribution = value; properties.set("attribution", .string(value)) }
    }
}
