// Mapbox's style object: the style document a map view draws, and the URLs of Mapbox's styles
// mapped onto OpenMapKit's built-in ones. Sources, layers and runtime styling are added to this
// class elsewhere; they change `document`, which the map view's engine draws.

import Foundation
import MapRender
import MapStyle

/// The style a map view draws (Mapbox's `MGLStyle`): a MapLibre style document loaded from the
/// map view's ``MGLMapView/styleURL``.
///
/// The class members name Mapbox's styles (`mapbox://styles/mapbox/streets-v11` …), which
/// OpenMapKit draws with its own styles over your bundles' OpenStreetMap data: streets and
/// outdoors as the standard map, light as the muted one, dark as the dark one, satellite as
/// imagery and satellite-streets as hybrid (those two need the data source's imagery overlay;
/// without it loading fails). Any version number gives the same style.
///
/// Runtime styling changes the document: ``sources``, ``layers``, images, ``transition`` and
/// ``localizesLabels`` (see MGLStyle+Layers.swift and MGLStyle+Sources.swift); the map view draws
/// each change on its next ``MGLMapView/render()``.
///
/// Differs from Mapbox: where Mapbox raises an Objective-C exception (a duplicate layer or source
/// identifier, a layer added twice), the program stops with the reason; the `…(_:error:)`
/// variants (``addLayer(_:error:)`` …) throw an ``MGLStyleError`` instead.
public final class MGLStyle {
    /// The style document the map view draws; changes reach the map view's next frame.
    var document: Style {
        didSet { mapView?.styleDocumentDidChange() }
    }
    /// The URL it was loaded from.
    let url: URL
    /// Where its relative resources are read from (a file style's folder); nil for built-in ones.
    let baseURL: URL?
    /// The map view drawing it.
    weak var mapView: MGLMapView?

    // Runtime styling (MGLStyle+Layers.swift, MGLStyle+Sources.swift): the wrapper objects handed
    // out for the document's layers and sources, by identifier, so that asking twice gives the
    // same object; and the labels' text fields before `localizesLabels` rewrote them.
    var layerWrappers: [String: MGLStyleLayer] = [:]
    var sourceWrappers: [String: MGLSource] = [:]
    var unlocalizedTextFields: [String: JSONValue?]?
    var localizationLanguage: String?
    var placementTransitions = true

    init(document: Style, url: URL, baseURL: URL?) {
        self.document = document
        self.url = url
        self.baseURL = baseURL
    }

    /// The style's name (the document's `name`), nil when it has none.
    public var name: String? { document.name }

    // MARK: - Mapbox's styles

    /// The newest version Mapbox published of each style, used by the unversioned members.
    static let latestVersions = ["streets": 11, "outdoors": 11, "light": 10, "dark": 10, "satellite": 9, "satellite-streets": 11]

    private static func url(_ name: String, _ version: Int) -> URL {
        URL(string: "mapbox://styles/mapbox/\(name)-v\(version)")!
    }

    /// Mapbox Streets (`mapbox://styles/mapbox/streets-v11`), drawn as OpenMapKit's standard map;
    /// the default style.
    public static var streetsStyleURL: URL { url("streets", latestVersions["streets"]!) }
    /// Mapbox Streets at `version`.
    public static func streetsStyleURL(withVersion version: Int) -> URL { url("streets", version) }
    /// Mapbox Outdoors (`…/outdoors-v11`), drawn as OpenMapKit's standard map.
    public static var outdoorsStyleURL: URL { url("outdoors", latestVersions["outdoors"]!) }
    /// Mapbox Outdoors at `version`.
    public static func outdoorsStyleURL(withVersion version: Int) -> URL { url("outdoors", version) }
    /// Mapbox Light (`…/light-v10`), drawn as OpenMapKit's muted map.
    public static var lightStyleURL: URL { url("light", latestVersions["light"]!) }
    /// Mapbox Light at `version`.
    public static func lightStyleURL(withVersion version: Int) -> URL { url("light", version) }
    /// Mapbox Dark (`…/dark-v10`), drawn as OpenMapKit's dark map.
    public static var darkStyleURL: URL { url("dark", latestVersions["dark"]!) }
    /// Mapbox Dark at `version`.
    public static func darkStyleURL(withVersion version: Int) -> URL { url("dark", version) }
    /// Mapbox Satellite (`…/satellite-v9`), drawn as OpenMapKit's imagery map (needs the data
    /// source's imagery overlay).
    public static var satelliteStyleURL: URL { url("satellite", latestVersions["satellite"]!) }
    /// Mapbox Satellite at `version`.
    public static func satelliteStyleURL(withVersion version: Int) -> URL { url("satellite", version) }
    /// Mapbox Satellite Streets (`…/satellite-streets-v11`), drawn as OpenMapKit's hybrid map
    /// (needs the data source's imagery overlay).
    public static var satelliteStreetsStyleURL: URL { url("satellite-streets", latestVersions["satellite-streets"]!) }
    /// Mapbox Satellite Streets at `version`.
    public static func satelliteStreetsStyleURL(withVersion version: Int) -> URL { url("satellite-streets", version) }

    /// The built-in style a `mapbox://styles/mapbox/NAME-vN` URL stands for; nil for other URLs.
    static func builtIn(for url: URL) -> DefaultStyle? {
        guard url.scheme == "mapbox", url.host == "styles" else { return nil }
        let parts = url.path.split(separator: "/")
        guard parts.count == 2, parts[0] == "mapbox" else { return nil }
        var name = String(parts[1])
        if let range = name.range(of: "-v", options: .backwards), Int(name[range.upperBound...]) != nil {
            name = String(name[..<range.lowerBound])
        }
        switch name {
        case "streets", "outdoors": return .standard
        case "light": return .muted
        case "dark": return .dark
        case "satellite": return .imagery
        case "satellite-streets": return .hybrid
        default: return nil
        }
    }

    // MARK: - Loading

    /// Loads the style at `url`: a Mapbox style URL (a built-in style), a `file://` URL or a
    /// path (relative ones against the current directory), or an `http(s)` URL fetched now.
    /// Satellite styles need `dataSource`'s imagery.
    static func load(_ url: URL, dataSource: MapDataSource?) throws -> MGLStyle {
        if let builtIn = builtIn(for: url) {
            if builtIn == .imagery || builtIn == .hybrid, dataSource?.imagery == nil {
                throw MKError(.serverFailure, reason: "\(url.absoluteString) needs imagery tiles: give the map view a data source with an "
                              + "imagery overlay (MapDataSource(path:imagery:))")
            }
            return MGLStyle(document: builtIn.makeStyle(extrudedBuildings: false, dataBounds: dataSource?.dataBounds ?? []),
                            url: url, baseURL: nil)
        }
        switch url.scheme?.lowercased() {
        case "mapbox":
            throw MKError(.serverFailure, reason: "\(url.absoluteString) is a Mapbox account's style: only mapbox://styles/mapbox/… "
                          + "names of Mapbox's own styles are known here")
        case "http", "https":
            return MGLStyle(document: try parse(fetch(url), from: url), url: url, baseURL: nil)
        case "file", nil, "":
            let file = url.isFileURL ? url : URL(fileURLWithPath: url.path)
            let data: Data
            do { data = try Data(contentsOf: file) } catch {
                throw MKError(.serverFailure, reason: "\(file.path): \(error.localizedDescription)")
            }
            return MGLStyle(document: try parse(data, from: file), url: url, baseURL: file)
        default:
            throw MKError(.serverFailure, reason: "\(url.absoluteString): styles load from mapbox://, file:// and http(s):// URLs")
        }
    }

    private static func parse(_ data: Data, from url: URL) throws -> Style {
        do { return try Style(data: [UInt8](data)) } catch {
            throw MKError(.serverFailure, reason: "\(url.absoluteString) is not a style: \(error)")
        }
    }

    /// The body of an HTTP(S) GET of `url` through the tile fetcher (its cache and its
    /// concurrency bound), waited for at most 30 s; throws on a transport error, a timeout or a
    /// status other than 2xx.
    private static func fetch(_ url: URL) throws -> Data {
        switch TileFetcher.shared.data(for: url, timeout: 30) {
        case .success(let data): return data
        case .failure(let error): throw MKError(.serverFailure, reason: error.description)
        }
    }

    /// The attribution of the style's sources (see `MapAttribution.lines(of:)`).
    var attributions: [String] { MapAttribution.lines(of: document) }
}
