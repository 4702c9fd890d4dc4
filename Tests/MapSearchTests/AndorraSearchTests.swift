import XCTest
import MapGeometry
import MapBundle
import TestSupport
@testable import MapSearch

/// The place index of the real Andorra extract. Its country boundary (and Canillo's) reaches
/// outside the extract's box, so two of their ways are missing: the importer closes the cut ring
/// along the box's edge, and every place in Andorra gets its country and parish.
final class AndorraSearchTests: XCTestCase {
    nonisolated(unsafe) static var shared: PlaceIndex?

    func index() throws -> PlaceIndex {
        if let index = Self.shared { return index }
        let index = try PlaceIndex(url: MapBundle(url: SampleBundle.andorra()).placesURL)
        Self.shared = index
        return index
    }

    func testCountrysideHasCountryAndParish() throws {
        // Canillo's boundary is one of the two cut ones; Ordino's is complete but needed the
        // country around it to know its admin_level 7 is a parish.
        for (latitude, longitude, parish) in [(42.58, 1.66, "Canillo"), (42.5733692, 1.5493536, "Ordino"),
                                              (42.435128, 1.5371881, "Sant Julià de Lòria")] {
            let first = try XCTUnwrap(try index().reverse(CLLocationCoordinate2D(latitude: latitude, longitude: longitude)).first, parish)
            XCTAssertEqual(first.record.name, parish)
            XCTAssertEqual(first.record.address.administrativeArea, parish)
            XCTAssertEqual(first.record.address.country, "Andorra", parish)
            XCTAssertEqual(first.record.address.countryCode, "AD", parish)
            XCTAssertEqual(first.record.timeZone, "Europe/Andorra", parish)
        }
    }

    func testStreetsAndPlacesCarryTheHierarchy() throws {
        let street = try XCTUnwrap(try index().reverse(CLLocationCoordinate2D(latitude: 42.5438612, longitude: 1.7189317)).first)
        XCTAssertEqual(street.record.address.street, "Túnel d'Envalira")
        XCTAssertEqual(street.record.address.administrativeArea, "Encamp")
        XCTAssertEqual(street.record.address.countryCode, "AD")
        let meritxell = try XCTUnwrap(try index().search(PlaceQuery(text: "Avinguda Meritxell")).first)
        XCTAssertEqual(meritxell.record.address.country, "Andorra")
        // "Av." is Avinguda in Catalan as well as Avenue.
        XCTAssertEqual(try index().search(PlaceQuery(text: "Av. Meritxell")).first?.record.id, meritxell.record.id)
    }

    func testTheCountryIsFoundAndIsNotInsideOneOfItsParishes() throws {
        let country = try XCTUnwrap(try index().search(PlaceQuery(text: "Andorra")).first).record
        XCTAssertEqual(country.id, "r9407")
        XCTAssertEqual(country.address.country, "Andorra")
        XCTAssertNil(country.address.administrativeArea, "its label point lies in a parish, but the country is not inside it")
        XCTAssertNil(country.address.locality)
    }
}
