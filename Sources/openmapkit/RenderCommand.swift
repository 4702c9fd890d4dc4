import ArgumentParser
import Foundation
import MapRender
import MapStyle
import OpenMapKit

/// `openmapkit render STYLE.json`: draws a self-contained MapLibre style (tiles, GeoJSON and
/// sprites as files beside it, as in the render conformance suite) for a camera, optionally many
/// times to time it; `Benchmarks/compare-render.py` compares these times with MapLibre Native's.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a MapLibre style file whose tiles are local files to a PNG (and time it).",
        discussion: """
        Tile templates, GeoJSON data and sprite URLs in the style are paths relative to the style's \
        folder. With --repeat N the image is drawn N times with one renderer (decoded tiles stay \
        cached, as in an app) and each render's time, PNG encoding included, is reported.
        """)

    @Argument(help: "The style file.")
    var style: String

    @OptionGroup var camera: CameraOptions
    @OptionGroup var image: ImageOptions

    @Option(name: .customLong("repeat"), help: "How many times to draw the image (the first one reads and decodes the tiles).")
    var repeatCount = 1

    @Option(name: .shortAndLong, help: "Where to write the PNG (the last render's).")
    var output: String?

    @Option(help: "Threads one render may draw and encode with (default: one per core).")
    var threads: Int?

    @OptionGroup var format: JSONOption

    /// What `render --json` prints: per-render times in milliseconds, the first one cold.
    struct Report: Encodable {
        var renders: Int
        var pixelWidth: Int
        var pixelHeight: Int
        var pngBytes: Int
        /// Drawing plus PNG encoding, per render.
        var totalMs: [Double]
        /// Drawing only.
        var drawMs: [Double]
        /// The median of `totalMs` without the first (cold) render, or the only one.
        var warmMedianMs: Double
        var warnings: [String]
    }

    func validate() throws {
        guard (1...10_000).contains(repeatCount) else { throw ValidationError("--repeat must be between 1 and 10000") }
        guard camera.center != nil, camera.zoom != nil else { throw ValidationError("give the camera with --center and --zoom") }
    }

    /// 512×512 points unless `--size` says otherwise.
    private var size: ViewSize { image.size ?? ViewSize(argument: "512x512")! }
    private var scale: Double { image.scale }

    func run() throws {
        let mapStyle: Style
        do { mapStyle = try Style(data: [UInt8](Data(contentsOf: URL(fileURLWithPath: style)))) } catch {
            throw CommandFailure("\(style): \(error)")
        }
        let folder = URL(fileURLWithPath: style).deletingLastPathComponent().path
        let (draw, total, png, warnings) = try timedRenders(mapStyle, loader: .files(relativeTo: folder, style: mapStyle))
        if let output { try Data(png).write(to: URL(fileURLWithPath: output)) }
        let warm = total.count > 1 ? Array(total.dropFirst()) : total
        let report = Report(renders: total.count, pixelWidth: Int((size.width * scale).rounded(.up)),
                            pixelHeight: Int((size.height * scale).rounded(.up)), pngBytes: png.count,
                            totalMs: total, drawMs: draw, warmMedianMs: warm.sorted()[warm.count / 2],
                            warnings: warnings)
        if format.json {
            try printJSON(report)
        } else {
            for warning in report.warnings { FileHandle.standardError.write(Data("warning: \(warning)\n".utf8)) }
            print(String(format: "%d render(s) of %d×%d pixels: first %.1f ms, warm median %.1f ms (PNG encoding included)",
                         report.renders, report.pixelWidth, report.pixelHeight, total[0], report.warmMedianMs)
                  + (output.map { ", wrote \($0)" } ?? ""))
        }
    }

    /// Draws and encodes the image `repeatCount` times with one renderer, timing each.
    private func timedRenders(_ mapStyle: Style, loader: StyleResourceLoader) throws
        -> (draw: [Double], total: [Double], png: [UInt8], warnings: [String]) {
        var draw: [Double] = [], total: [Double] = [], png: [UInt8] = []
        do {
            let renderer = try StyleRenderer(style: mapStyle, loader: loader)
            let threads = max(1, self.threads ?? renderer.maximumThreads)
            renderer.maximumThreads = threads
            for _ in 0..<repeatCount {
                let start = DispatchTime.now().uptimeNanoseconds
                let canvas = try renderer.render(center: camera.center!, zoom: camera.zoom!, bearing: camera.bearing,
                                                 width: size.width, height: size.height, pixelRatio: scale)
                let drawn = DispatchTime.now().uptimeNanoseconds
                png = try canvas.fastPNGData(threads: threads)
                let end = DispatchTime.now().uptimeNanoseconds
                draw.append(Double(drawn - start) / 1e6)
                total.append(Double(end - start) / 1e6)
            }
            return (draw, total, png, renderer.warnings)
        } catch {
            throw CommandFailure("\(style): \(error)")
        }
    }
}
