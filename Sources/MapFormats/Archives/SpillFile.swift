#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An append-only scratch file for data too large to keep on the heap: written in large buffered
/// chunks, then memory-mapped for reading, so the kernel's page cache (not the process's heap)
/// holds it and can drop pages under pressure.
///
/// The file is unlinked as soon as it is created: it never outlives the process, even when the
/// process is killed, so an interrupted import leaves nothing behind.
///
/// ```swift
/// var spill = try SpillFile(directory: "/tmp")
/// let offset = try spill.append(bytes)
/// try spill.seal()
/// spill.withBytes { all in use(all[offset...]) }
/// ```
public struct SpillFile: ~Copyable {
    /// Why a spill file could not be written or read.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    private let descriptor: Int32
    private let path: String
    private var pending: [UInt8] = []
    private var flushed = 0
    private var mapping: UnsafeRawBufferPointer?
    private let chunkSize: Int

    /// Creates an empty spill file in `directory` (which should be on the same disk as the output
    /// it serves, so its size shows in the import's disk figures).
    public init(directory: String, chunkSize: Int = 4 << 20) throws(Failure) {
        let path = directory + "/.spill-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Failure(description: "cannot create a scratch file in \(directory): \(String(cString: strerror(errno)))") }
        unlink(path)
        self.descriptor = fd
        self.path = path
        self.chunkSize = chunkSize
        pending.reserveCapacity(chunkSize)
    }

    deinit {
        if let mapping, let base = mapping.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), mapping.count) }
        close(descriptor)
    }

    /// Bytes appended so far.
    public var count: Int { flushed + pending.count }

    /// Whether ``seal()`` has run: appending is over and ``withBytes(_:)`` reads the mapping.
    public var isSealed: Bool { mapping != nil || sealedEmpty }
    private var sealedEmpty = false

    /// Appends `bytes` and returns the offset they start at.
    @discardableResult
    public mutating func append(_ bytes: UnsafeRawBufferPointer) throws(Failure) -> Int {
        precondition(mapping == nil && !sealedEmpty, "SpillFile: append after seal")
        let offset = count
        pending.append(contentsOf: bytes)
        if pending.count >= chunkSize { try flush() }
        return offset
    }

    /// Appends `bytes` and returns the offset they start at.
    @discardableResult
    public mutating func append(_ bytes: [UInt8]) throws(Failure) -> Int {
        let result: Result<Int, Failure> = bytes.withUnsafeBytes { raw in Result { () throws(Failure) in try append(raw) } }
        return try result.get()
    }

    /// Appends the raw bytes of `value` (a trivial type) and returns the offset they start at.
    @discardableResult
    public mutating func append<T: BitwiseCopyable>(value: T) throws(Failure) -> Int {
        var copy = value
        let result: Result<Int, Failure> = withUnsafeBytes(of: &copy) { raw in Result { () throws(Failure) in try append(raw) } }
        return try result.get()
    }

    /// Writes out what is buffered and maps the whole file read-only. Appending ends here.
    public mutating func seal() throws(Failure) {
        guard mapping == nil, !sealedEmpty else { return }
        try flush()
        pending = []
        guard flushed > 0 else {
            sealedEmpty = true
            return
        }
        guard let base = mmap(nil, flushed, PROT_READ, MAP_SHARED, descriptor, 0), base != MAP_FAILED else {
            throw Failure(description: "cannot map a \(flushed)-byte scratch file: \(String(cString: strerror(errno)))")
        }
        // Readers jump around (node lookups, features by bucket); read-ahead would waste the cache.
        _ = madvise(base, flushed, MADV_RANDOM)
        mapping = UnsafeRawBufferPointer(start: base, count: flushed)
    }

    /// Calls `body` with every byte written, once sealed.
    public func withBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        precondition(mapping != nil || sealedEmpty, "SpillFile: read before seal")
        return try body(mapping ?? UnsafeRawBufferPointer(start: nil, count: 0))
    }

    /// Drops the mapped pages from the process's resident set; they stay in the page cache and
    /// come back on the next read. Call it between passes so that resident memory reflects the
    /// work in hand rather than everything read so far.
    public func releaseResidentPages() {
        guard let mapping, let base = mapping.baseAddress else { return }
        _ = madvise(UnsafeMutableRawPointer(mutating: base), mapping.count, MADV_DONTNEED)
    }

    /// Unmaps the file and cuts it to nothing, giving its disk space back before the spill file
    /// itself goes away. Reading afterwards sees no bytes.
    public mutating func truncate() {
        if let mapping, let base = mapping.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), mapping.count) }
        mapping = nil
        pending = []
        flushed = 0
        sealedEmpty = true
        _ = ftruncate(descriptor, 0)
    }

    private mutating func flush() throws(Failure) {
        guard !pending.isEmpty else { return }
        var failure: Int32 = 0
        pending.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let n = write(descriptor, raw.baseAddress! + done, raw.count - done)
                if n > 0 { done += n } else if n < 0 && errno == EINTR { continue } else {
                    failure = n == 0 ? ENOSPC : errno
                    return
                }
            }
        }
        guard failure == 0 else { throw Failure(description: "cannot write a scratch file: \(String(cString: strerror(failure)))") }
        flushed += pending.count
        pending.removeAll(keepingCapacity: true)
    }
}
