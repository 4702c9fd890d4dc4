import Foundation
import Hummingbird
import HTTPTypes
import MapFormats
import MapGeometry
@testable import MapServer
import MapRender
import MapStyle
import TestSupport
import XCTest

/// TileJSON and vector tiles over the Monaco sample bundle.
final class TileRoutesTests: XCTestCase {
    /// The z14 tile over Monaco's harbour (it has roads, buildings, water and labels).
    static let harbour = (z: 14, x: 8530, y: 5974)

    private func storedTile(_ z: Int, _ x: Int, _ y: Int) throws -> [UInt8]? {
        let archive = try MBTilesArchive(url: try SampleBundle.monaco().appendingPathComponent("tiles.mbtiles"))
        return try archive.tile(XCTUnwrap(TileID(z: z, x: x, y: y))).map { [UInt8]($0) }
    }

    func testTileJSONDescribesTheBundleWithAbsoluteURLs() async throws {
        let server = try TestServer.make()
        let metadata = try MBTilesArchive(url: try SampleBundle.monaco().appendingPathComponent("tiles.mbtiles")).metadata()
        try await TestServer.withClient(server) { client in
            let response = try await client.execute(uri: "/tiles.json", method: .get)
            XCTAssertEqual(response.status, .ok)
            let body = try response.json()
            XCTAssertEqual(body["tilejson"] as? String, "3.0.0")
            XCTAssertEqual(body["tiles"] as? [String], ["http://localhost/tiles/{z}/{x}/{y}.mvt"])
            XCTAssertEqual(body["minzoom"] as? Int, Int(metadata["minzoom"] ?? ""))
            XCTAssertEqual(body["maxzoom"] as? Int, Int(metadata["maxzoom"] ?? ""))
            XCTAssertTrue((body["attribution"] as? String ?? "").contains("OpenStreetMap contributors"))
            let bounds = try XCTUnwrap(body["bounds"] as? [Double])
            XCTAssertEqual(bounds.count, 4)
            // Monaco lies around 43.73 N, 7.42 E.
            XCTAssertTrue(bounds[0] < 7.42 && 7.42 < bounds[2] && bounds[1] < 43.73 && 43.73 < bounds[3], "\(bounds)")
            let center = try XCTUnwrap(body["center"] as? [Double])
            XCTAssertEqual(center.count, 3)
            let layers = try XCTUnwrap(body["vector_layers"] as? [[String: Any]])
            let ids = Set(layers.compactMap { $0["id"] as? String })
            XCTAssertTrue(ids.isSuperset(of: ["transportation", "building", "water"]), "\(ids)")
            XCTAssertNotNil(response.headers[.eTag])

            // Behind a TLS proxy, with a region: both reach the tile URLs.
            let proxied = try await client.execute(uri: "/tiles.json?region=monaco", method: .get,
                                                   headers: [HTTPField.Name("X-Forwarded-Proto")!: "https"])
            XCTAssertEqual(try proxied.json()["tiles"] as? [String], ["https://localhost/tiles/{z}/{x}/{y}.mvt?region=monaco"])
            let unknown = try await client.execute(uri: "/tiles.json?region=atlantis", method: .get)
            XCTAssertEqual(unknown.status, .notFound)
        }
    }

    func testVectorTileIsServedGzippedOrPlainWithETagAnd304() async throws {
        let server = try TestServer.make()
        let (z, x, y) = Self.harbour
        let stored = try XCTUnwrap(try storedTile(z, x, y))
        XCTAssertTrue(Compression.isGzip(stored), "the importer stores tiles gzipped")
        try await TestServer.withClient(server) { client in
            let uri = "/tiles/\(z)/\(x)/\(y).mvt"
            let gzipped = try await client.execute(uri: uri, method: .get, headers: [.acceptEncoding: "gzip, deflate, br"])
            XCTAssertEqual(gzipped.status, .ok)
            XCTAssertEqual(gzipped.headers[.contentEncoding], "gzip")
            XCTAssertEqual(gzipped.headers[.contentType], "application/vnd.mapbox-vector-tile")
            XCTAssertEqual(Array(buffer: gzipped.body), stored)
            XCTAssertTrue(gzipped.headers[.cacheControl]?.contains("max-age=") ?? false)
            let etag = try XCTUnwrap(gzipped.headers[.eTag])

            let plain = try await client.execute(uri: uri, method: .get)
            XCTAssertEqual(plain.status, .ok)
            XCTAssertNil(plain.headers[.contentEncoding])
            let tile = try VectorTile(decoding: Array(buffer: plain.body))
            XCTAssertTrue(tile.layers.contains { $0.name == "transportation" && !$0.features.isEmpty })
            XCTAssertNotEqual(plain.headers[.eTag], etag, "each representation has its own entity tag")

            let again = try await client.execute(uri: uri, method: .get, headers: [.acceptEncoding: "gzip", .ifNoneMatch: etag])
            XCTAssertEqual(again.status, .notModified)
            XCTAssertEqual(again.body.readableBytes, 0)
            let refused = try await client.execute(uri: uri, method: .get, headers: [.acceptEncoding: "gzip;q=0"])
            XCTAssertNil(refused.headers[.contentEncoding])

            // A valid address with no data (the open sea, far from Monaco) has no content.
            let sea = try await client.execute(uri: "/tiles/14/0/0.mvt", method: .get)
            XCTAssertEqual(sea.status, .noContent)
            XCTAssertEqual(sea.body.readableBytes, 0)
        }
    }

    func testTileAddressesOutsideThePyramidOrNotNumbersAreClientErrors() async throws {
        let server = try TestServer.make()
        let cases: [(String, HTTPResponse.Status)] = [
            ("/tiles/a/0/0.mvt", .badRequest),
            ("/tiles/0/-1/0.mvt", .badRequest),
            ("/tiles/0/0/+0.mvt", .badRequest),
            ("/tiles/1.5/0/0.mvt", .badRequest),
            ("/tiles/0/0/0x10.mvt", .badRequest),
            ("/tiles/99999999999999999999/0/0.mvt", .badRequest),
            ("/tiles/25/0/0.mvt", .notFound),
            ("/tiles/2/4/0.mvt", .notFound),
            ("/tiles/2/0/4.mvt", .notFound),
            ("/tiles/0/0/0.png", .notFound),
            ("/tiles/0/0/0", .notFound),
        ]
        try await TestServer.withClient(server) { client in
            for (uri, status) in cases {
                let response = try await client.execute(uri: uri, method: .get)
                XCTAssertEqual(response.status, status, uri)
                XCTAssertNotNil(response.errorMessage, uri)
            }
        }
    }
}
