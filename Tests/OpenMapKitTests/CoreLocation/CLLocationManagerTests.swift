import Foundation
@testable import OpenMapKit
import XCTest

/// Records what a location manager tells its delegate.
final class RecordingLocationDelegate: CLLocationManagerDelegate {
    var locations: [CLLocation] = []
    var errors: [any Error] = []
    var events: [String] = []
    var authorizationReports = 0
    var onError: ((any Error) -> Void)?

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) { self.locations += locations }
    func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {
        errors.append(error)
        onError?(error)
    }
    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) { authorizationReports += 1 }
    func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion) { events.append("enter \(region.identifier)") }
    func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion) { events.append("exit \(region.identifier)") }
    func locationManager(_ manager: CLLocationManager, didDetermineState state: CLRegionState, for region: CLRegion) {
        events.append("state \(region.identifier) \(state == .inside ? "inside" : state == .outside ? "outside" : "unknown")")
    }
    func locationManager(_ manager: CLLocationManager, didStartMonitoringFor region: CLRegion) { events.append("start \(region.identifier)") }
}

/// CLLocationManager over the location providers: GPX and NMEA replay on a manual clock, the
/// distance filter, requestLocation with desiredAccuracy, region entry and exit, gpsd's report
/// parsing and its "not running" error, hostile track files, and a map view on the same replay.
final class CLLocationManagerTests: XCTestCase {
    /// Four points walking north up Avenue de la Costa, 10 s apart; 1e-4° of latitude is about 11.1 m.
    static let gpx = """
    <?xml version="1.0" encoding="UTF-8"?>
    <gpx version="1.1" creator="OpenMapKit tests" xmlns="http://www.topografix.com/GPX/1/1">
      <trk><name>Costa</name><trkseg>
        <trkpt lat="43.7390" lon="7.4250"><ele>40.5</ele><time>2024-05-01T10:00:00Z</time><hdop>4</hdop></trkpt>
        <trkpt lat="43.7391" lon="7.4250"><ele>41</ele><time>2024-05-01T10:00:10Z</time><hdop>1</hdop></trkpt>
        <trkpt lat="43.7392" lon="7.4250"><ele>41.5</ele><time>2024-05-01T10:00:20Z</time></trkpt>
        <trkpt lat="43.7400" lon="7.4250"><ele>42</ele><time>2024-05-01T10:00:30.5Z</time></trkpt>
      </trkseg></trk>
    </gpx>
    """

    static func file(_ name: String, _ text: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openmapkit-cl-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    /// An NMEA sentence with its checksum.
    static func sentence(_ body: String) -> String {
        String(format: "$%@*%02X", body, body.utf8.reduce(UInt8(0), ^))
    }

    func replay(_ url: URL, clock: MKManualMapViewClock) throws -> MKReplayedLocationProvider {
        try MKReplayedLocationProvider(gpxFile: url, clock: clock, timerQueue: nil)
    }

    func testGPXReplayFollowsTheClock() throws {
        let clock = MKManualMapViewClock()
        let provider = try replay(Self.file("costa.gpx", Self.gpx), clock: clock)
        let manager = CLLocationManager(provider: provider)
        let delegate = RecordingLocationDelegate()
        manager.delegate = delegate
        manager.startUpdatingLocation()
        XCTAssertEqual(delegate.locations.count, 1, "the first point at once")
        clock.advance(by: 9.9)
        provider.deliverDueLocations()
        XCTAssertEqual(delegate.locations.count, 1, "the second is due at 10 s")
        clock.advance(by: 0.1)
        provider.deliverDueLocations()
        XCTAssertEqual(delegate.locations.count, 2)
        clock.advance(by: 10)
        provider.deliverDueLocations()
        XCTAssertEqual(delegate.locations.count, 3)
        XCTAssertFalse(provider.isFinished, "the last is due at 30.5 s")
        clock.advance(by: 60)
        provider.deliverDueLocations()
        XCTAssertEqual(delegate.locations.count, 4)
        XCTAssertTrue(provider.isFinished)

        let first = delegate.locations[0], second = delegate.locations[1], last = delegate.locations[3]
        XCTAssertEqual(first.coordinate.latitude, 43.7390)
        XCTAssertEqual(first.altitude, 40.5)
        XCTAssertEqual(first.horizontalAccuracy, 20, "HDOP 4 at 5 m a unit")
        XCTAssertEqual(second.horizontalAccuracy, 5)
        XCTAssertEqual(first.timestamp, ISO8601DateFormatter().date(from: "2024-05-01T10:00:00Z"))
        XCTAssertEqual(last.timestamp.timeIntervalSince(first.timestamp), 30.5, accuracy: 1e-6, "fractional seconds")
        // Course and speed, which GPX 1.1 does not store, from the neighbouring points: due north at ~1.11 m/s.
        XCTAssertEqual(first.course, 0, accuracy: 1e-6)
        XCTAssertEqual(first.speed, 1.112, accuracy: 0.002)
        XCTAssertEqual(manager.location?.coordinate.latitude, 43.7400)
        manager.stopUpdatingLocation()
    }

    func testDistanceFilter() throws {
        let clock = MKManualMapViewClock()
        let provider = try replay(Self.file("costa.gpx", Self.gpx), clock: clock)
        let manager = CLLocationManager(provider: provider)
        let delegate = RecordingLocationDelegate()
        manager.delegate = delegate
        manager.distanceFilter = 15
        manager.startUpdatingLocation()
        clock.advance(by: 100)
        provider.deliverDueLocations()
        // 11 m, then 22 m from the first reported, then 89 m: the second is filtered out.
        XCTAssertEqual(delegate.locations.map(\.coordinate.latitude), [43.7390, 43.7392, 43.7400])
        XCTAssertEqual(manager.location?.coordinate.latitude, 43.7400, "location is the latest, filtered or not")
    }

    func testRegionEntryAndExit() throws {
        let clock = MKManualMapViewClock()
        // Out, in, out: a 5 m circle 2.2 m from the second point (8.9 m from the first, 13.3 m from the third).
        let provider = try replay(Self.file("costa.gpx", Self.gpx), clock: clock)
        let manager = CLLocationManager(provider: provider)
        let delegate = RecordingLocationDelegate()
        manager.delegate = delegate
        let region = CLCircularRegion(center: CLLocationCoordinate2D(latitude: 43.73908, longitude: 7.4250), radius: 5, identifier: "costa")
        let silent = CLCircularRegion(center: CLLocationCoordinate2D(latitude: 43.7400, longitude: 7.4250), radius: 5, identifier: "top")
        silent.notifyOnEntry = false
        manager.startMonitoring(for: region)
        manager.startMonitoring(for: silent)
        XCTAssertEqual(manager.monitoredRegions.count, 2)
        let perStep = { (seconds: Double) -> [String] in
            delegate.events.removeAll()
            clock.advance(by: seconds)
            provider.deliverDueLocations()
            return delegate.events
        }
        XCTAssertEqual(Set(delegate.events), ["start costa", "start top", "state costa outside", "state top outside"],
                       "the first location gives each state, without an event")
        XCTAssertEqual(perStep(10), ["enter costa", "state costa inside"])
        XCTAssertEqual(perStep(10), ["exit costa", "state costa outside"], "43.7392 is 8 m beyond the circle")
        XCTAssertEqual(perStep(11), ["state top inside"], "notifyOnEntry false: no entry event")
        manager.requestState(for: region)
        XCTAssertEqual(delegate.events.last, "state costa outside")
        manager.stopMonitoring(for: region)
        manager.stopMonitoring(for: silent)
        XCTAssertTrue(manager.monitoredRegions.isEmpty)
        // Other region kinds cannot be monitored.
        final class Failures: CLLocationManagerDelegate {
            var failed: [String] = []
            func locationManager(_ manager: CLLocationManager, monitoringDidFailFor region: CLRegion?, withError error: any Error) {
                failed.append("\(region?.identifier ?? "") \((error as? CLError)?.code == .regionMonitoringFailure)")
            }
        }
        let failures = Failures()
        manager.delegate = failures
        manager.startMonitoring(for: CLRegion(identifier: "plain"))
        XCTAssertEqual(failures.failed, ["plain true"])
    }

    func testRequestLocationWaitsForTheDesiredAccuracy() throws {
        let clock = MKManualMapViewClock()
        let provider = try replay(Self.file("costa.gpx", Self.gpx), clock: clock)
        let manager = CLLocationManager(provider: provider)
        let delegate = RecordingLocationDelegate()
        manager.delegate = delegate
        manager.desiredAccuracy = kCLLocationAccuracyNearestTenMeters
        manager.requestLocation()
        XCTAssertTrue(delegate.locations.isEmpty, "the first point is ±20 m")
        clock.advance(by: 10)
        provider.deliverDueLocations()
        XCTAssertEqual(delegate.locations.map(\.horizontalAccuracy), [5])
        clock.advance(by: 100)
        provider.deliverDueLocations()
        XCTAssertEqual(delegate.locations.count, 1, "one location, then the provider stopped")

        // A fixed location answers at once, every time.
        let fixed = MKFixedLocationProvider(location: CLLocation(latitude: 47.1395, longitude: 9.5221))
        let kiosk = CLLocationManager(provider: fixed)
        let kioskDelegate = RecordingLocationDelegate()
        kiosk.delegate = kioskDelegate
        kiosk.requestLocation()
        kiosk.startUpdatingLocation()
        kiosk.requestLocation()
        XCTAssertEqual(kioskDelegate.locations.map(\.coordinate.longitude), [9.5221, 9.5221, 9.5221])
        fixed.location = CLLocation(latitude: 47.14, longitude: 9.52)
        XCTAssertEqual(kioskDelegate.locations.last?.coordinate.latitude, 47.14)
    }

    func testNMEAReplayMergesGGAAndRMC() throws {
        let log = [
            Self.sentence("GPGSV,3,1,11,03,03,111,00,04,15,270,00,06,01,010,00,13,06,292,00"),
            Self.sentence("GPGGA,123519.00,4344.3400,N,00725.5000,E,1,08,0.9,45.4,M,46.9,M,,"),
            Self.sentence("GPRMC,123519.00,A,4344.3400,N,00725.5000,E,1.944,90.0,010524,,,A"),
            Self.sentence("GNGGA,123520.00,4344.3400,N,00725.5200,E,2,08,1.2,45.9,M,46.9,M,,"),
            Self.sentence("GPRMC,123521.00,V,,,,,,,010524,,,N"),
            Self.sentence("GPGGA,123522.00,4344.3500,S,00725.5000,W,1,08,2.0,,M,,M,,"),
        ].joined(separator: "\r\n") + "\r\n"
        let clock = MKManualMapViewClock()
        let provider = try MKReplayedLocationProvider(nmeaFile: Self.file("costa.nmea", log), clock: clock, timerQueue: nil)
        XCTAssertEqual(provider.locations.count, 3, "GGA+RMC of 12:35:19 are one fix; the void RMC is skipped; GSV is ignored")
        let first = provider.locations[0], second = provider.locations[1], third = provider.locations[2]
        XCTAssertEqual(first.coordinate.latitude, 43 + 44.34 / 60, accuracy: 1e-9)
        XCTAssertEqual(first.coordinate.longitude, 7 + 25.5 / 60, accuracy: 1e-9)
        XCTAssertEqual(first.altitude, 45.4)
        XCTAssertEqual(first.horizontalAccuracy, 4.5, accuracy: 1e-9)
        XCTAssertEqual(first.speed, 1.0, accuracy: 0.001, "1.944 knots")
        XCTAssertEqual(first.course, 90)
        XCTAssertEqual(first.timestamp, ISO8601DateFormatter().date(from: "2024-05-01T12:35:19Z"))
        XCTAssertEqual(second.timestamp.timeIntervalSince(first.timestamp), 1, accuracy: 1e-6)
        XCTAssertEqual(third.coordinate.latitude, -(43 + 44.35 / 60), accuracy: 1e-9)
        XCTAssertEqual(third.coordinate.longitude, -(7 + 25.5 / 60), accuracy: 1e-9)
        XCTAssertEqual(third.verticalAccuracy, -1, "no altitude")

        let manager = CLLocationManager(provider: provider)
        let delegate = RecordingLocationDelegate()
        manager.delegate = delegate
        manager.startUpdatingLocation()
        clock.advance(by: 1)
        provider.deliverDueLocations()
        XCTAssertEqual(delegate.locations.count, 2)
    }

    func testHostileTrackFilesGiveTypedErrors() throws {
        func gpxError(_ text: String) -> MKLocationTrackError? {
            do { _ = try MKLocationTrack.locations(gpx: Data(text.utf8)); return nil } catch { return error }
        }
        func nmeaError(_ text: String) -> MKLocationTrackError? {
            do { _ = try MKLocationTrack.locations(nmea: Data(text.utf8)); return nil } catch { return error }
        }
        guard case .malformedGPX = gpxError("<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\">") else { return XCTFail("unclosed XML") }
        guard case .malformedGPX(_, let root) = gpxError("<kml><Placemark/></kml>") else { return XCTFail("not GPX") }
        XCTAssertTrue(root.contains("<kml>"), root)
        guard case .malformedGPX(let line, let range) = gpxError("<gpx>\n<wpt lat=\"91\" lon=\"7\"/></gpx>") else { return XCTFail("latitude 91") }
        XCTAssertEqual(line, 2)
        XCTAssertTrue(range.contains("lat"), range)
        guard case .malformedGPX = gpxError("<gpx><wpt lat=\"NaN\" lon=\"7\"/></gpx>") else { return XCTFail("NaN") }
        guard case .malformedGPX = gpxError("<gpx><wpt lat=\"1\" lon=\"7\"><time>yesterday</time></wpt></gpx>") else { return XCTFail("time") }
        guard case .malformedGPX = gpxError("<gpx><wpt lat=\"1\" lon=\"7\"><ele>high</ele></wpt></gpx>") else { return XCTFail("ele") }
        guard case .noLocations = gpxError("<gpx version=\"1.1\"></gpx>") else { return XCTFail("empty") }
        guard case .malformedGPX = gpxError("") else { return XCTFail("nothing") }
        guard case .malformedGPX = gpxError(String(repeating: "<gpx>", count: 5000)) else { return XCTFail("deep nesting") }
        // Way points only: they are the track.
        XCTAssertEqual(try MKLocationTrack.locations(gpx: Data("<gpx><wpt lat=\"1\" lon=\"2\"/><wpt lat=\"3\" lon=\"4\"/></gpx>".utf8)).count, 2)

        let good = Self.sentence("GPGGA,123519,4344.34,N,00725.50,E,1,08,0.9,45.4,M,46.9,M,,")
        XCTAssertNil(nmeaError(good))
        guard case .malformedNMEA(_, let checksum) = nmeaError(String(good.dropLast(2)) + "00") else { return XCTFail("checksum") }
        XCTAssertTrue(checksum.contains("checksum"), checksum)
        guard case .malformedNMEA(let garbageLine, _) = nmeaError(good + "\nhello world") else { return XCTFail("garbage") }
        XCTAssertEqual(garbageLine, 2)
        guard case .malformedNMEA = nmeaError(Self.sentence("GPGGA,123519,4344.34,X,00725.50,E,1,08,0.9,45.4,M,46.9,M,,")) else { return XCTFail("hemisphere") }
        guard case .malformedNMEA = nmeaError(Self.sentence("GPGGA,123519,9544.34,N,00725.50,E,1,08,0.9,45.4,M,46.9,M,,")) else { return XCTFail("95°") }
        guard case .malformedNMEA = nmeaError(Self.sentence("GPGGA,123519,4375.00,N,00725.50,E,1,08,0.9,45.4,M,46.9,M,,")) else { return XCTFail("75 minutes") }
        guard case .malformedNMEA = nmeaError(Self.sentence("GPRMC,123519,A,4344.34,N")) else { return XCTFail("short") }
        guard case .malformedNMEA = nmeaError(Self.sentence("GPRMC,123519,A,4344.34,N,00725.50,E,1.0,90,321324,,")) else { return XCTFail("date") }
        guard case .malformedNMEA = nmeaError("$GPGGA,1*ZZ") else { return XCTFail("hex") }
        guard case .noLocations = nmeaError(Self.sentence("GPGGA,123519,4344.34,N,00725.50,E,0,00,,,M,,M,,")) else { return XCTFail("no fix") }
        guard case .noLocations = nmeaError("") else { return XCTFail("empty") }
        let missing = URL(fileURLWithPath: "/nonexistent/track.gpx")
        XCTAssertThrowsError(try MKReplayedLocationProvider(gpxFile: missing, timerQueue: nil)) { error in
            guard case .unreadableFile(let path, _) = error as? MKLocationTrackError else { return XCTFail("\(error)") }
            XCTAssertEqual(path, "/nonexistent/track.gpx")
        }
    }

    func testGPSDReports() throws {
        // A TPV report as gpsd 3.x sends it (from gpsd's JSON protocol documentation, moved to Monaco).
        let tpv = #"{"class":"TPV","device":"/dev/ttyUSB0","mode":3,"time":"2024-05-01T10:00:00.000Z","ept":0.005,"lat":43.7395625,"lon":7.4251958,"altHAE":95.3,"altMSL":48.1,"alt":48.1,"epx":3.2,"epy":4.1,"epv":7.5,"track":123.4,"speed":0.5,"climb":0.0,"eps":0.3}"#
        guard case .location(let location)? = try MKGPSDReport.event(fromLine: tpv) else { return XCTFail("a fix") }
        XCTAssertEqual(location.coordinate.latitude, 43.7395625)
        XCTAssertEqual(location.altitude, 48.1)
        XCTAssertEqual(location.horizontalAccuracy, 4.1, "the larger of epx and epy")
        XCTAssertEqual(location.verticalAccuracy, 7.5)
        XCTAssertEqual(location.course, 123.4)
        XCTAssertEqual(location.speed, 0.5)
        XCTAssertEqual(location.timestamp, ISO8601DateFormatter().date(from: "2024-05-01T10:00:00Z"))
        XCTAssertNil(try MKGPSDReport.event(fromLine: #"{"class":"TPV","mode":1}"#), "no fix yet")
        XCTAssertNil(try MKGPSDReport.event(fromLine: #"{"class":"VERSION","release":"3.25"}"#))
        XCTAssertNil(try MKGPSDReport.event(fromLine: #"{"class":"TPV","mode":2,"lat":123,"lon":7}"#), "latitude out of range")
        guard case .failure(let none)? = try MKGPSDReport.event(fromLine: #"{"class":"DEVICES","devices":[]}"#) else { return XCTFail("no device") }
        XCTAssertTrue((none as? CLError)?.reason?.contains("no GPS device") ?? false)
        XCTAssertThrowsError(try MKGPSDReport.event(fromLine: "{\"class\":\"TPV\",")) { error in
            XCTAssertEqual((error as? CLError)?.code, .locationUnknown)
        }
        XCTAssertThrowsError(try MKGPSDReport.event(fromLine: "[1,2,3]"))
    }

    func testGPSDNotRunningIsReportedThroughTheDelegate() throws {
        // A port nothing listens on: bind one, note it, close it.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        XCTAssertEqual(withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }, 0)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        let port = UInt16(bigEndian: address.sin_port)
        close(fd)

        let manager = CLLocationManager(provider: MKGPSDLocationProvider(port: port))
        let delegate = RecordingLocationDelegate()
        let failed = expectation(description: "failed")
        delegate.onError = { _ in failed.fulfill() }
        manager.delegate = delegate
        manager.startUpdatingLocation()
        wait(for: [failed], timeout: 10)
        let error = try XCTUnwrap(delegate.errors.first as? CLError)
        XCTAssertEqual(error.code, .locationUnknown)
        XCTAssertTrue(error.reason?.contains("gpsd is not running") ?? false, error.reason ?? "")
        XCTAssertTrue(error.reason?.contains("127.0.0.1:\(port)") ?? false, error.reason ?? "")
        manager.stopUpdatingLocation()
        // The default manager reads gpsd on its standard port.
        XCTAssertEqual((CLLocationManager().provider as? MKGPSDLocationProvider)?.port, 2947)
    }

    func testAuthorizationIsAlwaysGranted() {
        let manager = CLLocationManager(provider: MKFixedLocationProvider(location: CLLocation(latitude: 0, longitude: 0)))
        let delegate = RecordingLocationDelegate()
        manager.delegate = delegate
        XCTAssertEqual(manager.authorizationStatus, .authorizedAlways)
        XCTAssertEqual(manager.accuracyAuthorization, .fullAccuracy)
        manager.requestWhenInUseAuthorization()
        manager.requestAlwaysAuthorization()
        XCTAssertEqual(delegate.authorizationReports, 2)
        XCTAssertTrue(CLLocationManager.isMonitoringAvailable(for: CLCircularRegion.self))
        XCTAssertFalse(CLLocationManager.isMonitoringAvailable(for: CLRegion.self))
    }

    func testAMapViewFollowsTheSameReplay() throws {
        let (map, _, _) = MapViewFixtures.map()
        let clock = MKManualMapViewClock()
        let provider = try replay(Self.file("costa.gpx", Self.gpx), clock: clock)
        map.userLocationProvider = provider
        map.showsUserLocation = true
        XCTAssertEqual(map.userLocation.location?.coordinate.latitude, 43.7390)
        clock.advance(by: 31)
        provider.deliverDueLocations()
        XCTAssertEqual(map.userLocation.location?.coordinate.latitude, 43.7400)
        map.showsUserLocation = false
    }
}
