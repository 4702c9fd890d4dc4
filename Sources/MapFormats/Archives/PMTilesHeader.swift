import Foundation

// PMTiles v3 (https://github.com/protomaps/PMTiles/blob/main/spec/v3/spec.md): a single-file
// tile archive laid out as header, root directory, metadata, leaf directories and tile data.

/// An error reading or writing a PMTiles archive. `offset`, where known, is the byte offset in
/// the archive of the section or structure at fault.
public struct PMTilesError: Error, Hashable, CustomStringConvertible, Sendable {
    /// The parts of an archive, for naming where a problem lies.
    public enum Section: String, Hashable, Sendable {
        case header = "header"
        case rootDirectory = "root directory"
        case metadata = "metadata"
        case leafDirectories = "leaf directories"
        case leafDirectory = "leaf directory"
        case tileData = "tile data"
        case tile = "tile"
    }

    /// What went wrong.
    public enum Reason: Hashable, Sendable {
        /// The archive ends before the bytes a structure needs.
        case truncated(Section, needed: UInt64, available: UInt64)
        /// The first seven bytes are not `PMTiles`.
        case badMagic
        /// The version byte is not 3 (version 2 archives have a different layout).
        case unsupportedVersion(UInt8)
        /// A section or entry points outside the archive or its enclosing section.
        case outOfBounds(Section, offset: UInt64, length: UInt64, limit: UInt64)
        /// The archive uses a compression this library does not decode (brotli).
        case unsupportedCompression(PMTilesCompression)
        /// Compressed data is corrupt or decompresses past the size limit.
        case decompressionFailed(Section, String)
        /// A directory's varints are malformed; `byte` is the offset within the decompressed directory.
        case malformedDirectory(Section, String, byte: Int)
        /// A directory is larger than this reader accepts.
        case directoryTooLarge(Section, length: UInt64, limit: UInt64)
        /// Leaf directories nest deeper than the reader allows (also catches leaf loops).
        case leafDepthExceeded(limit: Int)
        /// The metadata is not a JSON object.
        case malformedMetadata(String)
        /// z/x/y outside 0 ≤ x, y < 2^z, 0 ≤ z ≤ 31.
        case invalidTileCoordinates(z: Int, x: Int, y: Int)
        /// A tile id past zoom 31.
        case invalidTileID(UInt64)
        /// The writer was given the same tile twice.
        case duplicateTile(z: Int, x: Int, y: Int)
        /// The writer was given a tile with no bytes (PMTiles lengths must be positive).
        case emptyTile(z: Int, x: Int, y: Int)
        /// The writer was given no tiles (a PMTiles directory must have at least one entry).
        case noTiles
        /// The writer could not fit the root directory into the first 16 384 bytes.
        case rootDirectoryTooLarge(Int)
        /// A file system call failed.
        case io(String)
    }

    /// What went wrong.
    public var reason: Reason
    /// Byte offset in the archive where the problem was found, when there is one.
    public var offset: UInt64?

    /// An error for `reason`, found at archive byte `offset` when known.
    public init(_ reason: Reason, at offset: UInt64? = nil) {
        self.reason = reason
        self.offset = offset
    }

    public var description: String {
        let text: String
        switch reason {
        case let .truncated(section, needed, available):
            text = "archive is truncated: the \(section.rawValue) needs \(needed) bytes, \(available) available"
        case .badMagic:
            text = "not a PMTiles archive (no \"PMTiles\" magic number)"
        case let .unsupportedVersion(version):
            text = "unsupported PMTiles version \(version) (only version 3 is supported)"
        case let .outOfBounds(section, offset, length, limit):
            text = "\(section.rawValue) at \(offset) (+\(length) bytes) lies outside its bounds (\(limit) bytes)"
        case let .unsupportedCompression(compression):
            text = "unsupported compression \(compression)"
        case let .decompressionFailed(section, detail):
            text = "cannot decompress the \(section.rawValue): \(detail)"
        case let .malformedDirectory(section, detail, byte):
            text = "malformed \(section.rawValue) at byte \(byte) of its decompressed data: \(detail)"
        case let .directoryTooLarge(section, length, limit):
            text = "\(section.rawValue) of \(length) bytes exceeds the limit of \(limit) bytes"
        case let .leafDepthExceeded(limit):
            text = "leaf directories nest deeper than \(limit) levels (or loop)"
        case let .malformedMetadata(detail):
            text = "metadata is not a JSON object: \(detail)"
        case let .invalidTileCoordinates(z, x, y):
            text = "invalid tile \(z)/\(x)/\(y)"
        case let .invalidTileID(id):
            text = "tile id \(id) is past zoom 31"
        case let .duplicateTile(z, x, y):
            text = "tile \(z)/\(x)/\(y) was added twice"
        case let .emptyTile(z, x, y):
            text = "tile \(z)/\(x)/\(y) has no bytes"
        case .noTiles:
            text = "an archive needs at least one tile"
        case let .rootDirectoryTooLarge(size):
            text = "root directory of \(size) bytes does not fit the first 16384 bytes"
        case let .io(detail):
            text = detail
        }
        if let offset { return "PMTiles: \(text) (at byte \(offset))" }
        return "PMTiles: \(text)"
    }
}

/// The compression of a PMTiles archive's directories and metadata, or of its tiles.
public enum PMTilesCompression: Hashable, Sendable, CustomStringConvertible {
    /// Unset (0); readers sniff gzip's signature.
    case unknown
    /// Stored as is.
    case none
    /// gzip (RFC 1952), the usual choice for directories and vector tiles.
    case gzip
    /// Brotli; recognised, not decoded here.
    case brotli
    /// Zstandard.
    case zstd
    /// A byte this library does not know.
    case other(UInt8)

    /// The compression a header byte names.
    public init(rawValue: UInt8) {
        switch rawValue {
        case 0: self = .unknown
        case 1: self = .none
        case 2: self = .gzip
        case 3: self = .brotli
        case 4: self = .zstd
        default: self = .other(rawValue)
        }
    }

    /// The header byte.
    public var rawValue: UInt8 {
        switch self {
        case .unknown: 0
        case .none: 1
        case .gzip: 2
        case .brotli: 3
        case .zstd: 4
        case let .other(value): value
        }
    }

    /// The HTTP `Content-Encoding` for data with this compression, if any.
    public var contentEncoding: String? {
        switch self {
        case .gzip: "gzip"
        case .brotli: "br"
        case .zstd: "zstd"
        default: nil
        }
    }

    public var description: String {
        switch self {
        case .unknown: "unknown"
        case .none: "none"
        case .gzip: "gzip"
        case .brotli: "brotli"
        case .zstd: "zstd"
        case let .other(value): "unknown (\(value))"
        }
    }
}

/// What a PMTiles archive's tiles are.
public enum PMTilesTileType: Hashable, Sendable, CustomStringConvertible {
    /// Unknown or other.
    case unknown
    /// Mapbox Vector Tile.
    case mvt
    case png, jpeg, webp, avif
    /// MapLibre Tile (MLT), a columnar vector tile format.
    case mlt
    /// A byte this library does not know.
    case other(UInt8)

    /// The tile type a header byte names.
    public init(rawValue: UInt8) {
        switch rawValue {
        case 0: self = .unknown
        case 1: self = .mvt
        case 2: self = .png
        case 3: self = .jpeg
        case 4: self = .webp
        case 5: self = .avif
        case 6: self = .mlt
        default: self = .other(rawValue)
        }
    }

    /// The header byte.
    public var rawValue: UInt8 {
        switch self {
        case .unknown: 0
        case .mvt: 1
        case .png: 2
        case .jpeg: 3
        case .webp: 4
        case .avif: 5
        case .mlt: 6
        case let .other(value): value
        }
    }

    /// The HTTP content type of one tile.
    public var mimeType: String {
        switch self {
        case .mvt: "application/vnd.mapbox-vector-tile"
        case .png: "image/png"
        case .jpeg: "image/jpeg"
        case .webp: "image/webp"
        case .avif: "image/avif"
        case .mlt: "application/vnd.maplibre-vector-tile"
        default: "application/octet-stream"
        }
    }

    public var description: String {
        switch self {
        case .unknown: "unknown"
        case .mvt: "mvt"
        case .png: "png"
        case .jpeg: "jpeg"
        case .webp: "webp"
        case .avif: "avif"
        case .mlt: "mlt"
        case let .other(value): "unknown (\(value))"
        }
    }
}

/// The fixed 127-byte header at the start of every PMTiles v3 archive.
public struct PMTilesHeader: Hashable, Sendable {
    /// The header's size in bytes.
    public static let size = 127
    /// Header plus root directory must fit in this many bytes, so a client can fetch both at once.
    public static let rootLimit = 16_384

    /// Where the root directory starts, from the archive's first byte.
    public var rootDirectoryOffset: UInt64 = 0
    /// The root directory's stored (compressed) size.
    public var rootDirectoryLength: UInt64 = 0
    /// Where the JSON metadata starts.
    public var metadataOffset: UInt64 = 0
    /// The metadata's stored (compressed) size.
    public var metadataLength: UInt64 = 0
    /// Where the leaf directories section starts; leaf entries' offsets count from here.
    public var leafDirectoriesOffset: UInt64 = 0
    /// The leaf directories section's size (0: no leaves).
    public var leafDirectoriesLength: UInt64 = 0
    /// Where the tile data section starts; tile entries' offsets count from here.
    public var tileDataOffset: UInt64 = 0
    /// The tile data section's size.
    public var tileDataLength: UInt64 = 0
    /// Tiles before run-length encoding (0: unknown).
    public var addressedTilesCount: UInt64 = 0
    /// Directory entries with a run length above 0 (0: unknown).
    public var tileEntriesCount: UInt64 = 0
    /// Distinct blobs in the tile data section (0: unknown).
    public var tileContentsCount: UInt64 = 0
    /// Whether tile data is ordered by tile id.
    public var clustered = false
    /// Compression of the directories and metadata.
    public var internalCompression: PMTilesCompression = .gzip
    /// Compression of every tile.
    public var tileCompression: PMTilesCompression = .unknown
    /// What the tiles are (MVT, PNG, …).
    public var tileType: PMTilesTileType = .unknown
    /// The shallowest zoom with tiles.
    public var minZoom: UInt8 = 0
    /// The deepest zoom with tiles.
    public var maxZoom: UInt8 = 0
    /// Bounds in units of 1e-7 degrees, as stored.
    public var minLongitudeE7: Int32 = 0
    public var minLatitudeE7: Int32 = 0
    public var maxLongitudeE7: Int32 = 0
    public var maxLatitudeE7: Int32 = 0
    /// The zoom a viewer may open at.
    public var centerZoom: UInt8 = 0
    /// The position a viewer may open at, in units of 1e-7 degrees.
    public var centerLongitudeE7: Int32 = 0
    public var centerLatitudeE7: Int32 = 0

    /// A header with every field zero (internal compression gzip).
    public init() {}

    /// Bounds in degrees: west, south, east, north.
    public var bounds: (minLongitude: Double, minLatitude: Double, maxLongitude: Double, maxLatitude: Double) {
        (Double(minLongitudeE7) / 1e7, Double(minLatitudeE7) / 1e7, Double(maxLongitudeE7) / 1e7, Double(maxLatitudeE7) / 1e7)
    }

    /// Centre in degrees.
    public var center: (longitude: Double, latitude: Double) {
        (Double(centerLongitudeE7) / 1e7, Double(centerLatitudeE7) / 1e7)
    }

    /// Degrees to the header's fixed-point form, clamped to Int32's range.
    public static func e7(_ degrees: Double) -> Int32 {
        guard degrees.isFinite else { return 0 }
        return Int32(max(min((degrees * 1e7).rounded(), Double(Int32.max)), Double(Int32.min)))
    }

    /// Decodes and validates the magic number and version of a header's bytes.
    public init(bytes: UnsafeRawBufferPointer) throws(PMTilesError) {
        guard bytes.count >= 8 else {
            throw PMTilesError(.truncated(.header, needed: UInt64(PMTilesHeader.size), available: UInt64(bytes.count)), at: 0)
        }
        let magic: [UInt8] = Array("PMTiles".utf8)
        for i in 0..<7 where bytes[i] != magic[i] { throw PMTilesError(.badMagic, at: 0) }
        guard bytes[7] == 3 else { throw PMTilesError(.unsupportedVersion(bytes[7]), at: 7) }
        guard bytes.count >= PMTilesHeader.size else {
            throw PMTilesError(.truncated(.header, needed: UInt64(PMTilesHeader.size), available: UInt64(bytes.count)), at: 0)
        }
        func u64(_ at: Int) -> UInt64 { UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self)) }
        func i32(_ at: Int) -> Int32 { Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: Int32.self)) }
        rootDirectoryOffset = u64(8)
        rootDirectoryLength = u64(16)
        metadataOffset = u64(24)
        metadataLength = u64(32)
        leafDirectoriesOffset = u64(40)
        leafDirectoriesLength = u64(48)
        tileDataOffset = u64(56)
        tileDataLength = u64(64)
        addressedTilesCount = u64(72)
        tileEntriesCount = u64(80)
        tileContentsCount = u64(88)
        clustered = bytes[96] == 1
        internalCompression = PMTilesCompression(rawValue: bytes[97])
        tileCompression = PMTilesCompression(rawValue: bytes[98])
        tileType = PMTilesTileType(rawValue: bytes[99])
        minZoom = bytes[100]
        maxZoom = bytes[101]
        minLongitudeE7 = i32(102)
        minLatitudeE7 = i32(106)
        maxLongitudeE7 = i32(110)
        maxLatitudeE7 = i32(114)
        centerZoom = bytes[118]
        centerLongitudeE7 = i32(119)
        centerLatitudeE7 = i32(123)
    }

    /// The header's 127 bytes.
    public func encoded() -> [UInt8] {
        var out: [UInt8] = Array("PMTiles".utf8)
        out.reserveCapacity(PMTilesHeader.size)
        out.append(3)
        func u64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
        func i32(_ v: Int32) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
        for v in [rootDirectoryOffset, rootDirectoryLength, metadataOffset, metadataLength, leafDirectoriesOffset,
                  leafDirectoriesLength, tileDataOffset, tileDataLength, addressedTilesCount, tileEntriesCount,
                  tileContentsCount] { u64(v) }
        out.append(contentsOf: [clustered ? 1 : 0, internalCompression.rawValue, tileCompression.rawValue,
                                tileType.rawValue, minZoom, maxZoom])
        i32(minLongitudeE7); i32(minLatitudeE7); i32(maxLongitudeE7); i32(maxLatitudeE7)
        out.append(centerZoom)
        i32(centerLongitudeE7); i32(centerLatitudeE7)
        return out
    }
}

/// PMTiles tile ids: positions along a Hilbert curve per zoom level, zoom levels laid end to end.
public enum PMTilesTileID {
    /// The deepest zoom whose ids fit in 64 bits.
    public static let maximumZoom = 31

    /// The first id of zoom `z`: the number of tiles in all zooms below, (4^z − 1) / 3.
    @inlinable public static func base(zoom z: Int) -> UInt64 {
        ((1 as UInt64) << (2 * UInt64(z)) &- 1) / 3
    }

    /// The id of tile z/x/y.
    @inlinable public static func id(z: Int, x: Int, y: Int) throws(PMTilesError) -> UInt64 {
        guard z >= 0, z <= maximumZoom, x >= 0, y >= 0, x < 1 << z, y < 1 << z else {
            throw PMTilesError(.invalidTileCoordinates(z: z, x: x, y: y))
        }
        return base(zoom: z) + hilbertIndex(zoom: z, x: UInt64(x), y: UInt64(y))
    }

    /// The z/x/y of a tile id.
    @inlinable public static func coordinates(of id: UInt64) throws(PMTilesError) -> (z: Int, x: Int, y: Int) {
        // base(32) is (2^64 − 1) / 3, so 3·id + 1 cannot overflow for ids below it, and zoom z's
        // ids are exactly those with 4^z ≤ 3·id + 1 < 4^(z+1).
        guard id < base(zoom: maximumZoom + 1) else { throw PMTilesError(.invalidTileID(id)) }
        let z = (63 - (3 &* id &+ 1).leadingZeroBitCount) / 2
        let position = id &- base(zoom: z)
        let (x, y) = hilbertPoint(zoom: z, index: position)
        return (z, Int(x), Int(y))
    }

    /// Distance along the Hilbert curve filling a 2^zoom × 2^zoom grid (the classic xy → d
    /// walk). Shifts and masks only: the quadrant bits of random tiles are unpredictable, so
    /// branches would mispredict, and overflow-checked multiplies cost more than shifts.
    @inlinable static func hilbertIndex(zoom: Int, x xIn: UInt64, y yIn: UInt64) -> UInt64 {
        var x = xIn, y = yIn, d: UInt64 = 0
        var level = UInt64(zoom)
        while level > 0 {
            level &-= 1
            let s: UInt64 = 1 &<< level
            let rx = (x &>> level) & 1
            let ry = (y &>> level) & 1
            d |= ((3 &* rx) ^ ry) &<< (2 &* level)
            // Rotate the quadrant so the sub-curve is in standard orientation. Only the bits
            // below `s` matter from here on, and for those s − 1 − v is v ^ (s − 1).
            x &= s &- 1
            y &= s &- 1
            let swapMask = ry &- 1                          // all ones when ry == 0
            let flip = (s &- 1) & swapMask & (0 &- rx)      // s − 1 when ry == 0 and rx == 1
            x ^= flip
            y ^= flip
            let t = (x ^ y) & swapMask
            x ^= t
            y ^= t
        }
        return d
    }

    /// The grid cell at distance `index` along the Hilbert curve filling a 2^zoom × 2^zoom grid.
    @inlinable static func hilbertPoint(zoom: Int, index: UInt64) -> (UInt64, UInt64) {
        var x: UInt64 = 0, y: UInt64 = 0, t = index
        var level: UInt64 = 0
        while level < UInt64(zoom) {
            let s: UInt64 = 1 &<< level
            let rx = 1 & (t &>> 1)
            let ry = 1 & (t ^ rx)
            // x, y < s here, so s − 1 − v is v ^ (s − 1); the same rotation as above.
            let swapMask = ry &- 1
            let flip = (s &- 1) & swapMask & (0 &- rx)
            x ^= flip
            y ^= flip
            let u = (x ^ y) & swapMask
            x ^= u
            y ^= u
            x |= rx &<< level
            y |= ry &<< level
            t &>>= 2
            level &+= 1
        }
        return (x, y)
    }
}
