import Foundation

// `OpenMapKitBenchmarks render BUNDLE` runs only the rendering figures (see RenderBench.swift).
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "render" {
    do { try runRenderBenchmarks(arguments: Array(CommandLine.arguments.dropFirst(2))) } catch {
        FileHandle.standardError.write(Data("error: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}

// `OpenMapKitBenchmarks search BUNDLE...` runs only the search figures (see SearchBench.swift).
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "search" {
    do { try runSearchBenchmarks(arguments: Array(CommandLine.arguments.dropFirst(2))) } catch {
        FileHandle.standardError.write(Data("error: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}

// `OpenMapKitBenchmarks roadgraph [EXTRACT] [--pairs N]` runs only the road graph figures (see RoadGraphBench.swift).
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "roadgraph" {
    do { try runRoadGraphBenchmarks(arguments: Array(CommandLine.arguments.dropFirst(2))) } catch {
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
