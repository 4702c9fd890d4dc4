import Foundation
import TestSupport
@testable import OpenMapKit
import XCTest

/// MKLocalSearch, MKLocalPointsOfInterestRequest, MKLocalSearchCompleter, geocoding, reverse
/// geocoding and MKMapItemRequest on the Monaco bundle's place index.
final class LocalSearchTests: XCTestCase {
    static let casinoID = "n4416197079"
    let casinoSquare = CLLocationCoordinate2D(latitude: 43.7394, longitude: 7.4283)

    func search(_ request: MKLocalSearch.Request) async throws -> MKLocalSearch.Response {
        try await MKLocalSearch(request: request, dataSource: MonacoBundle.dataSource()).start()
    }

    func distance(_ a: CLLocationCoordinate2D, _ b: CLLocationCoordinate2D) -> CLLocationDistance {
        CLLocation(latitude: a.latitude, longitude: a.longitude).distance(from: CLLocation(latitude: b.latitude, longitude: b.longitude))
    }

    func testSearchByName() async throws {
        let response = try await search(MKLocalSearch.Request(naturalLanguageQuery: "Casino de Monte Carlo"))
        let first = try XCTUnwrap(response.mapItems.first)
        XCTAssertEqual(first.identifier?.rawValue, Self.casinoID)
        XCTAssertEqual(first.name, "Casino de Monte Carlo")
        XCTAssertEqual(first.placemark.isoCountryCode, "MC")
        XCTAssertLessThan(distance(first.location.coordinate, casinoSquare), 300)
        // The bounding region holds every item.
        let region = response.boundingRegion
        for item in response.mapItems {
            let c = item.location.coordinate
            XCTAssertLessThanOrEqual(abs(c.latitude - region.center.latitude), region.span.latitudeDelta / 2 + 1e-9, "\(item)")
            XCTAssertLessThanOrEqual(abs(c.longitude - region.center.longitude), region.span.longitudeDelta / 2 + 1e-9, "\(item)")
        }
        // Each place once.
        let ids = response.mapItems.compactMap(\.identifier)
        XCTAssertEqual(ids.count, Set(ids).count)
    }

    /// `preferredLocale` answers in that language (the street and town by their `name:sv`, the
    /// country by CLDR); without it, names are as tagged.
    func testSearchAnswersInThePreferredLocale() async throws {
        let source = try MapDataSource(bundleURL: SampleBundle.helsinkiPlaces())
        let request = MKLocalSearch.Request(naturalLanguageQuery: "Aleksanterinkatu 36b")
        let taggedItems = try await MKLocalSearch(request: request, dataSource: source).start().mapItems
        let tagged = try XCTUnwrap(taggedItems.first)
        XCTAssertEqual(tagged.placemark.thoroughfare, "Aleksanterinkatu")
        request.preferredLocale = Locale(identifier: "sv_FI")
        let swedishItems = try await MKLocalSearch(request: request, dataSource: source).start().mapItems
        let swedish = try XCTUnwrap(swedishItems.first)
        XCTAssertEqual(swedish.identifier, tagged.identifier)
        XCTAssertEqual(swedish.placemark.thoroughfare, "Alexandersgatan")
        XCTAssertEqual(swedish.placemark.locality, "Helsingfors")
        XCTAssertEqual(swedish.address?.shortAddress, "Alexandersgatan 36b, Helsingfors")
        request.preferredLocale = Locale(identifier: "de")
        let germanItems = try await MKLocalSearch(request: request, dataSource: source).start().mapItems
        XCTAssertEqual(germanItems.first?.placemark.country, "Finnland")
    }

    func testCategoryWordsFindPointsOfInterestNearTheRegion() async throws {
        let near = CLLocationCoordinate2D(latitude: 43.743728, longitude: 7.428506)
        let request = MKLocalSearch.Request(naturalLanguageQuery: "pharmacy",
                                            region: MKCoordinateRegion(center: near, latitudinalMeters: 2000, longitudinalMeters: 2000))
        let response = try await search(request)
        XCTAssertGreaterThan(response.mapItems.count, 1)
        for item in response.mapItems { XCTAssertEqual(item.pointOfInterestCategory, .pharmacy, "\(item)") }
        // The region biases the order: the first is the nearest of them, or close to it.
        let nearest = response.mapItems.map { distance($0.location.coordinate, near) }.min()!
        XCTAssertLessThan(distance(response.mapItems[0].location.coordinate, near), nearest + 300)
    }

    func testRequiredRegionRestrictsResults() async throws {
        let larvotto = MKCoordinateRegion(center: CLLocationCoordinate2D(latitude: 43.7455, longitude: 7.4335), latitudinalMeters: 1000,
                                          longitudinalMeters: 1000)
        let request = MKLocalSearch.Request(naturalLanguageQuery: "restaurant", region: larvotto)
        request.regionPriority = .required
        let response = try await search(request)
        for item in response.mapItems {
            let c = item.location.coordinate
            XCTAssertLessThanOrEqual(abs(c.latitude - larvotto.center.latitude), larvotto.span.latitudeDelta / 2 + 1e-9, "\(item)")
            XCTAssertLessThanOrEqual(abs(c.longitude - larvotto.center.longitude), larvotto.span.longitudeDelta / 2 + 1e-9, "\(item)")
        }
        // Far from the data, a required region finds nothing: placemarkNotFound, with the reason.
        let paris = MKLocalSearch.Request(naturalLanguageQuery: "restaurant",
                                          region: MKCoordinateRegion(center: CLLocationCoordinate2D(latitude: 48.85, longitude: 2.35),
                                                                     latitudinalMeters: 2000, longitudinalMeters: 2000))
        paris.regionPriority = .required
        do {
            _ = try await search(paris)
            XCTFail("found restaurants in Paris in the Monaco bundle")
        } catch let error as MKError {
            XCTAssertEqual(error.code, .placemarkNotFound)
            XCTAssertTrue(error.localizedDescription.contains("region"), error.localizedDescription)
        }
    }

    func testResultTypesAndFilters() async throws {
        let streets = MKLocalSearch.Request(naturalLanguageQuery: "Avenue de la Costa")
        streets.resultTypes = .address
        let found = try await search(streets)
        for item in found.mapItems { XCTAssertNil(item.pointOfInterestCategory, "\(item) is a point of interest") }
        XCTAssertEqual(found.mapItems.first?.placemark.thoroughfare, "Avenue de la Costa")

        let pois = MKLocalSearch.Request(naturalLanguageQuery: "Monte Carlo")
        pois.resultTypes = .pointOfInterest
        pois.pointOfInterestFilter = MKPointOfInterestFilter(excluding: [.hotel])
        let poiItems = try await search(pois).mapItems
        XCTAssertFalse(poiItems.isEmpty)
        for item in poiItems {
            XCTAssertEqual(item.placeKind, .pointOfInterest, "\(item)")
            XCTAssertNotEqual(item.pointOfInterestCategory, .hotel, "\(item)")
        }

        // An including filter keeps streets and natural features: it only filters points of interest.
        let mixed = MKLocalSearch.Request(naturalLanguageQuery: "Casino")
        mixed.pointOfInterestFilter = MKPointOfInterestFilter(including: [.cafe])
        let mixedItems = try await search(mixed).mapItems
        XCTAssertTrue(mixedItems.contains { $0.placeKind != .pointOfInterest }, "\(mixedItems)")
        for item in mixedItems where item.placeKind == .pointOfInterest {
            XCTAssertEqual(item.pointOfInterestCategory, .cafe, "\(item)")
        }

        // The address filter drops the kinds of area it excludes, and only those.
        let towns = MKLocalSearch.Request(naturalLanguageQuery: "Monaco")
        towns.resultTypes = .address
        let all = try await search(towns).mapItems
        XCTAssertTrue(all.contains { $0.placeKind == .locality && $0.placemark.locality == "Monaco" }, "\(all)")
        towns.addressFilter = MKAddressFilter(excluding: [.locality])
        let filtered = try await search(towns).mapItems
        XCTAssertFalse(filtered.isEmpty)
        for item in filtered {
            XCTAssertFalse(item.placeKind == .locality && item.placemark.locality == item.name, "a town came back: \(item)")
        }
    }

    func testPointsOfInterestAroundAPoint() async throws {
        let request = MKLocalPointsOfInterestRequest(center: casinoSquare, radius: 300)
        request.pointOfInterestFilter = MKPointOfInterestFilter(including: [.restaurant, .cafe])
        let response = try await MKLocalSearch(request: request, dataSource: MonacoBundle.dataSource()).start()
        XCTAssertFalse(response.mapItems.isEmpty)
        var last = 0.0
        for item in response.mapItems {
            let d = distance(item.location.coordinate, casinoSquare)
            XCTAssertLessThanOrEqual(d, 300, "\(item)")
            XCTAssertGreaterThanOrEqual(d, last, "nearest first")
            last = d
            XCTAssertTrue([.restaurant, .cafe].contains(item.pointOfInterestCategory), "\(item)")
        }

        // Beyond MapKit's maximum radius nothing is returned, even when more was asked for.
        let wide = MKLocalPointsOfInterestRequest(center: casinoSquare, radius: 50_000)
        XCTAssertEqual(wide.radius, 50_000)
        let all = try await MKLocalSearch(request: wide, dataSource: MonacoBundle.dataSource()).start()
        XCTAssertFalse(all.mapItems.isEmpty)
        for item in all.mapItems {
            XCTAssertLessThanOrEqual(distance(item.location.coordinate, casinoSquare), MKLocalPointsOfInterestRequest.maxRadius, "\(item)")
        }

        // A region: everything inside it.
        let box = MKCoordinateRegion(center: casinoSquare, latitudinalMeters: 400, longitudinalMeters: 400)
        let inBox = try await MKLocalSearch(request: MKLocalPointsOfInterestRequest(coordinateRegion: box), dataSource: MonacoBundle.dataSource()).start()
        XCTAssertFalse(inBox.mapItems.isEmpty)
        for item in inBox.mapItems {
            XCTAssertLessThanOrEqual(abs(item.location.coordinate.latitude - box.center.latitude), box.span.latitudeDelta / 2 + 1e-9)
        }
    }

    func testGeocodingAndReverseGeocoding() async throws {
        let source = try MonacoBundle.dataSource()
        let geocoding = try XCTUnwrap(MKGeocodingRequest(addressString: "26 Avenue de la Costa"))
        geocoding.dataSource = source
        let items = try await geocoding.mapItems
        let first = try XCTUnwrap(items.first)
        XCTAssertEqual(first.placemark.thoroughfare, "Avenue de la Costa")
        XCTAssertEqual(first.placemark.subThoroughfare, "26")
        XCTAssertEqual(first.placemark.isoCountryCode, "MC")
        let full = try XCTUnwrap(first.address?.fullAddress)
        XCTAssertTrue(full.contains("26 Avenue de la Costa"), full)
        XCTAssertFalse(geocoding.isLoading)

        // A number the street does not have: the street.
        let missing = try XCTUnwrap(MKGeocodingRequest(addressString: "9999 Avenue de la Costa"))
        missing.dataSource = source
        let streets = try await missing.getMapItems()
        let street = try XCTUnwrap(streets.first)
        XCTAssertEqual(street.placeKind, .street)
        XCTAssertEqual(street.placemark.thoroughfare, "Avenue de la Costa")
        XCTAssertNil(street.placemark.subThoroughfare)

        // Inside the building at 26 Avenue de la Costa.
        let reverse = try XCTUnwrap(MKReverseGeocodingRequest(location: CLLocation(latitude: 43.7395091, longitude: 7.4251634)))
        reverse.dataSource = source
        let answers = try await reverse.mapItems
        let here = try XCTUnwrap(answers.first)
        XCTAssertEqual(here.placemark.thoroughfare, "Avenue de la Costa")
        XCTAssertEqual(here.placemark.subThoroughfare, "26")
        XCTAssertNotNil(here.placemark.locality)
        XCTAssertEqual(here.addressRepresentations?.region?.identifier, "MC")
        XCTAssertNotNil(here.addressRepresentations?.cityWithContext)

        // Far out at sea, in Paris: nothing in this bundle.
        let paris = try XCTUnwrap(MKReverseGeocodingRequest(location: CLLocation(latitude: 48.85, longitude: 2.35)))
        paris.dataSource = source
        do {
            let items = try await paris.mapItems
            XCTFail("reverse geocoded Paris to \(items)")
        } catch let error as MKError {
            XCTAssertEqual(error.code, .placemarkNotFound)
        }

        let nowhere = try XCTUnwrap(MKGeocodingRequest(addressString: "qqqxxzzv wwwkkj"))
        nowhere.dataSource = source
        do {
            _ = try await nowhere.mapItems
            XCTFail("geocoded nonsense")
        } catch let error as MKError {
            XCTAssertEqual(error.code, .placemarkNotFound)
            XCTAssertTrue(error.localizedDescription.contains("qqqxxzzv"), error.localizedDescription)
        }
    }

    func testMapItemRequestResolvesStoredIdentifiers() async throws {
        let source = try MonacoBundle.dataSource()
        let found = try await search(MKLocalSearch.Request(naturalLanguageQuery: "Casino de Monte Carlo"))
        let identifier = try XCTUnwrap(found.mapItems.first?.identifier)
        // Stored as text and brought back, as an app would.
        let stored = identifier.rawValue
        let request = MKMapItemRequest(mapItemIdentifier: try XCTUnwrap(MKMapItem.Identifier(rawValue: stored)))
        request.dataSource = source
        let item = try await request.mapItem
        XCTAssertEqual(item.identifier, identifier)
        XCTAssertEqual(item.name, found.mapItems.first?.name)

        let gone = MKMapItemRequest(mapItemIdentifier: MKMapItem.Identifier(rawValue: "n1")!)
        gone.dataSource = source
        do {
            _ = try await gone.mapItem
            XCTFail("n1 is not in Monaco")
        } catch let error as MKError {
            XCTAssertEqual(error.code, .placemarkNotFound)
        }
    }

    func testSeveralBundlesAreMergedWithoutRepeats() async throws {
        let url = try MonacoBundle.dataSource().bundles[0].url
        let twice = try MapDataSource(bundleURLs: [url, url])
        let response = try await MKLocalSearch(request: MKLocalSearch.Request(naturalLanguageQuery: "restaurant"), dataSource: twice).start()
        let ids = response.mapItems.compactMap(\.identifier)
        XCTAssertFalse(ids.isEmpty)
        XCTAssertEqual(ids.count, Set(ids).count, "a place in both bundles is returned once")
        let reverse = try XCTUnwrap(MKReverseGeocodingRequest(location: CLLocation(latitude: 43.7395091, longitude: 7.4251634)))
        reverse.dataSource = twice
        let items = try await reverse.mapItems
        XCTAssertEqual(items.count, 1)
    }

    func testCompletionHandlerIsCalledOnTheGivenQueue() throws {
        let queue = DispatchQueue(label: "search-test")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 7)
        let done = expectation(description: "search finished")
        let search = MKLocalSearch(request: MKLocalSearch.Request(naturalLanguageQuery: "Casino de Monte Carlo"), dataSource: try MonacoBundle.dataSource())
        search.start(with: queue) { response, error in
            XCTAssertEqual(DispatchQueue.getSpecific(key: key), 7)
            XCTAssertNil(error)
            XCTAssertEqual(response?.mapItems.first?.identifier?.rawValue, Self.casinoID)
            done.fulfill()
        }
        wait(for: [done], timeout: 60)
        XCTAssertFalse(search.isSearching)
    }

    /// The README's example runs as shown (through the default data source) and is still shown.
    func testReadmeExampleRuns() async throws {
        MapDataSource.default = try MonacoBundle.dataSource()
        defer { MapDataSource.default = nil }
        // README search begin
        let request = MKLocalSearch.Request(naturalLanguageQuery: "pharmacy")
        request.region = MKCoordinateRegion(center: CLLocationCoordinate2D(latitude: 43.7437, longitude: 7.4285),
                                            latitudinalMeters: 2000, longitudinalMeters: 2000)
        let response = try await MKLocalSearch(request: request).start()
        for item in response.mapItems {
            print(item.name ?? "", item.address?.shortAddress ?? "", item.identifier?.rawValue ?? "")
        }

        let home = try await MKGeocodingRequest(addressString: "26 Avenue de la Costa")!.mapItems.first
        let here = try await MKReverseGeocodingRequest(location: CLLocation(latitude: 43.7395, longitude: 7.4252))!.mapItems.first
        print(here?.addressRepresentations?.fullAddress(includingRegion: true, singleLine: true) ?? "")
        // README search end
        XCTAssertFalse(response.mapItems.isEmpty)
        XCTAssertTrue(response.mapItems.allSatisfy { $0.pointOfInterestCategory == .pharmacy })
        XCTAssertEqual(home?.placemark.subThoroughfare, "26")
        XCTAssertEqual(here?.placemark.isoCountryCode, "MC")

        let readme = try String(contentsOf: TestData.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let begin = try XCTUnwrap(source.range(of: "// README search begin\n")), end = try XCTUnwrap(source.range(of: "// README search end"))
        let lines = source[begin.upperBound..<end.lowerBound].split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertEqual(lines.filter { !$0.isEmpty }.count, 10)
        for line in lines where !line.isEmpty {
            XCTAssertTrue(readme.contains(line), "README lacks: \(line)")
        }
    }
}
