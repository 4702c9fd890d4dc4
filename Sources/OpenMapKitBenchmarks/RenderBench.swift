import Foundation
import MapFormats
import MapBundle
import MapRender
import MapStyle
import OpenMapKit

/// `OpenMapKitBenchmarks render BUNDLE [--threads N] [--json]`: the rendering figures
/// `Benchmarks/compare-render.py` reports for a bundle (Monaco's in `make bench`):
/// - a 1024 × 1024-point city snapshot at 2× (2048 × 2048 pixels) with the default style, PNG
///   encoding included: the median of 5 renders after a first one that reads the tiles;
/// - raster tiles per second: every 256-point 1× tile of zooms 14 and 15 over the extract's bounds,
///   PNG encoded, shared out between N threads that each have their own renderer and archive.
func runRenderBenchmarks(arguments: [String]) throws {
    guard let path = arguments.first else {
        throw RenderError("usage: OpenMapKitBenchmarks render BUNDLE [--threads N] [--json]")
    }
    var threads = 2
    if let index = arguments.firstIndex(of: "--threads"), index + 1 < arguments.count, let n = Int(arguments[index + 1]), n > 0 {
        threads = n
    }
    let json = arguments.contains("--json")
    let bundle = try MapBundle(url: URL(fileURLWithPath: path))

    // Snapshot: the middle of the extract at zoom 15.
    let bounds = bundle.manifest.bounds?.split(separator: ",").compactMap { Double($0) } ?? []
    guard bounds.count == 4 else { throw RenderError("\(path): the manifest has no bounds") }
    let center = CLLocationCoordinate2D(latitude: (bounds[1] + bounds[3]) / 2, longitude: (bounds[0] + bounds[2]) / 2)
    let snapshot = try StyleRenderer(style: DefaultStyle.standard.style, loader: bundleLoader(bundle))
    var snapshotMs: [Double] = []
    var snapshotBytes = 0
    for _ in 0..<6 {
        let start = DispatchTime.now().uptimeNanoseconds
        let png = try snapshot.render(center: center, zoom: 15, width: 1024, height: 1024, pixelRatio: 2).fastPNGData()
        snapshotMs.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        snapshotBytes = png.count
    }
    let coldMs = snapshotMs.removeFirst()
    snapshotMs.sort()

    // Tiles: every 256-point tile of zooms 14 and 15 over the bounds.
    let rect = MKMapRect(MKCoordinateRegion(center: center, span: MKCoordinateSpan(latitudeDelta: bounds[3] - bounds[1],
                                                                                  longitudeDelta: bounds[2] - bounds[0])))
    let tiles = [14, 15].flatMap { TileRange(covering: rect, zoom: $0)?.tiles ?? [] }
    final class Results: @unchecked Sendable {
        let lock = NSLock()
        var count = 0, bytes = 0, failures: [String] = []
    }
    let results = Results()
    let group = DispatchGroup()
    // The renderers (style compiled, fonts opened) are made before the clock starts; each is then
    // used by one thread only. Tiles are decoded as they are first needed, inside the timing.
    final class Worker: @unchecked Sendable {
        let renderer: TileRenderer, tiles: [TileID]
        init(_ renderer: TileRenderer, _ tiles: [TileID]) { (self.renderer, self.tiles) = (renderer, tiles) }
    }
    let workers = try (0..<threads).map { worker in
        // The workers share out the cores, so each draws its tiles on one thread.
        let renderer = try TileRenderer(style: DefaultStyle.standard.style, loader: bundleLoader(bundle))
        renderer.renderer.maximumThreads = 1
        return Worker(renderer, stride(from: worker, to: tiles.count, by: threads).map { tiles[$0] })
    }
    let start = DispatchTime.now().uptimeNanoseconds
    for worker in workers {
        group.enter()
        let thread = Thread {
            defer { group.leave() }
            var count = 0, bytes = 0, failures: [String] = []
            for tile in worker.tiles {
                do {
                    bytes += try worker.renderer.pngData(z: tile.z, x: tile.x, y: tile.y, tileSize: 256, scale: 1).count
                    count += 1
                } catch {
                    failures.append("\(tile): \(error)")
                }
            }
            results.lock.lock()
            results.count += count
            results.bytes += bytes
            results.failures += failures
            results.lock.unlock()
        }
        thread.stackSize = 8 << 20
        thread.start()
    }
    group.wait()
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let tilesPerSecond = Double(results.count) / seconds

    if json {
        let report: [String: Any] = [
            "snapshot": ["points": "1024x1024", "pixelRatio": 2, "zoom": 15, "coldMs": coldMs,
                         "medianMs": snapshotMs[snapshotMs.count / 2], "minMs": snapshotMs[0], "samples": snapshotMs.count,
                         "pngBytes": snapshotBytes, "warnings": snapshot.warnings],
            "tiles": ["zooms": "14-15", "tileSize": 256, "scale": 1, "threads": threads, "count": results.count,
                      "seconds": seconds, "tilesPerSecond": tilesPerSecond, "averagePNGBytes": results.count > 0 ? results.bytes / results.count : 0,
                      "failures": results.failures],
        ]
        print(String(decoding: try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys]), as: UTF8.self))
    } else {
        print(String(format: "Monaco snapshot 1024×1024 @2x (default style)   median %8.1f ms   (first %.1f ms, min %.1f ms, %d samples)",
                     snapshotMs[snapshotMs.count / 2], coldMs, snapshotMs[0], snapshotMs.count))
        print(String(format: "Raster tiles z14–15, 256 px @1x, %d threads   %8.1f tiles/s   (%d tiles in %.2f s)",
                     threads, tilesPerSecond, results.count, seconds))
        for failure in results.failures.prefix(5) { print("  failed: \(failure)") }
    }
}

/// Reads the bundle's vector tiles for every source, the default style's sprite from the module.
private func bundleLoader(_ bundle: MapBundle) throws -> StyleResourceLoader {
    let archive = try bundle.tiles()
    return StyleResourceLoader(tile: { _, id in (try? archive.tile(id)).flatMap { $0.map { [UInt8]($0) } } },
                               resource: DefaultStyle.resource)
}
