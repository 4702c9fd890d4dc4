import Foundation

extension MapsURL {
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
}

extension MapsURL.Frame {
    var queryPairs: [(name: String, value: String)] {
        var writer = MapsQuery.Writer()
        writer.add("center", center.map(MapsQuery.format))
        writer.add("span", span.map(MapsQuery.format))
        writer.add("mode", mode?.rawValue)
        writer.add("heading", heading.map(MapsQuery.format))
        writer.add("pitch", pitch.map(MapsQuery.format))
        writer.add("distance", distance.map(MapsQuery.format))
        writer.add("map", map?.rawValue)
        return writer.pairs
    }

    /// Camera properties need a centre; centre, span, heading, pitch and distance are in range.
    func validate() throws(MapsURLError) {
        if center == nil {
            for (name, value) in [("heading", heading), ("pitch", pitch), ("distance", distance)] where value != nil {
                throw .requiresParameter(name, requires: "center")
            }
        }
        try MapsQuery.check(center, parameter: "center")
        try MapsQuery.check(span, parameter: "span")
        try MapsQuery.checkFinite(heading, parameter: "heading")
        if let pitch, !(pitch.isFinite && (0...90).contains(pitch)) {
            throw .invalidValue(parameter: "pitch", value: MapsQuery.format(pitch), expected: "degrees from 0 to 90")
        }
        if let distance, !(distance.isFinite && distance >= 0) {
            throw .invalidValue(parameter: "distance", value: MapsQuery.format(distance),
                                expected: "a distance in metres, 0 or more")
        }
    }

    init(parsing query: MapsQuery) throws(MapsURLError) {
        self.init(center: try query.coordinate("center"), span: try query.span("span"),
                  mode: try query.enumeration("mode"), heading: try query.number("heading"),
                  pitch: try query.number("pitch"), distance: try query.number("distance"),
                  map: try query.enumeration("map"))
    }
}
