import Foundation
import MapFormats
import MapGeometry

/// A feature's geometry in MapKit map points, as the tile builder takes it.
public enum SourceGeometry: Sendable {
    case point(MKMapPoint)
    case line([MKMapPoint])
    /// Several lines of one feature (a line cut into pieces by a tile's edge, or a multi-line).
    case lines([[MKMapPoint]])
    /// One polygon: its exterior ring, then its holes. Rings may be open or closed.
    case polygon([[MKMapPoint]])
    /// Several polygons of one feature (a polygon cut into parts by a tile's edge, or a multipolygon).
    case polygons([[[MKMapPoint]]])
}

/// Cuts features into vector tiles for zoom levels `minimumZoom…maximumZoom`, generalising them per
/// zoom: clipped to each tile plus a buffer, simplified to a fraction of a pixel, tiny areas and
/// lines dropped.
///
/// Features are spilled to a memory-mapped scratch file as they are added (``TileFeatureSpill``),
/// so a country's geometry stays off the heap. ``writeTiles(transform:progress:to:)`` then cuts them
/// level by level: zooms 0–5 as one bucket (the whole world), zooms 6–9 in buckets of zoom-6 tiles,
/// zooms 10 and up in buckets of zoom-10 tiles (finer for small extracts, so every core has work).
/// A bucket holds the features whose bounds touch it; it is cut on one core, down the pyramid from
/// the bucket tile (each tile's children clipped from the tile's own piece), its tiles encoded and
/// handed to the caller, and dropped. Memory is bounded by the largest bucket, not the extract.
public final class TileBuilder {
    /// How tiles are cut and generalised.
    public struct Options: Sendable, Codable, Equatable {
        public var minimumZoom = 0
        public var maximumZoom = 14
        /// Tile coordinates per tile side (MVT's extent).
        public var extent: Int32 = 4096
        /// Extra tile coordinates kept around each tile so lines and polygon edges run on past it.
        public var buffer: Int32 = 64
        /// Douglas–Peucker tolerance in tile coordinates below the maximum zoom (4096 / 512 = 8
        /// units per point on a 512-point tile, so 4 is half a point).
        public var simplification: Double = 4
        /// Tolerance at the maximum zoom, which is overzoomed for closer views and so keeps detail.
        public var maximumZoomSimplification: Double = 1
        /// Polygons smaller than this (tile coordinates squared) are dropped below the maximum zoom:
        /// 256 is 2 × 2 points.
        public var minimumArea: Double = 256
        /// Lines shorter than this (tile coordinates) are dropped below the maximum zoom.
        public var minimumLength: Double = 16
        /// The zooms at which a new level of buckets starts (see ``TileBuilder``).
        public var bucketZooms = [6, 10]

        public init() {}
    }

    public let options: Options
    private var spill: TileFeatureSpill
    private var sealed = false
    /// Where features are also kept by source for updates (nil when the bundle is not updatable).
    var featureStore: TileFeatureStoreWriter?
    private var lastSource: FeatureSource?
    private var seqInSource = 0
    /// The levels the tiles were cut in, once ``writeTiles(transform:progress:to:)`` has run.
    private(set) var cutLevels: [Level] = []

    /// Features are spilled to an unlinked scratch file in `scratchDirectory` (by default the
    /// system's temporary directory).
    public init(options: Options = Options(), scratchDirectory: String? = nil) throws {
        self.options = options
        spill = try TileFeatureSpill(directory: scratchDirectory ?? FileManager.default.temporaryDirectory.path)
    }

    /// Features added so far.
    public var featureCount: Int { spill.count }
    /// Bytes of scratch disk the features occupy.
    public var scratchBytes: Int { spill.diskBytes }

    /// Adds a feature to every tile from `minimumZoom` to the maximum zoom that it shows in.
    /// Cutting happens later, bucket by bucket on all cores, when the tiles are written.
    public func add(layer: TileLayer, minimumZoom: Int, attributes: [(key: String, value: TileValue)], geometry: SourceGeometry) throws {
        try add(layer: layer, minimumZoom: minimumZoom, attributes: attributes, geometry: geometry, source: nil)
    }

    /// Adds a feature made from `source`, which the feature store (if any) keeps it under.
    func add(layer: TileLayer, minimumZoom: Int, attributes: [(key: String, value: TileValue)], geometry: SourceGeometry,
             source: FeatureSource?) throws {
        precondition(!sealed, "TileBuilder: add after writeTiles")
        guard let (first, properties) = Self.prepare(minimumZoom: minimumZoom, attributes: attributes, options: options) else { return }
        try spill.append(layerIndex: TileBuilder.layerIndex[layer]!, firstZoom: first, properties: properties, geometry: geometry)
        if let featureStore, let source {
            seqInSource = source == lastSource ? seqInSource + 1 : 0
            lastSource = source
            let record = spill.lastRecord
            try featureStore.add(StoredTileFeature(source: source, seq: seqInSource, firstZoom: first,
                                                   bounds: TileFeatureSpill.FixedRect(minX: record[2], minY: record[3], maxX: record[4], maxY: record[5]),
                                                   record: record, properties: properties))
        }
    }

    /// The first zoom a feature shows at and its tile properties; nil when it shows at no zoom cut.
    static func prepare(minimumZoom: Int, attributes: [(key: String, value: TileValue)],
                        options: Options) -> (firstZoom: Int, properties: [VectorTile.Property])? {
        let first = max(minimumZoom, options.minimumZoom)
        guard first <= options.maximumZoom else { return nil }
        return (first, attributes.map { VectorTile.Property($0.key, vectorTileValue($0.value)) })
    }

    /// The layer order in every tile: OpenMapTiles' order, bottom to top.
    private static let layerOrder = TileLayer.allCases

    /// Layers whose lines are merged below the maximum zoom: road and river segments with the same
    /// attributes become one multi-line feature, joined end to end where two segments meet, so low
    /// zooms carry a few long lines instead of thousands of short ones (and labels can run along them).
    public static let mergedLineLayers: Set<TileLayer> = [.transportation, .transportationName, .waterway, .boundary]

    /// One level of the cut: the bucket tiles at `bucketZoom`, each cut for `zooms`.
    struct Level: Equatable, Codable {
        var bucketZoom: Int
        var zooms: Range<Int>
    }

    /// The levels for data within `bounds`: the configured bucket zooms, plus one deeper level when
    /// the deepest has too few buckets to keep `cores` busy (a city-sized extract).
    func levels(bounds: MKMapRect, cores: Int) -> [Level] {
        let end = options.maximumZoom + 1
        var starts = [options.minimumZoom] + options.bucketZooms.filter { $0 > options.minimumZoom && $0 < end }
        func bucketCount(_ z: Int) -> Int {
            let a = TileID(containing: MKMapPoint(x: bounds.minX, y: bounds.minY), zoom: z)
            let b = TileID(containing: MKMapPoint(x: bounds.maxX, y: bounds.maxY), zoom: z)
            return (abs(b.x - a.x) + 1) * (abs(b.y - a.y) + 1)
        }
        if let deepest = starts.last, bucketCount(deepest) < 4 * cores,
           let deeper = (deepest + 1..<end).first(where: { bucketCount($0) >= 4 * cores }) ?? (deepest + 2 < end ? end - 1 : nil) {
            starts.append(deeper)
        }
        return starts.indices.map { Level(bucketZoom: starts[$0], zooms: starts[$0]..<(starts.indices.contains($0 + 1) ? starts[$0 + 1] : end)) }
    }

    /// Cuts every feature into tiles, encodes each tile as MVT, passes it through `transform` (gzip,
    /// say) and hands it to `sink` on the calling thread, while other cores cut the next buckets.
    /// Tiles arrive in no particular order; `progress` gets the fraction of buckets done.
    public func writeTiles(transform: @escaping @Sendable ([UInt8]) throws -> [UInt8] = { $0 },
                           progress: (Double) -> Void = { _ in },
                           to sink: (TileID, [UInt8]) throws -> Void) throws {
        if !sealed {
            try spill.seal()
            sealed = true
        }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let levels = spill.bounds.isEmpty ? [] : levels(bounds: spill.bounds.mapRect, cores: cores)
        cutLevels = levels
        let options = self.options
        let attributeSets = spill.attributeSets
        try spill.withReader { reader in
            for (levelIndex, level) in levels.enumerated() {
                let buckets = Self.buckets(reader: reader, level: level, options: options)
                // Biggest first, so that no core is left with a large bucket at the end.
                let order = buckets.indices.sorted { buckets[$0].features.count > buckets[$1].features.count }
                let handoff = TileHandoff(limit: 2 * cores)
                let producer = Thread {
                    DispatchQueue.concurrentPerform(iterations: order.count) { index in
                        guard !handoff.isStopped else { return }
                        let bucket = buckets[order[index]]
                        handoff.put(Result { try Self.cut(bucket, level: level, reader: reader, attributeSets: attributeSets,
                                                          options: options, transform: transform) })
                    }
                    handoff.finish()
                }
                producer.start()
                defer { handoff.stop(); handoff.waitUntilFinished() }
                var done = 0
                while let result = handoff.take() {
                    for (tile, bytes) in try result.get() { try sink(tile, bytes) }
                    done += 1
                    // Buckets read features from all over the spill: drop what was read now and then.
                    if done % 256 == 0 { spill.releaseResidentPages() }
                    progress((Double(levelIndex) + Double(done) / Double(max(order.count, 1))) / Double(levels.count))
                }
                spill.releaseResidentPages()
            }
        }
    }

    /// Every tile, encoded and passed through `transform`, in zoom/row/column order: for tests and
    /// small extracts (an import streams them with ``writeTiles(transform:progress:to:)``).
    public func tiles(transform: @escaping @Sendable ([UInt8]) throws -> [UInt8] = { $0 }) throws -> [(TileID, [UInt8])] {
        var tiles: [(TileID, [UInt8])] = []
        try writeTiles(transform: transform) { tiles.append(($0, $1)) }
        return tiles.sorted { $0.0 < $1.0 }
    }

    /// A bucket: a tile of the level's bucket zoom and the features (in the order added) that touch it.
    struct Bucket: Sendable {
        var tile: TileID
        var features: [Int32]
    }

    /// Which features each bucket tile of `level` needs: those shown in the level's zooms whose
    /// buffered bounds touch the tile.
    static func buckets(reader: TileFeatureSpill.Reader, level: Level, options: Options) -> [Bucket] {
        var byTile: [TileID: [Int32]] = [:]
        for feature in 0..<reader.offsets.count {
            let header = reader.header(feature)
            guard header.firstZoom < level.zooms.upperBound else { continue }
            let (columns, rows) = bucketRange(of: header.bounds, level: level, options: options)
            for y in rows {
                for x in columns { byTile[TileID(z: level.bucketZoom, x: x, y: y)!, default: []].append(Int32(feature)) }
            }
        }
        return byTile.map { Bucket(tile: $0.key, features: $0.value) }.sorted { $0.tile < $1.tile }
    }

    /// The columns and rows of the level's bucket tiles that a feature with these bounds touches,
    /// buffer included.
    static func bucketRange(of bounds: TileFeatureSpill.FixedRect, level: Level, options: Options) -> (columns: ClosedRange<Int>, rows: ClosedRange<Int>) {
        let n = 1 << level.bucketZoom
        let tileWidth = MKMapSize.worldWidth / Double(n)
        let margin = tileWidth * Double(options.buffer) / Double(options.extent)
        let box = bounds.mapRect
        let columns = max(Int(((box.minX - margin) / tileWidth).rounded(.down)), 0)...min(Int(((box.maxX + margin) / tileWidth).rounded(.down)), n - 1)
        let rows = max(Int(((box.minY - margin) / tileWidth).rounded(.down)), 0)...min(Int(((box.maxY + margin) / tileWidth).rounded(.down)), n - 1)
        return (columns, rows)
    }

    /// Cuts one bucket's features into its tiles and encodes them.
    static func cut(_ bucket: Bucket, level: Level, reader: TileFeatureSpill.Reader, attributeSets: [[VectorTile.Property]],
                    options: Options, transform: ([UInt8]) throws -> [UInt8]) throws -> [(TileID, [UInt8])] {
        try cut(bucket: bucket.tile, level: level, options: options, transform: transform) { feature in
            for index in bucket.features {
                let header = reader.header(Int(index))
                feature(header, reader.geometry(Int(index)), attributeSets[header.attributeSet])
            }
        }
    }

    /// Cuts the features `forEachFeature` hands over (those touching the bucket tile, in order)
    /// into the bucket's tiles and encodes them: the one cut that imports and updates share.
    /// With `visits`, only the tiles below the bucket tile that it accepts are cut (see ``TileCutter``).
    static func cut(bucket: TileID, level: Level, options: Options, transform: ([UInt8]) throws -> [UInt8],
                    visits: ((TileID) -> Bool)? = nil,
                    forEachFeature: ((TileFeatureSpill.Header, SourceGeometry, [VectorTile.Property]) -> Void) throws -> Void) throws -> [(TileID, [UInt8])] {
        let cutter = TileCutter(options: options)
        var content: TileCutter.Content = [:]
        try forEachFeature { header, geometry, properties in
            cutter.cut(geometry, from: bucket, to: level.zooms.upperBound,
                       firstZoom: max(header.firstZoom, level.zooms.lowerBound), layerIndex: header.layerIndex,
                       properties: properties, visits: visits, into: &content)
        }
        var tiles: [(TileID, [UInt8])] = []
        tiles.reserveCapacity(content.count)
        for (id, layers) in content {
            let tile = VectorTile(layers: zip(layerOrder, layers).compactMap { layer, features in
                guard !features.isEmpty else { return nil }
                let merged = id.z < options.maximumZoom && mergedLineLayers.contains(layer) ? mergeLines(features) : features
                return VectorTile.Layer(name: layer.rawValue, version: 2, extent: UInt32(options.extent), features: merged)
            })
            guard !tile.layers.isEmpty else { continue }
            tiles.append((id, try transform(tile.encoded())))
        }
        return tiles
    }

    // MARK: - Line merging

    /// Merges line features with identical properties into one feature each, joining lines end to
    /// end where exactly two ends meet. Lines of one-way features are never reversed to fit.
    static func mergeLines(_ features: [VectorTile.Feature]) -> [VectorTile.Feature] {
        var groups: [[VectorTile.Property]: [[VectorTile.TilePoint]]] = [:]
        var order: [[VectorTile.Property]] = []
        var others: [VectorTile.Feature] = []
        for feature in features {
            guard case .lines(let lines) = feature.geometry, feature.id == nil else {
                others.append(feature)
                continue
            }
            if groups[feature.properties] == nil { order.append(feature.properties) }
            groups[feature.properties, default: []].append(contentsOf: lines)
        }
        var result = others
        for properties in order {
            let oneway = properties.contains { $0.key == "oneway" }
            result.append(VectorTile.Feature(properties: properties, geometry: .lines(joinLines(groups[properties]!, allowReversing: !oneway))))
        }
        return result
    }

    /// Joins lines that share an end point (where exactly two ends meet), greedily, in input order.
    static func joinLines(_ lines: [[VectorTile.TilePoint]], allowReversing: Bool) -> [[VectorTile.TilePoint]] {
        guard lines.count > 1 else { return lines }
        // Each end point: which line ends there (index, and whether it is the line's start).
        var ends: [VectorTile.TilePoint: [(line: Int, atStart: Bool)]] = [:]
        for (index, line) in lines.enumerated() where line.count >= 2 {
            ends[line[0], default: []].append((index, true))
            ends[line[line.count - 1], default: []].append((index, false))
        }
        var used = [Bool](repeating: false, count: lines.count)
        var result: [[VectorTile.TilePoint]] = []
        /// The unused line continuing from `point` (where exactly two ends meet), oriented to start there.
        func continuation(at point: VectorTile.TilePoint, forward: Bool) -> [VectorTile.TilePoint]? {
            guard let here = ends[point], here.count == 2 else { return nil }
            for end in here where !used[end.line] {
                // Going forward we need a line starting here; backward, one ending here.
                if end.atStart == forward {
                    used[end.line] = true
                    return forward ? lines[end.line] : lines[end.line]
                }
                if allowReversing {
                    used[end.line] = true
                    return Array(lines[end.line].reversed())
                }
            }
            return nil
        }
        for index in lines.indices where !used[index] {
            used[index] = true
            var line = lines[index]
            guard line.count >= 2 else { result.append(line); continue }
            while let next = continuation(at: line[line.count - 1], forward: true) { line.append(contentsOf: next.dropFirst()) }
            while let previous = continuation(at: line[0], forward: false) { line.insert(contentsOf: previous.dropLast(), at: 0) }
            result.append(line)
        }
        return result
    }

    static let emptyTile = [[VectorTile.Feature]](repeating: [], count: layerOrder.count)
    static let layerIndex: [TileLayer: Int] = Dictionary(uniqueKeysWithValues: layerOrder.enumerated().map { ($1, $0) })
}

/// The vector tile value for a schema value (integers as sint, which packs negatives small).
func vectorTileValue(_ value: TileValue) -> VectorTile.Value {
    switch value {
    case .string(let s): .string(s)
    case .int(let i): i < 0 ? .sint(i) : .uint(UInt64(i))
    case .double(let d): .double(d)
    case .bool(let b): .bool(b)
    }
}

/// Hands finished buckets from the cutting threads to the thread that writes them, holding at most
/// `limit` at a time so that cutting never runs far ahead of writing.
private final class TileHandoff: @unchecked Sendable {
    private let condition = NSCondition()
    private var queue: [Result<[(TileID, [UInt8])], Error>] = []
    private var producing = true
    private var stopped = false
    private let limit: Int

    init(limit: Int) { self.limit = limit }

    var isStopped: Bool { condition.withLock { stopped } }

    /// Queues a result, waiting while the queue is full; dropped once the reader has stopped.
    func put(_ result: Result<[(TileID, [UInt8])], Error>) {
        condition.withLock {
            while queue.count >= limit && !stopped { condition.wait() }
            guard !stopped else { return }
            queue.append(result)
            condition.broadcast()
        }
    }

    /// The next result, or nil when the producers have finished and the queue is empty.
    func take() -> Result<[(TileID, [UInt8])], Error>? {
        condition.withLock {
            while queue.isEmpty && producing { condition.wait() }
            guard !queue.isEmpty else { return nil }
            condition.broadcast()
            return queue.removeFirst()
        }
    }

    /// The producers are done.
    func finish() { condition.withLock { producing = false; condition.broadcast() } }

    /// The reader gives up (an error): producers drop what they make and skip what is left.
    func stop() { condition.withLock { stopped = true; condition.broadcast() } }

    func waitUntilFinished() { condition.withLock { while producing { condition.wait() } } }
}
