import MapSearch
import XCTest
@testable import MapImport

/// The `addr:*` tags of an object and the admin-level practice of a country become address fields
/// for any country, not only the sample extracts' (issue 21).
final class AddressTaggingTests: XCTestCase {
    func testCzechNumbersAndVillageAddresses() {
        // Only the conscription and street numbers: written "681/36", found by either.
        let prague: [(key: String, value: String)] = [("addr:conscriptionnumber", "681"), ("addr:streetnumber", "36"),
                                                      ("addr:street", "Vodičkova"), ("addr:city", "Praha")]
        XCTAssertEqual(PlaceTagging.address(prague).houseNumber, "681/36")
        XCTAssertEqual(PlaceTagging.classify(prague, isLine: false)?.kind, .address)
        XCTAssertEqual(Set(PlaceTagging.searchNumbers(prague)), ["681 Vodičkova", "36 Vodičkova"])
        // A village without street names: addr:place is the street line.
        let village: [(key: String, value: String)] = [("addr:housenumber", "12"), ("addr:place", "Lhota")]
        XCTAssertEqual(PlaceTagging.address(village).street, "Lhota")
        XCTAssertNil(PlaceTagging.address(village).subLocality)
        // Beside a street, addr:place is the part of town; addr:suburb comes first, addr:hamlet last.
        let both: [(key: String, value: String)] = [("addr:housenumber", "3"), ("addr:street", "Hlavní"), ("addr:place", "Lhota")]
        XCTAssertEqual(PlaceTagging.address(both).street, "Hlavní")
        XCTAssertEqual(PlaceTagging.address(both).subLocality, "Lhota")
        let hamlet: [(key: String, value: String)] = [("addr:housenumber", "3"), ("addr:street", "Weg"), ("addr:hamlet", "Au")]
        XCTAssertEqual(PlaceTagging.address(hamlet).subLocality, "Au")
    }

    func testUnitsAreSearchableAfterTheNumber() {
        let flat: [(key: String, value: String)] = [("addr:housenumber", "5 A"), ("addr:unit", "3"), ("addr:street", "Mannerheimintie")]
        XCTAssertEqual(PlaceTagging.address(flat).houseNumber, "5 A")
        XCTAssertEqual(PlaceTagging.searchNumbers(flat), ["5 A 3 Mannerheimintie"])
    }

    func testAdminLevelsFollowEachCountrysPublishedPractice() {
        XCTAssertEqual(AddressLevels.field(adminLevel: 2, countryCode: "FI"), .country)
        XCTAssertEqual(AddressLevels.field(adminLevel: 4, countryCode: "US"), .administrativeArea)
        XCTAssertEqual(AddressLevels.field(adminLevel: 6, countryCode: "US"), .subAdministrativeArea)
        XCTAssertEqual(AddressLevels.field(adminLevel: 8, countryCode: "DE"), .locality)
        XCTAssertEqual(AddressLevels.field(adminLevel: 10, countryCode: "FI"), .subLocality)
        XCTAssertNil(AddressLevels.field(adminLevel: 11, countryCode: "FI"), "a neighbourhood has no MapKit field")
        // Countries whose levels mean something else.
        XCTAssertNil(AddressLevels.field(adminLevel: 5, countryCode: "DE"), "Regierungsbezirke are not written in addresses")
        XCTAssertEqual(AddressLevels.field(adminLevel: 4, countryCode: "SE"), .subAdministrativeArea, "Swedish counties")
        XCTAssertEqual(AddressLevels.field(adminLevel: 3, countryCode: "NO"), .administrativeArea)
        XCTAssertEqual(AddressLevels.field(adminLevel: 7, countryCode: "JP"), .locality)
        XCTAssertEqual(AddressLevels.field(adminLevel: 8, countryCode: "NL"), .locality)
        XCTAssertNil(AddressLevels.field(adminLevel: 9, countryCode: "NL"))
    }
}
