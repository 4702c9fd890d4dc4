import Foundation
import GRDB

/// A SQLite file written once, in bulk, by one thread: how the import writes a bundle's place index
/// and street scene into its staging folder before they are renamed into place.
///
/// No journal and no syncs (a write that fails leaves only a staging file the next import clears),
/// a page cache large enough for the R*Trees, and inserts grouped ``batchSize`` to a transaction
/// that stays open across calls, so that thousands of inserts share one commit.
public final class BulkSQLiteWriter {
    /// Inserts to a transaction.
    public static let batchSize = 5_000

    private let queue: DatabaseQueue
    private var pending = 0
    private var inTransaction = false

    /// Creates the file at `url`, replacing any file there, with `cacheKilobytes` of page cache,
    /// and runs `create` (the schema and its first rows) in it.
    public init(url: URL, cacheKilobytes: Int, create: (Database) throws -> Void) throws {
        try? FileManager.default.removeItem(at: url)
        var configuration = Configuration()
        // The batch's transaction stays open between calls.
        configuration.allowsUnsafeTransactions = true
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -\(cacheKilobytes)")
        }
        queue = try DatabaseQueue(path: url.path, configuration: configuration)
        try queue.inDatabase(create)
    }

    /// Runs `body` (one record's inserts) in the open batch, committing the batch every ``batchSize`` calls.
    public func insert(_ body: (Database) throws -> Void) throws {
        try queue.inDatabase { db in
            if !inTransaction {
                try db.execute(sql: "BEGIN")
                inTransaction = true
            }
            try body(db)
            pending += 1
            if pending >= Self.batchSize {
                try db.execute(sql: "COMMIT")
                inTransaction = false
                pending = 0
            }
        }
    }

    /// Commits the open batch, then runs `body` (the writer's last passes, in transactions of its
    /// own) and closes the file.
    public func finish(_ body: (Database) throws -> Void) throws {
        try queue.inDatabase { db in
            if inTransaction {
                try db.execute(sql: "COMMIT")
                inTransaction = false
                pending = 0
            }
            try body(db)
        }
        try queue.close()
    }
}

extension DatabasePool {
    /// A read-only pool over a file a ``BulkSQLiteWriter`` wrote, for queries from many threads: a
    /// connection per core (at least two), each reading through a memory map of up to `mapBytes`
    /// rather than copying every page it reads into its own small cache (a query touches a few
    /// hundred or thousand scattered rows).
    public static func readOnly(at url: URL, mapBytes: Int) throws -> DatabasePool {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.maximumReaderCount = max(2, ProcessInfo.processInfo.activeProcessorCount)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA mmap_size = \(mapBytes)")
        }
        return try DatabasePool(path: url.path, configuration: configuration)
    }
}
