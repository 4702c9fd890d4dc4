import Foundation
import MapRender
import MapServer
import MapStyle
@testable import OpenMapKit
import TestSupport
import XCTest

/// OpenMapKit's tile client against real servers on loopback: `openmapkit serve`'s own server
/// (the Monaco sample bundle's raster and vector tiles, its TileJSON and styles) and a
/// Hummingbird origin whose caching headers and failures the tests choose (``TileOrigin``).
/// They live with the server tests because that is where the server is.
final class TileFetchingTests: XCTestCase {
    private var folders: [URL] = []

    override func tearDown() {
        for folder in folders { try? FileManager.default.removeItem(at: folder) }
        folders = []
        super.tearDown()
    }

    private func temporaryFolder(_ name: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        folders.append(folder)
        return folder
    }

    private func fetcher(maximumConcurrentRequests: Int = 6, requestTimeout: TimeInterval = 10, maximumBodySize: Int = 1 << 20,
                         cacheSize: Int = 64 << 20) throws -> TileFetcher {
        var configuration = TileFetcher.Configuration()
        configuration.maximumConcurrentRequests = maximumConcurrentRequests
        configuration.requestTimeout = requestTimeout
        configuration.maximumBodySize = maximumBodySize
        configuration.cacheDirectory = try temporaryFolder("tile-cache")
        configuration.maximumCacheSize = cacheSize
        return TileFetcher(configuration: configuration)
    }

    private static func png(red: Double, green: Double, blue: Double) throws -> [UInt8] {
        let canvas = try RenderCanvas(width: 256, height: 256)
        canvas.fill(RenderColor(red: red, green: green, blue: blue))
        return try canvas.pngData()
    }

    private static let monaco = CLLocationCoordinate2D(latitude: 43.7384, longitude: 7.4246)

    private static func snapshotOptions(zoom: Double, size: CGSize = CGSize(width: 256, height: 256)) -> MKMapSnapshotter.Options {
        let options = MKMapSnapshotter.Options()
        options.size = size
        options.camera = MapViewport(size: size, centerCoordinate: Self.monaco, zoomLevel: zoom).camera
        // Pixels are compared across sources whose credits differ (a TileJSON's attribution).
        options.showsAttribution = false
        return options
    }

    // MARK: - MKTileOverlay over `openmapkit serve`

    /// Records the tiles asked for.
    final class RecordingOverlay: MKTileOverlay, @unchecked Sendable {
        let lock = NSLock()
        var paths: [MKTileOverlayPath] = []
        override func loadTile(at path: MKTileOverlayPath, result: @escaping (Data?, (any Error)?) -> Void) {
            lock.withLock { paths.append(path) }
            super.loadTile(at: path, result: result)
        }
    }

    func testHTTPTileOverlayDrawsTheServedTilesLikeTheSameTilesFromFiles() async throws {
        let server = try TestServer.make { $0.answersCachedTilesBeforeRouter = false; $0.port = 0 }
        let fetcher = try fetcher()
        let folder = try temporaryFolder("served-tiles")
        try await TestServer.withRunningServer(server) { port in
            let remote = RecordingOverlay(urlTemplate: "http://127.0.0.1:\(port)/styles/standard/{z}/{x}/{y}.png")
            remote.fetcher = fetcher
            remote.canReplaceMapContent = true
            let options = Self.snapshotOptions(zoom: 15)
            let renderer = options.addOverlay(remote)
            let fromServer = try SnapshotEngine.render(options: options, dataSource: nil)
            XCTAssertEqual((renderer as? MKTileOverlayRenderer)?.warnings, [])
            let paths = remote.lock.withLock { remote.paths }
            XCTAssertGreaterThanOrEqual(paths.count, 4, "a 256-point view at zoom 15 crosses several tiles")
            // The same tiles, kept as files, drawn from files.
            for path in paths {
                let data = try XCTUnwrap(fetcher.cachedData(for: remote.url(forTilePath: path)), "tile \(path) cached")
                let file = folder.appendingPathComponent("\(path.z)/\(path.x)/\(path.y).png")
                try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try data.write(to: file)
            }
            let local = MKTileOverlay(urlTemplate: folder.path)
            local.canReplaceMapContent = true
            let fileOptions = Self.snapshotOptions(zoom: 15)
            fileOptions.addOverlay(local)
            let fromFiles = try SnapshotEngine.render(options: fileOptions, dataSource: nil)
            XCTAssertEqual(fromServer.image.pngData(), fromFiles.image.pngData(), "the served tiles are drawn as the same tiles from files")
            // Not a blank picture: the map has more than a few colours.
            var colours = Set<String>()
            for y in stride(from: 0, to: 256, by: 8) {
                for x in stride(from: 0, to: 256, by: 8) { colours.insert("\(String(describing: fromServer.image.pixelColor(x: x, y: y)))") }
            }
            XCTAssertGreaterThan(colours.count, 5)
        }
    }

    final class TileMapDelegate: MKMapViewDelegate {
        var fullyRendered: [Bool] = []
        func mapView(_ mapView: MKMapView, rendererFor overlay: any MKOverlay) -> MKOverlayRenderer {
            MKTileOverlayRenderer(tileOverlay: overlay as! MKTileOverlay)
        }
        func mapViewDidFinishRenderingMap(_ mapView: MKMapView, fullyRendered: Bool) { self.fullyRendered.append(fullyRendered) }
    }

    func testAMapViewFrameDrawsWhatItHasAndALaterFrameTheFetchedTiles() async throws {
        let origin = TileOrigin(tile: try Self.png(red: 0.2, green: 0.4, blue: 0.9))
        let fetcher = try fetcher()
        try await origin.serve { port in
            let delegate = TileMapDelegate()
            let map = MKMapView(frame: CGRect(x: 0, y: 0, width: 256, height: 256))
            map.delegate = delegate
            map.camera = MapViewport(size: CGSize(width: 256, height: 256), centerCoordinate: Self.monaco, zoomLevel: 12).camera
            let overlay = MKTileOverlay(urlTemplate: "http://127.0.0.1:\(port)/slow/{z}/{x}/{y}.png")
            overlay.fetcher = fetcher
            overlay.canReplaceMapContent = true
            map.addOverlay(overlay)
            let started = Date()
            let first = try map.render()
            XCTAssertLessThan(Date().timeIntervalSince(started), 0.3, "the frame did not wait for the 300 ms tiles")
            XCTAssertEqual(delegate.fullyRendered, [false])
            let blue = UIColor(red: 0.2, green: 0.4, blue: 0.9, alpha: 1)
            func isBlue(_ image: UIImage) -> Bool {
                guard let c = image.pixelColor(x: 128, y: 128) else { return false }
                return abs(c.red - blue.red) < 0.02 && abs(c.green - blue.green) < 0.02 && abs(c.blue - blue.blue) < 0.02
            }
            XCTAssertFalse(isBlue(first), "no tile yet")
            var later = first
            for _ in 0..<50 where delegate.fullyRendered.last != true {
                try await Task.sleep(nanoseconds: 100_000_000)
                // A window draws again when new tiles have come.
                if map.hasNewlyLoadedTiles { later = try map.render() }
            }
            XCTAssertFalse(map.hasNewlyLoadedTiles, "the last frame drew them")
            XCTAssertEqual(delegate.fullyRendered.last, true)
            XCTAssertTrue(isBlue(later), "a later frame draws the fetched tiles")
            XCTAssertEqual(origin.snapshot.total, Set(origin.snapshot.requests.keys).count, "each tile asked for once, not once a frame")
        }
    }

    func testASnapshotWaitsForItsTilesAtMostItsTimeoutAndNamesTheMissingOnes() async throws {
        let origin = TileOrigin(tile: try Self.png(red: 1, green: 0, blue: 0))
        let fetcher = try fetcher()
        try await origin.serve { port in
            let overlay = MKTileOverlay(urlTemplate: "http://127.0.0.1:\(port)/slow/{z}/{x}/{y}.png")
            overlay.fetcher = fetcher
            overlay.canReplaceMapContent = true
            let options = Self.snapshotOptions(zoom: 12)
            let renderer = try XCTUnwrap(options.addOverlay(overlay) as? MKTileOverlayRenderer)
            let started = Date()
            let early = try SnapshotEngine.render(options: options, dataSource: nil, tileWait: 0.1)
            XCTAssertLessThan(Date().timeIntervalSince(started), 0.29)
            XCTAssertFalse(renderer.warnings.isEmpty)
            XCTAssertTrue(renderer.warnings.allSatisfy { $0.contains("not loaded within") }, "\(renderer.warnings)")
            XCTAssertNotEqual(early.image.pixelColor(x: 128, y: 128)?.red, 1)
            // The default wait lets them come.
            let fresh = MKTileOverlay(urlTemplate: "http://127.0.0.1:\(port)/slow/{z}/{x}/{y}.png?again")
            fresh.fetcher = fetcher
            fresh.canReplaceMapContent = true
            let waiting = Self.snapshotOptions(zoom: 12)
            let waited = try XCTUnwrap(waiting.addOverlay(fresh) as? MKTileOverlayRenderer)
            let whole = try SnapshotEngine.render(options: waiting, dataSource: nil)
            XCTAssertEqual(waited.warnings, [])
            XCTAssertEqual(whole.image.pixelColor(x: 128, y: 128)?.red, 1)
        }
    }

    func testHybridMapsDrawRemoteImagery() async throws {
        let origin = TileOrigin(tile: try Self.png(red: 0.1, green: 0.6, blue: 0.2))
        let fetcher = try fetcher()
        try await origin.serve { port in
            let imagery = MKTileOverlay(urlTemplate: "http://127.0.0.1:\(port)/fresh/{z}/{x}/{y}.png")
            imagery.fetcher = fetcher
            let dataSource = try MapDataSource(bundleURL: try SampleBundle.monaco(), imagery: imagery)
            let options = Self.snapshotOptions(zoom: 15)
            options.mapType = .hybrid
            let shot = try SnapshotEngine.render(options: options, dataSource: dataSource)
            var green = 0, all = 0
            for y in stride(from: 0, to: 256, by: 4) {
                for x in stride(from: 0, to: 256, by: 4) {
                    all += 1
                    if let c = shot.image.pixelColor(x: x, y: y), abs(c.red - 0.1) < 0.02, abs(c.green - 0.6) < 0.02, abs(c.blue - 0.2) < 0.02 { green += 1 }
                }
            }
            XCTAssertGreaterThan(Double(green) / Double(all), 0.3, "the imagery shows between the roads")
            XCTAssertGreaterThan(origin.snapshot.total, 0)
        }
    }

    func testAStyleServedByOpenmapkitServeIsDrawnWithItsRemoteTiles() async throws {
        let server = try TestServer.make { $0.answersCachedTilesBeforeRouter = false; $0.port = 0 }
        let dataSource = try MapDataSource(bundleURL: try SampleBundle.monaco())
        try await TestServer.withRunningServer(server) { port in
            // The served style's vector source is a TileJSON URL (/tiles.json) naming /tiles/{z}/{x}/{y}.mvt.
            let remote = MGLMapView(frame: CGRect(x: 0, y: 0, width: 256, height: 256),
                                    styleURL: URL(string: "http://127.0.0.1:\(port)/styles/standard.json")!, clock: MKManualMapViewClock())
            remote.dataSource = dataSource
            remote.setCenter(Self.monaco, zoomLevel: 15, animated: false)
            let image = try remote.render()
            var colours = Set<String>()
            for y in stride(from: 0, to: 256, by: 8) {
                for x in stride(from: 0, to: 256, by: 8) { colours.insert(String(describing: image.pixelColor(x: x, y: y))) }
            }
            XCTAssertGreaterThan(colours.count, 10, "the map is drawn, not only its background")
        }
    }

    // MARK: - The cache

    func testFreshTilesComeFromTheCacheWithoutARequest() async throws {
        let origin = TileOrigin(tile: try Self.png(red: 0.2, green: 0.4, blue: 0.9))
        let fetcher = try fetcher()
        try await origin.serve { port in
            let url = URL(string: "http://127.0.0.1:\(port)/fresh/3/4/2.png")!
            let first = try fetcher.data(for: url, timeout: 10).get()
            XCTAssertEqual([UInt8](first), origin.tile)
            let second = try fetcher.data(for: url, timeout: 10).get()
            XCTAssertEqual(second, first)
            XCTAssertEqual(origin.requests("/fresh/3/4/2.png"), 1, "the second fetch came from the cache")
            // Another fetcher over the same folder (a later run of the program) finds it too.
            let later = TileFetcher(configuration: fetcher.configuration)
            XCTAssertEqual(try later.data(for: url, timeout: 10).get(), first)
            XCTAssertEqual(origin.requests("/fresh/3/4/2.png"), 1)
            // no-store is never kept.
            let uncached = URL(string: "http://127.0.0.1:\(port)/nostore/3/4/2.png")!
            _ = try fetcher.data(for: uncached, timeout: 10).get()
            _ = try fetcher.data(for: uncached, timeout: 10).get()
            XCTAssertEqual(origin.requests("/nostore/3/4/2.png"), 2)
        }
    }

    func testStaleTilesAreRevalidatedAndA304KeepsTheCachedBody() async throws {
        let origin = TileOrigin(tile: try Self.png(red: 0.9, green: 0.4, blue: 0.1))
        let fetcher = try fetcher()
        try await origin.serve { port in
            let url = URL(string: "http://127.0.0.1:\(port)/expiring/5/1/1.png")!
            _ = try fetcher.data(for: url, timeout: 10).get()
            _ = try fetcher.data(for: url, timeout: 10).get()
            XCTAssertEqual(origin.requests("/expiring/5/1/1.png"), 1, "fresh for a second")
            try await Task.sleep(nanoseconds: 1_300_000_000)
            XCTAssertNil(fetcher.cachedData(for: url), "expired after max-age")
            XCTAssertNotNil(fetcher.cachedData(for: url, acceptingStale: true), "but still kept for revalidation")
            let revalidated = try fetcher.data(for: url, timeout: 10).get()
            XCTAssertEqual([UInt8](revalidated), origin.tile)
            XCTAssertEqual(origin.requests("/expiring/5/1/1.png"), 2)
            XCTAssertEqual(origin.snapshot.conditional, 1, "If-None-Match sent")
            XCTAssertEqual(origin.snapshot.notModified, 1)
            _ = try fetcher.data(for: url, timeout: 10).get()
            XCTAssertEqual(origin.requests("/expiring/5/1/1.png"), 2, "the 304 made it fresh again")

            // Expires in the past: stale at once, revalidated with If-Modified-Since every time.
            let dated = URL(string: "http://127.0.0.1:\(port)/lastmod/5/1/1.png")!
            _ = try fetcher.data(for: dated, timeout: 10).get()
            XCTAssertNil(fetcher.cachedData(for: dated))
            XCTAssertEqual([UInt8](try fetcher.data(for: dated, timeout: 10).get()), origin.tile)
            XCTAssertEqual(origin.requests("/lastmod/5/1/1.png"), 2)
            XCTAssertEqual(origin.snapshot.notModified, 2)
        }
    }

    func testCorruptPartialAndForeignCacheFilesAreIgnored() async throws {
        let origin = TileOrigin(tile: try Self.png(red: 0.1, green: 0.8, blue: 0.3))
        let fetcher = try fetcher()
        let cache = try XCTUnwrap(fetcher.cache)
        try await origin.serve { port in
            let url = URL(string: "http://127.0.0.1:\(port)/fresh/2/1/1.png")!
            _ = try fetcher.data(for: url, timeout: 10).get()
            let file = cache.file(for: url.absoluteString)
            let whole = try Data(contentsOf: file)
            var expected = 1
            for damaged in [whole.prefix(whole.count - 10), whole.prefix(20), Data("garbage".utf8), Data(),
                            { var d = whole; d[d.count - 1] ^= 0xFF; return d }()] {
                try damaged.write(to: file)
                XCTAssertNil(fetcher.cachedData(for: url, acceptingStale: true), "a damaged entry is no entry")
                XCTAssertEqual([UInt8](try fetcher.data(for: url, timeout: 10).get()), origin.tile)
                expected += 1
                XCTAssertEqual(origin.requests("/fresh/2/1/1.png"), expected, "fetched again")
            }
            // An entry written for another URL under this URL's name is not this URL's.
            let other = URL(string: "http://127.0.0.1:\(port)/fresh/2/0/0.png")!
            _ = try fetcher.data(for: other, timeout: 10).get()
            try FileManager.default.copyItem(at: cache.file(for: other.absoluteString), to: file.appendingPathExtension("x"))
            try FileManager.default.removeItem(at: file)
            try FileManager.default.moveItem(at: file.appendingPathExtension("x"), to: file)
            XCTAssertNil(fetcher.cachedData(for: url, acceptingStale: true))
            // A temporary file left by an interrupted write is never read as an entry.
            try Data("half a tile".utf8).write(to: cache.directory.appendingPathComponent(".tmp-interrupted"))
            XCTAssertEqual([UInt8](try fetcher.data(for: url, timeout: 10).get()), origin.tile)
            XCTAssertNotNil(fetcher.cachedData(for: url))
        }
    }

    func testTheCacheKeepsToItsCapEvictingTheLeastRecentlyUsed() async throws {
        let tile = try Self.png(red: 0.5, green: 0.5, blue: 0.5)
        let origin = TileOrigin(tile: tile)
        // Room for about three entries.
        let fetcher = try fetcher(cacheSize: (tile.count + 400) * 3)
        try await origin.serve { port in
            func url(_ n: Int) -> URL { URL(string: "http://127.0.0.1:\(port)/fresh/4/\(n)/0.png")! }
            for n in 0..<3 {
                _ = try fetcher.data(for: url(n), timeout: 10).get()
                try await Task.sleep(nanoseconds: 20_000_000)
            }
            // Using the first makes the second the least recently used.
            XCTAssertNotNil(fetcher.cachedData(for: url(0)))
            try await Task.sleep(nanoseconds: 20_000_000)
            _ = try fetcher.data(for: url(3), timeout: 10).get()
            XCTAssertNotNil(fetcher.cachedData(for: url(0)), "recently used: kept")
            XCTAssertNil(fetcher.cachedData(for: url(1)), "least recently used: evicted")
            XCTAssertNotNil(fetcher.cachedData(for: url(3)))
            let files = try FileManager.default.contentsOfDirectory(atPath: fetcher.cache!.directory.path)
            XCTAssertLessThanOrEqual(files.count, 3)
        }
    }

    // MARK: - Errors and limits

    func testFailuresAreTypedErrors() async throws {
        let origin = TileOrigin(tile: try Self.png(red: 0, green: 0, blue: 0))
        let fetcher = try fetcher(requestTimeout: 0.1, maximumBodySize: 32 << 10)
        let dropping = try DroppingListener()
        defer { dropping.stop() }
        try await origin.serve { port in
            let missing = "http://127.0.0.1:\(port)/missing/1/0/0.png"
            XCTAssertEqual(fetcher.data(for: URL(string: missing)!, timeout: 10).failure, .httpStatus(url: missing, status: 404))
            let slow = "http://127.0.0.1:\(port)/slow/1/0/0.png"
            XCTAssertEqual(fetcher.data(for: URL(string: slow)!, timeout: 10).failure, .timedOut(url: slow, seconds: 0.1))
            let large = "http://127.0.0.1:\(port)/large/1/0/0.png"
            XCTAssertEqual(fetcher.data(for: URL(string: large)!, timeout: 10).failure, .bodyTooLarge(url: large, limit: 32 << 10))
            let dropped = "http://127.0.0.1:\(dropping.port)/1/0/0.png"
            guard case .transport(let url, _)? = fetcher.data(for: URL(string: dropped)!, timeout: 10).failure else {
                return XCTFail("a dropped connection is a transport error")
            }
            XCTAssertEqual(url, dropped)
            XCTAssertEqual(fetcher.data(for: URL(string: "ftp://127.0.0.1/x.png")!, timeout: 10).failure, .badURL("ftp://127.0.0.1/x.png"))
            XCTAssertEqual(origin.snapshot.total, 3, "nothing was retried behind the caller's back")

            // MKTileOverlay hands the error to loadTile's result, and its renderer names the tile.
            let overlay = MKTileOverlay(urlTemplate: "http://127.0.0.1:\(port)/missing/{z}/{x}/{y}.png")
            overlay.fetcher = fetcher
            overlay.canReplaceMapContent = true
            let result = overlay.tileResult(at: MKTileOverlayPath(x: 0, y: 0, z: 1, contentScaleFactor: 1), timeout: 10)
            guard case .failure(let error) = result else { return XCTFail("a 404 is an error") }
            XCTAssertEqual(error as? TileFetchError, .httpStatus(url: "http://127.0.0.1:\(port)/missing/1/0/0.png", status: 404))
            let options = Self.snapshotOptions(zoom: 3)
            let renderer = try XCTUnwrap(options.addOverlay(overlay) as? MKTileOverlayRenderer)
            _ = try SnapshotEngine.render(options: options, dataSource: nil)
            XCTAssertFalse(renderer.warnings.isEmpty)
            XCTAssertTrue(renderer.warnings.allSatisfy { $0.contains("HTTP 404") }, "\(renderer.warnings)")
        }
    }

    func testConcurrencyIsBoundedAndRequestsForOneTileAreMerged() async throws {
        let origin = TileOrigin(tile: try Self.png(red: 1, green: 1, blue: 0))
        let fetcher = try fetcher(maximumConcurrentRequests: 3)
        try await origin.serve { port in
            let urls = (0..<12).map { URL(string: "http://127.0.0.1:\(port)/slow/6/\($0)/0.png")! }
            let results = fetcher.data(for: urls + urls, timeout: 30)
            XCTAssertEqual(results.count, 12)
            XCTAssertTrue(results.values.allSatisfy { (try? $0.get()).map([UInt8].init) == origin.tile })
            let counts = origin.snapshot
            XCTAssertEqual(counts.total, 12, "one request per tile, though each was asked for twice")
            XCTAssertLessThanOrEqual(counts.maximumInFlight, 3, "never more than the bound in flight")
            XCTAssertGreaterThanOrEqual(counts.maximumInFlight, 2, "but requests do overlap")
        }
    }

    // MARK: - TileJSON and remote style tiles

    /// A style drawing the buildings red over white from the vector source `remote`.
    private static func buildingsStyle(source: String) -> String {
        """
        {"version": 8, "sources": {"remote": \(source)},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                    {"id": "buildings", "type": "fill", "source": "remote", "source-layer": "building",
                     "paint": {"fill-color": "#ff0000"}}]}
        """
    }

    private static func redShare(_ image: UIImage) -> Double {
        var red = 0, all = 0
        for y in stride(from: 0, to: image.pixelSize.height, by: 4) {
            for x in stride(from: 0, to: image.pixelSize.width, by: 4) {
                all += 1
                guard let c = image.pixelColor(x: x, y: y) else { continue }
                if c.red > 0.9, c.green < 0.1, c.blue < 0.1 { red += 1 }
            }
        }
        return Double(red) / Double(all)
    }

    func testTileJSONFromAFileAndOverHTTPDrawsTheServedTilesAsTheBundleDoes() async throws {
        let server = try TestServer.make { $0.answersCachedTilesBeforeRouter = false; $0.port = 0 }
        let folder = try temporaryFolder("tilejson-style")
        let dataSource = try MapDataSource(bundleURL: try SampleBundle.monaco())
        try await TestServer.withRunningServer(server) { port in
            func draw(_ source: String, _ name: String) throws -> MKMapSnapshotter.Snapshot {
                let style = folder.appendingPathComponent("\(name).json")
                try Data(Self.buildingsStyle(source: source).utf8).write(to: style)
                let options = Self.snapshotOptions(zoom: 16)
                options.styleURL = style
                return try SnapshotEngine.render(options: options, dataSource: dataSource)
            }
            // The reference: the same tiles read from the bundle.
            let bundle = try draw(#"{"type": "vector", "tiles": ["bundle://{z}/{x}/{y}"], "maxzoom": 14}"#, "bundle")
            XCTAssertGreaterThan(Self.redShare(bundle.image), 0.05, "Monaco has buildings")
            // TileJSON over HTTP: `openmapkit serve`'s /tiles.json names its /tiles/{z}/{x}/{y}.mvt.
            let http = try draw(#"{"type": "vector", "url": "http://127.0.0.1:\#(port)/tiles.json"}"#, "http")
            XCTAssertEqual(http.image.pngData(), bundle.image.pngData())
            // TileJSON in a file beside the style, named by a relative path, with relative tiles resolved against it.
            try Data(#"{"tilejson": "3.0.0", "tiles": ["http://127.0.0.1:\#(port)/tiles/{z}/{x}/{y}.mvt"], "maxzoom": 14}"#.utf8)
                .write(to: folder.appendingPathComponent("tiles.json"))
            let file = try draw(#"{"type": "vector", "url": "tiles.json"}"#, "file")
            XCTAssertEqual(file.image.pngData(), bundle.image.pngData())
            let fileURL = try draw(#"{"type": "vector", "url": "\#(folder.appendingPathComponent("tiles.json").absoluteString)"}"#, "fileurl")
            XCTAssertEqual(fileURL.image.pngData(), bundle.image.pngData())
            // A TileJSON that cannot be read fails the snapshot with the reason.
            XCTAssertThrowsError(try draw(#"{"type": "vector", "url": "http://127.0.0.1:\#(port)/nope.json"}"#, "missing")) { error in
                XCTAssertTrue("\(error)".contains("HTTP 404"), "\(error)")
            }
            try Data("not json".utf8).write(to: folder.appendingPathComponent("bad.json"))
            XCTAssertThrowsError(try draw(#"{"type": "vector", "url": "bad.json"}"#, "bad")) { error in
                XCTAssertTrue("\(error)".contains("not TileJSON"), "\(error)")
            }
        }
    }

    func testTileJSONMembersFillTheSourceUnlessTheStyleGivesThem() throws {
        let document = #"{"tiles": ["t/{z}/{x}/{y}.mvt"], "minzoom": 2, "maxzoom": 12, "bounds": [7, 43, 8, 44], "scheme": "tms", "attribution": "© X", "vector_layers": []}"#
        let tileJSON = try TileJSON(bytes: Array(document.utf8), url: URL(string: "http://h:1/data/tiles.json"))
        XCTAssertEqual(tileJSON.tiles, ["http://h:1/data/t/{z}/{x}/{y}.mvt"])
        var source = try XCTUnwrap(StyleSource(JSONObject([("type", .string("vector")), ("url", .string("x")), ("maxzoom", .number(14))])))
        XCTAssertTrue(source.needsTileJSON)
        source.apply(tileJSON)
        XCTAssertFalse(source.needsTileJSON)
        XCTAssertEqual(source.minzoom, 2)
        XCTAssertEqual(source.maxzoom, 14, "the style's own maxzoom wins")
        XCTAssertEqual(source.scheme, "tms")
        XCTAssertEqual(source.bounds, [7, 43, 8, 44])
        XCTAssertEqual(source.attribution, "© X")
        XCTAssertThrowsError(try TileJSON(bytes: Array(#"{"tiles": []}"#.utf8), url: nil))
        XCTAssertThrowsError(try TileJSON(bytes: Array("[1]".utf8), url: nil))
    }

    func testMGLVectorTileSourceWithAConfigurationURLDrawsTheServedTiles() async throws {
        let server = try TestServer.make { $0.answersCachedTilesBeforeRouter = false; $0.port = 0 }
        let folder = try temporaryFolder("mapbox-style")
        let style = folder.appendingPathComponent("style.json")
        try Data(##"{"version": 8, "sources": {}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}}]}"##.utf8)
            .write(to: style)
        let dataSource = try MapDataSource(bundleURL: try SampleBundle.monaco())
        try await TestServer.withRunningServer(server) { port in
            let map = MGLMapView(frame: CGRect(x: 0, y: 0, width: 256, height: 256), styleURL: style, clock: MKManualMapViewClock())
            map.dataSource = dataSource
            map.finishLoadingStyle()
            map.setCenter(Self.monaco, zoomLevel: 15, animated: false)
            let mapStyle = try XCTUnwrap(map.style)
            let source = MGLVectorTileSource(identifier: "remote", configurationURL: URL(string: "http://127.0.0.1:\(port)/tiles.json")!)
            mapStyle.addSource(source)
            let layer = MGLFillStyleLayer(identifier: "buildings", source: source)
            layer.sourceLayerIdentifier = "building"
            layer.fillColor = NSExpression(forConstantValue: UIColor(red: 1, green: 0, blue: 0, alpha: 1))
            mapStyle.addLayer(layer)
            let image = try map.render()
            XCTAssertGreaterThan(Self.redShare(image), 0.05, "the buildings of the served tiles are drawn")
        }
    }
}

private extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
