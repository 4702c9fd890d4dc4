import Foundation
import OpenMapKit
import XCTest

/// The README's `Map { … }` example compiles and draws what it says.
final class ReadmeMapTests: XCTestCase {
    func testReadmeMapExample() async throws {
        let casino = CLLocationCoordinate2D(latitude: 43.7393, longitude: 7.4277)
        let parking = CLLocationCoordinate2D(latitude: 43.7375, longitude: 7.4245)
        MapDataSource.default = try MonacoBundle.dataSource()
        defer { MapDataSource.default = nil }

        let map = Map(position: .constant(.automatic)) {
            Marker("Casino", systemImage: "building.columns", coordinate: casino).tint(.purple)
            Annotation("Parking", coordinate: parking) { Image(systemName: "car").padding(5) }
            MapPolyline(coordinates: [parking, casino]).stroke(.blue, lineWidth: 5)
            UserAnnotation()
        }
        .mapStyle(.standard(elevation: .flat))
        let image = try await map.snapshot(size: CGSize(width: 600, height: 400), scale: 2)   // PNG data: image.pngData()

        XCTAssertEqual(image.image.size, CGSize(width: 600, height: 400))
        XCTAssertGreaterThan(image.image.pngData()?.count ?? 0, 10_000)
        // The automatic position frames both places inside the image.
        for place in [casino, parking] {
            let point = image.point(for: place)
            XCTAssertTrue((0...600).contains(point.x) && (0...400).contains(point.y), "\(point)")
        }
    }
}
