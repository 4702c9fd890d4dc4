import Foundation
import MapBundle
import MapGeometry
import MapSearch
import TestSupport
import XCTest

/// Geocoding on an extract the project was not tuned on (issue 21): central Helsinki, whose box
/// cuts Finland's boundary and every region's, so the country comes from the data's `addr:country`
/// and the time zone from tzdata. The addresses are drawn by `Scripts/sample-addresses.py` (a
/// fixed seed over the extract's own `addr:*` tags, read with pyosmium, not our reader), so
/// nobody picks the ones that work.
final class HelsinkiGeocodingTests: XCTestCase {
    struct Sample: Decodable {
        var id: String
        var lat: Double
        var lon: Double
        var housenumber: String
        var street: String?
        var place: String?
        var postcode: String?
        var city: String?
        var country: String?
        var building: Bool
        var named: Bool

        var coordinate: CLLocationCoordinate2D { CLLocationCoordinate2D(latitude: lat, longitude: lon) }
        /// The address as it is written in Finland: "Aleksanterinkatu 36b, 00100 Helsinki".
        var query: String {
            let town = [postcode, city].compactMap { $0 }.joined(separator: " ")
            return ["\(street ?? place ?? "") \(housenumber)", town].filter { !$0.isEmpty }.joined(separator: ", ")
        }
    }

    nonisolated(unsafe) static var cached: [Bool: (PlaceIndex, [Sample])] = [:]

    /// The index and 200 addressed objects (seed 21): all of them, or only the unnamed ones
    /// (address points and buildings, not the shops and cafés that also carry an address).
    func fixture(unnamed: Bool = false) throws -> (PlaceIndex, [Sample]) {
        if let cached = Self.cached[unnamed] { return cached }
        let extract = TestData.shared("data/osm/helsinki.osm.pbf")
        XCTAssertTrue(FileManager.default.fileExists(atPath: extract.path), "the shared test data lacks \(extract.path)")
        let script = TestData.packageRoot.appendingPathComponent("Scripts/sample-addresses.py").path
        let result = try runProcess("python3", [script, extract.path, "--count", "200", "--seed", "21"] + (unnamed ? ["--unnamed"] : []))
        XCTAssertEqual(result.status, 0, "sample-addresses.py (needs pyosmium, `make deps` installs it): \(result.stderr)")
        let samples = try JSONDecoder().decode([Sample].self, from: result.standardOutput)
        let index = try PlaceIndex(url: MapBundle(url: SampleBundle.helsinkiPlaces()).placesURL)
        Self.cached[unnamed] = (index, samples)
        return (index, samples)
    }

    func testGeocodingFindsSampledAddressesWithin75Metres() throws {
        let (index, samples) = try fixture()
        XCTAssertEqual(samples.count, 200)
        var misses: [String] = []
        for sample in samples {
            let first = try index.search(PlaceQuery(text: sample.query)).first
            let distance = first.map { haversine($0.record.coordinate, sample.coordinate) }
            if distance.map({ $0 > 75 }) ?? true {
                misses.append("\(sample.id) \"\(sample.query)\" → \(first.map { "\($0.record.id) \($0.record.displayName) at \(Int(distance!)) m" } ?? "nothing")")
            }
        }
        let rate = Double(samples.count - misses.count) / Double(samples.count)
        print("Helsinki geocoding: \(samples.count - misses.count)/\(samples.count) within 75 m (\(Int((rate * 100).rounded()))%)")
        for miss in misses { print("  miss: \(miss)") }
        XCTAssertGreaterThanOrEqual(rate, 0.9, "misses:\n" + misses.joined(separator: "\n"))
    }

    /// The same sample written as people abbreviate Finnish and Swedish street names
    /// ("Aleksanterink. 36b", "Mannerheimint. 5", "Alexandersg. 36b"): the abbreviations come
    /// from libpostal's dictionaries, nothing in the index knows them.
    func testGeocodingFindsAbbreviatedStreetNames() throws {
        let (index, samples) = try fixture()
        let ends = [("katu", "k."), ("tie", "t."), ("kuja", "kj."), ("polku", "p."), ("gatan", "g."), ("vägen", "v.")]
        var tried = 0
        var misses: [String] = []
        for sample in samples {
            guard let street = sample.street, let (end, short) = ends.first(where: { street.hasSuffix($0.0) && street.count > $0.0.count + 2 }) else { continue }
            var abbreviated = sample
            abbreviated.street = String(street.dropLast(end.count)) + short
            tried += 1
            let first = try index.search(PlaceQuery(text: abbreviated.query)).first
            if first.map({ haversine($0.record.coordinate, sample.coordinate) > 75 }) ?? true {
                misses.append("\(sample.id) \"\(abbreviated.query)\" → \(first.map { "\($0.record.id) \($0.record.displayName)" } ?? "nothing")")
            }
        }
        print("Helsinki abbreviated: \(tried - misses.count)/\(tried) within 75 m")
        XCTAssertGreaterThanOrEqual(tried, 50, "the sample should hold many -katu and -tie streets")
        XCTAssertGreaterThanOrEqual(Double(tried - misses.count) / Double(tried), 0.9, "misses:\n" + misses.joined(separator: "\n"))
    }

    /// At an address point or an unnamed building, the reverse geocode is that address. (At a
    /// shop with an address it is the nearest address point, often the next door's: 80% of the
    /// mixed sample gets its own street and postcode.)
    func testReverseGeocodingAtAddressesGivesStreetAndPostcode() throws {
        let (index, samples) = try fixture(unnamed: true)
        XCTAssertEqual(samples.count, 200)
        var misses: [String] = []
        var countryMisses: [String] = []
        for sample in samples {
            let first = try index.reverse(sample.coordinate).first
            let a = first?.record.address
            // The tagged postcode where the object has one; where it has none, some postcode
            // (from the addressed places nearby), since a reverse geocode should give one.
            let postcodeRight = sample.postcode.map { a?.postalCode == $0 } ?? (a?.postalCode != nil)
            if a?.street != (sample.street ?? sample.place) || !postcodeRight {
                misses.append("\(sample.id) \(sample.query) → \(first.map { "\($0.record.id) \($0.record.address.streetLine ?? "-"), \($0.record.address.postalCode ?? "no postcode")" } ?? "nothing")")
            }
            if a?.countryCode != "FI" { countryMisses.append("\(sample.id) → \(a?.countryCode ?? "none")") }
            if first?.record.timeZone != "Europe/Helsinki" { countryMisses.append("\(sample.id) time zone \(first?.record.timeZone ?? "none")") }
        }
        let rate = Double(samples.count - misses.count) / Double(samples.count)
        print("Helsinki reverse geocoding: \(samples.count - misses.count)/\(samples.count) with street and postcode (\(Int((rate * 100).rounded()))%)")
        for miss in misses { print("  miss: \(miss)") }
        XCTAssertGreaterThanOrEqual(rate, 0.85, "misses:\n" + misses.joined(separator: "\n"))
        XCTAssertEqual(countryMisses, [], "every place in the extract is in Finland")
    }

    func testCountryAndTimeZoneComeFromTheDataNotFromATable() throws {
        let (index, samples) = try fixture()
        for sample in samples {
            let first = try XCTUnwrap(try index.search(PlaceQuery(text: sample.query)).first, sample.query)
            XCTAssertEqual(first.record.address.countryCode, "FI", sample.query)
            XCTAssertEqual(first.record.address.country, "Finland", sample.query)
            XCTAssertEqual(first.record.timeZone, "Europe/Helsinki", sample.query)
        }
    }

    /// Addresses carry `addr:street` in Finnish only; the street way also has `name:sv`, and a
    /// Swedish speaker's address is found by it.
    func testAnAddressIsFoundByItsStreetsSwedishName() throws {
        let (index, _) = try fixture()
        let first = try XCTUnwrap(try index.search(PlaceQuery(text: "Alexandersgatan 36b")).first)
        XCTAssertEqual(first.record.id, "n448156804", "addr:street=Aleksanterinkatu addr:housenumber=36b")
        XCTAssertEqual(first.record.address.street, "Aleksanterinkatu")
        let written = try XCTUnwrap(try index.search(PlaceQuery(text: "36b Alexandersgatan, Helsingfors")).first)
        XCTAssertEqual(written.record.id, "n448156804")
    }

    /// The answer in Swedish: street and town by their `name:sv`, the country by CLDR; a language
    /// the data lacks keeps `name`.
    func testAnswersInTheRequestedLanguageFallingBackToName() throws {
        let (index, _) = try fixture()
        let record = try XCTUnwrap(try index.search(PlaceQuery(text: "Aleksanterinkatu 36b")).first?.record)
        XCTAssertEqual(record.id, "n448156804")
        let swedish = try index.localized(record, language: "sv")
        XCTAssertEqual(swedish.address.street, "Alexandersgatan")
        XCTAssertEqual(swedish.address.locality, "Helsingfors")
        XCTAssertEqual(swedish.address.country, "Finland")
        XCTAssertEqual(try index.localized(record, language: "de").address.country, "Finnland")
        let unknown = try index.localized(record, language: "tlh")
        XCTAssertEqual(unknown.address.street, "Aleksanterinkatu")
        XCTAssertEqual(unknown.address.locality, record.address.locality)
        let city = try XCTUnwrap(try index.search(PlaceQuery(text: "Helsinki")).first?.record)
        XCTAssertEqual(city.kind, .locality)
        XCTAssertEqual(try index.localized(city, language: "sv").name, "Helsingfors")
        let swedishName = try XCTUnwrap(try index.search(PlaceQuery(text: "Helsingfors")).first?.record)
        XCTAssertEqual(swedishName.kind, .locality)
        XCTAssertEqual(swedishName.name, "Helsinki")
    }

    /// Addresses in other orders and spellings than the sample's "Street 36b, 00100 Helsinki", and
    /// postcode-only and city-only queries.
    func testQueryForms() throws {
        let (index, _) = try fixture()
        for text in ["00100 Helsinki Aleksanterinkatu 36b", "36b Aleksanterinkatu", "Aleksanterinkatu 36 B", "Helsinki Aleksanterinkatu 36b"] {
            XCTAssertEqual(try index.search(PlaceQuery(text: text)).first?.record.id, "n448156804", text)
        }
        // Tagged "15 B": found as "15b" too.
        let joined = try XCTUnwrap(try index.search(PlaceQuery(text: "Aleksanterinkatu 15b")).first?.record)
        XCTAssertEqual(joined.address.houseNumber, "15 B")
        XCTAssertEqual(joined.address.street, "Aleksanterinkatu")
        let postcode = try XCTUnwrap(try index.search(PlaceQuery(text: "00100")).first?.record)
        XCTAssertEqual(postcode.kind, .postalCode)
        XCTAssertEqual(postcode.name, "00100")
        XCTAssertEqual(try index.search(PlaceQuery(text: "Helsinki")).first?.record.kind, .locality)
    }

    func haversine(_ a: CLLocationCoordinate2D, _ b: CLLocationCoordinate2D) -> Double {
        let r = 6_371_008.8, dLat = (b.latitude - a.latitude) * .pi / 180, dLon = (b.longitude - a.longitude) * .pi / 180
        let s = sin(dLat / 2) * sin(dLat / 2) + cos(a.latitude * .pi / 180) * cos(b.latitude * .pi / 180) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * r * asin(min(1, s.squareRoot()))
    }
}
