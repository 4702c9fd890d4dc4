import Foundation
import MapImport
import MapRender
import OpenMapKit
import TestSupport
import XCTest

/// The Monaco extract imported once per test process into a temporary bundle, shared by the
/// snapshot, overlay and map-content tests (importing takes seconds; each test only reads it).
enum MonacoBundle {
    static let center = CLLocationCoordinate2D(latitude: 43.7384, longitude: 7.4246)
    private static let lock = NSLock()
    nonisolated(unsafe) private static var cached: Result<MapDataSource, any Error>?

    static func dataSource() throws -> MapDataSource {
        try lock.withLock {
            if cached == nil {
                cached = Result {
                    removeAbandonedFolders()
                    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openmapkit-snapshot-tests-\(ProcessInfo.processInfo.processIdentifier)")
                    let bundle = folder.appendingPathComponent("monaco.omk")
                    if !FileManager.default.fileExists(atPath: bundle.appendingPathComponent("manifest.json").path) {
                        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                        _ = try BundleImporter().importPBF(at: TestData.shared("data/osm/monaco.osm.pbf"), to: bundle)
                    }
                    return try MapDataSource(bundleURL: bundle)
                }
            }
            return try cached!.get()
        }
    }

    /// Bundles left by earlier test processes (one per process, so parallel runs do not share
    /// one); removed once their process is gone.
    private static func removeAbandonedFolders() {
        let temporary = FileManager.default.temporaryDirectory
        let prefix = "openmapkit-snapshot-tests-"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? [] where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count)), pid != ProcessInfo.processInfo.processIdentifier,
                  kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
        }
    }

    /// Writes a PNG for a person to look at.
    static func save(_ image: UIImage, _ name: String) {
        let folder = URL(fileURLWithPath: "/tmp/openmapkit-snapshots")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try? image.pngData()?.write(to: folder.appendingPathComponent(name + ".png"))
    }
}

/// Colour comparisons on 0…1 components.
func assertColor(_ color: UIColor?, near expected: UIColor, tolerance: CGFloat = 0.06, _ message: String = "",
                 file: StaticString = #filePath, line: UInt = #line) {
    guard let color else { return XCTFail("no pixel there \(message)", file: file, line: line) }
    let close = abs(color.red - expected.red) <= tolerance && abs(color.green - expected.green) <= tolerance
        && abs(color.blue - expected.blue) <= tolerance
    XCTAssertTrue(close, "\(color) is not \(expected) \(message)", file: file, line: line)
}

func isColor(_ color: UIColor?, near expected: UIColor, tolerance: CGFloat = 0.06) -> Bool {
    guard let color else { return false }
    return abs(color.red - expected.red) <= tolerance && abs(color.green - expected.green) <= tolerance
        && abs(color.blue - expected.blue) <= tolerance
}

/// A snapshot made synchronously with a data source.
func snapshot(_ options: MKMapSnapshotter.Options, dataSource: MapDataSource? = nil) async throws -> MKMapSnapshotter.Snapshot {
    let snapshotter = try MKMapSnapshotter(options: options, dataSource: dataSource ?? MonacoBundle.dataSource())
    return try await snapshotter.start()
}
