import Foundation

/// An OSM PBF file's HeaderBlock: what the file covers, what a reader must understand, and where
/// its replication updates come from.
public struct OSMPBFHeader: Hashable, Sendable {
    /// The area the file claims to cover (HeaderBBox), in nanodegrees.
    public struct BoundingBox: Hashable, Sendable {
        public var left: Int64
        public var right: Int64
        public var top: Int64
        public var bottom: Int64

        public init(left: Int64, right: Int64, top: Int64, bottom: Int64) {
            self.left = left
            self.right = right
            self.top = top
            self.bottom = bottom
        }

        public var minLongitude: Double { Double(left) / 1e9 }
        public var maxLongitude: Double { Double(right) / 1e9 }
        public var maxLatitude: Double { Double(top) / 1e9 }
        public var minLatitude: Double { Double(bottom) / 1e9 }
    }

    /// The required features this reader implements; any other one makes it refuse the file.
    ///
    /// `HistoricalInformation` (history files with deleted versions) is not supported: the entity
    /// model has no visibility or version, so such a file would read as if every version existed.
    public static let supportedRequiredFeatures: Set<String> = ["OsmSchema-V0.6", "DenseNodes", "LocationsOnWays"]

    public var boundingBox: BoundingBox?
    public var requiredFeatures: [String] = []
    public var optionalFeatures: [String] = []
    public var writingProgram: String?
    public var source: String?
    /// Seconds since 1970 of the replication state the file reflects.
    public var replicationTimestamp: Int64?
    public var replicationSequenceNumber: Int64?
    public var replicationBaseURL: String?

    public init() {}

    /// Whether the writer promises entities sorted by type, then id (`Sort.Type_then_ID`).
    public var isSortedByTypeThenID: Bool { optionalFeatures.contains("Sort.Type_then_ID") }

    /// Whether ways carry their nodes' locations (`LocationsOnWays`).
    public var hasLocationsOnWays: Bool {
        requiredFeatures.contains("LocationsOnWays") || optionalFeatures.contains("LocationsOnWays")
    }

    /// Decodes a HeaderBlock.
    static func decode(_ bytes: UnsafeRawBufferPointer) throws(ProtobufError) -> OSMPBFHeader {
        var header = OSMPBFHeader()
        var reader = ProtobufReader(bytes)
        while let (field, wireType) = try reader.nextField() {
            switch (field, wireType) {
            case (1, .lengthDelimited):
                var box = try reader.readMessage()
                var result = BoundingBox(left: 0, right: 0, top: 0, bottom: 0)
                while let (f, w) = try box.nextField() {
                    switch (f, w) {
                    case (1, .varint): result.left = try box.readSInt64()
                    case (2, .varint): result.right = try box.readSInt64()
                    case (3, .varint): result.top = try box.readSInt64()
                    case (4, .varint): result.bottom = try box.readSInt64()
                    default: try box.skip(w)
                    }
                }
                header.boundingBox = result
            case (4, .lengthDelimited): header.requiredFeatures.append(try reader.readString())
            case (5, .lengthDelimited): header.optionalFeatures.append(try reader.readString())
            case (16, .lengthDelimited): header.writingProgram = try reader.readString()
            case (17, .lengthDelimited): header.source = try reader.readString()
            case (32, .varint): header.replicationTimestamp = try reader.readInt64()
            case (33, .varint): header.replicationSequenceNumber = try reader.readInt64()
            case (34, .lengthDelimited): header.replicationBaseURL = try reader.readString()
            default: try reader.skip(wireType)
            }
        }
        return header
    }
}
