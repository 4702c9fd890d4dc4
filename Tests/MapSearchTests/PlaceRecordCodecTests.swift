import XCTest
import MapGeometry
@testable import MapSearch

/// The binary form of `places.record`: every field survives, and damaged bytes are a typed error.
final class PlaceRecordCodecTests: XCTestCase {
    static let full = PlaceRecord(
        id: "w123", alternateIDs: ["w124", "n9"], kind: .pointOfInterest, name: "Café «Amadeus» 🎵",
        names: ["en": "Amadeus Coffee", "ru": "Амадеус", "latin": ""],
        coordinate: CLLocationCoordinate2D(latitude: 47.141_234_567, longitude: -9.521_987_654),
        bounds: MKMapRect(x: 1.5, y: 2.25, width: 3e-7, height: 1e3), category: "MKPOICategoryCafe", osmClass: "amenity=cafe",
        address: PlaceAddress(houseNumber: "5a", street: "Äulestraße", postalCode: "9490", subLocality: "Ebenholz",
                              locality: "Vaduz", subAdministrativeArea: "Oberland", administrativeArea: "Vaduz",
                              country: "Liechtenstein", countryCode: "LI"),
        phone: "+423 000", website: "https://example.li/ä?x=1&y=\"2\"", timeZone: "Europe/Vaduz", importance: 0.375)

    func testEveryFieldRoundTrips() throws {
        XCTAssertEqual(try PlaceRecordCodec.decode(PlaceRecordCodec.encode(Self.full)), Self.full)
        let bare = PlaceRecord(id: "n1", kind: .address, coordinate: CLLocationCoordinate2D(latitude: 0, longitude: 0))
        XCTAssertEqual(try PlaceRecordCodec.decode(PlaceRecordCodec.encode(bare)), bare)
        // Names are written in key order, so the same record always gives the same bytes.
        XCTAssertEqual(PlaceRecordCodec.encode(Self.full), PlaceRecordCodec.encode(Self.full))
    }

    func testDamagedBytesAreCorruptNotACrash() {
        let good = PlaceRecordCodec.encode(Self.full)
        var damaged: [Data] = [Data(), Data([PlaceRecordCodec.version]), Data([99]) + good.dropFirst(), good + Data([0])]
        for cut in stride(from: 1, to: good.count, by: 3) { damaged.append(good.prefix(cut)) }
        // A length prefix claiming far more bytes than there are.
        damaged.append(Data([PlaceRecordCodec.version, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]))
        for data in damaged {
            XCTAssertThrowsError(try PlaceRecordCodec.decode(data), "\(data.count) bytes") {
                guard case .corrupt = $0 as? PlaceIndexError else { return XCTFail("\($0)") }
            }
        }
    }
}
