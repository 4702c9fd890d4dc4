import Foundation
import MapGeometry
@testable import MapRender
import MapStyle
import XCTest

/// Feature queries on the Monaco sample bundle drawn with the default style: a building, a
/// street and a point of interest found where the map shows them, flat and pitched.
final class MonacoFeatureQueryTests: XCTestCase {
    private static let casino = CLLocationCoordinate2D(latitude: 43.7393, longitude: 7.4277)
    /// Inside the Hôtel de Paris's building (its point of interest).
    private static let hotel = CLLocationCoordinate2D(latitude: 43.738600178625994, longitude: 7.427449822425842)
    /// Where two minor streets meet, west of the casino.
    private static let street = CLLocationCoordinate2D(latitude: 43.73920480041332, longitude: 7.427401542663574)
    /// The casino's point of interest.
    private static let casinoPOI = CLLocationCoordinate2D(latitude: 43.73916216702583, longitude: 7.428023815155029)

    func testBuildingStreetAndLabelAreFoundWhereTheyAreDrawn() throws {
        let renderer = try StyleRenderer(style: DefaultStyle.standard.style, loader: MonacoTiles.loader())
        let size = CGSize(width: 400, height: 400)
        _ = try renderer.render(center: Self.casino, zoom: 17, width: 400, height: 400)
        let viewport = MapViewport(size: size, centerCoordinate: Self.casino, zoomLevel: 17)

        let atHotel = renderer.features(at: viewport.convert(Self.hotel))
        let building = try XCTUnwrap(atHotel.first { $0.layerID == "building" })
        XCTAssertEqual(building.sourceLayer, "building")
        XCTAssertEqual(building.properties["render_height"], .number(5))
        XCTAssertEqual(building.geometryType, "Polygon")
        XCTAssertEqual(atHotel.map(\.zOrder), atHotel.map(\.zOrder).sorted(by: >), "topmost first")

        let atStreet = renderer.features(at: viewport.convert(Self.street), layers: ["road", "road-casing"])
        XCTAssertEqual(atStreet.first?.layerID, "road", "the road is drawn over its casing")
        XCTAssertTrue(atStreet.contains { $0.layerID == "road-casing" })
        XCTAssertEqual(atStreet.first?.properties["class"], .string("minor"))
        XCTAssertEqual(atStreet.first?.geometryType, "LineString")

        let poi = renderer.features(at: viewport.convert(Self.casinoPOI), layers: ["poi"])
        XCTAssertEqual(poi.first?.properties["name"], .string("Casino de Monte Carlo"))
        XCTAssertEqual(poi.first?.sourceLayer, "poi")

        // The whole view: topmost first, only drawn layers of queryable types.
        let everything = renderer.features(in: CGRect(origin: .zero, size: size))
        XCTAssertEqual(everything.map(\.zOrder), everything.map(\.zOrder).sorted(by: >))
        let types = Dictionary(uniqueKeysWithValues: renderer.style.layers.map { ($0.id, $0.type) })
        XCTAssertTrue(everything.allSatisfy { [.fill, .line, .circle, .symbol, .fillExtrusion].contains(types[$0.layerID]) })
        XCTAssertTrue(Set(everything.map(\.layerID)).isSuperset(of: ["building", "road", "poi"]))
        // A filter on the attributes: only the minor streets.
        let minor = renderer.features(in: CGRect(origin: .zero, size: size), layers: ["road"],
                                      filter: try MapStyle.Expression.parse(JSONValue.parse(#"["==", ["get", "class"], "minor"]"#), expected: .boolean))
        XCTAssertFalse(minor.isEmpty)
        XCTAssertTrue(minor.allSatisfy { $0.properties["class"] == .string("minor") })
    }

    /// Rotated and pitched, the same places are found where the viewport (the map view's
    /// conversion) puts them.
    func testPitchedAndRotatedMapFindsTheSamePlaces() throws {
        let renderer = try StyleRenderer(style: DefaultStyle.standard.style, loader: MonacoTiles.loader())
        let size = CGSize(width: 400, height: 300)
        let center = CLLocationCoordinate2D(latitude: 43.7389, longitude: 7.4276)
        _ = try renderer.render(center: center, zoom: 17, bearing: 30, pitch: 50, width: 400, height: 300)
        let viewport = MapViewport(size: size, centerCoordinate: center, zoomLevel: 17, heading: 30, pitch: 50)
        for place in [Self.hotel, Self.street] {
            let point = viewport.convert(place)
            XCTAssertTrue(point.x > 0 && point.x < size.width && point.y > 0 && point.y < size.height, "\(point) is in view")
        }
        XCTAssertTrue(renderer.features(at: viewport.convert(Self.hotel), layers: ["building"]).contains { $0.properties["render_height"] == .number(5) })
        XCTAssertEqual(renderer.features(at: viewport.convert(Self.street), layers: ["road"]).first?.properties["class"], .string("minor"))
        let near = renderer.features(at: viewport.convert(Self.street), tolerance: 3, layers: ["road"])
        XCTAssertFalse(near.isEmpty)
    }
}
