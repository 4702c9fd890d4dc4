import Foundation
import MapFormats
import MapImport
import MapRender
import TestSupport

/// The Monaco extract imported once per test process, for every test that draws a real map.
/// The bundle lives in a temporary folder named after the process; folders of processes that
/// are gone are removed on the next run.
enum MonacoTiles {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var cached: Result<URL, any Error>?

    /// The bundle's folder (imported on first use).
    static func bundleURL() throws -> URL {
        try lock.withLock {
            if cached == nil {
                cached = Result {
                    let temporary = FileManager.default.temporaryDirectory
                    for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
                    where name.hasPrefix("openmapkit-render-monaco-") {
                        if let pid = Int32(name.dropFirst("openmapkit-render-monaco-".count)), kill(pid, 0) != 0 {
                            try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
                        }
                    }
                    let folder = temporary.appendingPathComponent("openmapkit-render-monaco-\(getpid())")
                    try? FileManager.default.removeItem(at: folder)
                    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                    let bundle = folder.appendingPathComponent("monaco.omk")
                    _ = try BundleImporter().importPBF(at: TestData.shared("data/osm/monaco.osm.pbf"), to: bundle)
                    return bundle
                }
            }
            return try cached!.get()
        }
    }

    /// The bundle's tile archive.
    static func archive() throws -> MBTilesArchive {
        try MapBundle(url: bundleURL()).tiles()
    }

    /// A loader that reads every vector source from the bundle, and `resources` for the rest
    /// (the default styles' sprite by default).
    static func loader(resources: @escaping @Sendable (String) -> [UInt8]? = { DefaultStyle.resource($0) }) throws -> StyleResourceLoader {
        let archive = try archive()
        return StyleResourceLoader(tile: { _, id in (try? archive.tile(id)).flatMap { $0.map { [UInt8]($0) } } }, resource: resources)
    }
}
