import ArgumentParser
import Dispatch
import Foundation
import MapBundle
import MapImport

/// `openmapkit import region.osm.pbf [-o region.omk]`: builds a map bundle from an OSM extract.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import an OpenStreetMap extract (.osm.pbf) into a map bundle folder (.omk)."
    )

    @Argument(help: "The OSM PBF extract to import.")
    var source: String

    @Option(name: .shortAndLong, help: "The bundle folder to write (default: the extract's name with .omk).")
    var output: String?

    @Option(help: "The highest zoom level to build tiles for (0–14).")
    var maxZoom: Int = 14

    @OptionGroup var format: JSONOption

    @Flag(help: "Skip the place index (search and geocoding will not work on the bundle).")
    var noPlaceIndex = false

    @Flag(help: "Skip the road graphs (directions and ETAs will not work on the bundle).")
    var noRoadGraphs = false

    @Flag(help: "Skip the street scene (Look Around's 3D buildings, roads and street furniture).")
    var noStreetScene = false

    @Flag(help: "Keep no OSM elements (osm.sqlite): a read-only bundle that `openmapkit update` cannot update.")
    var noUpdateData = false

    @Flag(help: "Build only the tiles: the same as --no-place-index --no-road-graphs --no-street-scene --no-update-data.")
    var tilesOnly = false

    func validate() throws {
        guard (0...14).contains(maxZoom) else { throw ValidationError("--max-zoom must be between 0 and 14.") }
    }

    func run() throws {
        let sourceURL = URL(fileURLWithPath: source)
        let destination = URL(fileURLWithPath: output ?? defaultBundleName(for: source))
        let importer = BundleImporter()
        importer.tileOptions.maximumZoom = maxZoom
        importer.buildsPlaceIndex = !(noPlaceIndex || tilesOnly)
        importer.buildsRoadGraphs = !(noRoadGraphs || tilesOnly)
        importer.buildsStreetScene = !(noStreetScene || tilesOnly)
        importer.keepsElements = !(noUpdateData || tilesOnly)
        let progress = ProgressDisplay()
        importer.progress = { phase, fraction in progress.show(phase.rawValue, fraction) }
        // Ctrl-C stops the import between blocks; the staging folder is removed and any earlier
        // bundle stays as it was.
        let cancellation = importer.cancellation
        let interrupt = InterruptHandler { cancellation.cancel() }
        defer { interrupt.restore() }
        let report: ImportReport
        do {
            report = try importer.importPBF(at: sourceURL, to: destination)
        } catch {
            progress.finish()
            throw CommandFailure("import failed: \(error)")
        }
        progress.finish()
        if format.json {
            try printJSON(report)
        } else {
            print(ImportReportText(report: report, bundle: destination.path).text)
        }
    }

    private func defaultBundleName(for source: String) -> String {
        var name = URL(fileURLWithPath: source).lastPathComponent
        for suffix in [".osm.pbf", ".pbf", ".osm"] where name.hasSuffix(suffix) {
            name = String(name.dropLast(suffix.count))
            break
        }
        return name + ".omk"
    }
}

/// The human-readable import report.
struct ImportReportText {
    var report: ImportReport
    var bundle: String

    var text: String {
        var lines = ["Imported \(report.source) into \(bundle)",
                     "  read       \(report.nodes) nodes, \(report.ways) ways, \(report.relations) relations"]
        lines.append("  skipped    \(report.missingNodeReferences) node references and \(report.missingWayReferences) member ways outside the extract; \(report.invalidAreas) invalid areas")
        let features = report.featuresPerLayer.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        lines.append("  features   \(features)")
        let tiles = report.tilesPerZoom.sorted { $0.key < $1.key }.map { "z\($0.key) \($0.value)" }.joined(separator: ", ")
        lines.append("  tiles      \(tiles) (\(report.tilesPerZoom.values.reduce(0, +)) in all, \(report.tileBytes / 1024) KiB)")
        if report.sceneBytes > 0 {
            lines.append("  scene      \(report.sceneBuildings) buildings, \(report.sceneRoads) roads, \(report.sceneAreas) areas, "
                         + "\(report.scenePoints) points (\(report.sceneBytes / 1024) KiB)")
        }
        lines.append("  phases     seconds  peak MiB  disk MiB")
        for cost in report.phases {
            let memory = cost.peakMemoryBytes.map { String(format: "%8.0f", Double($0) / 1048576) } ?? "       –"
            lines.append("  " + cost.phase.padding(toLength: 27, withPad: " ", startingAt: 0)
                         + String(format: "%7.2f", cost.seconds) + "  " + memory + "  " + String(format: "%8.1f", Double(cost.diskBytes) / 1048576))
        }
        if report.roadGraphSeconds > 0, let row = report.phases.first(where: { $0.phase == ImportPhase.roadGraphs.rawValue }),
           row.seconds < report.roadGraphSeconds - 0.005 {
            lines.append(String(format: "  (the road graphs took %.2f s, built beside the phases after reading)", report.roadGraphSeconds))
        }
        return lines.joined(separator: "\n")
    }
}

/// Progress on standard error: a redrawn bar on a terminal, a plain line per phase (and per
/// quarter of it) otherwise.
final class ProgressDisplay: @unchecked Sendable {
    private let isTerminal = isatty(2) == 1
    private var phase = ""
    private var lastQuarter = -1

    func show(_ phase: String, _ fraction: Double?) {
        if phase != self.phase {
            if isTerminal && !self.phase.isEmpty { write("\n") }
            self.phase = phase
            lastQuarter = -1
            if !isTerminal { write("\(phase)…\n") }
        }
        guard let fraction else {
            if isTerminal { write("\r\(phase)…") }
            return
        }
        if isTerminal {
            let width = 30, filled = Int((fraction * Double(width)).rounded(.down).clamped(0, Double(width)))
            write("\r\(phase) [" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
                  + "] \(Int(fraction * 100))%")
        } else {
            let quarter = Int(fraction * 4)
            if quarter > lastQuarter, quarter < 4 {
                lastQuarter = quarter
                if quarter > 0 { write("\(phase): \(quarter * 25)%\n") }
            }
        }
    }

    func finish() {
        if isTerminal && !phase.isEmpty { write("\n") }
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}

private extension Double {
    func clamped(_ low: Double, _ high: Double) -> Double { Swift.min(Swift.max(self, low), high) }
}

/// Runs `handler` on SIGINT (Ctrl-C) or SIGTERM (`kill`, a service manager) instead of killing
/// the process, until ``restore()``, so that an import can clean up before it exits.
///
/// The signals are caught by a C handler installed at once with `signal(2)`, which writes a byte
/// to a pipe that a thread of ours reads. (A dispatch signal source needs the signal ignored
/// first and registers itself later, on its own queue: a signal arriving in between, on a busy
/// machine, was dropped, and the import ran on.)
final class InterruptHandler: @unchecked Sendable {
    private static let signals = [SIGINT, SIGTERM]
    private var pipe: [Int32] = [-1, -1]

    init(_ handler: @escaping @Sendable () -> Void) {
        guard Glibc.pipe(&pipe) == 0 else { return }
        interruptPipe = pipe[1]
        let reader = pipe[0]
        Thread {
            var byte: UInt8 = 0
            // 1: a signal came; 0 (from restore) or an error: stop reading.
            while read(reader, &byte, 1) == 1 && byte == 1 {
                FileHandle.standardError.write(Data("\ninterrupted: stopping…\n".utf8))
                handler()
            }
            close(reader)
        }.start()
        for number in Self.signals { signal(number, interruptSignalHandler) }
    }

    func restore() {
        for number in Self.signals { signal(number, SIG_DFL) }
        guard pipe[1] >= 0 else { return }
        interruptPipe = -1
        var stop: UInt8 = 0
        _ = write(pipe[1], &stop, 1)
        close(pipe[1])
        pipe[1] = -1
    }
}

/// The pipe ``InterruptHandler``'s thread reads; written by the signal handler (a C function,
/// so it reaches it through a global).
nonisolated(unsafe) private var interruptPipe: Int32 = -1

/// Async-signal-safe: one `write(2)`.
private let interruptSignalHandler: @convention(c) (Int32) -> Void = { _ in
    var byte: UInt8 = 1
    _ = write(interruptPipe, &byte, 1)
}
