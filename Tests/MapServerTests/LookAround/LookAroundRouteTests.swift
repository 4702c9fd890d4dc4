import Foundation
import Hummingbird
@testable import MapServer
import OpenMapKit
import XCTest

/// `/api/v1/lookaround` over the Monaco sample: a street's picture as a PNG, two headings two
/// pictures, 404 at sea, 400 naming the parameter for bad input.
final class LookAroundRouteTests: XCTestCase {
    static let street = "43.73895,7.42630"

    func testAStreetIsAPictureAndTheSeaIsNotFound() async throws {
        let server = try TestServer.make()
        try await TestServer.withClient(server) { client in
            let north = try await client.execute(uri: "/api/v1/lookaround?coordinate=\(Self.street)&heading=0&size=320x200", method: .get)
            let image = try SnapshotTests.image(north)
            XCTAssertEqual(image.pixelSize.width, 320)
            XCTAssertEqual(image.pixelSize.height, 200)
            XCTAssertGreaterThan(SnapshotTests.variance(SnapshotTests.luminances(image)), 0.002, "not one flat colour")
            let south = try await client.execute(uri: "/api/v1/lookaround?coordinate=\(Self.street)&heading=180&size=320x200", method: .get)
            XCTAssertNotEqual(Data(buffer: north.body), Data(buffer: south.body), "two headings, two pictures")
            // The same URL again is the cached picture, with its ETag.
            let again = try await client.execute(uri: "/api/v1/lookaround?coordinate=\(Self.street)&heading=0&size=320x200", method: .get)
            XCTAssertEqual(Data(buffer: again.body), Data(buffer: north.body))
            XCTAssertEqual(again.headers[.eTag], north.headers[.eTag])

            let sea = try await client.execute(uri: "/api/v1/lookaround?coordinate=43.7300,7.4450", method: .get)
            XCTAssertEqual(sea.status, .notFound)
            XCTAssertTrue(sea.errorMessage?.contains("no Look Around") == true, sea.errorMessage ?? "")
        }
    }

    func testSceneQueryAnswersWhereAPictureExists() async throws {
        let server = try TestServer.make()
        try await TestServer.withClient(server) { client in
            let street = try await client.execute(uri: "/api/v1/lookaround/scene?coordinate=\(Self.street)", method: .get)
            XCTAssertEqual(street.status, .ok)
            let scene = try XCTUnwrap(try street.json()["scene"] as? [String: Any])
            let coordinate = try XCTUnwrap(scene["coordinate"] as? [String: Double])
            XCTAssertEqual(coordinate["latitude"] ?? 0, 43.73895, accuracy: 0.0005)
            XCTAssertNotNil(scene["heading"] as? Double)
            let sea = try await client.execute(uri: "/api/v1/lookaround/scene?coordinate=43.7300,7.4450", method: .get)
            XCTAssertEqual(sea.status, .ok)
            XCTAssertTrue(try sea.json()["scene"] is NSNull)
            // A place is seen from the street in front of it, farther than a point's 50 m (the
            // beach of the scene request's own test).
            let place = try await client.execute(uri: "/api/v1/lookaround/scene?coordinate=43.733837,7.429302&place=true", method: .get)
            let placeScene = try XCTUnwrap(try place.json()["scene"] as? [String: Any])
            XCTAssertGreaterThan(placeScene["distance"] as? Double ?? 0, 4, "off the street, looking at the place")
            let picture = try await client.execute(uri: "/api/v1/lookaround?coordinate=43.733837,7.429302&place=true&size=160x100", method: .get)
            XCTAssertEqual(try SnapshotTests.image(picture).pixelSize.width, 160)
            let bad = try await client.execute(uri: "/api/v1/lookaround/scene?coordinate=43.7,7.4&place=maybe", method: .get)
            XCTAssertEqual(bad.status, .badRequest)
        }
    }

    func testBadParametersAreBadRequests() async throws {
        let server = try TestServer.make()
        try await TestServer.withClient(server) { client in
            let cases = [("", "coordinate"), ("coordinate=nan,7.4", "coordinate"), ("coordinate=91,7.4", "coordinate"),
                         ("coordinate=\(Self.street)&heading=400", "heading"), ("coordinate=\(Self.street)&heading=-5", "heading"),
                         ("coordinate=\(Self.street)&fov=5", "fov"), ("coordinate=\(Self.street)&pitch=80", "pitch"),
                         ("coordinate=\(Self.street)&size=5000x5000", "size"), ("coordinate=\(Self.street)&size=abc", "size"),
                         ("coordinate=\(Self.street)&colorScheme=purple", "colorScheme")]
            for (query, parameter) in cases {
                let response = try await client.execute(uri: "/api/v1/lookaround?" + query, method: .get)
                XCTAssertEqual(response.status, .badRequest, query)
                XCTAssertTrue(response.errorMessage?.contains(parameter) == true, "\(query): \(response.errorMessage ?? "")")
            }
        }
    }
}
