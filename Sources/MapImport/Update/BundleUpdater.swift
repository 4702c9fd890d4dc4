import Foundation
import GRDB
import MapBundle
import MapFormats

/// An update phase, for progress reporting.
public enum UpdatePhase: String, Sendable, CaseIterable {
    case elements = "applying the change to the elements"
    case tiles = "cutting the changed tiles"
    case derivedParts = "remaking search, directions and the street scene"
    case writing = "committing the new version"
}

/// Errors that stop an update; the bundle is left as it was.
public enum UpdateError: Error, CustomStringConvertible {
    /// The bundle cannot take updates (no element store, or an older format).
    case notUpdatable(String)
    case cancelled
    /// Reading or writing the bundle failed.
    case bundle(String)

    public var description: String {
        switch self {
        case .notUpdatable(let reason): reason
        case .cancelled: "update cancelled; the bundle is as it was"
        case .bundle(let reason): reason
        }
    }
}

/// What an update did.
public struct UpdateReport: Codable, Sendable {
    /// Entries in the change file.
    public var changes = 0
    /// Elements made again (named by the change, or reached through a moved node or a member).
    public var elementsRemade = 0
    public var elementsDeleted = 0
    public var nodesMoved = 0
    public var tiles = TileUpdateReport()
    /// The import of the parts made again from the whole of the data (place index, road graphs,
    /// street scene); nil when the bundle has none.
    public var derivedParts: ImportReport?
    public var phases: [ImportReport.PhaseCost] = []
    /// The bundle's update state afterwards, as its manifest records it.
    public var state: BundleManifest.UpdateState?

    public init() {}
}

/// Applies osmChange files to a bundle made by ``BundleImporter``: its element store, tile
/// features and tiles change in one SQLite transaction across the three files (SQLite commits
/// attached databases atomically through its super-journal), so a failed, cancelled or killed
/// update leaves the bundle as it was and a finished one leaves all of them updated. The parts
/// remade beside the bundle (place index, road graphs, street scene) and the manifest then move
/// in; an ``UpdateJournal`` written just before the commit lets whoever opens the bundle next
/// finish that, or undo it, after a crash.
///
/// A server reading the bundle meanwhile sees the old version until the commit and the new one
/// after it: SQLite's locks keep readers off the pages being changed.
///
/// Sendable so that an update can run on a thread of its own; it applies one change at a time.
public final class BundleUpdater: @unchecked Sendable {
    public let bundle: URL
    public var schema = OpenMapTilesSchema()
    /// Called at each phase's start and as it advances (fraction 0…1 where known).
    public var progress: (UpdatePhase, Double?) -> Void = { _, _ in }
    public var cancellation = ImportCancellation()
    private var manifest: BundleManifest

    /// Opens `bundle` for updates, checking it kept what updates need.
    public init(bundle: URL) throws {
        self.bundle = bundle
        // An update a dead process left half done is finished or undone before this one starts.
        do { try UpdateJournal.recover(bundle) } catch { throw UpdateError.bundle(error.message) }
        let manifestURL = bundle.appendingPathComponent(MapBundle.manifestFileName)
        do { manifest = try BundleManifest.decode(Data(contentsOf: manifestURL)) } catch {
            throw UpdateError.bundle("\(bundle.path) is not a map bundle: \(manifestURL.lastPathComponent) is missing or unreadable")
        }
        guard manifest.elements != nil, manifest.features != nil else {
            throw UpdateError.notUpdatable("\(bundle.path) was imported without the data updates need (with --no-update-data, or by an older "
                                           + "version): import the extract again to update it")
        }
    }

    /// Applies `change`, and records `state` (the replication state it brings the bundle to) in
    /// the manifest.
    public func apply(_ change: OSMChange, state: ReplicationState? = nil) throws -> UpdateReport {
        var report = UpdateReport()
        report.changes = change.changes.count
        let elementsURL = bundle.appendingPathComponent(manifest.elements ?? MapBundle.elementsFileName)
        let featuresURL = bundle.appendingPathComponent(manifest.features ?? MapBundle.featuresFileName)
        let tilesURL = bundle.appendingPathComponent(manifest.tiles)
        _ = try OSMElementStore(url: elementsURL)  // checks the store's schema version
        let meter = PhaseMeter()
        defer { meter.stop() }
        func finishPhase(_ phase: UpdatePhase) {
            report.phases.append(meter.finish(phase.rawValue, diskBytes: 0))
        }

        var configuration = Configuration()
        // A server reading the bundle holds shared locks for a moment at a time: wait them out.
        configuration.busyMode = .timeout(30)
        let queue: DatabaseQueue
        do { queue = try DatabaseQueue(path: elementsURL.path, configuration: configuration) } catch {
            throw UpdateError.bundle("cannot open \(elementsURL.path): \(error)")
        }
        let schema = self.schema
        // The parts made from the whole of the data are made again beside the bundle, read from
        // the store inside the transaction, and moved in once it commits.
        let derived = derivedParts
        let rebuild = derived.isEmpty ? nil : bundle.deletingLastPathComponent().appendingPathComponent(".\(bundle.lastPathComponent).derived")
        // The new manifest, known before the commit: the journal carries it.
        var updated = manifest
        let previous = manifest.updates
        let number = (previous?.count ?? 0) + 1
        // A change from a file moves the data off any feed sequence; one from the feed moves it to the state's.
        updated.updates = BundleManifest.UpdateState(count: number, sequence: state?.sequenceNumber,
                                                     timestamp: state?.timestamp, feed: previous?.feed, applied: Date())
        let journal = UpdateJournal(id: String(number), staging: rebuild?.lastPathComponent, parts: rebuild == nil ? [] : derived,
                                    manifest: updated)
        // Held from the journal's writing to its removal: readers opening the bundle meanwhile wait.
        var lock: BundleLock?
        var committed = false
        defer {
            lock?.unlock()
            // Once committed, the remade parts are the journal's to move in (see UpdateJournal).
            if !committed, let rebuild { try? FileManager.default.removeItem(at: rebuild) }
        }
        do {
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: "ATTACH DATABASE ? AS tilefeatures", arguments: [featuresURL.path])
                try db.execute(sql: "ATTACH DATABASE ? AS archive", arguments: [tilesURL.path])
                defer {
                    try? db.execute(sql: "DETACH DATABASE tilefeatures")
                    try? db.execute(sql: "DETACH DATABASE archive")
                }
                try db.inTransaction(.immediate) {
                    progress(.elements, nil)
                    let writer = OSMElementWriter(db: db)
                    let changes = try writer.apply(change)
                    report.elementsRemade = changes.remade.count
                    report.elementsDeleted = changes.deleted.count
                    report.nodesMoved = changes.movedNodes.count
                    finishPhase(.elements)
                    try checkCancelled()

                    progress(.tiles, 0)
                    let features = TileFeatureStore(db: db, schema: "tilefeatures")
                    var tiles = TileUpdate(elements: writer.reader, features: features, tiles: try MBTilesEditor(db: db, schema: "archive"),
                                           schema: schema, plan: try features.plan())
                    report.tiles = try tiles.apply(changes) { fraction in
                        progress(.tiles, fraction)
                        try checkCancelled()
                    }
                    finishPhase(.tiles)
                    try checkCancelled()
                    if let rebuild {
                        progress(.derivedParts, 0)
                        report.derivedParts = try remakeDerivedParts(from: OSMElementStoreBlocks(reader: writer.reader), into: rebuild)
                        finishPhase(.derivedParts)
                    }
                    if let state { try writer.setMetadata("replication", "\(state.sequenceNumber)") }
                    progress(.writing, nil)
                    // The commit carries the journal's id: whoever finds the journal after a
                    // crash tells from it whether the commit happened.
                    try writer.setMetadata(UpdateJournal.commitKey, journal.id)
                    lock = BundleLock(bundle)
                    try journal.write(into: bundle)
                    return .commit
                }
            }
            committed = true
        } catch {
            // Not committed: the journal (if written) and the remade parts go.
            journal.abandon(in: bundle)
            switch error {
            case let error as UpdateError: throw error
            case ImportError.cancelled: throw UpdateError.cancelled
            default: throw UpdateError.bundle("\(error)")
            }
        }

        // Committed: the remade parts take the old ones' places, each renamed over its file (a
        // server holding the old file open reads it until it reopens the bundle), then the
        // manifest; the journal goes last.
        do { try journal.finish(in: bundle) } catch {
            throw UpdateError.bundle("the update is in, but \(error.message); opening the bundle again finishes it")
        }
        manifest = updated
        report.state = updated.updates
        finishPhase(.writing)
        return report
    }

    /// The files of the parts made from the whole of the data that the bundle has: the place
    /// index, the road graphs, the street scene.
    private var derivedParts: [String] {
        (manifest.places.map { [$0] } ?? []) + (manifest.roads.map { $0.values.sorted() } ?? []) + (manifest.scene.map { [$0] } ?? [])
    }

    /// Makes the place index, road graphs and street scene again from `source` with the import's
    /// own code (a bundle without tiles, at `folder`), as a fresh import of the updated data makes them.
    ///
    /// The road graphs keep the bundle's node order (see `RoadGraphBuilder`'s customizable
    /// hierarchy): only new road stretches are placed in it, and the hierarchy is re-customised.
    /// The place index and the street scene are made whole, exactly as an import makes them;
    /// changing the place index in place is the next step.
    private func remakeDerivedParts(from source: OSMElementStoreBlocks, into folder: URL) throws -> ImportReport {
        let importer = BundleImporter()
        importer.schema = schema
        importer.buildsTiles = false
        importer.keepsElements = false
        importer.buildsPlaceIndex = manifest.places != nil
        importer.buildsRoadGraphs = manifest.roads != nil
        importer.buildsStreetScene = manifest.scene != nil
        importer.reusesRoadGraphsOf = bundle
        importer.cancellation = cancellation
        importer.progress = { [progress] _, fraction in progress(.derivedParts, fraction) }
        return try importer.importBlocks(from: source, named: manifest.source, to: folder)
    }

    private func checkCancelled() throws {
        if cancellation.isCancelled { throw UpdateError.cancelled }
    }
}
