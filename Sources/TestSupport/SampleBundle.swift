import Foundation
import MapImport

/// Sample extracts imported once per test process, for every test that reads a real bundle
/// (importing takes seconds; tests only read the result).
///
/// Each process imports into a temporary folder named after its id, so parallel runs never share
/// one; folders of processes that are gone are removed on the next import.
public enum SampleBundle {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var monacoResult: Result<URL, any Error>?
    private static let prefix = "openmapkit-test-bundles-"

    /// The folder of the Monaco bundle (`../shared/data/osm/monaco.osm.pbf`), imported on first use.
    public static func monaco() throws -> URL {
        try lock.withLock {
            if monacoResult == nil {
                monacoResult = Result {
                    removeAbandonedFolders()
                    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(prefix + String(getpid()))
                    let bundle = folder.appendingPathComponent("monaco.omk")
                    if !FileManager.default.fileExists(atPath: bundle.appendingPathComponent("manifest.json").path) {
                        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                        _ = try BundleImporter().importPBF(at: TestData.shared("data/osm/monaco.osm.pbf"), to: bundle)
                    }
                    return bundle
                }
            }
            return try monacoResult!.get()
        }
    }

    nonisolated(unsafe) private static var otherResults: [String: Result<URL, any Error>] = [:]

    /// The folder of the Andorra bundle (`../shared/data/osm/andorra.osm.pbf`), imported on first use.
    public static func andorra() throws -> URL { try sample("andorra") }

    /// The bundle of `../shared/data/osm/NAME.osm.pbf`, imported once per process like Monaco's.
    /// (Liechtenstein's is left out on purpose: it takes minutes to import in a debug build.)
    private static func sample(_ name: String) throws -> URL {
        try lock.withLock {
            if otherResults[name] == nil {
                otherResults[name] = Result {
                    removeAbandonedFolders()
                    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(prefix + String(getpid()))
                    let bundle = folder.appendingPathComponent(name + ".omk")
                    if !FileManager.default.fileExists(atPath: bundle.appendingPathComponent("manifest.json").path) {
                        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                        _ = try BundleImporter().importPBF(at: TestData.shared("data/osm/\(name).osm.pbf"), to: bundle)
                    }
                    return bundle
                }
            }
            return try otherResults[name]!.get()
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
