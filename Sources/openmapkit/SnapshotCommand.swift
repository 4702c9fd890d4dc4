import ArgumentParser
import Foundation
import MapFormats
import MapImport
import MapRender
import MapStyle
import OpenMapKit

/// `openmapkit snapshot`: draws a bundle's map for a camera into a PNG, with the default style or
/// a MapLibre style file (whose vector source tiles `bundle://{z}/{x}/{y}` come from the bundle).
struct SnapshotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapshot",
        abstract: "Render a PNG of the bundle's map (no labels yet).")

    @Option(help: "The bundle folder (default: $OPENMAPKIT_BUNDLE).")
    var bundle: String?

    @Option(help: "The centre, LAT,LON.")
    var center: CLLocationCoordinate2D

    @Option(help: "The zoom level (MapLibre's: the world is 512 points wide at zoom 0).")
    var zoom: Double

    @Option(help: "Degrees the map is turned: with 90, east is up.")
    var bearing = 0.0

    @Option(help: "The image size in points, WIDTHxHEIGHT.")
    var size = ViewSize(argument: "800x600")!

    @Option(help: "Device pixels per point (1, 2 or 3).")
    var scale = 1.0

    @Option(help: "A MapLibre style file instead of the default style.")
    var style: String?

    @Option(name: .shortAndLong, help: "Where to write the PNG.")
    var output: String

    func run() throws {
        guard (0...24).contains(zoom) else { throw ValidationError("--zoom must be between 0 and 24") }
        guard bearing.isFinite, scale.isFinite, scale > 0, scale <= 4 else { throw ValidationError("--bearing must be finite and --scale between 0 and 4") }
        let source = try MapBundle.resolve(bundle)
        let archive = try source.tiles()
        let mapStyle: Style
        if let style {
            do { mapStyle = try Style(data: [UInt8](Data(contentsOf: URL(fileURLWithPath: style)))) } catch {
                throw CommandFailure("\(style): \(error)")
            }
        } else {
            mapStyle = DefaultStyle.standard.style
        }
        // Every vector source reads the bundle's tiles.
        let loader = StyleResourceLoader(tile: { _, id in (try? archive.tile(id)).flatMap { $0.map { [UInt8]($0) } } })
        do {
            let renderer = try StyleRenderer(style: mapStyle, loader: loader)
            let canvas = try renderer.render(center: center, zoom: zoom, bearing: bearing,
                                             width: size.width, height: size.height, pixelRatio: scale)
            try Data(canvas.pngData()).write(to: URL(fileURLWithPath: output))
        } catch let error as RenderError {
            throw CommandFailure("\(error)")
        }
        print("wrote \(output) (\(Int(size.width * scale))×\(Int(size.height * scale)) pixels)")
    }
}
