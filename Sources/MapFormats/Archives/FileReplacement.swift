import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// "Write aside, then rename": how every file OpenMapKit writes replaces what was there, so a reader
/// sees the old file or the new one and never half of one, and a crash or Ctrl-C leaves the old one.
///
/// The new file (or folder) is written under a hidden staging name beside the destination
/// (``stagingURL(for:)``), flushed, and renamed over it: `rename(2)` is atomic within a file
/// system. A folder cannot be renamed over a non-empty folder, so ``replaceFolder(at:with:)``
/// swaps the two in one step where Linux can (`renameat2` with `RENAME_EXCHANGE`) and removes the
/// old one afterwards; elsewhere it moves the old one aside first, which leaves a moment with no
/// folder at the destination. Staging left by a process that was killed outright is removed by
/// ``removeAbandonedStaging(for:)``.
///
/// The tile archive writers (MBTiles, PMTiles) and the bundle writer (`MapBundle`'s
/// `BundleStaging`) all go through here: it sits in MapFormats, the lowest module that writes files,
/// so the archive writers below MapBundle can use it too.
public enum FileReplacement {
    /// The staging name's marker: `.NAME.partial-PID-RANDOM` beside `NAME`.
    static let marker = ".partial-"

    /// A fresh hidden path beside `destination` to write its replacement at. It names this process
    /// (so ``removeAbandonedStaging(for:)`` can tell abandoned staging from staging in use) and a
    /// random number (so two writers in one process never share it).
    public static func stagingURL(for destination: URL) -> URL {
        destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent)\(marker)\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    }

    /// Flushes the finished file at `staged` to disk and renames it over `destination`.
    public static func replaceFile(at destination: URL, with staged: URL) throws(FileReplacementError) {
        let fd = open(staged.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0, fsync(fd) == 0 else {
            let reason = String(cString: strerror(errno))
            if fd >= 0 { close(fd) }
            throw FileReplacementError(.flush, "cannot flush \(staged.path): \(reason)")
        }
        close(fd)
        guard rename(staged.path, destination.path) == 0 else {
            throw FileReplacementError(.rename, "cannot move \(staged.path) to \(destination.path): \(String(cString: strerror(errno)))")
        }
        syncFolder(of: destination)
    }

    /// Writes `contents` beside `destination`, flushes them and renames them over it; on failure
    /// the staged file is removed and `destination` is as it was.
    public static func replaceFile(at destination: URL, contents: Data) throws(FileReplacementError) {
        let staged = stagingURL(for: destination)
        do {
            try contents.write(to: staged)
        } catch {
            try? FileManager.default.removeItem(at: staged)
            throw FileReplacementError(.write, "cannot write \(staged.path): \(error.localizedDescription)")
        }
        do {
            try replaceFile(at: destination, with: staged)
        } catch {
            try? FileManager.default.removeItem(at: staged)
            throw error
        }
    }

    /// Moves the finished folder `staged` over `destination`: an existing folder is moved aside
    /// first, and removed only once the new one is in place; if that fails it is put back.
    public static func replaceFolder(at destination: URL, with staged: URL) throws(FileReplacementError) {
        let fileManager = FileManager.default
        // One step: the staged folder takes the destination's name and the old one the staged
        // name, so a reader finds a whole bundle at the destination at every moment, and a kill
        // leaves either the old one there or the new one.
        if fileManager.fileExists(atPath: destination.path), exchange(staged.path, destination.path) {
            syncFolder(of: destination)
            try? fileManager.removeItem(at: staged)
            return
        }
        let old = destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).old-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        let hadOld = fileManager.fileExists(atPath: destination.path)
        if hadOld {
            guard rename(destination.path, old.path) == 0 else {
                throw FileReplacementError(.rename, "cannot move the old \(destination.lastPathComponent) aside: \(String(cString: strerror(errno)))")
            }
        }
        guard rename(staged.path, destination.path) == 0 else {
            let reason = String(cString: strerror(errno))
            if hadOld { _ = rename(old.path, destination.path) }
            throw FileReplacementError(.rename, "cannot move the new \(destination.lastPathComponent) into place: \(reason)")
        }
        syncFolder(of: destination)
        if hadOld { try? fileManager.removeItem(at: old) }
    }

    /// `renameat2(2)` with `RENAME_EXCHANGE`, looked up at run time (Glibc's Swift module does not
    /// declare it): nil where the C library has none.
    private static let renameat2: (@convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32)? = {
        #if os(Linux)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32).self)
        #else
        return nil
        #endif
    }()

    /// Swaps the entries at `a` and `b` atomically; false where the system or the file system
    /// cannot (then nothing moved).
    static func exchange(_ a: String, _ b: String) -> Bool {
        #if os(Linux)
        let renameExchange: UInt32 = 1 << 1  // RENAME_EXCHANGE in linux/fs.h
        guard let renameat2 else { return false }
        return renameat2(AT_FDCWD, a, AT_FDCWD, b, renameExchange) == 0
        #else
        return false
        #endif
    }

    /// Removes the staging beside `destination` left by processes that are gone (killed by
    /// SIGKILL or a power loss before they could clean up). Staging of running processes, this
    /// one included, is left alone.
    public static func removeAbandonedStaging(for destination: URL) {
        let parent = destination.deletingLastPathComponent()
        let prefix = ".\(destination.lastPathComponent)\(marker)"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            guard let pid = pid_t(rest.prefix { $0 != "-" }), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(at: parent.appendingPathComponent(name))
        }
    }

    /// Flushes the folder entry of a rename, so the new name survives a crash too (best effort:
    /// not every file system allows it).
    private static func syncFolder(of url: URL) {
        let fd = open(url.deletingLastPathComponent().path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }
}

/// Why a replacement could not be made; the old file or folder is still in place.
public struct FileReplacementError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable { case write, flush, rename }
    public let kind: Kind
    public let message: String
    init(_ kind: Kind, _ message: String) { (self.kind, self.message) = (kind, message) }
    public var description: String { message }
}
