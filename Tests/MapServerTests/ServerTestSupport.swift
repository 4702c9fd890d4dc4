import Foundation
import Hummingbird
import HummingbirdTesting
import MapServer
import TestSupport
import XCTest

/// A server over the Monaco sample bundle (imported once per test process), driven in process
/// through Hummingbird's router test client: real routing, middleware and handlers, no sockets.
enum TestServer {
    static func make(_ configure: (inout ServerConfiguration) -> Void = { _ in }) throws -> MapServer {
        var configuration = ServerConfiguration()
        configuration.requestLog = .none
        configure(&configuration)
        let regions = try RegionRegistry(bundleURLs: [try SampleBundle.monaco()])
        return MapServer(configuration: configuration, regions: regions)
    }

    /// Runs `body` with a client for `server`'s router.
    static func withClient(_ server: MapServer, _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let app = Application(router: server.router())
        try await app.test(.router, body)
    }
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
