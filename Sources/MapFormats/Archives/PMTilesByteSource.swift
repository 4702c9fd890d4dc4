import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Random access to an archive's bytes, so a reader fetches only the directories and tiles it
/// needs. Implementations must be safe to call from several threads at once.
public protocol PMTilesByteSource: Sendable {
    /// The archive's size in bytes.
    var count: UInt64 { get }
    /// Exactly `length` bytes starting at `offset`; callers keep the range within `count`.
    func read(at offset: UInt64, length: Int) throws(PMTilesError) -> [UInt8]
}

/// An archive held in memory.
public struct PMTilesMemorySource: PMTilesByteSource {
    /// The whole archive.
    public let bytes: [UInt8]

    /// An archive from its bytes.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }
    /// An archive from `Data` (copied once into an array).
    public init(_ data: Data) { self.bytes = [UInt8](data) }

    public var count: UInt64 { UInt64(bytes.count) }

    public func read(at offset: UInt64, length: Int) throws(PMTilesError) -> [UInt8] {
        guard length >= 0, offset <= UInt64(bytes.count), UInt64(length) <= UInt64(bytes.count) - offset else {
            throw PMTilesError(.truncated(.tile, needed: offset &+ UInt64(max(length, 0)), available: UInt64(bytes.count)), at: offset)
        }
        let start = Int(offset)
        return Array(bytes[start..<start + length])
    }
}

/// An archive on disk, read with `pread` so concurrent readers share one descriptor and no
/// file position.
public final class PMTilesFileSource: PMTilesByteSource {
    private let descriptor: Int32
    /// The file's size when it was opened.
    public let count: UInt64
    /// The file's path, for error messages.
    public let path: String

    /// Opens `url` for reading.
    public init(url: URL) throws(PMTilesError) {
        path = url.path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw PMTilesError(.io("cannot open \(path): \(String(cString: strerror(errno)))")) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let message = String(cString: strerror(errno))
            close(fd)
            throw PMTilesError(.io("cannot stat \(path): \(message)"))
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw PMTilesError(.io("\(path) is not a regular file"))
        }
        descriptor = fd
        count = UInt64(max(info.st_size, 0))
    }

    deinit { close(descriptor) }

    public func read(at offset: UInt64, length: Int) throws(PMTilesError) -> [UInt8] {
        guard length >= 0, offset <= count, UInt64(length) <= count - offset else {
            throw PMTilesError(.truncated(.tile, needed: offset &+ UInt64(max(length, 0)), available: count), at: offset)
        }
        if length == 0 { return [] }
        var failure: PMTilesError?
        let output = [UInt8](unsafeUninitializedCapacity: length) { buffer, initialized in
            var done = 0
            while done < length {
                let n = pread(descriptor, buffer.baseAddress! + done, length - done, off_t(offset) + off_t(done))
                if n > 0 {
                    done += n
                } else if n == 0 {
                    // The file shrank after it was opened.
                    failure = PMTilesError(.truncated(.tile, needed: offset + UInt64(length), available: offset + UInt64(done)), at: offset)
                    break
                } else if errno != EINTR {
                    failure = PMTilesError(.io("cannot read \(path) at \(offset): \(String(cString: strerror(errno)))"), at: offset)
                    break
                }
            }
            // Zero what was not read so the buffer is fully initialised either way.
            if done < length { (buffer.baseAddress! + done).initialize(repeating: 0, count: length - done) }
            initialized = length
        }
        if let failure { throw failure }
        return output
    }
}
