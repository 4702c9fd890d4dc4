// The location sources a map view and a CLLocationManager read: a fixed location, a recorded
// track replayed against a clock, and gpsd over its JSON protocol.

import Foundation
#if canImport(Glibc)
import Glibc
#endif
import MapGeometry

/// A location that never moves (an OpenMapKit addition): for tests, kiosks, or a device whose
/// position is configured rather than measured.
///
/// Starting delivers the location at once (and the heading, when set); setting ``location``
/// while started delivers the new one.
public final class MKFixedLocationProvider: MKUserLocationProvider {
    private var handler: ((MKUserLocationEvent) -> Void)?

    /// The location; setting it while started reports it.
    public var location: CLLocation {
        didSet { handler?(.location(location)) }
    }
    /// The heading in degrees clockwise from true north; nil reports none.
    public var heading: CLLocationDirection? {
        didSet { if let heading { handler?(.heading(heading)) } }
    }

    /// A provider that reports `location` (and `heading`, when given).
    public init(location: CLLocation, heading: CLLocationDirection? = nil) {
        self.location = location
        self.heading = heading
    }

    /// Reports the location (and heading) to `handler` at once.
    public func startUpdatingLocation(_ handler: @escaping (MKUserLocationEvent) -> Void) {
        self.handler = handler
        handler(.location(location))
        if let heading { handler(.heading(heading)) }
    }

    /// Stops reporting.
    public func stopUpdatingLocation() { handler = nil }
}

/// A recorded track replayed as it was recorded (an OpenMapKit addition): from a GPX or NMEA
/// file (``MKLocationTrack``) or a list of locations.
///
/// The replay runs on a clock, the map view's ``MKMapViewClock`` seam: the first location is
/// reported when updates start, and each later one once the clock has advanced by its time after
/// the first (divided by ``rate``). Locations keep their recorded timestamps. With a `timerQueue`
/// (the main queue by default) a timer on that queue calls ``deliverDueLocations()`` ten times a
/// second; with none, whoever drives the clock calls it (tests advance an
/// ``MKManualMapViewClock`` and call it, so a replay is exact and instant). The replay stops after
/// the last location.
public final class MKReplayedLocationProvider: MKUserLocationProvider {
    /// The locations, in the order recorded.
    public let locations: [CLLocation]
    /// The clock the replay follows.
    public let clock: any MKMapViewClock
    /// How many times faster than recorded to replay (default 1; values that are not positive
    /// and finite are taken as 1).
    public var rate: Double = 1 {
        didSet { if !(rate.isFinite && rate > 0) { rate = 1 } }
    }
    private let offsets: [TimeInterval]
    private let timerQueue: DispatchQueue?
    private var handler: ((MKUserLocationEvent) -> Void)?
    private var startTime: TimeInterval?
    private var nextIndex = 0
    private var timer: (any DispatchSourceTimer)?

    /// A replay of `locations` on `clock`; a timer on `timerQueue` delivers them as they fall due
    /// (nil: the caller calls ``deliverDueLocations()``).
    public init(locations: [CLLocation], clock: any MKMapViewClock = MKSystemMapViewClock(), timerQueue: DispatchQueue? = .main) {
        self.locations = locations
        self.clock = clock
        self.timerQueue = timerQueue
        let first = locations.first?.timestamp
        // Out-of-order timestamps do not go back in time: each waits at least as long as the one before.
        var latest = 0.0
        offsets = locations.map { location in
            let offset = first.map { location.timestamp.timeIntervalSince($0) } ?? 0
            latest = max(latest, offset.isFinite ? offset : latest)
            return latest
        }
    }

    /// A replay of a GPX file's track (see ``MKLocationTrack``).
    public convenience init(gpxFile url: URL, clock: any MKMapViewClock = MKSystemMapViewClock(),
                            timerQueue: DispatchQueue? = .main) throws(MKLocationTrackError) {
        self.init(locations: try MKLocationTrack.locations(gpxFile: url), clock: clock, timerQueue: timerQueue)
    }

    /// A replay of an NMEA log (see ``MKLocationTrack``).
    public convenience init(nmeaFile url: URL, clock: any MKMapViewClock = MKSystemMapViewClock(),
                            timerQueue: DispatchQueue? = .main) throws(MKLocationTrackError) {
        self.init(locations: try MKLocationTrack.locations(nmeaFile: url), clock: clock, timerQueue: timerQueue)
    }

    /// Whether every location has been delivered.
    public var isFinished: Bool { nextIndex >= locations.count }

    /// Starts the replay from its first location, which is reported at once.
    public func startUpdatingLocation(_ handler: @escaping (MKUserLocationEvent) -> Void) {
        self.handler = handler
        startTime = clock.now
        nextIndex = 0
        if locations.isEmpty {
            handler(.failure(CLError(.locationUnknown, reason: "the replayed track has no locations")))
            return
        }
        deliverDueLocations()
        if let timerQueue, !isFinished {
            let timer = DispatchSource.makeTimerSource(queue: timerQueue)
            timer.schedule(deadline: .now() + .milliseconds(100), repeating: .milliseconds(100))
            timer.setEventHandler { [weak self] in self?.deliverDueLocations() }
            timer.resume()
            self.timer = timer
        }
    }

    /// Stops the replay.
    public func stopUpdatingLocation() {
        handler = nil
        startTime = nil
        timer?.cancel()
        timer = nil
    }

    /// Reports every location whose time has come on the clock, in order.
    public func deliverDueLocations() {
        guard let startTime else { return }
        let elapsed = (clock.now - startTime) * rate
        while nextIndex < locations.count, offsets[nextIndex] <= elapsed + 1e-9, let handler {
            let location = locations[nextIndex]
            nextIndex += 1
            handler(.location(location))
        }
        if isFinished {
            timer?.cancel()
            timer = nil
        }
    }
}

/// Locations from gpsd, the GPS daemon (an OpenMapKit addition): its JSON protocol over TCP,
/// `localhost:2947` by default.
///
/// Starting connects on a thread of its own, asks gpsd to `WATCH` in JSON, and reports each `TPV`
/// report with a 2D or 3D fix as a location (``MKGPSDReport``). When gpsd is not running (the
/// connection is refused) or has no GPS device, the handler gets a `CLError.locationUnknown` saying
/// so. Events are delivered on `queue` (the main queue by default).
public final class MKGPSDLocationProvider: MKUserLocationProvider, @unchecked Sendable {
    /// gpsd's host (an IPv4 address or `localhost`).
    public let host: String
    /// gpsd's port.
    public let port: UInt16
    private let queue: DispatchQueue
    private let lock = NSLock()
    private var generation = 0
    private var socket: Int32 = -1
    private var handler: ((MKUserLocationEvent) -> Void)?

    /// A provider reading gpsd at `host`:`port`, reporting on `queue`.
    public init(host: String = "127.0.0.1", port: UInt16 = 2947, queue: DispatchQueue = .main) {
        self.host = host
        self.port = port
        self.queue = queue
    }

    /// Connects to gpsd and reports its fixes.
    public func startUpdatingLocation(_ handler: @escaping (MKUserLocationEvent) -> Void) {
        let current: Int = lock.withLock {
            self.handler = handler
            generation += 1
            return generation
        }
        let thread = Thread { [self] in run(generation: current) }
        thread.name = "gpsd reader"
        thread.start()
    }

    /// Disconnects.
    public func stopUpdatingLocation() {
        lock.withLock {
            generation += 1
            handler = nil
            if socket >= 0 { _ = shutdown(socket, Int32(SHUT_RDWR)) }
        }
    }

    private func report(_ event: MKUserLocationEvent, generation: Int) {
        // The event is handed over whole (a location is immutable, an error a value).
        nonisolated(unsafe) let event = event
        queue.async { [self] in
            let handler: ((MKUserLocationEvent) -> Void)? = lock.withLock { self.generation == generation ? self.handler : nil }
            handler?(event)
        }
    }

    private func run(generation: Int) {
        let where_ = "gpsd at \(host):\(port)"
        let address = host == "localhost" ? "127.0.0.1" : host
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = port.bigEndian
        guard inet_pton(AF_INET, address, &socketAddress.sin_addr) == 1 else {
            return report(.failure(CLError(.locationUnknown, reason: "\(where_): \"\(host)\" is not an IPv4 address")), generation: generation)
        }
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else {
            return report(.failure(CLError(.locationUnknown, reason: "\(where_): cannot make a socket (\(String(cString: strerror(errno))))")), generation: generation)
        }
        let connected = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let why = String(cString: strerror(errno))
            close(fd)
            return report(.failure(CLError(.locationUnknown, reason:
                "cannot reach \(where_) (\(why)): gpsd is not running; install and start it (apt-get install gpsd; systemctl start gpsd) or give another location provider")),
                generation: generation)
        }
        let stillCurrent: Bool = lock.withLock {
            guard self.generation == generation else { return false }
            socket = fd
            return true
        }
        guard stillCurrent else { close(fd); return }
        defer {
            lock.withLock { if socket == fd { socket = -1 } }
            close(fd)
        }
        let watch = Array("?WATCH={\"enable\":true,\"json\":true};\n".utf8)
        guard watch.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == watch.count else {
            return report(.failure(CLError(.locationUnknown, reason: "\(where_) closed the connection")), generation: generation)
        }
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else {
                if lock.withLock({ self.generation == generation }) {
                    report(.failure(CLError(.locationUnknown, reason: "\(where_) closed the connection")), generation: generation)
                }
                return
            }
            pending += chunk[0..<count]
            // gpsd's reports are one JSON object a line; a line longer than any report is garbage.
            while let newline = pending.firstIndex(of: 10) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                do {
                    if let event = try MKGPSDReport.event(fromLine: line) { report(event, generation: generation) }
                } catch {
                    report(.failure(error), generation: generation)
                }
            }
            if pending.count > 65_536 { pending.removeAll() }
        }
    }
}

/// gpsd's JSON reports, read (an OpenMapKit addition, for ``MKGPSDLocationProvider``).
public enum MKGPSDReport {
    /// What a line of gpsd's JSON output means for a location consumer: a `TPV` report with a
    /// fix is a location (`lat`, `lon`, `altMSL` or `alt`, `eph` or the larger of `epx`/`epy` as
    /// the horizontal accuracy, `epv`, `track` as the course, `speed`, `time`); a `DEVICES` report
    /// listing no device and an `ERROR` report are failures; anything else (`VERSION`, `SKY`, a
    /// `TPV` without a fix) is nil. A line that is not a JSON object throws
    /// `CLError.locationUnknown` saying so.
    public static func event(fromLine line: String) throws(CLError) -> MKUserLocationEvent? {
        let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return nil }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(trimmed.utf8))) as? [String: Any] else {
            throw CLError(.locationUnknown, reason: "gpsd sent a line that is not a JSON object: \"\(trimmed.prefix(60))\"")
        }
        func number(_ key: String) -> Double? {
            guard let value = object[key] as? NSNumber else { return nil }
            let double = value.doubleValue
            return double.isFinite ? double : nil
        }
        switch object["class"] as? String {
        case "TPV":
            guard let mode = number("mode"), mode >= 2, let lat = number("lat"), let lon = number("lon"),
                  (-90...90).contains(lat), (-180...180).contains(lon) else { return nil }
            let horizontal = number("eph") ?? [number("epx"), number("epy")].compactMap { $0 }.max() ?? 0
            let altitude = number("altMSL") ?? number("alt")
            let timestamp = (object["time"] as? String).flatMap(MKLocationTrack.isoDate) ?? Date()
            let location = CLLocation(coordinate: CLLocationCoordinate2D(latitude: lat, longitude: lon), altitude: altitude ?? 0,
                                      horizontalAccuracy: max(horizontal, 0),
                                      verticalAccuracy: mode >= 3 && altitude != nil ? max(number("epv") ?? 0, 0) : -1,
                                      course: number("track").map { $0.truncatingRemainder(dividingBy: 360) } ?? -1,
                                      speed: number("speed").map { max($0, 0) } ?? -1, timestamp: timestamp)
            return .location(location)
        case "DEVICES":
            guard let devices = object["devices"] as? [Any], devices.isEmpty else { return nil }
            return .failure(CLError(.locationUnknown, reason: "gpsd is running but has no GPS device (plug one in, or start gpsd with its device path)"))
        case "ERROR":
            return .failure(CLError(.locationUnknown, reason: "gpsd: \(object["message"] as? String ?? "an error")"))
        default:
            return nil
        }
    }
}
