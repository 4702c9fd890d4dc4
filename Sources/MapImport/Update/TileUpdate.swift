import Foundation
import MapFormats
import MapGeometry

/// What an update did to a bundle's tiles.
public struct TileUpdateReport: Codable, Sendable, Equatable {
    /// Features taken out (their elements changed or went) and put in (made again).
    public var featuresRemoved = 0, featuresAdded = 0
    /// Cutting buckets (see ``TileBuilder``) cut again, because a feature touching them changed.
    public var bucketsCut = 0
    /// Tiles written (new or changed) and deleted (now empty), by zoom.
    public var tilesWritten: [Int: Int] = [:]
    public var tilesDeleted: [Int: Int] = [:]
    /// Tiles cut again that came out byte for byte as they were, and so were left alone.
    public var tilesUnchanged = 0
    /// Whether the sea was made again (a coastline changed).
    public var seaRemade = false

    public init() {}

    /// Every tile written or deleted.
    public var tilesChanged: Int { tilesWritten.values.reduce(0, +) + tilesDeleted.values.reduce(0, +) }
}

/// Brings a bundle's tiles up to date with the elements a change reached, inside the update's
/// transaction: the features of every element it reached are made again from the element store
/// (with the import's ``ElementFeatureMaker``), and every cutting bucket that an old or a new
/// feature touches is cut again (with the import's ``TileBuilder`` cut, in the import's feature
/// order), so each tile comes out as a fresh import of the updated data would make it. Only tiles
/// whose bytes differ are written.
///
/// Some features belong to more than one element: a boundary line is drawn along a way with the
/// admin level of every boundary relation holding it, and the sea is made from every coastline.
/// Those are made again when any element they come from changed.
struct TileUpdate {
    let elements: OSMElementReader
    let features: TileFeatureStore
    var tiles: MBTilesEditor
    let maker: ElementFeatureMaker
    let plan: TileCutPlan
    private var report = TileUpdateReport()
    /// Per level (an index into the plan's levels), the bucket tiles to cut again.
    private var dirty: [Set<TileID>]
    /// The bounds of every feature taken out or put in: the tiles whose buffered square meets
    /// one of them are cut again, no others.
    private var changedBounds: [MKMapRect] = []

    init(elements: OSMElementReader, features: TileFeatureStore, tiles: MBTilesEditor, schema: OpenMapTilesSchema, plan: TileCutPlan) {
        self.elements = elements
        self.features = features
        self.tiles = tiles
        maker = ElementFeatureMaker(schema: schema)
        self.plan = plan
        dirty = Array(repeating: [], count: plan.levels.count)
    }

    mutating func apply(_ changes: ElementChanges, progress: (Double) throws -> Void = { _ in }) throws -> TileUpdateReport {
        // The closures below read these, while `replace` changes the report and the dirty buckets.
        let elements = self.elements, maker = self.maker, features = self.features
        let lookup = ElementLookup(elements)
        let location: (Int64) -> OSMLocation? = { lookup.location(of: $0) }
        var seaChanged = false
        // Ways whose boundary line may change: every way member, before and after, of a relation
        // reached (a boundary's tags or members changed), and every way reached itself.
        var boundaryWays = Set<Int64>()
        for key in changes.affected.sorted() {
            switch key.type {
            case .node:
                try replace(FeatureSource(kind: .node, id: key.id)) {
                    guard let node = try elements.node(key.id), !node.tags.isEmpty else { return nil }
                    return maker.node(id: node.id, tags: node.tags, location: node.location)
                }
            case .way:
                let way = try elements.way(key.id)
                try replace(FeatureSource(kind: .way, id: key.id)) {
                    guard let way, !way.tags.isEmpty else { return nil }
                    return maker.way(way, location: location)
                }
                let isCoastline = way.map(ElementFeatureMaker.isCoastline) ?? false
                if try isCoastline || features.isCoastline(key.id) {
                    seaChanged = true
                    try features.setCoastline(key.id, isCoastline)
                }
                boundaryWays.insert(key.id)
            case .relation:
                let relation = try lookup.relation(key.id)
                try replace(FeatureSource(kind: .relation, id: key.id)) {
                    guard let relation, ElementFeatureMaker.role(ofRelationTagged: relation.tags) == .area else { return nil }
                    return maker.relation(relation, way: { try? elements.way($0) }, location: location)
                }
                for member in (changes.formerMembers[key.id] ?? []) + (relation?.members ?? []) where member.type == .way {
                    boundaryWays.insert(member.ref)
                }
            }
        }
        for id in boundaryWays.sorted() {
            try replace(FeatureSource(kind: .boundary, id: id)) {
                guard let way = try elements.way(id) else { return nil }
                let relations = try elements.relations(containing: .way, id).compactMap { try lookup.relation($0) }
                    .filter { ElementFeatureMaker.role(ofRelationTagged: $0.tags) == .boundary }
                return relations.isEmpty ? nil : maker.boundaryLine(way: way, relations: relations, location: location)
            }
        }
        if seaChanged { try remakeSea() }
        try progress(0.2)
        try recut { try progress(0.2 + 0.8 * $0) }
        try tiles.finish()
        return report
    }

    /// Takes out `source`'s features and puts in those `make` gives (none when it gives nil),
    /// marking the buckets both touch — unless they come out as they were (a way reached through
    /// a relation that changed elsewhere), which changes no tile.
    private mutating func replace(_ source: FeatureSource, make: () throws -> ElementFeatures?) throws {
        let removed = try features.remove(source)
        let made = try make().map(stored) ?? []
        let same = removed == made.map { feature in
            let (record, properties) = TileFeatureStore.stored(feature)
            return TileFeatureStore.Removed(firstZoom: feature.firstZoom, bounds: feature.bounds, record: record, properties: properties)
        }
        for feature in made { try features.insert(feature) }
        guard !same else { return }
        for feature in removed {
            report.featuresRemoved += 1
            markDirty(firstZoom: feature.firstZoom, bounds: feature.bounds)
        }
        for feature in made {
            report.featuresAdded += 1
            markDirty(firstZoom: feature.firstZoom, bounds: feature.bounds)
        }
    }

    /// An element's features as the store keeps them, numbered in order.
    private func stored(_ made: ElementFeatures) -> [StoredTileFeature] {
        var result: [StoredTileFeature] = []
        var words: [UInt32] = []
        for (feature, geometry) in made.features {
            guard let prepared = TileBuilder.prepare(minimumZoom: feature.minimumZoom, attributes: feature.attributes, options: plan.options) else { continue }
            let bounds = TileFeatureSpill.encode(layerIndex: TileBuilder.layerIndex[feature.layer]!, firstZoom: prepared.firstZoom,
                                                 attributeSet: 0, geometry: geometry, into: &words)
            result.append(StoredTileFeature(source: made.source, seq: result.count, firstZoom: prepared.firstZoom, bounds: bounds,
                                            record: words, properties: prepared.properties))
        }
        return result
    }

    /// The sea made again from every coastline way.
    private mutating func remakeSea() throws {
        report.seaRemade = true
        let elements = self.elements
        let coastlines = try features.coastlines().compactMap { try elements.way($0) }
            .map { ElementFeatureMaker.coastline($0, location: { try? elements.location(of: $0) }) }
        let polygons = coastlines.isEmpty ? [] : maker.sea(coastlines, bounds: plan.seaBounds ?? .null).features
        let formerCount = try features.sources(of: .sea).count
        for index in 0..<max(polygons.count, formerCount) {
            try replace(FeatureSource(kind: .sea, id: Int64(index))) { index < polygons.count ? polygons[index] : nil }
        }
    }

    private mutating func markDirty(firstZoom: Int, bounds: TileFeatureSpill.FixedRect) {
        changedBounds.append(bounds.mapRect)
        for (index, level) in plan.levels.enumerated() where firstZoom < level.zooms.upperBound {
            let (columns, rows) = TileBuilder.bucketRange(of: bounds, level: level, options: plan.options)
            for y in rows {
                for x in columns { dirty[index].insert(TileID(z: level.bucketZoom, x: x, y: y)!) }
            }
        }
    }

    /// Cuts every dirty bucket again and writes the tiles that changed.
    private mutating func recut(progress: (Double) throws -> Void) throws {
        let cutter = TileCutter(options: plan.options)
        let total = max(dirty.reduce(0) { $0 + $1.count }, 1)
        var done = 0
        for (index, level) in plan.levels.enumerated() {
            for bucket in dirty[index].sorted() {
                // The tiles of the bucket a changed feature reaches (buffer included), remembered.
                let bucketRect = cutter.bufferedRect(bucket)
                let near = changedBounds.filter { $0.intersects(bucketRect) || $0.width == 0 && bucketRect.contains($0.origin) }
                var reached: [TileID: Bool] = [bucket: true]
                let visits = { (tile: TileID) -> Bool in
                    if let known = reached[tile] { return known }
                    let rect = cutter.bufferedRect(tile)
                    let answer = near.contains { $0.minX <= rect.maxX && $0.maxX >= rect.minX && $0.minY <= rect.maxY && $0.maxY >= rect.minY }
                    reached[tile] = answer
                    return answer
                }
                let cut = try TileBuilder.cut(bucket: bucket, level: level, options: plan.options,
                                              transform: { try Compression.deflate($0, container: .gzip) }, visits: visits) { feature in
                    try features.forEachFeature(touching: level.bucketZoom == 0 ? nil : Self.searchRect(bucketRect), shownBelow: level.zooms.upperBound) { header, geometry, properties in
                        // The R*Tree's boxes are rounded outwards: the import's own test decides.
                        let (columns, rows) = TileBuilder.bucketRange(of: header.bounds, level: level, options: plan.options)
                        guard columns.contains(bucket.x), rows.contains(bucket.y) else { return }
                        feature(header, geometry, properties)
                    }
                }
                // What the archive holds for the tiles cut (the others stay as they are).
                var before: [TileID: Data] = [:]
                for z in level.zooms {
                    let shift = z - level.bucketZoom
                    for (id, data) in try tiles.tiles(z: z, columns: bucket.x << shift...((bucket.x + 1) << shift) - 1,
                                                      rows: bucket.y << shift...((bucket.y + 1) << shift) - 1) where visits(id) {
                        before[id] = data
                    }
                }
                for (id, bytes) in cut.sorted(by: { $0.0 < $1.0 }) {
                    let data = Data(bytes)
                    if before.removeValue(forKey: id) == data {
                        report.tilesUnchanged += 1
                    } else {
                        try tiles.put(id, data: data)
                        report.tilesWritten[id.z, default: 0] += 1
                    }
                }
                for id in before.keys.sorted() {
                    try tiles.delete(id)
                    report.tilesDeleted[id.z, default: 0] += 1
                }
                report.bucketsCut += 1
                done += 1
                try progress(Double(done) / Double(total))
            }
        }
    }

    /// A map rectangle (a bucket tile with its buffer) in the store's fixed-point coordinates, a
    /// unit wider each way: the features' bounds were rounded to that grid.
    private static func searchRect(_ rect: MKMapRect) -> TileFeatureSpill.FixedRect {
        let (minX, minY) = (TileFeatureSpill.fixed(rect.minX), TileFeatureSpill.fixed(rect.minY))
        let (maxX, maxY) = (TileFeatureSpill.fixed(rect.maxX), TileFeatureSpill.fixed(rect.maxY))
        return TileFeatureSpill.FixedRect(minX: minX == 0 ? 0 : minX - 1, minY: minY == 0 ? 0 : minY - 1,
                                          maxX: maxX == .max ? maxX : maxX + 1, maxY: maxY == .max ? maxY : maxY + 1)
    }
}

/// Node locations and relations read from the store once each for the whole update: a node is
/// asked for by every way through it, and a boundary relation by every changed way of it (a
/// country's boundary has thousands). The store does not change while the tiles are remade.
private final class ElementLookup {
    private let elements: OSMElementReader
    private var locations: [Int64: OSMLocation?] = [:]
    private var relations: [Int64: OSMRelation?] = [:]

    init(_ elements: OSMElementReader) { self.elements = elements }

    func location(of id: Int64) -> OSMLocation? {
        if let known = locations[id] { return known }
        let location = try? elements.location(of: id)
        locations[id] = location
        return location
    }

    func relation(_ id: Int64) throws -> OSMRelation? {
        if let known = relations[id] { return known }
        let relation = try elements.relation(id)
        relations[id] = relation
        return relation
    }
}
