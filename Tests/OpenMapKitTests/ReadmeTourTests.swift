import Foundation
import OpenMapKit
import TestSupport
import XCTest

/// The README's "A short tour" compiles and runs: its code is the body of `testTourRuns` between
/// the markers, and `testReadmeShowsThisCode` checks the README still shows exactly that code.
final class ReadmeTourTests: XCTestCase {
    func testTourRuns() throws {
        // README tour begin
        // Core Location's coordinates and WGS84 distances (GeographicLib-accurate geodesics).
        let monaco = CLLocationCoordinate2D(latitude: 43.7384, longitude: 7.4246)
        let vaduz = CLLocation(latitude: 47.1410, longitude: 9.5209)
        let metres = CLLocation(latitude: monaco.latitude, longitude: monaco.longitude).distance(from: vaduz)

        // MapKit's flat map: 2^28 map points square, spherical Mercator.
        let point = MKMapPoint(monaco)
        let region = MKCoordinateRegion(center: monaco, latitudinalMeters: 2000, longitudinalMeters: 2000)
        let rect = MKMapRect(region)                      // and MKCoordinateRegion(rect) back
        let crossesDateline = rect.spans180thMeridian

        // What a 1024×768 view shows for that region, at which zoom, from which camera.
        let viewport = MapViewport(size: CGSize(width: 1024, height: 768), region: region)
        let fitted = viewport.region                      // the region adjusted to the view's aspect
        let camera = viewport.camera                      // MKMapCamera, distance in metres
        let tiles = TileRange(covering: viewport.visibleMapRect, zoom: Int(viewport.zoomLevel))

        // GeoJSON into MapKit's shapes.
        let geojson = #"{"type":"Feature","id":7,"properties":{"name":"Port Hercule"},"geometry":{"type":"Point","coordinates":[7.4246,43.7347]}}"#
        let objects = try MKGeoJSONDecoder().decode(Data(geojson.utf8))
        let feature = objects.first as? MKGeoJSONFeature  // identifier "7", properties as JSON Data

        // Distances for people, and a Maps URL.
        let formatter = MKDistanceFormatter()
        formatter.locale = Locale(identifier: "en_GB")
        let text = formatter.string(fromDistance: metres)
        let url = MapsURL.frame(.init(center: monaco, span: region.span)).url
        // README tour end

        XCTAssertEqual(metres, 412_161.975, accuracy: 0.001)   // GeodSolve -i: 412 161.975 m
        XCTAssertTrue(rect.contains(point))
        XCTAssertFalse(crossesDateline)
        XCTAssertEqual(fitted.span.latitudeDelta, region.span.latitudeDelta, accuracy: 1e-9)
        XCTAssertGreaterThan(fitted.span.longitudeDelta, region.span.longitudeDelta)
        XCTAssertGreaterThan(camera.centerCoordinateDistance, 1000)
        XCTAssertEqual(tiles?.z, 14)
        XCTAssertEqual(feature?.identifier, "7")
        XCTAssertTrue(text.hasSuffix(" mi"), text)
        XCTAssertEqual(url.host, "maps.apple.com")
    }

    func testReadmeShowsThisCode() throws {
        let readme = try String(contentsOf: TestData.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)

        let tourSection = try XCTUnwrap(readme.range(of: "## A five-minute tour"), "README has no tour section")
        let afterHeading = readme[tourSection.upperBound...]
        let blockStart = try XCTUnwrap(afterHeading.range(of: "```swift\n"))
        let blockEnd = try XCTUnwrap(afterHeading[blockStart.upperBound...].range(of: "```"))
        let readmeLines = afterHeading[blockStart.upperBound..<blockEnd.lowerBound]
            .split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("import ") }
            .map { $0.trimmingCharacters(in: .whitespaces) }

        let begin = try XCTUnwrap(source.range(of: "// README tour begin\n"))
        let end = try XCTUnwrap(source.range(of: "        // README tour end"))
        let testLines = source[begin.upperBound..<end.lowerBound]
            .split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }

        func meaningful(_ lines: [String]) -> [String] {
            Array(lines.drop(while: \.isEmpty).reversed().drop(while: \.isEmpty).reversed())
        }
        XCTAssertEqual(meaningful(readmeLines), meaningful(testLines), "README tour and ReadmeTourTests differ")
    }
}
