import Foundation

// Unified Maps URLs (https://maps.apple.com/<action>?…, iOS 18.4 / macOS 15.4 / watchOS 11.4) and
// the default-navigation-app scheme (geo-navigation:///<action>?…): typed values, a builder and a
// parser that enforces the documented rules as ``MapsURLError``s.

/// A unified Maps URL: one of the seven actions of `https://maps.apple.com`, with its parameters.
///
/// Build one and read ``url``, or parse one with ``init(url:options:)``:
/// ```swift
/// let link = MapsURL.frame(.init(center: .init(latitude: 40.773957, longitude: -73.970974),
///                                span: .init(latitudeDelta: 0.05, longitudeDelta: 0.05)))
/// link.url  // https://maps.apple.com/frame?center=40.773957,-73.970974&span=0.05,0.05
/// ```
///
/// **Rules.** Parsing enforces the documented rules and reports each violation as a
/// ``MapsURLError`` naming the parameter: a `*-place-id` needs its base parameter, camera
/// properties (`heading`, `pitch`, `distance`) need a `center`, enumerated values must be one of
/// the documented ones (so the prose example's `avoid=hills` is rejected), and coordinates must
/// be `lat,lon` in range. ``validate()`` applies the same semantic rules to a value built in
/// code; ``url`` writes whatever the value holds.
///
/// **Precedence** is modelled rather than enforced: ``Frame/effectiveFraming`` applies "tracking
/// mode beats camera, camera beats span", and ``Directions/source`` is
/// ``Origin/currentLocation`` when the URL has no `source`.
///
/// **Encoding.** Parameters are written in the order of each action's `parameterNames`.
/// Values are percent-encoded as UTF-8, leaving only unreserved characters and `,` literal
/// (spaces become `%20`, `+` becomes `%2B`); when reading, `+` is also accepted for a space.
/// Numbers are written with up to seven decimals and no trailing zeros (about 1 cm of latitude).
public enum MapsURL: Hashable, Sendable, CustomStringConvertible {
    /// `/frame`: frame the map on a centre, span or camera, optionally tracking the person.
    case frame(Frame)
    /// `/search`: search for a query (a kind of place, an address or a city).
    case search(Search)
    /// `/place`: show a place card.
    case place(Place)
    /// `/look-around`: start Look Around at a location.
    case lookAround(LookAround)
    /// `/directions`: route from a source, through waypoints, to a destination.
    case directions(Directions)
    /// `/guides`: place guides and curated collections. Takes no parameters.
    case guides
    /// `/report-a-problem`: open a problem-report sheet for a location.
    case reportAProblem(ReportAProblem)

    /// The host of unified Maps URLs.
    public static let appleHost = "maps.apple.com"
    /// `https://maps.apple.com`, the base that ``url`` builds on.
    public static let appleBaseURL = URL(string: "https://maps.apple.com")!
    /// Shortened share links live on hosts that end in this (no `.com`).
    public static let shortenedHostSuffix = "maps.apple"

    /// The path component that selects what Maps does.
    public enum Action: String, CaseIterable, Hashable, Sendable {
        case frame
        case search
        case place
        case lookAround = "look-around"
        case directions
        case guides
        case reportAProblem = "report-a-problem"

        /// The URL path, such as `/look-around`.
        public var path: String { "/" + rawValue }

        /// The documented query parameters, in the order the builder writes them.
        public var parameterNames: [String] {
            switch self {
            case .frame: return Frame.parameterNames
            case .search: return Search.parameterNames
            case .place: return Place.parameterNames
            case .lookAround: return LookAround.parameterNames
            case .directions: return Directions.parameterNames
            case .guides: return []
            case .reportAProblem: return ReportAProblem.parameterNames
            }
        }
    }

    /// Map tracking of the person's location (`mode` of `/frame`).
    public enum TrackingMode: String, CaseIterable, Hashable, Sendable {
        /// The map follows the person's location.
        case follow
        /// The map follows the person's location and heading.
        case followWithHeading = "follow-with-heading"
        /// No tracking.
        case none
    }

    /// The kind of map shown (`map` of `/frame` and `/place`).
    public enum MapType: String, CaseIterable, Hashable, Sendable {
        case explore, driving, transit, satellite, hybrid
    }

    /// How to travel (`mode` of `/directions`).
    public enum TransportMode: String, CaseIterable, Hashable, Sendable {
        case driving, walking, transit, cycling
    }

    /// Something a route should avoid (`avoid` of `/directions`).
    public enum AvoidOption: String, CaseIterable, Hashable, Sendable {
        case tolls
        case highways
        case busyRoads = "busy-roads"
        case stairs

        /// Whether the option means anything for `mode`. Maps ignores options that don't apply;
        /// the split follows the route options Maps offers per mode.‡
        public func applies(to mode: TransportMode) -> Bool {
            switch self {
            case .tolls, .highways: return mode == .driving
            case .busyRoads: return mode == .walking || mode == .cycling
            case .stairs: return mode == .walking
            }
        }
    }

    /// A preferred kind of public transport (`transit-preferences` of `/directions`).
    public enum TransitPreference: String, CaseIterable, Hashable, Sendable {
        case bus, subway, commuter, ferry
    }

    /// A place given the way `/directions` accepts it: a coordinate, or text that Maps resolves
    /// (an address or a place name).
    ///
    /// When parsing, a value made of two plain decimal numbers separated by a comma is a
    /// coordinate (and must be in range); anything else is text. So `.address("40.7,-73.9")`
    /// reads back as a coordinate.
    public enum Location: Hashable, Sendable {
        case coordinate(CLLocationCoordinate2D)
        /// An address or place name, such as "1 Dr Carlton B Goodlett Pl San Francisco, CA 94102".
        case address(String)
    }

    /// A route stop: a location and, optionally, the Place ID that pins it down.
    ///
    /// The Place ID can't exist without the location, which is the rule "`*-place-id` requires
    /// its base parameter" built into the type.
    public struct Stop: Hashable, Sendable {
        public var location: Location
        /// A Place ID such as `IBE1F65094A7A13B1`.
        public var placeID: String?

        public init(_ location: Location, placeID: String? = nil) {
            self.location = location
            self.placeID = placeID
        }
    }

    /// Where directions start.
    public enum Origin: Hashable, Sendable {
        /// The person's current location: what Maps uses when the URL has no `source`.
        case currentLocation
        case stop(Stop)
    }

    // MARK: Actions

    /// `/frame` parameters.
    public struct Frame: Hashable, Sendable {
        /// The seven documented parameters.
        public static let parameterNames = ["center", "span", "mode", "heading", "pitch", "distance", "map"]

        /// The centre of the map; required by the camera properties.
        public var center: CLLocationCoordinate2D?
        /// Latitude and longitude extent, in degrees.
        public var span: MKCoordinateSpan?
        /// Location tracking; `follow` and `follow-with-heading` take precedence over the camera.
        public var mode: TrackingMode?
        /// Camera: degrees clockwise from true north that the map faces.
        public var heading: CLLocationDirection?
        /// Camera: degrees from looking straight down, 0 … 90.
        public var pitch: Double?
        /// Camera: metres from the viewer to the map surface, 0 or more; also determines the span.
        public var distance: CLLocationDistance?
        public var map: MapType?

        public init(center: CLLocationCoordinate2D? = nil, span: MKCoordinateSpan? = nil, mode: TrackingMode? = nil,
                    heading: CLLocationDirection? = nil, pitch: Double? = nil, distance: CLLocationDistance? = nil,
                    map: MapType? = nil) {
            self.center = center
            self.span = span
            self.mode = mode
            self.heading = heading
            self.pitch = pitch
            self.distance = distance
            self.map = map
        }

        /// Whether any of `heading`, `pitch` or `distance` is set.
        public var hasCameraProperties: Bool { heading != nil || pitch != nil || distance != nil }

        /// What actually frames the map, after the documented precedence: a tracking mode other
        /// than `none` beats the camera; the camera (which needs `center`) beats `span`.
        public var effectiveFraming: Framing {
            if let mode, mode != .none { return .userTracking(mode) }
            if let center {
                if hasCameraProperties {
                    return .camera(CameraProperties(center: center, heading: heading, pitch: pitch, distance: distance))
                }
                if let span { return .region(MKCoordinateRegion(center: center, span: span)) }
                return .center(center)
            }
            if let span { return .span(span) }
            return .unspecified
        }
    }

    /// The camera a `/frame` URL asks for; unset properties keep Maps' defaults.
    public struct CameraProperties: Hashable, Sendable {
        public var center: CLLocationCoordinate2D
        public var heading: CLLocationDirection?
        public var pitch: Double?
        public var distance: CLLocationDistance?

        public init(center: CLLocationCoordinate2D, heading: CLLocationDirection? = nil, pitch: Double? = nil,
                    distance: CLLocationDistance? = nil) {
            self.center = center
            self.heading = heading
            self.pitch = pitch
            self.distance = distance
        }
    }

    /// The framing that wins among a `/frame` URL's parameters (see ``Frame/effectiveFraming``).
    public enum Framing: Hashable, Sendable {
        /// Follow the person (`follow` or `follow-with-heading`); camera and span are ignored.
        case userTracking(TrackingMode)
        /// A camera at `center`; any span is ignored.
        case camera(CameraProperties)
        /// A centre and a span.
        case region(MKCoordinateRegion)
        /// Only a centre; Maps picks the zoom.
        case center(CLLocationCoordinate2D)
        /// Only a span, around Maps' default centre.
        case span(MKCoordinateSpan)
        /// Nothing about framing; Maps keeps its defaults.
        case unspecified
    }

    /// `/search` parameters.
    public struct Search: Hashable, Sendable {
        /// The three documented parameters.
        public static let parameterNames = ["center", "query", "span"]

        /// Where to search; `nil` means around the person's location.
        public var center: CLLocationCoordinate2D?
        /// What to search for: a kind of place ("pizza"), an address or a city.
        public var query: String?
        /// The area around the centre, in degrees.
        public var span: MKCoordinateSpan?

        public init(query: String? = nil, center: CLLocationCoordinate2D? = nil, span: MKCoordinateSpan? = nil) {
            self.query = query
            self.center = center
            self.span = span
        }
    }

    /// `/place` parameters. Any combination of coordinate, address and Place ID may be given.
    public struct Place: Hashable, Sendable {
        /// The four documented parameters.
        public static let parameterNames = ["coordinate", "address", "place-id", "map"]

        public var coordinate: CLLocationCoordinate2D?
        public var address: String?
        public var placeID: String?
        public var map: MapType?

        public init(coordinate: CLLocationCoordinate2D? = nil, address: String? = nil, placeID: String? = nil,
                    map: MapType? = nil) {
            self.coordinate = coordinate
            self.address = address
            self.placeID = placeID
            self.map = map
        }
    }

    /// A place named by coordinate, address or Place ID: the parameters of `/look-around`
    /// (where at least one of the three is required) and of `/report-a-problem`.
    public struct PlaceReference: Hashable, Sendable {
        /// The three documented parameters.
        public static let parameterNames = ["coordinate", "address", "place-id"]

        public var coordinate: CLLocationCoordinate2D?
        public var address: String?
        public var placeID: String?

        public init(coordinate: CLLocationCoordinate2D? = nil, address: String? = nil, placeID: String? = nil) {
            self.coordinate = coordinate
            self.address = address
            self.placeID = placeID
        }
    }

    /// `/look-around` parameters.
    public typealias LookAround = PlaceReference
    /// `/report-a-problem` parameters.
    public typealias ReportAProblem = PlaceReference

    /// `/directions` parameters.
    public struct Directions: Hashable, Sendable {
        /// The ten documented parameters.
        public static let parameterNames = ["source", "source-place-id", "destination", "destination-place-id",
                                            "waypoint", "waypoint-place-id", "mode", "avoid", "transit-preferences",
                                            "start"]

        /// Where the route starts; ``Origin/currentLocation`` when the URL has no `source`.
        public var source: Origin
        public var destination: Stop?
        /// Intermediate stops in travel order. Each `waypoint-place-id` belongs to the
        /// `waypoint` just before it in the query.
        public var waypoints: [Stop]
        public var mode: TransportMode?
        public var avoid: Set<AvoidOption>
        public var transitPreferences: Set<TransitPreference>
        /// Seconds to wait before navigation starts.
        public var start: Int?

        public init(source: Origin = .currentLocation, destination: Stop? = nil, waypoints: [Stop] = [],
                    mode: TransportMode? = nil, avoid: Set<AvoidOption> = [],
                    transitPreferences: Set<TransitPreference> = [], start: Int? = nil) {
            self.source = source
            self.destination = destination
            self.waypoints = waypoints
            self.mode = mode
            self.avoid = avoid
            self.transitPreferences = transitPreferences
            self.start = start
        }

        /// The `avoid` options that apply to ``mode`` (all of them when no mode is given,
        /// since Maps then uses the person's preferred mode).
        public var effectiveAvoid: Set<AvoidOption> {
            guard let mode else { return avoid }
            return avoid.filter { $0.applies(to: mode) }
        }

        /// The transit preferences, which only matter for transit (or when no mode is given).
        public var effectiveTransitPreferences: Set<TransitPreference> {
            mode == nil || mode == .transit ? transitPreferences : []
        }
    }

    // MARK: Options

    /// What the parser accepts besides `http(s)://maps.apple.com`.
    public struct ParseOptions: Hashable, Sendable {
        /// Bases of self-hosted equivalents, such as `https://maps.example.org` or
        /// `http://localhost:8080/maps`. A URL matches a base when scheme, host (ignoring case)
        /// and port are equal and its path continues the base's path with `/<action>`.
        public var selfHostedBaseURLs: [URL]
        /// Whether parameters outside the action's documented list are an error. By default they
        /// are ignored, as Maps ignores them, so newer or undocumented parameters don't break parsing.
        public var rejectsUnknownParameters: Bool

        public init(selfHostedBaseURLs: [URL] = [], rejectsUnknownParameters: Bool = false) {
            self.selfHostedBaseURLs = selfHostedBaseURLs
            self.rejectsUnknownParameters = rejectsUnknownParameters
        }
    }

    // MARK: Building

    /// The path component of this URL.
    public var action: Action {
        switch self {
        case .frame: return .frame
        case .search: return .search
        case .place: return .place
        case .lookAround: return .lookAround
        case .directions: return .directions
        case .guides: return .guides
        case .reportAProblem: return .reportAProblem
        }
    }

    /// The `https://maps.apple.com/…` URL.
    public var url: URL {
        // Cannot fail: the base is a valid constant and every query byte is percent-encoded.
        (try? url(base: Self.appleBaseURL)) ?? Self.appleBaseURL
    }

    /// The URL on another base, such as a self-hosted server: `<base>/<action>?<query>`.
    /// The base's path is kept; its query and fragment are dropped.
    ///
    /// - Throws: ``MapsURLError/invalidBaseURL(_:)`` when `base` has no scheme or host.
    public func url(base: URL) throws(MapsURLError) -> URL {
        guard let components = URLComponents(url: base, resolvingAgainstBaseURL: true),
              let scheme = components.scheme, let host = components.percentEncodedHost, !host.isEmpty else {
            throw .invalidBaseURL(base.absoluteString)
        }
        var text = scheme + "://" + host
        if let port = components.port { text += ":\(port)" }
        var path = components.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        text += path + action.path
        let query = MapsQuery.encode(queryPairs)
        if !query.isEmpty { text += "?" + query }
        guard let url = URL(string: text) else { throw .invalidBaseURL(base.absoluteString) }
        return url
    }

    /// The query parameters ``url`` writes, in order, unencoded.
    public var queryItems: [URLQueryItem] {
        queryPairs.map { URLQueryItem(name: $0.name, value: $0.value) }
    }

    public var description: String { url.absoluteString }

    var queryPairs: [(name: String, value: String)] {
        var pairs: [(name: String, value: String)] = []
        func add(_ name: String, _ value: String?) {
            if let value { pairs.append((name, value)) }
        }
        switch self {
        case .frame(let frame):
            add("center", frame.center.map(MapsQuery.format))
            add("span", frame.span.map(MapsQuery.format))
            add("mode", frame.mode?.rawValue)
            add("heading", frame.heading.map(MapsQuery.format))
            add("pitch", frame.pitch.map(MapsQuery.format))
            add("distance", frame.distance.map(MapsQuery.format))
            add("map", frame.map?.rawValue)
        case .search(let search):
            add("center", search.center.map(MapsQuery.format))
            add("query", search.query)
            add("span", search.span.map(MapsQuery.format))
        case .place(let place):
            add("coordinate", place.coordinate.map(MapsQuery.format))
            add("address", place.address)
            add("place-id", place.placeID)
            add("map", place.map?.rawValue)
        case .lookAround(let lookAround):
            add("coordinate", lookAround.coordinate.map(MapsQuery.format))
            add("address", lookAround.address)
            add("place-id", lookAround.placeID)
        case .reportAProblem(let report):
            add("coordinate", report.coordinate.map(MapsQuery.format))
            add("address", report.address)
            add("place-id", report.placeID)
        case .directions(let directions):
            if case .stop(let source) = directions.source {
                add("source", MapsQuery.format(source.location))
                add("source-place-id", source.placeID)
            }
            if let destination = directions.destination {
                add("destination", MapsQuery.format(destination.location))
                add("destination-place-id", destination.placeID)
            }
            for waypoint in directions.waypoints {
                add("waypoint", MapsQuery.format(waypoint.location))
                add("waypoint-place-id", waypoint.placeID)
            }
            add("mode", directions.mode?.rawValue)
            if !directions.avoid.isEmpty {
                add("avoid", AvoidOption.allCases.filter(directions.avoid.contains).map(\.rawValue).joined(separator: ","))
            }
            if !directions.transitPreferences.isEmpty {
                add("transit-preferences", TransitPreference.allCases.filter(directions.transitPreferences.contains)
                    .map(\.rawValue).joined(separator: ","))
            }
            add("start", directions.start.map(String.init))
        case .guides:
            break
        }
        return pairs
    }

    // MARK: Validation

    /// Checks the documented rules that the types can't express: camera properties need a
    /// centre; coordinates, spans, camera values and `start` are in range; text values and
    /// Place IDs aren't empty; `/look-around` names a location. Parsing applies the same checks.
    public func validate() throws(MapsURLError) {
        switch self {
        case .frame(let frame):
            if frame.center == nil {
                for (name, value) in [("heading", frame.heading), ("pitch", frame.pitch), ("distance", frame.distance)]
                where value != nil {
                    throw .requiresParameter(name, requires: "center")
                }
            }
            try MapsQuery.check(frame.center, parameter: "center")
            try MapsQuery.check(frame.span, parameter: "span")
            try MapsQuery.checkFinite(frame.heading, parameter: "heading")
            if let pitch = frame.pitch, !(pitch.isFinite && (0...90).contains(pitch)) {
                throw .invalidValue(parameter: "pitch", value: MapsQuery.format(pitch), expected: "degrees from 0 to 90")
            }
            if let distance = frame.distance, !(distance.isFinite && distance >= 0) {
                throw .invalidValue(parameter: "distance", value: MapsQuery.format(distance),
                                    expected: "a distance in metres, 0 or more")
            }
        case .search(let search):
            try MapsQuery.check(search.center, parameter: "center")
            try MapsQuery.checkText(search.query, parameter: "query")
            try MapsQuery.check(search.span, parameter: "span")
        case .place(let place):
            try MapsQuery.check(place.coordinate, parameter: "coordinate")
            try MapsQuery.checkText(place.address, parameter: "address")
            try MapsQuery.checkText(place.placeID, parameter: "place-id")
        case .lookAround(let lookAround):
            try MapsQuery.check(lookAround.coordinate, parameter: "coordinate")
            try MapsQuery.checkText(lookAround.address, parameter: "address")
            try MapsQuery.checkText(lookAround.placeID, parameter: "place-id")
            if lookAround.coordinate == nil, lookAround.address == nil, lookAround.placeID == nil {
                throw .missingParameter(action: Action.lookAround.rawValue, oneOf: LookAround.parameterNames)
            }
        case .reportAProblem(let report):
            try MapsQuery.check(report.coordinate, parameter: "coordinate")
            try MapsQuery.checkText(report.address, parameter: "address")
            try MapsQuery.checkText(report.placeID, parameter: "place-id")
        case .directions(let directions):
            if case .stop(let source) = directions.source {
                try MapsQuery.check(source, parameter: "source")
            }
            if let destination = directions.destination {
                try MapsQuery.check(destination, parameter: "destination")
            }
            for waypoint in directions.waypoints {
                try MapsQuery.check(waypoint, parameter: "waypoint")
            }
            if let start = directions.start, start < 0 {
                throw .invalidValue(parameter: "start", value: String(start), expected: "a whole number of seconds, 0 or more")
            }
        case .guides:
            break
        }
    }

    // MARK: Parsing

    /// Parses a unified Maps URL on `maps.apple.com` (http or https) or on one of
    /// `options.selfHostedBaseURLs`.
    ///
    /// - Throws: ``MapsURLError/shortenedLink(_:)`` for a `…maps.apple` share link, which has
    ///   to be resolved first (its full URL is in the `Location` of the server's HTTP 301
    ///   response); ``MapsURLError/notAMapsURL(_:)`` for a `geo-navigation:` URL (use
    ///   ``GeoNavigationURL``); otherwise the first problem found, naming the parameter.
    public init(url: URL, options: ParseOptions = ParseOptions()) throws(MapsURLError) {
        if url.scheme?.lowercased() == GeoNavigationURL.scheme { throw .notAMapsURL(url.absoluteString) }
        switch try MapsLink(url: url, options: options) {
        case .maps(let maps): self = maps
        case .shortened(let link): throw .shortenedLink(link)
        case .geoNavigation: throw .notAMapsURL(url.absoluteString)
        }
    }

    /// Same as ``init(url:options:)``.
    public static func parse(_ url: URL, options: ParseOptions = ParseOptions()) throws(MapsURLError) -> MapsURL {
        try MapsURL(url: url, options: options)
    }

    /// Whether `url` is a shortened Maps share link: http(s) on a host ending in `maps.apple`.
    public static func isShortenedLink(_ url: URL) -> Bool {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
              let scheme = components.scheme?.lowercased(), scheme == "https" || scheme == "http",
              let host = components.host else { return false }
        return MapsQuery.normalizedHost(host).hasSuffix(shortenedHostSuffix)
    }

    init(action: Action, query: MapsQuery, options: ParseOptions) throws(MapsURLError) {
        if options.rejectsUnknownParameters {
            try query.rejectUnknown(allowed: action.parameterNames, action: action.rawValue)
        }
        switch action {
        case .frame:
            self = .frame(Frame(center: try query.coordinate("center"), span: try query.span("span"),
                                mode: try query.enumeration("mode"), heading: try query.number("heading"),
                                pitch: try query.number("pitch"), distance: try query.number("distance"),
                                map: try query.enumeration("map")))
        case .search:
            self = .search(Search(query: try query.single("query"), center: try query.coordinate("center"),
                                  span: try query.span("span")))
        case .place:
            self = .place(Place(coordinate: try query.coordinate("coordinate"), address: try query.single("address"),
                                placeID: try query.single("place-id"), map: try query.enumeration("map")))
        case .lookAround:
            self = .lookAround(LookAround(coordinate: try query.coordinate("coordinate"),
                                          address: try query.single("address"), placeID: try query.single("place-id")))
        case .reportAProblem:
            self = .reportAProblem(ReportAProblem(coordinate: try query.coordinate("coordinate"),
                                                  address: try query.single("address"),
                                                  placeID: try query.single("place-id")))
        case .guides:
            self = .guides
        case .directions:
            self = .directions(try Self.directions(query))
        }
        try validate()
    }

    private static func directions(_ query: MapsQuery) throws(MapsURLError) -> Directions {
        var directions = Directions()
        if let source = try query.location("source") {
            directions.source = .stop(Stop(source, placeID: try query.single("source-place-id")))
        } else if query.contains("source-place-id") {
            throw .requiresParameter("source-place-id", requires: "source")
        }
        if let destination = try query.location("destination") {
            directions.destination = Stop(destination, placeID: try query.single("destination-place-id"))
        } else if query.contains("destination-place-id") {
            throw .requiresParameter("destination-place-id", requires: "destination")
        }
        // Waypoints keep their query order; each place ID attaches to the waypoint before it.
        for item in query.items {
            switch item.name {
            case "waypoint":
                directions.waypoints.append(Stop(try MapsQuery.location(item.value, parameter: "waypoint")))
            case "waypoint-place-id":
                guard let last = directions.waypoints.indices.last, directions.waypoints[last].placeID == nil else {
                    throw .requiresParameter("waypoint-place-id", requires: "waypoint")
                }
                try MapsQuery.checkText(item.value, parameter: "waypoint-place-id")
                directions.waypoints[last].placeID = item.value
            default:
                break
            }
        }
        directions.mode = try query.enumeration("mode")
        directions.avoid = try query.list("avoid")
        directions.transitPreferences = try query.list("transit-preferences")
        if let start = try query.single("start") {
            guard start.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let seconds = Int(start) else {
                throw .invalidValue(parameter: "start", value: start, expected: "a whole number of seconds, 0 or more")
            }
            directions.start = seconds
        }
        return directions
    }
}

/// What a Maps-related URL is, before anything is resolved.
public enum MapsLink: Hashable, Sendable {
    /// A unified Maps URL on `maps.apple.com` or a configured self-hosted base.
    case maps(MapsURL)
    /// A `geo-navigation:` URL for the default navigation app.
    case geoNavigation(GeoNavigationURL)
    /// A shortened share link (host ending in `maps.apple`). Its full URL is only available
    /// from the `Location` header of the HTTP 301 response to a request for it; fetch that and
    /// parse the result.
    case shortened(URL)

    /// Classifies and parses `url`.
    ///
    /// - Throws: the ``MapsURLError`` of the URL's first problem; a URL that isn't a Maps URL at
    ///   all gives ``MapsURLError/unsupportedScheme(_:)`` or ``MapsURLError/unrecognizedHost(_:)``.
    public init(url: URL, options: MapsURL.ParseOptions = MapsURL.ParseOptions()) throws(MapsURLError) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
              let scheme = components.scheme?.lowercased() else {
            throw .malformedURL(url.absoluteString)
        }
        if scheme == GeoNavigationURL.scheme {
            self = .geoNavigation(try GeoNavigationURL(components: components, options: options))
            return
        }
        let host = MapsQuery.normalizedHost(components.host ?? "")
        let path = components.percentEncodedPath
        for base in options.selfHostedBaseURLs {
            if let rest = MapsQuery.pathAfter(base: base, scheme: scheme, host: host, port: components.port, path: path) {
                self = .maps(try MapsURL(action: MapsQuery.action(rest), query: try MapsQuery(components), options: options))
                return
            }
        }
        guard scheme == "https" || scheme == "http" else { throw .unsupportedScheme(scheme) }
        if host.hasSuffix(MapsURL.shortenedHostSuffix) {
            self = .shortened(url)
            return
        }
        guard host == MapsURL.appleHost else { throw .unrecognizedHost(host) }
        self = .maps(try MapsURL(action: MapsQuery.action(path), query: try MapsQuery(components), options: options))
    }
}

/// A `geo-navigation:` URL, which iOS sends to the person's chosen default navigation app
/// (EU from iOS 18.4, Japan from iOS 26.2).
///
/// Written `geo-navigation:///directions?…` (empty host, action as the path); the parser also
/// accepts `geo-navigation://directions?…` (action as the host).
public enum GeoNavigationURL: Hashable, Sendable, CustomStringConvertible {
    /// `/directions`: a route from a source through waypoints to a destination.
    case directions(Directions)
    /// `/place`: show a place.
    case place(Place)

    /// The URL scheme, `geo-navigation`.
    public static let scheme = "geo-navigation"
    private static let emptyURL = URL(string: "geo-navigation:///")!

    /// `/directions` parameters.
    ///
    /// The documentation lists source + destination (+ waypoints) as the accepted
    /// combinations. A missing `source` is still accepted and means the current location, as in
    /// unified Maps URLs, because a navigation app should not refuse a route it can start from
    /// where the person is; a missing `destination` is an error.
    public struct Directions: Hashable, Sendable {
        /// The documented parameters.
        public static let parameterNames = ["source", "destination", "waypoint"]

        public var source: MapsURL.Origin
        public var destination: MapsURL.Location
        /// Intermediate stops, in travel order.
        public var waypoints: [MapsURL.Location]

        public init(source: MapsURL.Origin = .currentLocation, destination: MapsURL.Location,
                    waypoints: [MapsURL.Location] = []) {
            self.source = source
            self.destination = destination
            self.waypoints = waypoints
        }

        /// The geo-navigation form of unified-URL directions, for handing a route to the default
        /// navigation app. Place IDs, mode, avoid options and the start delay have no
        /// geo-navigation equivalent and are dropped; `nil` without a destination.
        public init?(_ directions: MapsURL.Directions) {
            guard let destination = directions.destination else { return nil }
            switch directions.source {
            case .currentLocation: source = .currentLocation
            case .stop(let stop): source = .stop(MapsURL.Stop(stop.location))
            }
            self.destination = destination.location
            waypoints = directions.waypoints.map(\.location)
        }
    }

    /// `/place` parameters; at least one of the two is required.
    public struct Place: Hashable, Sendable {
        /// The documented parameters.
        public static let parameterNames = ["coordinate", "address"]

        public var coordinate: CLLocationCoordinate2D?
        public var address: String?

        public init(coordinate: CLLocationCoordinate2D? = nil, address: String? = nil) {
            self.coordinate = coordinate
            self.address = address
        }
    }

    /// The path component, `directions` or `place`.
    public var actionName: String {
        switch self {
        case .directions: return "directions"
        case .place: return "place"
        }
    }

    /// `geo-navigation:///<action>?<query>`.
    public var url: URL {
        var text = Self.scheme + ":///" + actionName
        let query = MapsQuery.encode(queryPairs)
        if !query.isEmpty { text += "?" + query }
        // Cannot fail: the prefix is constant and every query byte is percent-encoded.
        return URL(string: text) ?? Self.emptyURL
    }

    public var description: String { url.absoluteString }

    var queryPairs: [(name: String, value: String)] {
        var pairs: [(name: String, value: String)] = []
        switch self {
        case .directions(let directions):
            if case .stop(let source) = directions.source { pairs.append(("source", MapsQuery.format(source.location))) }
            pairs.append(("destination", MapsQuery.format(directions.destination)))
            for waypoint in directions.waypoints { pairs.append(("waypoint", MapsQuery.format(waypoint))) }
        case .place(let place):
            if let coordinate = place.coordinate { pairs.append(("coordinate", MapsQuery.format(coordinate))) }
            if let address = place.address { pairs.append(("address", address)) }
        }
        return pairs
    }

    /// Checks coordinates are in range, text isn't empty, and `/place` has a coordinate or an
    /// address. Parsing applies the same checks.
    public func validate() throws(MapsURLError) {
        switch self {
        case .directions(let directions):
            if case .stop(let source) = directions.source { try MapsQuery.check(source, parameter: "source") }
            try MapsQuery.check(MapsURL.Stop(directions.destination), parameter: "destination")
            for waypoint in directions.waypoints { try MapsQuery.check(MapsURL.Stop(waypoint), parameter: "waypoint") }
        case .place(let place):
            try MapsQuery.check(place.coordinate, parameter: "coordinate")
            try MapsQuery.checkText(place.address, parameter: "address")
            if place.coordinate == nil, place.address == nil {
                throw .missingParameter(action: "place", oneOf: Place.parameterNames)
            }
        }
    }

    /// Parses a `geo-navigation:` URL.
    ///
    /// - Throws: ``MapsURLError/unsupportedScheme(_:)`` for another scheme, otherwise the first
    ///   problem found, naming the parameter.
    public init(url: URL, options: MapsURL.ParseOptions = MapsURL.ParseOptions()) throws(MapsURLError) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
              let scheme = components.scheme?.lowercased() else {
            throw .malformedURL(url.absoluteString)
        }
        guard scheme == Self.scheme else { throw .unsupportedScheme(scheme) }
        try self.init(components: components, options: options)
    }

    init(components: URLComponents, options: MapsURL.ParseOptions) throws(MapsURLError) {
        var action = (components.host ?? "") + components.percentEncodedPath
        while action.hasPrefix("/") { action.removeFirst() }
        while action.hasSuffix("/") { action.removeLast() }
        let query = try MapsQuery(components)
        switch action.lowercased() {
        case "directions":
            if options.rejectsUnknownParameters {
                try query.rejectUnknown(allowed: Directions.parameterNames, action: "directions")
            }
            guard let destination = try query.location("destination") else {
                throw .missingParameter(action: "directions", oneOf: ["destination"])
            }
            var directions = Directions(destination: destination)
            if let source = try query.location("source") { directions.source = .stop(MapsURL.Stop(source)) }
            for item in query.items where item.name == "waypoint" {
                directions.waypoints.append(try MapsQuery.location(item.value, parameter: "waypoint"))
            }
            self = .directions(directions)
        case "place":
            if options.rejectsUnknownParameters {
                try query.rejectUnknown(allowed: Place.parameterNames, action: "place")
            }
            self = .place(Place(coordinate: try query.coordinate("coordinate"), address: try query.single("address")))
        case "":
            throw .missingAction
        default:
            throw .unknownAction(action)
        }
        try validate()
    }
}

/// Why a Maps URL could not be built or parsed. Every case names what was wrong and where.
public enum MapsURLError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text is not a URL that Foundation can take apart.
    case malformedURL(String)
    /// The scheme is neither http(s) (nor a configured self-hosted scheme) nor `geo-navigation`.
    case unsupportedScheme(String)
    /// An http(s) host that is neither `maps.apple.com`, a shortened-link host nor a configured
    /// self-hosted base.
    case unrecognizedHost(String)
    /// A `geo-navigation:` URL given to ``MapsURL``; parse it with ``GeoNavigationURL``.
    case notAMapsURL(String)
    /// A shortened share link; request it and parse the URL in the HTTP 301 response.
    case shortenedLink(URL)
    /// The URL has no action path (such as a legacy `maps.apple.com/?q=…` link).
    case missingAction
    /// The path is not one of the documented actions.
    case unknownAction(String)
    /// A parameter's name or value contains an invalid `%` escape.
    case malformedPercentEncoding(parameter: String)
    /// A single-valued parameter appears more than once.
    case duplicateParameter(String)
    /// A parameter is present with an empty value.
    case emptyValue(parameter: String)
    /// A parameter outside the action's documented list (only with
    /// ``MapsURL/ParseOptions/rejectsUnknownParameters``).
    case unknownParameter(String, action: String)
    /// A value that isn't one of the allowed ones or not a valid number.
    case invalidValue(parameter: String, value: String, expected: String)
    /// A coordinate or span that is malformed or out of range.
    case invalidCoordinate(parameter: String, value: String, reason: String)
    /// A parameter given without the one it depends on (`source-place-id` without `source`,
    /// `heading` without `center`, …).
    case requiresParameter(String, requires: String)
    /// An action given none of the parameters it needs.
    case missingParameter(action: String, oneOf: [String])
    /// A base URL without a scheme or host.
    case invalidBaseURL(String)

    public var description: String {
        switch self {
        case .malformedURL(let url):
            return "\"\(url)\" is not a well-formed URL."
        case .unsupportedScheme(let scheme):
            return "The scheme \"\(scheme)\" is not a Maps URL scheme; expected https, http or geo-navigation."
        case .unrecognizedHost(let host):
            return "The host \"\(host)\" is not \(MapsURL.appleHost), a shortened-link host or a configured self-hosted base."
        case .notAMapsURL(let url):
            return "\"\(url)\" is a geo-navigation URL; parse it with GeoNavigationURL."
        case .shortenedLink(let url):
            return "\"\(url.absoluteString)\" is a shortened Maps link; request it and parse the full URL from the HTTP 301 response's Location header."
        case .missingAction:
            return "The URL has no action; expected one of "
                + MapsURL.Action.allCases.map(\.path).joined(separator: ", ") + "."
        case .unknownAction(let action):
            return "\"\(action)\" is not a Maps URL action; expected one of "
                + MapsURL.Action.allCases.map(\.path).joined(separator: ", ") + "."
        case .malformedPercentEncoding(let parameter):
            return "The parameter \"\(parameter)\" has an invalid percent escape."
        case .duplicateParameter(let parameter):
            return "The parameter \"\(parameter)\" appears more than once."
        case .emptyValue(let parameter):
            return "The parameter \"\(parameter)\" has an empty value."
        case .unknownParameter(let parameter, let action):
            return "\"\(parameter)\" is not a parameter of /\(action)."
        case .invalidValue(let parameter, let value, let expected):
            return "The \"\(parameter)\" value \"\(value)\" is invalid; expected \(expected)."
        case .invalidCoordinate(let parameter, let value, let reason):
            return "The \"\(parameter)\" value \"\(value)\" is invalid: \(reason)."
        case .requiresParameter(let parameter, let requires):
            return "\"\(parameter)\" requires a \"\(requires)\" parameter."
        case .missingParameter(let action, let oneOf):
            return "/\(action) needs " + (oneOf.count == 1 ? "\"\(oneOf[0])\"" : "one of "
                + oneOf.map { "\"\($0)\"" }.joined(separator: ", ")) + "."
        case .invalidBaseURL(let base):
            return "\"\(base)\" cannot serve as a base URL: it needs a scheme and a host."
        }
    }
}

extension MapsURLError: LocalizedError {
    public var errorDescription: String? { description }
}

/// The decoded query of a Maps URL, in order, with typed readers that throw
/// ``MapsURLError``s naming the parameter. Also home to the encoding helpers.
struct MapsQuery {
    var items: [(name: String, value: String)]

    init(_ components: URLComponents) throws(MapsURLError) {
        items = []
        guard let query = components.percentEncodedQuery else { return }
        for piece in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let rawName = String(parts[0])
            guard let name = Self.decode(rawName) else { throw .malformedPercentEncoding(parameter: rawName) }
            let rawValue = parts.count > 1 ? String(parts[1]) : ""
            guard let value = Self.decode(rawValue) else { throw .malformedPercentEncoding(parameter: name) }
            items.append((name, value))
        }
    }

    func contains(_ name: String) -> Bool { items.contains { $0.name == name } }

    /// The value of a parameter that may appear at most once, not empty.
    func single(_ name: String) throws(MapsURLError) -> String? {
        var found: String?
        for item in items where item.name == name {
            guard found == nil else { throw .duplicateParameter(name) }
            found = item.value
        }
        if let found { try Self.checkText(found, parameter: name) }
        return found
    }

    func coordinate(_ name: String) throws(MapsURLError) -> CLLocationCoordinate2D? {
        guard let text = try single(name) else { return nil }
        guard let (latitude, longitude) = Self.numberPair(text) else {
            throw .invalidCoordinate(parameter: name, value: text, reason: "expected latitude,longitude in decimal degrees")
        }
        return CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
    }

    func span(_ name: String) throws(MapsURLError) -> MKCoordinateSpan? {
        guard let text = try single(name) else { return nil }
        guard let (latitudeDelta, longitudeDelta) = Self.numberPair(text) else {
            throw .invalidCoordinate(parameter: name, value: text,
                                     reason: "expected latitudeDelta,longitudeDelta in decimal degrees")
        }
        return MKCoordinateSpan(latitudeDelta: latitudeDelta, longitudeDelta: longitudeDelta)
    }

    func number(_ name: String) throws(MapsURLError) -> Double? {
        guard let text = try single(name) else { return nil }
        guard let value = Self.decimal(text) else {
            throw .invalidValue(parameter: name, value: text, expected: "a decimal number")
        }
        return value
    }

    func location(_ name: String) throws(MapsURLError) -> MapsURL.Location? {
        guard let text = try single(name) else { return nil }
        return try Self.location(text, parameter: name)
    }

    func enumeration<Value: RawRepresentable & CaseIterable>(_ name: String) throws(MapsURLError) -> Value?
    where Value.RawValue == String {
        guard let text = try single(name) else { return nil }
        guard let value = Value(rawValue: text) else {
            throw .invalidValue(parameter: name, value: text, expected: Self.oneOf(Value.self))
        }
        return value
    }

    /// A comma-separated list; duplicates collapse, empty entries are errors.
    func list<Value: RawRepresentable & CaseIterable & Hashable>(_ name: String) throws(MapsURLError) -> Set<Value>
    where Value.RawValue == String {
        guard let text = try single(name) else { return [] }
        var values: Set<Value> = []
        for entry in text.split(separator: ",", omittingEmptySubsequences: false) {
            let trimmed = entry.trimmingCharacters(in: .whitespaces)
            guard let value = Value(rawValue: trimmed) else {
                throw .invalidValue(parameter: name, value: trimmed,
                                    expected: "a comma-separated list of " + Self.oneOf(Value.self))
            }
            values.insert(value)
        }
        return values
    }

    func rejectUnknown(allowed: [String], action: String) throws(MapsURLError) {
        if let unknown = items.first(where: { !allowed.contains($0.name) }) {
            throw .unknownParameter(unknown.name, action: action)
        }
    }

    // MARK: Reading helpers

    static func location(_ text: String, parameter: String) throws(MapsURLError) -> MapsURL.Location {
        try checkText(text, parameter: parameter)
        if let (latitude, longitude) = numberPair(text) {
            return .coordinate(CLLocationCoordinate2D(latitude: latitude, longitude: longitude))
        }
        return .address(text)
    }

    static func action(_ path: String) throws(MapsURLError) -> MapsURL.Action {
        var name = path.removingPercentEncoding ?? path
        while name.hasPrefix("/") { name.removeFirst() }
        while name.hasSuffix("/") { name.removeLast() }
        guard !name.isEmpty else { throw .missingAction }
        guard let action = MapsURL.Action(rawValue: name.lowercased()) else { throw .unknownAction(name) }
        return action
    }

    /// The rest of `path` after a self-hosted base's path, when `base` has the same scheme,
    /// host and port.
    static func pathAfter(base: URL, scheme: String, host: String, port: Int?, path: String) -> String? {
        guard let components = URLComponents(url: base, resolvingAgainstBaseURL: true),
              components.scheme?.lowercased() == scheme,
              normalizedHost(components.host ?? "") == host, components.port == port else { return nil }
        var basePath = components.percentEncodedPath
        while basePath.hasSuffix("/") { basePath.removeLast() }
        guard path.hasPrefix(basePath) else { return nil }
        let rest = path.dropFirst(basePath.count)
        guard rest.isEmpty || rest.hasPrefix("/") else { return nil }
        return String(rest)
    }

    static func normalizedHost(_ host: String) -> String {
        var host = host.lowercased()
        if host.hasSuffix(".") { host.removeLast() }
        return host
    }

    /// Form-style decoding: `+` is a space, then `%XX` escapes; `nil` for an invalid escape.
    static func decode(_ text: String) -> String? {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        guard spaced.contains("%") else { return spaced }
        return spaced.removingPercentEncoding
    }

    /// Two decimal numbers separated by one comma, spaces around either allowed.
    static func numberPair(_ text: String) -> (Double, Double)? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2,
              let first = decimal(parts[0].trimmingCharacters(in: .whitespaces)),
              let second = decimal(parts[1].trimmingCharacters(in: .whitespaces)) else { return nil }
        return (first, second)
    }

    /// A plain decimal: optional sign, digits with at most one point. No exponent, hex, `inf`
    /// or `nan`, which `Double.init(_:)` would otherwise accept.
    static func decimal(_ text: String) -> Double? {
        var digits = 0
        var points = 0
        for (offset, byte) in text.utf8.enumerated() {
            switch byte {
            case 0x30...0x39: digits += 1
            case 0x2E: points += 1
            case 0x2B, 0x2D: guard offset == 0 else { return nil }
            default: return nil
            }
        }
        guard digits > 0, points <= 1, let value = Double(text), value.isFinite else { return nil }
        return value
    }

    static func oneOf<Value: RawRepresentable & CaseIterable>(_: Value.Type) -> String where Value.RawValue == String {
        "one of " + Value.allCases.map(\.rawValue).joined(separator: ", ")
    }

    // MARK: Checks shared by validate() and parsing

    static func checkText(_ text: String?, parameter: String) throws(MapsURLError) {
        if let text, text.allSatisfy(\.isWhitespace) { throw .emptyValue(parameter: parameter) }
    }

    static func check(_ coordinate: CLLocationCoordinate2D?, parameter: String) throws(MapsURLError) {
        guard let coordinate else { return }
        if !(-90.0...90.0).contains(coordinate.latitude) {
            throw .invalidCoordinate(parameter: parameter, value: format(coordinate),
                                     reason: "latitude must be between -90 and 90")
        }
        if !(-180.0...180.0).contains(coordinate.longitude) {
            throw .invalidCoordinate(parameter: parameter, value: format(coordinate),
                                     reason: "longitude must be between -180 and 180")
        }
    }

    static func check(_ span: MKCoordinateSpan?, parameter: String) throws(MapsURLError) {
        guard let span else { return }
        if !(0.0...180.0).contains(span.latitudeDelta) {
            throw .invalidCoordinate(parameter: parameter, value: format(span),
                                     reason: "latitudeDelta must be between 0 and 180")
        }
        if !(0.0...360.0).contains(span.longitudeDelta) {
            throw .invalidCoordinate(parameter: parameter, value: format(span),
                                     reason: "longitudeDelta must be between 0 and 360")
        }
    }

    static func check(_ stop: MapsURL.Stop, parameter: String) throws(MapsURLError) {
        switch stop.location {
        case .coordinate(let coordinate): try check(coordinate, parameter: parameter)
        case .address(let text): try checkText(text, parameter: parameter)
        }
        try checkText(stop.placeID, parameter: parameter + "-place-id")
    }

    static func checkFinite(_ value: Double?, parameter: String) throws(MapsURLError) {
        if let value, !value.isFinite {
            throw .invalidValue(parameter: parameter, value: format(value), expected: "a finite number")
        }
    }

    // MARK: Writing helpers

    /// Up to seven decimals, no trailing zeros, no exponent, never "-0".
    static func format(_ value: Double) -> String {
        // Beyond 1e11 the scaled integer would overflow; such values fail validation anyway.
        guard value.isFinite, value.magnitude < 1e11 else { return "\(value)" }
        let scaled = Int64((value.magnitude * 1e7).rounded(.toNearestOrAwayFromZero))
        let whole = scaled / 10_000_000
        var text = String(whole)
        var fraction = scaled % 10_000_000
        if fraction != 0 {
            var digits = 7
            while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
            let fractionText = String(fraction)
            text += "." + String(repeating: "0", count: digits - fractionText.count) + fractionText
        }
        return value < 0 && scaled != 0 ? "-" + text : text
    }

    static func format(_ coordinate: CLLocationCoordinate2D) -> String {
        format(coordinate.latitude) + "," + format(coordinate.longitude)
    }

    static func format(_ span: MKCoordinateSpan) -> String {
        format(span.latitudeDelta) + "," + format(span.longitudeDelta)
    }

    static func format(_ location: MapsURL.Location) -> String {
        switch location {
        case .coordinate(let coordinate): return format(coordinate)
        case .address(let text): return text
        }
    }

    /// `name=value&…`, each percent-encoded as UTF-8 except unreserved characters and `,`.
    static func encode(_ pairs: [(name: String, value: String)]) -> String {
        pairs.map { escape($0.name) + "=" + escape($0.value) }.joined(separator: "&")
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    static func escape(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0x2D, 0x2E, 0x5F, 0x7E, 0x2C:
                bytes.append(byte)
            default:
                bytes.append(0x25)
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
