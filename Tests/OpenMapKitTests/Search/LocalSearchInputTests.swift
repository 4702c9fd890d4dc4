import Foundation
@testable import OpenMapKit
import XCTest

/// Search and geocoding requests given bad input: each fails with an MKError that says why
/// (or, where MapKit's initialiser is failable, is nil), before any map data is read.
final class LocalSearchInputTests: XCTestCase {
    /// A data source is needed to make a search, but these requests must fail before reading it.
    func monaco() throws -> MapDataSource { try MonacoBundle.dataSource() }

    func assertFails(_ search: MKLocalSearch, code: MKError.Code = .placemarkNotFound, mentioning words: [String],
                     file: StaticString = #filePath, line: UInt = #line) async {
        do {
            let response = try await search.start()
            XCTFail("found \(response.mapItems.count) items", file: file, line: line)
        } catch let error as MKError {
            XCTAssertEqual(error.code, code, "\(error)", file: file, line: line)
            for word in words {
                XCTAssertTrue(error.localizedDescription.contains(word), "\(error.localizedDescription) lacks \(word)", file: file, line: line)
            }
        } catch {
            XCTFail("not an MKError: \(error)", file: file, line: line)
        }
    }

    func testEmptyHugeAndControlQueries() async throws {
        let source = try monaco()
        for text in [nil, "", "   ", "\n\t", "\u{0}\u{7}"] as [String?] {
            let request = MKLocalSearch.Request()
            request.naturalLanguageQuery = text
            await assertFails(MKLocalSearch(request: request, dataSource: source), mentioning: ["no text"])
        }
        let huge = MKLocalSearch.Request(naturalLanguageQuery: String(repeating: "casino ", count: 1000))
        await assertFails(MKLocalSearch(request: huge, dataSource: source), mentioning: ["characters"])
        let none = MKLocalSearch.Request(naturalLanguageQuery: "cafe")
        none.resultTypes = []
        await assertFails(MKLocalSearch(request: none, dataSource: source), mentioning: ["resultTypes"])
        let noPOIs = MKLocalSearch.Request(naturalLanguageQuery: "cafe")
        noPOIs.resultTypes = .pointOfInterest
        noPOIs.pointOfInterestFilter = .excludingAll
        await assertFails(MKLocalSearch(request: noPOIs, dataSource: source), mentioning: ["exclude"])
    }

    /// SQL and FTS5 syntax, quotes and odd Unicode are text to look for: a search answers or finds
    /// nothing, and never fails as if the index were broken.
    func testQueryTextIsNeverSyntax() async throws {
        let source = try monaco()
        let queries = [#""casino" OR *"#, "'; DROP TABLE places; --", "NEAR(casino monte, 2)", "^casino*", "casino AND NOT monte",
                       "{name}: casino", "\u{202E}onisac", "カジノ", "🎰", "casino\u{0}monte", String(repeating: "(", count: 400)]
        for text in queries {
            do {
                let response = try await MKLocalSearch(request: MKLocalSearch.Request(naturalLanguageQuery: text), dataSource: source).start()
                XCTAssertFalse(response.mapItems.isEmpty, text)
            } catch let error as MKError {
                XCTAssertEqual(error.code, .placemarkNotFound, "\(text): \(error)")
            }
        }
    }

    func testExtremeResultLimits() async throws {
        let source = try monaco()
        let many = MKLocalSearch.Request(naturalLanguageQuery: "restaurant")
        many.resultLimit = .max
        let response = try await MKLocalSearch(request: many, dataSource: source).start()
        XCTAssertLessThanOrEqual(response.mapItems.count, MKLocalSearch.maximumResults)
        let pois = MKLocalPointsOfInterestRequest(center: MonacoBundle.center, radius: 500)
        pois.resultLimit = .max
        _ = try await MKLocalSearch(request: pois, dataSource: source).start()
        let none = MKLocalSearch.Request(naturalLanguageQuery: "restaurant")
        none.resultLimit = 0
        await assertFails(MKLocalSearch(request: none, dataSource: source), mentioning: ["resultLimit"])
    }

    func testBadRegions() async throws {
        let source = try monaco()
        let regions = [
            MKCoordinateRegion(center: CLLocationCoordinate2D(latitude: .nan, longitude: 7.4), span: MKCoordinateSpan(latitudeDelta: 1, longitudeDelta: 1)),
            MKCoordinateRegion(center: CLLocationCoordinate2D(latitude: 43.7, longitude: 7.4), span: MKCoordinateSpan(latitudeDelta: 0, longitudeDelta: 0)),
            MKCoordinateRegion(center: CLLocationCoordinate2D(latitude: 43.7, longitude: 7.4), span: MKCoordinateSpan(latitudeDelta: -1, longitudeDelta: 1)),
            MKCoordinateRegion(center: CLLocationCoordinate2D(latitude: 43.7, longitude: 7.4), span: MKCoordinateSpan(latitudeDelta: .infinity, longitudeDelta: 1)),
            MKCoordinateRegion(center: CLLocationCoordinate2D(latitude: 95, longitude: 7.4), span: MKCoordinateSpan(latitudeDelta: 1, longitudeDelta: 1)),
        ]
        for region in regions {
            let request = MKLocalSearch.Request(naturalLanguageQuery: "casino", region: region)
            await assertFails(MKLocalSearch(request: request, dataSource: source), mentioning: ["region"])
            let geocoding = try XCTUnwrap(MKGeocodingRequest(addressString: "Avenue de la Costa"))
            geocoding.region = region
            geocoding.dataSource = source
            do {
                _ = try await geocoding.mapItems
                XCTFail("geocoded in \(region)")
            } catch let error as MKError {
                XCTAssertEqual(error.code, .placemarkNotFound)
            }
        }
    }

    func testPointsOfInterestRequestGeometryAndBadInput() async throws {
        let center = CLLocationCoordinate2D(latitude: 43.7384, longitude: 7.4246)
        let circle = MKLocalPointsOfInterestRequest(center: center, radius: 500)
        XCTAssertEqual(circle.radius, 500)
        XCTAssertEqual(circle.coordinate, center)
        // The circle's bounding box: 1 km tall (about 0.009°).
        XCTAssertEqual(circle.region.span.latitudeDelta, 1000 / 111_132, accuracy: 0.0001)

        let box = MKLocalPointsOfInterestRequest(coordinateRegion: MKCoordinateRegion(center: center, latitudinalMeters: 600, longitudinalMeters: 800))
        // The farthest corner is half the diagonal away: 500 m.
        XCTAssertEqual(box.radius, 500, accuracy: 2)

        let source = try monaco()
        let bad: [(MKLocalPointsOfInterestRequest, String)] = [
            (MKLocalPointsOfInterestRequest(center: center, radius: -5), "radius"),
            (MKLocalPointsOfInterestRequest(center: center, radius: 0), "radius"),
            (MKLocalPointsOfInterestRequest(center: center, radius: .nan), "radius"),
            (MKLocalPointsOfInterestRequest(center: center, radius: .infinity), "radius"),
            (MKLocalPointsOfInterestRequest(center: center, radius: -.infinity), "radius"),
            (MKLocalPointsOfInterestRequest(center: CLLocationCoordinate2D(latitude: .nan, longitude: .nan), radius: 100), "centre"),
            (MKLocalPointsOfInterestRequest(center: CLLocationCoordinate2D(latitude: 0, longitude: 200), radius: 100), "centre"),
            (MKLocalPointsOfInterestRequest(coordinateRegion: MKCoordinateRegion(center: center, span: MKCoordinateSpan())), "span"),
        ]
        for (request, word) in bad {
            await assertFails(MKLocalSearch(request: request, dataSource: source), mentioning: [word])
        }
        // A finite radius far beyond MapKit's maximum is cut to it: an answer, not a crash or an overflowed region.
        let huge = MKLocalPointsOfInterestRequest(center: center, radius: 1e300)
        let items = try await MKLocalSearch(request: huge, dataSource: source).start().mapItems
        XCTAssertFalse(items.isEmpty)
        let excluding = MKLocalPointsOfInterestRequest(center: center, radius: 100)
        excluding.pointOfInterestFilter = .excludingAll
        await assertFails(MKLocalSearch(request: excluding, dataSource: source), mentioning: ["excludes every category"])
    }

    func testFailableInitialisers() {
        XCTAssertNil(MKGeocodingRequest(addressString: ""))
        XCTAssertNil(MKGeocodingRequest(addressString: " \n\u{0}"))
        XCTAssertEqual(MKGeocodingRequest(addressString: "Monaco")?.addressString, "Monaco")
        XCTAssertNil(MKReverseGeocodingRequest(location: CLLocation(latitude: .nan, longitude: 7.4)))
        XCTAssertNil(MKReverseGeocodingRequest(location: CLLocation(latitude: 91, longitude: 7.4)))
        XCTAssertNil(MKReverseGeocodingRequest(location: CLLocation(latitude: 0, longitude: -180.5)))
        XCTAssertNotNil(MKReverseGeocodingRequest(location: CLLocation(latitude: 43.7, longitude: 7.4)))
    }

    func testABundleWithoutAPlaceIndexFailsWithServerFailure() async throws {
        // A copy of the Monaco bundle's manifest and tiles, without its place index.
        let monaco = try MonacoBundle.dataSource().bundles[0].url
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("no-places-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in try FileManager.default.contentsOfDirectory(atPath: monaco.path) where !name.hasPrefix("places") {
            try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent(name), withDestinationURL: monaco.appendingPathComponent(name))
        }
        let source = try MapDataSource(bundleURL: folder)
        await assertFails(MKLocalSearch(request: MKLocalSearch.Request(naturalLanguageQuery: "casino"), dataSource: source),
                          code: .serverFailure, mentioning: ["re-import"])
        let geocoding = try XCTUnwrap(MKGeocodingRequest(addressString: "casino"))
        geocoding.dataSource = source
        do {
            _ = try await geocoding.mapItems
            XCTFail("geocoded without an index")
        } catch let error as MKError {
            XCTAssertEqual(error.code, .serverFailure)
        }
    }

    func testACancelledSearchFailsWithCancellation() async throws {
        let search = MKLocalSearch(request: MKLocalSearch.Request(naturalLanguageQuery: "casino"), dataSource: try monaco())
        search.cancel()
        do {
            _ = try await search.start()
            XCTFail("a cancelled search answered")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertFalse(search.isSearching)

        let geocoding = try XCTUnwrap(MKGeocodingRequest(addressString: "casino"))
        geocoding.cancel()
        XCTAssertTrue(geocoding.isCancelled)
        do {
            _ = try await geocoding.mapItems
            XCTFail("a cancelled request answered")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertFalse(geocoding.isLoading)
    }
}
