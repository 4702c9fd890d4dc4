import Foundation
import HTTPTypes
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// Answers tile requests (vector tiles and raster tiles) that hit the response cache on the event
/// loop, in front of Hummingbird; every other request passes through to the router untouched.
///
/// Why: a cached tile is a dictionary lookup and a write, yet through the router it costs a hop
/// to a task, the conversion to and from HTTP types, the middleware chain and a hop back — about
/// four times the CPU of the answer itself (measured with wrk against nginx serving the same
/// tiles, see the README's "The map server"). Here the answer is written from the channel
/// pipeline, right after the HTTP/1 decoder.
///
/// The fast path answers exactly as the router would (the same status, headers and body, the
/// same metrics series and request log line — a test compares the two) and only where that is
/// simple to be sure of; anything else goes to the router:
/// - `GET /tiles/{z}/{x}/{y}.mvt|.pbf` or `GET /styles/{style}/{z}/{x}/{y}[@2x|@3x].png` with
///   canonical numbers and no query but `region=` with a plain name, on a keep-alive HTTP/1.1
///   connection, without a request body;
/// - a tile already in the cache for the current region generation, in the representation the
///   client accepts (a client that refuses gzip gets the inflated vector tile from the router);
/// - a path that needs no API key (with keys configured, raster tiles need one: the router
///   checks it; vector tiles are open), and no `Origin` header when CORS is configured (the
///   router adds the CORS headers);
/// - no earlier request on the connection still waiting for the router's answer (answers must
///   leave in request order), and the socket writable (a client that does not read its answers
///   is slowed by the router's back-pressure instead).
final class CachedTileHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let server: MapServer
    private let serverName: String
    /// The HTTP/1 response encoder's context: answers are written from there, already encoded,
    /// so they skip the encoder's header dictionary and checks.
    private var encoderContext: ChannelHandlerContext?
    /// Requests handed to the router whose answer has not ended yet.
    private var forwardedInFlight = 0
    /// The request whose head this handler answered: its body and end are swallowed.
    private var answering: Answer?
    private var date = HTTPDate()

    private struct Answer {
        let path: String
        let route: String
        let status: Int
        /// The status line and headers but `Date` and `Server`, which are added when sent.
        var head: ByteBuffer
        let body: ByteBuffer?
        let started: UInt64
    }

    init(server: MapServer, serverName: String, encoderContext: ChannelHandlerContext) {
        self.server = server
        self.serverName = serverName
        self.encoderContext = encoderContext
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        encoderContext = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        switch part {
        case .head(let head):
            if forwardedInFlight == 0, context.channel.isWritable, let answer = answer(to: head, allocator: context.channel.allocator) {
                answering = answer
                return
            }
            forwardedInFlight += 1
        case .body:
            if answering != nil { return }
        case .end:
            if let answer = answering {
                answering = nil
                send(answer, context: context)
                return
            }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data), forwardedInFlight > 0 { forwardedInFlight -= 1 }
        context.write(data, promise: promise)
    }

    private func send(_ answer: Answer, context: ChannelHandlerContext) {
        guard let encoderContext else { return }
        // Recorded before the answer leaves, as the router's middleware does: a client that has
        // its answer finds the request already counted.
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - answer.started) / 1e9
        server.requestLog.finish(method: "GET", path: answer.path, route: answer.route,
                                 status: answer.status, bytes: answer.body?.readableBytes ?? 0, seconds: seconds, beforeRouter: true)
        var head = answer.head
        head.writeStaticString("Date: ")
        head.writeString(date.now())
        head.writeStaticString("\r\nServer: ")
        head.writeString(serverName)
        head.writeStaticString("\r\n\r\n")
        encoderContext.write(NIOAny(IOData.byteBuffer(head)), promise: nil)
        if let body = answer.body { encoderContext.write(NIOAny(IOData.byteBuffer(body)), promise: nil) }
        encoderContext.flush()
    }

    /// The router's answer to `head` when it is a cached tile this handler may send itself.
    private func answer(to head: HTTPRequestHead, allocator: ByteBufferAllocator) -> Answer? {
        guard head.method == .GET, head.version == .http1_1, head.isKeepAlive else { return nil }
        let started = DispatchTime.now().uptimeNanoseconds
        guard let request = CachedTileURI(head.uri) else { return nil }
        let headers = head.headers
        if server.configuration.requiresKeys, APIKeyMiddleware.isProtected(request.path) { return nil }
        if !server.configuration.corsAllowedOrigins.isEmpty, headers.contains(name: "origin") { return nil }
        if let length = headers.first(name: "content-length"), length != "0" { return nil }
        if headers.contains(name: "transfer-encoding") { return nil }

        let generation = server.regions.snapshot.generation
        let key: String, route: String, vary: Bool
        switch request.kind {
        case .vector:
            key = TileRequest.vectorTileCacheKey(generation: generation, region: request.region, z: request.z, x: request.x, y: request.y)
            (route, vary) = (TileRoutes.vectorTileRoute, true)
        case .raster(let style, let scale):
            key = TileRequest.rasterTileCacheKey(generation: generation, region: request.region, style: style,
                                                 z: request.z, x: request.x, y: request.y, scale: scale)
            (route, vary) = (RasterTileRoutes.route, false)
        }
        guard let stored = server.cache.value(for: key) else { return nil }
        func answer(_ status: Int, _ head: ByteBuffer, body: ByteBuffer? = nil) -> Answer {
            Answer(path: request.path, route: route, status: status, head: head, body: body, started: started)
        }
        var bytes = allocator.buffer(capacity: 384)
        guard !stored.isEmpty else {
            bytes.writeStaticString("HTTP/1.1 204 No Content\r\nCache-Control: ")
            bytes.writeString(TileRequest.tileCacheControl)
            bytes.writeStaticString("\r\n")
            return answer(204, bytes)
        }
        if stored.contentEncoding == "gzip" {
            // Several Accept-Encoding fields count as one list, as in the router's HTTP fields.
            let acceptEncoding = headers["accept-encoding"]
            guard TileRequest.acceptsGzip(acceptEncoding.count == 1 ? acceptEncoding[0] : acceptEncoding.joined(separator: ", ")) else {
                return nil
            }
        }
        let ifNoneMatch = headers["if-none-match"]
        let notModified = !ifNoneMatch.isEmpty && TileRequest.notModified(ifNoneMatch.joined(separator: ", "), etag: stored.etag)
        bytes.writeStaticString(notModified ? "HTTP/1.1 304 Not Modified\r\n" : "HTTP/1.1 200 OK\r\n")
        TileRequest.forEachHeader(of: stored, cacheControl: TileRequest.tileCacheControl, vary: vary, notModified: notModified) { name, value in
            bytes.writeString(name.rawName)
            bytes.writeStaticString(": ")
            bytes.writeString(value)
            bytes.writeStaticString("\r\n")
        }
        if notModified { return answer(304, bytes) }
        bytes.writeStaticString("Content-Length: ")
        bytes.writeString(String(stored.buffer.readableBytes))
        bytes.writeStaticString("\r\n")
        return answer(200, bytes, body: stored.buffer)
    }
}

/// `/tiles/{z}/{x}/{y}.mvt` (or `.pbf`) and `/styles/{style}/{z}/{x}/{y}.png` (or `@2x.png`,
/// `@3x.png`), with an optional `?region=NAME`, read strictly: canonical decimal numbers inside the
/// tile pyramid, style and region names of plain characters, nothing else. Anything looser is left
/// to the router, which reads (and rejects) it with its full checks.
struct CachedTileURI {
    enum Kind: Equatable {
        case vector
        case raster(style: String, scale: Int)
    }

    let kind: Kind
    let path: String
    let z: Int, x: Int, y: Int
    let region: String?

    init?(_ uri: String) {
        let utf8 = uri.utf8
        let question = utf8.firstIndex(of: UInt8(ascii: "?")) ?? utf8.endIndex
        var cursor = utf8.startIndex
        func literal(_ text: StaticString) -> Bool {
            let bytes = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
            guard utf8[cursor..<question].starts(with: bytes) else { return false }
            cursor = utf8.index(cursor, offsetBy: bytes.count)
            return true
        }
        func number(until terminators: UInt8...) -> Int? {
            var value = 0, digits = 0
            let first = cursor
            while cursor < question, !terminators.contains(utf8[cursor]) {
                let byte = utf8[cursor]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 9 else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
                cursor = utf8.index(after: cursor)
            }
            // One digit, or no leading zero: "07" is the same tile but the router reads it.
            guard cursor < question, digits > 0, digits == 1 || utf8[first] != UInt8(ascii: "0") else { return nil }
            return value
        }
        func skip() { cursor = utf8.index(after: cursor) }
        let kind: Kind, z: Int, x: Int, y: Int
        if literal("/tiles/") {
            guard let zoom = number(until: UInt8(ascii: "/")) else { return nil }
            skip()
            guard let column = number(until: UInt8(ascii: "/")) else { return nil }
            skip()
            guard let row = number(until: UInt8(ascii: ".")) else { return nil }
            skip()
            guard literal("mvt") || literal("pbf") else { return nil }
            (kind, z, x, y) = (.vector, zoom, column, row)
        } else if literal("/styles/") {
            let styleStart = cursor
            while cursor < question, utf8[cursor] != UInt8(ascii: "/") { cursor = utf8.index(after: cursor) }
            let style = uri[styleStart..<cursor]
            guard cursor < question, Self.isPlainName(style) else { return nil }
            skip()
            guard let zoom = number(until: UInt8(ascii: "/")) else { return nil }
            skip()
            guard let column = number(until: UInt8(ascii: "/")) else { return nil }
            skip()
            guard let row = number(until: UInt8(ascii: "."), UInt8(ascii: "@")) else { return nil }
            var scale = 1
            if literal("@2x") { scale = 2 } else if literal("@3x") { scale = 3 }
            guard literal(".png") else { return nil }
            (kind, z, x, y) = (.raster(style: String(style), scale: scale), zoom, column, row)
        } else {
            return nil
        }
        guard cursor == question, z <= TileRequest.maximumZoom, x < 1 << z, y < 1 << z else { return nil }
        var region: String?
        if question < utf8.endIndex {
            let query = uri[utf8.index(after: question)...]
            guard query.hasPrefix("region="), case let name = query.dropFirst("region=".count), Self.isPlainName(name) else { return nil }
            region = String(name)
        }
        (self.kind, self.path, self.z, self.x, self.y, self.region) = (kind, String(uri[..<question]), z, x, y, region)
    }

    /// Letters, digits, `-` and `_`: names that need no decoding and that the router reads as they are.
    private static func isPlainName(_ name: Substring) -> Bool {
        !name.isEmpty && name.utf8.count <= TileRequest.maximumSegmentLength && name.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
    }
}

/// The `Date` header's value (RFC 9110's IMF-fixdate), formatted at most once a second.
struct HTTPDate {
    private var second = -1
    private var text = ""

    mutating func now() -> String {
        var seconds = time(nil)
        guard seconds != second else { return text }
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        text = "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
        second = seconds
        return text
    }
}
