import Foundation
import MapBundle
import MapFormats
import MapRender
import TestSupport

/// The Monaco sample bundle's tiles (imported once per test process, see `SampleBundle`), for
/// every test that draws a real map.
enum MonacoTiles {
    /// The bundle's tile archive.
    static func archive() throws -> MBTilesArchive {
        try MapBundle(url: SampleBundle.monaco()).tiles()
    }

    /// A loader that reads every vector source from the bundle, and `resources` for the rest
    /// (the default styles' sprite by default).
    static func loader(resources: @escaping @Sendable (String) -> [UInt8]? = { DefaultStyle.resource($0) }) throws -> StyleResourceLoader {
        let archive = try archive()
        return StyleResourceLoader(tile: { _, id in (try? archive.tile(id)).flatMap { $0.map { [UInt8]($0) } } }, resource: resources)
    }
}
