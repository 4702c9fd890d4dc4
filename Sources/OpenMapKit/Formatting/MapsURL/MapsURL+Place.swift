import Foundation

extension MapsURL {
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
}

extension MapsURL.PlaceReference {
    var queryPairs: [(name: String, value: String)] {
        var writer = MapsQuery.Writer()
        writer.add("coordinate", coordinate.map(MapsQuery.format))
        writer.add("address", address)
        writer.add("place-id", placeID)
        return writer.pairs
    }

    /// The coordinate is in range, address and Place ID aren't empty, and for `/look-around`
    /// at least one of the three is given.
    func validate(for action: MapsURL.Action) throws(MapsURLError) {
        try MapsQuery.check(coordinate, parameter: "coordinate")
        try MapsQuery.checkText(address, parameter: "address")
        try MapsQuery.checkText(placeID, parameter: "place-id")
        if action == .lookAround, coordinate == nil, address == nil, placeID == nil {
            throw .missingParameter(action: action.rawValue, oneOf: Self.parameterNames)
        }
    }

    init(parsing query: MapsQuery) throws(MapsURLError) {
        self.init(coordinate: try query.coordinate("coordinate"), address: try query.single("address"),
                  placeID: try query.single("place-id"))
    }
}

extension MapsURL.Place {
    /// The coordinate, address and Place ID, which `/place` writes, checks and reads as a
    /// ``MapsURL/PlaceReference``, followed by `map`.
    var reference: MapsURL.PlaceReference {
        MapsURL.PlaceReference(coordinate: coordinate, address: address, placeID: placeID)
    }

    var queryPairs: [(name: String, value: String)] {
        var writer = MapsQuery.Writer(pairs: reference.queryPairs)
        writer.add("map", map?.rawValue)
        return writer.pairs
    }

    /// The coordinate is in range, address and Place ID aren't empty; none of them is required.
    func validate() throws(MapsURLError) {
        try reference.validate(for: .place)
    }

    init(parsing query: MapsQuery) throws(MapsURLError) {
        let reference = try MapsURL.PlaceReference(parsing: query)
        self.init(coordinate: reference.coordinate, address: reference.address, placeID: reference.placeID,
                  map: try query.enumeration("map"))
    }
}
