import Foundation
@testable import OpenMapKit
import TestSupport
import XCTest

/// CLGeocoder over the sample bundles' place indexes: every placemark field against the data
/// (values as `openmapkit geocode`/`reverse` print them for the same bundles), the completion and
/// async forms, cancelling, one request at a time, errors, and the MapKit conversions.
final class CLGeocoderTests: XCTestCase {
    func monaco() throws -> CLGeocoder { CLGeocoder(dataSource: try MonacoBundle.dataSource()) }
    func liechtenstein() throws -> CLGeocoder { CLGeocoder(dataSource: try MapDataSource(bundleURL: SampleBundle.liechtensteinPlaces())) }

    /// The building at 26 Avenue de la Costa (way 94399442), as the Monaco index has it.
    func assertCostaTwentySix(_ placemark: CLPlacemark, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(placemark.name, "26 Avenue de la Costa", file: file, line: line)
        XCTAssertEqual(placemark.thoroughfare, "Avenue de la Costa", file: file, line: line)
        XCTAssertEqual(placemark.subThoroughfare, "26", file: file, line: line)
        XCTAssertEqual(placemark.locality, "Monte-Carlo", file: file, line: line)
        XCTAssertNil(placemark.subLocality, "Monaco's quarters are not districts of Monte-Carlo in the data", file: file, line: line)
        XCTAssertNil(placemark.administrativeArea, "a city state has no state", file: file, line: line)
        XCTAssertNil(placemark.subAdministrativeArea, file: file, line: line)
        XCTAssertEqual(placemark.postalCode, "98000", file: file, line: line)
        XCTAssertEqual(placemark.isoCountryCode, "MC", file: file, line: line)
        XCTAssertEqual(placemark.country, "Monaco", file: file, line: line)
        XCTAssertEqual(placemark.timeZone?.identifier, "Europe/Monaco", file: file, line: line)
        XCTAssertNil(placemark.areasOfInterest, "an address is no area of interest", file: file, line: line)
        XCTAssertNil(placemark.inlandWater, file: file, line: line)
        XCTAssertNil(placemark.ocean, file: file, line: line)
        let coordinate = placemark.location?.coordinate
        XCTAssertEqual(coordinate?.latitude ?? 0, 43.7395625, accuracy: 1e-6, file: file, line: line)
        XCTAssertEqual(coordinate?.longitude ?? 0, 7.4251958, accuracy: 1e-6, file: file, line: line)
        let region = placemark.region as? CLCircularRegion
        XCTAssertEqual(region?.identifier, "w94399442", file: file, line: line)
        XCTAssertGreaterThanOrEqual(region?.radius ?? 0, CLPlacemark.minimumRegionRadius, file: file, line: line)
        XCTAssertLessThan(region?.radius ?? .infinity, 200, "a building, not a quarter", file: file, line: line)
        XCTAssertTrue(region?.contains(CLLocationCoordinate2D(latitude: 43.7395091, longitude: 7.4251634)) ?? false,
                      "the region covers the building", file: file, line: line)
        XCTAssertFalse(placemark is MKPlacemark, "Core Location answers with plain placemarks", file: file, line: line)
    }

    func testGeocodeAddressStringFillsEveryFieldFromTheMonacoIndex() async throws {
        let geocoder = try monaco()
        let placemarks = try await geocoder.geocodeAddressString("26 Avenue de la Costa")
        assertCostaTwentySix(try XCTUnwrap(placemarks.first))
        XCTAssertFalse(geocoder.isGeocoding)
        let dictionary = try XCTUnwrap(placemarks.first?.addressDictionary)
        XCTAssertEqual(dictionary["Street"] as? String, "26 Avenue de la Costa")
        XCTAssertEqual(dictionary["ZIP"] as? String, "98000")
        XCTAssertEqual(dictionary["FormattedAddressLines"] as? [String], ["26 Avenue de la Costa", "98000 Monte-Carlo", "Monaco"])
    }

    func testReverseGeocodeLocationInsideTheBuilding() async throws {
        let placemarks = try await monaco().reverseGeocodeLocation(CLLocation(latitude: 43.7395091, longitude: 7.4251634))
        XCTAssertEqual(placemarks.count, 1)
        assertCostaTwentySix(try XCTUnwrap(placemarks.first))
    }

    func testAPointOfInterestIsItsOwnAreaOfInterest() async throws {
        let placemarks = try await liechtenstein().geocodeAddressString("Städtle 32, 9490 Vaduz, Liechtenstein")
        let museum = try XCTUnwrap(placemarks.first)
        XCTAssertEqual(museum.name, "Kunstmuseum Liechtenstein")
        XCTAssertEqual(museum.areasOfInterest, ["Kunstmuseum Liechtenstein"])
        XCTAssertEqual(museum.thoroughfare, "Städtle")
        XCTAssertEqual(museum.subThoroughfare, "32")
        XCTAssertEqual(museum.locality, "Vaduz")
        XCTAssertEqual(museum.subAdministrativeArea, "Oberland")
        XCTAssertEqual(museum.postalCode, "9490")
        XCTAssertEqual(museum.isoCountryCode, "LI")
        XCTAssertEqual(museum.country, "Liechtenstein")
        XCTAssertEqual(museum.timeZone?.identifier, "Europe/Vaduz")
        XCTAssertEqual(museum.location?.coordinate.latitude ?? 0, 47.1395015, accuracy: 1e-6)
        XCTAssertEqual(museum.location?.coordinate.longitude ?? 0, 9.5220987, accuracy: 1e-6)
        XCTAssertEqual(museum.region?.identifier, "w28712148")
    }

    func testHelsinkiDistrictAndPreferredLocale() async throws {
        let geocoder = CLGeocoder(dataSource: try MapDataSource(bundleURL: SampleBundle.helsinkiPlaces()))
        let finnish = try await geocoder.geocodeAddressString("Aleksanterinkatu 36b")
        let placemark = try XCTUnwrap(finnish.first)
        XCTAssertEqual(placemark.subLocality, "Kaartinkaupunki")
        XCTAssertEqual(placemark.locality, "Helsinki")
        XCTAssertEqual(placemark.postalCode, "00100")
        XCTAssertEqual(placemark.timeZone?.identifier, "Europe/Helsinki")
        let swedish = try await geocoder.reverseGeocodeLocation(CLLocation(latitude: 60.1688498, longitude: 24.9485516),
                                                                preferredLocale: Locale(identifier: "sv_FI"))
        XCTAssertEqual(swedish.first?.thoroughfare, "Alexandersgatan")
        XCTAssertEqual(swedish.first?.locality, "Helsingfors")
        let inRegion = try await geocoder.geocodeAddressString("Alexandersgatan 36b", in: nil, preferredLocale: Locale(identifier: "sv"))
        XCTAssertEqual(inRegion.first?.subThoroughfare, "36b")
    }

    func testCompletionHandlerFormWithARegionRunsOnTheMainQueue() throws {
        let geocoder = try monaco()
        let done = expectation(description: "geocoded")
        let region = CLCircularRegion(center: MonacoBundle.center, radius: 3000, identifier: "Monaco")
        nonisolated(unsafe) var answer: [CLPlacemark]?
        geocoder.geocodeAddressString("26 Avenue de la Costa", in: region) { placemarks, error in
            XCTAssertTrue(Thread.isMainThread)
            XCTAssertNil(error)
            answer = placemarks
            done.fulfill()
        }
        XCTAssertTrue(geocoder.isGeocoding)
        wait(for: [done], timeout: 30)
        XCTAssertFalse(geocoder.isGeocoding)
        assertCostaTwentySix(try XCTUnwrap(answer?.first))
    }

    func testCancelGeocodeCallsTheHandlerWithGeocodeCanceled() throws {
        let geocoder = try monaco()
        let done = expectation(description: "cancelled")
        nonisolated(unsafe) var failure: (any Error)?, delivered: [CLPlacemark]?
        geocoder.reverseGeocodeLocation(CLLocation(latitude: 43.7395091, longitude: 7.4251634)) { placemarks, error in
            (delivered, failure) = (placemarks, error)
            done.fulfill()
        }
        geocoder.cancelGeocode()
        wait(for: [done], timeout: 30)
        XCTAssertNil(delivered)
        XCTAssertEqual((failure as? CLError)?.code, .geocodeCanceled)
        // Cancelling while idle does nothing, and the geocoder works again.
        geocoder.cancelGeocode()
        let again = expectation(description: "again")
        geocoder.reverseGeocodeLocation(CLLocation(latitude: 43.7395091, longitude: 7.4251634)) { placemarks, _ in
            delivered = placemarks
            again.fulfill()
        }
        wait(for: [again], timeout: 30)
        XCTAssertEqual(delivered?.first?.subThoroughfare, "26")
    }

    func testASecondRequestWhileOneRunsIsRefusedAndTheFirstGoesOn() throws {
        let geocoder = try monaco()
        let first = expectation(description: "first"), second = expectation(description: "second")
        nonisolated(unsafe) var firstAnswer: [CLPlacemark]?, secondError: (any Error)?
        geocoder.geocodeAddressString("26 Avenue de la Costa") { placemarks, _ in
            firstAnswer = placemarks
            first.fulfill()
        }
        geocoder.geocodeAddressString("Boulevard du Larvotto") { placemarks, error in
            XCTAssertNil(placemarks)
            secondError = error
            second.fulfill()
        }
        wait(for: [first, second], timeout: 30)
        XCTAssertEqual(firstAnswer?.first?.subThoroughfare, "26")
        XCTAssertEqual((secondError as? CLError)?.code, .network)
        XCTAssertTrue((secondError as? CLError)?.reason?.contains("one at a time") ?? false)
    }

    func testErrorsAreCoreLocationCodes() async throws {
        let geocoder = try monaco()
        do {
            _ = try await geocoder.geocodeAddressString("Qqqqqqqqqq Zzzzzzzzzz 99999")
            XCTFail("nothing is called that")
        } catch CLError.geocodeFoundNoResult {
        } catch { XCTFail("\(error)") }
        do {
            _ = try await geocoder.geocodeAddressString("   ")
            XCTFail("a blank address")
        } catch CLError.geocodeFoundNoResult {}
        do {
            _ = try await geocoder.reverseGeocodeLocation(CLLocation(latitude: .nan, longitude: 7.42))
            XCTFail("an invalid location")
        } catch CLError.geocodeFoundNoResult {}
        do {
            _ = try await geocoder.reverseGeocodeLocation(CLLocation(latitude: 48.8566, longitude: 2.3522))
            XCTFail("Paris is not in the Monaco bundle")
        } catch let error as CLError {
            XCTAssertEqual(error.code, .geocodeFoundNoResult)
            XCTAssertEqual(error.errorCode, 8)
            XCTAssertEqual(CLError.errorDomain, kCLErrorDomain)
        }
        // No place index (the data the answer needs is missing) is Core Location's network error.
        let mapped = CLGeocoder.coreLocationError(MKError(.serverFailure, reason: "the bundle has no place index"))
        XCTAssertEqual((mapped as? CLError)?.code, .network)
        XCTAssertEqual((CLGeocoder.coreLocationError(CancellationError()) as? CLError)?.code, .geocodeCanceled)
    }

    func testAsyncTaskCancellationIsGeocodeCanceled() async throws {
        let geocoder = try monaco()
        // The task waits at a gate until it has been cancelled, so the geocode cannot finish
        // first on a busy machine (cancelling a finished task changes nothing, as on Apple's).
        let gate = AsyncStream<Void>.makeStream()
        let task = Task {
            for await _ in gate.stream { break }
            return try await geocoder.geocodeAddressString("26 Avenue de la Costa")
        }
        task.cancel()
        gate.continuation.finish()
        do {
            _ = try await task.value
            XCTFail("cancelled")
        } catch CLError.geocodeCanceled {}
    }

    func testAddressDictionary() async throws {
        let geocoder = try liechtenstein()
        let placemarks = try await geocoder.geocodeAddressDictionary(["Street": "Städtle 32", "City": "Vaduz", "ZIP": 9490, "Country": "Liechtenstein"])
        XCTAssertEqual(placemarks.first?.name, "Kunstmuseum Liechtenstein")
        XCTAssertEqual(CLGeocoder.addressString(from: ["Street": "Städtle 32", "City": "Vaduz", "ZIP": 9490, "Country": "Liechtenstein"]),
                       "Städtle 32, 9490 Vaduz, Liechtenstein")
        XCTAssertEqual(CLGeocoder.addressString(from: ["FormattedAddressLines": ["Städtle 32", "9490 Vaduz"]]), "Städtle 32, 9490 Vaduz")
        // Contacts' keys, and an ISO country code that keeps only that country's places.
        let contacts = try await geocoder.geocodeAddressDictionary(["street": "Städtle 32", "city": "Vaduz", "ISOCountryCode": "LI"])
        XCTAssertEqual(contacts.first?.postalCode, "9490")
        do {
            _ = try await geocoder.geocodeAddressDictionary(["Street": "Städtle 32", "City": "Vaduz", "ISOCountryCode": "MC"])
            XCTFail("Städtle is not in Monaco")
        } catch CLError.geocodeFoundNoResult {}
        do {
            _ = try await geocoder.geocodeAddressDictionary([:])
            XCTFail("an empty address")
        } catch CLError.geocodeFoundNoResult {}
    }

    func testMKPlacemarkAndMapItemFromAGeocodedPlacemark() async throws {
        let found = try await monaco().geocodeAddressString("26 Avenue de la Costa")
        let placemark = try XCTUnwrap(found.first)
        let mapPlacemark = MKPlacemark(placemark: placemark)
        XCTAssertEqual(mapPlacemark.coordinate.latitude, placemark.location?.coordinate.latitude)
        XCTAssertEqual(mapPlacemark.postalCode, "98000")
        XCTAssertEqual(mapPlacemark.title, "26 Avenue de la Costa")
        XCTAssertEqual(mapPlacemark.timeZone?.identifier, "Europe/Monaco")
        let item = MKMapItem(placemark: mapPlacemark)
        XCTAssertEqual(item.identifier?.rawValue, "w94399442")
        XCTAssertEqual(item.timeZone?.identifier, "Europe/Monaco")
        XCTAssertEqual(item.name, "26 Avenue de la Costa")
        XCTAssertEqual(item.address?.fullAddress, "26 Avenue de la Costa, 98000 Monte-Carlo, Monaco")
        // And back: a map item's placemark is a Core Location placemark.
        let back: CLPlacemark = item.placemark
        XCTAssertEqual(CLPlacemark(placemark: back).locality, "Monte-Carlo")
        // A placemark made in code stays without an identifier or address, as before.
        let plain = MKMapItem(placemark: MKPlacemark(coordinate: MonacoBundle.center))
        XCTAssertNil(plain.identifier)
        XCTAssertNil(plain.address)
    }

    func testCircularRegionContainsGeodesically() {
        // 1000 m north of the equator is 0.0090437° of latitude on WGS84 (GeographicLib).
        let region = CLCircularRegion(center: CLLocationCoordinate2D(latitude: 0, longitude: 0), radius: 1000, identifier: "origin")
        XCTAssertTrue(region.contains(CLLocationCoordinate2D(latitude: 0.00904, longitude: 0)))
        XCTAssertFalse(region.contains(CLLocationCoordinate2D(latitude: 0.00905, longitude: 0)))
        // At 60° north a degree of longitude is half as long: 1000 m east is about 0.0179°.
        let north = CLCircularRegion(center: CLLocationCoordinate2D(latitude: 60, longitude: 0), radius: 1000, identifier: "north")
        XCTAssertTrue(north.contains(CLLocationCoordinate2D(latitude: 60, longitude: 0.0179)))
        XCTAssertFalse(north.contains(CLLocationCoordinate2D(latitude: 60, longitude: 0.0181)))
        XCTAssertFalse(region.contains(CLLocationCoordinate2D(latitude: .nan, longitude: 0)))
        XCTAssertFalse(region.contains(kCLLocationCoordinate2DInvalid))
        let negative = CLCircularRegion(center: CLLocationCoordinate2D(latitude: 1, longitude: 1), radius: -5, identifier: "negative")
        XCTAssertEqual(negative.radius, 0)
        XCTAssertTrue(negative.contains(CLLocationCoordinate2D(latitude: 1, longitude: 1)))
        XCTAssertEqual(region, CLCircularRegion(center: CLLocationCoordinate2D(latitude: 5, longitude: 5), radius: 1, identifier: "origin"),
                       "regions are the same by identifier")
        XCTAssertTrue(region.notifyOnEntry && region.notifyOnExit)
    }
}
