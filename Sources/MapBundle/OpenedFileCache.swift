import Foundation

/// Files opened once per process and shared, reopened when the file at the path is replaced.
///
/// A re-import replaces a bundle's files by renaming new ones over them (``FileReplacement``), so
/// the path stays and the file behind it changes: the cache compares a ``FileStamp`` (inode, size
/// and modification time) taken at each lookup with the one taken at opening. One rule for every
/// kind of file: place indexes and road graphs alike.
public final class OpenedFileCache<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var open: [String: (value: Value, stamp: FileStamp)] = [:]

    public init() {}

    /// The value opened from `url`, opening it with `make` when it is not open yet or the file
    /// changed since. Errors from `make` are passed on and nothing is cached for them. A missing
    /// file is opened (and fails) every time.
    public func value<Failure: Error>(for url: URL, make: () throws(Failure) -> Value) throws(Failure) -> Value {
        let key = url.standardizedFileURL.path
        let stamp = FileStamp(of: url)
        if let stamp, let cached = lock.withLock({ open[key] }), cached.stamp == stamp { return cached.value }
        let value = try make()
        if let stamp { lock.withLock { open[key] = (value, stamp) } }
        return value
    }

    /// Forgets every opened value (the next lookups reopen).
    public func removeAll() { lock.withLock { open.removeAll() } }
}

/// What identifies one version of a file at a path: a file renamed over it has another inode, and
/// a file rewritten in place another size or modification time.
public struct FileStamp: Equatable, Sendable {
    public var inode: UInt64
    public var size: Int64
    public var modified: Date?

    /// The stamp of the file at `url`, or nil when there is none.
    public init?(of url: URL) {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path) else { return nil }
        inode = (attributes[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0
        size = (attributes[.size] as? NSNumber)?.int64Value ?? -1
        modified = attributes[.modificationDate] as? Date
    }
}
