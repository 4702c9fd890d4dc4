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
}

/// Cuts features into vector tiles for zoom levels `minimumZoom…maximumZoom`, generalising them per
/// zoom: clipped to each tile plus a buffer, simplified to a fraction of a pixel, tiny areas and
/// lines dropped, named areas given a label point.
///
/// Each feature descends the tile pyramid from the root: a tile's children are clipped from the
/// tile's own clipped geometry, so a large polygon costs about its vertex count per zoom level
/// rather than per tile. Features are collected as they are added and cut when the tiles are
/// asked for, in slices on all cores; tiles are built in memory and ``tiles(transform:)`` hands them
/// out encoded.
public final class TileBuilder {
    /// How tiles are cut and generalised.
    public struct Options: Sendable {
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

        public init() {}
    }

    public let options: Options
    /// Per tile, per layer (in `TileLayer` order), the features written there.
    private var content: [TileID: [[VectorTile.Feature]]] = [:]
    /// Features added since the last cut, waiting to be cut into tiles on all cores.
    private var pending: [PendingFeature] = []
    public private(set) var featureCount = 0

    struct PendingFeature: Sendable {
        var layer: TileLayer
        var firstZoom: Int
        var properties: [VectorTile.Property]
        var geometry: SourceGeometry
    }

    public init(options: Options = Options()) {
        self.options = options
    }

    /// Adds a feature to every tile from `minimumZoom` to the maximum zoom that it shows in.
    /// Cutting happens later, in parallel, when the tiles are asked for.
    public func add(layer: TileLayer, minimumZoom: Int, attributes: [(key: String, value: TileValue)], geometry: SourceGeometry) {
        let first = max(minimumZoom, options.minimumZoom)
        guard first <= options.maximumZoom else { return }
        featureCount += 1
        pending.append(PendingFeature(layer: layer, firstZoom: first,
                                      properties: attributes.map { VectorTile.Property($0.key, vectorTileValue($0.value)) },
                                      geometry: geometry))
    }

    /// Cuts the pending features into tiles: contiguous slices of them on all cores, each into
    /// its own tile map, merged in slice order so every tile lists its features in the order added.
    private func cutPending() {
        guard !pending.isEmpty else { return }
        let features = pending
        pending = []
        let slices = min(features.count, ProcessInfo.processInfo.activeProcessorCount * 4)
        nonisolated(unsafe) let results = UnsafeMutableBufferPointer<[TileID: [[VectorTile.Feature]]]>.allocate(capacity: slices)
        results.initialize(repeating: [:])
        defer {
            results.deinitialize()
            results.deallocate()
        }
        let cutter = TileCutter(options: options)
        DispatchQueue.concurrentPerform(iterations: slices) { slice in
            let range = (features.count * slice / slices)..<(features.count * (slice + 1) / slices)
            var local: [TileID: [[VectorTile.Feature]]] = [:]
            for feature in features[range] { cutter.cut(feature, into: &local) }
            results[slice] = local
        }
        for slice in 0..<slices {
            for (tile, layers) in results[slice] {
                if content[tile] == nil {
                    content[tile] = layers
                } else {
                    for (index, features) in layers.enumerated() where !features.isEmpty {
                        content[tile]![index].append(contentsOf: features)
                    }
                }
            }
        }
    }

    /// The layer order in every tile: OpenMapTiles' order, bottom to top.
    private static let layerOrder = TileLayer.allCases

    /// Layers whose lines are merged below the maximum zoom: road and river segments with the same
    /// attributes become one multi-line feature, joined end to end where two segments meet, so low
    /// zooms carry a few long lines instead of thousands of short ones (and labels can run along them).
    public static let mergedLineLayers: Set<TileLayer> = [.transportation, .transportationName, .waterway, .boundary]

    /// Every tile built, encoded as MVT and passed through `transform` (gzip, say), in zoom/row/column
    /// order. Tiles are encoded on all cores.
    public func tiles(transform: @Sendable ([UInt8]) throws -> [UInt8] = { $0 }) throws -> [(TileID, [UInt8])] {
        cutPending()
        let ids = content.keys.sorted()
        // Each iteration below writes only its own slot, so sharing the buffer is safe.
        nonisolated(unsafe) let results = UnsafeMutableBufferPointer<Result<[UInt8], Error>?>.allocate(capacity: ids.count)
        results.initialize(repeating: nil)
        defer { results.deallocate() }
        let content = self.content, options = self.options
        DispatchQueue.concurrentPerform(iterations: ids.count) { index in
            let id = ids[index]
            guard let layers = content[id] else { return }
            let tile = VectorTile(layers: zip(TileBuilder.layerOrder, layers).compactMap { layer, features in
                guard !features.isEmpty else { return nil }
                let merged = id.z < options.maximumZoom && TileBuilder.mergedLineLayers.contains(layer) ? TileBuilder.mergeLines(features) : features
                return VectorTile.Layer(name: layer.rawValue, version: 2, extent: UInt32(options.extent), features: merged)
            })
            guard !tile.layers.isEmpty else { return }
            results[index] = Result { try transform(tile.encoded()) }
        }
        var tiles: [(TileID, [UInt8])] = []
        tiles.reserveCapacity(ids.count)
        for (index, id) in ids.enumerated() {
            guard let result = results[index] else { continue }
            tiles.append((id, try result.get()))
        }
        return tiles
    }

    /// How many tiles hold anything, per zoom.
    public var tileCounts: [Int: Int] {
        cutPending()
        var counts: [Int: Int] = [:]
        for id in content.keys { counts[id.z, default: 0] += 1 }
        return counts
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

/// The per-feature work of cutting into tiles: pure functions of the options, so slices of
/// features can be cut on several threads at once.
private struct TileCutter: Sendable {
    let options: TileBuilder.Options

    /// Descends the pyramid from the root to the feature's first zoom and below, each tile's
    /// children clipped from the tile's own clipped geometry.
    func cut(_ feature: TileBuilder.PendingFeature, into content: inout [TileID: [[VectorTile.Feature]]]) {
        var work: [(TileID, SourceGeometry)] = [(TileID(z: 0, x: 0, y: 0)!, feature.geometry)]
        while let (tile, piece) = work.popLast() {
            if tile.z >= feature.firstZoom {
                emit(piece, in: tile, layer: feature.layer, properties: feature.properties, into: &content)
            }
            guard tile.z < options.maximumZoom else { continue }
            for child in tile.children {
                guard let clipped = clip(piece, to: bufferedRect(child)) else { continue }
                work.append((child, clipped))
            }
        }
    }

    // MARK: - Per tile

    func bufferedRect(_ tile: TileID) -> MKMapRect {
        let rect = tile.mapRect
        let margin = rect.width * Double(options.buffer) / Double(options.extent)
        return rect.insetBy(dx: -margin, dy: -margin)
    }

    func clip(_ geometry: SourceGeometry, to rect: MKMapRect) -> SourceGeometry? {
        switch geometry {
        case .point(let p):
            return rect.contains(p) ? geometry : nil
        case .line(let points):
            return clip(.lines([points]), to: rect)
        case .lines(let lines):
            let pieces = lines.flatMap { line in boundsIntersect(line, rect) ? Clipping.clipPolyline(line, to: rect) : [] }
            return pieces.isEmpty ? nil : .lines(pieces)
        case .polygon(let rings):
            guard let outer = rings.first, boundsIntersect(outer, rect) else { return nil }
            let clipped = Clipping.clipPolygon(rings, to: rect)
            return clipped.isEmpty ? nil : .polygon(clipped)
        }
    }

    func boundsIntersect(_ points: [MKMapPoint], _ rect: MKMapRect) -> Bool {
        // Closed comparisons: a piece lying along the rectangle's edge still gets clipped.
        let bounds = MKMapRect(boundingPoints: points)
        return !bounds.isNull && bounds.minX <= rect.maxX && bounds.maxX >= rect.minX && bounds.minY <= rect.maxY && bounds.maxY >= rect.minY
    }

    func emit(_ geometry: SourceGeometry, in tile: TileID, layer: TileLayer, properties: [VectorTile.Property],
                      into content: inout [TileID: [[VectorTile.Feature]]]) {
        let rect = tile.mapRect
        let scale = Double(options.extent) / rect.width
        let atMaximum = tile.z >= options.maximumZoom
        let tolerance = (atMaximum ? options.maximumZoomSimplification : options.simplification) / scale
        func tilePoint(_ p: MKMapPoint) -> VectorTile.TilePoint {
            VectorTile.TilePoint(x: Int32(((p.x - rect.minX) * scale).rounded()), y: Int32(((p.y - rect.minY) * scale).rounded()))
        }
        let vectorGeometry: VectorTile.Geometry
        switch geometry {
        case .point(let p):
            vectorGeometry = .points([tilePoint(p)])
        case .line(let points):
            guard let line = tileLine(points, tolerance: tolerance, scale: scale, dropShort: !atMaximum, tilePoint) else { return }
            vectorGeometry = .lines([line])
        case .lines(let pieces):
            let lines = pieces.compactMap { tileLine($0, tolerance: tolerance, scale: scale, dropShort: !atMaximum, tilePoint) }
            guard !lines.isEmpty else { return }
            vectorGeometry = .lines(lines)
        case .polygon(let rings):
            var polygon: [[VectorTile.TilePoint]] = []
            for (index, ring) in rings.enumerated() {
                guard let simplified = Simplification.simplifyRing(ring, method: .douglasPeucker(tolerance: tolerance)) else {
                    if index == 0 { return } else { continue }
                }
                let area = abs(PlanarPolygon.signedArea(simplified)) * scale * scale
                if !atMaximum, area < options.minimumArea {
                    if index == 0 { return } else { continue }
                }
                polygon.append(simplified.map(tilePoint))
            }
            guard !polygon.isEmpty else { return }
            vectorGeometry = .polygons([polygon])
        }
        // Mutating through the defaulted subscript appends in place, without copying the tile's arrays.
        content[tile, default: TileBuilder.emptyTile][TileBuilder.layerIndex[layer]!]
            .append(VectorTile.Feature(properties: properties, geometry: vectorGeometry))
    }

    func tileLine(_ points: [MKMapPoint], tolerance: Double, scale: Double, dropShort: Bool,
                          _ tilePoint: (MKMapPoint) -> VectorTile.TilePoint) -> [VectorTile.TilePoint]? {
        let simplified = Simplification.douglasPeucker(points, tolerance: tolerance)
        guard simplified.count >= 2 else { return nil }
        if dropShort {
            var length = 0.0
            for i in 1..<simplified.count {
                length += hypot(simplified[i].x - simplified[i - 1].x, simplified[i].y - simplified[i - 1].y)
            }
            if length * scale < options.minimumLength { return nil }
        }
        return simplified.map(tilePoint)
    }

}
