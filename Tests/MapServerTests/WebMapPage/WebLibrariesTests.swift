import Foundation
import Hummingbird
@testable import MapServer
import XCTest

/// MapLibre GL JS served from the install `make deps` makes (PyPI's `maplibre`, in .build/web),
/// never from the internet; a server without it says how to install it.
final class WebLibrariesTests: XCTestCase {
    func testMapLibreIsServedFromTheInstall() async throws {
        let server = try TestServer.make()
        try await TestServer.withClient(server) { client in
            let script = try await client.execute(uri: "/lib/maplibre-gl.js", method: .get)
            XCTAssertEqual(script.status, .ok, "MapLibre GL JS is not installed: run `make deps` (\(script.errorMessage ?? ""))")
            XCTAssertEqual(script.headers[.contentType], "application/javascript; charset=utf-8")
            let head = String(decoding: Data(buffer: script.body).prefix(200), as: UTF8.self)
            XCTAssertTrue(head.contains("MapLibre GL JS"), head)
            XCTAssertGreaterThan(script.body.readableBytes, 500_000)
            let style = try await client.execute(uri: "/lib/maplibre-gl.css", method: .get)
            XCTAssertEqual(style.status, .ok)
            XCTAssertEqual(style.headers[.contentType], "text/css; charset=utf-8")
            for name in ["other.js", "..%2Fmaplibre-gl.js", "pywidget.js"] {
                let response = try await client.execute(uri: "/lib/" + name, method: .get)
                XCTAssertEqual(response.status, .notFound, name)
            }
        }
    }

    func testWithoutTheInstallTheServerSaysHowToGetIt() async throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("no-web-libraries-\(UUID().uuidString)")
        let libraries = WebLibraries(configured: empty)
        XCTAssertEqual(libraries.folder?.path, WebLibraries.candidates(configured: empty).dropFirst().first {
            FileManager.default.fileExists(atPath: $0.appendingPathComponent("maplibre/srcjs/maplibre-gl.js").path)
        }?.path, "a configured folder without the files is passed over")
        let nothing = WebLibraries(contents: [:], folder: nil)
        do {
            _ = try nothing.response(for: "maplibre-gl.js")
            XCTFail("nothing to serve")
        } catch let error as APIError {
            XCTAssertEqual(error.status, .notFound)
            XCTAssertTrue("\(error)".contains("make deps"), "\(error)")
        }
    }
}
