import CLZ4
import CZlib
import CZstd
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The format's hard limits (fileformat.proto): readers must refuse anything larger, which also
/// bounds every allocation the reader makes from sizes it finds in the file.
enum OSMPBFLimits {
    static let maxBlobHeaderSize = 64 * 1024
    static let maxBlobSize = 32 * 1024 * 1024
    static let maxRawSize = 32 * 1024 * 1024
}

/// A read-only file read with `pread`, so several passes (and no shared file position) can read
/// it without loading it whole.
final class OSMPBFFile: @unchecked Sendable {
    let path: String
    let descriptor: Int32
    let size: Int

    init(path: String) throws(OSMPBFError) {
        self.path = path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw OSMPBFError(.io("cannot open \(path): \(String(cString: strerror(errno)))"), blobOffset: 0, blobIndex: 0)
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let message = String(cString: strerror(errno))
            close(fd)
            throw OSMPBFError(.io("cannot stat \(path): \(message)"), blobOffset: 0, blobIndex: 0)
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw OSMPBFError(.io("\(path) is not a regular file"), blobOffset: 0, blobIndex: 0)
        }
        descriptor = fd
        size = Int(info.st_size)
    }

    deinit { close(descriptor) }

    /// Reads up to `count` bytes at `offset`; fewer only at the end of the file.
    func read(count: Int, at offset: Int, blobIndex: Int, blobOffset: Int) throws(OSMPBFError) -> [UInt8] {
        let available = max(0, min(count, size - offset))
        var failure: Int32 = 0
        let buffer = [UInt8](unsafeUninitializedCapacity: available) { out, initialized in
            var done = 0
            while done < available {
                let n = pread(descriptor, out.baseAddress! + done, available - done, off_t(offset + done))
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    break
                }
                if n == 0 { break }  // the file shrank under us: report what we got
                done += n
            }
            initialized = done
        }
        if failure != 0 {
            throw OSMPBFError(.io("cannot read \(path): \(String(cString: strerror(failure)))"),
                              blobOffset: blobOffset, blobIndex: blobIndex)
        }
        return buffer
    }
}

/// Where one blob lies in the file, from its frame's length prefix and BlobHeader alone: walking
/// these seeks past the blobs without reading them.
struct OSMPBFFrameHeader: Sendable {
    /// The BlobHeader's `type` ("OSMHeader", "OSMData", or something to skip).
    var type: String
    /// The offset of the frame's 4-byte length prefix.
    var offset: Int
    var index: Int
    /// Where the serialized Blob message starts, and its length.
    var blobStart: Int
    var blobSize: Int

    /// The offset of the next frame.
    var nextOffset: Int { blobStart + blobSize }

    /// Reads the frame header at `offset`; nil exactly at the end of the file. A blob that runs
    /// past the end of the file is refused here, before anything reads it.
    static func read(from file: OSMPBFFile, at offset: Int, index: Int) throws(OSMPBFError) -> OSMPBFFrameHeader? {
        func fail(_ reason: OSMPBFError.Reason) -> OSMPBFError {
            OSMPBFError(reason, blobOffset: offset, blobIndex: index)
        }
        if offset >= file.size {
            if offset == 0 { throw fail(.emptyFile) }
            return nil
        }
        let prefix = try file.read(count: 4, at: offset, blobIndex: index, blobOffset: offset)
        guard prefix.count == 4 else {
            throw fail(.truncated(part: "blob header length", expected: 4, available: prefix.count))
        }
        let headerLength = Int(prefix[0]) << 24 | Int(prefix[1]) << 16 | Int(prefix[2]) << 8 | Int(prefix[3])
        guard headerLength <= OSMPBFLimits.maxBlobHeaderSize else {
            if index == 0 { throw fail(.notPBF("the first 4 bytes give a blob header length of \(headerLength), over the 64 KiB limit")) }
            throw fail(.blobHeaderTooLarge(headerLength))
        }
        let headerBytes = try file.read(count: headerLength, at: offset + 4, blobIndex: index, blobOffset: offset)
        guard headerBytes.count == headerLength else {
            throw fail(.truncated(part: "blob header", expected: headerLength, available: headerBytes.count))
        }
        let header: (type: String, dataSize: Int64)
        do {
            header = try parseBlobHeader(headerBytes)
        } catch {
            if index == 0 { throw fail(.notPBF("the first blob header does not decode (\(error.reason))")) }
            throw fail(error.reason)
        }
        guard header.dataSize >= 0, header.dataSize <= Int64(OSMPBFLimits.maxBlobSize) else {
            if index == 0 { throw fail(.notPBF("the first blob header gives a blob size of \(header.dataSize)")) }
            throw fail(.blobTooLarge(Int(clamping: header.dataSize)))
        }
        let dataSize = Int(header.dataSize)
        let blobStart = offset + 4 + headerLength
        let available = max(0, file.size - blobStart)
        guard available >= dataSize else {
            throw fail(.truncated(part: "blob", expected: dataSize, available: available))
        }
        return OSMPBFFrameHeader(type: header.type, offset: offset, index: index, blobStart: blobStart, blobSize: dataSize)
    }

    /// BlobHeader { required string type = 1; optional bytes indexdata = 2; required int32 datasize = 3 }.
    private static func parseBlobHeader(_ bytes: [UInt8]) throws(OSMPBFBlockFault) -> (type: String, dataSize: Int64) {
        let parsed: Result<(String?, Int64?), ProtobufError> = bytes.withUnsafeBytes { raw in
            Result { () throws(ProtobufError) -> (String?, Int64?) in
                var reader = ProtobufReader(raw)
                var type: String?
                var size: Int64?
                while let (field, wireType) = try reader.nextField() {
                    switch (field, wireType) {
                    case (1, .lengthDelimited): type = try reader.readString()
                    case (3, .varint): size = try reader.readInt64()
                    default: try reader.skip(wireType)
                    }
                }
                return (type, size)
            }
        }
        switch parsed {
        case .failure(let error): throw OSMPBFBlockFault(.malformedBlobHeader(error.description), at: error.offset)
        case .success(let (type, size)):
            guard let type else { throw OSMPBFBlockFault(.malformedBlobHeader("no type")) }
            guard let size else { throw OSMPBFBlockFault(.malformedBlobHeader("no datasize")) }
            // int32 on the wire: a negative value arrives sign-extended to 64 bits.
            return (type, size)
        }
    }
}

/// One blob as framed in the file, still compressed.
struct OSMPBFFrame: Sendable {
    /// The BlobHeader's `type` ("OSMHeader", "OSMData", or something to skip).
    var type: String
    /// The serialized Blob message.
    var blob: [UInt8]
    /// The offset of the frame's 4-byte length prefix.
    var offset: Int
    var index: Int
    /// The offset of the next frame.
    var nextOffset: Int

    /// Reads the frame at `offset`; nil exactly at the end of the file.
    static func read(from file: OSMPBFFile, at offset: Int, index: Int) throws(OSMPBFError) -> OSMPBFFrame? {
        guard let header = try OSMPBFFrameHeader.read(from: file, at: offset, index: index) else { return nil }
        return try read(from: file, header)
    }

    /// Reads the blob that `header` locates.
    static func read(from file: OSMPBFFile, _ header: OSMPBFFrameHeader) throws(OSMPBFError) -> OSMPBFFrame {
        let blob = try file.read(count: header.blobSize, at: header.blobStart, blobIndex: header.index, blobOffset: header.offset)
        guard blob.count == header.blobSize else {   // the file shrank since the header was read
            throw OSMPBFError(.truncated(part: "blob", expected: header.blobSize, available: blob.count),
                              blobOffset: header.offset, blobIndex: header.index)
        }
        return OSMPBFFrame(type: header.type, blob: blob, offset: header.offset, index: header.index, nextOffset: header.nextOffset)
    }

    /// The blob's uncompressed payload as a new array (the header block, tests); the scan loop
    /// uses an ``OSMPBFDecompressor`` instead, which reuses its buffer.
    func decompressed() throws(OSMPBFError) -> [UInt8] {
        let decompressor = OSMPBFDecompressor()
        return try decompressor.withPayload(of: self) { bytes throws(OSMPBFError) -> [UInt8] in Array(bytes) }
    }
}

/// Decompresses blobs into one buffer that it keeps, with one zlib stream that it resets: a scan
/// thread owns one, so decoding a file allocates no per-blob output buffers (fresh large buffers
/// cost page faults and zero-filling that rival inflating itself).
final class OSMPBFDecompressor {
    private var stream = z_stream()
    private var streamReady = false
    private var buffer = UnsafeMutableRawBufferPointer(start: nil, count: 0)

    init() {}

    deinit {
        if streamReady { inflateEnd(&stream) }
        buffer.deallocate()
    }

    private func reserve(_ count: Int) -> UnsafeMutableRawBufferPointer {
        if buffer.count < count {
            buffer.deallocate()
            // Round up so blobs of slowly growing size do not reallocate each time.
            buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, min(buffer.count * 2, OSMPBFLimits.maxRawSize + 1), 64 * 1024),
                                                            alignment: 16)
        }
        return buffer
    }

    /// Decodes the Blob message of `frame` and calls `body` with its uncompressed payload, which
    /// is valid only during the call.
    ///
    /// Blob { optional bytes raw = 1; optional int32 raw_size = 2; zlib_data = 3; lzma_data = 4;
    /// OBSOLETE_bzip2_data = 5; lz4_data = 6; zstd_data = 7 }.
    func withPayload<R>(of frame: OSMPBFFrame, _ body: (UnsafeRawBufferPointer) throws(OSMPBFError) -> R) throws(OSMPBFError) -> R {
        let offset = frame.offset, index = frame.index
        func fail(_ reason: OSMPBFError.Reason) -> OSMPBFError {
            OSMPBFError(reason, blobOffset: offset, blobIndex: index)
        }
        let result: Result<R, OSMPBFError> = frame.blob.withUnsafeBytes { raw in
            Result { () throws(OSMPBFError) -> R in
                var reader = ProtobufReader(raw)
                var rawSize: Int64?
                var payload: (kind: Int, range: Range<Int>)?
                do throws(ProtobufError) {
                    while let (field, wireType) = try reader.nextField() {
                        switch (field, wireType) {
                        case (2, .varint): rawSize = try reader.readInt64()
                        case (1, .lengthDelimited), (3, .lengthDelimited), (4, .lengthDelimited),
                             (5, .lengthDelimited), (6, .lengthDelimited), (7, .lengthDelimited):
                            payload = (field, try reader.readLengthDelimitedRange())
                        default: try reader.skip(wireType)
                        }
                    }
                } catch {
                    throw fail(.malformedBlob(error.description))
                }
                guard let payload else { throw fail(.malformedBlob("no data field")) }
                let input = UnsafeRawBufferPointer(rebasing: raw[payload.range])
                switch payload.kind {
                case 1:
                    if let rawSize, rawSize != Int64(input.count) {
                        throw fail(.rawSizeMismatch(expected: Int(clamping: rawSize), actual: input.count))
                    }
                    return try body(input)
                case 4: throw fail(.unsupportedCompression("lzma"))
                case 5: throw fail(.unsupportedCompression("bzip2"))
                default: break
                }
                guard let rawSize else { throw fail(.invalidRawSize(nil)) }
                guard rawSize >= 0, rawSize <= Int64(OSMPBFLimits.maxRawSize) else {
                    throw fail(.invalidRawSize(Int(clamping: rawSize)))
                }
                let size = Int(rawSize)
                // One byte of slack shows an over-long stream as a size mismatch.
                let out = reserve(size + 1)
                let produced: Int
                switch payload.kind {
                case 3: produced = try inflate(input, into: out, capacity: size + 1, fail: fail)
                case 6:
                    guard let source = input.baseAddress, input.count <= Int(Int32.max) else {
                        throw fail(.decompressionFailed("lz4: no input"))
                    }
                    let n = LZ4_decompress_safe(source.assumingMemoryBound(to: CChar.self), out.baseAddress!.assumingMemoryBound(to: CChar.self),
                                                Int32(input.count), Int32(size + 1))
                    guard n >= 0 else { throw fail(.decompressionFailed("lz4: corrupt block (\(n))")) }
                    produced = Int(n)
                default:
                    guard let source = input.baseAddress else { throw fail(.decompressionFailed("zstd: no input")) }
                    let n = ZSTD_decompress(out.baseAddress, size + 1, source, input.count)
                    if ZSTD_isError(n) != 0 {
                        throw fail(.decompressionFailed("zstd: \(String(cString: ZSTD_getErrorName(n)))"))
                    }
                    produced = n
                }
                guard produced == size else { throw fail(.rawSizeMismatch(expected: size, actual: produced)) }
                return try body(UnsafeRawBufferPointer(rebasing: out[0..<size]))
            }
        }
        return try result.get()
    }

    /// Inflates a zlib stream; returns the bytes produced (capacity means "at least that many").
    private func inflate(_ input: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer, capacity: Int,
                         fail: (OSMPBFError.Reason) -> OSMPBFError) throws(OSMPBFError) -> Int {
        if streamReady {
            guard inflateReset(&stream) == Z_OK else { throw fail(.decompressionFailed("zlib: could not reset")) }
        } else {
            guard inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
                throw fail(.decompressionFailed("zlib: could not start inflating"))
            }
            streamReady = true
        }
        guard let source = input.baseAddress, input.count <= Int(UInt32.max) else {
            throw fail(.decompressionFailed("zlib: no input"))
        }
        stream.next_in = UnsafeMutablePointer(mutating: source.assumingMemoryBound(to: Bytef.self))
        stream.avail_in = uInt(input.count)
        stream.next_out = out.baseAddress!.assumingMemoryBound(to: Bytef.self)
        stream.avail_out = uInt(capacity)
        let status = CZlib.inflate(&stream, Z_FINISH)
        let produced = capacity - Int(stream.avail_out)
        switch status {
        case Z_STREAM_END: return produced
        case Z_BUF_ERROR, Z_OK:
            if stream.avail_out == 0 { return produced }   // more output than raw_size allows
            throw fail(.decompressionFailed("zlib: compressed data is truncated"))
        default:
            let detail = stream.msg.map { String(cString: $0) } ?? "error \(status)"
            throw fail(.decompressionFailed("zlib: \(detail)"))
        }
    }
}
