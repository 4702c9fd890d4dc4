import CZstd
import Foundation

/// One directory entry: a run of tiles sharing one blob in the tile data section, or (run
/// length 0) a leaf directory in the leaf directories section.
public struct PMTilesEntry: Hashable, Sendable {
    /// The first tile id this entry covers.
    public var tileID: UInt64
    /// Byte offset within the tile data section (tiles) or the leaf directories section (leaves).
    public var offset: UInt64
    /// Bytes, as stored (compressed); always above 0.
    public var length: UInt32
    /// Tiles the entry covers; 0 marks a leaf directory.
    public var runLength: UInt32

    public init(tileID: UInt64, offset: UInt64, length: UInt32, runLength: UInt32) {
        self.tileID = tileID
        self.offset = offset
        self.length = length
        self.runLength = runLength
    }

    /// Whether the entry points at a leaf directory rather than tile data.
    @inlinable public var isLeaf: Bool { runLength == 0 }
}

/// Encoding and decoding of PMTiles directories (spec section 4).
public enum PMTilesDirectory {
    /// The varint-encoded form of `entries`, before internal compression.
    public static func encode(_ entries: [PMTilesEntry]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(1 + entries.count * 6)
        @inline(__always) func varint(_ value: UInt64) {
            var v = value
            while v >= 0x80 {
                out.append(UInt8(truncatingIfNeeded: v) | 0x80)
                v >>= 7
            }
            out.append(UInt8(v))
        }
        varint(UInt64(entries.count))
        var lastID: UInt64 = 0
        for entry in entries {
            varint(entry.tileID &- lastID)
            lastID = entry.tileID
        }
        for entry in entries { varint(UInt64(entry.runLength)) }
        for entry in entries { varint(UInt64(entry.length)) }
        var nextByte: UInt64 = 0
        for (index, entry) in entries.enumerated() {
            // Contiguous blobs store 0, so clustered archives' offsets cost one byte each.
            varint(index > 0 && entry.offset == nextByte ? 0 : entry.offset + 1)
            nextByte = entry.offset + UInt64(entry.length)
        }
        return out
    }

    /// Decodes a decompressed directory. Entries must be in ascending tile-id order with runs
    /// that do not overlap, so lookups can binary-search; `section` and `archiveOffset` only
    /// label errors.
    public static func decode(_ bytes: UnsafeRawBufferPointer, section: PMTilesError.Section = .rootDirectory,
                              archiveOffset: UInt64? = nil) throws(PMTilesError) -> [PMTilesEntry] {
        var position = 0
        func fail(_ detail: String, _ at: Int) -> PMTilesError {
            PMTilesError(.malformedDirectory(section, detail, byte: at), at: archiveOffset)
        }
        func varint() throws(PMTilesError) -> UInt64 {
            var result: UInt64 = 0
            var shift: UInt64 = 0
            let start = position
            while true {
                guard position < bytes.count else { throw fail("truncated varint", start) }
                let byte = bytes[position]
                position += 1
                if shift == 63 && byte > 1 { throw fail("varint overflows 64 bits", start) }
                result |= UInt64(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return result }
                shift += 7
                if shift > 63 { throw fail("varint longer than 10 bytes", start) }
            }
        }
        let count = try varint()
        // Every entry takes at least four bytes (one per varint), so the count is bounded by the
        // bytes present before anything is allocated.
        let available = UInt64(bytes.count - position)
        guard count <= available / 4 else {
            throw fail("\(count) entries cannot fit in \(available) bytes", 0)
        }
        let n = Int(count)
        var entries = [PMTilesEntry](repeating: PMTilesEntry(tileID: 0, offset: 0, length: 0, runLength: 0), count: n)
        var lastID: UInt64 = 0
        for i in 0..<n {
            let at = position
            let delta = try varint()
            if i > 0 && delta == 0 { throw fail("tile id \(lastID) repeats", at) }
            let (id, overflow) = lastID.addingReportingOverflow(delta)
            guard !overflow else { throw fail("tile id overflows 64 bits", at) }
            entries[i].tileID = id
            lastID = id
        }
        for i in 0..<n {
            let at = position
            let run = try varint()
            guard run <= UInt64(UInt32.max) else { throw fail("run length \(run) too large", at) }
            entries[i].runLength = UInt32(run)
            guard entries[i].tileID <= UInt64.max - run else { throw fail("run of tile \(entries[i].tileID) overflows 64 bits", at) }
            if i + 1 < n, run > entries[i + 1].tileID - entries[i].tileID {
                throw fail("run of tile \(entries[i].tileID) overlaps the next entry", at)
            }
        }
        for i in 0..<n {
            let at = position
            let length = try varint()
            guard length > 0, length <= UInt64(UInt32.max) else { throw fail("entry length \(length) out of range", at) }
            entries[i].length = UInt32(length)
        }
        for i in 0..<n {
            let at = position
            let value = try varint()
            if value == 0 && i > 0 {
                let (next, overflow) = entries[i - 1].offset.addingReportingOverflow(UInt64(entries[i - 1].length))
                guard !overflow else { throw fail("offset overflows 64 bits", at) }
                entries[i].offset = next
            } else if value == 0 {
                throw fail("first entry has offset code 0", at)
            } else {
                entries[i].offset = value - 1
            }
        }
        if position != bytes.count { throw fail("\(bytes.count - position) trailing bytes", position) }
        return entries
    }

    /// The entry covering `tileID`, or the leaf directory that may hold it; nil when the id is
    /// before every entry or after the run of the entry before it.
    @inlinable public static func find(_ tileID: UInt64, in entries: [PMTilesEntry]) -> PMTilesEntry? {
        var low = 0, high = entries.count - 1
        while low <= high {
            let mid = (low + high) >> 1
            let id = entries[mid].tileID
            if id < tileID { low = mid + 1 } else if id > tileID { high = mid - 1 } else { return entries[mid] }
        }
        // `high` is now the last entry starting before the id.
        guard high >= 0 else { return nil }
        let entry = entries[high]
        if entry.runLength == 0 || tileID - entry.tileID < UInt64(entry.runLength) { return entry }
        return nil
    }

    /// Decompresses a directory or the metadata with the archive's internal compression.
    static func decompress(_ bytes: [UInt8], _ compression: PMTilesCompression, section: PMTilesError.Section,
                           at offset: UInt64, limit: Int) throws(PMTilesError) -> [UInt8] {
        switch compression {
        case .none:
            return bytes
        case .gzip:
            do { return try Compression.inflate(bytes, container: .gzip, limit: limit) } catch {
                throw PMTilesError(.decompressionFailed(section, error.message), at: offset)
            }
        case .unknown:
            // Some writers leave the field unset; gzip has a signature, anything else is taken raw.
            if bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B {
                return try decompress(bytes, .gzip, section: section, at: offset, limit: limit)
            }
            return bytes
        case .zstd:
            return try zstd(bytes, section: section, at: offset, limit: limit)
        case .brotli, .other:
            throw PMTilesError(.unsupportedCompression(compression), at: offset)
        }
    }

    private static func zstd(_ bytes: [UInt8], section: PMTilesError.Section, at offset: UInt64,
                             limit: Int) throws(PMTilesError) -> [UInt8] {
        let size: UInt64 = bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return ZSTD_CONTENTSIZE_ERROR }
            return ZSTD_getFrameContentSize(base, raw.count)
        }
        guard size != ZSTD_CONTENTSIZE_ERROR, size != ZSTD_CONTENTSIZE_UNKNOWN else {
            throw PMTilesError(.decompressionFailed(section, "zstd frame without a content size"), at: offset)
        }
        guard size <= UInt64(limit) else {
            throw PMTilesError(.decompressionFailed(section, "zstd content of \(size) bytes exceeds \(limit)"), at: offset)
        }
        let result: Result<[UInt8], CompressionError> = bytes.withUnsafeBytes { raw in
            Result { () throws(CompressionError) -> [UInt8] in try Compression.zstdDecompress(raw, decompressedSize: Int(size)) }
        }
        switch result {
        case let .success(output): return output
        case let .failure(error): throw PMTilesError(.decompressionFailed(section, error.message), at: offset)
        }
    }

    /// Compresses a directory or the metadata with the archive's internal compression.
    static func compress(_ bytes: [UInt8], _ compression: PMTilesCompression) throws(PMTilesError) -> [UInt8] {
        switch compression {
        case .none:
            return bytes
        case .gzip:
            do { return try Compression.deflate(bytes, container: .gzip, level: 6) } catch {
                throw PMTilesError(.io("cannot compress: \(error.message)"))
            }
        default:
            throw PMTilesError(.unsupportedCompression(compression))
        }
    }
}

/// `withUnsafeBytes` keeping the body's typed error (the standard library's version rethrows
/// untyped).
@inline(__always)
func pmtilesWithBytes<T>(_ bytes: [UInt8], _ body: (UnsafeRawBufferPointer) throws(PMTilesError) -> T) throws(PMTilesError) -> T {
    let result: Result<T, PMTilesError> = bytes.withUnsafeBytes { raw in
        Result { () throws(PMTilesError) -> T in try body(raw) }
    }
    return try result.get()
}
