import Foundation

/// Where tests find the project and its shared test data: the checkout's root, and `../shared`
/// beside it (the layout of every checkout and of CI's clean clone).
public enum TestData {
    /// The package root, found from this file's place in `Sources/TestSupport/`.
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A file or folder inside `../shared`, e.g. `shared("data/osm/monaco.osm.pbf")`.
    public static func shared(_ path: String) -> URL {
        packageRoot.deletingLastPathComponent().appendingPathComponent("shared").appendingPathComponent(path)
    }
}
