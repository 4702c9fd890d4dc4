import Foundation
import MapSearch
@testable import OpenMapKit
import TestSupport
import XCTest

/// MKMapCamera(lookingAt:forViewSize:allowPitch:) framing a place by its extent, and the view's
/// dark appearance.
final class MapViewCameraFramingTests: XCTestCase {
    private func item(radiusMetres: Double) -> MKMapItem {
        let centre = MapViewFixtures.monaco
        let half = radiusMetres / 2.0.squareRoot() * MKMapPointsPerMeterAtLatitude(centre.latitude)
        let p = MKMapPoint(centre)
        let record = PlaceRecord(id: "w1", kind: .physicalFeature, name: "Somewhere", coordinate: centre,
                                 bounds: MKMapRect(x: p.x - half, y: p.y - half, width: 2 * half, height: 2 * half))
        return MKMapItem(record: record)
    }

    func testSmallPlacesAreFramedCloseAndTiltedWhenAllowed() {
        let size = CGSize(width: 400, height: 300)
        let small = item(radiusMetres: 60)
        let flat = MKMapCamera(lookingAt: small, forViewSize: size, allowPitch: false)
        let tilted = MKMapCamera(lookingAtMapItem: small, forViewSize: size, allowPitch: true)
        XCTAssertEqual(flat.pitch, 0)
        XCTAssertEqual(tilted.pitch, 45)
        XCTAssertEqual(tilted.centerCoordinateDistance, flat.centerCoordinateDistance, accuracy: 1e-6)
        XCTAssertLessThan(flat.centerCoordinateDistance, MKMapCamera.pitchedFramingDistance)
        XCTAssertEqual(flat.centerCoordinate.latitude, MapViewFixtures.monaco.latitude, accuracy: 1e-9)
        // A map view given the camera shows the place's whole extent.
        let map = MKMapView(frame: CGRect(origin: .zero, size: size))
        map.camera = flat
        let extent = small.framingRect
        XCTAssertTrue(map.visibleMapRect.contains(MKMapPoint(x: extent.minX, y: extent.minY)))
        XCTAssertTrue(map.visibleMapRect.contains(MKMapPoint(x: extent.maxX, y: extent.maxY)))
    }

    func testLargePlacesStayFlatAndFarther() {
        let size = CGSize(width: 400, height: 300)
        let large = MKMapCamera(lookingAt: item(radiusMetres: 5000), forViewSize: size, allowPitch: true)
        let small = MKMapCamera(lookingAt: item(radiusMetres: 60), forViewSize: size, allowPitch: true)
        XCTAssertEqual(large.pitch, 0)
        XCTAssertGreaterThan(large.centerCoordinateDistance, 10 * small.centerCoordinateDistance)
        // A narrower view needs a farther camera for the same place.
        let narrow = MKMapCamera(lookingAt: item(radiusMetres: 5000), forViewSize: CGSize(width: 200, height: 300), allowPitch: true)
        XCTAssertGreaterThan(narrow.centerCoordinateDistance, large.centerCoordinateDistance)
    }

    func testHostileSizesGiveAPlainCamera() {
        for size in [CGSize.zero, CGSize(width: CGFloat.nan, height: 10), CGSize(width: -5, height: 10)] {
            let camera = MKMapCamera(lookingAt: item(radiusMetres: 60), forViewSize: size, allowPitch: true)
            XCTAssertEqual(camera.centerCoordinateDistance, 1000)
            XCTAssertEqual(camera.pitch, 0)
        }
    }

    func testDarkAppearanceDrawsTheDarkMap() throws {
        let (map, delegate, _) = MapViewFixtures.map()
        map.dataSource = try MonacoBundle.dataSource()
        XCTAssertEqual(map.traitCollection.userInterfaceStyle, .light)
        func brightness(_ image: UIImage) -> CGFloat {
            let samples = stride(from: 10.0, to: 390, by: 20).flatMap { x in stride(from: 10.0, to: 390, by: 20).map { CGPoint(x: x, y: $0) } }
            let colors = samples.compactMap { image.color(at: $0) }
            return colors.reduce(0) { $0 + $1.red + $1.green + $1.blue } / CGFloat(3 * colors.count)
        }
        let light = try map.render()
        map.overrideUserInterfaceStyle = .dark
        XCTAssertEqual(map.traitCollection.userInterfaceStyle, .dark)
        delegate.log = []
        let dark = try map.render()
        MonacoBundle.save(dark, "mapview-dark")
        XCTAssertTrue(delegate.log.contains("willStartLoading"), "a new appearance loads its style")
        XCTAssertLessThan(brightness(dark), brightness(light) - 0.2)
        map.overrideUserInterfaceStyle = .unspecified
        XCTAssertEqual(brightness(try map.render()), brightness(light), accuracy: 0.01)
    }
}
