// `make bench` runs this in release mode. Each file adds its benchmarks to this list.
var all: [Benchmark] = []
all += geodesicBenchmarks()
all += mercatorBenchmarks()
all += osmPBFBenchmarks()
all += vectorTileBenchmarks()
runBenchmarks(all)
