import OpenMapKit
import TestSupport

/// Map point conversion both ways over a fixed pseudo-random set of coordinates.
func mercatorBenchmarks() -> [Benchmark] {
    var generator = SplitMix64(seed: 42)
    let coordinates = (0..<1_000_000).map { _ in
        CLLocationCoordinate2D(latitude: generator.nextDouble(in: -85...85), longitude: generator.nextDouble(in: -180...180))
    }
    let points = coordinates.map(MKMapPoint.init)
    return [
        Benchmark(name: "MKMapPoint(coordinate)", unit: "point", operations: coordinates.count) {
            var sum = 0.0
            for c in coordinates { let p = MKMapPoint(c); sum += p.x + p.y }
            blackHole(sum)
        },
        Benchmark(name: "MKMapPoint.coordinate", unit: "point", operations: points.count) {
            var sum = 0.0
            for p in points { let c = p.coordinate; sum += c.latitude + c.longitude }
            blackHole(sum)
        },
    ]
}
