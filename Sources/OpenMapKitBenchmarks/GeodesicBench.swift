import Foundation
import OpenMapKit
import TestSupport

/// Geodesic throughput: the inverse problem over random point pairs (one in ten nearly antipodal,
/// which takes the astroid start and more Newton steps), the nearly antipodal pairs alone, and the
/// direct problem.
func geodesicBenchmarks() -> [Benchmark] {
    let geodesic = Geodesic.wgs84
    var generator = SplitMix64(seed: 7)
    let count = 200_000

    struct Pair { var lat1, lon1, lat2, lon2: Double }
    func antipodal(_ g: inout SplitMix64) -> Pair {
        let lat1 = g.nextDouble(in: -90...90), lon1 = g.nextDouble(in: -180...180)
        // Within a degree (often much less) of the antipode.
        let scale = pow(10, -g.nextDouble(in: 0...9))
        let lat2 = max(-90, min(90, -lat1 + scale * g.nextDouble(in: -1...1)))
        return Pair(lat1: lat1, lon1: lon1, lat2: lat2, lon2: lon1 + 180 + scale * g.nextDouble(in: -1...1))
    }
    let mixed: [Pair] = (0..<count).map { i in
        if i % 10 == 9 { return antipodal(&generator) }
        return Pair(lat1: generator.nextDouble(in: -90...90), lon1: generator.nextDouble(in: -180...180),
                    lat2: generator.nextDouble(in: -90...90), lon2: generator.nextDouble(in: -180...180))
    }
    let nearlyAntipodal: [Pair] = (0..<count / 4).map { _ in antipodal(&generator) }
    struct Start { var lat, lon, azi, s: Double }
    let starts: [Start] = (0..<count).map { _ in
        Start(lat: generator.nextDouble(in: -90...90), lon: generator.nextDouble(in: -180...180),
              azi: generator.nextDouble(in: -180...180), s: generator.nextDouble(in: 0...20_000_000))
    }
    return [
        Benchmark(name: "Geodesic.inverse (random, 10% antipodal)", unit: "inverse", operations: mixed.count) {
            var sum = 0.0
            for p in mixed {
                sum += geodesic.inverse(latitude1: p.lat1, longitude1: p.lon1, latitude2: p.lat2, longitude2: p.lon2).distance
            }
            blackHole(sum)
        },
        Benchmark(name: "Geodesic.inverse (nearly antipodal)", unit: "inverse", operations: nearlyAntipodal.count) {
            var sum = 0.0
            for p in nearlyAntipodal {
                sum += geodesic.inverse(latitude1: p.lat1, longitude1: p.lon1, latitude2: p.lat2, longitude2: p.lon2).distance
            }
            blackHole(sum)
        },
        Benchmark(name: "Geodesic.direct", unit: "direct", operations: starts.count) {
            var sum = 0.0
            for s in starts {
                let r = geodesic.direct(latitude1: s.lat, longitude1: s.lon, azimuth1: s.azi, distance: s.s)
                sum += r.latitude2 + r.longitude2
            }
            blackHole(sum)
        },
    ]
}
