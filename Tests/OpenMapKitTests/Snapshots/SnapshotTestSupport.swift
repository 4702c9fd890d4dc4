import Foundation
import MapBundle
import MapRender
import OpenMapKit
import TestSupport
import XCTest

/// The Monaco sample bundle (imported once per test process, see `SampleBundle`) as a map data
/// source, shared by the snapshot, overlay and map-content tests.
enum MonacoBundle {
    static let center = CLLocationCoordinate2D(latitude: 43.7384, longitude: 7.4246)

    static func dataSource() throws -> MapDataSource {
        try MapDataSource(bundleURL: SampleBundle.monaco())
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
