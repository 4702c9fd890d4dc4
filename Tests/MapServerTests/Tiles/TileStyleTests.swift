import Foundation
import Hummingbird
import MapFormats
@testable import MapServer
import MapRender
import MapStyle
import TestSupport
import XCTest

/// Style documents, sprites, glyph ranges and raster tiles, and hostile paths for all of them.
final class TileStyleTests: XCTestCase {
    func testStyleDocumentsValidateAndNameOnlyThisServer() async throws {
        let server = try TestServer.make()
        try await TestServer.withClient(server) { client in
            for name in ["standard", "dark", "muted"] {
                let response = try await client.execute(uri: "/styles/\(name).json", method: .get)
                XCTAssertEqual(response.status, .ok, name)
                let bytes = Array(buffer: response.body)
                let errors = Style.validate(bytes: bytes, strict: true).filter { $0.severity == .error }
                XCTAssertEqual(errors, [], name)
                let style = try Style(text: String(decoding: bytes, as: UTF8.self))
                XCTAssertEqual(style.layers.count, DefaultStyle(rawValue: name)?.style.layers.count, name)
                let body = try response.json()
                XCTAssertEqual(body["glyphs"] as? String, "http://localhost/fonts/{fontstack}/{range}.pbf")
                XCTAssertEqual(body["sprite"] as? String, "http://localhost/sprites/default")
                let sources = try XCTUnwrap(body["sources"] as? [String: Any])
                XCTAssertEqual(sources[DefaultStyle.vectorSourceID] as? [String: String],
                               ["type": "vector", "url": "http://localhost/tiles.json"])
                // Nothing a browser cannot fetch is left in the document.
                let text = String(decoding: bytes, as: UTF8.self)
                XCTAssertFalse(text.contains("openmapkit://") || text.contains("bundle://"), name)
                // The world outside the region's bounds is hatched: one polygon, the bounds its hole.
                let noData = try XCTUnwrap(sources[DefaultStyle.noDataSourceID] as? [String: Any], name)
                let features = (noData["data"] as? [String: Any])?["features"] as? [[String: Any]] ?? []
                XCTAssertEqual(features.count, 1, name)
                let rings = (features.first?["geometry"] as? [String: Any])?["coordinates"] as? [[[Double]]] ?? []
                XCTAssertEqual(rings.count, 2, name)
                let box = try XCTUnwrap(server.regions.snapshot.combined.bundles.first?.manifest.geographicBounds)
                let hole = rings.last ?? []
                XCTAssertEqual(hole.map { $0[0] }.min() ?? 0, box.west, accuracy: 1e-6)
                XCTAssertEqual(hole.map { $0[0] }.max() ?? 0, box.east, accuracy: 1e-6)
                XCTAssertEqual(hole.map { $0[1] }.min() ?? 0, box.south, accuracy: 1e-6)
                XCTAssertEqual(hole.map { $0[1] }.max() ?? 0, box.north, accuracy: 1e-6)
            }
            let regional = try await client.execute(uri: "/styles/dark.json?region=monaco", method: .get)
            let sources = try XCTUnwrap(try regional.json()["sources"] as? [String: Any])
            XCTAssertEqual((sources[DefaultStyle.vectorSourceID] as? [String: String])?["url"], "http://localhost/tiles.json?region=monaco")

            // Without imagery configured, hybrid is refused with a reason; the list shows what works.
            let hybrid = try await client.execute(uri: "/styles/hybrid.json", method: .get)
            XCTAssertEqual(hybrid.status, .notFound)
            XCTAssertTrue(hybrid.errorMessage?.contains("imagery") ?? false, hybrid.text)
            let list = try await client.execute(uri: "/styles", method: .get)
            let items = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(buffer: list.body)) as? [[String: Any]])
            XCTAssertEqual(items.compactMap { $0["id"] as? String }, ["standard", "dark", "muted"])
            XCTAssertEqual(items.first?["url"] as? String, "http://localhost/styles/standard.json")
        }
    }

    /// `?elevation=realistic` (MapKit's elevation style) serves the style with buildings as
    /// extrusions in place of flat fills; anything but flat or realistic is a 400 naming both.
    func testRealisticElevationStandsBuildingsUp() async throws {
        let server = try TestServer.make()
        try await TestServer.withClient(server) { client in
            func buildingLayers(_ uri: String) async throws -> [String: String] {
                let response = try await client.execute(uri: uri, method: .get)
                XCTAssertEqual(response.status, .ok, uri)
                let errors = Style.validate(bytes: Array(buffer: response.body), strict: true).filter { $0.severity == .error }
                XCTAssertEqual(errors, [], uri)
                let layers = try XCTUnwrap(try response.json()["layers"] as? [[String: Any]])
                var found: [String: String] = [:]
                for layer in layers where layer["source-layer"] as? String == "building" {
                    found[layer["id"] as? String ?? ""] = layer["type"] as? String
                }
                return found
            }
            let flat = try await buildingLayers("/styles/standard.json")
            XCTAssertEqual(flat["building"], "fill")
            XCTAssertFalse(flat.values.contains("fill-extrusion"))
            let realistic = try await buildingLayers("/styles/dark.json?elevation=realistic")
            XCTAssertEqual(realistic["building-3d"], "fill-extrusion")
            XCTAssertNil(realistic["building"])
            let bad = try await client.execute(uri: "/styles/standard.json?elevation=tall", method: .get)
            XCTAssertEqual(bad.status, .badRequest)
            XCTAssertTrue((bad.errorMessage ?? "").contains("flat or realistic"), bad.text)
        }
    }

    func testSpritesAreTheDefaultStylesSprites() async throws {
        let server = try TestServer.make()
        try await TestServer.withClient(server) { client in
            for (file, pixelRatio) in [("default", 1), ("default@2x", 2)] {
                let json = try await client.execute(uri: "/sprites/\(file).json", method: .get)
                XCTAssertEqual(json.status, .ok)
                XCTAssertEqual(json.headers[.contentType], "application/json")
                let index = try json.json()
                XCTAssertFalse(index.isEmpty)
                let entry = try XCTUnwrap(index.values.first as? [String: Any])
                XCTAssertEqual(entry["pixelRatio"] as? Int, pixelRatio)
                let png = try await client.execute(uri: "/sprites/\(file).png", method: .get)
                XCTAssertEqual(png.headers[.contentType], "image/png")
                let image = try RenderImage(png: Array(buffer: png.body))
                // Every icon of the index lies inside the sheet.
                for case let icon as [String: Any] in index.values {
                    let right = (icon["x"] as? Int ?? .max) + (icon["width"] as? Int ?? .max)
                    let bottom = (icon["y"] as? Int ?? .max) + (icon["height"] as? Int ?? .max)
                    XCTAssertLessThanOrEqual(right, image.width)
                    XCTAssertLessThanOrEqual(bottom, image.height)
                }
                let etag = try XCTUnwrap(png.headers[.eTag])
                let cached = try await client.execute(uri: "/sprites/\(file).png", method: .get, headers: [.ifNoneMatch: etag])
                XCTAssertEqual(cached.status, .notModified)
            }
            let missing = try await client.execute(uri: "/sprites/other.json", method: .get)
            XCTAssertEqual(missing.status, .notFound)
        }
    }

    func testGlyphRangesAreServedAndRangesChecked() async throws {
        let server = try TestServer.make()
        try await TestServer.withClient(server) { client in
            let response = try await client.execute(uri: "/fonts/Noto%20Sans%20Regular,Arial%20Unicode%20MS%20Regular/0-255.pbf", method: .get)
            XCTAssertEqual(response.status, .ok, response.text)
            XCTAssertEqual(response.headers[.contentType], "application/x-protobuf")
            let stack = try GlyphPBF.decode(Array(buffer: response.body))
            XCTAssertEqual(stack.name, "Noto Sans Regular,Arial Unicode MS Regular")
            XCTAssertEqual(stack.range, "0-255")
            XCTAssertNotNil(stack.glyphs[65])
            XCTAssertNotNil(stack.glyphs[0xE9]) // é
            XCTAssertGreaterThan(stack.glyphs[32]?.advance ?? 0, 0) // the space has no bitmap but moves the pen

            // Greek is another range; it is served from the same fonts.
            let greek = try await client.execute(uri: "/fonts/Noto%20Sans%20Bold/768-1023.pbf", method: .get)
            XCTAssertEqual(greek.status, .ok)
            XCTAssertNotNil(try GlyphPBF.decode(Array(buffer: greek.body)).glyphs[0x3A9]) // Ω

            let etag = try XCTUnwrap(response.headers[.eTag])
            let again = try await client.execute(uri: "/fonts/Noto%20Sans%20Regular,Arial%20Unicode%20MS%20Regular/0-255.pbf",
                                                 method: .get, headers: [.ifNoneMatch: etag])
            XCTAssertEqual(again.status, .notModified)

            for range in ["1-256", "0-254", "0-511", "65536-65791", "abc-def.pbf", "-256-0", "0-255.json", "256-511-767"] {
                let uri = "/fonts/Noto%20Sans%20Regular/\(range)\(range.contains(".") ? "" : ".pbf")"
                let bad = try await client.execute(uri: uri, method: .get)
                XCTAssertTrue((400..<500).contains(bad.status.code), "\(uri): \(bad.status)")
                XCTAssertNotNil(bad.errorMessage, uri)
            }
        }
    }

    func testRasterTilesAreDrawnCachedAndRevalidated() async throws {
        let server = try TestServer.make { $0.renderWorkers = 2 }
        // The harbour at z16 (a 256-point tile shows zoom 15 there).
        let (z, x, y) = (16, 34120, 23897)
        try await TestServer.withClient(server) { client in
            let uri = "/styles/standard/\(z)/\(x)/\(y).png"
            let first = try await client.execute(uri: uri, method: .get)
            XCTAssertEqual(first.status, .ok, first.text)
            XCTAssertEqual(first.headers[.contentType], "image/png")
            let png = Array(buffer: first.body)
            let image = try RenderImage(png: png)
            XCTAssertEqual(image.width, 256)
            XCTAssertGreaterThan(try Self.distinctColours(image), 20, "a harbour tile has roads, water, buildings and labels")
            let hits = server.cache.statistics.hits
            let second = try await client.execute(uri: uri, method: .get)
            XCTAssertEqual(Array(buffer: second.body), png)
            XCTAssertEqual(server.cache.statistics.hits, hits + 1)
            let etag = try XCTUnwrap(first.headers[.eTag])
            let revalidated = try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: etag])
            XCTAssertEqual(revalidated.status, .notModified)

            let retina = try await client.execute(uri: "/styles/dark/\(z)/\(x)/\(y)@2x.png", method: .get)
            XCTAssertEqual(retina.status, .ok)
            let dark = try RenderImage(png: Array(buffer: retina.body))
            XCTAssertEqual(dark.width, 512)
            XCTAssertEqual(dark.height, 512)
            if let folder = ProcessInfo.processInfo.environment["OPENMAPKIT_TEST_OUTPUT"] {
                try Data(png).write(to: URL(fileURLWithPath: folder).appendingPathComponent("server-standard-tile.png"))
                try Data(buffer: retina.body).write(to: URL(fileURLWithPath: folder).appendingPathComponent("server-dark-tile@2x.png"))
            }
        }
        // With two workers on the pool, each render's bands get the other cores' share.
        let state = TileRouteState(server: server)
        XCTAssertEqual(state.renderers.threadsPerRender, max(1, ProcessInfo.processInfo.activeProcessorCount / 2))
    }

    func testWarmRenderersAreReusedAndRetired() throws {
        let source = try RegionRegistry(bundleURLs: [try SampleBundle.monaco()]).snapshot.combined
        let warm = WarmRenderers(threadsPerRender: 1, idlePerStyle: 2, maximumUses: 3)
        let key = WarmRenderers.Key(style: "standard", region: "", generation: 1)
        var made = 0
        func make() throws -> TileRenderer { made += 1; return try RasterTileRoutes.makeRenderer(style: .standard, source: source) }
        var seen: [TileRenderer] = [] // held, so no address is reused by a later renderer
        for _ in 0..<4 {
            try warm.withRenderer(key, make: make) { seen.append($0) }
        }
        // Three uses of the first, then a fresh one.
        XCTAssertEqual(made, 2)
        XCTAssertTrue(seen[1] === seen[0] && seen[2] === seen[0])
        XCTAssertFalse(seen[3] === seen[0])
        // A newer region generation drops the renderers of the old one.
        try warm.withRenderer(WarmRenderers.Key(style: "standard", region: "", generation: 2), make: make) { _ in }
        XCTAssertEqual(warm.idleCount, 1)
        try warm.withRenderer(key, make: make) { _ in }
        XCTAssertEqual(warm.idleCount, 1, "a renderer of an old generation is not kept")
    }

    /// Hostile paths on every family of tile, style, sprite and font URLs: a 4xx JSON error each,
    /// never a 500, never a file.
    func testHostilePathsAreClientErrors() async throws {
        let server = try TestServer.make()
        let long = String(repeating: "a", count: 2000)
        let uris = [
            "/styles/..%2F..%2Fetc%2Fpasswd.json", "/styles/%2e%2e.json", "/styles/standard%00.json", "/styles/\(long).json",
            "/styles/nope.json", "/styles/standard.xml", "/styles/%ZZ.json", "/styles/..",
            "/styles/../standard/0/0/0.png", "/styles/%2e%2e/0/0/0.png", "/styles/nope/0/0/0.png", "/styles/standard/0/0/0.jpg",
            "/styles/standard/0/0/0@9x.png", "/styles/standard/0/0/0@x.png", "/styles/standard/0/0/0@2.png",
            "/styles/standard/30/0/0.png", "/styles/standard/1/2/0.png", "/styles/standard/-1/0/0.png", "/styles/hybrid/0/0/0.png",
            "/sprites/..%2Fdefault.json", "/sprites/default.json%00", "/sprites/%2e%2e%2fsecret.png", "/sprites/\(long).png",
            "/sprites/default.svg", "/sprites/default",
            "/fonts/..%2F..%2Fetc/0-255.pbf", "/fonts/Noto%20Sans%00/0-255.pbf", "/fonts/%2e%2e/0-255.pbf", "/fonts/\(long)/0-255.pbf",
            "/fonts/Noto%20Sans/0-255", "/fonts/Noto%20Sans/0-255.pbf%00", "/fonts/%2C%2C/0-255.pbf",
            "/tiles/..%2F0/0/0.mvt", "/tiles/0/0/%2e%2e.mvt", "/tiles/0/0/0.mvt%00", "/tiles/0/0/\(long).mvt",
            "/tiles.json?region=..%2Fmonaco", "/styles/standard.json?region=%00",
        ]
        try await TestServer.withClient(server) { client in
            for uri in uris {
                let response = try await client.execute(uri: uri, method: .get)
                XCTAssertTrue((400..<500).contains(response.status.code), "\(uri.prefix(80)): \(response.status)")
                XCTAssertNotNil(response.errorMessage, "\(uri.prefix(80)): \(response.text.prefix(100))")
            }
        }
    }

    /// How many different colours an image has (drawn onto a canvas to read its pixels).
    static func distinctColours(_ image: RenderImage) throws -> Int {
        let canvas = try RenderCanvas(width: Double(image.width), height: Double(image.height))
        canvas.draw(image, x: 0, y: 0, size: Double(image.width), angle: 0, opacity: 1, smooth: false)
        var colours = Set<UInt32>()
        for y in stride(from: 0, to: canvas.pixelHeight, by: 2) {
            for x in stride(from: 0, to: canvas.pixelWidth, by: 2) {
                let p = canvas.pixel(x: x, y: y)
                colours.insert(UInt32(p.red) << 16 | UInt32(p.green) << 8 | UInt32(p.blue))
            }
        }
        return colours.count
    }
}
