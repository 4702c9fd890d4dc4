import Foundation

extension MapsURL {
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
}

extension MapsURL.Search {
    var queryPairs: [(name: String, value: String)] {
        var writer = MapsQuery.Writer()
        writer.add("center", center.map(MapsQuery.format))
        writer.add("query", query)
        writer.add("span", span.map(MapsQuery.format))
        return writer.pairs
    }

    /// Centre and span in range, query not empty.
    func validate() throws(MapsURLError) {
        try MapsQuery.check(center, parameter: "center")
        try MapsQuery.checkText(query, parameter: "query")
        try MapsQuery.check(span, parameter: "span")
    }

    init(parsing query: MapsQuery) throws(MapsURLError) {
        self.init(query: try query.single("query"), center: try query.coordinate("center"),
                  span: try query.span("span"))
    }
}
