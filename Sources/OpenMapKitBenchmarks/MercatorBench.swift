import OpenMapKit

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

/// A small deterministic generator so every run measures the same inputs.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func nextDouble(in range: ClosedRange<Double>) -> Double {
        range.lowerBound + Double(next() >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
    }
}
