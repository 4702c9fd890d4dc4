import Foundation

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
