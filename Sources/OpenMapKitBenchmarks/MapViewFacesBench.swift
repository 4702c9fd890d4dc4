import Foundation
import MapBundle
import MapGeometry
import OpenMapKit

// Issue 22: "frames of an MGLMapView cost what an MKMapView's do". The Mapbox face draws through
// the MapKit face's engine, so a frame should cost the same; this measures it.
//
// `OpenMapKitBenchmarks mapview-faces BUNDLE [--frames N] [--size WxH] [--path pan|zoom|both]`
// drives an MKMapView and an MGLMapView (default style: Mapbox Streets, drawn as the standard map)
// of the same size along the camera path of `mapview` (MapViewBench.swift). Each frame is the
// camera change plus `render()`; the two faces alternate which goes first frame by frame, so a
// shared machine's load weighs on both alike. Like for like: the Mapbox face's logo and
// attribution (which MapKit's view does not draw) are hidden; a third map view, the Mapbox face
// with them shown, gives what they add. The first frame of each (cold) is left out; medians,
// p90 and the ratio Mapbox face / MapKit face are printed.
func runMapViewFacesBenchmark(arguments: [String]) throws {
    let usage = "usage: OpenMapKitBenchmarks mapview-faces BUNDLE [--frames N] [--size WxH] [--path pan|zoom|both]"
    guard let path = arguments.first, !path.hasPrefix("--") else { throw MapViewBenchError.usage(usage) }
    var frames = 240, size = CGSize(width: 1280, height: 800), segments = "both"
    var index = 1
    while index < arguments.count {
        let argument = arguments[index], value = index + 1 < arguments.count ? arguments[index + 1] : nil
        switch argument {
        case "--frames" where Int(value ?? "").map { $0 >= 3 } == true: frames = Int(value!)!
        case "--path" where ["pan", "zoom", "both"].contains(value ?? ""): segments = value!
        case "--size":
            let parts = (value ?? "").split(separator: "x").compactMap { Double($0) }
            guard parts.count == 2, parts.allSatisfy({ $0 >= 1 && $0 <= 8192 }) else { throw MapViewBenchError.usage(usage) }
            size = CGSize(width: parts[0], height: parts[1])
        default: throw MapViewBenchError.usage("unknown or incomplete argument \(argument); \(usage)")
        }
        index += 2
    }
    let bundleURL = URL(fileURLWithPath: path)
    let bounds = try MapBundle(url: bundleURL).manifest.bounds?.split(separator: ",").compactMap { Double($0) } ?? []
    guard bounds.count == 4 else { throw MapViewBenchError.usage("\(path): the manifest has no bounds") }
    let dataSource = try MapDataSource(bundleURL: bundleURL)
    let camera = cameraPath(bounds: bounds, segments: segments, frames: frames)
    let frame = CGRect(origin: .zero, size: size)

    let mapKit = MKMapView(frame: frame, clock: MKManualMapViewClock())
    mapKit.dataSource = dataSource
    func mapbox(ornaments: Bool) -> MGLMapView {
        let map = MGLMapView(frame: frame, styleURL: nil, clock: MKManualMapViewClock())
        map.dataSource = dataSource
        map.logoView.isHidden = !ornaments
        map.attributionButton.isHidden = !ornaments
        return map
    }
    let bare = mapbox(ornaments: false), decorated = mapbox(ornaments: true)
    let faces: [(label: String, draw: (PathFrame) throws -> Void)] = [
        ("MKMapView", { f in
            mapKit.camera = MapViewport(size: size, centerCoordinate: f.center, zoomLevel: f.zoom, heading: f.heading).camera
            _ = try mapKit.render()
        }),
        ("MGLMapView, logo and attribution hidden", { f in
            bare.setCenter(f.center, zoomLevel: f.zoom, direction: f.heading, animated: false)
            _ = try bare.render()
        }),
        ("MGLMapView, logo and attribution shown", { f in
            decorated.setCenter(f.center, zoomLevel: f.zoom, direction: f.heading, animated: false)
            _ = try decorated.render()
        }),
    ]
    var times = [[Double]](repeating: [], count: faces.count)
    for (n, step) in camera.enumerated() {
        // Rotate which face goes first, so none always follows another's cache misses.
        for k in 0..<faces.count {
            let i = (k + n) % faces.count
            let start = DispatchTime.now().uptimeNanoseconds
            try faces[i].draw(step)
            times[i].append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
    }
    func percentile(_ values: [Double], _ p: Double) -> Double { nearestRank(values.sorted(), p) }
    print("Map view faces \(Int(size.width))×\(Int(size.height)) on \(bundleURL.lastPathComponent): \(camera.count) frames, "
          + "camera change + render(), first frame (cold) apart; wall ms")
    print("face".padding(toLength: 44, withPad: " ", startingAt: 0) + "  cold ms  median     p90   × MKMapView (median)")
    let base = percentile(Array(times[0].dropFirst()), 0.5)
    for (i, face) in faces.enumerated() {
        let warm = Array(times[i].dropFirst())
        let median = percentile(warm, 0.5)
        print(face.label.padding(toLength: 44, withPad: " ", startingAt: 0)
              + String(format: " %8.1f %7.1f %7.1f   %.2f", times[i][0], median, percentile(warm, 0.9), median / base))
    }
}
