import XCTest
import MapGeometry

final class CameraTests: XCTestCase {
    let center = CLLocationCoordinate2D(latitude: 43.7384, longitude: 7.4246)

    func testExplicitCamera() {
        // The Maps URL documentation's example camera: facing east, 1 km away, pitched 15°.
        let camera = MKMapCamera(lookingAtCenter: center, fromDistance: 1000, pitch: 15, heading: 90)
        XCTAssertEqual(camera.centerCoordinate, center)
        XCTAssertEqual(camera.centerCoordinateDistance, 1000)
        XCTAssertEqual(camera.heading, 90)
        XCTAssertEqual(camera.pitch, 15)
        // The deprecated altitude is the height above ground, not the distance.
        XCTAssertEqual(camera.altitude, 1000 * cos(15 * Double.pi / 180), accuracy: 1e-9)
        camera.altitude = 500
        XCTAssertEqual(camera.pitch, 15)
        XCTAssertEqual(camera.centerCoordinateDistance, 500 / cos(15 * Double.pi / 180), accuracy: 1e-9)
    }

    func testCopyIsIndependent() {
        let camera = MKMapCamera(lookingAtCenter: center, fromDistance: 1000, pitch: 0, heading: 0)
        let copy = camera.copy()
        XCTAssertEqual(copy, camera)
        copy.heading = 180
        XCTAssertEqual(camera.heading, 0)
        XCTAssertNotEqual(copy, camera)
    }

    func testEyeStraightAboveLooksDown() {
        let camera = MKMapCamera(lookingAtCenter: center, fromEyeCoordinate: center, eyeAltitude: 800)
        XCTAssertEqual(camera.pitch, 0)
        XCTAssertEqual(camera.heading, 0)
        XCTAssertEqual(camera.centerCoordinateDistance, 800, accuracy: 1e-9)
    }

    func testEyeSouthOfCentreFacesNorth() {
        // An eye 1 km due south at 1 km altitude: heading north, pitched 45°, √2 km away.
        let (metersPerDegreeLatitude, _) = WGS84.metersPerDegree(atLatitude: center.latitude)
        let eye = CLLocationCoordinate2D(latitude: center.latitude - 1000 / metersPerDegreeLatitude, longitude: center.longitude)
        let camera = MKMapCamera(lookingAtCenter: center, fromEyeCoordinate: eye, eyeAltitude: 1000)
        XCTAssertEqual(camera.heading, 0, accuracy: 1e-6)
        XCTAssertEqual(camera.pitch, 45, accuracy: 1e-3)
        XCTAssertEqual(camera.centerCoordinateDistance, 1000 * 2.0.squareRoot(), accuracy: 0.5)
        // From the west, the camera faces east.
        let west = CLLocationCoordinate2D(latitude: center.latitude, longitude: center.longitude - 0.01)
        XCTAssertEqual(MKMapCamera(lookingAtCenter: center, fromEyeCoordinate: west, eyeAltitude: 100).heading, 90, accuracy: 0.01)
    }
}
