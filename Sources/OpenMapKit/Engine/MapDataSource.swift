import Foundation
import MapFormats
import MapGeometry
import MapBundle

/// Where MapKit-shaped calls find their map data: one or more bundles made by `openmapkit import`,
/// plus optional imagery tiles for the hybrid and satellite maps.
///
/// MapKit's API has no parameter for "which map". So a process-wide ``default`` source is used
/// when a call names none: set it once in code, or leave it to the environment variable
/// `OPENMAPKIT_BUNDLE` (a bundle folder, or several separated by `:`). Services also accept a
/// source explicitly (`MKMapSnapshotter(options:dataSource:)`), for servers holding several regions.
///
/// With several bundles a tile is the union of each bundle's tile at that address (same-named
/// layers merged), so neighbouring regions draw together at every zoom.
///
/// An OpenMapKit addition: MapKit reads Apple's servers and has no such type.
public final class MapDataSource: @unchecked Sendable {
    /// The bundles, in the order given.
    public let bundles: [MapBundle]
    /// Imagery for the hybrid and satellite (imagery) maps: a tile overlay whose tiles are the
    /// ground images (a `file://` URL template or a folder of PNGs). Nil: those maps fail with an
    /// error saying so.
    public let imagery: MKTileOverlay?

    private let archives: [MBTilesArchive]
    private let lock = NSLock()

    /// The bundles at these folders. Throws ``MKError`` (`serverFailure`) naming a folder that is
    /// not a bundle.
    public init(bundleURLs: [URL], imagery: MKTileOverlay? = nil) throws {
        guard !bundleURLs.isEmpty else { throw MKError(.serverFailure, reason: "a map data source needs at least one bundle") }
        var bundles: [MapBundle] = [], archives: [MBTilesArchive] = []
        for url in bundleURLs {
            do {
                let bundle = try MapBundle(url: url)
                bundles.append(bundle)
                archives.append(try bundle.tiles())
            } catch let error as MKError {
                throw error
            } catch {
                throw MKError(.serverFailure, reason: "\(url.path): \(error)")
            }
        }
        self.bundles = bundles
        self.archives = archives
        self.imagery = imagery
    }

    /// The bundle at `url`.
    public convenience init(bundleURL url: URL, imagery: MKTileOverlay? = nil) throws {
        try self.init(bundleURLs: [url], imagery: imagery)
    }

    /// The bundle folder(s) at `path`, several separated by `:` (as in `OPENMAPKIT_BUNDLE`); a
    /// folder of bundles stands for the bundles in it (MapBundle's `BundleLocation`).
    public convenience init(path: String, imagery: MKTileOverlay? = nil) throws {
        let urls: [URL]
        // Only `path`: the environment is read by `resolved()`, and an empty path names no bundle.
        do { urls = try BundleLocation.urls([path], environment: [:]) } catch { throw MKError(.serverFailure, reason: error.message) }
        try self.init(bundleURLs: urls, imagery: imagery)
    }

    /// The same bundles with other imagery.
    public func withImagery(_ imagery: MKTileOverlay?) -> MapDataSource {
        MapDataSource(bundles: bundles, archives: archives, imagery: imagery)
    }

    private init(bundles: [MapBundle], archives: [MBTilesArchive], imagery: MKTileOverlay?) {
        (self.bundles, self.archives, self.imagery) = (bundles, archives, imagery)
    }

    /// The rectangles the bundles' data covers: each manifest's coverage (the extract's box, or a
    /// box per part of an extract that joins regions far apart), in the order given; a bundle
    /// whose manifest says nothing is left out. The default styles hatch the world outside them
    /// as having no data, and `openmapkit view` keeps its camera over them.
    public var dataBounds: [MKMapRect] { dataCoverage.map(\.mapRect) }

    /// ``dataBounds`` in degrees, as the manifests record them.
    public var dataCoverage: [GeographicBounds] { bundles.flatMap(\.manifest.geographicCoverage) }

    /// Where a map of this source opens, in degrees: the box around each bundle's main part of the
    /// data (the first of its manifest's coverage: the whole extract but for one that joins regions
    /// far apart). Nil when no bundle records its bounds.
    public var openingBounds: GeographicBounds? {
        GeographicBounds.union(bundles.compactMap { $0.manifest.geographicCoverage.first })
    }

    /// ``openingBounds`` on MapKit's flat map.
    public var dataMapRect: MKMapRect? { openingBounds?.mapRect }

    /// The environment variable read when no default is set in code.
    public static let environmentVariable = MapBundle.environmentVariable

    nonisolated(unsafe) private static var configured: MapDataSource?
    nonisolated(unsafe) private static var fromEnvironment: (value: String, source: MapDataSource)?
    private static let defaultLock = NSLock()

    /// The source used when a call names none: the one set here, else the bundles named by
    /// `OPENMAPKIT_BUNDLE` (opened on first use, reopened if the variable changes), else nil.
    public static var `default`: MapDataSource? {
        get { try? resolved() }
        set { defaultLock.withLock { configured = newValue } }
    }

    /// ``default``, or an error that says how to configure one: `MKError` `serverFailure` whose
    /// reason names `OPENMAPKIT_BUNDLE`, or says why the bundles it names cannot be opened.
    public static func resolved() throws -> MapDataSource {
        try defaultLock.withLock {
            if let configured { return configured }
            guard let value = ProcessInfo.processInfo.environment[environmentVariable],
                  !BundleLocation.split(value).isEmpty else {
                throw MKError(.serverFailure, reason: "no map data: set \(environmentVariable) to a bundle folder made by "
                              + "`openmapkit import`, or set MapDataSource.default in code")
            }
            if let cached = fromEnvironment, cached.value == value { return cached.source }
            do {
                let source = try MapDataSource(path: value)
                fromEnvironment = (value, source)
                return source
            } catch let error as MKError {
                throw MKError(.serverFailure, reason: "\(environmentVariable)=\(value): \(error.reason ?? error.code.summary)")
            }
        }
    }

    /// The vector tile at `id`: with one bundle its bytes as stored; with several, their tiles at
    /// that address decoded and merged into one (uncompressed). Nil when no bundle has it.
    public func vectorTile(_ id: TileID) -> [UInt8]? {
        var parts: [[UInt8]] = []
        lock.withLock {
            for archive in archives {
                guard let data = (try? archive.tile(id)) ?? nil else { continue }
                parts.append([UInt8](data))
            }
        }
        if parts.count <= 1 { return parts.first }
        // Layer names are unique within a tile, so same-named layers are merged feature by
        // feature (tiles from `openmapkit import` share one extent; a layer of another extent is
        // rescaled to the first's).
        var merged: [VectorTile.Layer] = []
        for bytes in parts {
            guard let tile = try? VectorTile(decoding: bytes) else { continue }
            for layer in tile.layers {
                guard let index = merged.firstIndex(where: { $0.name == layer.name }) else {
                    merged.append(layer)
                    continue
                }
                let target = merged[index].extent
                merged[index].features += target == layer.extent || layer.extent == 0
                    ? layer.features : layer.features.map { Self.rescale($0, by: Double(target) / Double(layer.extent)) }
            }
        }
        return VectorTile(layers: merged).encoded()
    }

    private static func rescale(_ feature: VectorTile.Feature, by factor: Double) -> VectorTile.Feature {
        var copy = feature
        func point(_ p: VectorTile.TilePoint) -> VectorTile.TilePoint {
            VectorTile.TilePoint(Int32(clamping: Int64((Double(p.x) * factor).rounded())), Int32(clamping: Int64((Double(p.y) * factor).rounded())))
        }
        switch feature.geometry {
        case .points(let points): copy.geometry = .points(points.map(point))
        case .lines(let lines): copy.geometry = .lines(lines.map { $0.map(point) })
        case .polygons(let polygons): copy.geometry = .polygons(polygons.map { $0.map { $0.map(point) } })
        case .unknown: break
        }
        return copy
    }
}
