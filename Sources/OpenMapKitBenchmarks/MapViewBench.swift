import Foundation
import MapBundle
import MapRender
import OpenMapKit
import TestSupport

// The map view's figures (issue 8), which `Benchmarks/compare-mapview.py` sets beside MapLibre
// Native rendering the same views:
//
// `OpenMapKitBenchmarks mapview BUNDLE [--path pan|zoom|both] [--frames N] [--size WxH] [--json]
// [--save PNG [--save-frame K]]`:
// an MKMapView of WxH points (1280 × 800) on the bundle follows a scripted camera path over the
// bundle's area (its manifest bounds): a pan round an ellipse at zoom 15.5 (some tens of points per
// frame), a continuous zoom 15 → 17 → 13 → 15 in fractional steps, and a full turn of the heading
// at zoom 15.5 (`both` has all three). Each frame is the camera change plus `render()`, timed in
// wall time (and the process's CPU time, which other processes on a shared machine do not
// inflate), in three variants, each on a map view of its own (so each has a cold first frame),
// stepping through the path together frame by frame:
// - full resolution (contentScaleFactor 1): what the window draws when the map comes to rest;
// - moving frames (contentScaleFactor 0.5): what the window draws while the map moves (a
//   quarter of the pixels, scaled up on screen, see MapWindow.swift);
// - full resolution plus PNG encoding (`fastPNGData`, the server's encoder): like for like with
//   a renderer whose API returns PNG bytes, as MapLibre Native's does here.
// The first frame of each variant (tiles read, style compiled) is reported apart and left out of
// the median, p90 and p99. With --json every frame is a JSON line (centre, zoom, heading as the
// map view shows them, each variant's wall and CPU time, and the PNG encoding's share), so a peer
// can render exactly the same views, then one `summary` line. --save PNG writes frame K
// (--save-frame, default 1) of the PNG variant.
//
// `OpenMapKitBenchmarks mapview-cluster [BUNDLE] [--points N,N...] [--runs N] [--views dequeue|new]
// [--geojson DIR] [--json]`:
// the map view's clustering end to end. N MKPointAnnotations (fixed seed) gathered round 40
// places inside the 1280 × 800 view of Monaco at zoom 14, whose views (MKMarkerAnnotationView from
// the delegate) share one clusteringIdentifier, clustering radius 40 points (supercluster's and
// MapLibre's default, as the PointClusterIndex benchmark uses). Timed, on a fresh map view per run
// (median of `--runs` runs, wall time and thread CPU time): adding them (a view each, as all are
// on screen, and the first clustering), adding one more (as an app adding them one at a time
// does), a frame drawn with the clusters (with a BUNDLE; its tiles were read by a frame drawn
// before), a zoom in to the next whole level (clusters recomputed), a fractional zoom within that
// level (clusters kept), a pan by half the view's width, a zoom out back, removing them all.
// `--views new` has the delegate make each view new instead of dequeuing one (the default, as
// apps do), which leaves the reuse queue's cost out. Also the PointClusterIndex build alone for
// the same points with the map view's options.
// --geojson DIR writes the points as DIR/points-N.geojson for the peer's GeoJSON source.

/// Where a frame's camera is: what the map view shows after the change.
struct PathFrame {
    var segment: String
    var center: CLLocationCoordinate2D
    var zoom: Double
    var heading: Double
}

enum MapViewBenchError: Error, CustomStringConvertible {
    case usage(String)
    var description: String {
        switch self {
        case .usage(let message): return message
        }
    }
}

func runMapViewBenchmark(arguments: [String]) throws {
    let usage = "usage: OpenMapKitBenchmarks mapview BUNDLE [--path pan|zoom|both] [--frames N] [--size WxH] [--json] [--save PNG [--save-frame K]]"
    guard let path = arguments.first, !path.hasPrefix("--") else { throw MapViewBenchError.usage(usage) }
    var segments = "both", frames = 240, size = CGSize(width: 1280, height: 800), json = false
    var savePath: String?, saveFrame = 1
    var index = 1
    while index < arguments.count {
        let argument = arguments[index]
        let value = index + 1 < arguments.count ? arguments[index + 1] : nil
        switch argument {
        case "--path" where ["pan", "zoom", "both"].contains(value ?? ""):
            segments = value!
            index += 1
        case "--frames" where Int(value ?? "").map { $0 >= 3 } == true:
            frames = Int(value!)!
            index += 1
        case "--size":
            let parts = (value ?? "").split(separator: "x").compactMap { Double($0) }
            guard parts.count == 2, parts.allSatisfy({ $0 >= 1 && $0 <= 8192 }) else { throw MapViewBenchError.usage(usage) }
            size = CGSize(width: parts[0], height: parts[1])
            index += 1
        case "--json":
            json = true
        case "--save" where value != nil:
            savePath = value
            index += 1
        case "--save-frame" where Int(value ?? "").map { $0 >= 0 } == true:
            saveFrame = Int(value!)!
            index += 1
        default:
            throw MapViewBenchError.usage("unknown or incomplete argument \(argument); \(usage)")
        }
        index += 1
    }
    let bundleURL = URL(fileURLWithPath: path)
    let bundle = try MapBundle(url: bundleURL)
    let bounds = bundle.manifest.bounds?.split(separator: ",").compactMap { Double($0) } ?? []
    guard bounds.count == 4 else { throw MapViewBenchError.usage("\(path): the manifest has no bounds") }
    let dataSource = try MapDataSource(bundleURL: bundleURL)
    let camera = cameraPath(bounds: bounds, segments: segments, frames: frames)

    // The variants: name, scale, whether the frame is PNG encoded.
    let variants: [(key: String, label: String, scale: CGFloat, png: Bool)] = [
        ("full", "full resolution (scale 1)", 1, false),
        ("moving", "moving frames (scale 0.5, the window while panning)", 0.5, false),
        ("png", "full resolution + PNG encoding", 1, true),
    ]
    // The variants step through the path together, frame by frame, so that the load of a shared
    // machine weighs on them alike; each has its own map view (its own caches and cold frame).
    let maps = variants.map { variant in
        let map = MKMapView(frame: CGRect(origin: .zero, size: size), clock: MKManualMapViewClock())
        map.dataSource = dataSource
        map.contentScaleFactor = variant.scale
        return map
    }
    var times: [String: [Double]] = [:], cpuTimes: [String: [Double]] = [:]
    var encodeMs: [Double] = []
    var shown: [PathFrame] = []
    var pngBytes: [Int] = []
    for frame in camera {
        for (variant, map) in zip(variants, maps) {
            let start = DispatchTime.now().uptimeNanoseconds, cpuStart = cpuSeconds(CLOCK_PROCESS_CPUTIME_ID)
            map.camera = MapViewport(size: size, centerCoordinate: frame.center, zoomLevel: frame.zoom, heading: frame.heading).camera
            let image = try map.render()
            if variant.png {
                let encodeStart = DispatchTime.now().uptimeNanoseconds
                let png = try image.renderCanvas.fastPNGData()
                encodeMs.append(Double(DispatchTime.now().uptimeNanoseconds - encodeStart) / 1e6)
                pngBytes.append(png.count)
                if let savePath, pngBytes.count - 1 == saveFrame { try Data(png).write(to: URL(fileURLWithPath: savePath)) }
            }
            times[variant.key, default: []].append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            cpuTimes[variant.key, default: []].append((cpuSeconds(CLOCK_PROCESS_CPUTIME_ID) - cpuStart) * 1000)
            if variant.key == "full" {
                shown.append(PathFrame(segment: frame.segment, center: map.centerCoordinate, zoom: map.zoomLevel, heading: map.camera.heading))
            }
        }
    }

    var segmentNames: [String] = []
    for frame in camera where !segmentNames.contains(frame.segment) { segmentNames.append(frame.segment) }
    func stats(_ values: [Double]) -> [String: Double] {
        let sorted = values.sorted()
        func percentile(_ p: Double) -> Double { nearestRank(sorted, p) }
        let median = percentile(0.5)
        return ["medianMs": median, "p90Ms": percentile(0.9), "p99Ms": percentile(0.99), "minMs": sorted[0],
                "maxMs": sorted[sorted.count - 1], "fps": 1000 / median, "frames": Double(sorted.count)]
    }
    var summary: [String: Any] = ["size": "\(Int(size.width))x\(Int(size.height))", "frames": camera.count, "path": segments,
                                  "bundle": bundleURL.lastPathComponent,
                                  "segments": segmentNames.map { name in [name, camera.filter { $0.segment == name }.count] }]
    for variant in variants {
        let ms = times[variant.key]!
        var entry = stats(Array(ms.dropFirst())) as [String: Any]
        entry["coldMs"] = ms[0]
        entry["cpuMedianMs"] = stats(Array(cpuTimes[variant.key]!.dropFirst()))["medianMs"]!
        entry["label"] = variant.label
        entry["scale"] = Double(variant.scale)
        var bySegment: [String: Any] = [:]
        for name in segmentNames {
            let values = zip(camera, ms).dropFirst().filter { $0.0.segment == name }.map(\.1)
            if !values.isEmpty { bySegment[name] = stats(values) }
        }
        entry["segments"] = bySegment
        summary[variant.key] = entry
    }
    if !pngBytes.isEmpty { summary["averagePNGBytes"] = pngBytes.reduce(0, +) / pngBytes.count }
    if encodeMs.count > 1 { summary["encodeMedianMs"] = stats(Array(encodeMs.dropFirst()))["medianMs"]! }

    if json {
        for (n, frame) in shown.enumerated() {
            var line: [String: Any] = ["frame": n, "segment": frame.segment, "latitude": frame.center.latitude,
                                       "longitude": frame.center.longitude, "zoom": frame.zoom, "heading": frame.heading]
            line["ms"] = Dictionary(uniqueKeysWithValues: variants.map { ($0.key, times[$0.key]![n]) })
            line["cpuMs"] = Dictionary(uniqueKeysWithValues: variants.map { ($0.key, cpuTimes[$0.key]![n]) })
            if n < encodeMs.count { line["encodeMs"] = encodeMs[n] }
            print(String(decoding: try JSONSerialization.data(withJSONObject: line, options: [.sortedKeys]), as: UTF8.self))
        }
        print(String(decoding: try JSONSerialization.data(withJSONObject: ["summary": summary], options: [.sortedKeys]), as: UTF8.self))
        return
    }
    let counts = segmentNames.map { name in "\(name) \(camera.filter { $0.segment == name }.count)" }.joined(separator: ", ")
    print("Map view \(Int(size.width))×\(Int(size.height)) on \(bundleURL.lastPathComponent): \(camera.count) frames (\(counts)); "
          + "wall time per frame (camera change + render()), first frame (cold) apart; process CPU time per frame")
    print("variant".padding(toLength: 54, withPad: " ", startingAt: 0) + "   cold ms  median     p90     p99   fps(median)  CPU median")
    for variant in variants {
        let ms = times[variant.key]!
        let s = stats(Array(ms.dropFirst()))
        print(variant.label.padding(toLength: 54, withPad: " ", startingAt: 0)
              + String(format: "  %8.1f %7.1f %7.1f %7.1f   %6.1f       %8.1f", ms[0], s["medianMs"]!, s["p90Ms"]!, s["p99Ms"]!, s["fps"]!,
                       stats(Array(cpuTimes[variant.key]!.dropFirst()))["medianMs"]!))
        for name in segmentNames {
            let values = zip(camera, ms).dropFirst().filter { $0.0.segment == name }.map(\.1)
            guard !values.isEmpty else { continue }
            let t = stats(values)
            print(("  " + name).padding(toLength: 54, withPad: " ", startingAt: 0)
                  + String(format: "          %7.1f %7.1f %7.1f   %6.1f", t["medianMs"]!, t["p90Ms"]!, t["p99Ms"]!, t["fps"]!))
        }
    }
}

/// The scripted camera path over `bounds` (west, south, east, north): `frames` frames shared out
/// between the segments (pan 40 %, zoom 45 %, rotation 15 % for `both`).
func cameraPath(bounds: [Double], segments: String, frames: Int) -> [PathFrame] {
    let sw = MKMapPoint(CLLocationCoordinate2D(latitude: bounds[1], longitude: bounds[0]))
    let ne = MKMapPoint(CLLocationCoordinate2D(latitude: bounds[3], longitude: bounds[2]))
    let mid = MKMapPoint(x: (sw.x + ne.x) / 2, y: (sw.y + ne.y) / 2)
    let center = mid.coordinate
    let (rx, ry) = (abs(ne.x - sw.x) * 0.3, abs(ne.y - sw.y) * 0.3)
    var shares: [(String, Double)]
    switch segments {
    case "pan": shares = [("pan", 1)]
    case "zoom": shares = [("zoom", 1)]
    default: shares = [("pan", 0.4), ("zoom", 0.45), ("rotate", 0.15)]
    }
    var counts = shares.map { max(1, Int((Double(frames) * $0.1).rounded())) }
    counts[0] += frames - counts.reduce(0, +)
    var path: [PathFrame] = []
    for ((name, _), count) in zip(shares, counts) {
        for i in 0..<count {
            let t = Double(i) / Double(count)
            switch name {
            case "pan":
                // Once round an ellipse over the middle of the area, starting at its west end.
                let angle = 2 * Double.pi * t
                let p = MKMapPoint(x: mid.x - rx * cos(angle), y: mid.y + ry * sin(angle))
                path.append(PathFrame(segment: name, center: p.coordinate, zoom: 15.5, heading: 0))
            case "zoom":
                // 15 → 17 → 13 → 15: a quarter of the frames up, half down, a quarter back.
                let zoom = t < 0.25 ? 15 + 8 * t : t < 0.75 ? 17 - 8 * (t - 0.25) : 13 + 8 * (t - 0.75)
                path.append(PathFrame(segment: name, center: center, zoom: zoom, heading: 0))
            default:
                path.append(PathFrame(segment: name, center: center, zoom: 15.5, heading: 360 * t))
            }
        }
    }
    return path
}

// MARK: - Clustering

/// Gives each annotation a marker that clusters under one identifier; clusters get MapKit's
/// default cluster view.
private final class ClusterBenchDelegate: MKMapViewDelegate {
    var views = 0
    /// Whether views come from the reuse queue (as apps do) or are made new each time.
    let dequeues: Bool
    init(dequeues: Bool) { self.dequeues = dequeues }

    func mapView(_ mapView: MKMapView, viewFor annotation: any MKAnnotation) -> MKAnnotationView? {
        if annotation is MKClusterAnnotation { return nil }
        views += 1
        let view = dequeues ? mapView.dequeueReusableAnnotationView(withIdentifier: "poi", for: annotation)
            : MKMarkerAnnotationView(annotation: annotation, reuseIdentifier: "poi")
        view.clusteringIdentifier = "poi"
        return view
    }
}

func runMapViewClusterBenchmark(arguments: [String]) throws {
    let usage = "usage: OpenMapKitBenchmarks mapview-cluster [BUNDLE] [--points N,N...] [--runs N] [--views dequeue|new] [--geojson DIR] [--json]"
    var counts = [10_000, 100_000], runs = 3, json = false, dequeues = true
    var bundlePath: String?, geojsonFolder: String?
    var index = 0
    while index < arguments.count {
        let argument = arguments[index]
        let value = index + 1 < arguments.count ? arguments[index + 1] : nil
        switch argument {
        case "--points" where value != nil:
            counts = value!.split(separator: ",").compactMap { Int($0) }.filter { $0 > 0 }
            index += 1
        case "--runs" where Int(value ?? "").map { $0 > 0 } == true:
            runs = Int(value!)!
            index += 1
        case "--views" where value == "dequeue" || value == "new":
            dequeues = value == "dequeue"
            index += 1
        case "--geojson" where value != nil:
            geojsonFolder = value
            index += 1
        case "--json":
            json = true
        default:
            guard !argument.hasPrefix("--"), bundlePath == nil else { throw MapViewBenchError.usage("unknown argument \(argument); \(usage)") }
            bundlePath = argument
        }
        index += 1
    }
    let size = CGSize(width: 1280, height: 800), zoom = 14.0, radius = 40.0
    let center = CLLocationCoordinate2D(latitude: 43.7384, longitude: 7.4246)
    let dataSource = try bundlePath.map { try MapDataSource(bundleURL: URL(fileURLWithPath: $0)) }
    let view = MapViewport(size: size, centerCoordinate: center, zoomLevel: zoom)

    var report: [[String: Any]] = []
    if !json {
        print("Map view clustering, \(Int(size.width))×\(Int(size.height)) at zoom \(Int(zoom)) over Monaco, radius \(Int(radius)) pt, "
              + "one clusteringIdentifier, views \(dequeues ? "dequeued for reuse" : "made new"); median of \(runs) runs on a fresh map view, wall ms (thread CPU ms)")
    }
    for count in counts {
        let coordinates = clusterBenchCoordinates(count: count, in: view.visibleMapRect)
        if let folder = geojsonFolder {
            try writeGeoJSON(coordinates, to: URL(fileURLWithPath: folder).appendingPathComponent("points-\(count).geojson"))
        }
        let annotations = coordinates.map { MKPointAnnotation(coordinate: $0) }
        let extra = MKPointAnnotation(coordinate: center)
        var steps: [String: [(wall: Double, cpu: Double)]] = [:]
        var order: [String] = []
        var facts: [String: Int] = [:]
        func timed(_ name: String, _ body: () throws -> Void) rethrows {
            let wall0 = DispatchTime.now().uptimeNanoseconds, cpu0 = cpuSeconds(CLOCK_THREAD_CPUTIME_ID)
            try body()
            let sample = (Double(DispatchTime.now().uptimeNanoseconds - wall0) / 1e6, (cpuSeconds(CLOCK_THREAD_CPUTIME_ID) - cpu0) * 1000)
            if steps[name] == nil { order.append(name) }
            steps[name, default: []].append(sample)
        }
        for _ in 0..<runs {
            let map = MKMapView(frame: CGRect(origin: .zero, size: size), clock: MKManualMapViewClock())
            let delegate = ClusterBenchDelegate(dequeues: dequeues)
            map.delegate = delegate
            map.register(MKMarkerAnnotationView.self, forAnnotationViewWithReuseIdentifier: "poi")
            map.clusteringRadius = CGFloat(radius)
            map.setCenter(center, animated: false)
            map.setZoomLevel(zoom, animated: false)
            if let dataSource {
                map.dataSource = dataSource
                _ = try map.render()
            }
            timed("add \(count) + first clustering") { map.addAnnotations(annotations) }
            facts["views"] = delegate.views
            facts["clusters at z14"] = map.clusterAnnotations.count
            // One more, as an app adding annotations one at a time does: the whole group is rebuilt.
            timed("add 1 more (the whole group re-indexed)") { map.addAnnotation(extra) }
            if dataSource != nil { try timed("frame drawn with clusters (render)") { _ = try map.render() } }
            timed("zoom in 14 → 15 (re-clustering)") { map.setZoomLevel(zoom + 1, animated: false) }
            facts["clusters at z15"] = map.clusterAnnotations.count
            timed("zoom 15 → 15.5 (same level)") { map.setZoomLevel(zoom + 1.5, animated: false) }
            let shifted = MKMapPoint(x: MKMapPoint(center).x + Double(size.width) / 2 * map.viewport.mapPointsPerPoint, y: MKMapPoint(center).y)
            timed("pan by half the width at 15.5") { map.setCenter(shifted.coordinate, animated: false) }
            timed("zoom out 15.5 → 14 (re-clustering)") {
                map.setCenter(center, animated: false)
                map.setZoomLevel(zoom, animated: false)
            }
            timed("remove all") { map.removeAnnotations(annotations + [extra]) }
        }
        // The index alone, as the map view builds it (its options, priority order = order added).
        let options = PointClusterOptions(radius: radius, extent: MapViewport.worldPointsAtZoomZero, minZoom: 0,
                                          maxZoom: Int(MKMapView.maximumZoomLevel))
        let points = coordinates.enumerated().map { PointClusterIndex.Point(coordinate: $1, payload: $0) }
        for _ in 0..<runs {
            try timed("PointClusterIndex build alone (zooms 0-22)") {
                var index = try PointClusterIndex(options: options)
                index.load(points)
                blackHole(index)
            }
        }
        var entry: [String: Any] = ["points": count, "runs": runs, "facts": facts]
        var medians: [[String: Any]] = []
        for name in order {
            let samples = steps[name]!
            let wall = samples.map(\.wall).sorted()[samples.count / 2], cpu = samples.map(\.cpu).sorted()[samples.count / 2]
            medians.append(["step": name, "wallMs": wall, "cpuMs": cpu])
            if !json { print(String(format: "%7d  %@ %9.1f ms (%.1f)", count, name.padding(toLength: 46, withPad: " ", startingAt: 0), wall, cpu)) }
        }
        entry["steps"] = medians
        if !json {
            print("         " + facts.keys.sorted().map { "\($0): \(facts[$0]!)" }.joined(separator: ", "))
        }
        report.append(entry)
    }
    if json {
        let summary: [String: Any] = ["views": dequeues ? "dequeue" : "new", "size": "\(Int(size.width))x\(Int(size.height))", "zoom": zoom, "radius": radius,
                                      "latitude": center.latitude, "longitude": center.longitude, "counts": report]
        print(String(decoding: try JSONSerialization.data(withJSONObject: summary, options: [.sortedKeys]), as: UTF8.self))
    }
}

/// `count` coordinates (fixed seed) gathered round 40 places spread over `rect`: each a bell
/// shape about a tenth of the rectangle's width across, as shops or stops gather in a city.
private func clusterBenchCoordinates(count: Int, in rect: MKMapRect) -> [CLLocationCoordinate2D] {
    var random = SplitMix64(seed: 2026)
    let places = (0..<40).map { _ in
        MKMapPoint(x: random.uniform(rect.minX + 0.05 * rect.width, rect.maxX - 0.05 * rect.width),
                   y: random.uniform(rect.minY + 0.05 * rect.height, rect.maxY - 0.05 * rect.height))
    }
    let spread = rect.width / 20
    return (0..<count).map { n in
        let place = places[n % places.count]
        let dx = (random.uniform(-1, 1) + random.uniform(-1, 1) + random.uniform(-1, 1)) / 3 * spread
        let dy = (random.uniform(-1, 1) + random.uniform(-1, 1) + random.uniform(-1, 1)) / 3 * spread
        return MKMapPoint(x: min(max(place.x + dx, rect.minX), rect.maxX), y: min(max(place.y + dy, rect.minY), rect.maxY)).coordinate
    }
}

private func writeGeoJSON(_ coordinates: [CLLocationCoordinate2D], to url: URL) throws {
    var text = "{\"type\":\"FeatureCollection\",\"features\":["
    text.reserveCapacity(coordinates.count * 80)
    for (n, c) in coordinates.enumerated() {
        if n > 0 { text += "," }
        text += "{\"type\":\"Feature\",\"properties\":{\"n\":\(n)},\"geometry\":{\"type\":\"Point\",\"coordinates\":["
            + String(format: "%.7f,%.7f", c.longitude, c.latitude) + "]}}"
    }
    text += "]}\n"
    try Data(text.utf8).write(to: url)
}
