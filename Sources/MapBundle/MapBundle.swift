import Foundation
import MapFormats
import MapRouting
import MapSearch
import StreetScene

/// A map bundle on disk: the folder `openmapkit import` writes. It is the contract between the
/// import and everything that reads map data, as OSRM's files are between its stages:
///
/// | file | what | read with |
/// |---|---|---|
/// | `manifest.json` | what the bundle holds, how it was made (``BundleManifest``) | ``init(url:)`` |
/// | `tiles.mbtiles` | OpenMapTiles-schema vector tiles, gzip'd MVT | ``tiles()`` |
/// | `places.sqlite` | the place index (search, geocoding) | ``placeIndex()`` |
/// | `roads-<mode>.graph` | one contracted road graph per travel mode | ``roadGraph(for:)`` |
/// | `scene.sqlite` | the street scene: buildings, roads, trees and signs in 3D | ``streetScene()`` |
///
/// The file names are the manifest's, so a reader never guesses them; ``BundleStaging`` writes a
/// bundle, and ``BundleLocation`` finds bundles from paths and `$OPENMAPKIT_BUNDLE`.
public struct MapBundle: Sendable {
    /// The environment variable naming the default bundle (or several, separated by `:`).
    public static let environmentVariable = "OPENMAPKIT_BUNDLE"
    /// The manifest's file name inside a bundle folder.
    public static let manifestFileName = "manifest.json"
    /// The file names `openmapkit import` gives a bundle's parts.
    public static let tilesFileName = "tiles.mbtiles"
    public static let placesFileName = "places.sqlite"
    public static func roadGraphFileName(for mode: TravelMode) -> String { "roads-\(mode.rawValue).graph" }
    /// The street scene's file name (``streetScene()``).
    public static let sceneFileName = "scene.sqlite"
    /// The OSM elements kept for updates from change files (MapImport's `OSMElementStore`).
    public static let elementsFileName = "osm.sqlite"
    /// The tile features kept for updates, by source element (MapImport's `TileFeatureStore`).
    public static let featuresFileName = "features.sqlite"

    public let url: URL
    public let manifest: BundleManifest

    /// Opens the bundle at `url`; errors name the folder and what is missing.
    ///
    /// An update that a dead process left half done is finished or undone first
    /// (``UpdateJournal/recover(_:)``), so what is opened is one whole version.
    public init(url: URL) throws(BundleError) {
        self.url = url
        try UpdateJournal.recover(url)
        let manifestURL = url.appendingPathComponent(Self.manifestFileName)
        guard FileManager.default.fileExists(atPath: manifestURL.path) else {
            throw BundleError("\(url.path) is not a map bundle (no manifest.json); make one with `openmapkit import`")
        }
        do {
            manifest = try BundleManifest.decode(Data(contentsOf: manifestURL))
        } catch {
            throw BundleError("\(manifestURL.path): unreadable manifest (\(error))")
        }
        guard manifest.formatVersion <= BundleManifest.currentFormatVersion else {
            throw BundleError("\(url.path) was made by a newer OpenMapKit (bundle format \(manifest.formatVersion), "
                              + "this one reads up to \(BundleManifest.currentFormatVersion)); re-import it or update OpenMapKit")
        }
    }

    /// Whether `url` is a bundle folder (it has a manifest).
    public static func isBundle(_ url: URL) -> Bool {
        FileManager.default.fileExists(atPath: url.appendingPathComponent(manifestFileName).path)
    }

    /// The bundle named by `path`, or else by `$OPENMAPKIT_BUNDLE` (its first entry).
    public static func resolve(_ path: String?) throws(BundleError) -> MapBundle {
        guard let url = try BundleLocation.urls(path.map { [$0] } ?? []).first else {
            throw BundleError("no map bundle: pass --bundle PATH or set \(environmentVariable)")
        }
        return try MapBundle(url: url)
    }

    // MARK: Parts

    /// The tile archive's location.
    public var tilesURL: URL { url.appendingPathComponent(manifest.tiles) }

    /// The bundle's tile archive, opened anew (each reader keeps its own SQLite connection).
    public func tiles() throws -> MBTilesArchive {
        try MBTilesArchive(url: tilesURL)
    }

    /// The place index (search and geocoding). Bundles imported before it existed name none:
    /// then this is where it would be, and opening it fails with "no place index; re-import it".
    public var placesURL: URL {
        url.appendingPathComponent(manifest.places ?? Self.placesFileName)
    }

    /// The place index, shared by every caller in the process and reopened when a re-import
    /// replaced the file (``OpenedFileCache``).
    public func placeIndex() throws(PlaceIndexError) -> PlaceIndex {
        let url = placesURL
        return try Self.placeIndexes.value(for: url) { () throws(PlaceIndexError) in try PlaceIndex(url: url) }
    }

    /// The road graph file for `mode`; ``RoutingError/missingGraph(_:)`` for bundles imported
    /// before directions existed.
    public func roadGraphURL(for mode: TravelMode) throws(RoutingError) -> URL {
        guard let name = manifest.roads?[mode.rawValue] else {
            throw RoutingError.missingGraph("bundle \(url.path) has no road graph for \(mode.rawValue); re-import it with `openmapkit import`")
        }
        return url.appendingPathComponent(name)
    }

    /// The road graph for `mode`, memory-mapped once per process and reopened when a re-import
    /// replaced the file (``OpenedFileCache``).
    public func roadGraph(for mode: TravelMode) throws(RoutingError) -> RoadGraph {
        let url = try roadGraphURL(for: mode)
        return try Self.roadGraphs.value(for: url) { () throws(RoutingError) in try RoadGraph(url: url) }
    }

    /// The street scene file's location; nil when the bundle has none (made before scenes
    /// existed, or imported without one).
    public var sceneURL: URL? {
        manifest.scene.map { url.appendingPathComponent($0) }
    }

    /// The street scene (3D objects by area, for Look Around), shared by every caller in the
    /// process and reopened when a re-import replaced the file (``OpenedFileCache``); nil when the
    /// bundle has none.
    public func streetScene() throws(StreetSceneError) -> StreetSceneFile? {
        guard let url = sceneURL else { return nil }
        return try Self.streetScenes.value(for: url) { () throws(StreetSceneError) in try StreetSceneFile(url: url) }
    }

    /// Opening a place index costs more than most queries, and a road graph is memory-mapped, so
    /// both are kept open for the process.
    private static let placeIndexes = OpenedFileCache<PlaceIndex>()
    private static let roadGraphs = OpenedFileCache<RoadGraph>()
    private static let streetScenes = OpenedFileCache<StreetSceneFile>()
}

/// Why a bundle cannot be found, opened or written; the message names the folder and what to do.
public struct BundleError: Error, Sendable, CustomStringConvertible, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
