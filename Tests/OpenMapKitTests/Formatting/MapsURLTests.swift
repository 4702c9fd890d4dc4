import Foundation
import XCTest
@testable import OpenMapKit

final class MapsURLTests: XCTestCase {
    private let centralPark = CLLocationCoordinate2D(latitude: 40.773957, longitude: -73.970974)
    private let libraryNY = CLLocationCoordinate2D(latitude: 40.753035, longitude: -73.981846)
    private let cityHall = "1 Dr Carlton B Goodlett Pl San Francisco, CA 94102"

    private func url(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> URL {
        try XCTUnwrap(URL(string: text), text, file: file, line: line)
    }

    private func parse(_ text: String, options: MapsURL.ParseOptions = .init()) throws -> MapsURL {
        try MapsURL(url: url(text), options: options)
    }

    private func assertError(_ text: String, _ expected: MapsURLError, options: MapsURL.ParseOptions = .init(),
                             file: StaticString = #filePath, line: UInt = #line) {
        do {
            let parsed = try parse(text, options: options)
            XCTFail("\(text) parsed as \(parsed), expected \(expected)", file: file, line: line)
        } catch let error as MapsURLError {
            XCTAssertEqual(error, expected, text, file: file, line: line)
        } catch {
            XCTFail("\(text): unexpected \(error)", file: file, line: line)
        }
    }

    // MARK: Documented counts

    func testDocumentedParameterAndValueCounts() {
        XCTAssertEqual(MapsURL.Action.allCases.map(\.path),
                       ["/frame", "/search", "/place", "/look-around", "/directions", "/guides", "/report-a-problem"])
        XCTAssertEqual(MapsURL.Frame.parameterNames.count, 7)
        XCTAssertEqual(MapsURL.Search.parameterNames.count, 3)
        XCTAssertEqual(MapsURL.Place.parameterNames.count, 4)
        XCTAssertEqual(MapsURL.LookAround.parameterNames.count, 3)
        XCTAssertEqual(MapsURL.Directions.parameterNames.count, 10)
        XCTAssertEqual(MapsURL.ReportAProblem.parameterNames.count, 3)
        XCTAssertEqual(MapsURL.Action.guides.parameterNames, [])
        XCTAssertEqual(MapsURL.TrackingMode.allCases.map(\.rawValue), ["follow", "follow-with-heading", "none"])
        XCTAssertEqual(MapsURL.MapType.allCases.map(\.rawValue), ["explore", "driving", "transit", "satellite", "hybrid"])
        XCTAssertEqual(MapsURL.TransportMode.allCases.map(\.rawValue), ["driving", "walking", "transit", "cycling"])
        XCTAssertEqual(MapsURL.AvoidOption.allCases.map(\.rawValue), ["tolls", "highways", "busy-roads", "stairs"])
        XCTAssertEqual(MapsURL.TransitPreference.allCases.map(\.rawValue), ["bus", "subway", "commuter", "ferry"])
        XCTAssertEqual(GeoNavigationURL.Directions.parameterNames, ["source", "destination", "waypoint"])
        XCTAssertEqual(GeoNavigationURL.Place.parameterNames, ["coordinate", "address"])
    }

    // MARK: Exact URLs

    func testExactURLStrings() {
        let cases: [(MapsURL, String, UInt)] = [
            (.frame(.init(center: centralPark, span: MKCoordinateSpan(latitudeDelta: 0.05, longitudeDelta: 0.05))),
             "https://maps.apple.com/frame?center=40.773957,-73.970974&span=0.05,0.05", #line),
            (.frame(.init(center: centralPark, heading: 90, pitch: 15, distance: 1000, map: .explore)),
             "https://maps.apple.com/frame?center=40.773957,-73.970974&heading=90&pitch=15&distance=1000&map=explore", #line),
            (.frame(.init(mode: .followWithHeading, map: .transit)),
             "https://maps.apple.com/frame?mode=follow-with-heading&map=transit", #line),
            (.search(.init(query: "pizza", center: CLLocationCoordinate2D(latitude: 51.508, longitude: -0.128))),
             "https://maps.apple.com/search?center=51.508,-0.128&query=pizza", #line),
            (.search(.init(query: "1000 Fifth Avenue, NY, NY")),
             "https://maps.apple.com/search?query=1000%20Fifth%20Avenue,%20NY,%20NY", #line),
            (.place(.init(placeID: "IF149E70A3B3C4CB2")), "https://maps.apple.com/place?place-id=IF149E70A3B3C4CB2", #line),
            (.place(.init(coordinate: CLLocationCoordinate2D(latitude: 40.7794, longitude: -73.9632),
                          address: "1000 Fifth Ave, New York, NY", map: .satellite)),
             "https://maps.apple.com/place?coordinate=40.7794,-73.9632&address=1000%20Fifth%20Ave,%20New%20York,%20NY&map=satellite",
             #line),
            (.lookAround(.init(placeID: "IBE1F65094A7A13B1")),
             "https://maps.apple.com/look-around?place-id=IBE1F65094A7A13B1", #line),
            (.directions(.init(destination: .init(.address(cityHall)))),
             "https://maps.apple.com/directions?destination=1%20Dr%20Carlton%20B%20Goodlett%20Pl%20San%20Francisco,%20CA%2094102",
             #line),
            (.directions(.init(source: .stop(.init(.address("AMNH"), placeID: "IF149E70A3B3C4CB2")),
                               destination: .init(.address("Jones Beach State Park")),
                               waypoints: [.init(.coordinate(libraryNY)), .init(.address("Met"), placeID: "I521E602783BA9605")],
                               mode: .driving, avoid: [.highways, .tolls], transitPreferences: [.ferry, .bus], start: 30)),
             "https://maps.apple.com/directions?source=AMNH&source-place-id=IF149E70A3B3C4CB2"
                + "&destination=Jones%20Beach%20State%20Park&waypoint=40.753035,-73.981846"
                + "&waypoint=Met&waypoint-place-id=I521E602783BA9605&mode=driving&avoid=tolls,highways"
                + "&transit-preferences=bus,ferry&start=30", #line),
            (.guides, "https://maps.apple.com/guides", #line),
            (.reportAProblem(.init(coordinate: libraryNY)),
             "https://maps.apple.com/report-a-problem?coordinate=40.753035,-73.981846", #line),
        ]
        for (value, expected, line) in cases {
            XCTAssertEqual(value.url.absoluteString, expected, line: line)
            XCTAssertEqual(value.description, expected, line: line)
        }
    }

    func testPercentEncodingOfAddresses() throws {
        let address = "Café Zürich & Co+1, 5th Ave #3/4 = 100% 東京"
        let value = MapsURL.place(.init(address: address))
        XCTAssertEqual(value.url.absoluteString,
                       "https://maps.apple.com/place?address=Caf%C3%A9%20Z%C3%BCrich%20%26%20Co%2B1,%205th%20Ave%20%233%2F4"
                        + "%20%3D%20100%25%20%E6%9D%B1%E4%BA%AC")
        XCTAssertEqual(try MapsURL(url: value.url), value)
        XCTAssertEqual(value.queryItems, [URLQueryItem(name: "address", value: address)])
        // '+' reads as a space, as in HTML forms; %2B is a literal plus.
        XCTAssertEqual(try parse("https://maps.apple.com/search?query=pizza+place%2B"),
                       .search(.init(query: "pizza place+")))
    }

    func testNumberFormattingHasNoFloatNoise() {
        let cases: [(Double, String)] = [
            (40.76821482, "40.7682148"), (-73.98669500, "-73.986695"), (0.1 + 0.2, "0.3"), (1.0 / 3.0, "0.3333333"),
            (-0.00000001, "0"), (-0.0, "0"), (180, "180"), (0.0000001, "0.0000001"), (-90, "-90"), (1000, "1000"),
            (12.5, "12.5"), (0.05, "0.05"),
        ]
        for (value, expected) in cases {
            XCTAssertEqual(MapsQuery.format(value), expected, "\(value)")
        }
    }

    // MARK: Round trips

    private var everyAction: [MapsURL] {
        [
            .frame(.init()),
            .frame(.init(center: centralPark, span: .init(latitudeDelta: 0.05, longitudeDelta: 0.1),
                         mode: MapsURL.TrackingMode.none,
                         heading: 271.25, pitch: 45, distance: 1500.5, map: .hybrid)),
            .frame(.init(span: .init(latitudeDelta: 1, longitudeDelta: 2), mode: .follow, map: .driving)),
            .search(.init(query: "pizza")),
            .search(.init(query: "San Francisco", center: CLLocationCoordinate2D(latitude: 40.730823, longitude: -73.997332),
                          span: .init(latitudeDelta: 0.01, longitudeDelta: 0.01))),
            .place(.init(coordinate: CLLocationCoordinate2D(latitude: -33.8717162, longitude: 151.2115087),
                         address: "110 Elizabeth St Sydney NSW 2000", placeID: "I8CAD8EFA77AA3D42", map: .explore)),
            .lookAround(.init(coordinate: CLLocationCoordinate2D(latitude: 48.8583701, longitude: 2.2944813))),
            .lookAround(.init(address: "Tower of London, London, United Kingdom")),
            .directions(.init()),
            .directions(.init(destination: .init(.address("Sausalito")), mode: .transit,
                              transitPreferences: [.bus, .ferry])),
            .directions(.init(source: .stop(.init(.coordinate(centralPark))),
                              destination: .init(.address(cityHall), placeID: "IBE1F65094A7A13B1"),
                              waypoints: [.init(.address("941 Alamo Dr, San Francisco, CA")),
                                          .init(.coordinate(libraryNY), placeID: "I521E602783BA9605")],
                              mode: .walking, avoid: Set(MapsURL.AvoidOption.allCases), start: 0)),
            .guides,
            .reportAProblem(.init()),
            .reportAProblem(.init(address: "1000 Fifth Avenue, New York, NY 10028 United States")),
        ]
    }

    func testBuildThenParseRoundTripsForEveryAction() throws {
        var actions = Set<MapsURL.Action>()
        for value in everyAction {
            XCTAssertNoThrow(try value.validate(), "\(value)")
            XCTAssertEqual(try MapsURL(url: value.url), value, value.url.absoluteString)
            XCTAssertEqual(try MapsURL.parse(value.url), value)
            XCTAssertEqual(try MapsLink(url: value.url), .maps(value))
            actions.insert(value.action)
        }
        XCTAssertEqual(actions, Set(MapsURL.Action.allCases))
    }

    func testSelfHostedBases() throws {
        let base = try url("http://localhost:8080/maps/")
        let options = MapsURL.ParseOptions(selfHostedBaseURLs: [base])
        for value in everyAction {
            let hosted = try value.url(base: base)
            XCTAssertTrue(hosted.absoluteString.hasPrefix("http://localhost:8080/maps/" + value.action.rawValue),
                          hosted.absoluteString)
            XCTAssertEqual(try MapsURL(url: hosted, options: options), value)
        }
        XCTAssertEqual(try MapsURL.guides.url(base: url("https://Maps.Example.org")).absoluteString,
                       "https://Maps.Example.org/guides")
        // Host is compared without case; port and path prefix must match.
        XCTAssertEqual(try parse("http://LOCALHOST:8080/maps/guides", options: options), .guides)
        assertError("http://localhost:9090/maps/guides", .unrecognizedHost("localhost"), options: options)
        assertError("http://localhost:8080/mapsx/guides", .unrecognizedHost("localhost"), options: options)
        assertError("http://localhost:8080/maps/guides", .unrecognizedHost("localhost"))
        // Without the option, maps.apple.com still works alongside.
        XCTAssertEqual(try parse("https://maps.apple.com/guides", options: options), .guides)
        XCTAssertThrowsError(try MapsURL.guides.url(base: url("relative/path"))) { error in
            XCTAssertEqual(error as? MapsURLError, .invalidBaseURL("relative/path"))
        }
    }

    func testLenientSpellingsThatStillParse() throws {
        XCTAssertEqual(try parse("http://maps.apple.com/guides"), .guides)
        XCTAssertEqual(try parse("https://MAPS.Apple.com./frame/?center=40.773957,-73.970974"),
                       .frame(.init(center: centralPark)))
        XCTAssertEqual(try parse("https://maps.apple.com/frame?center=%2040.773957%20,%20-73.970974"),
                       .frame(.init(center: centralPark)))
        XCTAssertEqual(try parse("https://maps.apple.com/directions?avoid=tolls,%20tolls,stairs&destination=x"),
                       .directions(.init(destination: .init(.address("x")), avoid: [.tolls, .stairs])))
        XCTAssertEqual(try parse("https://maps.apple.com/frame?&&center=40.773957,-73.970974&"),
                       .frame(.init(center: centralPark)))
        // Unknown parameters are ignored by default…
        XCTAssertEqual(try parse("https://maps.apple.com/search?query=pizza&ll=1,2"), .search(.init(query: "pizza")))
        // …and rejected on request.
        assertError("https://maps.apple.com/search?query=pizza&ll=1,2", .unknownParameter("ll", action: "search"),
                    options: .init(rejectsUnknownParameters: true))
    }

    // MARK: Directions semantics

    func testWaypointOrderAndPlaceIDsArePreserved() throws {
        let parsed = try parse("https://maps.apple.com/directions?waypoint=C&destination=Z&waypoint=A"
                               + "&waypoint-place-id=IDA&waypoint=40.1,-73.2&waypoint=B&waypoint-place-id=IDB")
        guard case .directions(let directions) = parsed else { return XCTFail("\(parsed)") }
        XCTAssertEqual(directions.waypoints, [
            .init(.address("C")), .init(.address("A"), placeID: "IDA"),
            .init(.coordinate(CLLocationCoordinate2D(latitude: 40.1, longitude: -73.2))), .init(.address("B"), placeID: "IDB"),
        ])
        XCTAssertEqual(directions.destination, .init(.address("Z")))
        // Rebuilding writes each place ID straight after its waypoint, in order.
        XCTAssertEqual(parsed.url.query, "destination=Z&waypoint=C&waypoint=A&waypoint-place-id=IDA"
                       + "&waypoint=40.1,-73.2&waypoint=B&waypoint-place-id=IDB")
    }

    func testMissingSourceMeansCurrentLocation() throws {
        let parsed = try parse("https://maps.apple.com/directions?destination=Sausalito&mode=transit&transit-preferences=bus,ferry")
        guard case .directions(let directions) = parsed else { return XCTFail("\(parsed)") }
        XCTAssertEqual(directions.source, .currentLocation)
        XCTAssertEqual(directions.mode, .transit)
        XCTAssertEqual(directions.transitPreferences, [.bus, .ferry])
        XCTAssertEqual(directions.effectiveTransitPreferences, [.bus, .ferry])
        let withSource = try parse("https://maps.apple.com/directions?source=Ferry%20Building&destination=City%20Hall")
        guard case .directions(let routed) = withSource else { return XCTFail("\(withSource)") }
        XCTAssertEqual(routed.source, .stop(.init(.address("Ferry Building"))))
    }

    func testAvoidOptionsApplyOnlyToTheirModes() {
        let all = Set(MapsURL.AvoidOption.allCases)
        XCTAssertEqual(MapsURL.Directions(mode: .walking, avoid: all).effectiveAvoid, [.busyRoads, .stairs])
        XCTAssertEqual(MapsURL.Directions(mode: .driving, avoid: all).effectiveAvoid, [.tolls, .highways])
        XCTAssertEqual(MapsURL.Directions(mode: .cycling, avoid: all).effectiveAvoid, [.busyRoads])
        XCTAssertEqual(MapsURL.Directions(mode: .transit, avoid: all).effectiveAvoid, [])
        XCTAssertEqual(MapsURL.Directions(avoid: all).effectiveAvoid, all)
        XCTAssertEqual(MapsURL.Directions(mode: .driving, transitPreferences: [.bus]).effectiveTransitPreferences, [])
    }

    func testCoordinateLikeTextBecomesACoordinate() throws {
        XCTAssertEqual(try parse("https://maps.apple.com/directions?destination=40.753035,-73.981846"),
                       .directions(.init(destination: .init(.coordinate(libraryNY)))))
        XCTAssertEqual(try parse("https://maps.apple.com/directions?destination=10,%20Downing%20Street"),
                       .directions(.init(destination: .init(.address("10, Downing Street")))))
    }

    // MARK: Frame precedence

    func testEffectiveFramingPrecedence() {
        let span = MKCoordinateSpan(latitudeDelta: 0.05, longitudeDelta: 0.05)
        let camera = MapsURL.CameraProperties(center: centralPark, heading: 90, pitch: 15, distance: 1000)
        XCTAssertEqual(MapsURL.Frame(center: centralPark, span: span, mode: .follow, heading: 90, pitch: 15, distance: 1000)
                        .effectiveFraming, .userTracking(.follow))
        XCTAssertEqual(MapsURL.Frame(mode: .followWithHeading).effectiveFraming, .userTracking(.followWithHeading))
        XCTAssertEqual(MapsURL.Frame(center: centralPark, span: span, mode: MapsURL.TrackingMode.none, heading: 90, pitch: 15,
                                     distance: 1000).effectiveFraming, .camera(camera))
        XCTAssertEqual(MapsURL.Frame(center: centralPark, span: span, distance: 500).effectiveFraming,
                       .camera(.init(center: centralPark, distance: 500)))
        XCTAssertEqual(MapsURL.Frame(center: centralPark, span: span).effectiveFraming,
                       .region(MKCoordinateRegion(center: centralPark, span: span)))
        XCTAssertEqual(MapsURL.Frame(center: centralPark, map: .transit).effectiveFraming, .center(centralPark))
        XCTAssertEqual(MapsURL.Frame(span: span).effectiveFraming, .span(span))
        XCTAssertEqual(MapsURL.Frame(map: .satellite).effectiveFraming, .unspecified)
        XCTAssertTrue(MapsURL.Frame(pitch: 0).hasCameraProperties)
        XCTAssertFalse(MapsURL.Frame(center: centralPark, span: span).hasCameraProperties)
    }

    // MARK: Errors

    func testPlaceIDsNeedTheirBaseParameter() {
        assertError("https://maps.apple.com/directions?source-place-id=I1&destination=x",
                    .requiresParameter("source-place-id", requires: "source"))
        assertError("https://maps.apple.com/directions?destination-place-id=I1",
                    .requiresParameter("destination-place-id", requires: "destination"))
        assertError("https://maps.apple.com/directions?waypoint-place-id=I1&waypoint=a",
                    .requiresParameter("waypoint-place-id", requires: "waypoint"))
        assertError("https://maps.apple.com/directions?waypoint=a&waypoint-place-id=I1&waypoint-place-id=I2",
                    .requiresParameter("waypoint-place-id", requires: "waypoint"))
        assertError("https://maps.apple.com/directions?source=a&source-place-id=", .emptyValue(parameter: "source-place-id"))
        assertError("https://maps.apple.com/directions?waypoint=a&waypoint-place-id=%20",
                    .emptyValue(parameter: "waypoint-place-id"))
    }

    func testCameraPropertiesNeedCenter() {
        for name in ["heading", "pitch", "distance"] {
            assertError("https://maps.apple.com/frame?\(name)=10&span=1,1", .requiresParameter(name, requires: "center"))
            // Even when tracking would win, the URL is malformed.
            assertError("https://maps.apple.com/frame?mode=follow&\(name)=10", .requiresParameter(name, requires: "center"))
        }
        // validate() applies the same rule to values built in code.
        XCTAssertThrowsError(try MapsURL.frame(.init(pitch: 30)).validate()) { error in
            XCTAssertEqual(error as? MapsURLError, .requiresParameter("pitch", requires: "center"))
        }
    }

    func testUnknownEnumerationValuesNameTheParameter() {
        assertError("https://maps.apple.com/frame?mode=flying",
                    .invalidValue(parameter: "mode", value: "flying", expected: "one of follow, follow-with-heading, none"))
        assertError("https://maps.apple.com/directions?mode=flying",
                    .invalidValue(parameter: "mode", value: "flying", expected: "one of driving, walking, transit, cycling"))
        assertError("https://maps.apple.com/place?map=terrain&place-id=I1",
                    .invalidValue(parameter: "map", value: "terrain",
                                  expected: "one of explore, driving, transit, satellite, hybrid"))
        // The prose example's "hills" is not a documented value.
        assertError("https://maps.apple.com/directions?avoid=highways,hills",
                    .invalidValue(parameter: "avoid", value: "hills",
                                  expected: "a comma-separated list of one of tolls, highways, busy-roads, stairs"))
        assertError("https://maps.apple.com/directions?avoid=tolls,,stairs",
                    .invalidValue(parameter: "avoid", value: "",
                                  expected: "a comma-separated list of one of tolls, highways, busy-roads, stairs"))
        assertError("https://maps.apple.com/directions?transit-preferences=bus,tram",
                    .invalidValue(parameter: "transit-preferences", value: "tram",
                                  expected: "a comma-separated list of one of bus, subway, commuter, ferry"))
        assertError("https://maps.apple.com/frame?mode=Follow",
                    .invalidValue(parameter: "mode", value: "Follow", expected: "one of follow, follow-with-heading, none"))
        let message = MapsURLError.invalidValue(parameter: "mode", value: "flying", expected: "one of driving").description
        XCTAssertTrue(message.contains("\"mode\"") && message.contains("\"flying\""), message)
    }

    func testMalformedCoordinatesAndNumbers() {
        let pair = "expected latitude,longitude in decimal degrees"
        assertError("https://maps.apple.com/frame?center=91,0",
                    .invalidCoordinate(parameter: "center", value: "91,0", reason: "latitude must be between -90 and 90"))
        assertError("https://maps.apple.com/place?coordinate=0,180.5",
                    .invalidCoordinate(parameter: "coordinate", value: "0,180.5",
                                       reason: "longitude must be between -180 and 180"))
        assertError("https://maps.apple.com/frame?center=abc", .invalidCoordinate(parameter: "center", value: "abc", reason: pair))
        assertError("https://maps.apple.com/frame?center=1,2,3",
                    .invalidCoordinate(parameter: "center", value: "1,2,3", reason: pair))
        assertError("https://maps.apple.com/look-around?coordinate=nan,0",
                    .invalidCoordinate(parameter: "coordinate", value: "nan,0", reason: pair))
        assertError("https://maps.apple.com/frame?center=1e1,0",
                    .invalidCoordinate(parameter: "center", value: "1e1,0", reason: pair))
        assertError("https://maps.apple.com/frame?center=0x10,0",
                    .invalidCoordinate(parameter: "center", value: "0x10,0", reason: pair))
        assertError("https://maps.apple.com/frame?center=1-2,0",
                    .invalidCoordinate(parameter: "center", value: "1-2,0", reason: pair))
        assertError("https://maps.apple.com/search?query=x&span=-1,1",
                    .invalidCoordinate(parameter: "span", value: "-1,1", reason: "latitudeDelta must be between 0 and 180"))
        assertError("https://maps.apple.com/directions?source=91,0",
                    .invalidCoordinate(parameter: "source", value: "91,0", reason: "latitude must be between -90 and 90"))
        assertError("https://maps.apple.com/directions?waypoint=0,200",
                    .invalidCoordinate(parameter: "waypoint", value: "0,200", reason: "longitude must be between -180 and 180"))
        assertError("https://maps.apple.com/frame?center=0,0&heading=east",
                    .invalidValue(parameter: "heading", value: "east", expected: "a decimal number"))
        assertError("https://maps.apple.com/frame?center=0,0&pitch=100",
                    .invalidValue(parameter: "pitch", value: "100", expected: "degrees from 0 to 90"))
        assertError("https://maps.apple.com/frame?center=0,0&distance=-5",
                    .invalidValue(parameter: "distance", value: "-5", expected: "a distance in metres, 0 or more"))
        let seconds = "a whole number of seconds, 0 or more"
        for start in ["-5", "1.5", "abc", "%2B3", "99999999999999999999999"] {
            assertError("https://maps.apple.com/directions?destination=x&start=\(start)",
                        .invalidValue(parameter: "start", value: start.removingPercentEncoding ?? start, expected: seconds))
        }
    }

    func testStructuralErrors() throws {
        assertError("https://maps.apple.com/frame?center=0,0&center=1,1", .duplicateParameter("center"))
        assertError("https://maps.apple.com/search?query=", .emptyValue(parameter: "query"))
        assertError("https://maps.apple.com/search?query", .emptyValue(parameter: "query"))
        // Escapes that decode to invalid UTF-8 (Foundation already re-escapes a bare "%zz").
        assertError("https://maps.apple.com/search?query=%E2%80", .malformedPercentEncoding(parameter: "query"))
        assertError("https://maps.apple.com/search?%FF=x", .malformedPercentEncoding(parameter: "%FF"))
        assertError("https://maps.apple.com/flyover", .unknownAction("flyover"))
        assertError("https://maps.apple.com/?q=pizza", .missingAction)
        assertError("https://maps.apple.com", .missingAction)
        assertError("https://maps.example.com/frame", .unrecognizedHost("maps.example.com"))
        assertError("https://maps.apple.com.evil.example/frame", .unrecognizedHost("maps.apple.com.evil.example"))
        assertError("ftp://maps.apple.com/frame", .unsupportedScheme("ftp"))
        assertError("https://maps.apple.com/look-around",
                    .missingParameter(action: "look-around", oneOf: ["coordinate", "address", "place-id"]))
        assertError("geo-navigation:///place?address=x", .notAMapsURL("geo-navigation:///place?address=x"))
        XCTAssertThrowsError(try MapsURL.directions(.init(start: -1)).validate())
        XCTAssertThrowsError(try MapsURL.search(.init(query: "  ")).validate()) { error in
            XCTAssertEqual(error as? MapsURLError, .emptyValue(parameter: "query"))
        }
        XCTAssertThrowsError(try MapsURL.frame(.init(center: centralPark, heading: .nan)).validate()) { error in
            XCTAssertEqual(error as? MapsURLError, .invalidValue(parameter: "heading", value: "nan", expected: "a finite number"))
        }
    }

    func testShortenedLinksAreClassifiedNotParsed() throws {
        let short = try url("https://maps.apple/p/Zx1a2B3c")
        XCTAssertTrue(MapsURL.isShortenedLink(short))
        XCTAssertTrue(MapsURL.isShortenedLink(try url("http://go.MAPS.apple./x")))
        XCTAssertFalse(MapsURL.isShortenedLink(try url("https://maps.apple.com/frame")))
        XCTAssertFalse(MapsURL.isShortenedLink(try url("geo-navigation://maps.apple")))
        XCTAssertEqual(try MapsLink(url: short), .shortened(short))
        assertError("https://maps.apple/p/Zx1a2B3c", .shortenedLink(short))
        XCTAssertTrue(MapsURLError.shortenedLink(short).description.contains("301"))
    }

    func testHostileQueriesDoNotCrash() throws {
        let junk = ["https://maps.apple.com/directions?" + String(repeating: "waypoint=a&", count: 2000),
                    "https://maps.apple.com/frame?center=" + String(repeating: "9", count: 5000) + ",0",
                    "https://maps.apple.com/frame?=&=&%00=%00", "https://maps.apple.com/frame?center=%E2%80%AE1,2",
                    "https://maps.apple.com/directions?start=" + String(repeating: "1", count: 400),
                    "https://maps.apple.com/directions?avoid=" + String(repeating: ",", count: 1000)]
        for text in junk {
            _ = try? parse(text)
        }
        let many = try parse(junk[0])
        guard case .directions(let directions) = many else { return XCTFail("\(many)") }
        XCTAssertEqual(directions.waypoints.count, 2000)
        // Too large for a Double: not a number at all.
        assertError(junk[1], .invalidCoordinate(parameter: "center", value: String(repeating: "9", count: 5000) + ",0",
                                                reason: "expected latitude,longitude in decimal degrees"))
    }

    // MARK: geo-navigation

    func testGeoNavigationBuildAndParse() throws {
        let route = GeoNavigationURL.directions(.init(source: .stop(.init(.address("Ferry Building"))),
                                                      destination: .address(cityHall),
                                                      waypoints: [.coordinate(libraryNY), .address("Pier 39")]))
        XCTAssertEqual(route.url.absoluteString,
                       "geo-navigation:///directions?source=Ferry%20Building"
                        + "&destination=1%20Dr%20Carlton%20B%20Goodlett%20Pl%20San%20Francisco,%20CA%2094102"
                        + "&waypoint=40.753035,-73.981846&waypoint=Pier%2039")
        XCTAssertEqual(try GeoNavigationURL(url: route.url), route)
        XCTAssertEqual(try MapsLink(url: route.url), .geoNavigation(route))

        let place = GeoNavigationURL.place(.init(address: cityHall))
        XCTAssertEqual(place.url.absoluteString,
                       "geo-navigation:///place?address=1%20Dr%20Carlton%20B%20Goodlett%20Pl%20San%20Francisco,%20CA%2094102")
        XCTAssertEqual(try GeoNavigationURL(url: place.url), place)
        let both = GeoNavigationURL.place(.init(coordinate: libraryNY, address: "NYPL"))
        XCTAssertEqual(try GeoNavigationURL(url: both.url), both)

        // The action may also be written as the host.
        XCTAssertEqual(try GeoNavigationURL(url: url("geo-navigation://place?coordinate=40.753035,-73.981846")),
                       .place(.init(coordinate: libraryNY)))
        // A missing source means the current location.
        XCTAssertEqual(try GeoNavigationURL(url: url("geo-navigation:///directions?destination=Pier%2039")),
                       .directions(.init(destination: .address("Pier 39"))))
    }

    func testGeoNavigationErrors() throws {
        func error(_ text: String) throws -> MapsURLError? {
            do {
                _ = try GeoNavigationURL(url: url(text))
                return nil
            } catch let error as MapsURLError {
                return error
            }
        }
        XCTAssertEqual(try error("geo-navigation:///directions?source=a"),
                       .missingParameter(action: "directions", oneOf: ["destination"]))
        XCTAssertEqual(try error("geo-navigation:///place"),
                       .missingParameter(action: "place", oneOf: ["coordinate", "address"]))
        XCTAssertEqual(try error("geo-navigation:///place?coordinate=91,0"),
                       .invalidCoordinate(parameter: "coordinate", value: "91,0", reason: "latitude must be between -90 and 90"))
        XCTAssertEqual(try error("geo-navigation:///frame"), .unknownAction("frame"))
        XCTAssertEqual(try error("geo-navigation://"), .missingAction)
        XCTAssertEqual(try error("https://maps.apple.com/place?address=x"), .unsupportedScheme("https"))
        XCTAssertEqual(try error("geo-navigation:///directions?destination=a&destination=b"), .duplicateParameter("destination"))
    }

    func testDirectionsConvertToGeoNavigation() {
        let directions = MapsURL.Directions(source: .stop(.init(.address("A"), placeID: "I1")),
                                            destination: .init(.coordinate(libraryNY), placeID: "I2"),
                                            waypoints: [.init(.address("W"), placeID: "I3")], mode: .driving,
                                            avoid: [.tolls], start: 5)
        XCTAssertEqual(GeoNavigationURL.Directions(directions),
                       GeoNavigationURL.Directions(source: .stop(.init(.address("A"))), destination: .coordinate(libraryNY),
                                                   waypoints: [.address("W")]))
        XCTAssertNil(GeoNavigationURL.Directions(MapsURL.Directions()))
    }
}
