import ArgumentParser
import Foundation
import MapFormats
import MapBundle
import MapRender
import MapStyle
import OpenMapKit

extension TilesCommand {
    /// `openmapkit tiles render Z/X/Y -o tile.png`: one raster tile of the bundle's map, drawn as a
    /// tile server would serve it.
    struct Render: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Render one raster tile (PNG) of the bundle's map.",
            discussion: """
            Zoom follows MapLibre: a 512-point tile Z/X/Y shows zoom Z, a 256-point one the same area \
            at zoom Z - 1. The tile is drawn with a margin and cut out, so what crosses its edges \
            matches the neighbouring tiles.
            """)

        @OptionGroup var data: BundleOptions

        @Argument(help: "The tile, Z/X/Y (XYZ rows, from the north; Z at most 24).")
        var tile: String

        @Option(help: "Points a side: 256 or 512.")
        var size = 256

        @Option(help: "Device pixels per point (1, 2 or 3).")
        var scale = 1.0

        @Option(help: "A MapLibre style file, or the name of a built-in style (\(DefaultStyle.allCases.map(\.rawValue).joined(separator: ", "))).")
        var style: String?

        @Option(help: "Points drawn beyond each edge and cut away (for labels and strokes crossing it).")
        var margin = 128.0

        @Option(name: .shortAndLong, help: "Where to write the PNG.")
        var output: String

        @OptionGroup var format: JSONOption

        func validate() throws {
            guard size == 256 || size == 512 else { throw ValidationError("--size must be 256 or 512") }
            guard scale.isFinite, scale > 0, scale <= 4 else { throw ValidationError("--scale must be between 0 and 4") }
            guard margin.isFinite, margin >= 0, margin <= 1024 else { throw ValidationError("--margin must be between 0 and 1024") }
        }

        func run() throws {
            let parts = tile.split(separator: "/", omittingEmptySubsequences: false).map { Int($0) }
            guard parts.count == 3, let z = parts[0], let x = parts[1], let y = parts[2] else {
                throw ValidationError("\(tile) is not a tile: write Z/X/Y")
            }
            let source = try data.firstBundle()
            let (mapStyle, loader) = try bundleStyle(style, archive: source.tiles())
            var written = 0
            do {
                let renderer = try TileRenderer(style: mapStyle, loader: loader, margin: margin)
                let png = try renderer.pngData(z: z, x: x, y: y, tileSize: size, scale: scale)
                for warning in renderer.renderer.warnings { FileHandle.standardError.write(Data("warning: \(warning)\n".utf8)) }
                try Data(png).write(to: URL(fileURLWithPath: output))
                written = png.count
            } catch let error as TileRenderError {
                if case .invalidTile = error { throw ValidationError(error.description) }
                throw CommandFailure(error.description)
            } catch let error as RenderError {
                throw CommandFailure(error.description)
            }
            let pixels = Int((Double(size) * scale).rounded())
            try WrittenFile(output: output, bytes: written, width: pixels, height: pixels)
                .report(json: format.json, text: "wrote \(output) (\(pixels)×\(pixels) pixels)")
        }
    }
}

/// The style a bundle command draws: a style file (every vector source reads the bundle's tiles,
/// other resources are files beside the style), a built-in style by name, or the standard one.
/// Raster sources get no tiles: a bundle has none (hybrid imagery draws as its background).
func bundleStyle(_ name: String?, archive: MBTilesArchive) throws -> (Style, StyleResourceLoader) {
    let style: Style
    var resource: @Sendable (String) -> [UInt8]? = DefaultStyle.resource
    if let name, FileManager.default.fileExists(atPath: name) || DefaultStyle(rawValue: name) == nil {
        do { style = try Style(data: [UInt8](Data(contentsOf: URL(fileURLWithPath: name)))) } catch {
            throw CommandFailure("\(name): \(error)")
        }
        resource = StyleResourceLoader.files(relativeTo: URL(fileURLWithPath: name).deletingLastPathComponent().path, style: style).resource
    } else {
        style = (name.flatMap(DefaultStyle.init(rawValue:)) ?? .standard).style
    }
    let vectorSources = Set(style.sources.filter { $0.source.type == .vector }.map(\.id))
    let tiles: @Sendable (String, TileID) -> [UInt8]? = { sourceID, id in
        guard vectorSources.contains(sourceID) else { return nil }
        return (try? archive.tile(id)).flatMap { $0.map { [UInt8]($0) } }
    }
    return (style, StyleResourceLoader(tile: tiles, resource: resource))
}
