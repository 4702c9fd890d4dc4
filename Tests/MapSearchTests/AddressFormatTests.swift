import Foundation
import MapGeometry
import XCTest
@testable import MapSearch

/// Addresses written the way each country writes them, from OpenCage's address-formatting
/// templates as `Scripts/make-address-formats.py` reduced them (AddressFormats.generated.swift).
///
/// One full address per country for the countries with the most addresses in OSM, and the sample
/// extracts' countries; each written from the country's postal custom, with the fields as the
/// importer fills them (OSM names, the state's full name), and some with fields missing.
final class AddressFormatTests: XCTestCase {
    struct Case {
        var country: String
        var address: PlaceAddress
        /// The lines, "\n"-joined, with the country's English name last.
        var expected: String
        var line: UInt = #line
    }

    // Fields in the order PlaceAddress declares them.
    static func address(_ number: String?, _ street: String?, _ postcode: String?, district: String? = nil, _ city: String?,
                        county: String? = nil, state: String? = nil, _ code: String) -> PlaceAddress {
        PlaceAddress(houseNumber: number, street: street, postalCode: postcode, subLocality: district, locality: city,
                     subAdministrativeArea: county, administrativeArea: state, countryCode: code)
    }

    static let cases: [Case] = [
        // Germany: street then number, postcode before the city; the district is not written.
        Case(country: "Germany", address: address("77", "Unter den Linden", "10117", district: "Mitte", "Berlin", state: "Berlin", "DE"),
             expected: "Unter den Linden 77\n10117 Berlin\nGermany"),
        Case(country: "Germany", address: address("5", "Hauptstraße", nil, "Bindlach", county: "Landkreis Bayreuth", state: "Bayern", "DE"),
             expected: "Hauptstraße 5\nBindlach\nGermany"),
        Case(country: "Germany", address: address(nil, "Hauptstraße", "95463", "Bindlach", state: "Bayern", "DE"),
             expected: "Hauptstraße\n95463 Bindlach\nGermany"),
        // Neither street nor postcode: Germany's fallback names the state too.
        Case(country: "Germany", address: address(nil, nil, nil, "Bindlach", county: "Landkreis Bayreuth", state: "Bayern", "DE"),
             expected: "Bindlach\nBayern\nGermany"),
        // France: number first, postcode before the city.
        Case(country: "France", address: address("55", "Rue du Faubourg Saint-Honoré", "75008", "Paris", state: "Île-de-France", "FR"),
             expected: "55 Rue du Faubourg Saint-Honoré\n75008 Paris\nFrance"),
        Case(country: "France", address: address(nil, nil, "75008", "Paris", state: "Île-de-France", "FR"),
             expected: "75008 Paris\nFrance"),
        // United States: "City, ST ZIP", the state as its USPS code even when the data names it.
        Case(country: "United States", address: address("1600", "Pennsylvania Avenue NW", "20500", "Washington",
                                                         state: "District of Columbia", "US"),
             expected: "1600 Pennsylvania Avenue NW\nWashington, DC 20500\nUnited States"),
        Case(country: "United States", address: address("350", "5th Avenue", "10118", district: "Manhattan", "New York",
                                                         county: "New York County", state: "New York", "US"),
             expected: "350 5th Avenue\nNew York, NY 10118\nUnited States"),
        Case(country: "United States", address: address(nil, "Apple Park Way", "95014", "Cupertino", county: "Santa Clara County",
                                                         state: "California", "US"),
             expected: "Apple Park Way\nCupertino, CA 95014\nUnited States"),
        // No town: the county stands in.
        Case(country: "United States", address: address("4520", "Historic Route 66", "86401", nil, county: "Mohave County",
                                                         state: "Arizona", "US"),
             expected: "4520 Historic Route 66\nMohave County, AZ 86401\nUnited States"),
        // No state: the comma after the city stays, the space before the ZIP code goes with the state.
        Case(country: "United States", address: address("1", "Infinite Loop", "95014", "Cupertino", "US"),
             expected: "1 Infinite Loop\nCupertino, 95014\nUnited States"),
        // Italy: the province's code after the city.
        Case(country: "Italy", address: address("12", "Via Alessandro Manzoni", "20121", "Milano", county: "Milano", state: "Lombardia", "IT"),
             expected: "Via Alessandro Manzoni 12\n20121 Milano MI\nItaly"),
        Case(country: "Italy", address: address(nil, "Piazza del Duomo", "50122", "Firenze", county: "Firenze", state: "Toscana", "IT"),
             expected: "Piazza del Duomo\n50122 Firenze FI\nItaly"),
        Case(country: "Netherlands", address: address("1", "Damrak", "1012 LG", "Amsterdam", state: "Noord-Holland", "NL"),
             expected: "Damrak 1\n1012 LG Amsterdam\nNetherlands"),
        Case(country: "Poland", address: address("10", "Marszałkowska", "00-590", "Warszawa", state: "województwo mazowieckie", "PL"),
             expected: "Marszałkowska 10\n00-590 Warszawa\nPoland"),
        // Spain: a comma between street and number.
        Case(country: "Spain", address: address("42", "Calle de Alcalá", "28014", "Madrid", state: "Comunidad de Madrid", "ES"),
             expected: "Calle de Alcalá, 42\n28014 Madrid\nSpain"),
        Case(country: "Spain", address: address(nil, "Calle de Alcalá", "28014", "Madrid", "ES"),
             expected: "Calle de Alcalá\n28014 Madrid\nSpain"),
        Case(country: "Czechia", address: address("846/1", "Václavské náměstí", "110 00", district: "Nové Město", "Praha", "CZ"),
             expected: "Václavské náměstí 846/1\n110 00 Praha\nCzechia"),
        Case(country: "Austria", address: address("3", "Stephansplatz", "1010", district: "Innere Stadt", "Wien", state: "Wien", "AT"),
             expected: "Stephansplatz 3\n1010 Wien\nAustria"),
        // Brazil: "Rua, número", the bairro on its own line, "Cidade - UF", the CEP below.
        Case(country: "Brazil", address: address("1578", "Avenida Paulista", "01310-200", district: "Bela Vista", "São Paulo",
                                                  state: "São Paulo", "BR"),
             expected: "Avenida Paulista, 1578\nBela Vista\nSão Paulo - SP\n01310-200\nBrazil"),
        Case(country: "Brazil", address: address("100", "Rua XV de Novembro", "80020-310", "Curitiba", state: "Paraná", "BR"),
             expected: "Rua XV de Novembro, 100\nCuritiba - PR\n80020-310\nBrazil"),
        // Japan, written in English: ward, then "City, Prefecture postcode".
        Case(country: "Japan", address: address("1-1", "Osakajo", "540-0002", district: "Chuo Ward", "Osaka", state: "Osaka Prefecture", "JP"),
             expected: "1-1 Osakajo\nChuo Ward\nOsaka, Osaka Prefecture 540-0002\nJapan"),
        // United Kingdom: town and postcode on lines of their own.
        Case(country: "United Kingdom", address: address("10", "Downing Street", "SW1A 2AA", "London", county: "Greater London",
                                                          state: "England", "GB"),
             expected: "10 Downing Street\nLondon\nSW1A 2AA\nUnited Kingdom"),
        Case(country: "United Kingdom", address: address("1", "High Street", nil, "Oxford", state: "England", "GB"),
             expected: "1 High Street\nOxford\nUnited Kingdom"),
        // Canada: like the US, with the province's code.
        Case(country: "Canada", address: address("111", "Wellington Street", "K1A 0A9", "Ottawa", state: "Ontario", "CA"),
             expected: "111 Wellington Street\nOttawa, ON K1A 0A9\nCanada"),
        Case(country: "Canada", address: address(nil, nil, nil, "Banff", state: "Alberta", "CA"),
             expected: "Banff, Alberta\nCanada"),
        // Australia: the suburb, the state's code and the postcode on one line.
        Case(country: "Australia", address: address("1", "Macquarie Street", "2000", "Sydney", state: "New South Wales", "AU"),
             expected: "1 Macquarie Street\nSydney NSW 2000\nAustralia"),
        Case(country: "Australia", address: address("178", "Campbell Parade", "2026", district: "Bondi Beach", "Sydney",
                                                     state: "New South Wales", "AU"),
             expected: "178 Campbell Parade\nBondi Beach NSW 2026\nAustralia"),
        Case(country: "Denmark", address: address("1", "Rådhuspladsen", "1550", "København", state: "Region Hovedstaden", "DK"),
             expected: "Rådhuspladsen 1\n1550 København\nDenmark"),
        Case(country: "Finland", address: address("52", "Aleksanterinkatu", "00100", district: "Kluuvi", "Helsinki", "FI"),
             expected: "Aleksanterinkatu 52\n00100 Helsinki\nFinland"),
        Case(country: "Finland", address: address("52", "Aleksanterinkatu", nil, "Helsinki", "FI"),
             expected: "Aleksanterinkatu 52\nHelsinki\nFinland"),
        Case(country: "Sweden", address: address("53", "Drottninggatan", "111 21", "Stockholm", state: "Stockholms län", "SE"),
             expected: "Drottninggatan 53\n111 21 Stockholm\nSweden"),
        Case(country: "Norway", address: address("22", "Karl Johans gate", "0159", "Oslo", state: "Oslo", "NO"),
             expected: "Karl Johans gate 22\n0159 Oslo\nNorway"),
        Case(country: "Belgium", address: address("16", "Rue de la Loi", "1000", "Bruxelles", state: "Région de Bruxelles-Capitale", "BE"),
             expected: "Rue de la Loi 16\n1000 Bruxelles\nBelgium"),
        Case(country: "Switzerland", address: address("3", "Bundesplatz", "3005", "Bern", state: "Bern", "CH"),
             expected: "Bundesplatz 3\n3005 Bern\nSwitzerland"),
        // Russia: "улица, дом", then town, region, country, and the postcode last.
        Case(country: "Russia", address: address("13", "Тверская улица", "125009", "Москва", state: "Москва", "RU"),
             expected: "Тверская улица, 13\nМосква\nRussia\n125009"),
        Case(country: "Russia", address: address("23", "Гороховая улица", "190031", "Санкт-Петербург", state: "Санкт-Петербург", "RU"),
             expected: "Гороховая улица, 23\nСанкт-Петербург\nRussia\n190031"),
        Case(country: "Ukraine", address: address("36", "вулиця Хрещатик", "01044", "Київ", state: "Київ", "UA"),
             expected: "вулиця Хрещатик, 36\nКиїв\n01044\nUkraine"),
        Case(country: "Slovakia", address: address("1", "Hlavná", "040 01", "Košice", state: "Košický kraj", "SK"),
             expected: "Hlavná 1\n040 01 Košice\nSlovakia"),
        // Hungary: postcode and city first, then street and number with its dot.
        Case(country: "Hungary", address: address("1", "Kossuth Lajos tér", "1055", "Budapest", "HU"),
             expected: "1055 Budapest\nKossuth Lajos tér 1.\nHungary"),
        Case(country: "Hungary", address: address(nil, "Kossuth Lajos tér", "1055", "Budapest", "HU"),
             expected: "1055 Budapest\nKossuth Lajos tér\nHungary"),
        // New Zealand: the suburb on its own line, then "City postcode".
        Case(country: "New Zealand", address: address("1", "Queen Street", "1010", district: "Auckland Central", "Auckland", "NZ"),
             expected: "1 Queen Street\nAuckland Central\nAuckland 1010\nNew Zealand"),
        Case(country: "Estonia", address: address("10", "Vabaduse väljak", "10146", "Tallinn", county: "Harju maakond", "EE"),
             expected: "Vabaduse väljak 10\n10146 Tallinn\nEstonia"),
        // The sample extracts' countries.
        Case(country: "Monaco", address: address("12", "Avenue de la Costa", "98000", "Monaco", "MC"),
             expected: "12 Avenue de la Costa\n98000 Monaco\nMonaco"),
        Case(country: "Liechtenstein", address: address("32", "Städtle", "9490", "Vaduz", "LI"),
             expected: "Städtle 32\n9490 Vaduz\nLiechtenstein"),
        // Andorra without a number: OpenCage's template puts the number before the street (as the
        // UPU's Andorra example does, "2 Avinguda Carlemany"), MapItemAddressTests expects the
        // Catalan "Avinguda Meritxell, 7"; until that is settled the order is not asserted here.
        Case(country: "Andorra", address: address(nil, "Avinguda Meritxell", "AD500", "Andorra la Vella", state: "Andorra la Vella", "AD"),
             expected: "Avinguda Meritxell\nAD500 Andorra la Vella\nAndorra"),
    ]

    func testEachCountryWritesItsAddressesItsOwnWay() {
        for c in Self.cases {
            let format = AddressFormat(countryCode: c.address.countryCode)
            XCTAssertTrue(format.isCountrySpecific, c.country, line: c.line)
            XCTAssertEqual(format.lines(of: c.address, countryName: c.country).joined(separator: "\n"), c.expected, line: c.line)
        }
        let countries = Set(Self.cases.compactMap(\.address.countryCode))
        let most = ["DE", "FR", "US", "IT", "NL", "PL", "ES", "CZ", "AT", "BR", "JP", "GB", "CA", "AU", "DK", "FI", "SE", "NO", "BE", "CH",
                    "RU", "UA", "SK", "HU", "NZ", "EE", "MC", "AD", "LI"]
        XCTAssertEqual(Set(most).subtracting(countries), [])
    }

    func testRecordsWithoutANameAreNamedByTheCountrysStreetLine() {
        func record(_ address: PlaceAddress) -> PlaceRecord {
            PlaceRecord(id: "n1", kind: .address, coordinate: CLLocationCoordinate2D(latitude: 0, longitude: 0), address: address)
        }
        XCTAssertEqual(record(PlaceAddress(houseNumber: "32", street: "Städtle", countryCode: "LI")).displayName, "Städtle 32")
        XCTAssertEqual(record(PlaceAddress(houseNumber: "26", street: "Avenue de la Costa", countryCode: "MC")).displayName, "26 Avenue de la Costa")
        XCTAssertEqual(record(PlaceAddress(houseNumber: "42", street: "Calle de Alcalá", countryCode: "ES")).displayName, "Calle de Alcalá, 42")
        XCTAssertEqual(record(PlaceAddress(houseNumber: "5", street: "Hauptstraße")).displayName, "Hauptstraße 5", "no country: the default")
    }

    func testStreetAndCityLines() {
        func street(_ number: String?, _ street: String?, _ code: String) -> String? {
            AddressFormat(countryCode: code).streetLine(of: PlaceAddress(houseNumber: number, street: street, countryCode: code))
        }
        XCTAssertEqual(street("12", "Avenue de la Costa", "MC"), "12 Avenue de la Costa")
        XCTAssertEqual(street("32", "Städtle", "li"), "Städtle 32", "codes in any case")
        XCTAssertEqual(street("42", "Calle de Alcalá", "ES"), "Calle de Alcalá, 42")
        XCTAssertEqual(street("1", "Kossuth Lajos tér", "HU"), "Kossuth Lajos tér 1.")
        // Brazil writes the bairro after the number when it has no line of its own: not a street line's part.
        XCTAssertEqual(AddressFormat(countryCode: "BR").streetLine(of: Self.address("1578", "Avenida Paulista", nil, district: "Bela Vista",
                                                                                   "São Paulo", "BR")), "Avenida Paulista, 1578")
        XCTAssertEqual(street(nil, "Städtle", "LI"), "Städtle")
        XCTAssertEqual(street("12", nil, "LI"), "12")
        XCTAssertNil(street(" ", nil, "LI"), "blank fields are no fields")
        // Kuwait writes the number on the line below the street.
        XCTAssertEqual(street("9", "Street 1", "KW"), "Street 1, 9")

        XCTAssertEqual(AddressFormat(countryCode: "US").cityLine(of: Self.address("1", "Apple Park Way", "95014", "Cupertino", state: "California", "US")),
                       "Cupertino, CA 95014")
        XCTAssertEqual(AddressFormat(countryCode: "MC").cityLine(of: Self.address("12", "Avenue de la Costa", "98000", "Monaco", "MC")), "98000 Monaco")
        XCTAssertEqual(AddressFormat(countryCode: "GB").cityLine(of: Self.address("10", "Downing Street", "SW1A 2AA", "London", "GB")), "London")
        XCTAssertNil(AddressFormat(countryCode: "DE").cityLine(of: Self.address("5", "Hauptstraße", nil, nil, "DE")))

        // Where the state belongs to the town's name: a fact of the country's pattern.
        for code in ["US", "CA", "AU", "BR", "JP"] {
            XCTAssertTrue(AddressFormat(countryCode: code).writesAdministrativeAreaWithLocality, code)
        }
        for code in ["DE", "FR", "GB", "ES", "IT", "MC", "LI", "AD", "RU"] {
            XCTAssertFalse(AddressFormat(countryCode: code).writesAdministrativeAreaWithLocality, code)
        }
        XCTAssertEqual(AddressFormat(countryCode: "US").administrativeAreaWithLocality(of: PlaceAddress(administrativeArea: "California")), "CA")
        XCTAssertEqual(AddressFormat(countryCode: "US").administrativeAreaWithLocality(of: PlaceAddress(administrativeArea: "ca")), "CA")
        XCTAssertEqual(AddressFormat(countryCode: "AU").administrativeAreaWithLocality(of: PlaceAddress(administrativeArea: "Victoria")), "VIC")
        XCTAssertEqual(AddressFormat(countryCode: "JP").administrativeAreaWithLocality(of: PlaceAddress(administrativeArea: "Tokyo")), "Tokyo")
        XCTAssertEqual(AddressFormat(countryCode: "US").administrativeAreaWithLocality(of: PlaceAddress(administrativeArea: "Atlantis")), "Atlantis",
                       "a name the table does not list is written as it is")
        XCTAssertNil(AddressFormat(countryCode: "DE").administrativeAreaWithLocality(of: PlaceAddress(administrativeArea: "Bayern")))
    }

    func testTheCountryLineIsTheCallers() {
        let london = Self.address("10", "Downing Street", "SW1A 2AA", "London", state: "England", "GB")
        let format = AddressFormat(countryCode: "GB")
        // Britain's country line offers the state in the country's stead; leaving the country out
        // leaves the line out.
        XCTAssertEqual(format.lines(of: london, countryName: nil), ["10 Downing Street", "London", "SW1A 2AA"])
        XCTAssertEqual(format.lines(of: london, countryName: "Royaume-Uni").last, "Royaume-Uni")
        // The name the caller gives, not the record's.
        var monaco = Self.address("12", "Avenue de la Costa", "98000", "Monaco", "MC")
        monaco.country = "Principauté de Monaco"
        XCTAssertEqual(AddressFormat(countryCode: "MC").lines(of: monaco, countryName: "Monaco"), ["12 Avenue de la Costa", "98000 Monaco", "Monaco"])
        // A town that is its country: the line equal to an earlier one goes.
        XCTAssertEqual(AddressFormat(countryCode: "MC").lines(of: PlaceAddress(locality: "Monaco", countryCode: "MC"), countryName: "Monaco"), ["Monaco"])
        XCTAssertEqual(AddressFormat(countryCode: "MC").lines(of: PlaceAddress(countryCode: "MC"), countryName: nil), [])
    }

    func testUnknownCountriesGetTheDefault() {
        let unknown = AddressFormat(countryCode: "ZZ")
        XCTAssertFalse(unknown.isCountrySpecific)
        XCTAssertEqual(unknown.countryCode, "ZZ")
        XCTAssertEqual(unknown.lines(of: Self.address("123", "Main Street", "PCPCPC", "City", state: "State", "ZZ"), countryName: "Null Island"),
                       ["Main Street 123", "PCPCPC City", "Null Island"])
        XCTAssertEqual(AddressFormat(countryCode: nil).lines(of: PlaceAddress(locality: "City", administrativeArea: "State"), countryName: "Null Island"),
                       ["City", "State", "Null Island"])
        XCTAssertNil(AddressFormat(countryCode: " ").countryCode)
    }

    /// Every ISO 3166-1 code Foundation (CLDR) knows has a pattern of its own, or gets the default.
    func testEveryISOCountryHasAFormat() {
        let codes = Locale.Region.isoRegions.map(\.identifier).filter { $0.count == 2 && $0.allSatisfy(\.isLetter) }
        XCTAssertGreaterThan(codes.count, 240)
        let own = codes.filter { AddressFormat.countryCodes.contains($0) }
        let defaulted = Set(codes).subtracting(own)
        for code in defaulted {
            let format = AddressFormat(countryCode: code)
            XCTAssertFalse(format.isCountrySpecific, code)
            XCTAssertEqual(format.lines(of: Self.address("1", "Main Street", "1000", "City", code), countryName: "X"),
                           ["Main Street 1", "1000 City", "X"], code)
        }
        // Only CLDR's codes that ISO 3166-1 does not assign to a country: its exceptionally
        // reserved codes (Ascension, Clipperton, Sark, Diego Garcia, Ceuta and Melilla, the EU,
        // the eurozone, the Canary Islands, Tristan da Cunha, the UN) and Outlying Oceania.
        let reserved: Set = ["AC", "CP", "CQ", "DG", "EA", "EU", "EZ", "IC", "QO", "TA", "UN"]
        XCTAssertTrue(defaulted.isSubset(of: reserved), "no pattern of their own: \(defaulted.subtracting(reserved).sorted())")
        XCTAssertGreaterThan(own.count, 240)
        // And every pattern of the table parses: each country writes at least one field.
        for code in AddressFormat.countryCodes {
            XCTAssertFalse(AddressFormat(countryCode: code).lines(of: Self.address("1", "Main Street", "1000", "City", state: "State", code),
                                                                 countryName: "X").isEmpty, code)
        }
    }

    func testStateAndCountyCodeTablesAreWellFormed() {
        // Swift dictionaries built from literals trap on duplicate keys: loading them is the test.
        XCTAssertEqual(AddressFormat.generatedStateCodes["US"]?["california"], "CA")
        XCTAssertEqual(AddressFormat.generatedStateCodes["AS"]?["american samoa"], "AS", "territories use the US table")
        XCTAssertEqual(AddressFormat.generatedCountyCodes["IT"]?["torino"], "TO")
        for (_, table) in AddressFormat.generatedStateCodes.merging(AddressFormat.generatedCountyCodes, uniquingKeysWith: { a, _ in a }) {
            for (name, code) in table {
                XCTAssertEqual(name, name.lowercased())
                XCTAssertFalse(code.isEmpty)
            }
        }
    }

    /// A completion's subtitle writes the address's city line the country's way.
    func testCompletionSubtitlesWriteTheCityLineTheCountrysWay() {
        let us = PlaceRecord(id: "n1", kind: .address, coordinate: CLLocationCoordinate2D(latitude: 37.33, longitude: -122.01),
                             address: Self.address("1", "Apple Park Way", "95014", "Cupertino", state: "California", "US"))
        var withCountry = us
        withCountry.address.country = "United States"
        XCTAssertEqual(PlaceIndex.subtitle(for: withCountry), "Cupertino, CA 95014, United States")
        let gb = PlaceRecord(id: "n2", kind: .address, coordinate: CLLocationCoordinate2D(latitude: 51.5, longitude: -0.12),
                             address: Self.address("10", "Downing Street", "SW1A 2AA", "London", "GB"))
        XCTAssertEqual(PlaceIndex.subtitle(for: gb), "London, SW1A 2AA")
        let fi = PlaceRecord(id: "n3", kind: .address, coordinate: CLLocationCoordinate2D(latitude: 60.17, longitude: 24.95),
                             address: Self.address("36b", "Aleksanterinkatu", "00100", "Helsinki", "FI"))
        XCTAssertEqual(PlaceIndex.subtitle(for: fi), "00100 Helsinki")
    }
}
