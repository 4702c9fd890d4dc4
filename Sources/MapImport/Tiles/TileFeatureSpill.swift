import MapFormats
import MapGeometry

/// The features waiting to be cut into tiles, spilled to a memory-mapped scratch file as they are
/// added so that a country's geometry never sits on the heap.
///
/// A record is a 32-byte header (layer, first zoom, geometry kind, attribute set, bounding box,
/// part and polygon counts), the point count of each part, the ring count of each polygon (for
/// multipolygons), then the points as pairs of `UInt32` fixed-point map
/// coordinates (1/8 map point, about 2 cm at the equator: finer than a zoom-14 tile's 4096-unit
/// grid by a factor of 32). Attribute sets are interned on the heap: most features share theirs
/// (every unnamed building, every residential road of one kind).
struct TileFeatureSpill: ~Copyable {
    private var file: SpillFile
    /// Where each feature's record starts in the file.
    private(set) var offsets: [Int] = []
    private(set) var attributeSets: [[VectorTile.Property]] = []
    private var attributeSetIndex: [[VectorTile.Property]: UInt32] = [:]
    /// Every point added, in fixed point: where the data is, for planning the cut.
    private(set) var bounds = FixedRect.empty
    private var scratch: [UInt32] = []

    static let fixedScale = 8.0
    private static let headerWords = 8

    init(directory: String) throws {
        file = try SpillFile(directory: directory)
    }

    var count: Int { offsets.count }
    var diskBytes: Int { file.count }

    /// A feature's bounding box in fixed-point map coordinates.
    struct FixedRect: Sendable, Equatable {
        var minX: UInt32, minY: UInt32, maxX: UInt32, maxY: UInt32
        static let empty = FixedRect(minX: .max, minY: .max, maxX: 0, maxY: 0)
        var isEmpty: Bool { minX > maxX }

        mutating func formUnion(_ other: FixedRect) {
            minX = min(minX, other.minX); minY = min(minY, other.minY)
            maxX = max(maxX, other.maxX); maxY = max(maxY, other.maxY)
        }

        var mapRect: MKMapRect {
            let s = TileFeatureSpill.fixedScale
            return MKMapRect(x: Double(minX) / s, y: Double(minY) / s,
                             width: Double(maxX - minX) / s, height: Double(maxY - minY) / s)
        }
    }

    /// What the cutter needs to know of a feature before reading its geometry.
    struct Header {
        var layerIndex: Int
        var firstZoom: Int
        var attributeSet: Int
        var bounds: FixedRect
    }

    mutating func append(layerIndex: Int, firstZoom: Int, properties: [VectorTile.Property], geometry: SourceGeometry) throws {
        let attributeSet: UInt32
        if let known = attributeSetIndex[properties] {
            attributeSet = known
        } else {
            attributeSet = UInt32(attributeSets.count)
            attributeSets.append(properties)
            attributeSetIndex[properties] = attributeSet
        }
        let box = Self.encode(layerIndex: layerIndex, firstZoom: firstZoom, attributeSet: attributeSet, geometry: geometry, into: &scratch)
        bounds.formUnion(box)
        offsets.append(try scratch.withUnsafeBytes { try file.append($0) })
    }

    /// The record of the feature added last, with its attribute set's index (words 0–7 are the
    /// header, as ``Reader`` reads them).
    var lastRecord: [UInt32] { scratch }

    /// Writes a feature's record into `words` (replacing what was there) and returns its bounds.
    static func encode(layerIndex: Int, firstZoom: Int, attributeSet: UInt32, geometry: SourceGeometry, into words: inout [UInt32]) -> FixedRect {
        let kind: UInt32, parts: [[MKMapPoint]]
        var ringsPerPolygon: [Int] = []
        switch geometry {
        case .point(let p): (kind, parts) = (0, [[p]])
        case .line(let points): (kind, parts) = (1, [points])
        case .lines(let lines): (kind, parts) = (1, lines)
        case .polygon(let rings): (kind, parts) = (2, rings)
        case .polygons(let polygons):
            (kind, parts) = (3, polygons.flatMap { $0 })
            ringsPerPolygon = polygons.map(\.count)
        }
        words.removeAll(keepingCapacity: true)
        words.append(UInt32(layerIndex) | UInt32(firstZoom) << 8 | kind << 16)
        words.append(attributeSet)
        words.append(contentsOf: [0, 0, 0, 0])  // the bounding box, filled in below
        words.append(UInt32(parts.count))
        words.append(UInt32(ringsPerPolygon.count))
        for part in parts { words.append(UInt32(part.count)) }
        for rings in ringsPerPolygon { words.append(UInt32(rings)) }
        var box = FixedRect.empty
        for part in parts {
            for p in part {
                let x = fixed(p.x), y = fixed(p.y)
                box.minX = min(box.minX, x); box.maxX = max(box.maxX, x)
                box.minY = min(box.minY, y); box.maxY = max(box.maxY, y)
                words.append(x)
                words.append(y)
            }
        }
        words[2] = box.minX; words[3] = box.minY; words[4] = box.maxX; words[5] = box.maxY
        return box
    }

    /// Ends adding: the file is mapped for reading.
    mutating func seal() throws { try file.seal() }

    /// Lets the kernel take back the mapped pages read so far (they stay cached on disk), so they
    /// stop counting towards the process's resident memory.
    func releaseResidentPages() { file.releaseResidentPages() }

    /// Calls `body` with a reader over the sealed file.
    func withReader<R>(_ body: (Reader) throws -> R) rethrows -> R {
        try file.withBytes { bytes in try body(Reader(bytes: bytes, offsets: offsets)) }
    }

    /// Reads records out of the mapped file; safe to use from several threads at once.
    struct Reader: @unchecked Sendable {
        let bytes: UnsafeRawBufferPointer
        let offsets: [Int]

        func header(_ feature: Int) -> Header {
            let base = offsets[feature]
            let word0 = word(base, 0)
            return Header(layerIndex: Int(word0 & 0xFF), firstZoom: Int(word0 >> 8 & 0xFF), attributeSet: Int(word(base, 1)),
                          bounds: FixedRect(minX: word(base, 2), minY: word(base, 3), maxX: word(base, 4), maxY: word(base, 5)))
        }

        func geometry(_ feature: Int) -> SourceGeometry {
            let base = offsets[feature]
            let kind = word(base, 0) >> 16 & 0xFF
            let partCount = Int(word(base, 6))
            let polygonCount = Int(word(base, 7))
            var next = TileFeatureSpill.headerWords + partCount + polygonCount
            var parts: [[MKMapPoint]] = []
            parts.reserveCapacity(partCount)
            for part in 0..<partCount {
                let count = Int(word(base, TileFeatureSpill.headerWords + part))
                var points: [MKMapPoint] = []
                points.reserveCapacity(count)
                for _ in 0..<count {
                    points.append(MKMapPoint(x: Double(word(base, next)) / TileFeatureSpill.fixedScale,
                                             y: Double(word(base, next + 1)) / TileFeatureSpill.fixedScale))
                    next += 2
                }
                parts.append(points)
            }
            switch kind {
            case 0: return .point(parts[0][0])
            case 2: return .polygon(parts)
            case 3:
                var polygons: [[[MKMapPoint]]] = []
                var ring = 0
                for polygon in 0..<polygonCount {
                    let count = Int(word(base, TileFeatureSpill.headerWords + partCount + polygon))
                    polygons.append(Array(parts[ring..<ring + count]))
                    ring += count
                }
                return .polygons(polygons)
            default: return parts.count == 1 ? .line(parts[0]) : .lines(parts)
            }
        }

        @inline(__always) private func word(_ base: Int, _ index: Int) -> UInt32 {
            bytes.loadUnaligned(fromByteOffset: base + 4 * index, as: UInt32.self)
        }
    }

    @inline(__always) static func fixed(_ value: Double) -> UInt32 {
        UInt32(min(max((value * fixedScale).rounded(), 0), Double(UInt32.max)))
    }
}
