// What a style names beyond itself, read before and while it is drawn: TileJSON documents
// (resolved into tile templates before the first frame, since the renderer needs templates to
// ask for tiles) and tiles named by http(s) templates (fetched through the TileFetcher when the
// renderer asks for them).

import Foundation
import MapGeometry
import MapStyle

enum StyleFetching {
    /// How long drawing waits for one remote style tile or TileJSON document.
    static let timeout: TimeInterval = 30

    /// The bytes at `url`: a file (`file://` or a path) or an `http(s)` resource, fetched through
    /// `fetcher` and waited for.
    static func read(_ url: URL, fetcher: TileFetcher = .shared, timeout: TimeInterval = timeout) throws -> Data {
        switch url.scheme?.lowercased() {
        case "http", "https":
            switch fetcher.data(for: url, timeout: timeout) {
            case .success(let data): return data
            case .failure(let error): throw error
            }
        default:
            let file = url.isFileURL ? url : URL(fileURLWithPath: url.path)
            return try Data(contentsOf: file)
        }
    }

    /// `style` with each tiled source that has a TileJSON `url` and no `tiles` given the tiles,
    /// zoom range, bounds, scheme and attribution of its document. Relative URLs are resolved
    /// against `base` (the style's own URL: its file, or its http(s) address).
    ///
    /// - Throws: ``MKError`` when a `file://`, relative or `http(s)` document cannot be read or is
    ///   not TileJSON. A URL of another scheme (a Mapbox account's `mapbox://` tileset) is left
    ///   unresolved, and its source draws nothing, as before any TileJSON support.
    static func resolvingTileJSON(_ style: Style, base: URL?, fetcher: TileFetcher = .shared) throws -> Style {
        guard style.sources.contains(where: { $0.source.needsTileJSON }) else { return style }
        var style = style
        for index in style.sources.indices where style.sources[index].source.needsTileJSON {
            let (id, source) = style.sources[index]
            guard let written = source.url, let url = documentURL(written, base: base) else { continue }
            let bytes: Data
            do { bytes = try read(url, fetcher: fetcher) } catch {
                throw MKError(.serverFailure, reason: "source \(id): cannot read its TileJSON \(written): \(error.localizedDescription)")
            }
            do {
                let tileJSON = try TileJSON(bytes: [UInt8](bytes), url: url)
                style.sources[index].source.apply(tileJSON)
            } catch {
                throw MKError(.serverFailure, reason: "source \(id): \(written) is not TileJSON: \(error.description)")
            }
        }
        return style
    }

    /// The URL of a TileJSON document as a style writes it; nil for schemes that are not read
    /// (mapbox://).
    private static func documentURL(_ written: String, base: URL?) -> URL? {
        if let url = URL(string: written), let scheme = url.scheme?.lowercased() {
            return ["file", "http", "https"].contains(scheme) ? url : nil
        }
        if written.hasPrefix("/") { return URL(fileURLWithPath: written) }
        if let base { return URL(string: written, relativeTo: base)?.absoluteURL }
        return URL(fileURLWithPath: written)
    }

    /// Fills a tile template's `{z}`, `{x}` and `{y}`.
    static func fill(_ template: String, _ tile: TileID) -> String {
        template.replacingOccurrences(of: "{z}", with: String(tile.z)).replacingOccurrences(of: "{x}", with: String(tile.x))
            .replacingOccurrences(of: "{y}", with: String(tile.y))
    }

    /// Whether a template names http(s) tiles.
    static func isRemote(_ template: String) -> Bool {
        let lower = template.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }
}

/// Why tiles a loader fetched did not come, kept until the renderer asks (see
/// `StyleResourceLoader.tileFailure`).
final class TileFailureLog: @unchecked Sendable {
    private struct Key: Hashable { let source: String; let tile: TileID }
    private let lock = NSLock()
    private var reasons: [Key: String] = [:]

    func note(_ source: String, _ tile: TileID, _ reason: String) {
        lock.withLock { reasons[Key(source: source, tile: tile)] = reason }
    }

    func take(_ source: String, _ tile: TileID) -> String? {
        lock.withLock { reasons.removeValue(forKey: Key(source: source, tile: tile)) }
    }
}
