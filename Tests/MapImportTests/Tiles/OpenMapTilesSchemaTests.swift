import Foundation
import MapFormats
import TestSupport
import XCTest
@testable import MapImport

final class OpenMapTilesSchemaTests: XCTestCase {
    let schema = OpenMapTilesSchema()

    private func features(_ tags: [(String, String)], _ kind: OSMGeometryKind) -> [SchemaFeature] {
        schema.features(for: tags.map { (key: $0.0, value: $0.1) }, kind: kind)
    }

    private func string(_ feature: SchemaFeature?, _ key: String) -> String? {
        if case .string(let s)? = feature?.attribute(key) { return s }
        return nil
    }

    private func int(_ feature: SchemaFeature?, _ key: String) -> Int64? {
        if case .int(let i)? = feature?.attribute(key) { return i }
        return nil
    }

    func testRoads() {
        let primary = features([("highway", "primary"), ("name", "Boulevard Albert 1er"), ("ref", "D6098"), ("oneway", "yes"), ("bridge", "yes")], .line)
        let road = primary.first { $0.layer == .transportation }
        XCTAssertEqual(string(road, "class"), "primary")
        XCTAssertEqual(road?.minimumZoom, 7)
        XCTAssertEqual(int(road, "oneway"), 1)
        XCTAssertEqual(string(road, "brunnel"), "bridge")
        let name = primary.first { $0.layer == .transportationName }
        XCTAssertEqual(string(name, "name"), "Boulevard Albert 1er")
        XCTAssertEqual(string(name, "ref"), "D6098")
        XCTAssertEqual(int(name, "ref_length"), 5)
        XCTAssertEqual(string(name, "class"), "primary")

        let ramp = features([("highway", "motorway_link")], .line).first
        XCTAssertEqual(string(ramp, "class"), "motorway")
        XCTAssertEqual(int(ramp, "ramp"), 1)
        XCTAssertEqual(ramp?.minimumZoom, 9)
        let footway = features([("highway", "footway"), ("surface", "gravel")], .line).first
        XCTAssertEqual(string(footway, "class"), "path")
        XCTAssertEqual(string(footway, "subclass"), "footway")
        XCTAssertEqual(string(footway, "surface"), "unpaved")
        XCTAssertEqual(string(features([("railway", "tram")], .line).first, "class"), "transit")
        XCTAssertEqual(int(features([("highway", "residential"), ("oneway", "-1")], .line).first, "oneway"), -1)
        XCTAssertTrue(features([("highway", "proposed")], .line).isEmpty)
    }

    func testBuildings() {
        XCTAssertEqual(int(features([("building", "yes"), ("height", "12.4")], .area).first, "render_height"), 12)
        XCTAssertEqual(int(features([("building", "yes"), ("building:levels", "4")], .area).first, "render_height"), 15)  // 4 × 3.66
        XCTAssertEqual(int(features([("building", "yes")], .area).first, "render_height"), 5)
        let part = features([("building:part", "yes"), ("height", "30 m"), ("min_height", "10")], .area).first
        XCTAssertEqual(int(part, "render_height"), 30)
        XCTAssertEqual(int(part, "render_min_height"), 10)
        XCTAssertTrue(features([("building", "no")], .area).allSatisfy { $0.layer != .building })
    }

    func testWaterParksAndLabels() {
        let lake = features([("natural", "water"), ("name", "Lac de Engolasters")], .area)
        XCTAssertEqual(lake.map(\.layer), [.water, .waterName])
        XCTAssertEqual(string(lake[0], "class"), "lake")
        XCTAssertEqual(lake[1].placement, .labelPoint)
        XCTAssertNil(lake[0].attribute("name"))
        let park = features([("leisure", "park"), ("name", "Jardin Exotique")], .area)
        XCTAssertTrue(park.contains { $0.layer == .park && $0.placement == .geometry && $0.attribute("name") == nil })
        XCTAssertTrue(park.contains { $0.layer == .park && $0.placement == .labelPoint && string($0, "name") == "Jardin Exotique" })
        XCTAssertEqual(string(features([("natural", "wood")], .area).first, "class"), "wood")
        XCTAssertEqual(string(features([("landuse", "residential")], .area).first, "class"), "residential")
    }

    func testPlacesPeaksAndPOIs() {
        let city = features([("place", "city"), ("name", "Monaco"), ("capital", "yes")], .point).first
        XCTAssertEqual(city?.layer, .place)
        XCTAssertEqual(string(city, "class"), "city")
        XCTAssertEqual(int(city, "rank"), 3)
        XCTAssertEqual(int(city, "capital"), 2)
        let peak = features([("natural", "peak"), ("name", "Coma Pedrosa"), ("ele", "2942")], .point).first
        XCTAssertEqual(int(peak, "ele"), 2942)
        XCTAssertEqual(int(peak, "ele_ft"), 9652)
        let cafe = features([("amenity", "cafe"), ("name", "Café de Paris")], .point).first
        XCTAssertEqual(cafe?.layer, .poi)
        XCTAssertEqual(string(cafe, "class"), "cafe")
        XCTAssertEqual(string(cafe, "subclass"), "cafe")
        XCTAssertTrue(features([("amenity", "cafe")], .point).isEmpty, "nameless cafés are not labelled")
        XCTAssertEqual(features([("highway", "bus_stop")], .point).first?.layer, .poi, "transit stops show without names")
        let museum = features([("tourism", "museum"), ("name", "Musée océanographique"), ("building", "yes")], .area)
        XCTAssertTrue(museum.contains { $0.layer == .poi && $0.placement == .labelPoint })
        XCTAssertTrue(museum.contains { $0.layer == .building })
        XCTAssertEqual(features([("addr:housenumber", "12")], .area).first?.placement, .labelPoint)
    }

    func testNames() {
        let moscow = features([("place", "city"), ("name", "Москва"), ("name:en", "Moscow"), ("name:fr", "Moscou"),
                               ("name:etymology:wikidata", "Q1")], .point).first
        XCTAssertEqual(string(moscow, "name"), "Москва")
        XCTAssertEqual(string(moscow, "name_en"), "Moscow")
        XCTAssertEqual(string(moscow, "name:latin"), "Moscow")
        XCTAssertEqual(string(moscow, "name:nonlatin"), "Москва")
        XCTAssertEqual(string(moscow, "name:fr"), "Moscou")
        XCTAssertNil(moscow?.attribute("name:etymology:wikidata"))
        let vaduz = features([("place", "town"), ("name", "Vaduz")], .point).first
        XCTAssertEqual(string(vaduz, "name:latin"), "Vaduz")
        XCTAssertEqual(string(vaduz, "name_de"), "Vaduz")
        XCTAssertNil(vaduz?.attribute("name:nonlatin"))
        XCTAssertEqual(string(features([("place", "village"), ("name", "Žabljak")], .point).first, "name:latin"), "Žabljak")
    }

    func testAreaDetection() {
        func tags(_ pairs: [(String, String)]) -> OSMTags { pairs.map { (key: $0.0, value: $0.1) } }
        XCTAssertTrue(schema.isArea(tags([("building", "yes")])))
        XCTAssertTrue(schema.isArea(tags([("highway", "pedestrian"), ("area", "yes")])))
        XCTAssertFalse(schema.isArea(tags([("highway", "residential")])))
        XCTAssertFalse(schema.isArea(tags([("building", "yes"), ("area", "no")])))
        XCTAssertFalse(schema.isArea(tags([("natural", "coastline")])))
        XCTAssertTrue(schema.isArea(tags([("natural", "water")])))
        XCTAssertFalse(schema.isArea(tags([("aeroway", "taxiway")])))
        XCTAssertTrue(schema.isArea(tags([("aeroway", "apron")])))
        XCTAssertFalse(schema.isArea(tags([("barrier", "fence")])))
    }

    func testBoundaries() {
        func tags(_ pairs: [(String, String)]) -> OSMTags { pairs.map { (key: $0.0, value: $0.1) } }
        let country = schema.boundaryFeature(relationTags: tags([("boundary", "administrative"), ("admin_level", "2")]), maritime: true)
        XCTAssertEqual(country?.minimumZoom, 0)
        XCTAssertEqual(int(country, "maritime"), 1)
        XCTAssertNil(schema.boundaryFeature(relationTags: tags([("boundary", "administrative"), ("admin_level", "x")]), maritime: false))
        XCTAssertNil(schema.boundaryFeature(relationTags: tags([("boundary", "postal_code")]), maritime: false))
    }

    func testVectorLayersMetadata() throws {
        let layers = TileLayer.vectorLayers()
        XCTAssertEqual(layers.count, 15)
        XCTAssertEqual(layers.compactMap { $0["id"] as? String },
                       ["water", "waterway", "landcover", "landuse", "park", "boundary", "aeroway", "transportation",
                        "transportation_name", "building", "water_name", "place", "housenumber", "poi", "mountain_peak"])
        let building = try XCTUnwrap(layers.first { $0["id"] as? String == "building" }?["fields"] as? [String: String])
        XCTAssertEqual(building["render_height"], "Number")
        let poi = try XCTUnwrap(layers.first { $0["id"] as? String == "poi" }?["fields"] as? [String: String])
        XCTAssertEqual(poi["name:latin"], "String")
        XCTAssertNoThrow(try JSONSerialization.data(withJSONObject: ["vector_layers": layers]))
    }

    /// The schema article (OpenMapKit.docc/VectorTileSchema.md) documents exactly the schema the code writes.
    func testReadmeDocumentsTheSchema() throws {
        let readme = try String(contentsOf: TestData.packageRoot.appendingPathComponent("Sources/OpenMapKit/OpenMapKit.docc/VectorTileSchema.md"), encoding: .utf8)
        XCTAssertTrue(readme.contains(TileLayer.markdownTable),
                      "The schema table in Sources/OpenMapKit/OpenMapKit.docc/VectorTileSchema.md is out of date; replace it with:\n\(TileLayer.markdownTable)")
    }
}
