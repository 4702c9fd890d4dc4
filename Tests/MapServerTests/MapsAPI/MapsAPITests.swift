import Foundation
import Hummingbird
@testable import MapServer
import XCTest

/// The `/v1` Apple Maps Server API over the real Monaco bundle.
final class MapsAPITests: XCTestCase {
    /// The Casino de Monte-Carlo and the Prince's Palace.
    static let casino = (latitude: 43.7396, longitude: 7.4279)
    static let palace = (latitude: 43.7314, longitude: 7.4198)

    static func metres(_ a: (latitude: Double, longitude: Double), _ b: (latitude: Double, longitude: Double)) -> Double {
        let dLat = (a.latitude - b.latitude) * 111_320
        let dLon = (a.longitude - b.longitude) * 111_320 * cos(a.latitude * .pi / 180)
        return (dLat * dLat + dLon * dLon).squareRoot()
    }

    static func coordinate(_ object: Any?) -> (latitude: Double, longitude: Double)? {
        guard let object = object as? [String: Any], let lat = object["latitude"] as? Double, let lon = object["longitude"] as? Double else { return nil }
        return (lat, lon)
    }

    static func get(_ client: RouterClient, _ uri: String, headers: HTTPFields = [:]) async throws -> TestResponse {
        try await client.execute(uri: uri, method: .get, headers: headers)
    }

    func testGeocodeFindsPlaceDuCasino() async throws {
        try await TestServer.withClient(try TestServer.make()) { client in
            let response = try await Self.get(client, "/v1/geocode?q=Place%20du%20Casino&lang=fr-FR")
            XCTAssertEqual(response.status, .ok, response.text)
            let results = try XCTUnwrap(try response.json()["results"] as? [[String: Any]])
            let first = try XCTUnwrap(results.first, "no result for Place du Casino")
            let c = try XCTUnwrap(Self.coordinate(first["coordinate"]))
            XCTAssertLessThan(Self.metres(c, Self.casino), 400, "Place du Casino geocoded at \(c)")
            XCTAssertEqual(first["countryCode"] as? String, "MC")
            XCTAssertNotNil(first["id"] as? String)
            XCTAssertFalse((first["formattedAddressLines"] as? [String] ?? []).isEmpty)
            let region = try XCTUnwrap(first["displayMapRegion"] as? [String: Double])
            XCTAssertLessThan(region["southLatitude"]!, c.latitude)
            XCTAssertGreaterThan(region["northLatitude"]!, c.latitude)
            XCTAssertLessThan(region["westLongitude"]!, c.longitude)
            XCTAssertGreaterThan(region["eastLongitude"]!, c.longitude)
            XCTAssertNotNil(first["structuredAddress"] as? [String: Any])
        }
    }

    func testGeocodeThatFindsNothingIsAnEmptyList() async throws {
        try await TestServer.withClient(try TestServer.make()) { client in
            let response = try await Self.get(client, "/v1/geocode?q=Qwxzv%20Plkjhg%20Zzyzx")
            XCTAssertEqual(response.status, .ok, response.text)
            XCTAssertEqual((try response.json()["results"] as? [Any])?.count, 0)
            // Only French places asked for: Monaco's casino is not one.
            let france = try await Self.get(client, "/v1/geocode?q=Place%20du%20Casino&limitToCountries=FR")
            XCTAssertEqual(france.status, .ok, france.text)
            let results = try XCTUnwrap(try france.json()["results"] as? [[String: Any]])
            XCTAssertTrue(results.allSatisfy { $0["countryCode"] as? String == "FR" }, "\(results)")
        }
    }

    func testReverseGeocodeNearTheCasino() async throws {
        try await TestServer.withClient(try TestServer.make()) { client in
            let response = try await Self.get(client, "/v1/reverseGeocode?loc=43.7396,7.4281")
            XCTAssertEqual(response.status, .ok, response.text)
            let results = try XCTUnwrap(try response.json()["results"] as? [[String: Any]])
            let first = try XCTUnwrap(results.first)
            XCTAssertEqual(first["countryCode"] as? String, "MC")
            let c = try XCTUnwrap(Self.coordinate(first["coordinate"]))
            XCTAssertLessThan(Self.metres(c, (43.7396, 7.4281)), 300)
            let address = try XCTUnwrap(first["structuredAddress"] as? [String: Any])
            XCTAssertNotNil(address["thoroughfare"] ?? address["locality"], "\(address)")
        }
    }

    /// Without `lang`, geocoding answers in the `Accept-Language` header's preferred language.
    func testReverseGeocodeAnswersInTheAcceptLanguage() async throws {
        XCTAssertEqual(SearchParameters.acceptLanguage("fr;q=0.2, ja-JP;q=0.9, *;q=0.5")?.identifier, "ja-JP")
        XCTAssertEqual(SearchParameters.acceptLanguage("sv")?.identifier, "sv")
        XCTAssertNil(SearchParameters.acceptLanguage("*, 12;q=1, en;q=0"))
        XCTAssertNil(SearchParameters.acceptLanguage(nil))
        try await TestServer.withClient(try TestServer.make()) { client in
            var headers = HTTPFields()
            headers[.acceptLanguage] = "ja-JP, en;q=0.5"
            let response = try await Self.get(client, "/v1/reverseGeocode?loc=43.7396,7.4281", headers: headers)
            XCTAssertEqual(response.status, .ok, response.text)
            let first = try XCTUnwrap((try response.json()["results"] as? [[String: Any]])?.first)
            XCTAssertEqual(first["country"] as? String, Locale(identifier: "ja").localizedString(forRegionCode: "MC"))
        }
    }

    /// Search answers in `lang`, else in the `Accept-Language` header's language, else as tagged.
    func testSearchAnswersInTheRequestedLanguage() async throws {
        try await TestServer.withClient(try TestServer.make()) { client in
            func country(_ uri: String, _ headers: HTTPFields = [:]) async throws -> String? {
                let response = try await Self.get(client, uri, headers: headers)
                XCTAssertEqual(response.status, .ok, response.text)
                return try XCTUnwrap((try response.json()["results"] as? [[String: Any]])?.first)["country"] as? String
            }
            let german = try await country("/v1/search?q=Place%20du%20Casino&lang=de")
            XCTAssertEqual(german, "Monaco")
            let japanese = try await country("/v1/search?q=Place%20du%20Casino&lang=ja")
            XCTAssertEqual(japanese, Locale(identifier: "ja").localizedString(forRegionCode: "MC"))
            var headers = HTTPFields()
            headers[.acceptLanguage] = "ru, en;q=0.5"
            let russian = try await country("/v1/search?q=Place%20du%20Casino", headers)
            XCTAssertEqual(russian, Locale(identifier: "ru").localizedString(forRegionCode: "MC"))
            XCTAssertNotEqual(Locale(identifier: "ru").localizedString(forRegionCode: "MC"), "Monaco", "the test needs a language that writes Monaco otherwise")
        }
    }

    func testSearchPagesThroughResultsWithSignedTokens() async throws {
        try await TestServer.withClient(try TestServer.make()) { client in
            let first = try await Self.get(client, "/v1/search?q=restaurant&enablePagination=true&searchLocation=43.7396,7.4279")
            XCTAssertEqual(first.status, .ok, first.text)
            let body = try first.json()
            let info = try XCTUnwrap(body["paginationInfo"] as? [String: Any])
            let total = try XCTUnwrap(info["totalResults"] as? Int)
            XCTAssertGreaterThan(total, MapsAPIRoutes.pageSize, "Monaco has more than a page of restaurants")
            XCTAssertEqual(info["totalPageCount"] as? Int, (total + MapsAPIRoutes.pageSize - 1) / MapsAPIRoutes.pageSize)
            XCTAssertNil(info["prevPageToken"])
            let page1 = try XCTUnwrap(body["results"] as? [[String: Any]])
            XCTAssertEqual(page1.count, MapsAPIRoutes.pageSize)
            XCTAssertNotNil(body["displayMapRegion"] as? [String: Any])
            let next = try XCTUnwrap(info["nextPageToken"] as? String)

            let second = try await Self.get(client, "/v1/search?q=restaurant&enablePagination=true&searchLocation=43.7396,7.4279&pageToken=\(next)")
            XCTAssertEqual(second.status, .ok, second.text)
            let body2 = try second.json()
            let page2 = try XCTUnwrap(body2["results"] as? [[String: Any]])
            XCTAssertFalse(page2.isEmpty)
            let ids1 = Set(page1.compactMap { $0["id"] as? String }), ids2 = Set(page2.compactMap { $0["id"] as? String })
            XCTAssertTrue(ids1.isDisjoint(with: ids2), "page 2 repeats page 1")
            XCTAssertNotNil((body2["paginationInfo"] as? [String: Any])?["prevPageToken"] as? String)

            // The token alone, as Apple's API has clients send it, is the same page; and page 3 by
            // token alone follows it.
            let alone = try await Self.get(client, "/v1/search?pageToken=\(next)")
            XCTAssertEqual(alone.status, .ok, alone.text)
            XCTAssertEqual(try XCTUnwrap(try alone.json()["results"] as? [[String: Any]]).compactMap { $0["id"] as? String },
                           page2.compactMap { $0["id"] as? String })
            if let third = (body2["paginationInfo"] as? [String: Any])?["nextPageToken"] as? String {
                let page3 = try await Self.get(client, "/v1/search?pageToken=\(third)")
                XCTAssertEqual(page3.status, .ok, page3.text)
                let ids3 = Set(try XCTUnwrap(try page3.json()["results"] as? [[String: Any]]).compactMap { $0["id"] as? String })
                XCTAssertTrue(ids3.isDisjoint(with: ids1.union(ids2)), "page 3 repeats an earlier page")
            }
            let expired = PageToken.make(offset: MapsAPIRoutes.pageSize, search: try QueryParameters(query: "q=restaurant&enablePagination=true"),
                                         now: Date(timeIntervalSinceNow: -PageToken.lifetime - 60))
            let late = try await Self.get(client, "/v1/search?pageToken=\(expired)")
            XCTAssertEqual(late.status, .badRequest)
            XCTAssertTrue(late.errorMessage?.contains("expired") == true, late.text)

            // The token belongs to that search: another query, or an altered token, is refused.
            let other = try await Self.get(client, "/v1/search?q=cafe&enablePagination=true&searchLocation=43.7396,7.4279&pageToken=\(next)")
            XCTAssertEqual(other.status, .badRequest)
            XCTAssertTrue(other.errorMessage?.contains("different search") == true, other.text)
            var forged = Array(next)
            forged[0] = forged[0] == "A" ? "B" : "A"
            let altered = try await Self.get(client, "/v1/search?q=restaurant&enablePagination=true&searchLocation=43.7396,7.4279&pageToken=\(String(forged))")
            XCTAssertEqual(altered.status, .badRequest)
        }
    }

    func testSearchFiltersByPoiCategoryAndResultType() async throws {
        try await TestServer.withClient(try TestServer.make()) { client in
            let museums = try await Self.get(client, "/v1/search?q=museum&resultTypeFilter=PointOfInterest&includePoiCategories=Museum")
            XCTAssertEqual(museums.status, .ok, museums.text)
            let found = try XCTUnwrap(try museums.json()["results"] as? [[String: Any]])
            XCTAssertFalse(found.isEmpty, "Monaco has museums")
            XCTAssertTrue(found.allSatisfy { $0["poiCategory"] as? String == "Museum" }, "\(found)")

            let excluded = try await Self.get(client, "/v1/search?q=museum&resultTypeFilter=PointOfInterest&excludePoiCategories=museum")
            XCTAssertEqual(excluded.status, .ok, excluded.text)
            let rest = try XCTUnwrap(try excluded.json()["results"] as? [[String: Any]])
            XCTAssertFalse(rest.contains { $0["poiCategory"] as? String == "Museum" }, "\(rest)")

            let addresses = try await Self.get(client, "/v1/search?q=Boulevard%20des%20Moulins&resultTypeFilter=Address")
            XCTAssertEqual(addresses.status, .ok, addresses.text)
            let streets = try XCTUnwrap(try addresses.json()["results"] as? [[String: Any]])
            XCTAssertFalse(streets.isEmpty)
            XCTAssertTrue(streets.allSatisfy { $0["poiCategory"] == nil }, "\(streets)")
        }
    }

    func testAutocompleteCompletionURLReturnsThatPlaceFirst() async throws {
        try await TestServer.withClient(try TestServer.make()) { client in
            let response = try await Self.get(client, "/v1/searchAutocomplete?q=casino&searchLocation=43.7396,7.4279")
            XCTAssertEqual(response.status, .ok, response.text)
            let results = try XCTUnwrap(try response.json()["results"] as? [[String: Any]])
            XCTAssertFalse(results.isEmpty)
            for result in results {
                let url = try XCTUnwrap(result["completionUrl"] as? String)
                XCTAssertTrue(url.hasPrefix("/v1/search?"), url)
                XCTAssertFalse((result["displayLines"] as? [String] ?? []).isEmpty)
            }
            let places = results.filter { $0["location"] != nil }
            XCTAssertFalse(places.isEmpty, "no place completions for casino")
            for completion in places.prefix(3) {
                let location = try XCTUnwrap(Self.coordinate(completion["location"]))
                let url = try XCTUnwrap(completion["completionUrl"] as? String)
                XCTAssertTrue(url.contains("metadata="), url)
                let search = try await Self.get(client, url)
                XCTAssertEqual(search.status, .ok, search.text)
                let first = try XCTUnwrap((try search.json()["results"] as? [[String: Any]])?.first)
                let c = try XCTUnwrap(Self.coordinate(first["coordinate"]))
                XCTAssertLessThan(Self.metres(c, location), 1, "\(url) did not return its place first")
                XCTAssertEqual(first["name"] as? String, (completion["displayLines"] as? [String])?.first)
            }
        }
    }

    /// Checks Apple's indexing: routes → steps → stepPaths, each path starting where the last ended.
    private static func checkChained(_ body: [String: Any], file: StaticString = #filePath, line: UInt = #line) throws -> [[String: Any]] {
        let routes = try XCTUnwrap(body["routes"] as? [[String: Any]], file: file, line: line)
        let steps = try XCTUnwrap(body["steps"] as? [[String: Any]], file: file, line: line)
        let paths = try XCTUnwrap(body["stepPaths"] as? [[[String: Double]]], file: file, line: line)
        XCTAssertFalse(routes.isEmpty, file: file, line: line)
        for route in routes {
            let indexes = try XCTUnwrap(route["stepIndexes"] as? [Int], file: file, line: line)
            XCTAssertGreaterThan(indexes.count, 1, file: file, line: line)
            var previousEnd: [String: Double]?
            var stepDistance = 0
            for index in indexes {
                XCTAssertTrue(steps.indices.contains(index), "step index \(index) out of range", file: file, line: line)
                let step = steps[index]
                let pathIndex = try XCTUnwrap(step["stepPathIndex"] as? Int, file: file, line: line)
                XCTAssertTrue(paths.indices.contains(pathIndex), file: file, line: line)
                let path = paths[pathIndex]
                XCTAssertFalse(path.isEmpty, file: file, line: line)
                if let previousEnd, let start = path.first {
                    XCTAssertEqual(start["latitude"]!, previousEnd["latitude"]!, accuracy: 1e-9, file: file, line: line)
                    XCTAssertEqual(start["longitude"]!, previousEnd["longitude"]!, accuracy: 1e-9, file: file, line: line)
                }
                previousEnd = path.last
                stepDistance += step["distanceMeters"] as? Int ?? 0
            }
            let distance = try XCTUnwrap(route["distanceMeters"] as? Int, file: file, line: line)
            XCTAssertGreaterThan(distance, 0, file: file, line: line)
            XCTAssertEqual(Double(stepDistance), Double(distance), accuracy: Double(distance) * 0.05 + Double(indexes.count), file: file, line: line)
            XCTAssertGreaterThan(route["durationSeconds"] as? Int ?? 0, 0, file: file, line: line)
            XCTAssertNotNil(route["hasTolls"] as? Bool, file: file, line: line)
        }
        return routes
    }

    func testDirectionsBetweenTwoMonacoPointsChainTheirStepPaths() async throws {
        try await TestServer.withClient(try TestServer.make()) { client in
            let walking = try await Self.get(client, "/v1/directions?origin=43.7396,7.4279&destination=43.7314,7.4198&transportType=Walking")
            XCTAssertEqual(walking.status, .ok, walking.text)
            let body = try walking.json()
            let routes = try Self.checkChained(body)
            XCTAssertEqual(routes[0]["transportType"] as? String, "Walking")
            let distance = try XCTUnwrap(routes[0]["distanceMeters"] as? Int)
            XCTAssertGreaterThan(Double(distance), Self.metres(Self.casino, Self.palace), "a route is longer than the straight line")
            XCTAssertLessThan(Double(distance), 3 * Self.metres(Self.casino, Self.palace))
            XCTAssertEqual((body["origin"] as? [String: Any])?["countryCode"] as? String, "MC")
            XCTAssertNotNil(Self.coordinate((body["destination"] as? [String: Any])?["coordinate"]))

            let driving = try await Self.get(client, "/v1/directions?origin=Place%20du%20Casino&destination=43.7314,7.4198&requestsAlternateRoutes=true&departureDate=2026-11-22T10:00:00Z&avoid=Tolls")
            XCTAssertEqual(driving.status, .ok, driving.text)
            let drivingRoutes = try Self.checkChained(try driving.json())
            XCTAssertEqual(drivingRoutes[0]["transportType"] as? String, "Automobile")
            XCTAssertLessThanOrEqual(drivingRoutes.count, 3)
        }
    }

    func testDirectionsWithoutARouteAre404() async throws {
        try await TestServer.withClient(try TestServer.make()) { client in
            // Far out in the Mediterranean.
            let response = try await Self.get(client, "/v1/directions?origin=43.7396,7.4279&destination=43.2,7.9")
            XCTAssertEqual(response.status, .notFound, response.text)
            XCTAssertNotNil(response.errorMessage)
            let unknown = try await Self.get(client, "/v1/directions?origin=Qwxzv%20Plkjhg&destination=43.7314,7.4198")
            XCTAssertEqual(unknown.status, .notFound, unknown.text)
            XCTAssertTrue(unknown.errorMessage?.contains("origin") == true, unknown.text)
        }
    }

    func testEtasToThreeDestinations() async throws {
        try await TestServer.withClient(try TestServer.make()) { client in
            let destinations = "43.7314,7.4198%7C43.7380,7.4240%7C43.7450,7.4330"
            let response = try await Self.get(client, "/v1/etas?origin=43.7396,7.4279&destinations=\(destinations)&transportType=Walking")
            XCTAssertEqual(response.status, .ok, response.text)
            let etas = try XCTUnwrap(try response.json()["etas"] as? [[String: Any]])
            XCTAssertEqual(etas.count, 3)
            let expected = [(43.7314, 7.4198), (43.7380, 7.4240), (43.7450, 7.4330)]
            for (eta, target) in zip(etas, expected) {
                let destination = try XCTUnwrap(Self.coordinate(eta["destination"]))
                XCTAssertEqual(destination.latitude, target.0, accuracy: 1e-9)
                XCTAssertEqual(destination.longitude, target.1, accuracy: 1e-9)
                XCTAssertEqual(eta["transportType"] as? String, "Walking")
                let distance = try XCTUnwrap(eta["distanceMeters"] as? Int)
                XCTAssertGreaterThan(Double(distance), Self.metres(Self.casino, (target.0, target.1)) * 0.9)
                let expectedTime = try XCTUnwrap(eta["expectedTravelTimeSeconds"] as? Int)
                XCTAssertGreaterThan(expectedTime, 0)
                XCTAssertEqual(eta["staticTravelTimeSeconds"] as? Int, expectedTime, "no traffic data: static equals expected")
                // Walking pace, roughly 3–7 km/h.
                XCTAssertGreaterThan(Double(expectedTime), Double(distance) / 2.0)
                XCTAssertLessThan(Double(expectedTime), Double(distance) / 0.8)
            }
        }
    }

    func testPlaceLookupsByID() async throws {
        try await TestServer.withClient(try TestServer.make()) { client in
            let geocoded = try await Self.get(client, "/v1/geocode?q=Place%20du%20Casino")
            let first = try XCTUnwrap((try geocoded.json()["results"] as? [[String: Any]])?.first)
            let id = try XCTUnwrap(first["id"] as? String)

            let place = try await Self.get(client, "/v1/place/\(id)")
            XCTAssertEqual(place.status, .ok, place.text)
            let body = try place.json()
            XCTAssertEqual(body["id"] as? String, id)
            XCTAssertEqual(body["name"] as? String, first["name"] as? String)

            let missing = try await Self.get(client, "/v1/place/n999999999999")
            XCTAssertEqual(missing.status, .notFound)
            XCTAssertNotNil(missing.errorMessage)

            let many = try await Self.get(client, "/v1/place?ids=\(id),n999999999999,bad%20id")
            XCTAssertEqual(many.status, .ok, many.text)
            let manyBody = try many.json()
            XCTAssertEqual((manyBody["places"] as? [[String: Any]])?.compactMap { $0["id"] as? String }, [id])
            let errors = try XCTUnwrap(manyBody["errors"] as? [[String: String]])
            XCTAssertEqual(errors, [["id": "n999999999999", "errorCode": "FAILED_NOT_FOUND"], ["id": "bad id", "errorCode": "FAILED_INVALID_ID"]])

            let alternates = try await Self.get(client, "/v1/place/alternateIds?ids=\(id)")
            XCTAssertEqual(alternates.status, .ok, alternates.text)
            let results = try XCTUnwrap(try alternates.json()["results"] as? [[String: Any]])
            XCTAssertEqual(results.first?["id"] as? String, id)
            XCTAssertNotNil(results.first?["alternateIds"] as? [String])
        }
    }

    func testTokenOnAnOpenServer() async throws {
        try await TestServer.withClient(try TestServer.make()) { client in
            let response = try await Self.get(client, "/v1/token")
            XCTAssertEqual(response.status, .ok, response.text)
            let body = try response.json()
            XCTAssertEqual(body["expiresInSeconds"] as? Int, 1800)
            let token = try XCTUnwrap(body["accessToken"] as? String)
            guard case .valid(_, let expires) = AccessTokens.verify(token) else { return XCTFail("the token does not verify") }
            XCTAssertEqual(expires.timeIntervalSinceNow, 1800, accuracy: 5)
        }
    }
}
