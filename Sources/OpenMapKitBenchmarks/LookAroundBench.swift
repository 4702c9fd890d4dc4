import Foundation
import MapBundle
import OpenMapKit
import TestSupport

/// `OpenMapKitBenchmarks lookaround [BUNDLE] [--points N]`: how long finding a Look Around scene
/// takes (`MKLookAroundSceneRequest`, issue 24's target: under 5 ms), for random points inside the
/// bundle's extract bounds (the Monaco sample when no bundle is given) — streets, squares, sea and all — after one warm-up request; the median
/// and p99 of the whole request (the async form, as an app calls it), and how many had a scene.
func runLookAroundBenchmark(arguments: [String]) throws {
    var bundlePath: String?, points = 2000
    var rest = arguments[...]
    while let argument = rest.popFirst() {
        if argument == "--points", let value = rest.popFirst().flatMap({ Int($0) }) { points = value } else { bundlePath = argument }
    }
    let path = try bundlePath ?? SampleBundle.monaco().path
    let bundle = try MapBundle(url: URL(fileURLWithPath: path))
    let box = (bundle.manifest.bounds ?? "").split(separator: ",").compactMap { Double($0) }
    guard box.count == 4 else { throw BenchmarkFailure("\(path) has no extract bounds in its manifest") }
    let source = try MapDataSource(path: path)
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

/// `OpenMapKitBenchmarks lookaround-render [BUNDLE] [--scenes N]`: how long drawing a Look Around
/// picture takes (`MKLookAroundSnapshotter`, 640×480 points at scale 1; issue 24's target: under
/// 150 ms warm on two cores). Standpoints are the first N random points inside the bundle's bounds
/// that have a scene (the Monaco sample when no bundle is given). Cold: the first picture at a
/// standpoint (the scene file read and its meshes built, then drawn); warm: pictures at the same
/// standpoint looking four other ways (drawing only, as when someone turns around). Medians and p90.
func runLookAroundRenderBenchmark(arguments: [String]) throws {
    var bundlePath: String?, scenes = 20
    var rest = arguments[...]
    while let argument = rest.popFirst() {
        if argument == "--scenes", let value = rest.popFirst().flatMap({ Int($0) }) { scenes = max(1, value) } else { bundlePath = argument }
    }
    let url = try bundlePath.map { URL(fileURLWithPath: $0) } ?? SampleBundle.monaco()
    let bundle = try MapBundle(url: url)
    let box = (bundle.manifest.bounds ?? "").split(separator: ",").compactMap { Double($0) }
    guard box.count == 4 else { throw BenchmarkFailure("\(url.path) has no extract bounds in its manifest") }
    let source = try MapDataSource(bundleURL: url)
    var random = SplitMix64(seed: 240)
    var found: [MKLookAroundScene] = []
    for _ in 0..<(scenes * 200) where found.count < scenes {
        let coordinate = CLLocationCoordinate2D(latitude: box[1] + (box[3] - box[1]) * Double(random.next() % 1_000_000) / 1e6,
                                                longitude: box[0] + (box[2] - box[0]) * Double(random.next() % 1_000_000) / 1e6)
        let request = MKLookAroundSceneRequest(coordinate: coordinate)
        request.dataSource = source
        if let scene = try request.sceneHere() { found.append(scene) }
    }
    guard !found.isEmpty else { throw BenchmarkFailure("no Look Around scene found in \(url.lastPathComponent)") }
    // Noon on a fixed day: the same light in every run.
    let noon = Date(timeIntervalSince1970: 1_781_870_400)
    func draw(_ scene: MKLookAroundScene, heading: Double) throws -> Double {
        let options = MKLookAroundSnapshotter.Options()
        options.size = CGSize(width: 640, height: 480)
        options.heading = heading
        options.date = noon
        let snapshotter = MKLookAroundSnapshotter(scene: scene, options: options)
        snapshotter.dataSource = source
        let start = ContinuousClock.now
        _ = try snapshotter.snapshotHere()
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
    }
    // One picture first: Mesa compiles its shaders once per process.
    _ = try draw(found[0], heading: 0)
    var cold: [Double] = [], warm: [Double] = []
    for scene in found.dropFirst() + [found[0]] {
        let start = scene.heading + 37
        cold.append(try draw(scene, heading: start.truncatingRemainder(dividingBy: 360)))
        for turn in 1...4 { warm.append(try draw(scene, heading: (start + Double(turn) * 72).truncatingRemainder(dividingBy: 360))) }
    }
    cold.sort()
    warm.sort()
    print(String(format: "lookaround render 640x480, %d scenes in %@: warm median %.1f ms (p90 %.1f), cold median %.1f ms (p90 %.1f)",
                 found.count, url.lastPathComponent, nearestRank(warm, 0.5), nearestRank(warm, 0.9), nearestRank(cold, 0.5), nearestRank(cold, 0.9)))
}
