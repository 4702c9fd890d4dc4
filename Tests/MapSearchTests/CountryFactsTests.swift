import MapGeometry
import XCTest
@testable import MapSearch

/// Country names come from Foundation's CLDR data and time zones from the system's tzdata: both
/// must really be there on Linux, for every country, not only the sample extracts' ones.
final class CountryFactsTests: XCTestCase {
    func testCountryNamesComeFromCLDRInTheRequestedLanguage() {
        XCTAssertEqual(CountryFacts.name(countryCode: "FI"), "Finland")
        XCTAssertEqual(CountryFacts.name(countryCode: "fi", language: "fi"), "Suomi")
        XCTAssertEqual(CountryFacts.name(countryCode: "DE", language: "de"), "Deutschland")
        XCTAssertEqual(CountryFacts.name(countryCode: "JP", language: "ja"), "日本")
        XCTAssertEqual(CountryFacts.name(countryCode: "BR", language: "pt"), "Brasil")
        XCTAssertNil(CountryFacts.name(countryCode: "XYZ"))
        // Every officially assigned ISO 3166-1 code has a name (CLDR's list of regions).
        let codes = Locale.Region.isoRegions.map(\.identifier).filter { $0.count == 2 && $0.allSatisfy(\.isLetter) }
        XCTAssertGreaterThan(codes.count, 240)
        XCTAssertEqual(codes.filter { CountryFacts.name(countryCode: $0) == nil }, [])
    }

    func testTimeZonesAreTheCountrysNearestInTzdata() {
        func zone(_ code: String, _ latitude: Double, _ longitude: Double) -> String? {
            CountryFacts.timeZone(countryCode: code, near: CLLocationCoordinate2D(latitude: latitude, longitude: longitude))
        }
        XCTAssertEqual(zone("FI", 60.17, 24.94), "Europe/Helsinki")
        // The country's own zone name (zone.tab), not the zone it shares since 1970 (zone1970.tab).
        XCTAssertEqual(zone("MC", 43.74, 7.42), "Europe/Monaco")
        XCTAssertEqual(zone("LI", 47.14, 9.52), "Europe/Vaduz")
        XCTAssertEqual(zone("US", 40.71, -74.0), "America/New_York")
        XCTAssertEqual(zone("US", 34.05, -118.24), "America/Los_Angeles")
        XCTAssertEqual(zone("AU", -31.95, 115.86), "Australia/Perth")
        XCTAssertEqual(zone("BR", -23.55, -46.63), "America/Sao_Paulo")
        XCTAssertNil(zone("ZZ", 0, 0))
        // Every zone given is one Foundation knows.
        for (code, zones) in CountryFacts.zonesByCountry {
            for z in zones { XCTAssertNotNil(TimeZone(identifier: z.zone), "\(code) \(z.zone)") }
        }
        XCTAssertGreaterThan(CountryFacts.zonesByCountry.count, 240)
    }

    func testISO6709Positions() {
        let short = CountryFacts.parseISO6709("+6010+02458")
        XCTAssertEqual(short?.latitude ?? 0, 60 + 10.0 / 60, accuracy: 1e-9)
        XCTAssertEqual(short?.longitude ?? 0, 24 + 58.0 / 60, accuracy: 1e-9)
        let long = CountryFacts.parseISO6709("+404251-0740023")
        XCTAssertEqual(long?.latitude ?? 0, 40 + 42.0 / 60 + 51.0 / 3600, accuracy: 1e-9)
        XCTAssertEqual(long?.longitude ?? 0, -(74 + 0.0 / 60 + 23.0 / 3600), accuracy: 1e-9)
        XCTAssertNil(CountryFacts.parseISO6709("6010+02458"))
    }
}
