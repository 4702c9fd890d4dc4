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
/// system. A folder cannot be renamed over a non-empty folder, so ``replaceFolder(at:with:)`` moves
/// the old one aside first and removes it only once the new one is in place. Staging left by a
/// process that was killed outright is removed by ``removeAbandonedStaging(for:)``.
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

    /// Moves the finished folder `staged` over `destination`: an existing folder is moved aside
    /// first, and removed only once the new one is in place; if that fails it is put back.
    public static func replaceFolder(at destination: URL, with staged: URL) throws(FileReplacementError) {
        let fileManager = FileManager.default
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
    public enum Kind: Sendable { case flush, rename }
    public let kind: Kind
    public let message: String
    init(_ kind: Kind, _ message: String) { (self.kind, self.message) = (kind, message) }
    public var description: String { message }
}
