import Foundation

/// One benchmark: a named body that performs `operations` units of work per call.
struct Benchmark {
    var name: String
    /// What one operation is, for the report ("inverse", "point").
    var unit: String
    var operations: Int
    var body: () -> Void
}

/// Runs each benchmark `samples` times after one warm-up call and prints the median throughput
/// with the fastest and slowest sample, so the figures quoted are medians.
func runBenchmarks(_ benchmarks: [Benchmark], samples: Int = 7) {
    for benchmark in benchmarks {
        benchmark.body()
        var rates: [Double] = []
        for _ in 0..<samples {
            let start = DispatchTime.now().uptimeNanoseconds
            benchmark.body()
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            rates.append(Double(benchmark.operations) / seconds)
        }
        rates.sort()
        let median = rates[rates.count / 2]
        print(String(format: "%-40@ median %12.0f %@/s   (min %.0f, max %.0f, %d samples)",
                     benchmark.name as NSString, median, benchmark.unit as NSString,
                     rates.first!, rates.last!, samples))
    }
}

/// Keeps the optimiser from deleting work whose result is otherwise unused.
@inline(never) func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }
