import Foundation
import MapBundle
import OpenMapKit
import TestSupport

/// `OpenMapKitBenchmarks lookaround BUNDLE [--points N]`: how long finding a Look Around scene
/// takes (`MKLookAroundSceneRequest`, issue 24's target: under 5 ms), for random points inside the
/// bundle's extract bounds — streets, squares, sea and all — after one warm-up request; the median
/// and p99 of the whole request (the async form, as an app calls it), and how many had a scene.
func runLookAroundBenchmark(arguments: [String]) throws {
    var bundlePath: String?, points = 2000
    var rest = arguments[...]
    while let argument = rest.popFirst() {
        if argument == "--points", let value = rest.popFirst().flatMap({ Int($0) }) { points = value } else { bundlePath = argument }
    }
    guard let bundlePath else { throw BenchmarkFailure("usage: OpenMapKitBenchmarks lookaround BUNDLE [--points N]") }
    let bundle = try MapBundle(url: URL(fileURLWithPath: bundlePath))
    let box = (bundle.manifest.bounds ?? "").split(separator: ",").compactMap { Double($0) }
    guard box.count == 4 else { throw BenchmarkFailure("\(bundlePath) has no extract bounds in its manifest") }
    let source = try MapDataSource(path: bundlePath)
    var random = SplitMix64(seed: 24)
    func point() -> CLLocationCoordinate2D {
        CLLocationCoordinate2D(latitude: box[1] + (box[3] - box[1]) * Double(random.next() % 1_000_000) / 1e6,
                               longitude: box[0] + (box[2] - box[0]) * Double(random.next() % 1_000_000) / 1e6)
    }
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var times: [Double] = [], found = 0
    let coordinates = (0...points).map { _ in point() }
    Task {
        for (index, coordinate) in coordinates.enumerated() {
            let request = MKLookAroundSceneRequest(coordinate: coordinate)
            request.dataSource = source
            let start = ContinuousClock.now
            let scene = try? await request.scene
            let elapsed = ContinuousClock.now - start
            // The first request opens the walking graph: a warm-up, not a sample.
            guard index > 0 else { continue }
            times.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
            if scene != nil { found += 1 }
        }
        done.signal()
    }
    done.wait()
    let sorted = times.sorted()
    print(String(format: "lookaround scene lookup, %d points in %@: median %.3f ms, p99 %.3f ms; %d with a scene",
                 sorted.count, bundle.url.lastPathComponent, nearestRank(sorted, 0.5), nearestRank(sorted, 0.99), found))
}

/// Why the Look Around benchmark cannot run.
struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
