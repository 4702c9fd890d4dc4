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

    // The actions' parameter types are in MapsURL+Frame.swift, +Search, +Place and +Directions,
    // each with how it is written (`queryPairs`), checked (`validate`) and read (`init(parsing:)`).

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
        switch self {
        case .frame(let frame): return frame.queryPairs
        case .search(let search): return search.queryPairs
        case .place(let place): return place.queryPairs
        case .lookAround(let lookAround): return lookAround.queryPairs
        case .directions(let directions): return directions.queryPairs
        case .guides: return []
        case .reportAProblem(let report): return report.queryPairs
        }
    }

    // MARK: Validation

    /// Checks the documented rules that the types can't express: camera properties need a
    /// centre; coordinates, spans, camera values and `start` are in range; text values and
    /// Place IDs aren't empty; `/look-around` names a location. Parsing applies the same checks.
    public func validate() throws(MapsURLError) {
        switch self {
        case .frame(let frame): try frame.validate()
        case .search(let search): try search.validate()
        case .place(let place): try place.validate()
        case .lookAround(let lookAround): try lookAround.validate(for: .lookAround)
        case .directions(let directions): try directions.validate()
        case .guides: break
        case .reportAProblem(let report): try report.validate(for: .reportAProblem)
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
        case .frame: self = .frame(try Frame(parsing: query))
        case .search: self = .search(try Search(parsing: query))
        case .place: self = .place(try Place(parsing: query))
        case .lookAround: self = .lookAround(try LookAround(parsing: query))
        case .directions: self = .directions(try Directions(parsing: query))
        case .guides: self = .guides
        case .reportAProblem: self = .reportAProblem(try ReportAProblem(parsing: query))
        }
        try validate()
    }
}
