import Foundation
import MapRender
import MapStyle
@testable import OpenMapKit
import TestSupport
import XCTest

/// The map view's feature query (the engine of the Mapbox-shaped face's `visibleFeatures`): the
/// map's own features of the last frame, found with the renderers and camera that drew it.
final class MapViewFeatureQueryTests: XCTestCase {
    /// Inside the Hôtel de Paris's building, at its point of interest (a label at zoom 17).
    private static let hotel = CLLocationCoordinate2D(latitude: 43.738600178625994, longitude: 7.427449822425842)
    /// Where two minor streets meet, west of the casino.
    private static let street = CLLocationCoordinate2D(latitude: 43.73920480041332, longitude: 7.427401542663574)

    private func map() throws -> MKMapView {
        let (map, _, _) = MapViewFixtures.map()
        map.dataSource = try MonacoBundle.dataSource()
        map.region = MKCoordinateRegion(center: CLLocationCoordinate2D(latitude: 43.7390, longitude: 7.4277), latitudinalMeters: 180,
                                        longitudinalMeters: 180)
        return map
    }

    private func layerIndex(_ map: MKMapView, _ id: String) throws -> Int {
        try XCTUnwrap(map.renderState.rendererCache?.renderers.style.layers.firstIndex { $0.id == id })
    }

    func testFeaturesOfTheLastFrame() throws {
        let map = try map()
        XCTAssertTrue(map.renderedFeatures(at: CGPoint(x: 200, y: 200)).isEmpty, "nothing drawn yet")
        _ = try map.render()
        let atHotel = map.renderedFeatures(at: map.convert(Self.hotel, toPointTo: map))
        let building = try XCTUnwrap(atHotel.first { $0.layerID == "building" })
        XCTAssertEqual(building.properties["render_height"], .number(5))
        XCTAssertEqual(building.zOrder.layer, try layerIndex(map, "building"))
        XCTAssertEqual(atHotel.map(\.zOrder), atHotel.map(\.zOrder).sorted(by: >), "topmost first")
        let street = map.renderedFeatures(at: map.convert(Self.street, toPointTo: map), layerIDs: ["road"])
        XCTAssertEqual(street.first?.properties["class"], .string("minor"))
        let minor = try MapStyle.Expression.parse(JSONValue.parse(#"["==", ["get", "class"], "minor"]"#), expected: .boolean)
        let inView = map.renderedFeatures(in: CGRect(x: 0, y: 0, width: 400, height: 400), layerIDs: ["road"], filter: minor)
        XCTAssertFalse(inView.isEmpty)
        XCTAssertTrue(inView.allSatisfy { $0.properties["class"] == .string("minor") })

        // The query is for the frame drawn, not for a camera the map has moved to since.
        let before = map.renderedFeatures(at: CGPoint(x: 200, y: 200))
        map.setCenter(MapViewFixtures.nice, animated: false)
        XCTAssertEqual(map.renderedFeatures(at: CGPoint(x: 200, y: 200)), before)
    }

    /// With an `aboveRoads` overlay the style is drawn by two renderers (base, then labels): the
    /// query reads both, labels first, each feature placed in the whole style's layer order.
    func testFeaturesAcrossTheSplitStyle() throws {
        let map = try map()
        let delegate = RecordingMapViewDelegate()
        delegate.rendererFactory = { overlay in
            let renderer = MKCircleRenderer(circle: overlay as! MKCircle)
            renderer.fillColor = .systemBlue
            return renderer
        }
        map.delegate = delegate
        map.addOverlay(MKCircle(center: CLLocationCoordinate2D(latitude: 43.7394, longitude: 7.4285), radius: 10), level: .aboveRoads)
        _ = try map.render()
        XCTAssertEqual(map.renderState.rendererCache?.renderers.drawn.count, 2, "base and labels")
        let atHotel = map.renderedFeatures(at: map.convert(Self.hotel, toPointTo: map))
        let layers = atHotel.map(\.layerID)
        XCTAssertTrue(layers.contains("building"))
        XCTAssertEqual(atHotel.map(\.zOrder), atHotel.map(\.zOrder).sorted(by: >), "topmost first")
        for feature in atHotel { XCTAssertEqual(feature.zOrder.layer, try layerIndex(map, feature.layerID)) }
        let poi = try XCTUnwrap(atHotel.first { $0.layerID == "poi" }, "the hotel's label: \(layers)")
        XCTAssertEqual(poi.properties["name"], .string("Hôtel de Paris"))
        XCTAssertEqual(layers.first, "poi", "the label is over the building")
    }
}
