import ArgumentParser
import Foundation
import MapBundle
import MapFormats
import MapImport
import MapUpdate

/// `openmapkit update region.omk changes.osc[.gz|.bz2]…` or `openmapkit update region.omk
/// --replication URL|DIR [--every 60s]`: brings a bundle's data up to date from OSM change files.
struct UpdateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update",
        abstract: "Apply OpenStreetMap change files (osmChange) or a replication feed to a map bundle.",
        discussion: """
            Change files are applied in the order given, each in one transaction: an update that fails \
            or is interrupted leaves the bundle as it was. With --replication, the diffs after the \
            sequence the bundle records (from its extract's header, or the last update) are fetched \
            and applied in order; --every keeps following the feed until interrupted.
            """
    )

    @Argument(help: "The bundle folder (.omk) made by `openmapkit import`.")
    var bundle: String

    @Argument(help: "osmChange files (.osc, .osc.gz, .osc.bz2), applied in order.")
    var changes: [String] = []

    @Option(help: "A replication feed to follow: its URL (e.g. https://planet.openstreetmap.org/replication/minute/) or a folder with the same layout.")
    var replication: String?

    @Option(help: "With --replication: the sequence the bundle's data stands at, when the bundle records none.")
    var fromSequence: Int?

    @Option(help: "With --replication: keep following the feed, checking it this often (e.g. 60s, 5m, 1h).")
    var every: String?

    @OptionGroup var format: JSONOption

    func validate() throws {
        if replication == nil {
            guard !changes.isEmpty else { throw ValidationError("Give change files to apply, or --replication URL|DIR.") }
            guard fromSequence == nil, every == nil else { throw ValidationError("--from-sequence and --every need --replication.") }
        } else {
            guard changes.isEmpty else { throw ValidationError("Give change files or --replication, not both.") }
        }
        if let every, Self.duration(every) == nil { throw ValidationError("--every takes a duration such as 30s, 5m or 1h.") }
    }

    /// The feed `text` names: a web address (http, https) or a folder with the same layout.
    static func replicationSource(_ text: String) -> any ReplicationSource {
        if text.hasPrefix("http://") || text.hasPrefix("https://"), let url = URL(string: text) { return HTTPReplicationSource(baseURL: url) }
        return ReplicationDirectory(root: URL(fileURLWithPath: text))
    }

    /// "90", "90s", "5m", "1h" as a duration of at least a second.
    static func duration(_ text: String) -> Duration? {
        let units: [(Character, Int64)] = [("s", 1), ("m", 60), ("h", 3600)]
        var digits = Substring(text), unit: Int64 = 1
        if let last = text.last, let match = units.first(where: { $0.0 == last }) {
            digits = text.dropLast()
            unit = match.1
        }
        guard let value = Int64(digits), value > 0, value <= 7 * 86400 / unit else { return nil }
        return .seconds(value * unit)
    }

    func run() throws {
        let bundleURL = URL(fileURLWithPath: bundle)
        let display = ProgressDisplay()
        var reports: [UpdateReport] = []
        if let replication {
            let follower = ReplicationFollower(bundle: bundleURL, source: Self.replicationSource(replication))
            follower.startSequence = fromSequence
            follower.progress = { sequences, phase, fraction in
                let label = sequences.count == 1 ? "sequence \(sequences.lowerBound)" : "sequences \(sequences.lowerBound)–\(sequences.upperBound)"
                display.show("\(label): \(phase.rawValue)", fraction)
            }
            let cancellation = follower.cancellation
            let interrupt = InterruptHandler { cancellation.cancel() }
            defer { interrupt.restore() }
            let json = format.json
            if let every, let interval = Self.duration(every) {
                try waitForAsync({
                    try await follower.follow(every: interval) { result in
                        display.finish()
                        switch result {
                        case .success(let report): Self.show(report, json: json)
                        case .failure(let error): FileHandle.standardError.write(Data("update failed (trying again in \(every)): \(error)\n".utf8))
                        }
                    }
                }, failure: { CommandFailure("update failed: \($0)") })
                return
            }
            reports = try waitForAsync({ try await follower.catchUp() }, failure: { CommandFailure("update failed: \($0)") })
            display.finish()
            if reports.isEmpty, !json {
                let sequence = (try? MapBundle(url: bundleURL).manifest.updates?.sequence).flatMap { $0 }
                print("\(bundle) is current" + (sequence.map { " (sequence \($0))" } ?? ""))
            }
        } else {
            let updater: BundleUpdater
            do { updater = try BundleUpdater(bundle: bundleURL) } catch { throw CommandFailure("update failed: \(error)") }
            let cancellation = updater.cancellation
            let interrupt = InterruptHandler { cancellation.cancel() }
            defer { interrupt.restore() }
            for path in changes {
                let name = URL(fileURLWithPath: path).lastPathComponent
                updater.progress = { phase, fraction in display.show("\(name): \(phase.rawValue)", fraction) }
                do {
                    let change = try OSMChange.read(contentsOf: URL(fileURLWithPath: path))
                    reports.append(try updater.apply(change))
                } catch {
                    display.finish()
                    throw CommandFailure("update failed on \(path): \(error)" + (reports.isEmpty ? "" : " (the \(reports.count) files before it are applied)"))
                }
            }
            display.finish()
        }
        if format.json {
            try printJSON(reports)
        } else {
            for report in reports { Self.show(report, json: false) }
        }
    }

    static func show(_ report: UpdateReport, json: Bool) {
        if json {
            try? printJSON(report)
            return
        }
        let tiles = report.tiles
        let written = tiles.tilesWritten.sorted { $0.key < $1.key }.map { "z\($0.key) \($0.value)" }.joined(separator: ", ")
        var lines = ["Updated: \(report.changes) changes reached \(report.elementsRemade) elements (\(report.elementsDeleted) deleted, \(report.nodesMoved) nodes moved)",
                     "  tiles      \(tiles.tilesChanged) changed (\(written.isEmpty ? "none written" : written); "
                     + "\(tiles.tilesDeleted.values.reduce(0, +)) deleted), \(tiles.tilesUnchanged) cut again unchanged, \(tiles.bucketsCut) buckets"]
        if let state = report.state {
            lines.append("  state      update \(state.count)" + (state.sequence.map { ", sequence \($0)" } ?? "")
                         + (state.timestamp.map { ", data of \(ISO8601DateFormatter().string(from: $0))" } ?? ""))
        }
        let seconds = report.phases.map(\.seconds).reduce(0, +)
        lines.append(String(format: "  took       %.2f s", seconds))
        Swift.print(lines.joined(separator: "\n"))
    }
}
