import Foundation
import MapImport

/// Sample extracts imported once per test process, for every test that reads a real bundle
/// (importing takes seconds; tests only read the result).
///
/// Each process imports into a temporary folder named after its id, so parallel runs never share
/// one; folders of processes that are gone are removed on the next import.
public enum SampleBundle {
    private static let lock = NSLock()
    private static let prefix = "openmapkit-test-bundles-"
    /// Each bundle's import, by name: done once per process, its error kept for every later caller.
    nonisolated(unsafe) private static var results: [String: Result<URL, any Error>] = [:]

    /// The folder of the Monaco bundle (`../shared/data/osm/monaco.osm.pbf`), imported on first use.
    public static func monaco() throws -> URL { try sample("monaco") }

    /// The folder of the Andorra bundle (`../shared/data/osm/andorra.osm.pbf`), imported on first use.
    public static func andorra() throws -> URL { try sample("andorra") }

    /// A bundle of Liechtenstein (`../shared/data/osm/liechtenstein.osm.pbf`, which also holds
    /// Autauga County, Alabama) for search (see ``placesOnly(_:)``): the whole import takes minutes
    /// of CPU in a debug build, this one about 15 s.
    public static func liechtensteinPlaces() throws -> URL { try placesOnly("liechtenstein") }

    /// A bundle of central Helsinki (`../shared/data/osm/helsinki.osm.pbf`: Finnish and Swedish
    /// names, a box that cuts every boundary above the districts) for search (see ``placesOnly(_:)``).
    public static func helsinkiPlaces() throws -> URL { try placesOnly("helsinki") }

    /// A bundle of `../shared/data/osm/NAME.osm.pbf` with tiles only (`--tiles-only`), for tests
    /// that draw or read the tiles and the manifest: seconds to import in a debug build.
    public static func tilesOnly(_ name: String) throws -> URL {
        try sample(name, suffix: "-tiles") { importer in
            importer.buildsPlaceIndex = false
            importer.buildsRoadGraphs = false
            importer.buildsStreetScene = false
            importer.keepsElements = false
        }
    }

    /// A bundle of `NAME` for search: its place index is complete, its tiles stop at zoom 0 and it
    /// has no road graphs and no element store. The place index is the same as a whole import's (it depends on neither).
    private static func placesOnly(_ name: String) throws -> URL {
        try sample(name, suffix: "-places") { importer in
            importer.tileOptions.maximumZoom = 0
            importer.buildsRoadGraphs = false
            importer.keepsElements = false
        }
    }

    /// The bundle of `../shared/data/osm/NAME.osm.pbf`, imported once per process.
    private static func sample(_ name: String, suffix: String = "", configure: (BundleImporter) -> Void = { _ in }) throws -> URL {
        try lock.withLock {
            let key = name + suffix
            if results[key] == nil {
                results[key] = Result {
                    removeAbandonedFolders()
                    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(prefix + String(getpid()))
                    let bundle = folder.appendingPathComponent(key + ".omk")
                    if !FileManager.default.fileExists(atPath: bundle.appendingPathComponent("manifest.json").path) {
                        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                        let importer = BundleImporter()
                        configure(importer)
                        _ = try importer.importPBF(at: TestData.shared("data/osm/\(name).osm.pbf"), to: bundle)
                    }
                    return bundle
                }
            }
            return try results[key]!.get()
        }
    }

    private static func removeAbandonedFolders() {
        let temporary = FileManager.default.temporaryDirectory
        for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? [] where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count)), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
        }
    }
}
