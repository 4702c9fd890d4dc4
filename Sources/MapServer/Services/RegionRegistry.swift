import Foundation
import MapBundle
import OpenMapKit

/// The map regions a server holds, each a bundle made by `openmapkit import`, by name.
///
/// Requests pick a region with the `region` query parameter; without one they see every region at
/// once (tiles merged, searches and routes over all bundles), which is what a single-region server
/// and the web page want.
///
/// A region can be replaced while the server runs: ``replace(_:with:)`` and ``reload()`` open the
/// new bundle first and swap it in under a lock, so a request that already holds a
/// ``RegionRegistry/Snapshot`` finishes on the old data while the next one sees the new. Each swap
/// bumps ``Snapshot/generation``, which caches and ETags include so nothing stale is served.
public final class RegionRegistry: @unchecked Sendable {
    /// One consistent view of the regions, taken when a request starts.
    public struct Snapshot: Sendable {
        /// Region name → its data, in the order the regions were given.
        public let regions: [(name: String, source: MapDataSource)]
        /// All regions as one source (what requests without `region=` use).
        public let combined: MapDataSource
        /// Increases by one on every swap.
        public let generation: Int

        /// The source for a request's `region` parameter (nil: all regions); 404 for an unknown name.
        public func source(named name: String?) throws -> MapDataSource {
            guard let name else { return combined }
            guard let match = regions.first(where: { $0.name == name }) else {
                throw APIError.notFound("no region named \(QueryParameters.quoted(name))",
                                        details: ["regions: " + regions.map(\.name).joined(separator: ", ")])
            }
            return match.source
        }
    }

    private let lock = NSLock()
    private var current: Snapshot
    private var paths: [(name: String, url: URL)]
    /// Each region's manifest as it was when the regions were opened (see ``reloadIfChanged()``).
    private var manifestStamps: [FileStamp?]

    /// Opens the bundles at `urls`; each region is named after its folder without the `.omk` extension.
    /// Throws ``MKError`` naming a folder that is not a bundle, or when two folders share a name.
    public convenience init(bundleURLs urls: [URL]) throws {
        try self.init(named: urls.map { (Self.regionName(for: $0), $0) })
    }

    /// Opens the bundles at the given folders under the given names.
    public init(named: [(name: String, url: URL)]) throws {
        paths = named
        manifestStamps = named.map { Self.manifestStamp($0.url) }
        current = try Self.open(named, generation: 1)
    }

    /// The name a bundle folder serves under: `monaco.omk` → `monaco`.
    public static func regionName(for url: URL) -> String {
        let last = url.standardizedFileURL.lastPathComponent
        return last.hasSuffix(".omk") ? String(last.dropLast(4)) : last
    }

    /// The regions as they are now.
    public var snapshot: Snapshot { lock.withLock { current } }

    /// Replaces (or adds) the region `name` with the bundle at `url`. The bundle is opened before
    /// the swap: if it is not a valid bundle this throws and the old region keeps serving.
    public func replace(_ name: String, with url: URL) throws {
        let (named, generation) = lock.withLock { () -> ([(name: String, url: URL)], Int) in
            var named = paths
            if let index = named.firstIndex(where: { $0.name == name }) { named[index].url = url } else { named.append((name, url)) }
            return (named, current.generation + 1)
        }
        let stamps = named.map { Self.manifestStamp($0.url) }
        let opened = try Self.open(named, generation: generation)
        lock.withLock {
            paths = named
            manifestStamps = stamps
            current = Snapshot(regions: opened.regions, combined: opened.combined, generation: max(generation, current.generation + 1))
        }
    }

    /// Re-opens every region from its folder (after `openmapkit import` replaced one in place).
    /// On failure the regions already serving stay as they were.
    public func reload() throws {
        let (named, generation) = lock.withLock { (paths, current.generation + 1) }
        // Read before the bundles are opened: a change landing meanwhile is seen by the next check.
        let stamps = named.map { Self.manifestStamp($0.url) }
        let opened = try Self.open(named, generation: generation)
        lock.withLock {
            manifestStamps = stamps
            current = Snapshot(regions: opened.regions, combined: opened.combined, generation: max(generation, current.generation + 1))
        }
    }

    /// Re-opens the regions when a bundle's manifest changed since they were opened — what
    /// `openmapkit update` and `openmapkit import` write last — and says whether it did. A server
    /// calls this every few seconds, so a bundle brought up to date beside it (by a scheduled
    /// `openmapkit update`, say) is served whole: its tiles, which the update changes in place,
    /// together with its new place index and road graphs, which it renames in.
    @discardableResult
    public func reloadIfChanged() throws -> Bool {
        let (named, stamps) = lock.withLock { (paths, manifestStamps) }
        guard named.map({ Self.manifestStamp($0.url) }) != stamps else { return false }
        try reload()
        return true
    }

    /// The stamp of a bundle's manifest, which is written aside and renamed in last, so a new one is a new file.
    private static func manifestStamp(_ bundle: URL) -> FileStamp? {
        FileStamp(of: bundle.appendingPathComponent(MapBundle.manifestFileName))
    }

    private static func open(_ named: [(name: String, url: URL)], generation: Int) throws -> Snapshot {
        guard !named.isEmpty else { throw MKError(.serverFailure, reason: "the server needs at least one bundle made by `openmapkit import`") }
        var seen = Set<String>()
        for (name, url) in named where !seen.insert(name).inserted {
            throw MKError(.serverFailure, reason: "two bundles would serve as region \(name) (\(url.path)); rename one folder")
        }
        let regions = try named.map { (name: $0.name, source: try MapDataSource(bundleURL: $0.url)) }
        let combined = regions.count == 1 ? regions[0].source : try MapDataSource(bundleURLs: named.map(\.url))
        return Snapshot(regions: regions, combined: combined, generation: generation)
    }
}

