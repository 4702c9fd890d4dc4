import CBZip2
import CLibDeflate
import CLZ4
import CZlib
import CZstd
import Foundation

/// Errors from compressing or decompressing data.
public struct CompressionError: Error, Hashable, CustomStringConvertible {
    public var message: String
    /// Whether the data is not (known to be) corrupt but decompresses to more than the caller's limit:
    /// a decompression bomb, or a file larger than the caller planned for, which callers report differently.
    public var exceedsLimit: Bool
    public init(_ message: String, exceedsLimit: Bool = false) {
        self.message = message
        self.exceedsLimit = exceedsLimit
    }
    public var description: String { message }
}

/// The compression formats map data uses: zlib (OSM PBF blobs), gzip (vector tiles, PMTiles
/// directories, `.osc.gz` change files), raw deflate, LZ4 and Zstandard blocks (OSM PBF's optional
/// blob encodings), bzip2 (`.osc.bz2` change files). Backed by Debian's zlib, liblz4, libzstd and libbz2.
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
                guard output.count < limit else {
                    throw CompressionError("inflated data exceeds the limit of \(limit) bytes", exceedsLimit: true)
                }
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

// MARK: - Whole files, streamed

extension Compression {
    /// The size of the pieces the streaming decompressors produce at a time: the output grows by
    /// these, so a file is never decompressed beyond its limit by more than one piece.
    static let streamChunk = 1 << 16

    /// Whether data starts with bzip2's magic bytes: "BZh" and a block size digit 1–9.
    public static func isBzip2(_ data: UnsafeRawBufferPointer) -> Bool {
        data.count >= 4 && data[0] == 0x42 && data[1] == 0x5A && data[2] == 0x68 && data[3] >= 0x31 && data[3] <= 0x39
    }

    /// Whether `Data` or `[UInt8]` starts with bzip2's magic bytes.
    public static func isBzip2<D: ContiguousBytes>(_ data: D) -> Bool {
        data.withUnsafeBytes { isBzip2($0) }
    }

    /// Decompresses a whole `.gz` file, every member of it (`cat a.gz b.gz` and pigz write several; a
    /// single `inflate` would stop silently after the first), in pieces: the output never exceeds
    /// `limit`, so a decompression bomb fails with an error (``CompressionError/exceedsLimit``) after at
    /// most `limit` bytes instead of exhausting memory. Zero bytes after the last member (tape padding)
    /// are ignored; other trailing data is an error.
    public static func gunzipFile<D: ContiguousBytes>(_ data: D, limit: Int) throws(CompressionError) -> [UInt8] {
        let result: Result<[UInt8], CompressionError> = data.withUnsafeBytes { raw in
            Result { () throws(CompressionError) -> [UInt8] in try gunzipFile(raw, limit: limit) }
        }
        return try result.get()
    }

    /// Decompresses a whole `.bz2` file, every stream of it (pbzip2 and lbzip2 write several), in pieces,
    /// never beyond `limit` bytes of output, as `gunzipFile(_:limit:)` does for gzip.
    public static func bunzip2File<D: ContiguousBytes>(_ data: D, limit: Int) throws(CompressionError) -> [UInt8] {
        let result: Result<[UInt8], CompressionError> = data.withUnsafeBytes { raw in
            Result { () throws(CompressionError) -> [UInt8] in try bunzip2File(raw, limit: limit) }
        }
        return try result.get()
    }

    static func gunzipFile(_ input: UnsafeRawBufferPointer, limit: Int) throws(CompressionError) -> [UInt8] {
        guard let base = input.baseAddress, input.count > 0 else { throw CompressionError("gzip: no data") }
        var stream = z_stream()
        guard inflateInit2_(&stream, Container.gzip.windowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw CompressionError("zlib: could not start inflating")
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: streamChunk)
        // zlib counts input in 32 bits: feed larger files a slice at a time.
        var fed = 0
        while true {
            if stream.avail_in == 0, fed < input.count {
                let n = min(input.count - fed, Int(UInt32.max))
                stream.next_in = UnsafeMutablePointer(mutating: (base + fed).assumingMemoryBound(to: Bytef.self))
                stream.avail_in = uInt(n)
                fed += n
            }
            let availableBefore = stream.avail_in
            let (status, produced): (Int32, Int) = chunk.withUnsafeMutableBytes { out in
                stream.next_out = out.baseAddress!.assumingMemoryBound(to: Bytef.self)
                stream.avail_out = uInt(out.count)
                let status = CZlib.inflate(&stream, Z_NO_FLUSH)
                return (status, out.count - Int(stream.avail_out))
            }
            try append(chunk, produced, to: &output, limit: limit)
            let consumed = fed - Int(stream.avail_in)
            switch status {
            case Z_STREAM_END:
                let rest = UnsafeRawBufferPointer(rebasing: input[consumed...])
                if rest.isEmpty || rest.allSatisfy({ $0 == 0 }) { return output }
                guard isGzip(rest) else {
                    throw CompressionError("gzip: \(rest.count) bytes of trailing data after the compressed data")
                }
                inflateReset(&stream)
            case Z_OK:
                continue
            case Z_BUF_ERROR where stream.avail_in == 0 && fed == input.count:
                throw CompressionError("gzip: the compressed data is truncated")
            case Z_BUF_ERROR where produced > 0 || stream.avail_in != availableBefore:
                continue
            default:
                let detail = stream.msg.map { String(cString: $0) } ?? "error \(status)"
                throw CompressionError("gzip: \(detail) (after \(consumed) compressed bytes)")
            }
        }
    }

    static func bunzip2File(_ input: UnsafeRawBufferPointer, limit: Int) throws(CompressionError) -> [UInt8] {
        guard let base = input.baseAddress, input.count > 0 else { throw CompressionError("bzip2: no data") }
        var stream = bz_stream()
        guard BZ2_bzDecompressInit(&stream, 0, 0) == BZ_OK else { throw CompressionError("bzip2: could not start decompressing") }
        var open = true
        defer { if open { BZ2_bzDecompressEnd(&stream) } }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: streamChunk)
        var fed = 0
        while true {
            if stream.avail_in == 0, fed < input.count {
                let n = min(input.count - fed, Int(UInt32.max))
                stream.next_in = UnsafeMutablePointer(mutating: (base + fed).assumingMemoryBound(to: CChar.self))
                stream.avail_in = UInt32(n)
                fed += n
            }
            let (status, produced): (Int32, Int) = chunk.withUnsafeMutableBytes { out in
                stream.next_out = out.baseAddress!.assumingMemoryBound(to: CChar.self)
                stream.avail_out = UInt32(out.count)
                let status = BZ2_bzDecompress(&stream)
                return (status, out.count - Int(stream.avail_out))
            }
            try append(chunk, produced, to: &output, limit: limit)
            let consumed = fed - Int(stream.avail_in)
            switch status {
            case BZ_STREAM_END:
                let rest = UnsafeRawBufferPointer(rebasing: input[consumed...])
                if rest.isEmpty || rest.allSatisfy({ $0 == 0 }) { return output }
                guard isBzip2(rest) else {
                    throw CompressionError("bzip2: \(rest.count) bytes of trailing data after the compressed data")
                }
                // A new stream for the next one, resumed where the last one stopped reading.
                let (nextIn, availableIn) = (stream.next_in, stream.avail_in)
                BZ2_bzDecompressEnd(&stream)
                stream = bz_stream()
                guard BZ2_bzDecompressInit(&stream, 0, 0) == BZ_OK else {
                    open = false
                    throw CompressionError("bzip2: could not start decompressing")
                }
                stream.next_in = nextIn
                stream.avail_in = availableIn
            case BZ_OK:
                // All input taken and room left in the output, yet no end of stream: nothing more will come.
                if stream.avail_in == 0, fed == input.count, produced < chunk.count {
                    throw CompressionError("bzip2: the compressed data is truncated")
                }
            case BZ_DATA_ERROR_MAGIC:
                throw CompressionError("bzip2: not bzip2 data (after \(consumed) compressed bytes)")
            case BZ_DATA_ERROR:
                throw CompressionError("bzip2: corrupt data (after \(consumed) compressed bytes)")
            case BZ_MEM_ERROR:
                throw CompressionError("bzip2: out of memory")
            default:
                throw CompressionError("bzip2: error \(status) (after \(consumed) compressed bytes)")
            }
        }
    }

    private static func append(_ chunk: [UInt8], _ count: Int, to output: inout [UInt8], limit: Int) throws(CompressionError) {
        guard count > 0 else { return }
        guard count <= limit - output.count else {
            throw CompressionError("the data decompresses to more than the limit of \(limit) bytes", exceedsLimit: true)
        }
        output.append(contentsOf: chunk[0..<count])
    }
}
