import Foundation
import class OpenMapKit.NSPredicate
@testable import OpenMapKit
import TestSupport
import XCTest

/// Mapbox's `visibleFeatures(at:)` and `visibleFeatures(in:)` on the Monaco bundle: the engine's
/// feature query of the last frame, answered as MGLFeature objects.
final class MGLMapViewFeatureQueryTests: XCTestCase {
    static let casino = CLLocationCoordinate2D(latitude: 43.7393, longitude: 7.4277)
    /// Inside the Hôtel de Paris building (`render_height` 5 in the bundle's tiles).
    static let hotel = CLLocationCoordinate2D(latitude: 43.738600178625994, longitude: 7.427449822425842)

    func testFeaturesAtAPointAndInARectAsMapboxFeatures() throws {
        let (map, _, _) = MapboxFixtures.map()
        map.dataSource = try MonacoBundle.dataSource()
        map.setCenter(Self.casino, zoomLevel: 17, animated: false)
        XCTAssertTrue(map.visibleFeatures(at: map.convert(Self.hotel, toPointTo: nil)).isEmpty, "nothing before the first frame")
        _ = try map.render()

        let point = map.convert(Self.hotel, toPointTo: nil)
        let all = map.visibleFeatures(at: point)
        XCTAssertFalse(all.isEmpty)
        let buildings = map.visibleFeatures(at: point, styleLayerIdentifiers: ["building"])
        let building = try XCTUnwrap(buildings.first as? MGLPolygonFeature, "\(buildings)")
        XCTAssertEqual(building.attributes["render_height"] as? Double, 5)
        XCTAssertEqual(building.attribute(forKey: "render_height") as? Double, 5)
        // The polygon holds the point it was found at.
        let ring = building.coordinates
        XCTAssertGreaterThan(ring.count, 3)
        XCTAssertTrue(ring.contains { abs($0.latitude - Self.hotel.latitude) < 0.002 && abs($0.longitude - Self.hotel.longitude) < 0.002 })

        // A predicate filters as a layer filter would.
        let tall = map.visibleFeatures(at: point, styleLayerIdentifiers: ["building"], predicate: NSPredicate(format: "render_height > 100"))
        XCTAssertTrue(tall.isEmpty)
        let low = map.visibleFeatures(at: point, styleLayerIdentifiers: ["building"], predicate: NSPredicate(format: "render_height == 5"))
        XCTAssertEqual(low.count, buildings.count)

        // The whole view: buildings, roads and labels, the labels (drawn last) before the roads.
        let everything = map.visibleFeatures(in: map.bounds)
        XCTAssertGreaterThan(everything.count, 20)
        XCTAssertTrue(everything.contains { $0 is MGLPolylineFeature || $0 is MGLMultiPolylineFeature })
        let roadsOnly = map.visibleFeatures(in: map.bounds, styleLayerIdentifiers: ["road"])
        XCTAssertFalse(roadsOnly.isEmpty)
        XCTAssertTrue(roadsOnly.allSatisfy { $0 is MGLPolylineFeature || $0 is MGLMultiPolylineFeature })
        XCTAssertTrue(map.visibleFeatures(in: map.bounds, styleLayerIdentifiers: ["no-such-layer"]).isEmpty)
    }
}
