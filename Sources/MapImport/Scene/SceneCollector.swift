import Foundation
import MapFormats
import MapGeometry
import StreetScene

/// The scene objects of one block: made on any thread, like ``BlockPlaces`` (it only reads the
/// node store, once sealed).
struct BlockScene {
    var objects = SceneObjects()

    init() {}

    init(_ block: OSMPrimitiveBlock, nodes: NodeLocationStore) {
        let columns = block.nodes
        for i in 0..<columns.count {
            let tagRange = columns.tags.range(of: i)
            guard !tagRange.isEmpty else { continue }
            let tags: OSMTags = tagRange.map { (key: block.strings[columns.tags.keys[$0]], value: block.strings[columns.tags.values[$0]]) }
            let location = columns.locations[i]
            objects.points += SceneTagging.points(tags, at: CLLocationCoordinate2D(latitude: location.latitude, longitude: location.longitude))
        }
        block.forEachWay { way in
            guard way.nodeRefs.count >= 2, Self.mayMatter(way.tags) else { return }
            add(way: way, line: way.nodeRefs.compactMap { nodes.location(of: $0) }
                .map { CLLocationCoordinate2D(latitude: $0.latitude, longitude: $0.longitude) })
        }
    }

    /// One tagged way, its nodes' coordinates in `line` (those the extract has).
    mutating func add(way: OSMWay, line: [CLLocationCoordinate2D]) {
        let tags = way.tags
        // A ring with nodes the extract lacks (cut at its edge) is no longer a ring: such a way
        // gives no building or area rather than a polygon with a wrong edge.
        let closed = way.nodeRefs.count >= 4 && way.nodeRefs.first == way.nodeRefs.last && line.count == way.nodeRefs.count
        if closed, SceneTagging.isBuilding(tags) {
            if let building = SceneTagging.building(tags, rings: [line]) { objects.buildings.append(building) }
            addCentrePoints(tags, rings: [line])
            return
        }
        if closed, tags.value(for: "area") != "no", let kind = SceneTagging.areaKind(tags) {
            objects.areas.append(SceneArea(rings: [line], kind: kind, name: tags.value(for: "name")))
        }
        if let road = SceneTagging.road(tags, line: line) {
            objects.roads.append(road)
        } else if closed, SceneTagging.businessCategory(tags) != nil {
            addCentrePoints(tags, rings: [line])
        }
        if tags.value(for: "natural") == "tree_row" {
            objects.points += SceneTagging.treeRow(line, height: SceneTagging.metres(tags.value(for: "height")))
        }
    }

    /// A multipolygon's objects: a building per polygon, or an area per polygon.
    mutating func add(relationTags tags: OSMTags, polygons: [[[CLLocationCoordinate2D]]]) {
        if SceneTagging.isBuilding(tags) {
            for rings in polygons {
                if let building = SceneTagging.building(tags, rings: rings) { objects.buildings.append(building) }
            }
            if let largest = polygons.max(by: { $0.first?.count ?? 0 < $1.first?.count ?? 0 }) { addCentrePoints(tags, rings: largest) }
            return
        }
        if let kind = SceneTagging.areaKind(tags) {
            for rings in polygons { objects.areas.append(SceneArea(rings: rings, kind: kind, name: tags.value(for: "name"))) }
        }
        if SceneTagging.businessCategory(tags) != nil,
           let largest = polygons.max(by: { $0.first?.count ?? 0 < $1.first?.count ?? 0 }) {
            addCentrePoints(tags, rings: largest)
        }
    }

    private mutating func addCentrePoints(_ tags: OSMTags, rings: [[CLLocationCoordinate2D]]) {
        guard tags.value(for: "addr:housenumber") != nil || SceneTagging.businessCategory(tags) != nil,
              let centre = SceneTagging.centre(of: rings) else { return }
        objects.points += SceneTagging.centrePoints(tags, at: centre)
    }

    /// The keys of every tag that can make a way part of the scene.
    private static let sceneKeys: Set<String> = [
        "building", "building:part", "highway", "railway", "natural", "leisure", "landuse", "water", "waterway", "amenity",
        "place", "shop", "office", "tourism", "craft",
    ]

    /// Whether a way's tags can give anything: most tagged ways (boundaries, power lines, walls)
    /// give nothing, and are passed over before their nodes are looked up.
    static func mayMatter(_ tags: OSMTags) -> Bool {
        tags.contains { sceneKeys.contains($0.key) }
    }

    /// Whether a multipolygon relation with `tags` holds anything for the scene (worth assembling).
    static func wants(relationTags tags: OSMTags) -> Bool {
        SceneTagging.isBuilding(tags) || SceneTagging.areaKind(tags) != nil || SceneTagging.businessCategory(tags) != nil
    }
}

/// Collects the street scene during the import's passes and writes `scene.sqlite`: objects go to
/// the ``StreetSceneWriter`` as each batch of blocks is read, multipolygons in phase 3, and
/// ``finish()`` marks the outlines that have `building:part`s inside them.
final class SceneCollector {
    let url: URL
    private let writer: StreetSceneWriter

    init(url: URL) throws {
        self.url = url
        do { writer = try StreetSceneWriter(url: url) } catch { throw ImportError.destination("\(error)") }
    }

    func add(_ block: BlockScene) throws {
        do { try writer.add(block.objects) } catch { throw ImportError.destination("\(error)") }
    }

    /// A multipolygon relation, once assembled.
    func add(relation: OSMRelation, assembly: AreaAssembly) throws {
        guard assembly.isValid else { return }
        let polygons = assembly.polygons.map { polygon in
            polygon.map { ring in ring.map { CLLocationCoordinate2D(latitude: $0.latitude, longitude: $0.longitude) } }
        }
        var scene = BlockScene()
        scene.add(relationTags: relation.tags, polygons: polygons)
        try add(scene)
    }

    /// Marks outlines with parts, records the counts and closes the file.
    func finish() throws {
        do { try writer.finish() } catch { throw ImportError.destination("\(error)") }
    }

    var buildingCount: Int { writer.buildingCount }
    var roadCount: Int { writer.roadCount }
    var areaCount: Int { writer.areaCount }
    var pointCount: Int { writer.pointCount }
}
