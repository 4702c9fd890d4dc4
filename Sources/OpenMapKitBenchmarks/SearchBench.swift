import Foundation
import MapBundle
import MapSearch
import TestSupport

/// `OpenMapKitBenchmarks search BUNDLE... [--suite NAME] [--runs N] [--slowest N] [--json] [--query TEXT]...`: the search figures
/// `Benchmarks/compare-search.py` reports, in process, over the relevance suite's queries
/// (Tests/MapSearchTests/Relevance). For each bundle:
/// - the index: size of `places.sqlite` and the import phase that built it, against the whole import;
/// - the suite's first-result hit rate on this bundle (with an andorra ×100 bundle made with
///   `make-large-extract.py --rename --ids keep`, copy 0 keeps the suite's names and ids while 99
///   renamed copies compete with it);
/// - latency per kind (search, geocode, complete, reverse): every case run N times after one
///   warm-up pass, median / p99 / max over all runs;
/// - completer while typing: every prefix of every text query (1, 2, … characters), with query
///   suggestions on, as `MKLocalSearchCompleter` sends them.
/// `--slowest N` lists the N queries of each kind with the highest median time (what to look at
/// when a p99 is over its goal).
/// The suite is the one whose extract name starts the bundle's source file name (andorra for
/// andorra-x100.osm.pbf) unless `--suite` names it.
func runSearchBenchmarks(arguments: [String]) throws {
    var bundles: [String] = []
    var suiteName: String?
    var runs = 5
    var slowest = 0
    var queries: [String] = []
    var json = false
    var index = 0
    while index < arguments.count {
        switch arguments[index] {
        case "--json": json = true
        case "--suite" where index + 1 < arguments.count:
            index += 1
            suiteName = arguments[index]
        case "--runs" where index + 1 < arguments.count:
            index += 1
            runs = max(1, Int(arguments[index]) ?? runs)
        case "--query" where index + 1 < arguments.count:
            index += 1
            queries.append(arguments[index])
        case "--slowest" where index + 1 < arguments.count:
            index += 1
            slowest = max(0, Int(arguments[index]) ?? 0)
        default: bundles.append(arguments[index])
        }
        index += 1
    }
    guard !bundles.isEmpty else {
        throw SearchBenchError("usage: OpenMapKitBenchmarks search BUNDLE... [--suite NAME] [--runs N] [--slowest N] [--json] [--query TEXT]...")
    }
    if !queries.isEmpty {
        for path in bundles { try timeQueries(queries, bundlePath: path, runs: runs) }
        return
    }
    var reports: [SearchBenchReport] = []
    for path in bundles {
        let report = try benchmarkSearch(bundlePath: path, suiteName: suiteName, runs: runs, slowest: slowest)
        if !json { print(report.text) }
        reports.append(report)
    }
    if json {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        print(String(decoding: try encoder.encode(reports), as: UTF8.self))
    }
}

/// `--query TEXT` (repeatable): each text's search and completion times on each bundle, median
/// and max over the runs after a warm-up, and how many results came back; for looking at one
/// slow query.
private func timeQueries(_ texts: [String], bundlePath: String, runs: Int) throws {
    let bundle = try MapBundle(url: URL(fileURLWithPath: bundlePath))
    let index = try PlaceIndex(url: bundle.placesURL)
    print(bundle.url.lastPathComponent)
    for text in texts {
        var query = PlaceQuery(text: text)
        query.limit = 10
        var line = "  \"\(text)\""
        for (name, body) in [("search", { try index.search(query).count }),
                             ("complete", { try index.complete(query, includeQuerySuggestions: true).count })] as [(String, () throws -> Int)] {
            var found = try body()
            var samples: [Double] = []
            for _ in 0..<max(1, runs) {
                let start = DispatchTime.now().uptimeNanoseconds
                found = try body()
                samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            }
            let figures = LatencyFigures(samples: samples)
            line += String(format: "  %@ %d results, median %.3f ms, max %.3f ms", name, found, figures.medianMs, figures.maxMs)
        }
        print(line)
    }
}

struct SearchBenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

struct LatencyFigures: Codable {
    var count: Int
    var medianMs: Double
    var p99Ms: Double
    var maxMs: Double

    init(samples: [Double]) {
        let sorted = samples.sorted()
        count = sorted.count
        medianMs = sorted.isEmpty ? 0 : sorted[sorted.count / 2]
        p99Ms = sorted.isEmpty ? 0 : nearestRank(sorted, 0.99)
        maxMs = sorted.last ?? 0
    }
}

struct CaseResult: Codable {
    var id: String
    var first: String?
    var firstName: String?
    var hit: Bool
}

struct SearchBenchReport: Codable {
    var bundle: String
    var source: String
    var suite: String
    var indexBytes: Int
    /// The import phase(s) that built the place index, and the whole import, in seconds.
    var indexPhaseSeconds: Double?
    var importSeconds: Double
    var cases: Int
    var hits: Int
    var hitRate: Double
    var misses: [String]
    /// Per case: the id of the first result (nil when nothing came back) and whether it was the
    /// expected one, for comparing with a reference geocoder on the same queries.
    var caseResults: [CaseResult]
    /// Per kind: "search", "geocode", "complete", "reverse", and "complete-typing".
    var latency: [String: LatencyFigures]
    /// With `--slowest N`: per kind, the N queries with the highest median time ("text (ms)").
    var slowestQueries: [String: [String]]? = nil

    var text: String {
        var lines = ["\(URL(fileURLWithPath: bundle).lastPathComponent) (\(source)), suite \(suite)"]
        let phase = indexPhaseSeconds.map { String(format: "%.2f s of a %.2f s import (%.0f%%)", $0, importSeconds, 100 * $0 / max(importSeconds - $0, 1e-9)) + " added" }
            ?? String(format: "no place-index phase in the import report (import %.2f s)", importSeconds)
        lines.append(String(format: "  index: %.2f MiB; ", Double(indexBytes) / 1_048_576) + phase)
        lines.append(String(format: "  relevance: %d/%d first-result hits (%.1f%%)", hits, cases, 100 * hitRate))
        for kind in ["search", "geocode", "complete", "reverse", "complete-typing"] {
            guard let figures = latency[kind] else { continue }
            lines.append("  " + kind.padding(toLength: 16, withPad: " ", startingAt: 0)
                         + String(format: "%6d queries  median %7.3f ms  p99 %7.3f ms  max %7.3f ms",
                                  figures.count, figures.medianMs, figures.p99Ms, figures.maxMs))
        }
        for (kind, queries) in (slowestQueries ?? [:]).sorted(by: { $0.key < $1.key }) {
            lines.append("  slowest \(kind): " + queries.joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }
}

private func benchmarkSearch(bundlePath: String, suiteName: String?, runs: Int, slowest: Int) throws -> SearchBenchReport {
    let bundle = try MapBundle(url: URL(fileURLWithPath: bundlePath))
    let sourceName = URL(fileURLWithPath: bundle.manifest.source).lastPathComponent
    let folderName = bundle.url.lastPathComponent
    guard let name = suiteName ?? RelevanceSuite.extracts.first(where: { sourceName.hasPrefix($0) || folderName.hasPrefix($0) }) else {
        throw SearchBenchError("\(bundlePath): no relevance suite for \(sourceName); pass --suite NAME (one of \(RelevanceSuite.extracts.joined(separator: ", ")))")
    }
    let suite = try RelevanceSuite.load(name)
    let placesURL = bundle.placesURL
    let index = try PlaceIndex(url: placesURL)
    let indexBytes = (try? FileManager.default.attributesOfItem(atPath: placesURL.path)[.size] as? Int) ?? 0
    let phases = bundle.manifest.report.phases
    let indexPhases = phases.filter { $0.phase.localizedCaseInsensitiveContains("place") || $0.phase.localizedCaseInsensitiveContains("search") }
    let importSeconds = phases.reduce(0) { $0 + $1.seconds }

    // The warm-up pass doubles as the relevance run.
    let relevance = RelevanceReport(suite: suite, index: index)
    var samples: [String: [Double]] = [:]
    // Per kind, per query text: its times, for --slowest.
    var byQuery: [String: [String: [Double]]] = [:]
    for _ in 0..<runs {
        for testCase in suite.cases {
            let start = DispatchTime.now().uptimeNanoseconds
            blackHole(try? testCase.firstResult(in: index, nearSpanDegrees: suite.nearSpanDegrees))
            let ms = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
            samples[testCase.kind.rawValue, default: []].append(ms)
            byQuery[testCase.kind.rawValue, default: [:]][testCase.query ?? testCase.id, default: []].append(ms)
        }
    }
    // Typing: each prefix of each text query, as a completer sees it keystroke by keystroke.
    for _ in 0..<max(1, runs / 2) {
        for testCase in suite.cases {
            guard let full = testCase.placeQuery(nearSpanDegrees: suite.nearSpanDegrees) else { continue }
            var typed = ""
            for character in full.text {
                typed.append(character)
                var query = full
                query.text = typed
                let start = DispatchTime.now().uptimeNanoseconds
                blackHole(try? index.complete(query, includeQuerySuggestions: true))
                let ms = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
                samples["complete-typing", default: []].append(ms)
                byQuery["complete-typing", default: [:]][typed + (query.region == nil ? "" : " (region)"), default: []].append(ms)
            }
        }
    }
    return SearchBenchReport(
        bundle: bundlePath, source: sourceName, suite: name, indexBytes: indexBytes,
        indexPhaseSeconds: indexPhases.isEmpty ? nil : indexPhases.reduce(0) { $0 + $1.seconds },
        importSeconds: importSeconds, cases: relevance.outcomes.count, hits: relevance.hits, hitRate: relevance.hitRate,
        misses: relevance.outcomes.filter { !$0.hit }.map { "\($0.testCase.id) \($0.testCase.query ?? "reverse"): got \(RelevanceCase.describe($0.first))" },
        caseResults: relevance.outcomes.map { CaseResult(id: $0.testCase.id, first: $0.first?.id, firstName: $0.first?.displayName, hit: $0.hit) },
        latency: samples.mapValues(LatencyFigures.init(samples:)),
        slowestQueries: slowest == 0 ? nil : byQuery.mapValues { queries in
            queries.map { ($0.key, LatencyFigures(samples: $0.value).medianMs) }.sorted { $0.1 > $1.1 }.prefix(slowest)
                .map { "\"\($0.0)\" \(String(format: "%.2f", $0.1))" }
        })
}
