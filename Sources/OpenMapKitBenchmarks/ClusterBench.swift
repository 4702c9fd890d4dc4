import Foundation
import MapGeometry
import TestSupport

/// `OpenMapKitBenchmarks cluster [--points N,N...] [--runs N]`: annotation clustering figures
/// (issue 8) for ``PointClusterIndex`` with supercluster's default options (radius 40, extent 512,
/// zooms 0–16), over random points (fixed seed):
/// - `world`: uniform over the Mercator square (longitude −180…180, latitude ±85), few clusters
///   at high zooms;
/// - `towns`: the same count gathered round 200 town centres (Gaussian-ish, ~50 km), so clusters
///   nest deep, as annotations of shops or stops do.
/// Per distribution: index build time (all 18 levels), then a full-world `clusters(in:zoom:)` at
/// several zooms and a tile query, each the median CPU time of `--runs` runs (after one warm-up),
/// with the number of items returned.
func runClusterBenchmarks(arguments: [String]) throws {
    var counts = [10_000, 100_000]
    var runs = 7
    var index = 0
    while index < arguments.count {
        switch arguments[index] {
        case "--points" where index + 1 < arguments.count:
            index += 1
            counts = arguments[index].split(separator: ",").compactMap { Int($0) }.filter { $0 > 0 }
        case "--runs" where index + 1 < arguments.count:
            index += 1
            runs = max(1, Int(arguments[index]) ?? runs)
        default:
            throw PointClusterBenchError.usage(arguments[index])
        }
        index += 1
    }
    print("point clustering (radius 40, extent 512, zooms 0-16), median thread CPU time of \(runs) runs")
    for count in counts {
        for distribution in ["world", "towns"] {
            let points = clusterBenchPoints(count: count, distribution: distribution)
            var built = try PointClusterIndex(points: points)
            let build = clusterBenchMedian(runs: runs) {
                built = try! PointClusterIndex(points: points)
            }
            print(String(format: "%7d %@  build %8.2f ms", count, distribution, build * 1000))
            for zoom in [0, 2, 4, 8, 12, 16] {
                var items = 0
                let time = clusterBenchMedian(runs: runs) {
                    items = built.clusters(in: MKMapRect.world, zoom: Double(zoom)).count
                }
                print(String(format: "        world clusters zoom %2d %9.3f ms  %7d items", zoom, time * 1000, items))
            }
            var tileItems = 0
            // The zoom 8 tile round the first point: a town centre for `towns`.
            let tile = TileID(containing: MKMapPoint(points[0].coordinate), zoom: 8)
            let tileTime = clusterBenchMedian(runs: runs) { tileItems = built.tile(tile).count }
            print(String(format: "        tile %@ %14.3f ms  %7d items", "\(tile)", tileTime * 1000, tileItems))
        }
    }
}

enum PointClusterBenchError: Error, CustomStringConvertible {
    case usage(String)
    var description: String {
        switch self {
        case .usage(let argument): return "unknown argument \(argument); usage: cluster [--points N,N...] [--runs N]"
        }
    }
}

private func clusterBenchPoints(count: Int, distribution: String) -> [PointClusterIndex.Point] {
    var random = SplitMix64(seed: 2026)
    if distribution == "world" {
        return (0..<count).map { n in
            PointClusterIndex.Point(coordinate: CLLocationCoordinate2D(latitude: random.uniform(-85, 85),
                                                                       longitude: random.uniform(-180, 180)), payload: n)
        }
    }
    let towns = (0..<200).map { _ in (random.uniform(-60, 70), random.uniform(-180, 180)) }
    return (0..<count).map { n in
        let town = towns[n % towns.count]
        // The sum of three uniforms: a cheap bell shape about ±0.5° wide.
        let dy = (random.uniform(-1, 1) + random.uniform(-1, 1) + random.uniform(-1, 1)) / 6
        let dx = (random.uniform(-1, 1) + random.uniform(-1, 1) + random.uniform(-1, 1)) / 6
        return PointClusterIndex.Point(coordinate: CLLocationCoordinate2D(latitude: town.0 + dy, longitude: town.1 + dx),
                                       payload: n)
    }
}

/// The median time of `runs` calls, after one warm-up call: the calling thread's CPU time, which
/// other processes on a busy machine do not inflate (the work is single-threaded, so on an idle
/// machine it equals the wall time).
private func clusterBenchMedian(runs: Int, _ body: () -> Void) -> Double {
    body()
    var times: [Double] = []
    for _ in 0..<runs {
        let start = cpuSeconds(CLOCK_THREAD_CPUTIME_ID)
        body()
        times.append(cpuSeconds(CLOCK_THREAD_CPUTIME_ID) - start)
    }
    times.sort()
    return times[times.count / 2]
}
