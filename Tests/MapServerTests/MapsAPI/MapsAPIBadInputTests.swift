import Foundation
import Hummingbird
@testable import MapServer
import XCTest

/// Hostile and mistaken requests to every `/v1` endpoint: each is a 4xx with the Apple error
/// body that says what was wrong, never a 500.
final class MapsAPIBadInputTests: XCTestCase {
    static let long = String(repeating: "a", count: 10_000)
    static let tooLongForAnyParameter = String(repeating: "b", count: QueryParameters.maximumValueLength + 10)
    static let eleven = (0..<11).map { "43.73\($0),7.42" }.joined(separator: "%7C")

    /// (request, expected status).
    static let table: [(String, HTTPResponse.Status)] = [
        // geocode
        ("/v1/geocode", .badRequest),
        ("/v1/geocode?q=", .badRequest),
        ("/v1/geocode?q=%20%20", .badRequest),
        ("/v1/geocode?q=casino%01", .badRequest),
        ("/v1/geocode?q=\(long)", .badRequest),
        ("/v1/geocode?q=\(tooLongForAnyParameter)", .badRequest),
        ("/v1/geocode?q=casino&searchLocation=43.7,7.4&searchRegion=43.8,7.5,43.7,7.4", .badRequest),
        ("/v1/geocode?q=casino&searchLocation=NaN,7.4", .badRequest),
        ("/v1/geocode?q=casino&searchLocation=91,7.4", .badRequest),
        ("/v1/geocode?q=casino&searchRegion=43.7,7.5,43.8,7.4", .badRequest),
        ("/v1/geocode?q=casino&searchRegion=1,2,3", .badRequest),
        ("/v1/geocode?q=casino&userLocation=here", .badRequest),
        ("/v1/geocode?q=casino&limitToCountries=Monaco", .badRequest),
        ("/v1/geocode?q=casino&lang=not%20a%20language", .badRequest),
        ("/v1/geocode?q=casino&region=atlantis", .notFound),
        ("/v1/geocode?q=%E0%A4%A", .badRequest),
        // reverse geocode
        ("/v1/reverseGeocode", .badRequest),
        ("/v1/reverseGeocode?loc=43.7", .badRequest),
        ("/v1/reverseGeocode?loc=inf,7.4", .badRequest),
        ("/v1/reverseGeocode?loc=43.7,181", .badRequest),
        ("/v1/reverseGeocode?loc=43.7,7.4&lang=12", .badRequest),
        // search
        ("/v1/search", .badRequest),
        ("/v1/search?q=cafe&enablePagination=perhaps", .badRequest),
        ("/v1/search?q=cafe&pageToken=garbage", .badRequest),
        ("/v1/search?pageToken=\(PageToken.make(offset: 5000, search: try! QueryParameters(query: "q=cafe")))", .badRequest),
        ("/v1/search?pageToken=\(PageToken.make(offset: 0, search: try! QueryParameters(query: "q=cafe"), now: Date(timeIntervalSinceNow: -7200)))", .badRequest),
        // Signed by this server, but carrying a query that does not parse.
        ("/v1/search?pageToken=\(Base64URL.encode(Array("0.\(Int(Date().timeIntervalSince1970)).q=%%%".utf8)))."
            + AccessTokens.sign(Base64URL.encode(Array("0.\(Int(Date().timeIntervalSince1970)).q=%%%".utf8))), .badRequest),
        ("/v1/search?q=cafe&includePoiCategories=Spaceport", .badRequest),
        ("/v1/search?q=cafe&includePoiCategories=Cafe&excludePoiCategories=Bakery", .badRequest),
        ("/v1/search?q=cafe&resultTypeFilter=Query", .badRequest),
        ("/v1/search?q=cafe&resultTypeFilter=Everything", .badRequest),
        ("/v1/search?q=cafe&searchRegionPriority=always", .badRequest),
        ("/v1/search?q=cafe&searchRegionPriority=required", .badRequest),
        ("/v1/search?q=cafe&includeAddressCategories=Planet", .badRequest),
        ("/v1/search?q=cafe&metadata=%%%", .badRequest),
        ("/v1/search?q=cafe&metadata=bm90LWEtcGxhY2U", .badRequest),
        ("/v1/search?q=cafe&searchLocation=1e400,0", .badRequest),
        // autocomplete
        ("/v1/searchAutocomplete", .badRequest),
        ("/v1/searchAutocomplete?q=\(long)", .badRequest),
        ("/v1/searchAutocomplete?q=ca%00fe", .badRequest),
        ("/v1/searchAutocomplete?q=cafe&resultTypeFilter=Nonsense", .badRequest),
        ("/v1/searchAutocomplete?q=cafe&searchLocation=0,0&searchRegion=1,1,0,0", .badRequest),
        // directions
        ("/v1/directions", .badRequest),
        ("/v1/directions?origin=43.7396,7.4279", .badRequest),
        ("/v1/directions?origin=43.7396,7.4279&destination=NaN,NaN", .badRequest),
        ("/v1/directions?origin=95,7.4279&destination=43.7314,7.4198", .badRequest),
        ("/v1/directions?origin=43.7396,7.4279&destination=43.7314,7.4198&transportType=Teleport", .badRequest),
        ("/v1/directions?origin=43.7396,7.4279&destination=43.7314,7.4198&avoid=Ferries", .badRequest),
        ("/v1/directions?origin=43.7396,7.4279&destination=43.7314,7.4198&departureDate=tomorrow", .badRequest),
        ("/v1/directions?origin=43.7396,7.4279&destination=43.7314,7.4198&departureDate=2026-11-22T10:00:00Z&arrivalDate=2026-11-22T11:00:00Z", .badRequest),
        ("/v1/directions?origin=43.7396,7.4279&destination=43.7314,7.4198&requestsAlternateRoutes=2", .badRequest),
        ("/v1/directions?origin=\(long)&destination=43.7314,7.4198", .badRequest),
        ("/v1/directions?origin=43.7396,7.4279&destination=43.7396,7.4279", .notFound),
        ("/v1/directions?origin=43.7396,7.4279&destination=43.7314,7.4198&transportType=Transit", .notFound),
        // etas
        ("/v1/etas", .badRequest),
        ("/v1/etas?origin=43.7396,7.4279", .badRequest),
        ("/v1/etas?origin=Monaco&destinations=43.7314,7.4198", .badRequest),
        ("/v1/etas?origin=43.7396,7.4279&destinations=\(eleven)", .badRequest),
        ("/v1/etas?origin=43.7396,7.4279&destinations=43.7314,7.4198%7C", .badRequest),
        ("/v1/etas?origin=43.7396,7.4279&destinations=43.7314,7.4198%7Cnan,nan", .badRequest),
        ("/v1/etas?origin=43.7396,7.4279&destinations=43.7314,7.4198&transportType=Rocket", .badRequest),
        ("/v1/etas?origin=43.7396,7.4279&destinations=43.7314,7.4198&arrivalDate=2026-13-45T99:00:00Z", .badRequest),
        ("/v1/etas?origin=43.7396,7.4279&destinations=43.7314,7.4198&departureDate=2026-11-22T10:00:00Z&arrivalDate=2026-11-22T11:00:00Z", .badRequest),
        // places
        ("/v1/place/n999999999999", .notFound),
        ("/v1/place/\(String(repeating: "x", count: 200))", .badRequest),
        ("/v1/place/a%01b", .badRequest),
        ("/v1/place", .badRequest),
        ("/v1/place?ids=", .badRequest),
        ("/v1/place?ids=\((0..<60).map { "n\($0)" }.joined(separator: ","))", .badRequest),
        ("/v1/place/alternateIds", .badRequest),
        ("/v1/place/n1?lang=%%", .badRequest),
    ]

    func testEveryBadRequestIsA4xxWithAnErrorBody() async throws {
        try await TestServer.withClient(try TestServer.make()) { client in
            for (uri, expected) in Self.table {
                let response = try await client.execute(uri: uri, method: .get)
                let label = String(uri.prefix(160))
                XCTAssertEqual(response.status, expected, "\(label) → \(response.status.code) \(response.text.prefix(300))")
                XCTAssertTrue((400..<500).contains(response.status.code), label)
                XCTAssertEqual(response.headers[.contentType], "application/json; charset=utf-8", label)
                let message = response.errorMessage
                XCTAssertNotNil(message, "\(label): no error body")
                XCTAssertFalse(message?.isEmpty ?? true, label)
            }
        }
    }

    /// Query syntax of SQL and of SQLite FTS5 is searched as text: an answer (usually nothing
    /// found), never a failure.
    func testQuerySyntaxInTextIsJustText() async throws {
        let hostile = ["\"casino\" OR 1=1; DROP TABLE places; --", "casino* NEAR(x y, 2)", "\"", "a AND OR NOT b", "{col}: casino",
                       "^casino", "casino' --", "%", "*", "()", "\\"]
        try await TestServer.withClient(try TestServer.make()) { client in
            for text in hostile {
                let q = MapsAPIRoutes.escape(text)
                for endpoint in ["/v1/geocode", "/v1/search", "/v1/searchAutocomplete"] {
                    let response = try await client.execute(uri: "\(endpoint)?q=\(q)", method: .get)
                    XCTAssertEqual(response.status, .ok, "\(endpoint) q=\(text): \(response.text.prefix(300))")
                    XCTAssertNotNil((try? response.json())?["results"] as? [Any], "\(endpoint) q=\(text)")
                }
            }
            // And the index still answers afterwards.
            let after = try await client.execute(uri: "/v1/geocode?q=Place%20du%20Casino", method: .get)
            XCTAssertFalse((try after.json()["results"] as? [Any] ?? []).isEmpty)
        }
    }
}
