import Foundation
#if canImport(Glibc)
import Glibc
#endif
import HTTPTypes
import Hummingbird
import Logging
import MapServer
import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import ServiceLifecycle
import TestSupport
import XCTest

/// A TCP socket connected to a server on loopback, for tests that speak HTTP/1 byte by byte;
/// reads wait at most `receiveTimeout` seconds. Throws with errno when it cannot connect.
func loopbackSocket(port: Int, receiveTimeout: Double) throws -> Int32 {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    var timeout = timeval(tv_sec: Int(receiveTimeout), tv_usec: Int((receiveTimeout - receiveTimeout.rounded(.down)) * 1e6))
    setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else {
        let code = errno
        close(socket)
        throw POSIXError(POSIXErrorCode(rawValue: code) ?? .ECONNREFUSED)
    }
    return socket
}

/// A server over the Monaco sample bundle (imported once per test process), driven in process
/// through its router: real routing, middleware and handlers, no sockets.
enum TestServer {
    static func make(_ configure: (inout ServerConfiguration) -> Void = { _ in }) throws -> MapServer {
        var configuration = ServerConfiguration()
        configuration.requestLog = .none
        configure(&configuration)
        let regions = try RegionRegistry(bundleURLs: [try SampleBundle.monaco()])
        return MapServer(configuration: configuration, regions: regions)
    }

    /// Runs `body` with a client for `server`'s router.
    static func withClient(_ server: MapServer, _ body: @escaping @Sendable (RouterClient) async throws -> Void) async throws {
        try await body(RouterClient(responder: server.router().buildResponder()))
    }

    /// Serves `server` on a free loopback port while `body` runs, and stops it afterwards.
    static func withRunningServer<T: Sendable>(_ server: MapServer, _ body: @escaping @Sendable (_ port: Int) async throws -> T) async throws -> T {
        let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
        return try await withRunning(server.application(onServerRunning: { port in portSink.yield(port) }), ports: ports, body)
    }

    /// Runs `application` while `body` runs with the port it reports on `ports`, then shuts it
    /// down gracefully and waits until it is down, so the next test never meets a server
    /// shutting down behind it.
    ///
    /// Graceful, never by cancelling the serving task: a cancelled NIO server can leave a
    /// connection it had accepted but not yet handed over unserved, and that connection's writer
    /// traps when it is released ("Deinited NIOAsyncWriter without calling finish()", swift-nio
    /// #3481), which takes the whole test process down at some later point.
    static func withRunning<App: ApplicationProtocol, T: Sendable>(_ application: App, ports: AsyncStream<Int>,
                                                                   _ body: @escaping @Sendable (_ port: Int) async throws -> T) async throws -> T {
        let group = ServiceGroup(configuration: .init(services: [application], logger: Logger(label: "openmapkit.test-server")))
        let serving = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        let port = await iterator.next()
        let result: Result<T, any Error>
        if let port {
            do { result = .success(try await body(port)) } catch { result = .failure(error) }
        } else {
            result = .failure(CancellationError())
        }
        await group.triggerGracefulShutdown()
        _ = await serving.result
        return try result.get()
    }
}

/// Sends requests straight to a router's responder, the way the server's HTTP layer does, and
/// collects whole responses. (Hummingbird's own test client would do the same, but it brings an
/// HTTP client with two TLS stacks into the build, minutes of CI time for tests that need neither.)
struct RouterClient: Sendable {
    let responder: RouterResponder<ServerContext>

    func execute(uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil) async throws -> TestResponse {
        var headers = headers
        if let body { headers[.contentLength] = String(body.readableBytes) }
        let request = Request(head: HTTPRequest(method: method, scheme: "http", authority: "localhost", path: uri, headerFields: headers),
                              body: RequestBody(buffer: body ?? ByteBuffer()))
        let context = ServerContext(source: ApplicationRequestContextSource(channel: EmbeddedChannel(), logger: Logger(label: "test")))
        let response: Response
        do {
            response = try await responder.respond(to: request, context: context)
        } catch {
            response = Response(status: .internalServerError)
        }
        let collected = CollectedBody()
        try await response.body.write(collected)
        return TestResponse(status: response.status, headers: response.headers, body: collected.buffer.withLockedValue { $0 })
    }
}

/// A response as the client saw it.
struct TestResponse: Sendable {
    let status: HTTPResponse.Status
    let headers: HTTPFields
    let body: ByteBuffer
}

/// A response body writer that keeps what is written.
private struct CollectedBody: ResponseBodyWriter {
    let buffer = NIOLockedValueBox(ByteBuffer())

    func write(_ part: ByteBuffer) async throws {
        buffer.withLockedValue { $0.writeImmutableBuffer(part) }
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}

extension TestResponse {
    /// The body as UTF-8 text.
    var text: String { String(buffer: body) }

    /// The body decoded as a JSON object (fails the test when it is not one).
    func json(file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(buffer: body))
        return try XCTUnwrap(object as? [String: Any], "not a JSON object: \(text.prefix(200))", file: file, line: line)
    }

    /// The `error.message` of an Apple Maps Server API error body, nil when the body is not one.
    var errorMessage: String? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any],
              let error = object["error"] as? [String: Any] else { return nil }
        return error["message"] as? String
    }
}
