// What a street looks like in three dimensions, as OpenStreetMap describes it: the objects a
// Look Around scene is drawn from. The import reads them from tags (MapImport's Scene/ folder) and
// writes them with `StreetSceneWriter`; the renderer reads them back by area with `StreetSceneFile`.
// Kept as OpenStreetMap says it, in degrees and metres: how a gabled roof or a tree is built from
// these is the renderer's business, so a better renderer needs no re-import.

import MapGeometry

/// An sRGB colour from a `*:colour` tag (a name or #rrggbb).
public struct SceneColour: Hashable, Sendable {
    public var red: UInt8, green: UInt8, blue: UInt8
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }
}

/// OSM's `roof:shape` values the renderer can build; others are drawn flat.
public enum RoofShape: UInt8, Sendable, CaseIterable {
    case flat, gabled, hipped, pyramidal, skillion, dome, onion, round, halfHipped, gambrel, mansard, cone
}

/// A building or a `building:part`: footprint rings (the outer ring first, then holes), extruded
/// from `minHeight` to `height` above the ground, with its roof inside the top `roofHeight` metres.
public struct SceneBuilding: Sendable {
    public var rings: [[CLLocationCoordinate2D]]
    /// Metres from the ground to the top of the roof (`height`, else from levels, else a default by kind).
    public var height: Double
    /// Metres from the ground to the bottom of the walls (`min_height`, else from `building:min_level`).
    public var minHeight: Double
    /// `building:levels` above ground, when tagged (windows are drawn per level).
    public var levels: Int?
    public var roofShape: RoofShape
    /// Metres of `height` taken by the roof (`roof:height`, else from `roof:levels`, else a default by shape).
    public var roofHeight: Double
    /// `roof:direction` in degrees clockwise from north, when tagged.
    public var roofDirection: Double?
    /// True when `roof:orientation=across`: the ridge runs across the longest side.
    public var roofAcross: Bool
    public var wallColour: SceneColour?
    public var roofColour: SceneColour?
    /// `building:material` and `roof:material` (brick, glass, concrete, tiles, …), as tagged.
    public var wallMaterial: String?
    public var roofMaterial: String?
    /// The `building` (or `building:part`) value: house, apartments, church, yes, …
    public var kind: String
    /// True for a `building:part` (drawn; the building outline it belongs to is not drawn where parts cover it).
    public var isPart: Bool
    /// True for an outline that has parts inside it (drawn only where no part stands).
    public var hasParts: Bool
    public var name: String?
    public var houseNumber: String?

    public init(rings: [[CLLocationCoordinate2D]], height: Double, minHeight: Double = 0, levels: Int? = nil,
                roofShape: RoofShape = .flat, roofHeight: Double = 0, roofDirection: Double? = nil, roofAcross: Bool = false,
                wallColour: SceneColour? = nil, roofColour: SceneColour? = nil, wallMaterial: String? = nil, roofMaterial: String? = nil,
                kind: String = "yes", isPart: Bool = false, hasParts: Bool = false, name: String? = nil, houseNumber: String? = nil) {
        self.rings = rings
        self.height = height
        self.minHeight = minHeight
        self.levels = levels
        self.roofShape = roofShape
        self.roofHeight = roofHeight
        self.roofDirection = roofDirection
        self.roofAcross = roofAcross
        self.wallColour = wallColour
        self.roofColour = roofColour
        self.wallMaterial = wallMaterial
        self.roofMaterial = roofMaterial
        self.kind = kind
        self.isPart = isPart
        self.hasParts = hasParts
        self.name = name
        self.houseNumber = houseNumber
    }
}

/// What kind of way a road or path is, by how it is drawn.
public enum SceneRoadKind: UInt8, Sendable, CaseIterable {
    case motorway, trunk, primary, secondary, tertiary, residential, unclassified, service, livingStreet
    case pedestrian, footway, path, cycleway, steps, track, railway, tram
}

/// The sides of a road that have a sidewalk (`sidewalk=both|left|right|no`).
public struct SidewalkSides: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let left = SidewalkSides(rawValue: 1)
    public static let right = SidewalkSides(rawValue: 2)
    public static let both: SidewalkSides = [.left, .right]
}

/// A road, path or track: its centre line and how wide it is.
public struct SceneRoad: Sendable {
    public var line: [CLLocationCoordinate2D]
    public var kind: SceneRoadKind
    /// Metres of carriageway (`width`), when tagged.
    public var width: Double?
    /// `lanes`, when tagged.
    public var lanes: Int?
    public var sidewalks: SidewalkSides
    public var isOneway: Bool
    /// `layer`, and whether it is a bridge or a tunnel (tunnels are not drawn at street level).
    public var layer: Int
    public var isBridge: Bool
    public var isTunnel: Bool
    public var name: String?
    /// Tram rails laid in the carriageway (`embedded_rails=tram`, or `railway=tram` on the road).
    public var hasTramRails: Bool

    public init(line: [CLLocationCoordinate2D], kind: SceneRoadKind, width: Double? = nil, lanes: Int? = nil,
                sidewalks: SidewalkSides = [], isOneway: Bool = false, layer: Int = 0, isBridge: Bool = false,
                isTunnel: Bool = false, name: String? = nil, hasTramRails: Bool = false) {
        self.line = line
        self.kind = kind
        self.width = width
        self.lanes = lanes
        self.sidewalks = sidewalks
        self.isOneway = isOneway
        self.layer = layer
        self.isBridge = isBridge
        self.isTunnel = isTunnel
        self.name = name
        self.hasTramRails = hasTramRails
    }
}

/// What covers an area of ground.
public enum SceneAreaKind: UInt8, Sendable, CaseIterable {
    case park, grass, garden, wood, scrub, water, beach, sand, pedestrian, parking, pitch, playground, farmland, cemetery, railway
}

/// An area of ground cover (rings: the outer ring first, then holes).
public struct SceneArea: Sendable {
    public var rings: [[CLLocationCoordinate2D]]
    public var kind: SceneAreaKind
    public var name: String?
    public init(rings: [[CLLocationCoordinate2D]], kind: SceneAreaKind, name: String? = nil) {
        self.rings = rings
        self.kind = kind
        self.name = name
    }
}

/// What stands at a point.
public enum ScenePointKind: UInt8, Sendable, CaseIterable {
    /// `natural=tree` (and each tree of a `tree_row`, spaced along it).
    case tree
    case streetLamp, bench, busStop, wasteBasket, bollard, fountain, postBox
    /// A building entrance (`entrance=*`).
    case entrance
    /// A pedestrian crossing on a road (`highway=crossing`).
    case crossing
    /// A named shop, amenity, office or tourism place (its sign shows `name`; `category` is the
    /// tag, as `shop=bakery`).
    case business
    /// An address point (`addr:housenumber` on a node or the centre of a building): `name` is the number.
    case houseNumber
}

/// Something that stands at a point: a tree, a lamp, a shop's sign.
public struct ScenePoint: Sendable {
    public var coordinate: CLLocationCoordinate2D
    public var kind: ScenePointKind
    /// The text shown on it: a business's name, a house number, a bus stop's name.
    public var name: String?
    /// The tag that made it a business, as `shop=bakery` or `amenity=cafe`.
    public var category: String?
    /// Metres tall, when tagged (`height` on a tree).
    public var height: Double?
    /// True when the point was a building's (its centre), not a node of its own.
    public var isFromBuilding: Bool

    public init(coordinate: CLLocationCoordinate2D, kind: ScenePointKind, name: String? = nil, category: String? = nil,
                height: Double? = nil, isFromBuilding: Bool = false) {
        self.coordinate = coordinate
        self.kind = kind
        self.name = name
        self.category = category
        self.height = height
        self.isFromBuilding = isFromBuilding
    }
}

/// The objects of a scene's surroundings, as read back from a scene file for an area.
public struct SceneObjects: Sendable {
    public var buildings: [SceneBuilding] = []
    public var roads: [SceneRoad] = []
    public var areas: [SceneArea] = []
    public var points: [ScenePoint] = []
    public init(buildings: [SceneBuilding] = [], roads: [SceneRoad] = [], areas: [SceneArea] = [], points: [ScenePoint] = []) {
        self.buildings = buildings
        self.roads = roads
        self.areas = areas
        self.points = points
    }
    public var isEmpty: Bool { buildings.isEmpty && roads.isEmpty && areas.isEmpty && points.isEmpty }
}
