/// Why an OSM PBF file could not be read, and where.
///
/// Every error names the blob it happened in by the file offset of that blob's 4-byte length
/// prefix (`blobOffset`) and its position in the file (`blobIndex`, 0 for the header blob), so a
/// user can cut the file there with `dd`/`head -c` and inspect it. Faults inside a decompressed
/// block also carry `dataOffset`, the byte offset within the block's decompressed data.
public struct OSMPBFError: Error, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Hashable, Sendable {
        /// The file has no bytes at all.
        case emptyFile
        /// The file does not start with an OSM PBF header blob (a text or XML file, for example).
        case notPBF(String)
        /// The file ends inside `part` ("blob header length", "blob header", "blob"): `expected`
        /// bytes were needed, `available` were left.
        case truncated(part: String, expected: Int, available: Int)
        /// A BlobHeader longer than the format's limit of 64 KiB.
        case blobHeaderTooLarge(Int)
        /// A Blob longer than the format's limit of 32 MiB (or a negative `datasize`).
        case blobTooLarge(Int)
        /// A BlobHeader that does not decode (missing `type`/`datasize`, bad protobuf).
        case malformedBlobHeader(String)
        /// A Blob message that does not decode or carries no data.
        case malformedBlob(String)
        /// The first blob is a valid blob but not of type `OSMHeader`.
        case missingHeaderBlock(foundType: String)
        /// A blob compressed with a method this reader lacks (`lzma`, the obsolete `bzip2`).
        case unsupportedCompression(String)
        /// A compressed blob without `raw_size`, or one above the 32 MiB limit (checked before
        /// anything is allocated).
        case invalidRawSize(Int?)
        /// The blob decompressed to a different size than its `raw_size` says. Decompression
        /// stops one byte past `raw_size`, so `actual == expected + 1` means "longer than that".
        case rawSizeMismatch(expected: Int, actual: Int)
        /// zlib, LZ4 or Zstandard rejected the compressed data.
        case decompressionFailed(String)
        /// The header lists a required feature this reader does not implement.
        case unsupportedFeature(String)
        /// A block's protobuf structure is broken: a truncated value, a wrong wire type, a
        /// missing required field.
        case malformedBlock(String)
        /// A tag key/value or role refers past the end of the block's string table.
        case stringIndexOutOfRange(index: UInt64, count: Int)
        /// An element's `keys` and `vals` arrays differ in length.
        case keysValuesMismatch(keys: Int, values: Int)
        /// Dense nodes' parallel arrays (ids, lats, lons, keys_vals) differ in length.
        case denseArraysMismatch(String)
        /// A relation's roles, member ids and member types differ in length.
        case memberArraysMismatch(roles: Int, ids: Int, types: Int)
        /// A relation member type other than node (0), way (1) or relation (2).
        case invalidMemberType(UInt64)
        /// A way's `refs` and its optional `lat`/`lon` arrays differ in length.
        case wayLocationsMismatch(refs: Int, locations: Int)
        /// A coordinate beyond ±90° latitude or ±180° longitude (in nanodegrees, after applying the
        /// block's granularity and offsets). Such a file is corrupt: the reader refuses it rather
        /// than clamp or drop the element, so an import never silently loses or moves data.
        case coordinateOutOfRange(latitude: Int64, longitude: Int64)
        /// The granularity is not positive.
        case invalidGranularity(Int64)
        /// The operating system failed to open or read the file.
        case io(String)
    }

    public var reason: Reason
    /// The file offset of the blob's 4-byte length prefix.
    public var blobOffset: Int
    /// The blob's position in the file (0 is the header blob).
    public var blobIndex: Int
    /// The offset inside the blob's decompressed data, for faults found while decoding a block.
    public var dataOffset: Int?

    public init(_ reason: Reason, blobOffset: Int, blobIndex: Int, dataOffset: Int? = nil) {
        self.reason = reason
        self.blobOffset = blobOffset
        self.blobIndex = blobIndex
        self.dataOffset = dataOffset
    }

    public var description: String {
        let place = "blob \(blobIndex) at byte \(blobOffset)" + (dataOffset.map { ", data byte \($0)" } ?? "")
        let what: String
        switch reason {
        case .emptyFile: return "OSM PBF: the file is empty"
        case .notPBF(let detail): return "not an OSM PBF file: \(detail)"
        case .truncated(let part, let expected, let available):
            what = "file ends inside the \(part): \(expected) bytes needed, \(available) left"
        case .blobHeaderTooLarge(let n): what = "blob header of \(n) bytes exceeds the 64 KiB limit"
        case .blobTooLarge(let n): what = "blob of \(n) bytes exceeds the 32 MiB limit"
        case .malformedBlobHeader(let d): what = "malformed blob header: \(d)"
        case .malformedBlob(let d): what = "malformed blob: \(d)"
        case .missingHeaderBlock(let t): what = "the first blob has type \"\(t)\", expected \"OSMHeader\""
        case .unsupportedCompression(let c): what = "unsupported blob compression \(c)"
        case .invalidRawSize(let n):
            what = n.map { "raw_size \($0) is outside 0…32 MiB" } ?? "compressed blob without raw_size"
        case .rawSizeMismatch(let e, let a): what = "blob decompressed to \(a) bytes, raw_size says \(e)"
        case .decompressionFailed(let d): what = "decompression failed: \(d)"
        case .unsupportedFeature(let f): what = "required feature \"\(f)\" is not supported"
        case .malformedBlock(let d): what = "malformed block: \(d)"
        case .stringIndexOutOfRange(let i, let n): what = "string index \(i) outside a string table of \(n)"
        case .keysValuesMismatch(let k, let v): what = "\(k) tag keys but \(v) values"
        case .denseArraysMismatch(let d): what = "dense node arrays differ in length: \(d)"
        case .memberArraysMismatch(let r, let i, let t): what = "relation has \(r) roles, \(i) member ids, \(t) member types"
        case .invalidMemberType(let t): what = "relation member type \(t) is not 0, 1 or 2"
        case .wayLocationsMismatch(let r, let l): what = "way has \(r) node refs but \(l) locations"
        case .coordinateOutOfRange(let lat, let lon):
            what = "coordinate \(Double(lat) / 1e9), \(Double(lon) / 1e9) is outside ±90°/±180°"
        case .invalidGranularity(let g): what = "granularity \(g) is not positive"
        case .io(let d): return "OSM PBF: \(d)"
        }
        return "OSM PBF \(place): \(what)"
    }
}

/// A fault found while decoding a block, before the reader knows which blob it came from.
struct OSMPBFBlockFault: Error {
    var reason: OSMPBFError.Reason
    var dataOffset: Int?

    init(_ reason: OSMPBFError.Reason, at dataOffset: Int? = nil) {
        self.reason = reason
        self.dataOffset = dataOffset
    }

    init(_ error: ProtobufError) {
        reason = .malformedBlock(error.description)
        dataOffset = error.offset
    }

    func located(blobOffset: Int, blobIndex: Int) -> OSMPBFError {
        OSMPBFError(reason, blobOffset: blobOffset, blobIndex: blobIndex, dataOffset: dataOffset)
    }
}
