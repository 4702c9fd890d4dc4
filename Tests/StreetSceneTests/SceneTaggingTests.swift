import Foundation
import MapFormats
import MapGeometry
@testable import MapImport
import StreetScene
import XCTest

/// OpenStreetMap tags → scene objects.
final class SceneTaggingTests: XCTestCase {
    private let ring = [CLLocationCoordinate2D(latitude: 43.0, longitude: 7.0), CLLocationCoordinate2D(latitude: 43.0, longitude: 7.0002),
                        CLLocationCoordinate2D(latitude: 43.0002, longitude: 7.0002), CLLocationCoordinate2D(latitude: 43.0002, longitude: 7.0),
                        CLLocationCoordinate2D(latitude: 43.0, longitude: 7.0)]

    private func building(_ tags: OSMTags) throws -> SceneBuilding {
        try XCTUnwrap(SceneTagging.building(tags, rings: [ring]), "\(tags)")
    }

    func testLengthsInUnits() throws {
        XCTAssertEqual(SceneTagging.metres("12"), 12)
        XCTAssertEqual(SceneTagging.metres("12 m"), 12)
        XCTAssertEqual(SceneTagging.metres("12.5m"), 12.5)
        XCTAssertEqual(SceneTagging.metres("12,5"), 12.5)
        XCTAssertEqual(SceneTagging.metres(" 7 metres "), 7)
        XCTAssertEqual(try XCTUnwrap(SceneTagging.metres("40'")), 12.192, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(SceneTagging.metres("12'6\"")), 12 * 0.3048 + 6 * 0.0254, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(SceneTagging.metres("30 ft")), 9.144, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(SceneTagging.metres("350 cm")), 3.5, accuracy: 1e-9)
        for bad in ["", "tall", "12 storeys", "nan", "inf", "1e400", "'", "3'x\"", "m"] {
            XCTAssertNil(SceneTagging.metres(bad), bad)
        }
    }

    func testHeightsFromTagsLevelsAndKinds() throws {
        XCTAssertEqual(try building([("building", "yes"), ("height", "40'")]).height, 12.192, accuracy: 1e-9)
        XCTAssertEqual(try building([("building", "yes"), ("height", "21.5 m")]).height, 21.5)
        // Levels: 3 m each, roof levels on top.
        let levels = try building([("building", "apartments"), ("building:levels", "5")])
        XCTAssertEqual(levels.height, 15)
        XCTAssertEqual(levels.levels, 5)
        XCTAssertEqual(try building([("building", "apartments"), ("building:levels", "5"), ("roof:levels", "1"), ("roof:shape", "gabled")]).height, 18)
        XCTAssertEqual(try building([("building", "yes"), ("building:levels", "4"), ("roof:shape", "hipped")]).height, 15)
        // Defaults by kind when nothing is tagged.
        XCTAssertEqual(try building([("building", "house")]).height, 6)
        XCTAssertEqual(try building([("building", "apartments")]).height, 12)
        XCTAssertEqual(try building([("building", "church")]).height, 15)
        XCTAssertEqual(try building([("building", "garage")]).height, 3)
        XCTAssertEqual(try building([("building", "shed")]).height, 3)
        XCTAssertEqual(try building([("building", "yes")]).height, 8)
        XCTAssertLessThan(try building([("building", "house")]).height, try building([("building", "apartments")]).height)
        // A nonsense height falls back to levels, absurd ones too.
        XCTAssertEqual(try building([("building", "yes"), ("height", "very"), ("building:levels", "2")]).height, 6)
        XCTAssertEqual(try building([("building", "yes"), ("height", "1e9"), ("building:levels", "2")]).height, 6)
        XCTAssertEqual(try building([("building", "yes"), ("building:levels", "9999")]).height, 8)
        XCTAssertNil(try building([("building", "yes"), ("building:levels", "9999")]).levels)
        XCTAssertEqual(try building([("building", "yes"), ("height", "-5")]).height, 8)
        let hostile = try building([("building", "yes"), ("min_height", "1e300"), ("roof:height", "inf"), ("roof:shape", "gabled")])
        XCTAssertEqual(hostile.minHeight, 0)
        XCTAssertEqual(hostile.roofHeight, 3)
        // Bottoms.
        XCTAssertEqual(try building([("building:part", "yes"), ("height", "30"), ("min_height", "12 m")]).minHeight, 12)
        XCTAssertEqual(try building([("building:part", "yes"), ("building:levels", "6"), ("building:min_level", "2")]).minHeight, 6)
        XCTAssertEqual(try building([("building", "yes"), ("height", "10"), ("min_height", "20")]).minHeight, 0, "a bottom above the top is ignored")
        let part = try building([("building:part", "tower"), ("height", "50")])
        XCTAssertTrue(part.isPart)
        XCTAssertEqual(part.kind, "tower")
        XCTAssertNil(SceneTagging.building([("building", "no")], rings: [ring]))
        XCTAssertNil(SceneTagging.building([("building:part", "no")], rings: [ring]))
        XCTAssertNil(SceneTagging.building([("amenity", "cafe")], rings: [ring]))
    }

    func testRoofs() throws {
        let shapes: [(String, RoofShape)] = [("flat", .flat), ("gabled", .gabled), ("hipped", .hipped), ("pyramidal", .pyramidal),
                                             ("skillion", .skillion), ("dome", .dome), ("onion", .onion), ("round", .round),
                                             ("half-hipped", .halfHipped), ("gambrel", .gambrel), ("mansard", .mansard), ("cone", .cone),
                                             ("zigzag", .flat)]
        for (value, shape) in shapes {
            XCTAssertEqual(try building([("building", "yes"), ("roof:shape", value)]).roofShape, shape, value)
        }
        XCTAssertEqual(try building([("building", "yes")]).roofHeight, 0)
        XCTAssertEqual(try building([("building", "yes"), ("roof:shape", "gabled")]).roofHeight, 3)
        XCTAssertEqual(try building([("building", "yes"), ("roof:shape", "pyramidal")]).roofHeight, 3)
        XCTAssertEqual(try building([("building", "yes"), ("roof:shape", "gabled"), ("roof:height", "4.5 m")]).roofHeight, 4.5)
        XCTAssertEqual(try building([("building", "yes"), ("roof:shape", "gabled"), ("roof:levels", "2")]).roofHeight, 6)
        XCTAssertEqual(try building([("building", "yes"), ("height", "5"), ("roof:height", "9")]).roofHeight, 5, "a roof is no taller than the building")
        XCTAssertEqual(try building([("building", "yes"), ("roof:direction", "135")]).roofDirection, 135)
        XCTAssertEqual(try building([("building", "yes"), ("roof:direction", "-90")]).roofDirection, 270)
        XCTAssertNil(try building([("building", "yes"), ("roof:direction", "up")]).roofDirection)
        XCTAssertNil(try building([("building", "yes")]).roofDirection)
        let compass: [(String, Double)] = [("N", 0), ("NNE", 22.5), ("NE", 45), ("E", 90), ("SE", 135), ("S", 180), ("sw", 225), ("W", 270), ("NNW", 337.5)]
        for (value, degrees) in compass { XCTAssertEqual(SceneTagging.direction(value), degrees, value) }
        XCTAssertTrue(try building([("building", "yes"), ("roof:orientation", "across")]).roofAcross)
        XCTAssertFalse(try building([("building", "yes"), ("roof:orientation", "along")]).roofAcross)
    }

    func testColoursByNameAndHex() throws {
        XCTAssertEqual(SceneColours.parse("white"), SceneColour(red: 255, green: 255, blue: 255))
        XCTAssertEqual(SceneColours.parse("Light Grey"), SceneColour(red: 0xD3, green: 0xD3, blue: 0xD3))
        XCTAssertEqual(SceneColours.parse("dark_red"), SceneColour(red: 0x8B, green: 0, blue: 0))
        XCTAssertEqual(SceneColours.parse("burlywood"), SceneColour(red: 0xDE, green: 0xB8, blue: 0x87))
        XCTAssertEqual(SceneColours.parse("#fa8072"), SceneColour(red: 0xFA, green: 0x80, blue: 0x72))
        XCTAssertEqual(SceneColours.parse("#F0A"), SceneColour(red: 0xFF, green: 0, blue: 0xAA))
        XCTAssertEqual(SceneColours.parse("white;red"), SceneColour(red: 255, green: 255, blue: 255))
        for bad in ["", "#12", "#12345", "#ggg", "brick-ish", "blanc", "#1234567"] { XCTAssertNil(SceneColours.parse(bad), bad) }
        XCTAssertEqual(SceneColours.parse("rebeccapurple"), SceneColour(red: 0x66, green: 0x33, blue: 0x99), "CSS Color 4's newest name")
        XCTAssertEqual(SceneColours.parse("rgb(10, 20, 30)"), SceneColour(red: 10, green: 20, blue: 30))
        XCTAssertEqual(SceneColours.parse("fa8072"), SceneColour(red: 0xFA, green: 0x80, blue: 0x72), "six digits without the #")
        XCTAssertNil(SceneColours.parse("transparent"))
        let b = try building([("building", "yes"), ("building:colour", "beige"), ("roof:colour", "#800000"),
                              ("building:material", "stone"), ("roof:material", "roof_tiles"), ("name", "Villa"), ("addr:housenumber", "12")])
        XCTAssertEqual(b.wallColour, SceneColour(red: 0xF5, green: 0xF5, blue: 0xDC))
        XCTAssertEqual(b.roofColour, SceneColour(red: 0x80, green: 0, blue: 0))
        XCTAssertEqual(b.wallMaterial, "stone")
        XCTAssertEqual(b.roofMaterial, "roof_tiles")
        XCTAssertEqual(b.name, "Villa")
        XCTAssertEqual(b.houseNumber, "12")
        XCTAssertEqual(try building([("building", "yes"), ("colour", "red")]).wallColour, SceneColour(red: 255, green: 0, blue: 0))
        XCTAssertNil(try building([("building", "yes"), ("building:colour", "sort of pink")]).wallColour)
    }

    private let line = [CLLocationCoordinate2D(latitude: 43.0, longitude: 7.0), CLLocationCoordinate2D(latitude: 43.001, longitude: 7.0)]

    func testRoads() throws {
        let road = try XCTUnwrap(SceneTagging.road([("highway", "secondary"), ("name", "Boulevard des Moulins"), ("width", "9 m"),
                                                    ("lanes", "2"), ("oneway", "yes"), ("layer", "1"), ("bridge", "yes")], line: line))
        XCTAssertEqual(road.kind, .secondary)
        XCTAssertEqual(road.name, "Boulevard des Moulins")
        XCTAssertEqual(road.width, 9)
        XCTAssertEqual(road.lanes, 2)
        XCTAssertTrue(road.isOneway)
        XCTAssertEqual(road.layer, 1)
        XCTAssertTrue(road.isBridge)
        XCTAssertFalse(road.isTunnel)
        let kinds: [(String, SceneRoadKind)] = [("motorway_link", .motorway), ("trunk", .trunk), ("primary", .primary), ("tertiary", .tertiary),
                                                ("residential", .residential), ("unclassified", .unclassified), ("service", .service),
                                                ("living_street", .livingStreet), ("pedestrian", .pedestrian), ("footway", .footway),
                                                ("path", .path), ("cycleway", .cycleway), ("steps", .steps), ("track", .track)]
        for (value, kind) in kinds { XCTAssertEqual(SceneTagging.road([("highway", value)], line: line)?.kind, kind, value) }
        XCTAssertNil(SceneTagging.road([("highway", "proposed")], line: line))
        XCTAssertNil(SceneTagging.road([("highway", "pedestrian"), ("area", "yes")], line: line))
        XCTAssertNil(SceneTagging.road([("highway", "primary")], line: [line[0]]))
        let tunnel = try XCTUnwrap(SceneTagging.road([("highway", "primary"), ("tunnel", "yes"), ("layer", "-1")], line: line))
        XCTAssertTrue(tunnel.isTunnel)
        XCTAssertEqual(tunnel.layer, -1)
        XCTAssertEqual(SceneTagging.road([("railway", "rail")], line: line)?.kind, .railway)
        XCTAssertEqual(SceneTagging.road([("railway", "narrow_gauge")], line: line)?.kind, .railway)
        XCTAssertNil(SceneTagging.road([("railway", "abandoned")], line: line))
        let tram = try XCTUnwrap(SceneTagging.road([("railway", "tram")], line: line))
        XCTAssertEqual(tram.kind, .tram)
        XCTAssertTrue(tram.hasTramRails)
        let street = try XCTUnwrap(SceneTagging.road([("highway", "tertiary"), ("embedded_rails", "tram")], line: line))
        XCTAssertEqual(street.kind, .tertiary)
        XCTAssertTrue(street.hasTramRails)
        XCTAssertFalse(try XCTUnwrap(SceneTagging.road([("highway", "tertiary")], line: line)).hasTramRails)
        XCTAssertTrue(try XCTUnwrap(SceneTagging.road([("highway", "primary"), ("junction", "roundabout")], line: line)).isOneway)
        XCTAssertTrue(try XCTUnwrap(SceneTagging.road([("highway", "primary"), ("oneway", "-1")], line: line)).isOneway)
        XCTAssertFalse(try XCTUnwrap(SceneTagging.road([("highway", "primary"), ("oneway", "no")], line: line)).isOneway)
        XCTAssertNil(try XCTUnwrap(SceneTagging.road([("highway", "primary"), ("width", "wide"), ("lanes", "many")], line: line)).width)
    }

    func testSidewalks() throws {
        func sides(_ tags: OSMTags) -> SidewalkSides? { SceneTagging.road([("highway", "residential")] + tags, line: line)?.sidewalks }
        XCTAssertEqual(sides([("sidewalk", "both")]), .both)
        XCTAssertEqual(sides([("sidewalk", "left")]), .left)
        XCTAssertEqual(sides([("sidewalk", "right")]), .right)
        XCTAssertEqual(sides([("sidewalk", "no")]), [])
        XCTAssertEqual(sides([("sidewalk", "separate")]), [], "a separately mapped sidewalk is drawn from its own way")
        XCTAssertEqual(sides([]), [])
        XCTAssertEqual(sides([("sidewalk:both", "yes")]), .both)
        XCTAssertEqual(sides([("sidewalk:left", "yes"), ("sidewalk:right", "no")]), .left)
        XCTAssertEqual(sides([("sidewalk:right", "yes")]), .right)
        XCTAssertEqual(sides([("sidewalk", "both"), ("sidewalk:left", "separate")]), .right)
    }

    func testAreas() {
        let kinds: [(OSMTags, SceneAreaKind?)] = [
            ([("leisure", "park")], .park), ([("leisure", "garden")], .garden), ([("leisure", "pitch")], .pitch),
            ([("leisure", "playground")], .playground), ([("landuse", "grass")], .grass), ([("landuse", "meadow")], .grass),
            ([("landuse", "village_green")], .grass), ([("landuse", "forest")], .wood), ([("natural", "wood")], .wood),
            ([("landuse", "farmland")], .farmland), ([("landuse", "cemetery")], .cemetery), ([("landuse", "railway")], .railway),
            ([("natural", "scrub")], .scrub), ([("natural", "water")], .water), ([("water", "pond")], .water),
            ([("waterway", "riverbank")], .water), ([("natural", "beach")], .beach), ([("natural", "sand")], .sand),
            ([("amenity", "parking")], .parking), ([("amenity", "parking"), ("parking", "surface")], .parking),
            ([("amenity", "parking"), ("parking", "underground")], nil),
            ([("highway", "pedestrian"), ("area", "yes")], .pedestrian), ([("area", "yes"), ("highway", "pedestrian")], .pedestrian),
            ([("highway", "pedestrian")], nil), ([("place", "square")], .pedestrian), ([("landuse", "residential")], nil), ([], nil),
        ]
        for (tags, kind) in kinds { XCTAssertEqual(SceneTagging.areaKind(tags), kind, "\(tags)") }
    }

    private let here = CLLocationCoordinate2D(latitude: 43.7396, longitude: 7.4276)

    func testStreetFurnitureOnNodes() throws {
        let kinds: [(OSMTags, ScenePointKind)] = [
            ([("natural", "tree")], .tree), ([("highway", "street_lamp")], .streetLamp), ([("amenity", "bench")], .bench),
            ([("highway", "bus_stop")], .busStop), ([("public_transport", "platform"), ("bus", "yes")], .busStop),
            ([("amenity", "waste_basket")], .wasteBasket), ([("barrier", "bollard")], .bollard), ([("amenity", "fountain")], .fountain),
            ([("amenity", "post_box")], .postBox), ([("entrance", "main")], .entrance), ([("highway", "crossing")], .crossing),
        ]
        for (tags, kind) in kinds { XCTAssertEqual(SceneTagging.points(tags, at: here).map(\.kind), [kind], "\(tags)") }
        XCTAssertTrue(SceneTagging.points([("public_transport", "platform")], at: here).isEmpty, "a platform for trains only")
        XCTAssertTrue(SceneTagging.points([("entrance", "no")], at: here).isEmpty)
        XCTAssertTrue(SceneTagging.points([("amenity", "bench"), ("name", "Bench")], at: here).allSatisfy { $0.kind != .business })
        let stop = try XCTUnwrap(SceneTagging.points([("highway", "bus_stop"), ("name", "Casino")], at: here).first)
        XCTAssertEqual(stop.name, "Casino")
        let tree = try XCTUnwrap(SceneTagging.points([("natural", "tree"), ("height", "14 m")], at: here).first)
        XCTAssertEqual(tree.height, 14)
        XCTAssertFalse(tree.isFromBuilding)
    }

    func testBusinessesAndHouseNumbersOnNodes() throws {
        let cafe = SceneTagging.points([("amenity", "cafe"), ("name", "Café de Paris"), ("addr:housenumber", "1")], at: here)
        XCTAssertEqual(cafe.map(\.kind), [.business, .houseNumber])
        XCTAssertEqual(cafe[0].name, "Café de Paris")
        XCTAssertEqual(cafe[0].category, "amenity=cafe")
        XCTAssertFalse(cafe[0].isFromBuilding)
        XCTAssertEqual(cafe[1].name, "1")
        XCTAssertEqual(SceneTagging.points([("shop", "bakery"), ("name", "Boulangerie")], at: here).first?.category, "shop=bakery")
        XCTAssertEqual(SceneTagging.points([("office", "lawyer"), ("name", "Cabinet")], at: here).first?.category, "office=lawyer")
        XCTAssertEqual(SceneTagging.points([("tourism", "hotel"), ("name", "Hôtel de Paris")], at: here).first?.category, "tourism=hotel")
        XCTAssertEqual(SceneTagging.points([("craft", "jeweller"), ("name", "Atelier")], at: here).first?.category, "craft=jeweller")
        XCTAssertEqual(SceneTagging.points([("amenity", "pharmacy"), ("name", "Pharmacie")], at: here).first?.category, "amenity=pharmacy")
        XCTAssertTrue(SceneTagging.points([("shop", "bakery")], at: here).isEmpty, "a shop without a name has no sign")
        XCTAssertTrue(SceneTagging.points([("tourism", "viewpoint"), ("name", "Belvédère")], at: here).isEmpty)
        XCTAssertEqual(SceneTagging.points([("addr:housenumber", "7")], at: here).map(\.name), ["7"])
    }

    /// A building way's shop and number stand at its centre, marked as the building's.
    func testBusinessesAndNumbersOnBuildings() throws {
        var scene = BlockScene()
        let way = OSMWay(id: 1, nodeRefs: [1, 2, 3, 4, 1], tags: [("building", "retail"), ("shop", "supermarket"), ("name", "Carrefour"),
                                                                  ("addr:housenumber", "20")])
        scene.add(way: way, line: ring)
        XCTAssertEqual(scene.objects.buildings.count, 1)
        XCTAssertEqual(scene.objects.buildings.first?.name, "Carrefour")
        XCTAssertEqual(scene.objects.points.map(\.kind), [.business, .houseNumber])
        for point in scene.objects.points {
            XCTAssertTrue(point.isFromBuilding)
            XCTAssertEqual(point.coordinate.latitude, 43.0001, accuracy: 0.00003)
            XCTAssertEqual(point.coordinate.longitude, 7.0001, accuracy: 0.00003)
        }
        XCTAssertEqual(scene.objects.points.first?.name, "Carrefour")
        XCTAssertEqual(scene.objects.points.first?.category, "shop=supermarket")
        XCTAssertEqual(scene.objects.points.last?.name, "20")
        // A building without either has no points; an open building way is no building.
        var plain = BlockScene()
        plain.add(way: OSMWay(id: 2, nodeRefs: [1, 2, 3, 4, 1], tags: [("building", "yes")]), line: ring)
        plain.add(way: OSMWay(id: 3, nodeRefs: [1, 2, 3], tags: [("building", "yes")]), line: Array(ring.prefix(3)))
        XCTAssertEqual(plain.objects.buildings.count, 1)
        XCTAssertTrue(plain.objects.points.isEmpty)
        // A park way is an area; a closed footway is a road.
        var other = BlockScene()
        other.add(way: OSMWay(id: 4, nodeRefs: [1, 2, 3, 4, 1], tags: [("leisure", "park"), ("name", "Jardin")]), line: ring)
        other.add(way: OSMWay(id: 5, nodeRefs: [1, 2, 3, 4, 1], tags: [("highway", "footway")]), line: ring)
        XCTAssertEqual(other.objects.areas.map(\.kind), [.park])
        XCTAssertEqual(other.objects.roads.map(\.kind), [.footway])
    }

    func testTreeRowsAreSpacedAlongTheLine() throws {
        // 0.0009° of latitude ≈ 100 m: 13 intervals of about 7.7 m, 14 trees, the ends included.
        let row = [CLLocationCoordinate2D(latitude: 43.0, longitude: 7.0), CLLocationCoordinate2D(latitude: 43.00045, longitude: 7.0),
                   CLLocationCoordinate2D(latitude: 43.0009, longitude: 7.0)]
        let length = MKMapPoint(row[0]).distance(to: MKMapPoint(row[2]))
        let trees = SceneTagging.treeRow(row, height: 9)
        XCTAssertEqual(trees.count, Int((length / 8).rounded()) + 1)
        XCTAssertGreaterThan(trees.count, 10)
        XCTAssertEqual(trees.first?.coordinate.latitude, 43.0)
        XCTAssertEqual(try XCTUnwrap(trees.last).coordinate.latitude, 43.0009, accuracy: 1e-9)
        for (a, b) in zip(trees, trees.dropFirst()) {
            let gap = MKMapPoint(a.coordinate).distance(to: MKMapPoint(b.coordinate))
            XCTAssertEqual(gap, 8, accuracy: 0.7)
        }
        XCTAssertTrue(trees.allSatisfy { $0.kind == .tree && $0.height == 9 })
        XCTAssertEqual(SceneTagging.treeRow([row[0]]).count, 1)
        XCTAssertEqual(SceneTagging.treeRow([row[0], row[0]]).count, 1)
        XCTAssertTrue(SceneTagging.treeRow([]).isEmpty)
        var scene = BlockScene()
        scene.add(way: OSMWay(id: 9, nodeRefs: [1, 2, 3], tags: [("natural", "tree_row")]), line: row)
        XCTAssertEqual(scene.objects.points.count, trees.count)
    }
}
