import Foundation
import MapSearch
@testable import OpenMapKit
import XCTest

/// MKMapItem, MKAddress and MKAddressRepresentations built from place records: the fields a
/// search result carries and the address formatting per country.
final class MapItemAddressTests: XCTestCase {
    let english = Locale(identifier: "en_US")

    func record(_ id: String, kind: PlaceKind = .address, name: String? = nil, names: [String: String] = [:],
                _ address: PlaceAddress, category: String? = nil, phone: String? = nil, website: String? = nil,
                timeZone: String? = nil) -> PlaceRecord {
        PlaceRecord(id: id, alternateIDs: ["n99", ""], kind: kind, name: name, names: names,
                    coordinate: CLLocationCoordinate2D(latitude: 43.7384, longitude: 7.4246), category: category,
                    address: address, phone: phone, website: website, timeZone: timeZone)
    }

    func testMonacoAddressPutsTheNumberFirst() throws {
        let item = MKMapItem(record: record("w1", PlaceAddress(houseNumber: "12", street: "Avenue de la Costa", postalCode: "98000",
                                                               locality: "Monaco", country: "Monaco", countryCode: "mc")),
                             locale: english)
        // An address has no name of its own: it is named by its street line.
        XCTAssertEqual(item.name, "12 Avenue de la Costa")
        XCTAssertEqual(item.identifier?.rawValue, "w1")
        XCTAssertEqual(item.alternateIdentifiers, [MKMapItem.Identifier(rawValue: "n99")!], "the empty alternate is dropped")
        XCTAssertEqual(item.placemark.isoCountryCode, "MC")
        XCTAssertEqual(item.placemark.thoroughfare, "Avenue de la Costa")
        XCTAssertEqual(item.placemark.subThoroughfare, "12")
        XCTAssertEqual(item.address?.fullAddress, "12 Avenue de la Costa, 98000 Monaco, Monaco")
        XCTAssertEqual(item.address?.shortAddress, "12 Avenue de la Costa, Monaco")
        let representations = try XCTUnwrap(item.addressRepresentations)
        XCTAssertEqual(representations.fullAddress(includingRegion: false, singleLine: false), "12 Avenue de la Costa\n98000 Monaco")
        XCTAssertEqual(representations.cityName, "Monaco")
        XCTAssertEqual(representations.regionName, "Monaco")
        XCTAssertEqual(representations.region?.identifier, "MC")
    }

    func testLiechtensteinPutsTheNumberAfterTheStreetAndAndorraBefore() throws {
        let vaduz = MKMapItem(record: record("n2", PlaceAddress(houseNumber: "12", street: "Städtle", postalCode: "9490", locality: "Vaduz",
                                                                country: "Liechtenstein", countryCode: "LI")), locale: english)
        XCTAssertEqual(vaduz.address?.fullAddress, "Städtle 12, 9490 Vaduz, Liechtenstein")
        XCTAssertEqual(vaduz.addressRepresentations?.cityWithContext, "Vaduz, Liechtenstein")

        let andorra = MKMapItem(record: record("n3", PlaceAddress(houseNumber: "7", street: "Avinguda Meritxell", postalCode: "AD500",
                                                                  locality: "Andorra la Vella", administrativeArea: "Andorra la Vella",
                                                                  country: "Andorra", countryCode: "AD")), locale: english)
        // Andorra writes the number first, as France does (OpenCage's template and testcase, and
        // the UPU's example "2 Avinguda Carlemany, AD700 Escaldes-Engordany").
        XCTAssertEqual(andorra.address?.fullAddress, "7 Avinguda Meritxell, AD500 Andorra la Vella, Andorra")
        // The parish has the town's name: the context is the country, never the name twice.
        XCTAssertEqual(andorra.addressRepresentations?.cityWithContext(.full), "Andorra la Vella, Andorra")
    }

    func testUSAddressesWriteTheStateAndPostcodeAfterTheCity() throws {
        let item = MKMapItem(record: record("n4", name: "Apple Park", PlaceAddress(houseNumber: "1", street: "Apple Park Way", postalCode: "95014",
                                                                                  locality: "Cupertino", administrativeArea: "CA", country: "United States",
                                                                                  countryCode: "US")), locale: english)
        let representations = try XCTUnwrap(item.addressRepresentations)
        XCTAssertEqual(representations.fullAddress(includingRegion: true, singleLine: false), "1 Apple Park Way\nCupertino, CA 95014\nUnited States")
        XCTAssertEqual(representations.cityWithContext(.automatic), "Cupertino, CA")
        XCTAssertEqual(representations.cityWithContext(.full), "Cupertino, CA, United States")
        XCTAssertEqual(item.name, "Apple Park")
        XCTAssertEqual(item.placemark.title, "Apple Park")
    }

    func testAddressesFollowOpenCagesFormatForTheCountry() throws {
        // The data names the state; the US writes its code beside the town.
        let capitol = MKMapItem(record: record("w12", PlaceAddress(houseNumber: "1600", street: "Pennsylvania Avenue NW", postalCode: "20500",
                                                                   locality: "Washington", administrativeArea: "District of Columbia",
                                                                   countryCode: "US")), locale: english)
        XCTAssertEqual(capitol.name, "1600 Pennsylvania Avenue NW")
        XCTAssertEqual(capitol.address?.fullAddress, "1600 Pennsylvania Avenue NW, Washington, DC 20500, United States")
        XCTAssertEqual(capitol.addressRepresentations?.cityWithContext, "Washington, DC")
        XCTAssertEqual(capitol.addressRepresentations?.cityWithContext(.short), "Washington, District of Columbia")

        // The UK: town and postcode on lines of their own; without the region, no country line.
        let downing = MKMapItem(record: record("w13", PlaceAddress(houseNumber: "10", street: "Downing Street", postalCode: "SW1A 2AA",
                                                                   locality: "London", administrativeArea: "England", countryCode: "GB")),
                                locale: english)
        let representations = try XCTUnwrap(downing.addressRepresentations)
        XCTAssertEqual(representations.fullAddress(includingRegion: false, singleLine: false), "10 Downing Street\nLondon\nSW1A 2AA")
        XCTAssertEqual(representations.fullAddress(includingRegion: true, singleLine: true), "10 Downing Street, London, SW1A 2AA, United Kingdom")
        XCTAssertEqual(representations.cityWithContext, "London, United Kingdom", "the UK does not name towns by their country part")

        // Spain: "Calle, número"; a number without a street is no street line.
        let madrid = MKMapItem(record: record("n14", PlaceAddress(houseNumber: "42", street: "Calle de Alcalá", postalCode: "28014",
                                                                  locality: "Madrid", countryCode: "ES")), locale: english)
        XCTAssertEqual(madrid.address?.fullAddress, "Calle de Alcalá, 42, 28014 Madrid, Spain")
        let numberOnly = MKMapItem(record: record("n15", kind: .pointOfInterest, name: "Kiosk", PlaceAddress(houseNumber: "42", postalCode: "28014",
                                                                                                             locality: "Madrid", countryCode: "ES")),
                                   locale: english)
        XCTAssertEqual(numberOnly.address?.fullAddress, "28014 Madrid, Spain")
    }

    func testPointOfInterestFields() throws {
        let cafe = MKMapItem(record: record("n5", kind: .pointOfInterest, name: "Café de Paris", names: ["en": "Paris Café"],
                                            PlaceAddress(street: "Place du Casino", locality: "Monaco", countryCode: "MC"),
                                            category: "MKPOICategoryCafe", phone: "+377 98 06 76 23", website: "www.example.mc/cafe",
                                            timeZone: "Europe/Monaco"))
        XCTAssertEqual(cafe.name, "Café de Paris", "without a preferred locale the OSM name= is used")
        XCTAssertEqual(cafe.pointOfInterestCategory, .cafe)
        XCTAssertEqual(cafe.phoneNumber, "+377 98 06 76 23")
        XCTAssertEqual(cafe.url?.absoluteString, "https://www.example.mc/cafe", "a website without a scheme gets https")
        XCTAssertEqual(cafe.timeZone?.identifier, "Europe/Monaco")
        XCTAssertEqual(cafe.placemark.timeZone?.identifier, "Europe/Monaco")
        // The address is the place's address, without its name.
        XCTAssertEqual(cafe.address?.shortAddress, "Place du Casino, Monaco")

        let translated = MKMapItem(record: record("n5", kind: .pointOfInterest, name: "Café de Paris", names: ["en": "Paris Café"],
                                                  PlaceAddress(countryCode: "MC")), locale: english)
        XCTAssertEqual(translated.name, "Paris Café", "name:en for an English locale")

        let broken = MKMapItem(record: record("n6", kind: .pointOfInterest, name: "X", PlaceAddress(), website: "not a url", timeZone: "Mars/Olympus"))
        XCTAssertNil(broken.url)
        XCTAssertNil(broken.timeZone)
        XCTAssertNil(broken.address, "no address parts, no address")
        XCTAssertNil(broken.addressRepresentations)
    }

    func testTownsAndAreasAreTheirOwnAddressParts() {
        let town = MKMapItem(record: record("r7", kind: .locality, name: "Vaduz", PlaceAddress(country: "Liechtenstein", countryCode: "LI")),
                             locale: english)
        XCTAssertEqual(town.placemark.locality, "Vaduz")
        XCTAssertEqual(town.address?.fullAddress, "Vaduz, Liechtenstein")
        XCTAssertNil(town.address?.shortAddress, "a town has no street line")

        let street = MKMapItem(record: record("w8", kind: .street, name: "Boulevard du Larvotto",
                                              PlaceAddress(locality: "Monaco", countryCode: "MC")), locale: english)
        XCTAssertEqual(street.placemark.thoroughfare, "Boulevard du Larvotto")
        XCTAssertEqual(street.address?.shortAddress, "Boulevard du Larvotto, Monaco")
    }

    func testItemsMadeInCode() throws {
        XCTAssertNil(MKAddress(fullAddress: "  ", shortAddress: nil))
        let address = try XCTUnwrap(MKAddress(fullAddress: "1 Main St\nSpringfield", shortAddress: ""))
        XCTAssertNil(address.shortAddress, "an empty short form is no short form")
        let item = MKMapItem(location: CLLocation(latitude: 43.7, longitude: 7.4), address: address)
        XCTAssertEqual(item.location.coordinate.latitude, 43.7)
        XCTAssertEqual(item.placemark.coordinate.longitude, 7.4)
        XCTAssertEqual(item.address, address)
        XCTAssertEqual(item.addressRepresentations?.fullAddress(includingRegion: true, singleLine: true), "1 Main St, Springfield")
        XCTAssertNil(item.identifier)

        let placemark = MKPlacemark(coordinate: CLLocationCoordinate2D(latitude: 47.14, longitude: 9.52),
                                    addressDictionary: ["Street": "Städtle", "City": "Vaduz", "ZIP": 9490, "ISOCountryCode": "LI"])
        XCTAssertEqual(placemark.locality, "Vaduz")
        XCTAssertNil(placemark.postalCode, "a value of the wrong type is ignored")
        XCTAssertEqual(placemark.title, "Städtle")
    }

    func testIdentifiers() throws {
        XCTAssertNil(MKMapItem.Identifier(rawValue: ""))
        XCTAssertNil(MKMapItem.Identifier(rawValue: " \n"))
        let id = try XCTUnwrap(MKMapItem.Identifier(rawValue: "w45"))
        let data = try JSONEncoder().encode([id])
        XCTAssertEqual(String(decoding: data, as: UTF8.self), #"["w45"]"#)
        XCTAssertEqual(try JSONDecoder().decode([MKMapItem.Identifier].self, from: data), [id])
        XCTAssertThrowsError(try JSONDecoder().decode([MKMapItem.Identifier].self, from: Data(#"[""]"#.utf8)))
    }

    func testAddressFilter() {
        let filter = MKAddressFilter(excluding: [.country, .postalCode])
        XCTAssertTrue(filter.includesOptions(.locality))
        XCTAssertTrue(filter.includesOptions([.locality, .subLocality]))
        XCTAssertFalse(filter.includesOptions([.locality, .country]))
        XCTAssertTrue(filter.excludesOptions(.country))
        XCTAssertFalse(filter.excludesOptions([.country, .locality]))
        XCTAssertTrue(MKAddressFilter.excludingAll.excludesOptions(.locality))
        XCTAssertEqual(MKAddressFilter(including: [.locality]), MKAddressFilter(excluding: [.country, .administrativeArea, .subAdministrativeArea,
                                                                                             .subLocality, .postalCode]))
        let country = record("r1", kind: .administrativeArea, name: "Monaco", PlaceAddress(country: "Monaco", countryCode: "MC"))
        let town = record("n2", kind: .locality, name: "Monte-Carlo", PlaceAddress(country: "Monaco", countryCode: "MC"))
        let street = record("w3", kind: .street, name: "Rue Grimaldi", PlaceAddress(countryCode: "MC"))
        XCTAssertFalse(filter.keeps(country))
        XCTAssertTrue(filter.keeps(town))
        XCTAssertTrue(MKAddressFilter.excludingAll.keeps(street), "streets are not address areas")
        XCTAssertFalse(MKAddressFilter.excludingAll.keeps(town))
    }

    func testHouseNumbersAreRemovedForTheStreetFallback() {
        XCTAssertEqual(MKGeocodingRequest.removingHouseNumbers("Städtle 12, Vaduz"), "Städtle Vaduz")
        XCTAssertEqual(MKGeocodingRequest.removingHouseNumbers("12a-14 Avenue de la Costa 98000 Monaco"), "Avenue de la Costa Monaco")
        XCTAssertNil(MKGeocodingRequest.removingHouseNumbers("Avenue de la Costa"), "nothing to remove")
        XCTAssertNil(MKGeocodingRequest.removingHouseNumbers("12 34"), "nothing would be left")
        XCTAssertEqual(MKGeocodingRequest.removingHouseNumbers("AD500 Andorra"), nil, "a postcode starting with letters stays")
    }

    func testCompletionsWriteTheStreetLineTheCountrysWay() {
        let address = PlaceAddress(houseNumber: "32", street: "Städtle", locality: "Vaduz", country: "Liechtenstein", countryCode: "LI")
        let museum = record("n9", kind: .pointOfInterest, name: "Kunstmuseum", address)
        let subtitle = "32 Städtle, Vaduz, Liechtenstein"
        let completion = MKLocalSearchCompletion(PlaceSuggestion(
            title: "Kunstmuseum", subtitle: subtitle, titleHighlights: [NSRange(location: 0, length: 5)],
            subtitleHighlights: [NSRange(location: 3, length: 4), NSRange(location: 12, length: 5)], record: museum))
        XCTAssertEqual(completion.subtitle, "Städtle 32, Vaduz, Liechtenstein")
        XCTAssertEqual(completion.titleHighlightRanges, [NSRange(location: 0, length: 5)])
        // "Städ" found again at the start; "Vaduz" after the street line keeps its place.
        XCTAssertEqual(completion.subtitleHighlightRanges, [NSRange(location: 0, length: 4), NSRange(location: 12, length: 5)])
        XCTAssertEqual((completion.subtitle as NSString).substring(with: completion.subtitleHighlightRanges[1]), "Vaduz")

        let house = record("n10", address)
        let numbered = MKLocalSearchCompletion(PlaceSuggestion(title: "32 Städtle", subtitle: "Vaduz, Liechtenstein",
                                                               titleHighlights: [NSRange(location: 0, length: 2), NSRange(location: 99, length: 3)],
                                                               record: house))
        XCTAssertEqual(numbered.title, "Städtle 32")
        XCTAssertEqual(numbered.titleHighlightRanges, [NSRange(location: 8, length: 2)], "out-of-range highlights are dropped")

        // Monaco writes the number first, as the index does: nothing changes.
        let monaco = record("n11", PlaceAddress(houseNumber: "26", street: "Avenue de la Costa", countryCode: "MC"))
        let same = MKLocalSearchCompletion(PlaceSuggestion(title: "26 Avenue de la Costa", subtitle: "", record: monaco))
        XCTAssertEqual(same.title, "26 Avenue de la Costa")
        XCTAssertFalse(same.isQuerySuggestion)
        let query = MKLocalSearchCompletion(PlaceSuggestion(title: "Pharmacies", subtitle: "Search Nearby", queryText: "pharmacy"))
        XCTAssertTrue(query.isQuerySuggestion)
        XCTAssertEqual(MKLocalSearch.Request(completion: query).naturalLanguageQuery, "pharmacy")
    }
}
