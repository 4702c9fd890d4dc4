import Foundation
import Hummingbird
@testable import MapServer
import OpenMapKit
import TestSupport
import XCTest

/// `/mapkit.js`, the self-hosted MapKit JS: the file as served, the points-of-interest endpoint it
/// calls, and a MapKit JS sample page (Browser/mapkitjs-sample.html, written as Apple's samples
/// are) driven in Debian's headless Chromium from another origin than the server
/// (Browser/drive_mapkitjs.py), with and without an API key.
final class MapKitJSBrowserTests: XCTestCase {
    // MARK: The file

    func testScriptIsServedWithTypeValidatorAndCORS() async throws {
        let server = try TestServer.make { $0.corsAllowedOrigins = ["https://example.com"] }
        try await TestServer.withClient(server) { client in
            let script = try await client.execute(uri: "/mapkit.js", method: .get, headers: [.origin: "https://example.com"])
            XCTAssertEqual(script.status, .ok)
            XCTAssertEqual(script.headers[.contentType], "text/javascript; charset=utf-8")
            XCTAssertEqual(script.headers[.cacheControl], "no-cache")
            XCTAssertEqual(script.headers[.accessControlAllowOrigin], "https://example.com", "a page on an allowed origin may load it with crossorigin")
            XCTAssertTrue(script.text.contains("window.mapkit = mapkit"), "\(script.text.prefix(200))")
            XCTAssertTrue(script.text.contains("Not supported"), "the unsupported members are listed at the top")
            // The category table is filled in from OpenMapKit's.
            XCTAssertFalse(script.text.contains(MapKitJSRoutes.categoryTablePlaceholder))
            let cafe = MKPointOfInterestCategory.cafe.openMapTilesClasses.map { "\"\($0)\"" }.joined(separator: ",")
            XCTAssertTrue(script.text.contains("\"Cafe\":[[\(cafe)]"), "\(cafe)")
            let etag = try XCTUnwrap(script.headers[.eTag])
            let again = try await client.execute(uri: "/mapkit.js", method: .get, headers: [.ifNoneMatch: etag])
            XCTAssertEqual(again.status, .notModified)
            XCTAssertEqual(again.body.readableBytes, 0)
            let other = try await client.execute(uri: "/mapkit.js", method: .get, headers: [.ifNoneMatch: "\"something-else\""])
            XCTAssertEqual(other.status, .ok)
        }
    }

    /// With keys, the script itself stays open (a page must load it before it has a token).
    func testScriptNeedsNoKey() async throws {
        let server = try TestServer.make { $0.apiKeys = [APIKey(key: "k")] }
        try await TestServer.withClient(server) { client in
            let script = try await client.execute(uri: "/mapkit.js", method: .get)
            XCTAssertEqual(script.status, .ok)
        }
    }

    /// Without a CORS policy any page may still load the script (with `crossorigin` too); the API
    /// stays same-origin.
    func testScriptLoadsAnywhereButTheAPIFollowsTheCORSPolicy() async throws {
        let server = try TestServer.make()
        try await TestServer.withClient(server) { client in
            let script = try await client.execute(uri: "/mapkit.js", method: .get, headers: [.origin: "https://elsewhere.example"])
            XCTAssertEqual(script.headers[.accessControlAllowOrigin], "*")
            let search = try await client.execute(uri: "/v1/search?q=Casino", method: .get, headers: [.origin: "https://elsewhere.example"])
            XCTAssertEqual(search.status, .ok)
            XCTAssertNil(search.headers[.accessControlAllowOrigin])
        }
    }

    // MARK: /v1/searchPointsOfInterest (PointsOfInterestSearch)

    func testPointsOfInterestAroundAPointAreFilteredAndWithinTheRadius() async throws {
        let server = try TestServer.make()
        try await TestServer.withClient(server) { client in
            let response = try await client.execute(uri: "/v1/searchPointsOfInterest?center=43.7384,7.4246&radius=400&includePoiCategories=Cafe,Restaurant",
                                                    method: .get)
            XCTAssertEqual(response.status, .ok, response.text)
            let results = try XCTUnwrap(try response.json()["results"] as? [[String: Any]])
            XCTAssertFalse(results.isEmpty, "Monte-Carlo has cafés and restaurants within 400 m of 43.7384,7.4246")
            var previous = 0.0
            for place in results {
                XCTAssertTrue(["Cafe", "Restaurant"].contains(place["poiCategory"] as? String ?? ""), "\(place)")
                let c = try XCTUnwrap(place["coordinate"] as? [String: Double])
                let distance = Self.metres(43.7384, 7.4246, c["latitude"] ?? 0, c["longitude"] ?? 0)
                XCTAssertLessThanOrEqual(distance, 401, "\(place["name"] ?? "")")
                XCTAssertGreaterThanOrEqual(distance, previous - 1, "nearest first")
                previous = distance
            }
            // A region instead of a circle; an excluding filter.
            let inRegion = try await client.execute(uri: "/v1/searchPointsOfInterest?searchRegion=43.745,7.435,43.730,7.415&excludePoiCategories=Restaurant",
                                                    method: .get)
            XCTAssertEqual(inRegion.status, .ok, inRegion.text)
            let places = try XCTUnwrap(try inRegion.json()["results"] as? [[String: Any]])
            XCTAssertFalse(places.isEmpty)
            XCTAssertFalse(places.contains { $0["poiCategory"] as? String == "Restaurant" })
            // Nothing there: 200 with no results, as Apple's searches.
            let sea = try await client.execute(uri: "/v1/searchPointsOfInterest?center=43.60,7.60&radius=100", method: .get)
            XCTAssertEqual(sea.status, .ok)
            XCTAssertEqual((try sea.json()["results"] as? [Any])?.count, 0)
        }
    }

    func testPointsOfInterestRefuseAmbiguousOrMissingAreas() async throws {
        let server = try TestServer.make()
        try await TestServer.withClient(server) { client in
            for uri in ["/v1/searchPointsOfInterest", "/v1/searchPointsOfInterest?center=43.7,7.4&searchRegion=43.745,7.435,43.730,7.415",
                        "/v1/searchPointsOfInterest?searchRegion=43.745,7.435,43.730,7.415&radius=100",
                        "/v1/searchPointsOfInterest?center=43.7,7.4&radius=-5", "/v1/searchPointsOfInterest?center=43.7,7.4&includePoiCategories=Unicorn"] {
                let response = try await client.execute(uri: uri, method: .get)
                XCTAssertEqual(response.status, .badRequest, uri)
                XCTAssertNotNil(response.errorMessage, uri)
            }
        }
    }

    // MARK: The sample page in a browser

    /// The sample page, served from another origin (the server allows any with CORS), draws
    /// Monaco with markers, overlays and imported GeoJSON, runs every service and reacts to clicks
    /// (select, deselect, single-tap, long-press) and to setRegionAnimated; then the driver calls
    /// the API as a page would: the user's location, map types, label filters, camera, showItems,
    /// conversions, geometry, clustering and collisions, restyling, a second map, the dark scheme.
    func testMapKitJSSampleInHeadlessChromium() async throws {
        guard Self.hasMapLibre() else { return }
        let server = try TestServer.make { $0.port = 0; $0.corsAllowedOrigins = ["*"] }
        guard let (report, _) = try await BrowserDriver.drive("drive_mapkitjs.py", server, screenshots: "openmapkit-mapkitjs-screenshots",
                                                             arguments: []) else { return }
        XCTAssertEqual(report["problems"] as? [String], [], "console errors, exceptions or failed loads in the page")
        let shots = report["screenshots"] as? [String: String] ?? [:]
        let initial = report["initial"] as? [String: Any] ?? [:]
        XCTAssertEqual(initial["errors"] as? [String], [], "a service failed")

        // Another origin than the API's, and the script from the server.
        let pageOrigin = initial["pageOrigin"] as? String ?? ""
        let scriptSrc = initial["scriptSrc"] as? String ?? ""
        XCTAssertTrue(scriptSrc.hasSuffix("/mapkit.js"), scriptSrc)
        XCTAssertFalse(pageOrigin.isEmpty || scriptSrc.hasPrefix(pageOrigin), "\(pageOrigin) \(scriptSrc)")

        // The map is drawn, says whose data it is, opens on the region asked for.
        let map = try Screenshot(shots["mapkitjs-01-map"])
        XCTAssertGreaterThan(map.distinctColors(), 200, "the map looks blank")
        XCTAssertEqual(initial["attribution"] as? String, "© OpenStreetMap contributors")
        let region = initial["region"] as? [String: Double] ?? [:]
        XCTAssertEqual(region["latitude"] ?? 0, 43.7375, accuracy: 0.003)
        XCTAssertEqual(region["longitude"] ?? 0, 7.4215, accuracy: 0.003)
        XCTAssertGreaterThanOrEqual(region["latitudeDelta"] ?? 0, 0.022 * 0.95, "the region asked for fits in the map")
        XCTAssertEqual(initial["annotations"] as? [String], ["Casino de Monte-Carlo", "Palais Princier", "Port Hercule"])
        // The casino's marker and the stadium's from GeoJSON.
        XCTAssertEqual(initial["markers"] as? Int, 2)
        XCTAssertEqual(initial["geojson"] as? [String], ["MarkerAnnotation Stade Louis II", "PolylineOverlay Quai Antoine 1er"])
        // Four overlays (circle and polygon with fill and line, the polyline and GeoJSON's line) and the route.
        XCTAssertEqual(initial["overlayLayers"] as? Int, 7)
        XCTAssertEqual(initial["cancelReturned"] as? Bool, true)
        XCTAssertNil(initial["cancelledAnswered"], "a cancelled search answered")
        XCTAssertTrue((initial["events"] as? [String] ?? []).contains("configuration-change Initialized"))

        // Search: Place fields as MapKit JS names them.
        let places = initial["search"] as? [[String: Any]] ?? []
        let casino = try XCTUnwrap(places.first { ($0["name"] as? String ?? "").contains("Casino") }, "\(places.prefix(3))")
        XCTAssertEqual(casino["countryCode"] as? String, "MC")
        XCTAssertEqual(casino["country"] as? String, "Monaco")
        XCTAssertTrue((casino["formattedAddress"] as? String ?? "").contains("Monaco"), "\(casino)")
        XCTAssertNotNil(casino["pointOfInterestCategory"] as? String)
        XCTAssertNotNil(casino["id"] as? String)
        XCTAssertEqual(casino["latitude"] as? Double ?? 0, 43.739, accuracy: 0.01)
        // Autocomplete.
        let completions = initial["autocomplete"] as? [[String: Any]] ?? []
        XCTAssertTrue(completions.contains { (($0["displayLines"] as? [String])?.first ?? "").localizedCaseInsensitiveContains("casino") }, "\(completions)")
        // The first place looked up again by its id.
        let lookedUp = initial["placeLookup"] as? [String: Any] ?? [:]
        XCTAssertEqual(lookedUp["id"] as? String, places.first?["id"] as? String)
        // (Its name may differ: the search answers in the page's language, a lookup by id with OpenStreetMap's name.)
        XCTAssertEqual(lookedUp["latitude"] as? Double ?? 0, places.first?["latitude"] as? Double ?? 1, accuracy: 1e-9)
        XCTAssertFalse((lookedUp["name"] as? String ?? "").isEmpty)
        // Searching a completion finds the completed place first.
        let firstCompletion = (completions.first?["displayLines"] as? [String])?.first ?? "?"
        XCTAssertEqual((initial["completionSearch"] as? [String])?.first, firstCompletion)
        // Geocoder.
        let lookup = initial["lookup"] as? [[String: Any]] ?? []
        XCTAssertEqual(lookup.first?["latitude"] as? Double ?? 0, 43.7393, accuracy: 0.005, "\(lookup.prefix(2))")
        let reverse = initial["reverse"] as? [[String: Any]] ?? []
        XCTAssertEqual(reverse.first?["countryCode"] as? String, "MC", "\(reverse)")
        XCTAssertTrue((reverse.first?["formattedAddress"] as? String ?? "").contains("Monaco"), "\(reverse)")
        // Directions: a route added to the map as a polyline, with steps; alternates asked for.
        let route = initial["route"] as? [String: Any] ?? [:]
        XCTAssertGreaterThan(route["distance"] as? Int ?? 0, 500, "\(route)")
        XCTAssertGreaterThan(route["expectedTravelTime"] as? Int ?? 0, 0)
        XCTAssertEqual(route["transportType"] as? String, "AUTOMOBILE")
        XCTAssertEqual(route["onMap"] as? Bool, true)
        XCTAssertGreaterThan(route["points"] as? Int ?? 0, 10)
        XCTAssertFalse((route["name"] as? String ?? "").isEmpty)
        XCTAssertTrue((route["destination"] as? String ?? "").localizedCaseInsensitiveContains("casino"), "\(route["destination"] ?? "")")
        let steps = route["steps"] as? [[String: Any]] ?? []
        XCTAssertTrue(steps.contains { !($0["instructions"] as? String ?? "").isEmpty }, "\(steps)")
        // The route is drawn in its colour along the polyline.
        let routePoints = (initial["routeOnPage"] as? [[String: Double]] ?? []).compactMap { p in p["x"].flatMap { x in p["y"].map { (x: x, y: $0) } } }
        let along = map.fractionNear((0x0a, 0x66, 0xd8), along: routePoints, excludingLeftOf: 0)
        XCTAssertGreaterThan(along.samples, 10)
        XCTAssertGreaterThan(along.fraction, 0.6, "the route's colour is missing along it")
        // ETA, walking, to two destinations.
        let etas = initial["eta"] as? [[String: Any]] ?? []
        XCTAssertEqual(etas.count, 2)
        for eta in etas {
            XCTAssertGreaterThan(eta["distance"] as? Int ?? 0, 0)
            XCTAssertGreaterThan(eta["expectedTravelTime"] as? Int ?? 0, 0)
            XCTAssertEqual(eta["transportType"] as? String, "WALKING")
        }
        // Points of interest: cafés and restaurants only, near the centre.
        let pois = initial["pois"] as? [[String: Any]] ?? []
        XCTAssertFalse(pois.isEmpty)
        for poi in pois {
            XCTAssertTrue(["Cafe", "Restaurant"].contains(poi["category"] as? String ?? ""), "\(poi)")
            XCTAssertLessThanOrEqual(Self.metres(43.7384, 7.4246, poi["latitude"] as? Double ?? 0, poi["longitude"] as? Double ?? 0), 401)
        }

        // A click on the marker selects it and shows its callout.
        let select = report["select"] as? [String: Any] ?? [:]
        XCTAssertEqual(select["selected"] as? String, "Casino de Monte-Carlo")
        XCTAssertTrue((select["callout"] as? String ?? "").contains("Casino de Monte-Carlo"), "\(select["callout"] ?? "")")
        XCTAssertTrue((select["events"] as? [String] ?? []).contains("select Casino de Monte-Carlo"), "\(select["events"] ?? "")")
        // A click elsewhere deselects it and is a single-tap at the clicked coordinate.
        let tap = report["tap"] as? [String: Any] ?? [:]
        XCTAssertEqual(tap["selected"] as? Bool, true, "nothing should be selected after the tap")
        XCTAssertEqual(tap["callouts"] as? Int, 0)
        let events = tap["events"] as? [String] ?? []
        XCTAssertTrue(events.contains("deselect Casino de Monte-Carlo"), "\(events)")
        let tapped = tap["tap"] as? [String: Double] ?? [:], expected = tap["expected"] as? [String: Double] ?? [:]
        XCTAssertEqual(tapped["x"] ?? 0, 60, accuracy: 0.5)
        XCTAssertEqual(tapped["latitude"] ?? 0, expected["latitude"] ?? 1, accuracy: 1e-6)
        XCTAssertEqual(tapped["longitude"] ?? 0, expected["longitude"] ?? 1, accuracy: 1e-6)
        // Held without moving: a long-press at that point, and no single-tap after it.
        let longPress = report["longPress"] as? [String: Any] ?? [:]
        let pressed = longPress["coordinate"] as? [String: Double] ?? [:], under = longPress["expected"] as? [String: Double] ?? [:]
        XCTAssertEqual(pressed["latitude"] ?? 0, under["latitude"] ?? 1, accuracy: 1e-6, "\(longPress)")
        XCTAssertEqual(pressed["longitude"] ?? 0, under["longitude"] ?? 1, accuracy: 1e-6)
        XCTAssertEqual(longPress["singleTaps"] as? Int, 0)
        // setRegionAnimated ends in region-change-end, on the region asked for.
        let harbour = report["harbour"] as? [String: Any] ?? [:]
        let shown = harbour["region"] as? [String: Double] ?? [:]
        XCTAssertEqual(shown["latitude"] ?? 0, 43.7347, accuracy: 0.001)
        XCTAssertEqual(shown["longitude"] ?? 0, 7.4230, accuracy: 0.001)
        XCTAssertLessThan(shown["latitudeDelta"] ?? 1, 0.02)
        XCTAssertTrue((harbour["events"] as? [String] ?? []).contains("region-change-end"))
        XCTAssertGreaterThan(try Screenshot(shots["mapkitjs-03-harbour"]).fractionDiffering(from: map), 0.2, "the region change did not move the map")
        // The user's location: followed with a dot, sent as a search hint, let go.
        let user = report["userLocation"] as? [String: Any] ?? [:]
        XCTAssertEqual(user["event"] as? [Double], [43.7310, 7.4200], "\(user)")
        XCTAssertEqual(user["shows"] as? Bool, true)
        let followed = user["center"] as? [Double] ?? []
        XCTAssertEqual(followed.first ?? 0, 43.7310, accuracy: 1e-5)
        XCTAssertEqual(followed.last ?? 0, 7.4200, accuracy: 1e-5)
        XCTAssertEqual(user["annotation"] as? [Double], [43.7310, 7.4200])
        XCTAssertEqual(user["dot"] as? Bool, true)
        XCTAssertEqual(user["tint"] as? [String], ["rgb(255, 45, 85)", "rgb(255, 45, 85)"], "tintColor colours the dot")
        XCTAssertGreaterThan(user["searched"] as? Int ?? 0, 0)
        XCTAssertEqual(user["hinted"] as? Int, 1, "the search should carry userLocation")
        XCTAssertEqual(user["dotAfter"] as? Bool, false)
        XCTAssertEqual(user["tracksAfter"] as? Bool, false)

        // The API's answers in the page.
        let api = report["api"] as? [String: Any] ?? [:]
        XCTAssertEqual(api["satellite"] as? String, "standard", "no imagery: the standard map, read back as such")
        XCTAssertEqual(api["muted"] as? [String], ["mutedStandard", "muted.json"])
        XCTAssertEqual(api["standardStyle"] as? String, "standard.json")
        let hidden = api["poiHidden"] as? [String] ?? [], shownPOIs = api["poiShown"] as? [String] ?? []
        XCTAssertFalse(hidden.isEmpty)
        XCTAssertTrue(hidden.allSatisfy { $0 == "none" }, "\(hidden)")
        XCTAssertTrue(shownPOIs.allSatisfy { $0 == "visible" }, "\(shownPOIs)")
        XCTAssertEqual(api["filterIncludesCafe"] as? [Bool], [true, false, true])
        // The labels drawn follow a category filter, through OpenMapKit's category table.
        let labels = { (name: String) in (api[name] as? [[String]] ?? []).map { (class: $0.first ?? "", subclass: $0.last ?? "") } }
        let claims = { (category: MKPointOfInterestCategory, label: (class: String, subclass: String)) in
            category.openMapTilesSubclasses.contains(label.subclass) || category.openMapTilesClasses.contains(label.class)
        }
        let before = labels("poiBeforeFilter")
        XCTAssertTrue(before.contains { !claims(.cafe, $0) && !claims(.restaurant, $0) }, "the check needs other labels on the map first: \(before)")
        let narrowed = labels("poiCafesAndRestaurants")
        XCTAssertFalse(narrowed.isEmpty, "no café or restaurant label drawn")
        for label in narrowed { XCTAssertTrue(claims(.cafe, label) || claims(.restaurant, label), "\(label) is neither a café nor a restaurant") }
        let withoutRestaurants = labels("poiWithoutRestaurants")
        XCTAssertFalse(withoutRestaurants.isEmpty)
        for label in withoutRestaurants { XCTAssertFalse(claims(.restaurant, label), "\(label) is a restaurant") }
        XCTAssertEqual(api["poiAfterFilter"] as? Int, before.count, "removing the filter brings every label back")
        XCTAssertEqual(api["loadPriority"] as? Bool, true, "an unsupported member reads back its default")
        let noPOIs = api["showsPointsOfInterestFalse"] as? [Any] ?? []
        XCTAssertEqual(noPOIs.first as? Bool, false)
        XCTAssertTrue(noPOIs.count > 1 && noPOIs.dropFirst().allSatisfy { $0 as? String == "none" }, "\(noPOIs)")
        XCTAssertEqual(api["rotation"] as? Double ?? 0, 30, accuracy: 0.01)
        XCTAssertEqual(api["cameraDistance"] as? Double ?? 0, 3000, accuracy: 30)
        let zoomRange = api["zoomRange"] as? [String: Double] ?? [:]
        XCTAssertEqual(zoomRange["distance"] ?? 0, 2000, accuracy: 20, "the camera stops at the range's nearest distance")
        XCTAssertEqual(zoomRange["min"], 2000)
        XCTAssertEqual(zoomRange["max"], 20000)
        XCTAssertEqual(api["zoomRangeCleared"] as? Bool, true)
        let framed = api["showItems"] as? [String: Any] ?? [:]
        XCTAssertEqual(framed["casino"] as? Bool, true)
        XCTAssertEqual(framed["rockCentre"] as? Bool, true)
        XCTAssertLessThan(framed["latitudeDelta"] as? Double ?? 1, 0.03, "showItems should zoom in on two nearby items")
        let restyled = api["restyled"] as? [Any] ?? []
        XCTAssertEqual(restyled.first as? Double, 7, "\(restyled)")
        XCTAssertEqual(restyled.last as? String, "#123456")
        let markerPoint = api["markerPoint"] as? [String: Double] ?? [:]
        XCTAssertEqual(markerPoint["x"] ?? 0, markerPoint["elementCentreX"] ?? 1, accuracy: 1.5, "the marker is centred on its coordinate")
        XCTAssertEqual(markerPoint["y"] ?? 0, markerPoint["elementBottom"] ?? 1, accuracy: 1.5, "the marker's point is on its coordinate")
        for delta in api["roundTrip"] as? [Double] ?? [1] { XCTAssertEqual(delta, 0, accuracy: 1e-6) }
        let bounding = api["bounding"] as? [Double] ?? []
        XCTAssertEqual(bounding.count, 8)
        for (value, expected) in zip(bounding, [43.7484, 7.4446, 43.7284, 7.4046, 43.7384, 7.4246, 0.02, 0.04]) {
            XCTAssertEqual(value, expected, accuracy: 1e-9)
        }
        let mapPoint = api["mapPoint"] as? [Double] ?? []
        XCTAssertEqual(mapPoint.first ?? 0, (7.4246 + 180) / 360, accuracy: 1e-12)
        XCTAssertEqual(mapPoint.count > 3 ? mapPoint[2] : 0, 43.7384, accuracy: 1e-9)
        XCTAssertEqual(mapPoint.count > 3 ? mapPoint[3] : 0, 7.4246, accuracy: 1e-9)
        let mapRect = api["mapRect"] as? [Double] ?? []
        XCTAssertEqual(mapRect.count > 2 ? mapRect[1] : 0, 7.4246, accuracy: 1e-9)
        XCTAssertEqual(mapRect.count > 2 ? mapRect[2] : 0, 0.04, accuracy: 1e-9)
        let far = api["clusterFar"] as? [String: Any] ?? [:], near = api["clusterNear"] as? [String: Any] ?? [:]
        XCTAssertEqual(far["members"] as? Int, 0, "\(far)")
        XCTAssertTrue((far["glyphs"] as? [String] ?? []).contains("3"), "\(far)")
        XCTAssertEqual(near["members"] as? Int, 3, "\(near)")
        XCTAssertFalse((near["glyphs"] as? [String] ?? []).contains("3"), "\(near)")
        XCTAssertEqual(api["collision"] as? [String], ["H"])
        XCTAssertEqual(api["noCollision"] as? [String], ["H", "L"])
        XCTAssertEqual(api["mapsWithSecond"] as? Int, 2)
        XCTAssertEqual(api["mapsAfterDestroy"] as? Int, 1)
        XCTAssertEqual(api["secondElementGone"] as? Bool, true)

        // The dark colour scheme: the dark style, the overlays still on it.
        let dark = report["dark"] as? [String: Any] ?? [:]
        XCTAssertEqual(dark["colorScheme"] as? String, "dark")
        XCTAssertEqual(dark["overlayLayers"] as? Int, 7)
        XCTAssertLessThan(try Screenshot(shots["mapkitjs-04-dark"]).meanLuminance(), try Screenshot(shots["mapkitjs-03-harbour"]).meanLuminance() - 30)
    }

    /// A server with an API key: the page's authorizationCallback trades the key for a token at
    /// /v1/token; the map draws, a search answers, and tile requests carry the token (not the key).
    func testMapKitJSSampleWithAnAPIKey() async throws {
        guard Self.hasMapLibre() else { return }
        let key = "mapkitjs-test-key"
        let server = try TestServer.make { $0.port = 0; $0.corsAllowedOrigins = ["*"]; $0.apiKeys = [APIKey(key: key)] }
        guard let (report, _) = try await BrowserDriver.drive("drive_mapkitjs.py", server, screenshots: "openmapkit-mapkitjs-key-screenshots",
                                                             arguments: ["--api-key", key]) else { return }
        XCTAssertEqual(report["problems"] as? [String], [], "console errors, exceptions or failed loads in the page")
        let initial = report["initial"] as? [String: Any] ?? [:]
        XCTAssertEqual(initial["errors"] as? [String], [], "a service failed with the key")
        let shot = try Screenshot((report["screenshots"] as? [String: String])?["mapkitjs-01-map"])
        XCTAssertGreaterThan(shot.distinctColors(), 200, "the map with the key looks blank")
        let places = initial["search"] as? [[String: Any]] ?? []
        XCTAssertTrue(places.contains { ($0["name"] as? String ?? "").contains("Casino") }, "\(places.prefix(3))")
        let tile = initial["tileRequest"] as? String ?? ""
        XCTAssertTrue(tile.contains("key=omk1."), tile)
        XCTAssertFalse(tile.contains(key), "the key travelled in a tile URL")
        XCTAssertEqual(report["problemsBeforeRefusal"] as? [String], [])
        // A token the server refuses: the callback is asked again once, the page hears
        // "Unauthorized" and the call fails with the server's reason; a good token again works.
        let refused = report["refusedToken"] as? [String: Any] ?? [:]
        XCTAssertEqual(refused["calls"] as? Int, 2, "\(refused)")
        XCTAssertEqual(refused["statuses"] as? [String], ["Unauthorized"])
        XCTAssertTrue((refused["refused"] as? String ?? "").contains("signature"), "\(refused["refused"] ?? "")")
        XCTAssertEqual(refused["changes"] as? [String], ["Refreshed", "Refreshed", "Refreshed"], "each new token is a refresh")
        XCTAssertTrue((refused["after"] as? [String] ?? []).contains { $0.contains("Casino") }, "\(refused)")
    }

    /// A server with a team's Maps key registered: the page hands MapKit JS a JWT signed with the
    /// key, as to Apple's; the library trades it at /v1/token, and the map, search and tiles work
    /// with the access token (the JWT never travels in a tile URL).
    func testMapKitJSSampleWithAMapsToken() async throws {
        guard Self.hasMapLibre() else { return }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("omk-mapkitjs-jwt-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let privateKey = folder.appendingPathComponent("AuthKey.p8"), publicKey = folder.appendingPathComponent("AuthKey.pub")
        XCTAssertEqual(try runProcess("openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", privateKey.path]).status, 0)
        XCTAssertEqual(try runProcess("openssl", ["pkey", "-in", privateKey.path, "-pubout", "-out", publicKey.path]).status, 0)
        let key = try MapsKey(teamID: "TEAM", keyID: "KEY", publicKeyPEM: try String(contentsOf: publicKey, encoding: .utf8))
        // The JWT a site's back end makes: its header and claims, signed by openssl (DER, turned into r‖s).
        let now = Int(Date().timeIntervalSince1970)
        let signed = Base64URL.encode(Array(#"{"alg":"ES256","kid":"KEY","typ":"JWT"}"#.utf8)) + "."
            + Base64URL.encode(Array(#"{"iss":"TEAM","iat":\#(now),"exp":\#(now + 1800)}"#.utf8))
        let message = folder.appendingPathComponent("message"), signature = folder.appendingPathComponent("signature")
        try Data(signed.utf8).write(to: message)
        XCTAssertEqual(try runProcess("openssl", ["dgst", "-sha256", "-sign", privateKey.path, "-out", signature.path, message.path]).status, 0)
        let token = signed + "." + Base64URL.encode(Self.rawSignature(fromDER: [UInt8](try Data(contentsOf: signature))))

        let server = try TestServer.make { $0.port = 0; $0.corsAllowedOrigins = ["*"]; $0.mapsKeys = [key] }
        guard let (report, _) = try await BrowserDriver.drive("drive_mapkitjs.py", server, screenshots: "openmapkit-mapkitjs-jwt-screenshots",
                                                             arguments: ["--maps-token", token]) else { return }
        XCTAssertEqual(report["problems"] as? [String], [], "console errors, exceptions or failed loads in the page")
        let initial = report["initial"] as? [String: Any] ?? [:]
        XCTAssertEqual(initial["errors"] as? [String], [], "a service failed with the Maps token")
        let places = initial["search"] as? [[String: Any]] ?? []
        XCTAssertTrue(places.contains { ($0["name"] as? String ?? "").contains("Casino") }, "\(places.prefix(3))")
        let tile = initial["tileRequest"] as? String ?? ""
        XCTAssertTrue(tile.contains("key=omk1."), "tiles carry the access token the JWT was traded for: \(tile)")
        XCTAssertFalse(tile.contains(token), "the JWT travelled in a tile URL")
    }

    /// The r‖s form of a DER ECDSA signature (SEQUENCE { INTEGER r, INTEGER s }), as JWTs carry it.
    static func rawSignature(fromDER der: [UInt8]) -> [UInt8] {
        var index = 2, result: [UInt8] = []
        for _ in 0..<2 {
            let length = Int(der[index + 1])
            var integer = Array(der[(index + 2)..<(index + 2 + length)])
            while integer.count > 32, integer.first == 0 { integer.removeFirst() }
            result += [UInt8](repeating: 0, count: 32 - integer.count) + integer
            index += 2 + length
        }
        return result
    }

    /// A server that does not allow the page's origin: the script loads, and every service and
    /// the map fail saying which `--cors-origin` would let them through.
    func testMapKitJSOnAnOriginTheServerDoesNotAllow() async throws {
        guard Self.hasMapLibre() else { return }
        let server = try TestServer.make { $0.port = 0 }
        guard let (report, _) = try await BrowserDriver.drive("drive_mapkitjs.py", server, screenshots: "openmapkit-mapkitjs-refused-screenshots",
                                                             arguments: ["--refused"]) else { return }
        let refused = report["refused"] as? [String: Any] ?? [:]
        let errors = refused["errors"] as? [String] ?? []
        for service in ["search", "autocomplete", "lookup", "reverse", "route", "eta", "pois"] {
            let error = errors.first { $0.hasPrefix(service + ":") } ?? "no error from \(service)"
            XCTAssertTrue(error.contains("--cors-origin http://127.0.0.1:"), error)
        }
        let problems = report["problems"] as? [String] ?? []
        XCTAssertTrue(problems.contains { $0.contains("mapkit.Map") && $0.contains("--cors-origin") }, "\(problems)")
    }

    // MARK: Helpers

    /// The browser tests need MapLibre GL JS on the server: fail (never skip) without it.
    static func hasMapLibre(file: StaticString = #filePath, line: UInt = #line) -> Bool {
        guard WebLibraries(configured: nil).contents["maplibre-gl.js"] == nil else { return true }
        XCTFail("MapLibre GL JS is not installed, so /mapkit.js cannot draw a map: run `make deps`, or "
                + "`python3 -m pip install --no-deps --target .build/web maplibre==0.3.6`, or set \(WebLibraries.environmentVariable)",
                file: file, line: line)
        return false
    }

    static func metres(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let rad = Double.pi / 180
        let h = pow(sin((lat2 - lat1) * rad / 2), 2) + cos(lat1 * rad) * cos(lat2 * rad) * pow(sin((lon2 - lon1) * rad / 2), 2)
        return 2 * 6_371_008.8 * asin(min(1, sqrt(h)))
    }
}
