import XCTest
import MapGeometry
@testable import MapSearch

/// A small hand-made index: written, reopened, queried.
final class PlaceIndexRoundTripTests: XCTestCase {
    static let town = CLLocationCoordinate2D(latitude: 47.14, longitude: 9.52)
    var folder: URL!
    var index: PlaceIndex!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("mapsearch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("places.sqlite")
        let writer = try PlaceIndexWriter(url: url)
        func at(_ dLat: Double, _ dLon: Double) -> CLLocationCoordinate2D {
            CLLocationCoordinate2D(latitude: Self.town.latitude + dLat, longitude: Self.town.longitude + dLon)
        }
        // A square municipality around the town and a country around everything.
        func square(_ half: Double) -> PlaceGeometry {
            PlaceGeometry(shape: .rings, parts: [[at(-half, -half), at(-half, half), at(half, half), at(half, -half), at(-half, -half)]])
        }
        try writer.addArea(PlaceArea(id: "r1", field: .country, name: "Testland", countryCode: "TL", timeZone: "Europe/Vaduz", geometry: square(1)))
        try writer.addArea(PlaceArea(id: "r2", field: .locality, name: "Städtle", countryCode: "TL", geometry: square(0.02)))
        try writer.add(PlaceRecord(id: "r2", kind: .locality, name: "Städtle", coordinate: Self.town, importance: 0.7), searchNames: [])
        try writer.add(PlaceRecord(id: "n10", kind: .pointOfInterest, name: "Café Amadeus", names: ["en": "Amadeus Coffee"],
                                   coordinate: at(0.001, 0.001), category: "MKPOICategoryCafe", osmClass: "amenity=cafe",
                                   address: PlaceAddress(houseNumber: "5", street: "Äulestraße"), phone: "+423 000", importance: 0.3),
                       searchNames: ["Amadeus"])
        try writer.add(PlaceRecord(id: "n11", kind: .pointOfInterest, name: "Far Café", coordinate: at(0.5, 0.5),
                                   category: "MKPOICategoryCafe", osmClass: "amenity=cafe", importance: 0.3), searchNames: [])
        try writer.add(PlaceRecord(id: "w20", alternateIDs: ["w21"], kind: .street, name: "Äulestraße",
                                   coordinate: at(0, 0.002), osmClass: "highway=residential", importance: 0.2),
                       searchNames: [], geometry: PlaceGeometry(shape: .lines, parts: [[at(0, 0), at(0, 0.004)]]))
        try writer.add(PlaceRecord(id: "w30", kind: .address, coordinate: at(0.0003, 0.002), osmClass: "building=house",
                                   address: PlaceAddress(houseNumber: "12", street: "Äulestraße"), importance: 0.1), searchNames: [])
        try writer.add(PlaceRecord(id: "n40", kind: .pointOfInterest, name: "Spielplatz Au", coordinate: at(-0.003, 0),
                                   osmClass: "leisure=playground", importance: 0.3), searchNames: [])
        XCTAssertThrowsError(try writer.add(PlaceRecord(id: "bad", kind: .address, coordinate: CLLocationCoordinate2D(latitude: .nan, longitude: 0)),
                                            searchNames: []))
        try writer.finish()
        index = try PlaceIndex(url: url)
    }

    override func tearDownWithError() throws {
        index = nil
        try? FileManager.default.removeItem(at: folder)
    }

    func testRecordRoundTripsWithHierarchyFilledFromAreas() throws {
        let cafe = try XCTUnwrap(index.place(id: "n10"))
        XCTAssertEqual(cafe.name, "Café Amadeus")
        XCTAssertEqual(cafe.names["en"], "Amadeus Coffee")
        XCTAssertEqual(cafe.phone, "+423 000")
        XCTAssertEqual(cafe.category, "MKPOICategoryCafe")
        XCTAssertEqual(cafe.address.locality, "Städtle")
        XCTAssertEqual(cafe.address.country, "Testland")
        XCTAssertEqual(cafe.address.countryCode, "TL")
        XCTAssertEqual(cafe.timeZone, "Europe/Vaduz")
        XCTAssertEqual(try index.place(id: "n11")?.address.locality, nil, "outside the municipality")
        XCTAssertEqual(try index.place(id: "w21")?.id, "w20", "alternate ids find the merged street")
        XCTAssertNil(try index.place(id: "n999"))
        XCTAssertNil(try index.place(id: "bad"))
        XCTAssertEqual(try index.count(), 6)
    }

    func testFoldedPrefixAndOtherLanguageNames() throws {
        XCTAssertEqual(try index.search(PlaceQuery(text: "cafe amadeus")).first?.record.id, "n10")
        XCTAssertEqual(try index.search(PlaceQuery(text: "Amadeus Coffee")).first?.record.id, "n10")
        XCTAssertEqual(try index.search(PlaceQuery(text: "AULESTRASSE")).first?.record.id, "w20")
        XCTAssertEqual(try index.search(PlaceQuery(text: "Äulestr.")).first?.record.id, "w20")
        XCTAssertEqual(try index.search(PlaceQuery(text: "Stadtle")).first?.record.id, "r2")
        XCTAssertEqual(try index.search(PlaceQuery(text: "Städ")).first?.record.id, "r2", "prefix of the last word")
    }

    func testTyposAreCorrected() throws {
        XCTAssertEqual(try index.search(PlaceQuery(text: "Amadeos")).first?.record.id, "n10")
        XCTAssertEqual(try index.search(PlaceQuery(text: "Aulestrase")).first?.record.id, "w20")
        XCTAssertTrue(try index.search(PlaceQuery(text: "Zzyzx")).isEmpty)
    }

    func testHouseNumbersEitherOrder() throws {
        XCTAssertEqual(try index.search(PlaceQuery(text: "12 Äulestraße")).first?.record.id, "w30")
        XCTAssertEqual(try index.search(PlaceQuery(text: "Aulestrasse 12")).first?.record.id, "w30")
        XCTAssertEqual(try index.search(PlaceQuery(text: "5 Aulestrasse")).first?.record.id, "n10", "a POI's own address")
    }

    func testCategoryWordsRegionBiasAndRequiredRegion() throws {
        let near = MKCoordinateRegion(center: Self.town, span: MKCoordinateSpan(latitudeDelta: 0.01, longitudeDelta: 0.01))
        let biased = try index.search(PlaceQuery(text: "coffee", region: near))
        XCTAssertEqual(biased.map(\.record.id), ["n10", "n11"])
        let farRegion = MKCoordinateRegion(center: CLLocationCoordinate2D(latitude: 47.64, longitude: 10.02),
                                           span: MKCoordinateSpan(latitudeDelta: 0.01, longitudeDelta: 0.01))
        XCTAssertEqual(try index.search(PlaceQuery(text: "coffee", region: farRegion)).first?.record.id, "n11")
        var required = PlaceQuery(text: "coffee", region: near)
        required.regionIsRequired = true
        XCTAssertEqual(try index.search(required).map(\.record.id), ["n10"])
        XCTAssertEqual(try index.search(PlaceQuery(text: "playground")).first?.record.id, "n40")
        XCTAssertEqual(try index.search(PlaceQuery(text: "cafe in Städtle")).map(\.record.id), ["n10"])
    }

    func testKindAndCategoryFilters() throws {
        var query = PlaceQuery(text: "Äulestraße")
        query.kinds = [.address]
        XCTAssertEqual(try index.search(query).map(\.record.id), ["w30"])
        var cafes = PlaceQuery(text: "cafe")
        cafes.excludedCategories = ["MKPOICategoryCafe"]
        XCTAssertTrue(try index.search(cafes).isEmpty)
        let pois = try index.pointsOfInterest(in: MKCoordinateRegion(center: Self.town, span: MKCoordinateSpan(latitudeDelta: 0.02, longitudeDelta: 0.02)),
                                              includedCategories: ["MKPOICategoryCafe"], excludedCategories: [], limit: 10)
        XCTAssertEqual(pois.map(\.id), ["n10"])
    }

    func testCompletionHighlightsAndQuerySuggestions() throws {
        let suggestions = try index.complete(PlaceQuery(text: "caf"), includeQuerySuggestions: true)
        let query = try XCTUnwrap(suggestions.first { $0.record == nil })
        XCTAssertEqual(query.title, "Cafes")
        XCTAssertEqual(query.queryText, "cafe")
        let place = try XCTUnwrap(suggestions.first { $0.record?.id == "n10" })
        XCTAssertEqual(place.title, "Café Amadeus")
        XCTAssertEqual(place.titleHighlights, [NSRange(location: 0, length: 3)])
        XCTAssertTrue(place.subtitle.contains("Städtle"), place.subtitle)
        let none = try index.complete(PlaceQuery(text: "caf"), includeQuerySuggestions: false)
        XCTAssertTrue(none.allSatisfy { $0.record != nil })
    }

    func testReverseGeocodingTiers() throws {
        // On the building: the address.
        let onAddress = try index.reverse(CLLocationCoordinate2D(latitude: Self.town.latitude + 0.0003, longitude: Self.town.longitude + 0.002))
        XCTAssertEqual(onAddress.first?.record.id, "w30")
        XCTAssertEqual(onAddress.first?.record.address.locality, "Städtle")
        // 100 m from the street, no address near: the street.
        let onRoad = try index.reverse(CLLocationCoordinate2D(latitude: Self.town.latitude - 0.0009, longitude: Self.town.longitude + 0.003))
        XCTAssertEqual(onRoad.first?.record.id, "w20")
        XCTAssertEqual(try XCTUnwrap(onRoad.first?.distance), 100, accuracy: 5)
        // Countryside: the smallest containing area.
        let countryside = try index.reverse(CLLocationCoordinate2D(latitude: Self.town.latitude + 0.3, longitude: Self.town.longitude - 0.3), limit: 3)
        XCTAssertEqual(countryside.first?.record.name, "Testland")
        XCTAssertEqual(countryside.first?.record.address.countryCode, "TL")
        // Outside everything: nothing.
        XCTAssertTrue(try index.reverse(CLLocationCoordinate2D(latitude: -40, longitude: 100)).isEmpty)
    }

    func testHostileInputGivesTypedErrorsOrNothing() throws {
        for text in ["", "   ", "\u{0}\u{1}\u{7f}", "\"", "casino\" OR \"", "NEAR(a b)", "a* OR b*", "x:y", "'; DROP TABLE places; --",
                     "^casino", "{names}: casino", String(repeating: "ü", count: 200_000), "café AND", "- casino", "(((("] {
            XCTAssertNoThrow(try index.search(PlaceQuery(text: text)), text.prefix(40).description)
            XCTAssertNoThrow(try index.complete(PlaceQuery(text: text), includeQuerySuggestions: true), text.prefix(40).description)
        }
        XCTAssertEqual(try index.search(PlaceQuery(text: "'; DROP TABLE places; --")).count, 0)
        XCTAssertEqual(try index.count(), 6, "still there")
        let nan = CLLocationCoordinate2D(latitude: .nan, longitude: 9.5)
        XCTAssertThrowsError(try index.reverse(nan)) { XCTAssertEqual($0 as? PlaceIndexError, .invalidQuery("nan, 9.5 is not a valid coordinate")) }
        XCTAssertThrowsError(try index.reverse(CLLocationCoordinate2D(latitude: 91, longitude: 0)))
        for span in [MKCoordinateSpan(latitudeDelta: 0, longitudeDelta: 1), MKCoordinateSpan(latitudeDelta: -1, longitudeDelta: 1),
                     MKCoordinateSpan(latitudeDelta: .nan, longitudeDelta: 1), MKCoordinateSpan(latitudeDelta: 1, longitudeDelta: .infinity)] {
            let region = MKCoordinateRegion(center: Self.town, span: span)
            XCTAssertThrowsError(try index.search(PlaceQuery(text: "cafe", region: region))) {
                guard case .invalidQuery = $0 as? PlaceIndexError else { return XCTFail("\($0)") }
            }
            XCTAssertThrowsError(try index.pointsOfInterest(in: region, includedCategories: nil, excludedCategories: [], limit: 5))
        }
        var zero = PlaceQuery(text: "cafe")
        zero.limit = 0
        XCTAssertTrue(try index.search(zero).isEmpty)
    }

    func testMissingAndCorruptFilesAreTypedErrors() throws {
        XCTAssertThrowsError(try PlaceIndex(url: folder.appendingPathComponent("none.sqlite"))) {
            guard case .missing = $0 as? PlaceIndexError else { return XCTFail("\($0)") }
        }
        let junk = folder.appendingPathComponent("junk.sqlite")
        try Data(repeating: 0x41, count: 4096).write(to: junk)
        XCTAssertThrowsError(try PlaceIndex(url: junk)) {
            guard case .corrupt = $0 as? PlaceIndexError else { return XCTFail("\($0)") }
        }
    }
}
