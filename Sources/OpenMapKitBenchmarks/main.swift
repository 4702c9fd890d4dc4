import Foundation

// Verbs that run one area's figures only: `render BUNDLE` (RenderBench.swift), `search BUNDLE...`
// (SearchBench.swift), `roadgraph [EXTRACT] [--pairs N]` (RoadGraphBench.swift),
// `cluster [--points N,N...] [--runs N]` (ClusterBench.swift), `mapview…` (MapViewBench.swift,
// MapViewFacesBench.swift), `lookaround [BUNDLE]` and
// `lookaround-render [BUNDLE]` (LookAroundBench.swift).
let verbs: [String: ([String]) throws -> Void] = [
    "render": runRenderBenchmarks(arguments:),
    "search": runSearchBenchmarks(arguments:),
    "roadgraph": runRoadGraphBenchmarks(arguments:),
    "routebuild": runRouteBuildBenchmark(arguments:), "routepairs": runRoutePairsBenchmark(arguments:),
    "cluster": runClusterBenchmarks(arguments:),
    "mapview": runMapViewBenchmark(arguments:), "mapview-cluster": runMapViewClusterBenchmark(arguments:),
    "mapview-faces": runMapViewFacesBenchmark(arguments:),
    "lookaround": runLookAroundBenchmark(arguments:),
    "lookaround-render": runLookAroundRenderBenchmark(arguments:),
]
if CommandLine.arguments.count > 1, let verb = verbs[CommandLine.arguments[1]] {
    do { try verb(Array(CommandLine.arguments.dropFirst(2))) } catch {
        FileHandle.standardError.write(Data("error: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}

// `make bench` runs this in release mode. Each file adds its benchmarks to this list.
var all: [Benchmark] = []
all += geodesicBenchmarks()
all += mercatorBenchmarks()
all += osmPBFBenchmarks()
all += vectorTileBenchmarks()
runBenchmarks(all)
