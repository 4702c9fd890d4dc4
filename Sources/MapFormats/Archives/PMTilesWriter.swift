import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Builds a PMTiles v3 archive from tiles given in any order.
///
/// Identical tile contents are stored once, runs of consecutive tile ids with the same content
/// become one directory entry, and tile data is laid out in tile-id order (a clustered
/// archive). Directories are gzip-compressed and split into leaf directories when the root
/// would not fit the first 16 KiB. Tiles are kept in a spool file beside the destination
/// (or in memory with `init()`), so memory grows with the number of tiles, not their bytes.
///
/// ```swift
/// let writer = try PMTilesWriter(url: out, tileType: .mvt, tileCompression: .gzip)
/// try writer.addTile(z: 0, x: 0, y: 0, bytes: gzippedMVT)
/// writer.metadata = Data(#"{"vector_layers":[]}"#.utf8)
/// try writer.finish()      // written to a temporary file and renamed over `out`
/// ```
public final class PMTilesWriter {
    /// What the tiles are, for the header.
    public var tileType: PMTilesTileType
    /// The compression the tiles already carry (the writer stores them as given).
    public var tileCompression: PMTilesCompression
    /// `.gzip` (the default) or `.none`.
    public var internalCompression: PMTilesCompression
    /// The JSON metadata object.
    public var metadata = Data("{}".utf8)
    /// Bounds in degrees; by default the extent of the tiles added.
    public var bounds: (minLongitude: Double, minLatitude: Double, maxLongitude: Double, maxLatitude: Double)?
    /// Initial view; by default the middle of the bounds at the zoom where they fill about a tile.
    public var center: (longitude: Double, latitude: Double, zoom: Int)?

    /// The destination, or nil for an in-memory archive.
    public let url: URL?

    private var store: BlobStore
    private var tileIDs: [UInt64] = []
    private var tileContents: [UInt32] = []
    private var contentOffsets: [UInt64] = []
    private var contentLengths: [UInt32] = []
    /// Content hash → first content index with that hash; later collisions go to `collisions`.
    private var contentByHash: [Int: UInt32] = [:]
    private var collisions: [Int: [UInt32]] = [:]
    // Extent of the tiles added, as fractions of the world (x east, y south).
    private var minX = 1.0, minY = 1.0, maxX = 0.0, maxY = 0.0
    private var finished = false

    /// A writer whose archive goes to `url` when `finish()` is called.
    public init(url: URL, tileType: PMTilesTileType, tileCompression: PMTilesCompression,
                internalCompression: PMTilesCompression = .gzip) throws(PMTilesError) {
        self.url = url
        self.tileType = tileType
        self.tileCompression = tileCompression
        self.internalCompression = internalCompression
        store = try BlobStore(spoolBeside: url)
    }

    /// A writer that builds the archive in memory (`encoded()`).
    public init(tileType: PMTilesTileType, tileCompression: PMTilesCompression,
                internalCompression: PMTilesCompression = .gzip) {
        self.url = nil
        self.tileType = tileType
        self.tileCompression = tileCompression
        self.internalCompression = internalCompression
        store = BlobStore()
    }

    deinit { store.discard() }

    /// Tiles added so far.
    public var tileCount: Int { tileIDs.count }
    /// Distinct tile contents added so far.
    public var contentCount: Int { contentOffsets.count }

    /// Adds tile z/x/y with its bytes as they are to be served (already compressed with
    /// `tileCompression`). Each tile may be added once.
    public func addTile(z: Int, x: Int, y: Int, bytes: [UInt8]) throws(PMTilesError) {
        guard !finished else { throw PMTilesError(.io("the archive was already written")) }
        let id = try PMTilesTileID.id(z: z, x: x, y: y)
        guard !bytes.isEmpty else { throw PMTilesError(.emptyTile(z: z, x: x, y: y)) }
        guard bytes.count <= Int(UInt32.max) else { throw PMTilesError(.io("tile \(z)/\(x)/\(y) exceeds 4 GiB")) }
        let content = try intern(bytes)
        tileIDs.append(id)
        tileContents.append(content)
        let scale = 1 / Double(UInt64(1) << UInt64(z))
        minX = min(minX, Double(x) * scale)
        maxX = max(maxX, Double(x + 1) * scale)
        minY = min(minY, Double(y) * scale)
        maxY = max(maxY, Double(y + 1) * scale)
    }

    /// The content index of `bytes`, storing them when no identical content was stored before.
    private func intern(_ bytes: [UInt8]) throws(PMTilesError) -> UInt32 {
        var hasher = Hasher()
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        let hash = hasher.finalize()
        if let first = contentByHash[hash] {
            if try store.equals(bytes, at: contentOffsets[Int(first)], length: Int(contentLengths[Int(first)])) { return first }
            for candidate in collisions[hash] ?? [] where
                try store.equals(bytes, at: contentOffsets[Int(candidate)], length: Int(contentLengths[Int(candidate)])) {
                return candidate
            }
        }
        guard contentOffsets.count < Int(UInt32.max) else { throw PMTilesError(.io("too many distinct tiles")) }
        let index = UInt32(contentOffsets.count)
        contentOffsets.append(try store.append(bytes))
        contentLengths.append(UInt32(bytes.count))
        if contentByHash[hash] == nil { contentByHash[hash] = index } else { collisions[hash, default: []].append(index) }
        return index
    }

    /// What `finish()` or `encoded()` wrote: header counts and directory sizes.
    public private(set) var summary: Summary?

    /// Figures about a written archive.
    public struct Summary: Sendable {
        /// The header written.
        public var header: PMTilesHeader
        /// The root directory's compressed size (at most 16 257 bytes).
        public var rootDirectoryBytes: Int
        /// Leaf directories written (0 when the root holds every entry).
        public var leafDirectoryCount: Int
    }

    /// Writes the archive to a temporary file beside `url`, flushes it and renames it over `url`,
    /// so readers never see a half-written archive. The writer cannot be used afterwards.
    public func finish() throws(PMTilesError) {
        guard let url else { throw PMTilesError(.io("this writer has no destination; use encoded()")) }
        guard !finished else { throw PMTilesError(.io("the archive was already written")) }
        let plan = try makePlan()
        try store.seal()
        let staged = FileReplacement.stagingURL(for: url)
        let temporary = staged.path
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw PMTilesError(.io("cannot create \(temporary): \(String(cString: strerror(errno)))")) }
        var output = FileOutput(fd: fd, path: temporary)
        do throws(PMTilesError) {
            try write(plan, to: &output)
            try output.flush()
            guard close(fd) == 0 else {
                output.closed = true
                throw PMTilesError(.io("cannot close \(temporary): \(String(cString: strerror(errno)))"))
            }
            output.closed = true
            // Flushed to disk and renamed over `url` (write aside, then rename).
            do { try FileReplacement.replaceFile(at: url, with: staged) } catch { throw PMTilesError(.io(error.message)) }
        } catch {
            if !output.closed { close(fd) }
            unlink(temporary)
            throw error
        }
        finished = true
        store.discard()
    }

    /// The whole archive in memory.
    public func encoded() throws(PMTilesError) -> [UInt8] {
        let plan = try makePlan()
        var output = MemoryOutput()
        try write(plan, to: &output)
        return output.bytes
    }

    // MARK: Layout

    private struct Plan {
        var header: PMTilesHeader
        var root: [UInt8]
        var metadata: [UInt8]
        var leaves: [UInt8]
        /// Content indices in the order their blobs go into the tile data section.
        var order: [UInt32]
    }

    private func makePlan() throws(PMTilesError) -> Plan {
        guard !tileIDs.isEmpty else { throw PMTilesError(.noTiles) }
        guard internalCompression == .gzip || internalCompression == .none else {
            throw PMTilesError(.unsupportedCompression(internalCompression))
        }
        do {
            let object = try JSONSerialization.jsonObject(with: metadata)
            guard object is [String: Any] else { throw PMTilesError(.malformedMetadata("top level is not an object")) }
        } catch let error as PMTilesError {
            throw error
        } catch {
            throw PMTilesError(.malformedMetadata(error.localizedDescription))
        }

        let permutation = tileIDs.indices.sorted { tileIDs[$0] < tileIDs[$1] }
        var entries: [PMTilesEntry] = []
        var order: [UInt32] = []
        var newOffset = [UInt64](repeating: .max, count: contentOffsets.count)
        var dataLength: UInt64 = 0
        var lastContent = UInt32.max
        var lastID: UInt64 = 0
        for (rank, index) in permutation.enumerated() {
            let id = tileIDs[index], content = tileContents[index]
            if rank > 0 && id == lastID {
                let (z, x, y) = try PMTilesTileID.coordinates(of: id)
                throw PMTilesError(.duplicateTile(z: z, x: x, y: y))
            }
            if let last = entries.last, content == lastContent, last.tileID + UInt64(last.runLength) == id,
               last.runLength < UInt32.max {
                entries[entries.count - 1].runLength += 1
            } else {
                if newOffset[Int(content)] == .max {
                    newOffset[Int(content)] = dataLength
                    dataLength += UInt64(contentLengths[Int(content)])
                    order.append(content)
                }
                entries.append(PMTilesEntry(tileID: id, offset: newOffset[Int(content)],
                                            length: contentLengths[Int(content)], runLength: 1))
            }
            lastContent = content
            lastID = id
        }

        let (root, leaves, leafCount) = try directories(entries)
        let metadataBytes = try PMTilesDirectory.compress([UInt8](metadata), internalCompression)

        var header = PMTilesHeader()
        header.rootDirectoryOffset = UInt64(PMTilesHeader.size)
        header.rootDirectoryLength = UInt64(root.count)
        header.metadataOffset = header.rootDirectoryOffset + header.rootDirectoryLength
        header.metadataLength = UInt64(metadataBytes.count)
        header.leafDirectoriesOffset = header.metadataOffset + header.metadataLength
        header.leafDirectoriesLength = UInt64(leaves.count)
        header.tileDataOffset = header.leafDirectoriesOffset + header.leafDirectoriesLength
        header.tileDataLength = dataLength
        header.addressedTilesCount = UInt64(tileIDs.count)
        header.tileEntriesCount = UInt64(entries.count)
        header.tileContentsCount = UInt64(order.count)
        header.clustered = true
        header.internalCompression = internalCompression
        header.tileCompression = tileCompression
        header.tileType = tileType
        let minZoom = try PMTilesTileID.coordinates(of: entries[0].tileID).z
        let lastEntry = entries[entries.count - 1]
        let maxZoom = try PMTilesTileID.coordinates(of: lastEntry.tileID + UInt64(lastEntry.runLength) - 1).z
        header.minZoom = UInt8(minZoom)
        header.maxZoom = UInt8(maxZoom)

        let box = bounds ?? (PMTilesWriter.longitude(minX), PMTilesWriter.latitude(maxY),
                             PMTilesWriter.longitude(maxX), PMTilesWriter.latitude(minY))
        header.minLongitudeE7 = PMTilesHeader.e7(box.minLongitude)
        header.minLatitudeE7 = PMTilesHeader.e7(box.minLatitude)
        header.maxLongitudeE7 = PMTilesHeader.e7(box.maxLongitude)
        header.maxLatitudeE7 = PMTilesHeader.e7(box.maxLatitude)
        if let center {
            header.centerLongitudeE7 = PMTilesHeader.e7(center.longitude)
            header.centerLatitudeE7 = PMTilesHeader.e7(center.latitude)
            header.centerZoom = UInt8(clamping: center.zoom)
        } else {
            header.centerLongitudeE7 = PMTilesHeader.e7((box.minLongitude + box.maxLongitude) / 2)
            header.centerLatitudeE7 = PMTilesHeader.e7((box.minLatitude + box.maxLatitude) / 2)
            // The zoom at which the tiles' extent spans about one tile.
            let extent = max(maxX - minX, maxY - minY, 1e-12)
            let fit = Int(max(0, (-log2(extent)).rounded(.down)))
            header.centerZoom = UInt8(min(max(fit, minZoom), maxZoom))
        }
        summary = Summary(header: header, rootDirectoryBytes: root.count, leafDirectoryCount: leafCount)
        return Plan(header: header, root: root, metadata: metadataBytes, leaves: leaves, order: order)
    }

    /// The root directory and the leaf directories section. The root holds every entry when it
    /// fits; otherwise entries go into leaves of `leafSize` entries, growing until the root of
    /// leaf pointers fits beside the header in 16 KiB.
    private func directories(_ entries: [PMTilesEntry]) throws(PMTilesError) -> (root: [UInt8], leaves: [UInt8], count: Int) {
        let rootLimit = PMTilesHeader.rootLimit - PMTilesHeader.size
        let encoded = PMTilesDirectory.encode(entries)
        // Directories rarely compress past 8:1, so a much larger one is not worth compressing whole.
        if encoded.count <= rootLimit * 8 {
            let whole = try PMTilesDirectory.compress(encoded, internalCompression)
            if whole.count <= rootLimit { return (whole, [], 0) }
        }
        var leafSize = 4096
        while true {
            var leaves: [UInt8] = []
            var pointers: [PMTilesEntry] = []
            var start = 0
            while start < entries.count {
                let end = min(start + leafSize, entries.count)
                let leaf = try PMTilesDirectory.compress(PMTilesDirectory.encode(Array(entries[start..<end])), internalCompression)
                pointers.append(PMTilesEntry(tileID: entries[start].tileID, offset: UInt64(leaves.count),
                                             length: UInt32(leaf.count), runLength: 0))
                leaves.append(contentsOf: leaf)
                start = end
            }
            let root = try PMTilesDirectory.compress(PMTilesDirectory.encode(pointers), internalCompression)
            if root.count <= rootLimit { return (root, leaves, pointers.count) }
            guard pointers.count > 1 else { throw PMTilesError(.rootDirectoryTooLarge(root.count)) }
            leafSize *= 2
        }
    }

    private func write<Output: ArchiveOutput>(_ plan: Plan, to output: inout Output) throws(PMTilesError) {
        try output.write(plan.header.encoded())
        try output.write(plan.root)
        try output.write(plan.metadata)
        try output.write(plan.leaves)
        for content in plan.order {
            try store.read(at: contentOffsets[Int(content)], length: Int(contentLengths[Int(content)])) { (bytes) throws(PMTilesError) in
                try output.write(bytes)
            }
        }
    }

    private static func longitude(_ x: Double) -> Double { x * 360 - 180 }
    private static func latitude(_ y: Double) -> Double { atan(sinh(Double.pi * (1 - 2 * y))) * 180 / Double.pi }
}

// MARK: - Storage

private protocol ArchiveOutput {
    mutating func write(_ bytes: UnsafeRawBufferPointer) throws(PMTilesError)
}

extension ArchiveOutput {
    mutating func write(_ bytes: [UInt8]) throws(PMTilesError) {
        try pmtilesWithBytes(bytes) { (raw) throws(PMTilesError) in try write(raw) }
    }
}

private struct MemoryOutput: ArchiveOutput {
    var bytes: [UInt8] = []
    mutating func write(_ raw: UnsafeRawBufferPointer) throws(PMTilesError) { bytes.append(contentsOf: raw) }
}

/// Buffered writes to a file descriptor.
private struct FileOutput: ArchiveOutput {
    let fd: Int32
    let path: String
    var buffer: [UInt8] = []
    var closed = false

    init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
        buffer.reserveCapacity(1 << 20)
    }

    mutating func write(_ raw: UnsafeRawBufferPointer) throws(PMTilesError) {
        buffer.append(contentsOf: raw)
        if buffer.count >= 1 << 20 { try flush() }
    }

    mutating func flush() throws(PMTilesError) {
        try pmtilesWriteAll(fd, buffer, path: path)
        buffer.removeAll(keepingCapacity: true)
    }
}

private func pmtilesWriteAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(PMTilesError) {
    var failure: String?
    bytes.withUnsafeBytes { raw in
        var done = 0
        while done < raw.count {
            let n = write(fd, raw.baseAddress! + done, raw.count - done)
            if n > 0 { done += n } else if n < 0 && errno == EINTR { continue } else {
                failure = String(cString: strerror(errno))
                return
            }
        }
    }
    if let failure { throw PMTilesError(.io("cannot write \(path): \(failure)")) }
}

/// Where the writer keeps distinct tile contents until the archive is laid out: a spool file
/// (unlinked as soon as it is created, so it never outlives the process) or memory.
private struct BlobStore {
    private var fd: Int32 = -1
    private var path = ""
    private var pending: [UInt8] = []
    private var flushed: UInt64 = 0
    /// The spool mapped into memory once adding is over, so laying out the archive copies
    /// blobs instead of making a system call per blob.
    private var mapping: UnsafeRawBufferPointer?

    init() {}

    init(spoolBeside url: URL) throws(PMTilesError) {
        let spool = url.deletingLastPathComponent().path + "/." + url.lastPathComponent + ".spool-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        fd = open(spool, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw PMTilesError(.io("cannot create \(spool): \(String(cString: strerror(errno)))")) }
        unlink(spool)
        path = spool
    }

    var length: UInt64 { flushed + UInt64(pending.count) }

    mutating func append(_ bytes: [UInt8]) throws(PMTilesError) -> UInt64 {
        let offset = length
        pending.append(contentsOf: bytes)
        if fd >= 0 && pending.count >= 4 << 20 {
            try pmtilesWriteAll(fd, pending, path: path)
            flushed += UInt64(pending.count)
            pending.removeAll(keepingCapacity: true)
        }
        return offset
    }

    /// Writes out what is buffered and maps the spool for reading; appending stays possible
    /// (later blobs are read from the buffer), but the writer only seals before laying out.
    mutating func seal() throws(PMTilesError) {
        guard fd >= 0, mapping == nil else { return }
        if !pending.isEmpty {
            try pmtilesWriteAll(fd, pending, path: path)
            flushed += UInt64(pending.count)
            pending.removeAll()
        }
        guard flushed > 0 else { return }
        // An unmappable spool (no address space) falls back to pread.
        if let base = mmap(nil, Int(flushed), PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED {
            mapping = UnsafeRawBufferPointer(start: base, count: Int(flushed))
        }
    }

    /// Calls `body` with the stored bytes at `offset`.
    func read(at offset: UInt64, length: Int, _ body: (UnsafeRawBufferPointer) throws(PMTilesError) -> Void) throws(PMTilesError) {
        if let mapping, offset + UInt64(length) <= UInt64(mapping.count) {
            let start = Int(offset)
            return try body(UnsafeRawBufferPointer(rebasing: mapping[start..<start + length]))
        }
        if offset >= flushed {
            let start = Int(offset - flushed)
            let result: Result<Void, PMTilesError> = pending.withUnsafeBytes { raw in
                Result { () throws(PMTilesError) in try body(UnsafeRawBufferPointer(rebasing: raw[start..<start + length])) }
            }
            return try result.get()
        }
        var chunk = [UInt8](repeating: 0, count: length)
        var failure: String?
        chunk.withUnsafeMutableBytes { raw in
            var done = 0
            while done < length {
                let n = pread(fd, raw.baseAddress! + done, length - done, off_t(offset) + off_t(done))
                if n > 0 { done += n } else if n < 0 && errno == EINTR { continue } else {
                    failure = n == 0 ? "spool file ended early" : String(cString: strerror(errno))
                    return
                }
            }
        }
        if let failure { throw PMTilesError(.io("cannot read back \(path): \(failure)")) }
        try pmtilesWithBytes(chunk, body)
    }

    func equals(_ bytes: [UInt8], at offset: UInt64, length: Int) throws(PMTilesError) -> Bool {
        guard bytes.count == length else { return false }
        var same = false
        try read(at: offset, length: length) { (stored) throws(PMTilesError) in
            same = bytes.withUnsafeBytes { memcmp($0.baseAddress!, stored.baseAddress!, length) == 0 }
        }
        return same
    }

    mutating func discard() {
        if let mapping, let base = mapping.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), mapping.count) }
        mapping = nil
        if fd >= 0 { close(fd) }
        fd = -1
        pending = []
    }
}
