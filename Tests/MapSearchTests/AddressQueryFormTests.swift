import XCTest
import MapGeometry
@testable import MapSearch

/// Free-form addresses in other orders and spellings than the local one, on a small hand-tagged
/// village (the shared extracts have no German addresses, nor ranges of house numbers): the
/// writer and the search are the real ones, the places are written as the import writes them.
final class AddressQueryFormTests: XCTestCase {
    static let village = CLLocationCoordinate2D(latitude: 49.98, longitude: 11.62)
    var folder: URL!
    var index: PlaceIndex!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("mapsearch-forms-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("places.sqlite")
        let writer = try PlaceIndexWriter(url: url)
        func at(_ dLat: Double, _ dLon: Double) -> CLLocationCoordinate2D {
            CLLocationCoordinate2D(latitude: Self.village.latitude + dLat, longitude: Self.village.longitude + dLon)
        }
        func square(_ half: Double) -> PlaceGeometry {
            PlaceGeometry(shape: .rings, parts: [[at(-half, -half), at(-half, half), at(half, half), at(half, -half), at(-half, -half)]])
        }
        try writer.addArea(PlaceArea(id: "r1", field: .country, name: "Deutschland", countryCode: "DE", geometry: square(1)))
        try writer.addArea(PlaceArea(id: "r2", field: .locality, name: "Bindlach", countryCode: "DE", geometry: square(0.02)))
        try writer.add(PlaceRecord(id: "r2", kind: .locality, name: "Bindlach", coordinate: Self.village, importance: 0.6), searchNames: [])
        try writer.add(PlaceRecord(id: "postcode:95463", kind: .postalCode, name: "95463", coordinate: Self.village, importance: 0.3), searchNames: [])
        try writer.add(PlaceRecord(id: "w10", kind: .street, name: "Hauptstraße", coordinate: at(0, 0.001), importance: 0.2), searchNames: [],
                       geometry: PlaceGeometry(shape: .lines, parts: [[at(0, -0.004), at(0, 0.006)]]))
        try writer.add(PlaceRecord(id: "w11", kind: .street, name: "Bahnhofstraße", coordinate: at(0.003, 0), importance: 0.2), searchNames: [],
                       geometry: PlaceGeometry(shape: .lines, parts: [[at(0.003, -0.004), at(0.003, 0.004)]]))
        // Streets whose abbreviations are not German: the dictionary holds every language.
        try writer.add(PlaceRecord(id: "w12", kind: .street, name: "Schulgasse", coordinate: at(-0.003, 0), importance: 0.2), searchNames: [],
                       geometry: PlaceGeometry(shape: .lines, parts: [[at(-0.003, -0.004), at(-0.003, 0.004)]]))
        try writer.add(PlaceRecord(id: "w13", kind: .street, name: "Aleksanterinkatu", coordinate: at(0.006, 0), importance: 0.2), searchNames: [],
                       geometry: PlaceGeometry(shape: .lines, parts: [[at(0.006, -0.004), at(0.006, 0.004)]]))
        try writer.add(PlaceRecord(id: "w14", kind: .street, name: "Drottninggatan", coordinate: at(-0.006, 0), importance: 0.2), searchNames: [],
                       geometry: PlaceGeometry(shape: .lines, parts: [[at(-0.006, -0.004), at(-0.006, 0.004)]]))
        let addresses: [(String, String, String, CLLocationCoordinate2D)] = [
            ("n7", "3", "Schulgasse", at(-0.0028, 0)), ("n8", "8", "Aleksanterinkatu", at(0.0062, 0)),
            ("n9", "14", "Drottninggatan", at(-0.0058, 0)),
            ("n1", "5", "Hauptstraße", at(0.0002, 0)), ("n2", "7", "Hauptstraße", at(0.0002, 0.0004)),
            ("n3", "32 a-b", "Hauptstraße", at(0.0002, 0.002)), ("n4", "12/3", "Hauptstraße", at(-0.0002, 0.001)),
            ("n5", "5", "Bahnhofstraße", at(0.0032, 0)), ("n6", "32", "Hauptstraße", at(-0.0002, 0.002)),
        ]
        for (id, number, street, coordinate) in addresses {
            try writer.add(PlaceRecord(id: id, kind: .address, coordinate: coordinate, osmClass: "addr:housenumber",
                                       address: PlaceAddress(houseNumber: number, street: street, postalCode: "95463"), importance: 0.1),
                           searchNames: [])
        }
        try writer.finish()
        index = try PlaceIndex(url: url)
    }

    override func tearDownWithError() throws {
        index = nil
        try? FileManager.default.removeItem(at: folder)
    }

    func first(_ text: String) throws -> PlaceRecord? { try index.search(PlaceQuery(text: text)).first?.record }

    func testAddressInAnyOrderWithAbbreviations() throws {
        for text in ["Hauptstraße 5, 95463 Bindlach", "5 Hauptstrasse Bindlach", "95463 Bindlach Hauptstr. 5", "Bindlach, Hauptstr 5",
                     "Hauptstr. 5", "5, Hauptstraße"] {
            XCTAssertEqual(try first(text)?.id, "n1", text)
        }
        XCTAssertEqual(try first("95463 Bindlach Bahnhofstr. 5")?.id, "n5")
    }

    func testAbbreviationsOfEveryLanguage() throws {
        // "G." is Gasse, "k." katu, "g." gatan: with the dot, as people write them.
        for (text, id) in [("Schulg. 3", "n7"), ("3 Schulg., Bindlach", "n7"), ("Aleksanterink. 8", "n8"),
                           ("Drottningg. 14", "n9"), ("Hauptstr 7", "n2")] {
            XCTAssertEqual(try first(text)?.id, id, text)
        }
        // Without the dot a single letter is a letter: "Drottningg 14" is not read as Drottninggatan.
        XCTAssertNotEqual(try first("Drottningg 14")?.id, "n9")
        // A house number inside the query, between the street and the postcode.
        XCTAssertEqual(try first("Schulgasse 3 95463 Bindlach")?.id, "n7")
        XCTAssertEqual(try first("Bahnhofstraße 5, 95463 Bindlach")?.id, "n5")
    }

    func testHouseNumbersWithLettersAndRanges() throws {
        for text in ["Hauptstraße 32 a-b", "Hauptstraße 32a", "Hauptstraße 32 b", "32b Hauptstr."] {
            XCTAssertEqual(try first(text)?.id, "n3", text)
        }
        XCTAssertEqual(try first("Hauptstraße 32")?.id, "n6", "the plain number is its own house")
        XCTAssertEqual(try first("Hauptstraße 12/3")?.id, "n4")
    }

    func testPostcodeOnlyAndCityOnly() throws {
        XCTAssertEqual(try first("95463")?.id, "postcode:95463")
        XCTAssertEqual(try first("Bindlach")?.id, "r2")
    }
}
