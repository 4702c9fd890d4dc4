import Foundation

/// A PMTiles v3 archive opened for reading. Reads go through a `PMTilesByteSource`, so a server
/// serves tiles from a large file without loading it; decoded leaf directories are kept in a
/// small bounded cache. Safe to share between threads.
///
/// ```swift
/// let archive = try PMTilesArchive(url: URL(fileURLWithPath: "monaco.pmtiles"))
/// if let tile = try archive.tile(z: 14, x: 8529, y: 5974) { ... }   // bytes as stored
/// ```
public final class PMTilesArchive: @unchecked Sendable {
    /// Leaf directories nest at most this deep below the root; the spec discourages more than one.
    public static let maximumLeafDepth = 4
    /// The largest directory (compressed or not) the reader accepts.
    public static let maximumDirectoryLength = 64 << 20
    /// The largest metadata (compressed or not) the reader accepts.
    public static let maximumMetadataLength = 64 << 20
    /// At most this many leaf directories stay cached, whatever their size.
    static let maximumCachedLeaves = 256

    /// The archive's header, validated: every section lies inside the archive.
    public let header: PMTilesHeader
    /// Where the bytes come from.
    public let source: any PMTilesByteSource
    /// The root directory's entries.
    public let rootDirectory: [PMTilesEntry]

    // Unchecked Sendable: the only mutable state, the leaf cache, is guarded by `lock`.
    private let lock = NSLock()
    private var leafCache: [UInt64: (entries: [PMTilesEntry], stamp: UInt64)] = [:]
    private var leafCacheEntryCount = 0
    private var clock: UInt64 = 0
    private let leafCacheLimit: Int

    /// Opens the archive at `url`; `leafCacheEntries` bounds the directory entries kept in memory.
    public convenience init(url: URL, leafCacheEntries: Int = 1 << 20) throws(PMTilesError) {
        try self.init(source: PMTilesFileSource(url: url), leafCacheEntries: leafCacheEntries)
    }

    /// Reads an archive held in memory.
    public convenience init(data: Data, leafCacheEntries: Int = 1 << 20) throws(PMTilesError) {
        try self.init(source: PMTilesMemorySource(data), leafCacheEntries: leafCacheEntries)
    }

    /// Reads an archive held in memory.
    public convenience init(bytes: [UInt8], leafCacheEntries: Int = 1 << 20) throws(PMTilesError) {
        try self.init(source: PMTilesMemorySource(bytes), leafCacheEntries: leafCacheEntries)
    }

    /// Reads the header and root directory from `source` and checks that every section lies
    /// inside the archive.
    public init(source: any PMTilesByteSource, leafCacheEntries: Int = 1 << 20) throws(PMTilesError) {
        self.source = source
        self.leafCacheLimit = max(leafCacheEntries, 0)
        let size = source.count
        guard size >= 8 else {
            throw PMTilesError(.truncated(.header, needed: UInt64(PMTilesHeader.size), available: size), at: 0)
        }
        let headerBytes = try source.read(at: 0, length: Int(min(size, UInt64(PMTilesHeader.size))))
        let header = try pmtilesWithBytes(headerBytes) { raw throws(PMTilesError) in try PMTilesHeader(bytes: raw) }
        self.header = header

        func check(_ section: PMTilesError.Section, _ offset: UInt64, _ length: UInt64) throws(PMTilesError) {
            // Writers differ in the offset they give an empty section; it is never read.
            if length == 0 { return }
            let (end, overflow) = offset.addingReportingOverflow(length)
            guard !overflow, end <= size else {
                throw PMTilesError(.outOfBounds(section, offset: offset, length: length, limit: size), at: offset)
            }
        }
        try check(.rootDirectory, header.rootDirectoryOffset, header.rootDirectoryLength)
        try check(.metadata, header.metadataOffset, header.metadataLength)
        try check(.leafDirectories, header.leafDirectoriesOffset, header.leafDirectoriesLength)
        try check(.tileData, header.tileDataOffset, header.tileDataLength)
        rootDirectory = try PMTilesArchive.readDirectory(source, header, section: .rootDirectory,
                                                         offset: header.rootDirectoryOffset, length: header.rootDirectoryLength)
    }

    private static func readDirectory(_ source: any PMTilesByteSource, _ header: PMTilesHeader, section: PMTilesError.Section,
                                      offset: UInt64, length: UInt64) throws(PMTilesError) -> [PMTilesEntry] {
        // A zero-length root reads as an empty archive; zero-length leaves are rejected by the
        // directory decoder (entry lengths are positive).
        if length == 0 { return [] }
        guard length <= UInt64(maximumDirectoryLength) else {
            throw PMTilesError(.directoryTooLarge(section, length: length, limit: UInt64(maximumDirectoryLength)), at: offset)
        }
        let compressed = try source.read(at: offset, length: Int(length))
        let bytes = try PMTilesDirectory.decompress(compressed, header.internalCompression, section: section,
                                                    at: offset, limit: maximumDirectoryLength)
        return try pmtilesWithBytes(bytes) { raw throws(PMTilesError) in
            try PMTilesDirectory.decode(raw, section: section, archiveOffset: offset)
        }
    }

    // MARK: Metadata

    /// The metadata's JSON text, decompressed.
    public func metadataData() throws(PMTilesError) -> Data {
        if header.metadataLength == 0 { return Data("{}".utf8) }
        guard header.metadataLength <= UInt64(PMTilesArchive.maximumMetadataLength) else {
            throw PMTilesError(.directoryTooLarge(.metadata, length: header.metadataLength,
                                                  limit: UInt64(PMTilesArchive.maximumMetadataLength)), at: header.metadataOffset)
        }
        let compressed = try source.read(at: header.metadataOffset, length: Int(header.metadataLength))
        return Data(try PMTilesDirectory.decompress(compressed, header.internalCompression, section: .metadata,
                                                    at: header.metadataOffset, limit: PMTilesArchive.maximumMetadataLength))
    }

    /// The metadata as a JSON object (`vector_layers`, `name`, `attribution`, …).
    public func metadata() throws(PMTilesError) -> [String: Any] {
        let data = try metadataData()
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: data) } catch {
            throw PMTilesError(.malformedMetadata(error.localizedDescription), at: header.metadataOffset)
        }
        guard let dictionary = object as? [String: Any] else {
            throw PMTilesError(.malformedMetadata("top level is not an object"), at: header.metadataOffset)
        }
        return dictionary
    }

    // MARK: Tiles

    /// Tile z/x/y's bytes as stored (compressed with `header.tileCompression`), or nil when the
    /// archive has no such tile.
    public func tile(z: Int, x: Int, y: Int) throws(PMTilesError) -> [UInt8]? {
        try tile(id: PMTilesTileID.id(z: z, x: x, y: y))
    }

    /// The bytes of the tile with this id, or nil when absent.
    public func tile(id: UInt64) throws(PMTilesError) -> [UInt8]? {
        guard let entry = try entry(for: id) else { return nil }
        return try readTile(entry)
    }

    /// The directory entry holding tile `id` (following leaf directories), or nil when absent.
    public func entry(for id: UInt64) throws(PMTilesError) -> PMTilesEntry? {
        var directory = rootDirectory
        for _ in 0...PMTilesArchive.maximumLeafDepth {
            guard let entry = PMTilesDirectory.find(id, in: directory) else { return nil }
            if !entry.isLeaf { return entry }
            directory = try leaf(entry)
        }
        throw PMTilesError(.leafDepthExceeded(limit: PMTilesArchive.maximumLeafDepth), at: header.leafDirectoriesOffset)
    }

    /// Decompresses a tile's stored bytes with the archive's tile compression.
    public func decompressTile(_ bytes: [UInt8]) throws(PMTilesError) -> [UInt8] {
        try PMTilesDirectory.decompress(bytes, header.tileCompression, section: .tile, at: header.tileDataOffset, limit: 1 << 30)
    }

    /// Calls `body` for every addressed tile in tile-id order, expanding runs: a blob shared by
    /// a run of n tiles is read once and passed n times. Throw from `body` to stop early.
    public func forEachTile(_ body: (_ z: Int, _ x: Int, _ y: Int, _ bytes: [UInt8]) throws -> Void) throws {
        try forEachEntry { entry, bytes in
            for i in 0..<UInt64(entry.runLength) {
                let (z, x, y) = try PMTilesTileID.coordinates(of: entry.tileID + i)
                try body(z, x, y, bytes)
            }
        }
    }

    /// Calls `body` for every tile entry (a run of identical tiles) in tile-id order, with its
    /// blob, following leaf directories depth first.
    public func forEachEntry(_ body: (PMTilesEntry, [UInt8]) throws -> Void) throws {
        // An explicit stack of directories and positions keeps hostile nesting off the call stack.
        var stack: [(entries: [PMTilesEntry], next: Int)] = [(rootDirectory, 0)]
        while let top = stack.last {
            if top.next == top.entries.count {
                stack.removeLast()
                continue
            }
            let entry = top.entries[top.next]
            stack[stack.count - 1].next += 1
            if entry.isLeaf {
                guard stack.count <= PMTilesArchive.maximumLeafDepth else {
                    throw PMTilesError(.leafDepthExceeded(limit: PMTilesArchive.maximumLeafDepth), at: header.leafDirectoriesOffset)
                }
                stack.append((try readLeaf(entry), 0))
            } else {
                try body(entry, try readTile(entry))
            }
        }
    }

    /// The tile count found by walking every directory (the header's count may be 0 for unknown).
    public func countTiles() throws -> (addressed: UInt64, entries: UInt64) {
        var addressed: UInt64 = 0, entries: UInt64 = 0
        var stack: [[PMTilesEntry]] = [rootDirectory]
        var depth: [Int] = [0]
        while let directory = stack.popLast(), let level = depth.popLast() {
            for entry in directory {
                if entry.isLeaf {
                    guard level < PMTilesArchive.maximumLeafDepth else {
                        throw PMTilesError(.leafDepthExceeded(limit: PMTilesArchive.maximumLeafDepth), at: header.leafDirectoriesOffset)
                    }
                    stack.append(try readLeaf(entry))
                    depth.append(level + 1)
                } else {
                    addressed += UInt64(entry.runLength)
                    entries += 1
                }
            }
        }
        return (addressed, entries)
    }

    private func readTile(_ entry: PMTilesEntry) throws(PMTilesError) -> [UInt8] {
        let (end, overflow) = entry.offset.addingReportingOverflow(UInt64(entry.length))
        guard !overflow, end <= header.tileDataLength else {
            throw PMTilesError(.outOfBounds(.tile, offset: entry.offset, length: UInt64(entry.length), limit: header.tileDataLength),
                               at: header.tileDataOffset &+ entry.offset)
        }
        return try source.read(at: header.tileDataOffset + entry.offset, length: Int(entry.length))
    }

    private func readLeaf(_ entry: PMTilesEntry) throws(PMTilesError) -> [PMTilesEntry] {
        let (end, overflow) = entry.offset.addingReportingOverflow(UInt64(entry.length))
        guard !overflow, end <= header.leafDirectoriesLength else {
            throw PMTilesError(.outOfBounds(.leafDirectory, offset: entry.offset, length: UInt64(entry.length),
                                            limit: header.leafDirectoriesLength), at: header.leafDirectoriesOffset &+ entry.offset)
        }
        return try PMTilesArchive.readDirectory(source, header, section: .leafDirectory,
                                                offset: header.leafDirectoriesOffset + entry.offset, length: UInt64(entry.length))
    }

    /// A leaf directory, from the cache when it was read recently.
    private func leaf(_ entry: PMTilesEntry) throws(PMTilesError) -> [PMTilesEntry] {
        lock.lock()
        clock &+= 1
        if let cached = leafCache[entry.offset] {
            leafCache[entry.offset] = (cached.entries, clock)
            lock.unlock()
            return cached.entries
        }
        lock.unlock()
        // Read outside the lock so one slow read does not stall other threads' lookups.
        let entries = try readLeaf(entry)
        lock.lock()
        defer { lock.unlock() }
        if leafCache[entry.offset] == nil, entries.count <= leafCacheLimit {
            while leafCacheEntryCount + entries.count > leafCacheLimit || leafCache.count >= PMTilesArchive.maximumCachedLeaves,
                  let oldest = leafCache.min(by: { $0.value.stamp < $1.value.stamp }) {
                leafCacheEntryCount -= oldest.value.entries.count
                leafCache.removeValue(forKey: oldest.key)
            }
            leafCache[entry.offset] = (entries, clock)
            leafCacheEntryCount += entries.count
        }
        return entries
    }
}
