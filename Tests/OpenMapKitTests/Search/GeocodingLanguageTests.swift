import Foundation
import OpenMapKit
import TestSupport
import XCTest

/// CLGeocoder's `preferredLocale`: the answer in that language where the data has it (issue 21),
/// on Helsinki, whose addresses are tagged in Finnish and whose streets and towns also in Swedish.
final class GeocodingLanguageTests: XCTestCase {
    func source() throws -> MapDataSource { try MapDataSource(bundleURL: SampleBundle.helsinkiPlaces()) }

    func testGeocodingAnswersInSwedishAndFindsTheSwedishStreetName() async throws {
        let request = try XCTUnwrap(MKGeocodingRequest(addressString: "Alexandersgatan 36b, Helsingfors"))
        request.dataSource = try source()
        request.preferredLocale = Locale(identifier: "sv_FI")
        let items = try await request.mapItems
        let item = try XCTUnwrap(items.first)
        XCTAssertEqual(item.placemark.thoroughfare, "Alexandersgatan")
        XCTAssertEqual(item.placemark.subThoroughfare, "36b")
        XCTAssertEqual(item.placemark.locality, "Helsingfors")
        XCTAssertEqual(item.placemark.isoCountryCode, "FI")

        let finnish = try XCTUnwrap(MKGeocodingRequest(addressString: "Alexandersgatan 36b"))
        finnish.dataSource = try source()
        finnish.preferredLocale = Locale(identifier: "fi_FI")
        let inFinnish = try await finnish.mapItems
        XCTAssertEqual(inFinnish.first?.placemark.thoroughfare, "Aleksanterinkatu")

        let unset = try XCTUnwrap(MKGeocodingRequest(addressString: "Aleksanterinkatu 36b"))
        unset.dataSource = try source()
        let asTagged = try await unset.mapItems
        XCTAssertEqual(asTagged.first?.placemark.thoroughfare, "Aleksanterinkatu", "no locale: the data's name")
    }

    func testReverseGeocodingAnswersInSwedish() async throws {
        let request = try XCTUnwrap(MKReverseGeocodingRequest(location: CLLocation(latitude: 60.1688498, longitude: 24.9485516)))
        request.dataSource = try source()
        request.preferredLocale = Locale(identifier: "sv")
        let items = try await request.mapItems
        let item = try XCTUnwrap(items.first)
        XCTAssertEqual(item.placemark.thoroughfare, "Alexandersgatan")
        XCTAssertEqual(item.placemark.locality, "Helsingfors")
    }
}
