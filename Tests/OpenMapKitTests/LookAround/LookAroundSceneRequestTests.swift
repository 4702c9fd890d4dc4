import Foundation
@testable import OpenMapKit
import XCTest

/// Look Around scenes from OpenStreetMap (issue 24, availability): a scene where a person could
/// stand on a street of the Monaco sample, none at sea or outside the bundle, looking at a place
/// from the street in front of it.
final class LookAroundSceneRequestTests: XCTestCase {
    func scene(_ request: MKLookAroundSceneRequest) async throws -> MKLookAroundScene? {
        request.dataSource = try MonacoBundle.dataSource()
        return try await request.scene
    }

    func testAStreetHasASceneTheSeaAndElsewhereNone() async throws {
        let street = try await XCTUnwrapAsync(await scene(MKLookAroundSceneRequest(coordinate: CLLocationCoordinate2D(latitude: 43.73895, longitude: 7.42630))))
        XCTAssertLessThanOrEqual(street.distance, MKLookAroundSceneRequest.maximumDistance)
        XCTAssertTrue((0..<360).contains(street.heading))
        let moved = CLLocation(latitude: street.coordinate.latitude, longitude: street.coordinate.longitude)
            .distance(from: CLLocation(latitude: 43.73895, longitude: 7.42630))
        XCTAssertEqual(moved, street.distance, accuracy: 1, "the viewer stands where the street is nearest")
        // Standing on the street, the viewer looks along it.
        let along = try await XCTUnwrapAsync(await scene(MKLookAroundSceneRequest(coordinate: street.coordinate)))
        XCTAssertLessThan(along.distance, 1)
        // The Mediterranean east of Monte Carlo, and Paris (outside the bundle): no scene.
        let sea = try await scene(MKLookAroundSceneRequest(coordinate: CLLocationCoordinate2D(latitude: 43.7300, longitude: 7.4450)))
        XCTAssertNil(sea)
        let paris = try await scene(MKLookAroundSceneRequest(coordinate: CLLocationCoordinate2D(latitude: 48.8566, longitude: 2.3522)))
        XCTAssertNil(paris)
    }

    func testAPlaceIsSeenFromTheStreetInFrontOfIt() async throws {
        let beach = CLLocationCoordinate2D(latitude: 43.733837, longitude: 7.429302)
        let item = MKMapItem(placemark: MKPlacemark(coordinate: beach))
        let request = MKLookAroundSceneRequest(mapItem: item)
        XCTAssertTrue(request.mapItem === item)
        let scene = try await XCTUnwrapAsync(await scene(request))
        XCTAssertLessThanOrEqual(scene.distance, MKLookAroundSceneRequest.maximumDistanceFromPlace)
        XCTAssertGreaterThan(scene.distance, MKLookAroundSceneRequest.onStreet)
        let toward = Geodesic.wgs84.inverse(latitude1: scene.coordinate.latitude, longitude1: scene.coordinate.longitude,
                                            latitude2: beach.latitude, longitude2: beach.longitude).azimuth1
        XCTAssertEqual(scene.heading, (toward + 360).truncatingRemainder(dividingBy: 360), accuracy: 1e-6, "the viewer faces the place")
    }

    func testBadInputAndCancellation() async throws {
        for bad in [CLLocationCoordinate2D(latitude: .nan, longitude: 7.4), CLLocationCoordinate2D(latitude: 91, longitude: 7.4),
                    CLLocationCoordinate2D(latitude: 43.7, longitude: 181)] {
            do {
                _ = try await scene(MKLookAroundSceneRequest(coordinate: bad))
                XCTFail("\(bad) is not a coordinate")
            } catch let error as MKError {
                XCTAssertTrue(error.reason?.contains("is not a coordinate") == true, "\(error)")
            }
        }
        let request = MKLookAroundSceneRequest(coordinate: CLLocationCoordinate2D(latitude: 43.73895, longitude: 7.42630))
        request.cancel()
        XCTAssertTrue(request.isCancelled)
        do {
            _ = try await scene(request)
            XCTFail("a cancelled request does not answer")
        } catch is CancellationError {}
    }
}

/// `XCTUnwrap` for a value an async call returned.
func XCTUnwrapAsync<T>(_ value: T?, file: StaticString = #filePath, line: UInt = #line) async throws -> T {
    try XCTUnwrap(value, file: file, line: line)
}
