import Foundation
import MapFormats
import MapRouting

/// A map bundle on disk: the folder `openmapkit import` writes, with `manifest.json` and the tile
/// archive it names.
public struct MapBundle: Sendable {
    /// The environment variable naming the default bundle (or several, separated by `:`).
    public static let environmentVariable = "OPENMAPKIT_BUNDLE"

    public let url: URL
    public let manifest: BundleManifest

    /// Opens the bundle at `url`; errors name the folder and what is missing.
    public init(url: URL) throws {
        self.url = url
        let manifestURL = url.appendingPathComponent("manifest.json")
        guard FileManager.default.fileExists(atPath: manifestURL.path) else {
            throw ImportError.source("\(url.path) is not a map bundle (no manifest.json); make one with `openmapkit import`")
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            manifest = try decoder.decode(BundleManifest.self, from: Data(contentsOf: manifestURL))
        } catch {
            throw ImportError.source("\(manifestURL.path): unreadable manifest (\(error))")
        }
    }

    /// The bundle named by `path`, or else by `$OPENMAPKIT_BUNDLE` (its first entry).
    public static func resolve(_ path: String?) throws -> MapBundle {
        if let path { return try MapBundle(url: URL(fileURLWithPath: path)) }
        guard let value = ProcessInfo.processInfo.environment[environmentVariable],
              let first = value.split(separator: ":").first, !first.isEmpty else {
            throw ImportError.source("no map bundle: pass --bundle PATH or set \(environmentVariable)")
        }
        return try MapBundle(url: URL(fileURLWithPath: String(first)))
    }

    /// The bundle's tile archive.
    public func tiles() throws -> MBTilesArchive {
        try MBTilesArchive(url: url.appendingPathComponent(manifest.tiles))
    }

    /// The place index (search and geocoding). Bundles imported before it existed name none:
    /// then this is where it would be, and opening it fails with "no place index; re-import it".
    public var placesURL: URL {
        url.appendingPathComponent(manifest.places ?? "places.sqlite")
    }

    /// The road graph file for `mode`; ``RoutingError/missingGraph(_:)`` for bundles imported
    /// before directions existed.
    public func roadGraphURL(for mode: TravelMode) throws(RoutingError) -> URL {
        guard let name = manifest.roads?[mode.rawValue] else {
            throw RoutingError.missingGraph("bundle \(url.path) has no road graph for \(mode.rawValue); re-import it with `openmapkit import`")
        }
        return url.appendingPathComponent(name)
    }
}
