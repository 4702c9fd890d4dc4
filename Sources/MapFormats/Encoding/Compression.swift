import CLibDeflate
import CLZ4
import CZlib
import CZstd
import Foundation

/// Errors from compressing or decompressing data.
public struct CompressionError: Error, Hashable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The compression formats map data uses: zlib (OSM PBF blobs), gzip (vector tiles, PMTiles
/// directories), raw deflate, LZ4 and Zstandard blocks (OSM PBF's optional blob encodings).
/// Backed by Debian's zlib, liblz4 and libzstd.
public enum Compression {
    /// The wrapper around deflate data.
    public enum Container: Sendable {
        /// RFC 1950 (OSM PBF `zlib_data`).
        case zlib
        /// RFC 1952 (`.gz`, gzip-compressed tiles).
        case gzip
        /// RFC 1951 with no wrapper.
        case raw
        /// zlib or gzip, told apart by the header (decompression only).
        case automatic

        var windowBits: Int32 {
            switch self {
            case .zlib: 15
            case .gzip: 15 + 16
            case .raw: -15
            case .automatic: 15 + 32
            }
        }
    }

    /// Inflates deflate data. `expectedSize` (such as an OSM PBF blob's `raw_size`) sizes the
    /// output once; the output never exceeds `limit` bytes, so a decompression bomb fails with an
    /// error instead of exhausting memory.
    public static func inflate(_ input: UnsafeRawBufferPointer, container: Container = .automatic,
                               expectedSize: Int? = nil, limit: Int = 1 << 30) throws(CompressionError) -> [UInt8] {
        var stream = z_stream()
        guard inflateInit2_(&stream, container.windowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw CompressionError("zlib: could not start inflating")
        }
        defer { inflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: max(min(expectedSize ?? input.count * 4, limit), 64))
        var produced = 0
        guard let base = input.baseAddress ?? UnsafeRawPointer(bitPattern: 1) else { throw CompressionError("zlib: no input") }
        stream.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
        stream.avail_in = uInt(input.count)
        while true {
            if produced == output.count {
                guard output.count < limit else { throw CompressionError("inflated data exceeds the limit of \(limit) bytes") }
                // Grown by a whole zeroed array (copied in bulk): appending a `repeatElement`
                // goes element by element in debug builds, seconds for a large tile.
                output.append(contentsOf: [UInt8](repeating: 0, count: min(output.count, limit - output.count)))
            }
            let status: Int32 = output.withUnsafeMutableBytes { out in
                stream.next_out = out.baseAddress!.assumingMemoryBound(to: Bytef.self) + produced
                stream.avail_out = uInt(out.count - produced)
                let status = CZlib.inflate(&stream, Z_NO_FLUSH)
                produced = out.count - Int(stream.avail_out)
                return status
            }
            switch status {
            case Z_STREAM_END:
                output.removeSubrange(produced...)
                return output
            case Z_OK:
                continue
            case Z_BUF_ERROR where stream.avail_in == 0:
                throw CompressionError("compressed data is truncated")
            case Z_BUF_ERROR:
                continue
            default:
                let detail = stream.msg.map { String(cString: $0) } ?? "error \(status)"
                throw CompressionError("zlib: \(detail)")
            }
        }
    }

    /// Deflates data into the given container (gzip by default), at `level` 0–9.
    public static func deflate(_ input: UnsafeRawBufferPointer, container: Container = .gzip, level: Int32 = 6) throws(CompressionError) -> [UInt8] {
        guard container != .automatic else { throw CompressionError("deflate needs a definite container") }
        var stream = z_stream()
        guard deflateInit2_(&stream, level, Z_DEFLATED, container.windowBits, 8, Z_DEFAULT_STRATEGY,
                            ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw CompressionError("zlib: could not start deflating")
        }
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, uLong(input.count))) + 32
        var output = [UInt8](repeating: 0, count: bound)
        let base = input.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
        stream.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
        stream.avail_in = uInt(input.count)
        let status: Int32 = output.withUnsafeMutableBytes { out in
            stream.next_out = out.baseAddress!.assumingMemoryBound(to: Bytef.self)
            stream.avail_out = uInt(out.count)
            return CZlib.deflate(&stream, Z_FINISH)
        }
        guard status == Z_STREAM_END else { throw CompressionError("zlib: deflate failed (\(status))") }
        output.removeSubrange(Int(stream.total_out)...)
        return output
    }

    /// Deflates a whole buffer into a zlib stream with libdeflate, which at low levels runs
    /// several times faster than zlib and compresses as well (it sees the whole input at once
    /// rather than streaming it): for PNG images encoded per request.
    public static func wholeBufferZlibDeflate(_ input: UnsafeRawBufferPointer, level: Int32) throws(CompressionError) -> [UInt8] {
        guard let compressor = libdeflate_alloc_compressor(min(max(level, 0), 12)) else {
            throw CompressionError("libdeflate: could not allocate a compressor")
        }
        defer { libdeflate_free_compressor(compressor) }
        var output = [UInt8](repeating: 0, count: libdeflate_zlib_compress_bound(compressor, input.count))
        let written = output.withUnsafeMutableBytes { out in
            libdeflate_zlib_compress(compressor, input.baseAddress, input.count, out.baseAddress, out.count)
        }
        guard written > 0 || input.isEmpty else { throw CompressionError("libdeflate: output larger than its bound") }
        output.removeSubrange(written...)
        return output
    }

    /// Decompresses an LZ4 block whose decompressed size is known (OSM PBF `lz4_data` with `raw_size`).
    public static func lz4Decompress(_ input: UnsafeRawBufferPointer, decompressedSize: Int) throws(CompressionError) -> [UInt8] {
        guard decompressedSize >= 0, decompressedSize <= Int(Int32.max), input.count <= Int(Int32.max) else {
            throw CompressionError("lz4: size \(decompressedSize) out of range")
        }
        var output = [UInt8](repeating: 0, count: decompressedSize)
        guard let source = input.baseAddress else {
            if decompressedSize == 0 { return [] }
            throw CompressionError("lz4: no input")
        }
        let written = output.withUnsafeMutableBytes { out in
            LZ4_decompress_safe(source.assumingMemoryBound(to: CChar.self), out.baseAddress!.assumingMemoryBound(to: CChar.self),
                                Int32(input.count), Int32(decompressedSize))
        }
        guard written == Int32(decompressedSize) else { throw CompressionError("lz4: corrupt block (\(written))") }
        return output
    }

    /// Decompresses a Zstandard frame whose decompressed size is known (OSM PBF `zstd_data`).
    public static func zstdDecompress(_ input: UnsafeRawBufferPointer, decompressedSize: Int) throws(CompressionError) -> [UInt8] {
        guard decompressedSize >= 0 else { throw CompressionError("zstd: negative size") }
        var output = [UInt8](repeating: 0, count: max(decompressedSize, 1))
        guard let source = input.baseAddress else { throw CompressionError("zstd: no input") }
        let written = output.withUnsafeMutableBytes { out in
            ZSTD_decompress(out.baseAddress, decompressedSize, source, input.count)
        }
        if ZSTD_isError(written) != 0 {
            throw CompressionError("zstd: \(String(cString: ZSTD_getErrorName(written)))")
        }
        guard written == decompressedSize else { throw CompressionError("zstd: \(written) bytes, expected \(decompressedSize)") }
        output.removeSubrange(decompressedSize...)
        return output
    }

    /// Whether data starts with the gzip magic bytes 1f 8b.
    public static func isGzip(_ data: UnsafeRawBufferPointer) -> Bool {
        data.count >= 2 && data[0] == 0x1F && data[1] == 0x8B
    }
}

extension Compression {
    /// `inflate` for `Data` or `[UInt8]`.
    public static func inflate<D: ContiguousBytes>(_ data: D, container: Container = .automatic, expectedSize: Int? = nil,
                                                   limit: Int = 1 << 30) throws(CompressionError) -> [UInt8] {
        let result: Result<[UInt8], CompressionError> = data.withUnsafeBytes { raw in
            Result { () throws(CompressionError) -> [UInt8] in try inflate(raw, container: container, expectedSize: expectedSize, limit: limit) }
        }
        return try result.get()
    }

    /// Whether `Data` or `[UInt8]` starts with the gzip magic bytes.
    public static func isGzip<D: ContiguousBytes>(_ data: D) -> Bool {
        data.withUnsafeBytes { isGzip($0) }
    }

    /// `deflate` for `Data` or `[UInt8]`.
    public static func deflate<D: ContiguousBytes>(_ data: D, container: Container = .gzip, level: Int32 = 6) throws(CompressionError) -> [UInt8] {
        let result: Result<[UInt8], CompressionError> = data.withUnsafeBytes { raw in
            Result { () throws(CompressionError) -> [UInt8] in try deflate(raw, container: container, level: level) }
        }
        return try result.get()
    }

    /// The CRC-32 of ISO 3309 (gzip's and PNG's), by zlib.
    public static func crc32<D: ContiguousBytes>(_ data: D) -> UInt32 {
        data.withUnsafeBytes { raw in
            UInt32(CZlib.crc32(0, raw.baseAddress?.assumingMemoryBound(to: Bytef.self), uInt(raw.count)))
        }
    }
}
