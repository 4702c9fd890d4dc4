import MapFormats
import MapGeometry

/// What a tile feature was made from: an OSM element, or one of the wholes made from many (the
/// sea, from every coastline; a boundary line, from every boundary relation a way belongs to).
///
/// Sources order the features of a tile. An import adds features in this order (a sorted extract
/// has nodes, then ways, then relations, each by id; the sea and the boundary lines come after),
/// and an update cuts a tile's features sorted by source, so that an updated tile is the tile a
/// fresh import of the updated data would make, byte for byte.
struct FeatureSource: Hashable, Comparable, Sendable {
    enum Kind: UInt8, Sendable {
        case node = 0, way = 1, relation = 2
        /// The sea polygons; their id is their index.
        case sea = 3
        /// A boundary line drawn along a way of administrative boundary relations; the id is the way's.
        case boundary = 4
    }

    var kind: Kind
    var id: Int64

    static func < (a: FeatureSource, b: FeatureSource) -> Bool { (a.kind.rawValue, a.id) < (b.kind.rawValue, b.id) }
}

/// A schema feature with the geometry it is drawn with.
typealias PlacedFeature = (feature: SchemaFeature, geometry: SourceGeometry)

/// The features of one element: each with the element's geometry, or (for labels) a point inside
/// its polygon.
func placed(_ features: [SchemaFeature], _ geometry: SourceGeometry, polygon: [[MKMapPoint]]? = nil) -> [PlacedFeature] {
    features.compactMap { feature in
        guard feature.placement == .labelPoint else { return (feature, geometry) }
        guard let rings = polygon, let outer = rings.first, !outer.isEmpty,
              let point = labelPoint(polygon: rings, precision: max(MKMapRect(boundingPoints: outer).width / 100, 1)) else { return nil }
        return (feature, .point(point))
    }
}

/// An element's features, with what went wrong while building its geometry.
struct ElementFeatures {
    var source: FeatureSource
    var features: [PlacedFeature] = []
    /// False for an area that could not be assembled into valid polygons.
    var isValid = true
    var missingWays = 0
    var missingNodes = 0

    init(source: FeatureSource, features: [PlacedFeature], missingNodes: Int) {
        self.source = source
        self.features = features
        self.missingNodes = missingNodes
    }

    /// An assembled area's polygons as features.
    init(source: FeatureSource, _ assembly: AreaAssembly, _ schemaFeatures: [SchemaFeature]) {
        self.source = source
        missingWays = assembly.report.missingWayCount
        missingNodes = assembly.report.missingNodeCount
        isValid = assembly.isValid
        guard isValid else { return }
        for polygon in assembly.polygons {
            let rings = polygon.map { $0.map(mapPoint) }
            features += placed(schemaFeatures, .polygon(rings), polygon: rings)
        }
    }
}

/// Makes one element's tile features from the schema: the import calls it block by block as the
/// extract is read, an update for each element a change reached, reading the element store. One
/// piece of code for both is what keeps an updated tile equal to a freshly imported one.
struct ElementFeatureMaker: Sendable {
    let schema: OpenMapTilesSchema

    /// How relations take part in tiles.
    enum RelationRole {
        /// A multipolygon or a non-administrative boundary: an area of its own.
        case area
        /// An administrative boundary: lines along its ways (see ``boundaryLine(way:relations:location:)``).
        case boundary
    }

    static func role(ofRelationTagged tags: OSMTags) -> RelationRole? {
        let type = tags.value(for: "type")
        if type == "multipolygon" || (type == "boundary" && tags.value(for: "boundary") != "administrative") { return .area }
        return type == "boundary" ? .boundary : nil
    }

    /// A tagged node's features (nil when the schema has none for it).
    func node(id: Int64, tags: OSMTags, location: OSMLocation) -> ElementFeatures? {
        let features = schema.features(for: tags, kind: .point)
        guard !features.isEmpty else { return nil }
        return ElementFeatures(source: FeatureSource(kind: .node, id: id), features: placed(features, .point(mapPoint(location))), missingNodes: 0)
    }

    /// Whether a way is part of the coastline the sea is made from.
    static func isCoastline(_ way: OSMWay) -> Bool {
        way.tags.contains(where: { $0.key == "natural" && $0.value == "coastline" })
    }

    /// A coastline way with its node locations (and whether the extract cut it at either end).
    static func coastline(_ way: OSMWay, location: (Int64) -> OSMLocation?) -> CoastlineWay {
        CoastlineWay(id: way.id, locations: way.nodeRefs.compactMap(location),
                     cutAtStart: way.nodeRefs.first.map { location($0) == nil } ?? false,
                     cutAtEnd: way.nodeRefs.last.map { location($0) == nil } ?? false)
    }

    /// A tagged way's features: a closed area, or a line (nil when the schema has none for it).
    func way(_ way: OSMWay, location: (Int64) -> OSMLocation?) -> ElementFeatures? {
        let source = FeatureSource(kind: .way, id: way.id)
        let closed = way.nodeRefs.count >= 4 && way.nodeRefs.first == way.nodeRefs.last
        if closed && schema.isArea(way.tags) {
            let features = schema.features(for: way.tags, kind: .area)
            guard !features.isEmpty else { return nil }
            return ElementFeatures(source: source, MultipolygonAssembler().assemble(closedWay: way, location: location), features)
        }
        let features = schema.features(for: way.tags, kind: .line)
        guard !features.isEmpty else { return nil }
        var points: [MKMapPoint] = []
        points.reserveCapacity(way.nodeRefs.count)
        for ref in way.nodeRefs {
            if let location = location(ref) { points.append(mapPoint(location)) }
        }
        return ElementFeatures(source: source, features: points.count >= 2 ? placed(features, .line(points)) : [],
                               missingNodes: way.nodeRefs.count - points.count)
    }

    /// An area relation's features, assembled from its member ways (nil when the schema has none).
    func relation(_ relation: OSMRelation, way: (Int64) -> OSMWay?, location: (Int64) -> OSMLocation?) -> ElementFeatures? {
        let features = schema.features(for: relation.tags, kind: .area)
        guard !features.isEmpty else { return nil }
        let assembly = MultipolygonAssembler().assemble(relation: relation, way: way, location: location)
        return ElementFeatures(source: FeatureSource(kind: .relation, id: relation.id), assembly, features)
    }

    /// The boundary line along `way`, drawn once with the most important admin level of the
    /// administrative boundary `relations` holding it, in id order (the first of equal levels wins).
    func boundaryLine(way: OSMWay, relations: [OSMRelation], location: (Int64) -> OSMLocation?) -> ElementFeatures? {
        let maritime = way.tags.value(for: "maritime") == "yes" || way.tags.value(for: "natural") == "coastline"
        var best: SchemaFeature?
        for relation in relations {
            guard let feature = schema.boundaryFeature(relationTags: relation.tags, maritime: maritime) else { continue }
            if let existing = best, existing.minimumZoom <= feature.minimumZoom { continue }
            best = feature
        }
        guard let best else { return nil }
        let points = way.nodeRefs.compactMap(location).map(mapPoint)
        return ElementFeatures(source: FeatureSource(kind: .boundary, id: way.id), features: points.count >= 2 ? placed([best], .line(points)) : [],
                               missingNodes: 0)
    }

    /// The sea's features from the coastline ways (in id order), closed within `bounds`.
    func sea(_ coastlines: [CoastlineWay], bounds: MKMapRect) -> (features: [ElementFeatures], warnings: [String]) {
        let sea = CoastlineAssembler(bounds: bounds).assemble(coastlines)
        let ocean = schema.oceanFeature
        let features = sea.polygons.enumerated().map { index, polygon in
            ElementFeatures(source: FeatureSource(kind: .sea, id: Int64(index)), features: placed([ocean], .polygon(polygon)), missingNodes: 0)
        }
        return (features, sea.warnings)
    }
}

/// What one block's tagged nodes and ways become: features in element order, and the ways that
/// relations need later. Made on any thread: it only reads the node store, once sealed.
struct BlockFeatures {
    var elements: [ElementFeatures] = []
    var memberWays: [OSMWay] = []
    /// The block's `natural=coastline` ways, for the sea.
    var coastlines: [CoastlineWay] = []

    init() {}

    init(_ block: OSMPrimitiveBlock, maker: ElementFeatureMaker, nodes: NodeLocationStore, neededWays: Set<Int64>) {
        // Nodes straight from the block's columns: most have no tags, and need no Strings.
        let columns = block.nodes
        for i in 0..<columns.count {
            let tagRange = columns.tags.range(of: i)
            guard !tagRange.isEmpty else { continue }
            let tags: OSMTags = tagRange.map { (key: block.strings[columns.tags.keys[$0]], value: block.strings[columns.tags.values[$0]]) }
            if let features = maker.node(id: columns.ids[i], tags: tags, location: columns.locations[i]) { elements.append(features) }
        }
        block.forEachWay { way in
            if neededWays.contains(way.id) { memberWays.append(way) }
            guard !way.tags.isEmpty else { return }
            if ElementFeatureMaker.isCoastline(way) { coastlines.append(ElementFeatureMaker.coastline(way, location: nodes.location(of:))) }
            if let features = maker.way(way, location: nodes.location(of:)) { elements.append(features) }
        }
    }
}
