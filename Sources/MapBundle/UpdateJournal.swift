import Foundation
import GRDB
import MapFormats
#if canImport(Glibc)
import Glibc
#endif

// An update changes a bundle in two steps that no single system call joins: one SQLite
// transaction across the element store, the tile features and the tiles (atomic through SQLite's
// super-journal), then the remade place index, road graphs and street scene renamed in one by
// one, then the manifest. A process killed between them would leave new tiles beside the old
// search. So, like SQLite's own journal, the update writes down what it is about to do before
// the commit, and whoever opens the bundle next finishes the job or undoes it.

/// What an update in progress leaves in the bundle (`update-journal.json`) from just before its
/// commit until its remade parts and manifest are in place: the id the commit writes into the
/// element store, the folder beside the bundle holding the remade parts, and the manifest to
/// write last.
///
/// ``recover(_:)``, run whenever a bundle is opened, finds a journal left by a process that died
/// and puts the bundle right: if the element store holds the journal's id, the commit happened
/// and the rest is done (roll forward); if not, the transaction was rolled back and the remade
/// parts are dropped. The updater holds ``BundleLock`` while the journal exists, so a reader that
/// opens the bundle meanwhile waits for the few renames instead of seeing half of them.
public struct UpdateJournal: Codable, Sendable {
    /// The journal's file name inside the bundle.
    public static let fileName = "update-journal.json"
    /// The element store's `metadata` key that the update's commit sets to ``id``.
    public static let commitKey = "update"

    /// The update's number (its manifest's update count): the element store keeps the number of
    /// the last update committed, so the two differ exactly when this one's commit did not happen.
    public var id: String
    /// The folder beside the bundle holding the remade parts (nil when there are none).
    public var staging: String?
    /// The file names to move from `staging` into the bundle.
    public var parts: [String]
    /// The manifest to write once the parts are in.
    public var manifest: BundleManifest

    public init(id: String, staging: String?, parts: [String], manifest: BundleManifest) {
        (self.id, self.staging, self.parts, self.manifest) = (id, staging, parts, manifest)
    }

    /// Writes the journal into `bundle` (aside, then renamed over any old one, flushed).
    public func write(into bundle: URL) throws(BundleError) {
        let url = bundle.appendingPathComponent(Self.fileName)
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            encoder.dateEncodingStrategy = .iso8601
            try FileReplacement.replaceFile(at: url, contents: encoder.encode(self))
        } catch {
            throw BundleError("cannot write \(url.path): \(error)")
        }
    }

    /// The rest of the update, once its commit is in: each remade part still in the staging
    /// folder renamed over its file, the manifest written, the journal and the staging folder
    /// removed. Safe to run again after a crash part way (parts already moved are gone from the
    /// staging folder).
    public func finish(in bundle: URL) throws(BundleError) {
        let fileManager = FileManager.default
        if let staging {
            let folder = bundle.deletingLastPathComponent().appendingPathComponent(staging)
            for name in parts where fileManager.fileExists(atPath: folder.appendingPathComponent(name).path) {
                do {
                    try FileReplacement.replaceFile(at: bundle.appendingPathComponent(name), with: folder.appendingPathComponent(name))
                } catch {
                    throw BundleError("cannot move the updated \(name) into \(bundle.path): \(error.message)")
                }
            }
            try? fileManager.removeItem(at: folder)
        }
        do {
            try FileReplacement.replaceFile(at: bundle.appendingPathComponent(MapBundle.manifestFileName), contents: manifest.encoded())
        } catch {
            throw BundleError("cannot write the updated manifest of \(bundle.path): \(error)")
        }
        try? fileManager.removeItem(at: bundle.appendingPathComponent(Self.fileName))
    }

    /// Drops an update whose commit never happened: its staging folder and the journal.
    public func abandon(in bundle: URL) {
        if let staging { try? FileManager.default.removeItem(at: bundle.deletingLastPathComponent().appendingPathComponent(staging)) }
        try? FileManager.default.removeItem(at: bundle.appendingPathComponent(Self.fileName))
    }

    /// Puts right a bundle that a process left half changed; cheap when nothing is pending (a
    /// few `stat`s). Needs write access to the bundle; without it, it leaves the bundle alone.
    ///
    /// - SQLite files of the bundle with a journal beside them are opened for writing once, so
    ///   that SQLite rolls back a transaction its writer did not finish (a read-only reader
    ///   cannot, and would fail on them).
    /// - A journal left by an update is finished or abandoned, as the element store says.
    public static func recover(_ bundle: URL) throws(BundleError) {
        let fileManager = FileManager.default
        let journalURL = bundle.appendingPathComponent(fileName)
        let sqliteFiles = ((try? fileManager.contentsOfDirectory(atPath: bundle.path)) ?? [])
            .filter { $0.hasSuffix("-journal") }.map { String($0.dropLast("-journal".count)) }
        guard fileManager.fileExists(atPath: journalURL.path) || !sqliteFiles.isEmpty else { return }
        guard fileManager.isWritableFile(atPath: bundle.path) else { return }
        // An updater at work holds the lock until its journal is gone: wait for it.
        let lock = BundleLock(bundle)
        defer { lock.unlock() }
        for name in sqliteFiles { rollBackUnfinishedTransaction(bundle.appendingPathComponent(name)) }
        guard let data = fileManager.contents(atPath: journalURL.path) else { return }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let journal = try? decoder.decode(UpdateJournal.self, from: data) else {
            // A journal is written aside and renamed, so it is whole or absent; this one is not ours.
            throw BundleError("\(journalURL.path) is unreadable; the last update may be half in: apply it again, or import again")
        }
        let elements = bundle.appendingPathComponent(journal.manifest.elements ?? MapBundle.elementsFileName)
        var committed: String?
        do {
            // Opened for writing: a transaction its writer left is rolled back before the read.
            let queue = try DatabaseQueue(path: elements.path)
            committed = try queue.read { db in
                try String.fetchOne(db, sql: "SELECT value FROM metadata WHERE key = ?", arguments: [commitKey])
            }
        } catch {
            throw BundleError("cannot read \(elements.path) to finish the last update: \(error)")
        }
        if committed == journal.id {
            try journal.finish(in: bundle)
        } else {
            journal.abandon(in: bundle)
        }
    }

    /// Opens the SQLite file at `url` for writing and reads from it: SQLite rolls back a hot
    /// journal (one whose writer is gone) on the first read. A live writer's journal is not hot,
    /// and is left alone.
    private static func rollBackUnfinishedTransaction(_ url: URL) {
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        guard let queue = try? DatabaseQueue(path: url.path, configuration: configuration) else { return }
        _ = try? queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
        try? queue.close()
    }
}

/// An exclusive lock on a bundle's `.update.lock` file (`flock(2)`), held by an updater while
/// its journal exists and by ``UpdateJournal/recover(_:)``. The kernel drops it when the holder
/// dies, so a crashed updater never leaves the bundle locked.
public final class BundleLock {
    private var descriptor: Int32

    /// Waits for the lock on `bundle`; without write access to it, holds nothing.
    public init(_ bundle: URL) {
        descriptor = open(bundle.appendingPathComponent(".update.lock").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        if descriptor >= 0 {
            while flock(descriptor, LOCK_EX) != 0 && errno == EINTR {}
        }
    }

    public func unlock() {
        guard descriptor >= 0 else { return }
        close(descriptor)  // releases the lock
        descriptor = -1
    }

    deinit { unlock() }
}
