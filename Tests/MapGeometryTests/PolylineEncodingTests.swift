import TestSupport
import XCTest
@testable import MapGeometry

final class PolylineEncodingTests: XCTestCase {
    private func c(_ latitude: Double, _ longitude: Double) -> CLLocationCoordinate2D {
        CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
    }

    private var googleExample: [CLLocationCoordinate2D] {
        [c(38.5, -120.2), c(40.7, -120.95), c(43.252, -126.453)]
    }

    // MARK: Known strings

    func testGoogleExampleAtPrecision5() throws {
        XCTAssertEqual(try EncodedPolyline.encode(googleExample), "_p~iF~ps|U_ulLnnqC_mqNvxq`@")
        XCTAssertEqual(try EncodedPolyline.decode("_p~iF~ps|U_ulLnnqC_mqNvxq`@"), googleExample)
    }

    func testGoogleExampleAtOtherPrecisions() throws {
        // Expected strings worked out independently (decimal arithmetic, half away from zero).
        XCTAssertEqual(try EncodedPolyline.encode(googleExample, precision: 6), "_izlhA~rlgdF_{geC~ywl@_kwzCn`{nI")
        XCTAssertEqual(try EncodedPolyline.decode("_izlhA~rlgdF_{geC~ywl@_kwzCn`{nI", precision: 6), googleExample)
        XCTAssertEqual(try EncodedPolyline.encode(googleExample, precision: 10),
                       "__dfxblU~~x`x{}dA__mth~g@~ntb`~L__epbpn@~vsk`oeB")
        XCTAssertEqual(try EncodedPolyline.decode("__dfxblU~~x`x{}dA__mth~g@~ntb`~L__epbpn@~vsk`oeB", precision: 10),
                       googleExample)
        // At precision 1, −120.95 → −1209.5 → −1210 and 43.252 → 433: rounding is visible.
        XCTAssertEqual(try EncodedPolyline.encode(googleExample, precision: 1), "aWbjAk@Ns@lB")
        XCTAssertEqual(try EncodedPolyline.decode("aWbjAk@Ns@lB", precision: 1),
                       [c(38.5, -120.2), c(40.7, -121), c(43.3, -126.5)])
    }

    func testRoundsHalfAwayFromZero() throws {
        // 0.25·10 = 2.5 → 3 and −2.5 → −3 (not banker's 2 / −2, not floor's −3 / 2 mix).
        XCTAssertEqual(try EncodedPolyline.encode([c(0.25, -0.25), c(0.75, 1.25)], precision: 1), "EDI_@")
        XCTAssertEqual(try EncodedPolyline.decode("EDI_@", precision: 1), [c(0.3, -0.3), c(0.8, 1.3)])
        XCTAssertEqual(try EncodedPolyline.encode([c(0.125, -0.125)], precision: 2), "YX")
    }

    func testExtremeCoordinates() throws {
        let poles = [c(90, 180), c(-90, -180)]
        XCTAssertEqual(try EncodedPolyline.encode(poles), "_cidP_gsia@~fsia@~ngtcA")
        XCTAssertEqual(try EncodedPolyline.decode("_cidP_gsia@~fsia@~ngtcA"), poles)
        XCTAssertEqual(try EncodedPolyline.encode(poles, precision: 10), "__swdkks@__gpjwwgB~~fpjwwgB~~navoppE")
        XCTAssertEqual(try EncodedPolyline.decode("__swdkks@__gpjwwgB~~fpjwwgB~~navoppE", precision: 10), poles)
    }

    func testEmpty() throws {
        XCTAssertEqual(try EncodedPolyline.encode([]), "")
        XCTAssertEqual(try EncodedPolyline.decode(""), [])
        XCTAssertEqual(try EncodedPolyline.decode("", precision: 6), [])
    }

    func testNegativeZero() throws {
        XCTAssertEqual(try EncodedPolyline.encode([c(-0.0, -0.0)]), "??")
        // Values that round to zero from below are zero too, not "−0".
        XCTAssertEqual(try EncodedPolyline.encode([c(-0.000004, 0.000004)]), "??")
        let decoded = try EncodedPolyline.decode("??")
        XCTAssertEqual(decoded.count, 1)
        XCTAssertEqual(decoded[0].latitude.sign, .plus)
        XCTAssertEqual(decoded[0].longitude.sign, .plus)
    }

    func testDecodeFromBytes() throws {
        let bytes = Array("_p~iF~ps|U_ulLnnqC_mqNvxq`@".utf8)
        let decoded = try bytes.withUnsafeBufferPointer { buffer throws(PolylineDecodingError) in
            try EncodedPolyline.decode(utf8: buffer)
        }
        XCTAssertEqual(decoded, googleExample)
    }

    // MARK: Round trips

    func testRandomRoundTrips() throws {
        var random = SplitMix64(seed: 0x5EED_0F_F00D)
        for _ in 0..<2_000 {
            let precision = Int(random.next() % 10) + 1
            let count = Int(random.next() % 12)
            var line: [CLLocationCoordinate2D] = []
            for _ in 0..<count {
                line.append(c(random.uniform(-90, 90), random.uniform(-180, 180)))
            }
            let encoded = try EncodedPolyline.encode(line, precision: precision)
            let decoded = try EncodedPolyline.decode(encoded, precision: precision)
            XCTAssertEqual(decoded.count, line.count)
            // Half a unit of the last place, plus the double rounding of value·10^p and of the quotient.
            let bound = 0.5 * pow(10, -Double(precision)) + 1e-12
            for (a, b) in zip(line, decoded) {
                XCTAssertLessThanOrEqual(abs(a.latitude - b.latitude), bound, "precision \(precision)")
                XCTAssertLessThanOrEqual(abs(a.longitude - b.longitude), bound, "precision \(precision)")
            }
            // Decoded values encode back to the same string: the encoding is canonical.
            XCTAssertEqual(try EncodedPolyline.encode(decoded, precision: precision), encoded)
        }
    }

    // MARK: Hostile input

    private func decodingError(_ string: String, precision: Int = 5) -> PolylineDecodingError? {
        do {
            _ = try EncodedPolyline.decode(string, precision: precision)
            return nil
        } catch {
            return error
        }
    }

    func testInvalidCharacter() {
        XCTAssertEqual(decodingError("_p~iF~ps|U _ulL"), PolylineDecodingError(reason: .invalidCharacter(32), offset: 10))
        XCTAssertEqual(decodingError("_p~iF\u{7F}"), PolylineDecodingError(reason: .invalidCharacter(127), offset: 5))
        XCTAssertEqual(decodingError(">"), PolylineDecodingError(reason: .invalidCharacter(62), offset: 0))
        // Non-ASCII: the offset counts the ASCII characters before it, and the first UTF-8 byte is shown.
        XCTAssertEqual(decodingError("_p~iFé"), PolylineDecodingError(reason: .invalidCharacter(0xC3), offset: 5))
        XCTAssertTrue(decodingError("_p~iF~ps|U _ulL")!.description.contains("offset 10"))
    }

    func testTruncatedValue() {
        // '|' has the continuation bit set, so the longitude that starts at offset 5 never ends.
        XCTAssertEqual(decodingError("_p~iF~ps|"), PolylineDecodingError(reason: .truncatedValue, offset: 5))
        XCTAssertEqual(decodingError("_"), PolylineDecodingError(reason: .truncatedValue, offset: 0))
    }

    func testMissingLongitude() {
        XCTAssertEqual(decodingError("_p~iF"), PolylineDecodingError(reason: .missingLongitude, offset: 0))
        XCTAssertEqual(decodingError("_p~iF~ps|U_ulL"), PolylineDecodingError(reason: .missingLongitude, offset: 10))
    }

    func testValueTooLong() {
        // At precision 5 a delta needs at most 6 chunks; the seventh is rejected where it stands.
        XCTAssertEqual(decodingError("~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~?"),
                       PolylineDecodingError(reason: .valueTooLong, offset: 6))
        // At precision 10 nine chunks are allowed, so the tenth is the first rejected.
        XCTAssertEqual(decodingError(String(repeating: "~", count: 40), precision: 10),
                       PolylineDecodingError(reason: .valueTooLong, offset: 9))
    }

    func testOutOfRange() {
        XCTAssertEqual(decodingError("acidP?"), PolylineDecodingError(reason: .latitudeOutOfRange(90.00001), offset: 0))
        XCTAssertEqual(decodingError("?agsia@"), PolylineDecodingError(reason: .longitudeOutOfRange(180.00001), offset: 1))
        // 90° is fine; one more step north is not, and the error names the step.
        XCTAssertEqual(decodingError("_cidP?A?"), PolylineDecodingError(reason: .latitudeOutOfRange(90.00001), offset: 6))
        // The same string read at a coarser precision means larger degrees.
        XCTAssertEqual(decodingError("_cidP?", precision: 4),
                       PolylineDecodingError(reason: .latitudeOutOfRange(900), offset: 0))
    }

    func testInvalidPrecision() {
        XCTAssertEqual(decodingError("??", precision: 0), PolylineDecodingError(reason: .invalidPrecision(0), offset: 0))
        XCTAssertEqual(decodingError("??", precision: 11), PolylineDecodingError(reason: .invalidPrecision(11), offset: 0))
        XCTAssertThrowsError(try EncodedPolyline.encode([c(0, 0)], precision: 11)) { error in
            XCTAssertEqual(error as? PolylineEncodingError, .invalidPrecision(11))
        }
    }

    func testEncodingRejectsInvalidCoordinates() {
        XCTAssertThrowsError(try EncodedPolyline.encode([c(0, 0), c(.nan, 0)])) { error in
            guard case .invalidCoordinate(let index, _)? = error as? PolylineEncodingError else {
                return XCTFail("unexpected \(error)")
            }
            XCTAssertEqual(index, 1)
        }
        XCTAssertThrowsError(try EncodedPolyline.encode([c(0, 181)]))
        XCTAssertThrowsError(try EncodedPolyline.encode([c(-90.5, 0)]))
        XCTAssertThrowsError(try EncodedPolyline.encode([c(0, .infinity)]))
    }

    func testLongLineDecodesEveryPoint() throws {
        var line: [CLLocationCoordinate2D] = []
        for i in 0..<5_000 { line.append(c(Double(i % 180) - 89.5, Double(i % 360) - 179.25)) }
        let decoded = try EncodedPolyline.decode(try EncodedPolyline.encode(line, precision: 6), precision: 6)
        XCTAssertEqual(decoded, line)
    }
}
