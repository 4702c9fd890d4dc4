// The HTTP client behind every remote tile and document OpenMapKit draws: MKTileOverlay's
// http(s) templates (and so the imagery of the .hybrid and .imagery maps), the http(s) tile
// templates and TileJSON documents a style names, and MGLStyle's http(s) style URLs.
//
// Why it lives in OpenMapKit and not in a module of its own: OpenMapKit is the only module that
// fetches. MapRender stays free of I/O (it asks a StyleResourceLoader for bytes, and OpenMapKit
// builds the loader that fetches), MapServer serves tiles rather than fetching them, and the
// command line draws through OpenMapKit. One owner, no second client: a module of its own would
// only add a layer that nothing else imports.
//
// Why callbacks on NIO's event loops rather than async/await: maps are drawn synchronously, a
// frame at a time, on the caller's thread, which then waits for the tiles it needs (with a
// deadline). Waiting on a semaphore for work that runs on Swift's cooperative pool can starve
// that pool when the waiting thread is one of its (two, on a two-core machine) threads; the
// client's futures complete on its own event loop threads, so a blocked drawing thread never
// holds up the fetch it waits for.

import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Why a remote tile, TileJSON document or style could not be fetched (an OpenMapKit addition).
///
/// ``MKTileOverlay/loadTile(at:result:)`` passes it to its result for `http(s)` templates, and
/// the map's renderer names the tiles it could not draw in its warnings; style documents that
/// cannot be fetched fail with an ``MKError`` whose reason includes it.
public enum TileFetchError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// The URL is not an `http(s)` URL with a host.
    case badURL(String)
    /// The connection could not be made or broke before the whole response arrived.
    case transport(url: String, reason: String)
    /// The server answered with a status other than 2xx (or 304 to a revalidation).
    case httpStatus(url: String, status: Int)
    /// No whole answer came within the time allowed, in seconds.
    case timedOut(url: String, seconds: Double)
    /// The body is longer than the fetcher accepts, in bytes (a tile is never that large; a
    /// server that sends more is refused rather than read into memory).
    case bodyTooLarge(url: String, limit: Int)

    /// The error in a sentence, with the URL it concerns.
    public var description: String {
        switch self {
        case .badURL(let url): return "\(url): not an http(s) URL"
        case .transport(let url, let reason): return "\(url): \(reason)"
        case .httpStatus(let url, let status): return "\(url): HTTP \(status)"
        case .timedOut(let url, let seconds): return "\(url): no answer within \(seconds.formatted()) s"
        case .bodyTooLarge(let url, let limit): return "\(url): the body is larger than \(limit) bytes"
        }
    }

    /// The same as ``description``.
    public var errorDescription: String? { description }
}

/// Fetches `http(s)` resources for drawing: a fixed number of requests in flight (the rest
/// queued, requests for the same URL merged into one), a disk cache that honours the server's
/// freshness (`Cache-Control: max-age`, `Expires`) and revalidates stale entries with their
/// validators (`If-None-Match`, `If-Modified-Since`), and a typed ``TileFetchError`` for every
/// failure.
final class TileFetcher: @unchecked Sendable {
    struct Configuration: Sendable {
        /// Requests in flight at once; later ones wait in a queue, first come first served.
        var maximumConcurrentRequests = 6
        /// How long one request may take, from its start to its last byte.
        var requestTimeout: TimeInterval = 30
        /// The largest body accepted; larger ones fail with ``TileFetchError/bodyTooLarge(url:limit:)``.
        var maximumBodySize = 32 << 20
        /// Where responses are kept; nil keeps nothing.
        var cacheDirectory: URL?
        /// The cache's size cap, in bytes; the least recently used entries go first.
        var maximumCacheSize = 512 << 20

        /// `$OPENMAPKIT_TILE_CACHE`, else `$XDG_CACHE_HOME/openmapkit/tiles`, else
        /// `~/.cache/openmapkit/tiles`.
        static var defaultCacheDirectory: URL {
            let environment = ProcessInfo.processInfo.environment
            if let path = environment["OPENMAPKIT_TILE_CACHE"], !path.isEmpty { return URL(fileURLWithPath: path, isDirectory: true) }
            let base = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0, isDirectory: true) }
                ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache", isDirectory: true)
            return base.appendingPathComponent("openmapkit/tiles", isDirectory: true)
        }
    }

    /// The fetcher every overlay, style and map uses unless given another (tests give their own).
    static let shared: TileFetcher = {
        var configuration = Configuration()
        configuration.cacheDirectory = Configuration.defaultCacheDirectory
        return TileFetcher(configuration: configuration)
    }()

    /// One client for the process: its connection pool is shared by all fetchers, and it is never
    /// shut down (AsyncHTTPClient requires a shutdown only of clients that go away).
    private static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.timeout = .init(connect: .seconds(10), read: .seconds(30))
        configuration.redirectConfiguration = .follow(max: 5, allowCycles: false)
        // No decompression: vector tiles may stay gzipped (the renderer inflates them, with its
        // own size limit), and PNG tiles are not compressed by servers.
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    let configuration: Configuration
    let cache: TileDiskCache?

    private let lock = NSLock()
    /// Callers waiting for each URL being fetched (or queued).
    private var waiting: [String: [@Sendable (Result<Data, TileFetchError>) -> Void]] = [:]
    /// Fetches not started yet, oldest first.
    private var queue: [(url: URL, stale: TileDiskCache.Entry?)] = []
    private var running = 0

    init(configuration: Configuration) {
        self.configuration = configuration
        cache = configuration.cacheDirectory.map { TileDiskCache(directory: $0, capacity: configuration.maximumCacheSize) }
    }

    /// The cached body of `url` when it is still fresh, or, with `acceptingStale`, when it is
    /// cached at all (a map view frame draws what it has while newer tiles are fetched).
    func cachedData(for url: URL, acceptingStale: Bool = false) -> Data? {
        guard let entry = cache?.read(url.absoluteString) else { return nil }
        return acceptingStale || entry.isFresh ? entry.body : nil
    }

    /// Fetches `url`, calling `completion` once on another thread (or at once, on this one,
    /// when the cache has a fresh copy).
    func fetch(_ url: URL, completion: @escaping @Sendable (Result<Data, TileFetchError>) -> Void) {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host?.isEmpty == false else {
            completion(.failure(.badURL(url.absoluteString)))
            return
        }
        let key = url.absoluteString
        let stale = cache?.read(key)
        if let stale, stale.isFresh {
            completion(.success(stale.body))
            return
        }
        let start: Bool = lock.withLock {
            if waiting[key] != nil {
                waiting[key]!.append(completion)
                return false
            }
            waiting[key] = [completion]
            queue.append((url, stale))
            return true
        }
        if start { startQueued() }
    }

    /// Fetches `url` and waits for it at most `timeout` seconds. A fetch that outlasts the wait
    /// goes on and fills the cache for the next caller.
    func data(for url: URL, timeout: TimeInterval) -> Result<Data, TileFetchError> {
        final class Box: @unchecked Sendable { var result: Result<Data, TileFetchError>? }
        let box = Box(), done = DispatchSemaphore(value: 0)
        fetch(url) { result in
            box.result = result
            done.signal()
        }
        guard done.wait(timeout: .now() + max(0, timeout)) == .success, let result = box.result else {
            return .failure(.timedOut(url: url.absoluteString, seconds: timeout))
        }
        return result
    }

    /// Fetches every URL of `urls` at once (within the concurrency bound) and waits for all of
    /// them at most `timeout` seconds in total; the URLs not answered by then fail with
    /// ``TileFetchError/timedOut(url:seconds:)``.
    func data(for urls: [URL], timeout: TimeInterval) -> [URL: Result<Data, TileFetchError>] {
        final class Box: @unchecked Sendable {
            let lock = NSLock()
            var results: [URL: Result<Data, TileFetchError>] = [:]
        }
        let box = Box(), group = DispatchGroup()
        for url in Set(urls) {
            group.enter()
            fetch(url) { result in
                box.lock.withLock { box.results[url] = result }
                group.leave()
            }
        }
        _ = group.wait(timeout: .now() + max(0, timeout))
        var results = box.lock.withLock { box.results }
        for url in urls where results[url] == nil { results[url] = .failure(.timedOut(url: url.absoluteString, seconds: timeout)) }
        return results
    }

    // MARK: - Requests

    /// Starts queued fetches while fewer than the maximum are running.
    private func startQueued() {
        while true {
            let next: (url: URL, stale: TileDiskCache.Entry?)? = lock.withLock {
                guard running < configuration.maximumConcurrentRequests, !queue.isEmpty else { return nil }
                running += 1
                return queue.removeFirst()
            }
            guard let next else { return }
            start(next.url, stale: next.stale)
        }
    }

    private func start(_ url: URL, stale: TileDiskCache.Entry?) {
        let key = url.absoluteString
        var headers = HTTPHeaders()
        headers.add(name: "User-Agent", value: "OpenMapKit")
        if let etag = stale?.etag { headers.add(name: "If-None-Match", value: etag) }
        if let lastModified = stale?.lastModified { headers.add(name: "If-Modified-Since", value: lastModified) }
        let request: HTTPClient.Request
        do { request = try HTTPClient.Request(url: url, method: .GET, headers: headers) } catch {
            finish(key, .failure(.badURL(key)))
            return
        }
        let timeout = configuration.requestTimeout
        let deadline = NIODeadline.now() + .nanoseconds(Int64(max(0, timeout) * 1e9))
        let task = Self.client.execute(request: request, delegate: BodyCollector(limit: configuration.maximumBodySize), deadline: deadline)
        task.futureResult.whenComplete { [self] outcome in
            finish(key, response(outcome, url: key, stale: stale, timeout: timeout))
        }
    }

    /// What a request's outcome means: a body (new, or the cached one confirmed by a 304) or an error.
    private func response(_ outcome: Result<BodyCollector.Collected, any Error>, url: String, stale: TileDiskCache.Entry?,
                          timeout: TimeInterval) -> Result<Data, TileFetchError> {
        switch outcome {
        case .failure(let error):
            return .failure(Self.typed(error, url: url, timeout: timeout, limit: configuration.maximumBodySize))
        case .success(let collected):
            let status = Int(collected.head.status.code)
            let freshness = CacheFreshness(headers: collected.head.headers, now: Date())
            if status == 304, var entry = stale {
                // Not modified: the cached body is good for the new lifetime; new validators replace old ones.
                entry.expires = freshness.expires.timeIntervalSince1970
                entry.etag = collected.head.headers.first(name: "ETag") ?? entry.etag
                entry.lastModified = collected.head.headers.first(name: "Last-Modified") ?? entry.lastModified
                if freshness.storable { cache?.write(entry) } else { cache?.remove(url) }
                return .success(entry.body)
            }
            guard (200..<300).contains(status) else { return .failure(.httpStatus(url: url, status: status)) }
            var buffer = collected.body
            let body = Data(buffer.readBytes(length: buffer.readableBytes) ?? [])
            if freshness.storable {
                cache?.write(TileDiskCache.Entry(url: url, etag: collected.head.headers.first(name: "ETag"),
                                                 lastModified: collected.head.headers.first(name: "Last-Modified"),
                                                 expires: freshness.expires.timeIntervalSince1970, body: body))
            } else {
                cache?.remove(url)
            }
            return .success(body)
        }
    }

    /// Ends a fetch: the next queued one starts, then everyone waiting for this URL hears.
    private func finish(_ key: String, _ result: Result<Data, TileFetchError>) {
        let callers = lock.withLock {
            running -= 1
            return waiting.removeValue(forKey: key) ?? []
        }
        startQueued()
        for caller in callers { caller(result) }
    }

    /// AsyncHTTPClient's and NIO's errors as ``TileFetchError``s.
    static func typed(_ error: any Error, url: String, timeout: TimeInterval, limit: Int) -> TileFetchError {
        if error is BodyCollector.TooLarge { return .bodyTooLarge(url: url, limit: limit) }
        if let client = error as? HTTPClientError {
            switch client {
            case .deadlineExceeded, .readTimeout, .writeTimeout, .connectTimeout, .tlsHandshakeTimeout, .getConnectionFromPoolTimeout:
                return .timedOut(url: url, seconds: timeout)
            case .invalidURL, .emptyHost, .emptyScheme:
                return .badURL(url)
            case .remoteConnectionClosed:
                return .transport(url: url, reason: "the server closed the connection before the whole response arrived")
            default:
                return .transport(url: url, reason: String(describing: client))
            }
        }
        return .transport(url: url, reason: String(describing: error))
    }
}

/// Collects a response's head and body, refusing bodies over a limit as soon as the limit is
/// passed (or announced by `Content-Length`), so a hostile server cannot fill memory.
final class BodyCollector: HTTPClientResponseDelegate, @unchecked Sendable {
    struct Collected: Sendable {
        let head: HTTPResponseHead
        let body: ByteBuffer
    }
    struct TooLarge: Error {}
    struct NoHead: Error {}

    typealias Response = Collected
    private let limit: Int
    // Touched only on the request's event loop, one callback at a time.
    private var head: HTTPResponseHead?
    private var body = ByteBuffer()

    init(limit: Int) { self.limit = limit }

    func didReceiveHead(task: HTTPClient.Task<Collected>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        self.head = head
        if let length = head.headers.first(name: "Content-Length").flatMap(Int.init), length > limit {
            return task.eventLoop.makeFailedFuture(TooLarge())
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Collected>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        guard body.readableBytes + buffer.readableBytes <= limit else { return task.eventLoop.makeFailedFuture(TooLarge()) }
        var part = buffer
        body.writeBuffer(&part)
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<Collected>) throws -> Collected {
        guard let head else { throw NoHead() }
        return Collected(head: head, body: body)
    }
}

/// How long a response may be used without asking the server again, from its headers
/// (RFC 9111): `Cache-Control: no-store` is not kept, `no-cache` is kept but stale at once,
/// `max-age` (less `Age`) wins over `Expires`; a response with neither is fresh for a tenth of
/// the time since its `Last-Modified` (at most a day), else stale at once (kept for revalidation).
struct CacheFreshness {
    var storable = true
    var expires: Date

    init(headers: HTTPHeaders, now: Date) {
        let directives = headers[canonicalForm: "Cache-Control"].map { $0.lowercased().trimmingCharacters(in: .whitespaces) }
        if directives.contains("no-store") { storable = false }
        let age = headers.first(name: "Age").flatMap(Double.init) ?? 0
        if directives.contains("no-cache") {
            expires = now
        } else if let maxAge = directives.lazy.compactMap({ $0.hasPrefix("max-age=") ? Double($0.dropFirst(8).trimmingCharacters(in: .init(charactersIn: "\""))) : nil }).first {
            expires = now.addingTimeInterval(max(0, maxAge - age))
        } else if let value = headers.first(name: "Expires") {
            // An Expires that is not a date means "already expired" (RFC 9111 §5.3).
            let date = Self.httpDate(value) ?? now
            let served = headers.first(name: "Date").flatMap(Self.httpDate) ?? now
            expires = now.addingTimeInterval(date.timeIntervalSince(served))
        } else if let lastModified = headers.first(name: "Last-Modified").flatMap(Self.httpDate) {
            expires = now.addingTimeInterval(min(86_400, max(0, now.timeIntervalSince(lastModified) / 10)))
        } else {
            expires = now
        }
    }

    /// An HTTP date (`Sun, 06 Nov 1994 08:49:37 GMT`).
    static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text.trimmingCharacters(in: .whitespaces))
    }
}
