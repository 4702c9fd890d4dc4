import ArgumentParser
import Foundation
import MapBundle
import MapServer
import MapUpdate
import OpenMapKit

/// `openmapkit serve`: the HTTP server with the web map, tiles, snapshots and the Maps Server API.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve bundles over HTTP: the web map at /, tiles, styles, snapshots and the /v1 Maps Server API.",
        discussion: """
            Each bundle serves as a region named after its folder (monaco.omk → monaco); a folder of \
            bundles serves every bundle in it, as found at start. Requests see \
            all regions at once unless they pass region=NAME. A bundle whose manifest changes (an \
            `openmapkit update` or `openmapkit import` beside the server) is re-opened within a few \
            seconds, and SIGHUP re-opens the bundles at once; SIGTERM and SIGINT finish the requests in flight and stop. \
            With --update-from, the bundle follows a replication feed while it serves: each update \
            lands whole, then the server re-opens the bundle (requests in flight finish on the old \
            data) and drops its cached answers; tiles keep their entity tags unless they changed.
            """)

    /// How often the server looks at its bundles' manifests for a change made beside it.
    static let manifestCheckInterval = Duration.seconds(2)

    @Argument(help: "Bundle folders made by `openmapkit import`, or folders of bundles (default: $OPENMAPKIT_BUNDLE).")
    var bundles: [String] = []

    @Option(help: "A bundle folder, as every verb takes it (repeatable; adds to the arguments).")
    var bundle: [String] = []

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on.")
    var port = 8080

    @Option(help: "Origins allowed to call the server from browsers on other sites (repeatable; * for any).")
    var corsOrigin: [String] = []

    @Option(help: "An API key the server requires, KEY or KEY:REQUESTS_PER_MINUTE (repeatable; none: the API is open).")
    var apiKey: [String] = []

    @Option(help: ArgumentHelp("A JSON file of Maps keys teams registered: [{teamId, keyId, publicKey, origins?, requestsPerMinute?}]; clients then sign JWTs and snapshot URLs as with Apple.",
                               valueName: "FILE"))
    var mapsKeys: String?

    @Option(help: "Concurrent renders (default: the number of cores).")
    var renderWorkers: Int?

    @Option(help: "Renders that may wait for a worker before the server answers 503.")
    var renderQueue = 64

    @Option(help: "Memory for cached rendered images, in megabytes.")
    var cacheMegabytes = 256

    @Option(help: "The request log: text, json or none.")
    var log = "text"

    @Option(help: "Keep the bundle current from a replication feed while serving: its URL or a folder with the same layout (one bundle only).")
    var updateFrom: String?

    @Option(help: "With --update-from: how often to check the feed (e.g. 30s, 5m, 1h).")
    var updateEvery = "60s"

    @Flag(help: "Answer cached tiles through the router like every other request, not from the event loop in front of it (slower; for measuring what the early answer saves).")
    var cachedTilesThroughRouter = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 (any free port) and 65535") }
        guard renderQueue >= 0, cacheMegabytes >= 0 else { throw ValidationError("--render-queue and --cache-megabytes must not be negative") }
        if let renderWorkers, !(1...256).contains(renderWorkers) { throw ValidationError("--render-workers must be between 1 and 256") }
        guard RequestLogFormat(rawValue: log) != nil else { throw ValidationError("--log must be text, json or none") }
        _ = try keys()
        guard UpdateCommand.duration(updateEvery) != nil else { throw ValidationError("--update-every takes a duration such as 30s, 5m or 1h.") }
    }

    private func keys() throws -> [APIKey] {
        try apiKey.map { text in
            let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
            guard let key = parts.first, !key.isEmpty else { throw ValidationError("--api-key must not be empty") }
            guard parts.count == 2 else { return APIKey(key: key) }
            guard let limit = Int(parts[1]), limit > 0 else { throw ValidationError("--api-key \(key): the rate limit must be a positive number of requests per minute") }
            return APIKey(key: key, requestsPerMinute: limit)
        }
    }

    func run() throws {
        // Folders, several separated by ':', or folders of bundles; else $OPENMAPKIT_BUNDLE.
        let urls: [URL]
        do { urls = try BundleLocation.urls(bundles + bundle) } catch { throw CommandFailure(error.message) }
        guard !urls.isEmpty else {
            throw ValidationError("name a bundle folder (made by `openmapkit import`) or set \(MapDataSource.environmentVariable)")
        }
        let regions: RegionRegistry
        do {
            regions = try RegionRegistry(bundleURLs: urls)
        } catch {
            throw CommandFailure((error as? MKError)?.reason ?? "\(error)")
        }
        var configuration = ServerConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.corsAllowedOrigins = corsOrigin
        configuration.apiKeys = try keys()
        if let mapsKeys {
            do { configuration.mapsKeys = try MapsKey.load(from: URL(fileURLWithPath: mapsKeys)) } catch { throw ValidationError("--maps-keys: \(error)") }
        }
        if let renderWorkers { configuration.renderWorkers = renderWorkers }
        configuration.renderQueueLimit = renderQueue
        configuration.cacheBytes = cacheMegabytes << 20
        configuration.requestLog = RequestLogFormat(rawValue: log) ?? .text
        configuration.answersCachedTilesBeforeRouter = !cachedTilesThroughRouter
        let server = MapServer(configuration: configuration, regions: regions)
        let reload = ReloadOnHangup(regions: regions, cache: server.cache)
        var follower: ReplicationFollower?
        if let updateFrom {
            guard urls.count == 1 else { throw ValidationError("--update-from keeps one bundle current: serve one bundle with it") }
            follower = ReplicationFollower(bundle: urls[0], source: UpdateCommand.replicationSource(updateFrom))
            guard (try? MapBundle(url: urls[0]).manifest.updates?.sequence) != nil else {
                throw CommandFailure("\(urls[0].path) records no replication sequence to follow the feed from: "
                                     + "bring it to one with `openmapkit update \(urls[0].path) --replication \(updateFrom) --from-sequence N` first")
            }
        }
        let interval = UpdateCommand.duration(updateEvery) ?? .seconds(60)
        let feedFollower = follower
        let names = regions.snapshot.regions.map(\.name).joined(separator: ", ")
        let hostForURL = host.contains(":") ? "[\(host)]" : host
        let address = "http://\(hostForURL):\(port)/"
        try waitForAsync({
            // The feed is followed beside the server, and stopped with it.
            let following = feedFollower.map { follower in
                Task {
                    try await follower.follow(every: interval) { result in
                        switch result {
                        case .success(let report):
                            do {
                                try regions.reload()
                                server.cache.removeAll()
                                let sequence = report.state?.sequence.map { "sequence \($0)" } ?? "an update"
                                FileHandle.standardError.write(Data("Updated to \(sequence): \(report.tiles.tilesChanged) tiles changed; serving generation \(regions.snapshot.generation)\n".utf8))
                            } catch {
                                FileHandle.standardError.write(Data("Updated, but re-opening the bundle failed (still serving the previous data): \(error)\n".utf8))
                            }
                        case .failure(let error):
                            FileHandle.standardError.write(Data("Update failed, trying again in \(interval): \(error)\n".utf8))
                        }
                    }
                }
            }
            // A bundle changed beside the server (a scheduled `openmapkit update`, a new import) is
            // served whole once its manifest is in: until then its tiles may be newer than its search.
            let watching = Task {
                var lastFailure: String?
                while !Task.isCancelled {
                    try? await Task.sleep(for: Self.manifestCheckInterval)
                    do {
                        guard try regions.reloadIfChanged() else { continue }
                        server.cache.removeAll()
                        lastFailure = nil
                        FileHandle.standardError.write(Data("A bundle changed: re-opened (generation \(regions.snapshot.generation))\n".utf8))
                    } catch {
                        let failure = "\(error)"
                        if failure != lastFailure {
                            FileHandle.standardError.write(Data("A bundle changed, but re-opening it failed (still serving the previous data; trying again): \(failure)\n".utf8))
                        }
                        lastFailure = failure
                    }
                }
            }
            func stopFollowing() {
                watching.cancel()
                feedFollower?.cancellation.cancel()
                following?.cancel()
            }
            do {
                try await server.run(onServerRunning: { boundPort in
                    // With --port 0 the system picks the port: say which, for people and scripts alike.
                    FileHandle.standardError.write(Data("Serving \(names) at http://\(hostForURL):\(boundPort)/ (Ctrl-C to stop)\n".utf8))
                })
            } catch {
                stopFollowing()
                throw error
            }
            _ = reload
            // An update under way is cancelled (its transaction rolls back) and waited for.
            stopFollowing()
            _ = await following?.result
        }, failure: { error in ValidationError("cannot serve at \(address): \(error)") })
    }
}

/// Re-opens the bundles on SIGHUP, the usual signal for "your files changed"; a failed reload
/// leaves the regions that were serving in place and says why.
final class ReloadOnHangup: @unchecked Sendable {
    private let source: any DispatchSourceSignal

    init(regions: RegionRegistry, cache: ResponseCache) {
        signal(SIGHUP, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGHUP, queue: .global())
        source.setEventHandler {
            do {
                try regions.reload()
                cache.removeAll()
                FileHandle.standardError.write(Data("Reloaded the bundles (generation \(regions.snapshot.generation))\n".utf8))
            } catch {
                FileHandle.standardError.write(Data("Reload failed, still serving the previous bundles: \(error)\n".utf8))
            }
        }
        source.resume()
    }
}
