// Mapbox's tile sources: vector, raster and raster-DEM tiles from a TileJSON URL or tile URL
// templates, as MapLibre `vector`, `raster` and `raster-dem` sources.

import Foundation
import MapStyle

/// An option of a tile source (Mapbox's `MGLTileSourceOption`), each a member of MapLibre's
/// tiled sources.
///
/// Differs from Mapbox: there is no `attributionInfos` option (no `MGLAttributionInfo` class);
/// give the attribution with ``attributionHTMLString``.
public struct MGLTileSourceOption: Hashable, RawRepresentable, Sendable {
    /// The option's name.
    public let rawValue: String
    /// An option named `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A number: the lowest zoom level with tiles (`minzoom`, default 0).
    public static let minimumZoomLevel = MGLTileSourceOption(rawValue: "minzoom")
    /// A number: the highest zoom level with tiles (`maxzoom`, default 22); above it tiles are
    /// overzoomed.
    public static let maximumZoomLevel = MGLTileSourceOption(rawValue: "maxzoom")
    /// An ``MGLCoordinateBounds``: where the source has tiles (`bounds`).
    public static let coordinateBounds = MGLTileSourceOption(rawValue: "bounds")
    /// A string: the source's attribution (`attribution`), shown by the map view's attribution.
    public static let attributionHTMLString = MGLTileSourceOption(rawValue: "attribution")
    /// An ``MGLTileCoordinateSystem`` (or its raw value): how tile rows are numbered (`scheme`).
    public static let tileCoordinateSystem = MGLTileSourceOption(rawValue: "scheme")
    /// A number: the size of raster tiles in points (`tileSize`, default 512); raster and
    /// raster-DEM sources only.
    public static let tileSize = MGLTileSourceOption(rawValue: "tileSize")
    /// An ``MGLDEMEncoding`` (or its raw value): how raster-DEM tiles encode elevations
    /// (`encoding`); raster-DEM sources only.
    public static let demEncoding = MGLTileSourceOption(rawValue: "encoding")
}

/// How tile rows are numbered (Mapbox's `MGLTileCoordinateSystem`).
public enum MGLTileCoordinateSystem: UInt, Sendable {
    /// Rows from the north (`xyz`, OpenStreetMap's and Mapbox's).
    case XYZ = 0
    /// Rows from the south (`tms`).
    case TMS
}

/// How raster-DEM tiles encode elevations (Mapbox's `MGLDEMEncoding`).
public enum MGLDEMEncoding: UInt, Sendable {
    /// Mapbox Terrain-RGB.
    case mapbox = 0
    /// Mapzen Terrarium.
    case terrarium
}

/// A source of tiles (Mapbox's `MGLTileSource`): the common part of ``MGLVectorTileSource``,
/// ``MGLRasterTileSource`` and ``MGLRasterDEMSource``.
///
/// Tiles are read by the map view's data source and resource loader: your bundle's tiles,
/// `file://` and relative templates, and `http(s)` templates fetched (and cached on disk) as
/// ``MKTileOverlay``'s are. A TileJSON `configurationURL` (`file://`, a path relative to the style
/// file's folder, or `http(s)`) is read before the map is drawn: its `tiles`, `minzoom`, `maxzoom`,
/// `bounds`, `scheme` and `attribution` are used, unless the source's options give them.
///
/// Differs from Mapbox: no `attributionInfos` (there is no `MGLAttributionInfo`); a
/// `mapbox://` configuration URL (a Mapbox account's tileset) is not read, and its source draws
/// nothing; a TileJSON document that cannot be read fails the map's loading (Mapbox reports it
/// and draws the rest).
public class MGLTileSource: MGLSource {
    init(identifier: String, type: String, configurationURL: URL?, tileURLTemplates: [String]?, options: [MGLTileSourceOption: Any]?) {
        var object = JSONObject([("type", .string(type))])
        if let configurationURL { object.set("url", .string(configurationURL.absoluteString)) }
        if let tileURLTemplates { object.set("tiles", .array(tileURLTemplates.map(JSONValue.string))) }
        for (option, value) in (options ?? [:]).sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            object.set(option.rawValue, MGLTileSource.json(option, value))
        }
        super.init(identifier: identifier, object: object)
    }

    required init(wrapping identifier: String, object: JSONObject) {
        super.init(wrapping: identifier, object: object)
    }

    /// An option's value as the source's JSON; stops with the reason for a value of the wrong type.
    static func json(_ option: MGLTileSourceOption, _ value: Any) -> JSONValue {
        switch (option, value) {
        case (.coordinateBounds, let bounds as MGLCoordinateBounds):
            return .array([bounds.sw.longitude, bounds.sw.latitude, bounds.ne.longitude, bounds.ne.latitude].map(JSONValue.number))
        case (.tileCoordinateSystem, let system as MGLTileCoordinateSystem):
            return .string(system == .TMS ? "tms" : "xyz")
        case (.tileCoordinateSystem, let raw as UInt):
            return .string(raw == MGLTileCoordinateSystem.TMS.rawValue ? "tms" : "xyz")
        case (.demEncoding, let encoding as MGLDEMEncoding):
            return .string(encoding == .terrarium ? "terrarium" : "mapbox")
        case (.demEncoding, let raw as UInt):
            return .string(raw == MGLDEMEncoding.terrarium.rawValue ? "terrarium" : "mapbox")
        case (.coordinateBounds, _), (.tileCoordinateSystem, _), (.demEncoding, _):
            preconditionFailure("MGLTileSourceOption.\(option.rawValue): \(type(of: value)) is not a value of this option")
        default:
            do { return try FoundationJSON.value(value) } catch {
                preconditionFailure("MGLTileSourceOption.\(option.rawValue): \(error)")
            }
        }
    }

    /// The TileJSON URL the source was made with; nil for a source of tile URL templates.
    public var configurationURL: URL? { object["url"]?.stringValue.flatMap { URL(string: $0) } }

    /// The source's attribution (MapLibre's `attribution`); nil when it has none.
    public var attributionHTMLString: String? { object["attribution"]?.stringValue }
}

/// A source of vector tiles (Mapbox's `MGLVectorTileSource`; MapLibre's `vector` source). Its
/// layers name a source layer with `sourceLayerIdentifier`.
///
/// Differs from Mapbox: see ``MGLTileSource`` for where tiles come from; the style's own vector
/// source (the bundle's OpenStreetMap tiles) is one of these.
public class MGLVectorTileSource: MGLTileSource {
    /// A source described by the TileJSON at `configurationURL`.
    public init(identifier: String, configurationURL: URL) {
        super.init(identifier: identifier, type: "vector", configurationURL: configurationURL, tileURLTemplates: nil, options: nil)
    }

    /// A source of the tiles at `tileURLTemplates` (`{z}`, `{x}`, `{y}` replaced) with `options`.
    public init(identifier: String, tileURLTemplates: [String], options: [MGLTileSourceOption: Any]? = nil) {
        super.init(identifier: identifier, type: "vector", configurationURL: nil, tileURLTemplates: tileURLTemplates, options: options)
    }

    required init(wrapping identifier: String, object: JSONObject) {
        super.init(wrapping: identifier, object: object)
    }
}

/// A source of raster image tiles (Mapbox's `MGLRasterTileSource`; MapLibre's `raster` source),
/// drawn by ``MGLRasterStyleLayer``.
///
/// Differs from Mapbox: see ``MGLTileSource`` for where tiles come from.
public class MGLRasterTileSource: MGLTileSource {
    /// A source described by the TileJSON at `configurationURL`, with 256-point tiles as
    /// Mapbox's default.
    public convenience init(identifier: String, configurationURL: URL) {
        self.init(identifier: identifier, configurationURL: configurationURL, tileSize: 256)
    }

    /// A source described by the TileJSON at `configurationURL`, with tiles `tileSize` points wide.
    public init(identifier: String, configurationURL: URL, tileSize: CGFloat) {
        super.init(identifier: identifier, type: Self.sourceType, configurationURL: configurationURL, tileURLTemplates: nil,
                   options: [.tileSize: Double(tileSize)])
    }

    /// A source of the tiles at `tileURLTemplates` with `options` (``MGLTileSourceOption/tileSize``
    /// defaults to 256 as in Mapbox).
    public init(identifier: String, tileURLTemplates: [String], options: [MGLTileSourceOption: Any]? = nil) {
        var options = options ?? [:]
        if options[.tileSize] == nil { options[.tileSize] = 256.0 }
        super.init(identifier: identifier, type: Self.sourceType, configurationURL: nil, tileURLTemplates: tileURLTemplates, options: options)
    }

    required init(wrapping identifier: String, object: JSONObject) {
        super.init(wrapping: identifier, object: object)
    }

    /// The MapLibre source type.
    class var sourceType: String { "raster" }
}

/// A source of raster elevation tiles (Mapbox's `MGLRasterDEMSource`; MapLibre's `raster-dem`
/// source), drawn by ``MGLHillshadeStyleLayer`` (and ``MGLColorReliefStyleLayer``).
///
/// Differs from Mapbox: see ``MGLTileSource`` for where tiles come from.
public class MGLRasterDEMSource: MGLRasterTileSource {
    override class var sourceType: String { "raster-dem" }
}
