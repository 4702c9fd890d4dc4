import Foundation
import Hummingbird
import HTTPTypes
import NIOCore
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// A tile server on loopback whose answers the tests choose (caching headers, 404s, slow
/// answers), counting on its side every request, the conditional ones, the 304s and the most
/// requests in flight at once. It runs on Hummingbird, as `openmapkit serve` does.
final class TileOrigin: @unchecked Sendable {
    struct Counts {
        var requests: [String: Int] = [:]
        var conditional = 0
        var notModified = 0
        var inFlight = 0
        var maximumInFlight = 0
        var total: Int { requests.values.reduce(0, +) }
    }

    private let lock = NSLock()
    private var counts = Counts()
    /// The body of every tile.
    let tile: [UInt8]
    /// Sent as `Last-Modified` by the `/lastmod` route.
    static let lastModified = "Tue, 01 Sep 2026 10:00:00 GMT"

    init(tile: [UInt8]) { self.tile = tile }

    var snapshot: Counts { lock.withLock { counts } }
    func requests(_ path: String) -> Int { lock.withLock { counts.requests[path] ?? 0 } }

    /// Routes:
    /// - `/fresh/…`: `max-age=3600` with an ETag;
    /// - `/expiring/…`: `max-age=1` with an ETag, answered 304 to a matching If-None-Match;
    /// - `/lastmod/…`: `Expires` in the past with a Last-Modified, 304 to a matching If-Modified-Since;
    /// - `/nostore/…`: `no-store`;
    /// - `/missing/…`: 404;
    /// - `/slow/…`: answers after 300 ms;
    /// - `/large/…`: a body of 64 KiB.
    func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/:kind/:z/:x/:file") { [self] request, context -> Response in
            let kind = try context.parameters.require("kind")
            let path = request.uri.path
            let ifNoneMatch = request.headers[.ifNoneMatch], ifModifiedSince = request.headers[.ifModifiedSince]
            lock.withLock {
                counts.requests[path, default: 0] += 1
                if ifNoneMatch != nil || ifModifiedSince != nil { counts.conditional += 1 }
                counts.inFlight += 1
                counts.maximumInFlight = max(counts.maximumInFlight, counts.inFlight)
            }
            defer { lock.withLock { counts.inFlight -= 1 } }
            let body = ResponseBody(byteBuffer: ByteBuffer(bytes: tile))
            switch kind {
            case "fresh":
                return Response(status: .ok, headers: [.contentType: "image/png", .cacheControl: "public, max-age=3600", .eTag: "\"v1\""], body: body)
            case "expiring":
                if ifNoneMatch == "\"v1\"" {
                    lock.withLock { counts.notModified += 1 }
                    return Response(status: .notModified, headers: [.cacheControl: "max-age=1", .eTag: "\"v1\""])
                }
                return Response(status: .ok, headers: [.contentType: "image/png", .cacheControl: "max-age=1", .eTag: "\"v1\""], body: body)
            case "lastmod":
                let headers: HTTPFields = [.expires: "Thu, 01 Jan 1970 00:00:00 GMT", .lastModified: Self.lastModified]
                if ifModifiedSince == Self.lastModified {
                    lock.withLock { counts.notModified += 1 }
                    return Response(status: .notModified, headers: headers)
                }
                var all = headers
                all[.contentType] = "image/png"
                return Response(status: .ok, headers: all, body: body)
            case "nostore":
                return Response(status: .ok, headers: [.contentType: "image/png", .cacheControl: "no-store"], body: body)
            case "slow":
                try await Task.sleep(nanoseconds: 300_000_000)
                return Response(status: .ok, headers: [.contentType: "image/png", .cacheControl: "max-age=3600"], body: body)
            case "large":
                return Response(status: .ok, headers: [.contentType: "image/png"], body: ResponseBody(byteBuffer: ByteBuffer(repeating: 7, count: 64 << 10)))
            default:
                return Response(status: .notFound)
            }
        }
        return router
    }

    /// Serves on a free loopback port while `body` runs.
    func serve<T: Sendable>(_ body: @escaping @Sendable (_ port: Int) async throws -> T) async throws -> T {
        let (ports, sink) = AsyncStream.makeStream(of: Int.self)
        let app = Application(router: router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                              onServerRunning: { channel in sink.yield(channel.localAddress?.port ?? 0) })
        // Stop only once no request is being answered (a slow answer the client gave up on
        // still runs): graceful shutdown waits for answers in flight, and this bounds the wait.
        return try await TestServer.withRunning(app, ports: ports) { port in
            let result: Result<T, any Error>
            do { result = .success(try await body(port)) } catch { result = .failure(error) }
            let deadline = ContinuousClock.now + .seconds(5)
            while self.snapshot.inFlight > 0, ContinuousClock.now < deadline { try? await Task.sleep(nanoseconds: 10_000_000) }
            return try result.get()
        }
    }
}

/// A loopback listener that answers every connection with the start of a response (a
/// Content-Length of 1000 and 10 bytes of it) and then closes it: a connection dropped mid-body.
final class DroppingListener: @unchecked Sendable {
    let port: Int
    private let socketFD: Int32

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ListenerFailure("cannot open a socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw ListenerFailure("cannot listen on loopback: errno \(errno)")
        }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        port = Int(UInt16(bigEndian: address.sin_port))
        socketFD = fd
        Thread.detachNewThread {
            while true {
                let client = accept(fd, nil, nil)
                if client < 0 { return }
                var buffer = [UInt8](repeating: 0, count: 4096)
                _ = read(client, &buffer, buffer.count)
                let answer = Array("HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: 1000\r\n\r\n0123456789".utf8)
                _ = answer.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
                close(client)
            }
        }
    }

    func stop() {
        shutdown(socketFD, Int32(SHUT_RDWR))
        close(socketFD)
    }
}

/// Why the dropping listener could not start: loopback sockets are part of what the tests need,
/// so this fails the test rather than skipping it.
struct ListenerFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
