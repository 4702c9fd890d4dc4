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
        let name = benchmark.name.padding(toLength: max(44, benchmark.name.count), withPad: " ", startingAt: 0)
        print(name + String(format: " median %12.0f ", median) + benchmark.unit
              + String(format: "/s   (min %.0f, max %.0f, %d samples)", rates.first!, rates.last!, samples))
    }
}

/// Keeps the optimiser from deleting work whose result is otherwise unused.
@inline(never) func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }

/// CPU seconds used so far by the calling thread (`CLOCK_THREAD_CPUTIME_ID`), which other
/// processes on a busy machine do not inflate, or by every thread of the process
/// (`CLOCK_PROCESS_CPUTIME_ID`, for work spread over threads).
func cpuSeconds(_ clock: clockid_t) -> Double {
    var t = timespec()
    clock_gettime(clock, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

/// The nearest-rank `p` percentile of `sorted` (ascending, not empty): the smallest sample that at
/// least the fraction `p` of the samples do not exceed.
func nearestRank(_ sorted: [Double], _ p: Double) -> Double {
    sorted[min(sorted.count - 1, max(0, Int((p * Double(sorted.count)).rounded(.up)) - 1))]
}
