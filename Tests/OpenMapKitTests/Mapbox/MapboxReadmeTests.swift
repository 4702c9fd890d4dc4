import class OpenMapKit.NSPredicate
@testable import OpenMapKit
import TestSupport
import XCTest

/// The README's Mapbox example, as written there (with the Monaco bundle as its data).
final class MapboxReadmeTests: XCTestCase {
    func testReadmeExampleRuns() throws {
        let casino = CLLocationCoordinate2D(latitude: 43.7393, longitude: 7.4275)
        let parking = CLLocationCoordinate2D(latitude: 43.7380, longitude: 7.4260)
        MapDataSource.default = try MonacoBundle.dataSource()
        defer { MapDataSource.default = nil }

        let map = MGLMapView(frame: CGRect(x: 0, y: 0, width: 800, height: 600), styleURL: MGLStyle.streetsStyleURL)
        map.setCenter(CLLocationCoordinate2D(latitude: 43.7384, longitude: 7.4246), zoomLevel: 15, direction: 0, animated: false)
        map.fly(to: MGLMapCamera(lookingAtCenter: casino, altitude: 800, pitch: 45, heading: 30), withDuration: -1, completionHandler: nil)
        map.addAnnotation(MGLPolyline(coordinates: [parking, casino]))   // colours from the delegate, as Mapbox asks
        let frame = try map.render()                                      // logo and "© OpenStreetMap contributors" included
        let buildings = map.visibleFeatures(at: CGPoint(x: 400, y: 300), styleLayerIdentifiers: ["building"],
                                            predicate: NSPredicate(format: "render_height > 10"))

        XCTAssertEqual(frame.size, CGSize(width: 800, height: 600))
        XCTAssertTrue(map.isAnimating, "the flight runs on the system clock")
        XCTAssertTrue(buildings.allSatisfy { ($0.attributes["render_height"] as? Double ?? 0) > 10 })
    }
}
