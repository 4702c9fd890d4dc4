import Foundation
import OpenMapKit
import TestSupport
import XCTest

/// Mutation fuzzing of every text parser reachable from the public API: valid inputs with bytes
/// flipped, deleted, duplicated, truncated or replaced by JSON/URL punctuation. Each parser must
/// either succeed or throw its typed error; a crash or hang fails the whole test run.
final class HostileInputTests: XCTestCase {
    private let punctuation = Array("{}[]\",:-+.eE0123456789 \\/%&=?#nul\u{0}".utf8)

    private func mutate(_ bytes: [UInt8], _ random: inout SplitMix64) -> [UInt8] {
        var b = bytes
        for _ in 0...Int(random.next() % 4) {
            guard !b.isEmpty else { break }
            let i = Int(random.next() % UInt64(b.count))
            switch random.next() % 6 {
            case 0: b[i] = UInt8(truncatingIfNeeded: random.next())
            case 1: b.remove(at: i)
            case 2: b.insert(punctuation[Int(random.next() % UInt64(punctuation.count))], at: i)
            case 3: b = Array(b[..<i])
            case 4: b.insert(contentsOf: b[i..<min(b.count, i + 8)], at: i)
            default: b[i] = punctuation[Int(random.next() % UInt64(punctuation.count))]
            }
        }
        return b
    }

    func testGeoJSONDecoderSurvivesMutations() {
        let seeds = [
            #"{"type":"FeatureCollection","features":[{"type":"Feature","id":1,"properties":{"a":[1,{"b":null}]},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]],[[0.2,0.2],[0.3,0.2],[0.3,0.3],[0.2,0.2]]]}}]}"#,
            #"{"type":"GeometryCollection","geometries":[{"type":"MultiLineString","coordinates":[[[7.4,43.7],[7.5,43.8,12]]]},{"type":"MultiPoint","coordinates":[[1,2]]}]}"#,
            #"{"type":"MultiPolygon","coordinates":[[[[179,0],[181,0],[180,1],[179,0]]]],"bbox":[179,0,181,1]}"#,
        ].map { Array($0.utf8) }
        var random = SplitMix64(seed: 2026)
        var failures = 0, successes = 0
        for round in 0..<3000 {
            let input = mutate(seeds[round % seeds.count], &random)
            do {
                let objects = try MKGeoJSONDecoder().decode(Data(input))
                successes += 1
                _ = try? MKGeoJSONEncoder().encode(objects)
            } catch let error as MKError {
                XCTAssertEqual(error.code, .decodingFailed)
                failures += 1
            } catch {
                XCTFail("untyped error \(error) for \(String(decoding: input, as: UTF8.self))")
            }
        }
        XCTAssertGreaterThan(failures, 1000)   // most mutations break the document…
        XCTAssertGreaterThan(successes, 10)    // …and some leave it valid
    }

    func testEncodedPolylineSurvivesMutations() throws {
        let seed = Array(try EncodedPolyline.encode([CLLocationCoordinate2D(latitude: 38.5, longitude: -120.2),
                                                    CLLocationCoordinate2D(latitude: 40.7, longitude: -120.95)]).utf8)
        var random = SplitMix64(seed: 5)
        var rejected = 0
        for _ in 0..<3000 {
            let input = String(decoding: mutate(seed, &random), as: UTF8.self)
            do {
                let points = try EncodedPolyline.decode(input)
                XCTAssertTrue(points.allSatisfy(CLLocationCoordinate2DIsValid))
            } catch {
                rejected += 1
            }
        }
        XCTAssertGreaterThan(rejected, 100)
    }

    func testMapsURLParserSurvivesMutations() {
        let seeds = [
            "https://maps.apple.com/directions?source=1%20Infinite%20Loop&destination=43.7384,7.4246&waypoint=A&waypoint=B&mode=walking&avoid=tolls,highways&start=30",
            "https://maps.apple.com/frame?center=40.773957,-73.970974&span=0.05,0.05&heading=90&pitch=15&distance=1000&map=satellite",
        ].map { Array($0.utf8) }
        var random = SplitMix64(seed: 9)
        var parsed = 0, rejected = 0
        for round in 0..<3000 {
            let text = String(decoding: mutate(seeds[round % 2], &random), as: UTF8.self)
            guard let url = URL(string: text) else { continue }
            do {
                let mapsURL = try MapsURL(url: url)
                parsed += 1
                _ = mapsURL.url
            } catch {
                rejected += 1
            }
        }
        XCTAssertGreaterThan(parsed, 10)
        XCTAssertGreaterThan(rejected, 100)
    }

    func testDistanceFormatterParsesGarbage() {
        let formatter = MKDistanceFormatter()
        formatter.locale = Locale(identifier: "fr_FR")
        var random = SplitMix64(seed: 3)
        for _ in 0..<2000 {
            let text = String(decoding: mutate(Array("1,2 km".utf8), &random), as: UTF8.self)
            let value = formatter.distance(from: text)
            XCTAssertFalse(value.isNaN, text)
        }
    }
}
