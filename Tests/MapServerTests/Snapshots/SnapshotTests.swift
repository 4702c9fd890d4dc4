import Foundation
import Hummingbird
@testable import MapServer
import OpenMapKit
import XCTest

/// `/api/v1/snapshot` over the Monaco sample: real rendering, real geocoding, real PNGs.
final class SnapshotTests: XCTestCase {
    /// Monte Carlo: streets, buildings, water and labels all in view.
    static let center = "43.7384,7.4246"

    /// A query string with every value percent-encoded (JSON included).
    static func query(_ pairs: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return pairs.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed)!)" }.joined(separator: "&")
    }

    static func uri(_ pairs: [(String, String)]) -> String { "/api/v1/snapshot?" + query(pairs) }

    /// The response body decoded as a PNG (fails the test when it is not one).
    static func image(_ response: TestResponse, scale: CGFloat = 1, file: StaticString = #filePath, line: UInt = #line) throws -> UIImage {
        XCTAssertEqual(response.status, .ok, response.errorMessage ?? "", file: file, line: line)
        XCTAssertEqual(response.headers[.contentType], "image/png", file: file, line: line)
        return try XCTUnwrap(UIImage(data: Data(buffer: response.body), scale: scale), "not a PNG", file: file, line: line)
    }

    /// Luminance of every `step`-th pixel.
    static func luminances(_ image: UIImage, step: Int = 4) -> [Double] {
        let (width, height) = image.pixelSize
        var values: [Double] = []
        for y in stride(from: 0, to: height, by: step) {
            for x in stride(from: 0, to: width, by: step) {
                guard let c = image.pixelColor(x: x, y: y) else { continue }
                values.append(0.2126 * Double(c.red) + 0.7152 * Double(c.green) + 0.0722 * Double(c.blue))
            }
        }
        return values
    }

    static func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(max(values.count, 1)) }

    static func variance(_ values: [Double]) -> Double {
        let m = mean(values)
        return values.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(max(values.count, 1))
    }

    /// Whether the pixel is close to magenta (#FF00FF), the colour nothing on the map uses.
    static func isMagenta(_ image: UIImage, x: Int, y: Int) -> Bool {
        guard let c = image.pixelColor(x: x, y: y) else { return false }
        return c.red > 0.85 && c.green < 0.2 && c.blue > 0.85
    }

    func testSnapshotIsAPNGOfTheRequestedSizeTimesScaleAndNotBlank() async throws {
        let server = try TestServer.make()
        try await TestServer.withClient(server) { client in
            let response = try await client.execute(uri: Self.uri([("center", Self.center), ("z", "15"), ("size", "300x200"), ("scale", "2")]), method: .get)
            let image = try Self.image(response, scale: 2)
            XCTAssertEqual(image.pixelSize.width, 600)
            XCTAssertEqual(image.pixelSize.height, 400)
            XCTAssertNotNil(response.headers[.eTag])
            XCTAssertEqual(response.headers[.cacheControl], SnapshotRoutes.cacheControl)
            // A map, not a flat fill: streets, blocks, water and labels differ in brightness.
            XCTAssertGreaterThan(Self.variance(Self.luminances(image)), 0.002)
        }
    }

    func testStaticMapsCarryTheOpenStreetMapCredit() async throws {
        let server = try TestServer.make()
        try await TestServer.withClient(server) { client in
            let response = try await client.execute(uri: Self.uri([("center", Self.center), ("z", "15"), ("size", "300x200")]), method: .get)
            let image = try Self.image(response)
            // The credit's label: a light box 8 points in from the bottom-right corner, with dark
            // text on it (MapKit snapshots draw it; see AttributionTests for its exact frame).
            var light = 0, dark = 0, total = 0
            for y in (200 - 8 - 16)..<(200 - 8 - 3) {
                for x in (300 - 8 - 100)..<(300 - 8 - 4) {
                    guard let c = image.pixelColor(x: x, y: y) else { continue }
                    let luminance = 0.2126 * Double(c.red) + 0.7152 * Double(c.green) + 0.0722 * Double(c.blue)
                    total += 1
                    if luminance > 0.74 { light += 1 }
                    if luminance < 0.45 { dark += 1 }
                }
            }
            XCTAssertGreaterThan(light + dark, total * 9 / 10, "the label's box lightens the map under it")
            XCTAssertGreaterThan(dark, 30, "and its text is written on it")
        }
    }

    func testDarkSchemeDiffersFromLight() async throws {
        let server = try TestServer.make()
        try await TestServer.withClient(server) { client in
            let base = [("center", Self.center), ("z", "15"), ("size", "200x150")]
            let light = try Self.image(try await client.execute(uri: Self.uri(base + [("colorScheme", "light")]), method: .get))
            let dark = try Self.image(try await client.execute(uri: Self.uri(base + [("colorScheme", "dark")]), method: .get))
            let lightMean = Self.mean(Self.luminances(light)), darkMean = Self.mean(Self.luminances(dark))
            XCTAssertLessThan(darkMean + 0.2, lightMean, "dark \(darkMean) vs light \(lightMean)")
            XCTAssertGreaterThan(Self.variance(Self.luminances(dark)), 0.0005)
        }
    }

    func testAnnotationColourAppearsAtItsPoint() async throws {
        let server = try TestServer.make()
        try await TestServer.withClient(server) { client in
            let annotations = ##"[{"point":"43.7384,7.4246","color":"FF00FF","glyphText":"A"},{"point":"43.7370,7.4220","color":"#ff00ff","markerStyle":"dot"}]"##
            let size = (width: 300, height: 240)
            let response = try await client.execute(uri: Self.uri([("center", Self.center), ("z", "16"), ("size", "\(size.width)x\(size.height)"),
                                                                   ("annotations", annotations)]), method: .get)
            let image = try Self.image(response)
            // The balloon's tip is on the point and its head 25 points above; left of the glyph
            // the head is solid marker colour.
            XCTAssertTrue(Self.isMagenta(image, x: size.width / 2 - 9, y: size.height / 2 - 25))
            XCTAssertTrue(Self.isMagenta(image, x: size.width / 2 + 9, y: size.height / 2 - 25))
            // The dot sits centred on its own point.
            let viewport = MapViewport(size: CGSize(width: Double(size.width), height: Double(size.height)),
                                       centerCoordinate: CLLocationCoordinate2D(latitude: 43.7384, longitude: 7.4246), zoomLevel: 15)
            let dot = viewport.convert(CLLocationCoordinate2D(latitude: 43.7370, longitude: 7.4220))
            XCTAssertTrue(Self.isMagenta(image, x: Int(dot.x), y: Int(dot.y)), "no dot at \(dot)")
            // Elsewhere the map has no magenta.
            XCTAssertFalse(Self.isMagenta(image, x: 10, y: 10))
        }
    }

    func testOverlayColourAppearsAlongItsLine() async throws {
        let server = try TestServer.make()
        try await TestServer.withClient(server) { client in
            let overlays = #"[{"points":["43.7384,7.4216","43.7384,7.4276"],"strokeColor":"FF00FF","lineWidth":8}]"#
            let size = (width: 400, height: 300)
            let response = try await client.execute(uri: Self.uri([("center", Self.center), ("z", "16"), ("size", "\(size.width)x\(size.height)"),
                                                                   ("overlays", overlays)]), method: .get)
            let image = try Self.image(response)
            // The line runs along the centre row, ±0.003° (about 140 points) each side of the centre.
            let xs = Array(stride(from: size.width / 2 - 120, through: size.width / 2 + 120, by: 20))
            let onLine = xs.filter { Self.isMagenta(image, x: $0, y: size.height / 2) }.count
            // Labels sit above lines (MapKit's aboveRoads level), so a few samples may be covered.
            XCTAssertGreaterThanOrEqual(onLine, xs.count * 3 / 4, "\(onLine) of \(xs.count) samples on the line")
            let offLine = xs.filter { Self.isMagenta(image, x: $0, y: size.height / 2 - 40) }.count
            XCTAssertEqual(offLine, 0)
        }
    }

    func testAddressCentreIsGeocodedAndUnknownAddressIsA404() async throws {
        let server = try TestServer.make()
        try await TestServer.withClient(server) { client in
            let response = try await client.execute(uri: Self.uri([("center", "Avenue de la Costa"), ("z", "16"), ("size", "120x80")]), method: .get)
            let image = try Self.image(response)
            XCTAssertEqual(image.pixelSize.width, 120)
            XCTAssertGreaterThan(Self.variance(Self.luminances(image, step: 2)), 0.0005)

            let missing = try await client.execute(uri: Self.uri([("center", "Qxqxqxq Zzvzzvw")]), method: .get)
            XCTAssertEqual(missing.status, .notFound)
            XCTAssertNotNil(missing.errorMessage)
        }
    }

    func testRepeatedSnapshotComesFromTheCacheAndRevalidatesWithItsETag() async throws {
        let server = try TestServer.make()
        try await TestServer.withClient(server) { client in
            let uri = Self.uri([("center", Self.center), ("z", "14"), ("size", "100x100"), ("poi", "0")])
            let first = try await client.execute(uri: uri, method: .get)
            XCTAssertEqual(first.status, .ok)
            let rendered = server.renderPool.statistics.completed
            // The same snapshot written differently (parameter order, case of t) is the same entry.
            let second = try await client.execute(uri: Self.uri([("size", "100x100"), ("poi", "0"), ("t", "STANDARD"), ("z", "14"), ("center", Self.center)]),
                                                  method: .get)
            XCTAssertEqual(second.status, .ok)
            XCTAssertEqual(Data(buffer: second.body), Data(buffer: first.body))
            XCTAssertEqual(server.renderPool.statistics.completed, rendered, "drawn again instead of served from the cache")
            let etag = try XCTUnwrap(first.headers[.eTag])
            XCTAssertEqual(second.headers[.eTag], etag)
            let revalidated = try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: etag])
            XCTAssertEqual(revalidated.status, .notModified)
            XCTAssertEqual(revalidated.body.readableBytes, 0)
            // A bundle swap changes the ETag: the old picture is not vouched for any more.
            try server.regions.reload()
            let afterSwap = try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: etag])
            XCTAssertEqual(afterSwap.status, .ok)
            XCTAssertNotEqual(afterSwap.headers[.eTag], etag)
        }
    }

    func testBadRequestsAreClientErrorsWithJSONBodiesNeverServerErrors() async throws {
        let server = try TestServer.make { $0.maximumImageSide = 1000 }
        let c = ("center", Self.center)
        let nested = String(repeating: "[", count: 1000) + String(repeating: "]", count: 1000)
        let tenThousand = "[" + Array(repeating: ##"{"point":"43.73,7.42"}"##, count: 10_000).joined(separator: ",") + "]"
        let tooMany = "[" + Array(repeating: ##"{"point":"43.73,7.42"}"##, count: SnapshotJSON.maximumAnnotations + 1).joined(separator: ",") + "]"
        let manyOverlays = "[" + Array(repeating: ##"{"points":["43.73,7.42","43.74,7.43"]}"##, count: SnapshotJSON.maximumOverlays + 1).joined(separator: ",") + "]"
        let cases: [(String, [(String, String)], HTTPResponse.Status)] = [
            ("missing center", [("z", "12")], .badRequest),
            ("NaN center", [("center", "nan,nan")], .badRequest),
            ("center off the world", [("center", "91,7")], .badRequest),
            ("infinite longitude", [("center", "43,inf")], .badRequest),
            ("control characters in an address", [("center", "Monaco\u{1}")], .badRequest),
            ("z below Apple's range", [c, ("z", "2")], .badRequest),
            ("z above Apple's range", [c, ("z", "21")], .badRequest),
            ("z NaN", [c, ("z", "NaN")], .badRequest),
            ("z text", [c, ("z", "twelve")], .badRequest),
            ("size 0x0", [c, ("size", "0x0")], .badRequest),
            ("size 100000x1", [c, ("size", "100000x1")], .badRequest),
            ("size above Apple's 640", [c, ("size", "641x400")], .badRequest),
            ("size negative", [c, ("size", "-600x400")], .badRequest),
            ("size one number", [c, ("size", "600")], .badRequest),
            ("size over the server's pixel cap", [c, ("size", "640x640"), ("scale", "2")], .badRequest),
            ("scale 9", [c, ("scale", "9")], .badRequest),
            ("scale 0", [c, ("scale", "0")], .badRequest),
            ("scale fractional", [c, ("scale", "1.5")], .badRequest),
            ("spn zero", [c, ("spn", "0,0")], .badRequest),
            ("spn NaN", [c, ("spn", "nan,0.1")], .badRequest),
            ("spn one number", [c, ("spn", "0.1")], .badRequest),
            ("unknown t", [c, ("t", "terrain")], .badRequest),
            ("unknown colorScheme", [c, ("colorScheme", "blue")], .badRequest),
            ("poi not a flag", [c, ("poi", "maybe")], .badRequest),
            ("lang markup", [c, ("lang", "<script>")], .badRequest),
            ("annotations malformed JSON", [c, ("annotations", "[{point:")], .badRequest),
            ("annotations not an array", [c, ("annotations", ##"{"point":"43.73,7.42"}"##)], .badRequest),
            ("annotations item not an object", [c, ("annotations", "[1]")], .badRequest),
            ("annotation without point", [c, ("annotations", ##"[{"color":"red"}]"##)], .badRequest),
            ("annotation point NaN", [c, ("annotations", ##"[{"point":"nan,7"}]"##)], .badRequest),
            ("annotation point a number", [c, ("annotations", ##"[{"point":43.7}]"##)], .badRequest),
            ("annotation bad colour", [c, ("annotations", ##"[{"point":"43.73,7.42","color":"notacolour"}]"##)], .badRequest),
            ("annotation colour not a string", [c, ("annotations", ##"[{"point":"43.73,7.42","color":16711680}]"##)], .badRequest),
            ("annotation bad hex", [c, ("annotations", ##"[{"point":"43.73,7.42","color":"#GG0000"}]"##)], .badRequest),
            ("annotation unknown markerStyle", [c, ("annotations", ##"[{"point":"43.73,7.42","markerStyle":"star"}]"##)], .badRequest),
            ("annotation long glyphText", [c, ("annotations", ##"[{"point":"43.73,7.42","glyphText":"toolong"}]"##)], .badRequest),
            ("annotation imgIdx without imgs", [c, ("annotations", ##"[{"point":"43.73,7.42","markerStyle":"img","imgIdx":3}]"##)], .badRequest),
            ("annotations nested deeply", [c, ("annotations", nested)], .badRequest),
            ("annotations beyond the limit", [c, ("annotations", tooMany)], .badRequest),
            ("10 000 annotations", [c, ("annotations", tenThousand)], .badRequest),
            ("imgs not an array", [c, ("imgs", ##"{"url":"x"}"##)], .badRequest),
            ("overlays malformed JSON", [c, ("overlays", ##"[{"points":["43.73,7.42",]}"##)], .badRequest),
            ("overlay with one point", [c, ("overlays", ##"[{"points":["43.73,7.42"]}]"##)], .badRequest),
            ("overlay points not an array", [c, ("overlays", ##"[{"points":"43.73,7.42"}]"##)], .badRequest),
            ("overlay point off the world", [c, ("overlays", ##"[{"points":["43.73,7.42","95,7"]}]"##)], .badRequest),
            ("overlay negative lineWidth", [c, ("overlays", ##"[{"points":["43.73,7.42","43.74,7.43"],"lineWidth":-1}]"##)], .badRequest),
            ("overlay huge lineWidth", [c, ("overlays", ##"[{"points":["43.73,7.42","43.74,7.43"],"lineWidth":1e300}]"##)], .badRequest),
            ("overlay bad strokeColor", [c, ("overlays", ##"[{"points":["43.73,7.42","43.74,7.43"],"strokeColor":"#12"}]"##)], .badRequest),
            ("overlay bad lineDash", [c, ("overlays", ##"[{"points":["43.73,7.42","43.74,7.43"],"lineDash":["a"]}]"##)], .badRequest),
            ("overlay all-zero lineDash", [c, ("overlays", ##"[{"points":["43.73,7.42","43.74,7.43"],"lineDash":[0,0]}]"##)], .badRequest),
            ("overlay strokeOpacity above 1", [c, ("overlays", ##"[{"points":["43.73,7.42","43.74,7.43"],"strokeOpacity":2}]"##)], .badRequest),
            ("overlay unknown type", [c, ("overlays", ##"[{"type":"circle","points":["43.73,7.42","43.74,7.43"]}]"##)], .badRequest),
            ("overlay styleIdx out of range", [c, ("overlays", ##"[{"points":["43.73,7.42","43.74,7.43"],"styleIdx":5}]"##)], .badRequest),
            ("overlays nested deeply", [c, ("overlays", nested)], .badRequest),
            ("overlays beyond the limit", [c, ("overlays", manyOverlays)], .badRequest),
            ("imagery the bundle lacks", [c, ("t", "satellite")], .notFound),
            ("hybrid without imagery", [c, ("t", "hybrid")], .notFound),
            ("unknown region", [c, ("region", "atlantis")], .notFound),
            ("address that is nowhere", [("center", "Qxqxqxq Zzvzzvw")], .notFound),
        ]
        try await TestServer.withClient(server) { client in
            for (name, pairs, expected) in cases {
                let response = try await client.execute(uri: Self.uri(pairs), method: .get)
                XCTAssertEqual(response.status, expected, "\(name): \(response.errorMessage ?? response.text.prefix(200).description)")
                XCTAssertLessThan(response.status.code, 500, name)
                XCTAssertEqual(response.headers[.contentType], "application/json; charset=utf-8", name)
                XCTAssertNotNil(response.errorMessage, "\(name): no error message")
            }
            // None of them reached the renderer.
            XCTAssertEqual(server.renderPool.statistics.completed, 0)
        }
    }

    func testSignatureParametersAreAcceptedAndFullPoolAnswers503WithRetryAfter() async throws {
        let server = try TestServer.make {
            $0.renderWorkers = 1
            $0.renderQueueLimit = 0
        }
        try await TestServer.withClient(server) { client in
            // Distinct zooms: nothing is answered from the cache, each needs the one worker.
            let statuses = try await withThrowingTaskGroup(of: (HTTPResponse.Status, String?).self) { group in
                for index in 0..<6 {
                    group.addTask {
                        let response = try await client.execute(
                            uri: Self.uri([("center", Self.center), ("z", String(13 + Double(index) / 4)), ("size", "320x240"),
                                           ("teamId", "TEAM"), ("keyId", "KEY"), ("expires", "3155673601"), ("signature", "c2lnbmF0dXJl")]),
                            method: .get)
                        return (response.status, response.headers[.retryAfter])
                    }
                }
                var all: [(HTTPResponse.Status, String?)] = []
                for try await result in group { all.append(result) }
                return all
            }
            let busy = statuses.filter { $0.0 == .serviceUnavailable }
            XCTAssertGreaterThan(busy.count, 0, "\(statuses.map(\.0.code))")
            XCTAssertTrue(busy.allSatisfy { $0.1 == "1" }, "503 without Retry-After")
            XCTAssertGreaterThan(statuses.filter { $0.0 == .ok }.count, 0, "\(statuses.map(\.0.code))")
            XCTAssertEqual(statuses.filter { ![.ok, .serviceUnavailable].contains($0.0) }.count, 0, "\(statuses.map(\.0.code))")
            XCTAssertEqual(server.renderPool.statistics.rejected, busy.count)
        }
    }
}
