// Recorded tracks for location replay: GPX (XML, read with FoundationXML's parser) and NMEA 0183
// (GGA and RMC sentences), turned into Core Location locations with typed errors for bad input.

import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import MapGeometry

/// Why a recorded track could not be read (an OpenMapKit addition, for
/// ``MKReplayedLocationProvider``). Each case says where: the file, or the line in it.
public enum MKLocationTrackError: Error, Hashable, Sendable, LocalizedError {
    /// The file could not be read.
    case unreadableFile(path: String, reason: String)
    /// The GPX is not well-formed XML, not GPX, or a point in it is invalid.
    case malformedGPX(line: Int, reason: String)
    /// An NMEA sentence is malformed (bad checksum, missing fields, a coordinate out of range).
    case malformedNMEA(line: Int, reason: String)
    /// The track holds no location (no track, route or way point; no NMEA fix).
    case noLocations(String)

    /// What went wrong, with where.
    public var errorDescription: String? {
        switch self {
        case .unreadableFile(let path, let reason): "cannot read \(path): \(reason)"
        case .malformedGPX(let line, let reason): "GPX line \(line): \(reason)"
        case .malformedNMEA(let line, let reason): "NMEA line \(line): \(reason)"
        case .noLocations(let reason): reason
        }
    }
}

/// Reads recorded tracks into locations (an OpenMapKit addition, for ``MKReplayedLocationProvider``).
///
/// - **GPX** 1.0 and 1.1: the track points (`trkpt`) and route points (`rtept`) in document
///   order, else the way points (`wpt`); `ele` is the altitude, `time` the timestamp, GPX 1.0's
///   `course` and `speed` are used when present and otherwise derived from the neighbouring points,
///   `hdop` gives the horizontal accuracy (5 m per unit, the usual receiver error estimate; 5 m
///   without one). Points without a time are one second apart.
/// - **NMEA 0183**: `GGA` (position, altitude, HDOP) and `RMC` (position, speed in knots, course,
///   date) from any talker (`GP`, `GN`, `GL`, …), merged by time of day; other sentences are
///   skipped, as are fixes a receiver marks invalid (`RMC` status `V`, `GGA` quality 0). A
///   checksum, when present, must match. Without an `RMC` date, fixes are dated 1 January 1970.
public enum MKLocationTrack {
    /// The horizontal accuracy, in metres per unit of HDOP (and for a point without one).
    static let metresPerHDOP = 5.0

    /// The locations of a GPX file.
    public static func locations(gpxFile url: URL) throws(MKLocationTrackError) -> [CLLocation] {
        try locations(gpx: read(url))
    }

    /// The locations of an NMEA file.
    public static func locations(nmeaFile url: URL) throws(MKLocationTrackError) -> [CLLocation] {
        try locations(nmea: read(url))
    }

    private static func read(_ url: URL) throws(MKLocationTrackError) -> Data {
        do { return try Data(contentsOf: url) } catch {
            throw .unreadableFile(path: url.path, reason: (error as NSError).localizedDescription)
        }
    }

    // MARK: - GPX

    /// The locations of a GPX document.
    public static func locations(gpx data: Data) throws(MKLocationTrackError) -> [CLLocation] {
        let reader = GPXReader()
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.delegate = reader
        let parsed = parser.parse()
        if let problem = reader.problem { throw problem }
        guard parsed else {
            let reason = parser.parserError.map { ($0 as NSError).localizedDescription } ?? "not well-formed XML"
            throw .malformedGPX(line: max(parser.lineNumber, 1), reason: reason)
        }
        guard reader.sawRoot else { throw .malformedGPX(line: 1, reason: "the document is not GPX (no <gpx> element)") }
        // libxml2's push parser can end a truncated document without an error: check it closed.
        if let open = reader.openElements.last {
            throw .malformedGPX(line: max(parser.lineNumber, 1), reason: "the document ends inside <\(open)> (truncated?)")
        }
        let points = reader.trackPoints.isEmpty ? reader.wayPoints : reader.trackPoints
        guard !points.isEmpty else { throw .noLocations("the GPX has no track, route or way point") }
        return withDerivedMotion(points.enumerated().map { index, point in
            point.location(fallbackTime: Date(timeIntervalSince1970: TimeInterval(index)))
        })
    }

    /// One GPX point as read.
    struct GPXPoint {
        var coordinate: CLLocationCoordinate2D
        var elevation: Double?
        var time: Date?
        var course: Double?
        var speed: Double?
        var hdop: Double?

        func location(fallbackTime: Date) -> CLLocation {
            CLLocation(coordinate: coordinate, altitude: elevation ?? 0,
                       horizontalAccuracy: (hdop ?? 1) * MKLocationTrack.metresPerHDOP,
                       verticalAccuracy: elevation == nil ? -1 : (hdop ?? 1) * MKLocationTrack.metresPerHDOP * 1.5,
                       course: course ?? -1, speed: speed ?? -1, timestamp: time ?? fallbackTime)
        }
    }

    /// An XMLParser delegate collecting points; the first problem stops the parse.
    final class GPXReader: NSObject, XMLParserDelegate {
        var trackPoints: [GPXPoint] = [], wayPoints: [GPXPoint] = []
        var problem: MKLocationTrackError?
        var sawRoot = false
        private var current: GPXPoint?, currentIsWayPoint = false
        private var text = ""
        private(set) var openElements: [String] = []

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            openElements.append(name)
            let local = name.split(separator: ":").last.map(String.init) ?? name
            if openElements.count == 1 {
                guard local == "gpx" else { return fail(parser, "the root element is <\(name)>, not <gpx>") }
                sawRoot = true
            }
            text = ""
            guard ["trkpt", "rtept", "wpt"].contains(local) else { return }
            guard let lat = attributes["lat"].flatMap(Double.init), let lon = attributes["lon"].flatMap(Double.init),
                  lat.isFinite, lon.isFinite, (-90...90).contains(lat), (-180...180).contains(lon) else {
                return fail(parser, "<\(local)> needs lat in −90…90 and lon in −180…180 (has lat=\(attributes["lat"] ?? "none"), lon=\(attributes["lon"] ?? "none"))")
            }
            current = GPXPoint(coordinate: CLLocationCoordinate2D(latitude: lat, longitude: lon))
            currentIsWayPoint = local == "wpt"
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if !openElements.isEmpty { openElements.removeLast() }
            let local = name.split(separator: ":").last.map(String.init) ?? name
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            text = ""
            guard var point = current else { return }
            func number(_ what: String) -> Double? {
                guard let number = Double(value), number.isFinite else {
                    fail(parser, "<\(what)> is not a number: \"\(value.prefix(40))\"")
                    return nil
                }
                return number
            }
            switch local {
            case "ele": point.elevation = number("ele")
            case "course": point.course = number("course").map { $0.truncatingRemainder(dividingBy: 360) }
            case "speed": point.speed = number("speed").map { max($0, 0) }
            case "hdop": point.hdop = number("hdop").map { max($0, 0) }
            case "time":
                guard let time = MKLocationTrack.isoDate(value) else { return fail(parser, "<time> is not an ISO 8601 date: \"\(value.prefix(40))\"") }
                point.time = time
            case "trkpt", "rtept", "wpt":
                if currentIsWayPoint { wayPoints.append(point) } else { trackPoints.append(point) }
                current = nil
                return
            default: break
            }
            current = point
        }

        private func fail(_ parser: XMLParser, _ reason: String) {
            guard problem == nil else { return }
            problem = .malformedGPX(line: max(parser.lineNumber, 1), reason: reason)
            parser.abortParsing()
        }
    }

    static func isoDate(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }

    /// Fills unknown course and speed from the next point (the last from the one before), when
    /// both have times: the geodesic azimuth and the distance over the time between them.
    static func withDerivedMotion(_ locations: [CLLocation]) -> [CLLocation] {
        guard locations.count > 1 else { return locations }
        return locations.indices.map { i in
            let here = locations[i]
            guard here.course < 0 || here.speed < 0 else { return here }
            let (a, b) = i + 1 < locations.count ? (here, locations[i + 1]) : (locations[i - 1], here)
            let dt = b.timestamp.timeIntervalSince(a.timestamp)
            let inverse = Geodesic.wgs84.inverse(latitude1: a.coordinate.latitude, longitude1: a.coordinate.longitude,
                                                 latitude2: b.coordinate.latitude, longitude2: b.coordinate.longitude)
            let moved = inverse.distance > 0.01
            let course = here.course >= 0 ? here.course : (moved ? (inverse.azimuth1 + 360).truncatingRemainder(dividingBy: 360) : -1)
            let speed = here.speed >= 0 ? here.speed : (dt > 0 ? inverse.distance / dt : -1)
            return CLLocation(coordinate: here.coordinate, altitude: here.altitude, horizontalAccuracy: here.horizontalAccuracy,
                              verticalAccuracy: here.verticalAccuracy, course: course, speed: speed, timestamp: here.timestamp)
        }
    }

    // MARK: - NMEA

    /// The locations of an NMEA 0183 log.
    public static func locations(nmea data: Data) throws(MKLocationTrackError) -> [CLLocation] {
        guard let text = String(data: data, encoding: .utf8) ?? String(data: data, encoding: .isoLatin1) else {
            throw .malformedNMEA(line: 1, reason: "not text")
        }
        var fixes: [NMEAFix] = []
        var date: DateComponents?
        var lineNumber = 0
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            lineNumber += 1
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty { continue }
            guard let sentence = try NMEASentence(line, lineNumber: lineNumber) else { continue }
            guard var fix = try sentence.fix(lineNumber: lineNumber) else { continue }
            if let day = fix.date { date = day } else { fix.date = date }
            // GGA and RMC of the same second are one fix: merge what each knows.
            if let last = fixes.last, last.timeOfDay == fix.timeOfDay, last.sentenceTypes.isDisjoint(with: fix.sentenceTypes) {
                fixes[fixes.count - 1] = last.merged(with: fix)
            } else {
                fixes.append(fix)
            }
        }
        guard !fixes.isEmpty else { throw .noLocations("the NMEA log has no valid GGA or RMC fix") }
        // Fixes before the first RMC date take it; a time of day going backwards is the next day.
        let firstDate = fixes.lazy.compactMap(\.date).first
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var dayOffset = 0.0, previous: Double?
        let locations = fixes.map { fix -> CLLocation in
            let day = fix.date ?? firstDate
            let midnight = day.flatMap { calendar.date(from: $0) } ?? Date(timeIntervalSince1970: 0)
            if fix.date == nil, let previous, fix.timeOfDay < previous { dayOffset += 86_400 }
            previous = fix.timeOfDay
            return fix.location(at: midnight.addingTimeInterval(fix.timeOfDay + (fix.date == nil ? dayOffset : 0)))
        }
        return withDerivedMotion(locations)
    }

    /// One fix from one or two sentences.
    struct NMEAFix {
        var sentenceTypes: Set<String>
        var timeOfDay: Double
        var date: DateComponents?
        var coordinate: CLLocationCoordinate2D
        var altitude: Double?
        var hdop: Double?
        var speed: Double?
        var course: Double?

        func merged(with other: NMEAFix) -> NMEAFix {
            var merged = self
            merged.sentenceTypes.formUnion(other.sentenceTypes)
            merged.date = date ?? other.date
            merged.altitude = altitude ?? other.altitude
            merged.hdop = hdop ?? other.hdop
            merged.speed = speed ?? other.speed
            merged.course = course ?? other.course
            return merged
        }

        func location(at timestamp: Date) -> CLLocation {
            CLLocation(coordinate: coordinate, altitude: altitude ?? 0,
                       horizontalAccuracy: (hdop ?? 1) * MKLocationTrack.metresPerHDOP,
                       verticalAccuracy: altitude == nil ? -1 : (hdop ?? 1) * MKLocationTrack.metresPerHDOP * 1.5,
                       course: course ?? -1, speed: speed ?? -1, timestamp: timestamp)
        }
    }

    /// A checked sentence: its type (`GGA`, `RMC`, …) and fields after the address.
    struct NMEASentence {
        let type: String
        let fields: [String]

        /// Nil for a sentence of another kind than `$`/`!`-led position data we read.
        init?(_ line: String, lineNumber: Int) throws(MKLocationTrackError) {
            guard line.first == "$" || line.first == "!" else {
                throw .malformedNMEA(line: lineNumber, reason: "a sentence starts with $ or !: \"\(line.prefix(40))\"")
            }
            var body = Substring(line.dropFirst())
            if let star = body.lastIndex(of: "*") {
                let given = body[body.index(after: star)...]
                body = body[..<star]
                guard given.count == 2, let checksum = UInt8(given, radix: 16) else {
                    throw .malformedNMEA(line: lineNumber, reason: "the checksum \"\(given.prefix(8))\" is not two hex digits")
                }
                let computed = body.utf8.reduce(UInt8(0), ^)
                guard computed == checksum else {
                    throw .malformedNMEA(line: lineNumber, reason: String(format: "checksum mismatch: the sentence says %02X, its characters give %02X", checksum, computed))
                }
            }
            let parts = body.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard let address = parts.first, address.count >= 3, address.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
                throw .malformedNMEA(line: lineNumber, reason: "no sentence address: \"\(line.prefix(40))\"")
            }
            let type = String(address.suffix(3))
            guard type == "GGA" || type == "RMC" else { return nil }
            self.type = type
            fields = Array(parts.dropFirst())
        }

        /// The fix the sentence holds; nil when the receiver says it has none.
        func fix(lineNumber: Int) throws(MKLocationTrackError) -> NMEAFix? {
            func field(_ i: Int) -> String { i < fields.count ? fields[i] : "" }
            func bad(_ reason: String) -> MKLocationTrackError { .malformedNMEA(line: lineNumber, reason: "\(type): \(reason)") }
            func number(_ i: Int, _ what: String) throws(MKLocationTrackError) -> Double? {
                let text = field(i)
                if text.isEmpty { return nil }
                guard let value = Double(text), value.isFinite else { throw bad("\(what) \"\(text.prefix(20))\" is not a number") }
                return value
            }
            let required = type == "GGA" ? 9 : 9
            guard fields.count >= required else { throw bad("\(fields.count) fields; at least \(required) are needed") }
            switch type {
            case "GGA":
                guard let quality = Int(field(5)) else { throw bad("fix quality \"\(field(5))\" is not a number") }
                if quality == 0 { return nil }
            default:
                guard field(1) == "A" || field(1) == "V" else { throw bad("status \"\(field(1))\" is neither A nor V") }
                if field(1) == "V" { return nil }
            }
            let timeText = field(0)
            guard timeText.count >= 6, let hh = Double(timeText.prefix(2)), let mm = Double(timeText.dropFirst(2).prefix(2)),
                  let ss = Double(timeText.dropFirst(4)), hh < 24, mm < 60, ss < 61 else {
                throw bad("time \"\(timeText.prefix(20))\" is not hhmmss")
            }
            let (latIndex, lonIndex) = type == "GGA" ? (1, 3) : (2, 4)
            let latitude = try angle(field(latIndex), hemisphere: field(latIndex + 1), degreeDigits: 2, positive: "N", negative: "S", limit: 90, bad: bad)
            let longitude = try angle(field(lonIndex), hemisphere: field(lonIndex + 1), degreeDigits: 3, positive: "E", negative: "W", limit: 180, bad: bad)
            var fix = NMEAFix(sentenceTypes: [type], timeOfDay: hh * 3600 + mm * 60 + ss,
                              coordinate: CLLocationCoordinate2D(latitude: latitude, longitude: longitude))
            if type == "GGA" {
                fix.hdop = try number(7, "HDOP").map { max($0, 0) }
                fix.altitude = try number(8, "altitude")
            } else {
                fix.speed = try number(6, "speed").map { max($0, 0) * 1852.0 / 3600.0 }
                fix.course = try number(7, "course").map { $0.truncatingRemainder(dividingBy: 360) }
                let dateText = field(8)
                if !dateText.isEmpty {
                    guard dateText.count == 6, dateText.allSatisfy(\.isASCII), let day = Int(dateText.prefix(2)),
                          let month = Int(dateText.dropFirst(2).prefix(2)), let year = Int(dateText.suffix(2)),
                          (1...31).contains(day), (1...12).contains(month) else {
                        throw bad("date \"\(dateText.prefix(20))\" is not ddmmyy")
                    }
                    // Two-digit years: NMEA 0183 receivers in use date from 1980 on.
                    fix.date = DateComponents(year: year < 80 ? 2000 + year : 1900 + year, month: month, day: day)
                }
            }
            return fix
        }

        /// `ddmm.mmmm` / `dddmm.mmmm` with its hemisphere, in degrees.
        private func angle(_ text: String, hemisphere: String, degreeDigits: Int, positive: String, negative: String, limit: Double,
                           bad: (String) -> MKLocationTrackError) throws(MKLocationTrackError) -> Double {
            guard text.count > degreeDigits, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
                  let degrees = Double(text.prefix(degreeDigits)), let minutes = Double(text.dropFirst(degreeDigits)), minutes < 60 else {
                throw bad("coordinate \"\(text.prefix(20))\" is not \(degreeDigits == 2 ? "ddmm.mmmm" : "dddmm.mmmm")")
            }
            let value = degrees + minutes / 60
            guard value <= limit else { throw bad("coordinate \(value)° is beyond \(limit)°") }
            switch hemisphere {
            case positive: return value
            case negative: return -value
            default: throw bad("hemisphere \"\(hemisphere.prefix(4))\" is neither \(positive) nor \(negative)")
            }
        }
    }
}
