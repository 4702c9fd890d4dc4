import Foundation

extension MapsURL {
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
}

extension MapsURL.Directions {
    var queryPairs: [(name: String, value: String)] {
        var writer = MapsQuery.Writer()
        if case .stop(let source) = source {
            writer.add("source", MapsQuery.format(source.location))
            writer.add("source-place-id", source.placeID)
        }
        if let destination {
            writer.add("destination", MapsQuery.format(destination.location))
            writer.add("destination-place-id", destination.placeID)
        }
        for waypoint in waypoints {
            writer.add("waypoint", MapsQuery.format(waypoint.location))
            writer.add("waypoint-place-id", waypoint.placeID)
        }
        writer.add("mode", mode?.rawValue)
        if !avoid.isEmpty {
            writer.add("avoid", MapsURL.AvoidOption.allCases.filter(avoid.contains)
                .map(\.rawValue).joined(separator: ","))
        }
        if !transitPreferences.isEmpty {
            writer.add("transit-preferences", MapsURL.TransitPreference.allCases.filter(transitPreferences.contains)
                .map(\.rawValue).joined(separator: ","))
        }
        writer.add("start", start.map(String.init))
        return writer.pairs
    }

    /// Every stop is in range or not empty, and `start` is 0 or more.
    func validate() throws(MapsURLError) {
        if case .stop(let source) = source {
            try MapsQuery.check(source, parameter: "source")
        }
        if let destination {
            try MapsQuery.check(destination, parameter: "destination")
        }
        for waypoint in waypoints {
            try MapsQuery.check(waypoint, parameter: "waypoint")
        }
        if let start, start < 0 {
            throw .invalidValue(parameter: "start", value: String(start), expected: "a whole number of seconds, 0 or more")
        }
    }

    init(parsing query: MapsQuery) throws(MapsURLError) {
        var directions = MapsURL.Directions()
        if let source = try query.location("source") {
            directions.source = .stop(MapsURL.Stop(source, placeID: try query.single("source-place-id")))
        } else if query.contains("source-place-id") {
            throw .requiresParameter("source-place-id", requires: "source")
        }
        if let destination = try query.location("destination") {
            directions.destination = MapsURL.Stop(destination, placeID: try query.single("destination-place-id"))
        } else if query.contains("destination-place-id") {
            throw .requiresParameter("destination-place-id", requires: "destination")
        }
        // Waypoints keep their query order; each place ID attaches to the waypoint before it.
        for item in query.items {
            switch item.name {
            case "waypoint":
                directions.waypoints.append(MapsURL.Stop(try MapsQuery.location(item.value, parameter: "waypoint")))
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
        self = directions
    }
}

