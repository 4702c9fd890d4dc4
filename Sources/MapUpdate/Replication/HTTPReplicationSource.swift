import AsyncHTTPClient
import Foundation
import MapFormats
import NIOCore
import NIOHTTP1

/// A replication feed on a web server — the OpenStreetMap planet's
/// (`https://planet.openstreetmap.org/replication/minute/`), Geofabrik's per-region feeds, or any
/// folder of `state.txt` and `000/001/234.osc.gz` files served over HTTP — read with
/// AsyncHTTPClient. ``ReplicationDirectory`` reads the same layout from a folder.
///
/// Answers are bounded (``maximumChangeBytes``, ``maximumStateBytes``): a feed that sends more is
/// refused rather than read into memory. A 404 is the feed not having the file (yet); anything
/// else that fails is ``ReplicationError/unavailable(_:)`` with the reason.
public struct HTTPReplicationSource: ReplicationSource {
    /// The feed's folder URL (with or without the trailing slash).
    public let baseURL: URL
    /// The largest change file read (compressed, as served): a minutely diff is kilobytes, a daily
    /// planet diff about 150 MB.
    public var maximumChangeBytes = 1 << 30
    /// The largest state file read.
    public var maximumStateBytes = 64 << 10
    /// How long one request may take, from connecting to the last byte.
    public var timeout: TimeAmount = .seconds(120)

    /// One client for the process, never shut down (AsyncHTTPClient asks a shutdown only of
    /// clients that go away); redirects followed, as feeds move to mirrors.
    private static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.timeout = .init(connect: .seconds(15), read: .seconds(60))
        configuration.redirectConfiguration = .follow(max: 5, allowCycles: false)
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    public init(baseURL: URL) {
        self.baseURL = baseURL
    }

    public func latestState() async throws(ReplicationError) -> ReplicationState {
        let location = url("state.txt")
        guard let data = try await fetch(location, limit: maximumStateBytes) else { throw .missingState(sequence: nil, location: location) }
        return try ReplicationState.parse(data)
    }

    public func state(of sequence: Int) async throws(ReplicationError) -> ReplicationState {
        let location = url(try ReplicationPath.state(of: sequence))
        guard let data = try await fetch(location, limit: maximumStateBytes) else { throw .missingState(sequence: sequence, location: location) }
        let state = try ReplicationState.parse(data)
        guard state.sequenceNumber == sequence else { throw .sequenceMismatch(expected: sequence, found: state.sequenceNumber) }
        return state
    }

    public func changes(of sequence: Int) async throws(ReplicationError) -> Data {
        let location = url(try ReplicationPath.changes(of: sequence))
        guard let data = try await fetch(location, limit: maximumChangeBytes) else { throw .missingChanges(sequence: sequence, location: location) }
        return data
    }

    private static func discard(_ body: HTTPClientResponse.Body) async throws {
        for try await _ in body {}
    }

    private func url(_ path: String) -> String {
        let base = baseURL.absoluteString
        return base.hasSuffix("/") ? base + path : base + "/" + path
    }

    /// The body at `location`, or nil for a 404 (or 410): the feed does not have it.
    private func fetch(_ location: String, limit: Int) async throws(ReplicationError) -> Data? {
        var request = HTTPClientRequest(url: location)
        request.headers.add(name: "User-Agent", value: "OpenMapKit (replication)")
        do {
            let response = try await Self.client.execute(request, timeout: timeout)
            switch response.status.code {
            case 200:
                if let length = response.headers.first(name: "Content-Length").flatMap(Int.init), length > limit {
                    throw ReplicationError.unavailable("\(location) is \(length) bytes, more than the \(limit) this reads")
                }
                var body = try await response.body.collect(upTo: limit)
                return Data(body.readBytes(length: body.readableBytes) ?? [])
            case 404, 410:
                // The error page is read and dropped: a body left unread keeps the request from finishing.
                try await Self.discard(response.body)
                return nil
            default:
                try await Self.discard(response.body)
                throw ReplicationError.unavailable("\(location) answered \(response.status.code) \(response.status.reasonPhrase)")
            }
        } catch let error as ReplicationError {
            throw error
        } catch let error as NIOTooManyBytesError {
            throw .unavailable("\(location) sent more than the \(limit) bytes this reads (\(error))")
        } catch {
            throw .unavailable("\(location): \(error)")
        }
    }
}
