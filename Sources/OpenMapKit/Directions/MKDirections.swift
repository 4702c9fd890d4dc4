import Foundation
import MapGeometry
import MapBundle
import MapRouting

/// The ways of travelling directions can be asked for (MapKit's `MKDirectionsTransportType`,
/// with MapKit's raw values).
///
/// OpenMapKit routes automobile, walking and cycling over the bundle's road graphs. `transit`
/// always fails (OpenStreetMap extracts carry no timetables), and a set of several types, such as
/// `any`, is answered with the first of automobile, walking, cycling it contains.
public struct MKDirectionsTransportType: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    public static let automobile = MKDirectionsTransportType(rawValue: 1 << 0)
    public static let walking = MKDirectionsTransportType(rawValue: 1 << 1)
    public static let transit = MKDirectionsTransportType(rawValue: 1 << 2)
    public static let cycling = MKDirectionsTransportType(rawValue: 1 << 3)
    /// Any way of travelling: routed as `automobile`.
    public static let any = MKDirectionsTransportType(rawValue: 0x0FFF_FFFF)

    /// The type for a road graph's mode.
    init(_ mode: TravelMode) {
        switch mode {
        case .automobile: self = .automobile
        case .walking: self = .walking
        case .cycling: self = .cycling
        }
    }
}

/// Directions and travel times between two map items over the user's own OpenStreetMap data
/// (MapKit's `MKDirections`).
///
/// The routes come from the road graphs `openmapkit import` writes into a bundle, found through a
/// ``MapDataSource``: the one given to ``init(request:dataSource:)``, else
/// ``MapDataSource/default`` (set in code or from `OPENMAPKIT_BUNDLE`). With several bundles the
/// first whose graph connects both points answers (a route never crosses from one bundle into
/// another).
///
/// ```swift
/// let request = MKDirections.Request()
/// request.source = MKMapItem(placemark: MKPlacemark(coordinate: casino))
/// request.destination = MKMapItem(placemark: MKPlacemark(coordinate: palace))
/// request.transportType = .walking
/// let response = try await MKDirections(request: request).calculate()
/// for step in response.routes[0].steps { print(step.instructions, step.distance) }
/// ```
///
/// Failures are ``MKError``s: `directionsNotFound` when there is no route (a point far from any
/// road or in the sea, points not connected for the mode, NaN coordinates, the same source and
/// destination, transit), `serverFailure` when there is no map data or the bundle has no road
/// graph (made before directions existed: re-import it). A cancelled calculation fails with
/// `CancellationError`.
///
/// As in MapKit, one `MKDirections` runs one calculation at a time; it can be cancelled and
/// started again. Departure and arrival dates only shift the ETA's dates: the graph has no
/// traffic data, so travel times are the profile's free-flow times.
///
/// Differs from MapKit: the completion-handler forms call back on the main queue, which on
/// Linux runs only when the program runs it (`dispatchMain()`, `RunLoop.main`, an async
/// `main`); a program that doesn't run it uses ``calculate()`` and ``calculateETA()``.
open class MKDirections: NSObject, @unchecked Sendable {
    /// Whether to use or avoid a kind of road (MapKit's `MKDirections.RoutePreference`).
    public enum RoutePreference: Int, Sendable, Hashable {
        case any = 0
        case avoid = 1
    }

    /// MapKit's completion handler for routes.
    public typealias DirectionsHandler = @Sendable (Response?, (any Error)?) -> Void
    /// MapKit's completion handler for travel times.
    public typealias ETAHandler = @Sendable (ETAResponse?, (any Error)?) -> Void

    private let request: RequestValues
    private let dataSource: MapDataSource?
    private let lifecycle = RequestLifecycle(.restartable, busyReason: "this MKDirections is already calculating; "
                                             + "cancel it first, or use another MKDirections for a second request")

    /// Directions for `request` (its values are read now: later changes to it do not apply).
    public init(request: Request) {
        self.request = RequestValues(request)
        dataSource = nil
        super.init()
    }

    /// Directions over `dataSource` rather than the default (an OpenMapKit addition).
    public init(request: Request, dataSource: MapDataSource) {
        self.request = RequestValues(request)
        self.dataSource = dataSource
        super.init()
    }

    /// Whether a calculation is running.
    open var isCalculating: Bool { lifecycle.isRunning }

    /// Stops the running calculation: it fails with `CancellationError`. The object can be
    /// started again afterwards.
    open func cancel() {
        lifecycle.cancel()
    }

    /// Calculates the routes and calls `completionHandler` on the main queue, as MapKit does.
    open func calculate(completionHandler: @escaping DirectionsHandler) {
        lifecycle.start(on: .main, { [request, dataSource] isCancelled in
            try DirectionsEngine.directions(request, dataSource: dataSource, isCancelled: isCancelled)
        }) { $0.deliver(to: completionHandler) }
    }

    /// Calculates the routes.
    open func calculate() async throws -> Response {
        try await lifecycle.start { [request, dataSource] isCancelled in
            try DirectionsEngine.directions(request, dataSource: dataSource, isCancelled: isCancelled)
        }
    }

    /// Calculates the travel time and calls `completionHandler` on the main queue, as MapKit does.
    open func calculateETA(completionHandler: @escaping ETAHandler) {
        lifecycle.start(on: .main, { [request, dataSource] isCancelled in
            try DirectionsEngine.eta(request, dataSource: dataSource, isCancelled: isCancelled)
        }) { $0.deliver(to: completionHandler) }
    }

    /// Calculates the travel time: distance, seconds, and departure and arrival dates.
    open func calculateETA() async throws -> ETAResponse {
        try await lifecycle.start { [request, dataSource] isCancelled in
            try DirectionsEngine.eta(request, dataSource: dataSource, isCancelled: isCancelled)
        }
    }
}

extension MKDirections {
    /// What to route: the two map items, the way of travelling and the preferences (MapKit's
    /// `MKDirections.Request`).
    open class Request: NSObject, @unchecked Sendable {
        /// Where the route starts.
        open var source: MKMapItem?
        /// Where the route ends.
        open var destination: MKMapItem?
        /// The way of travelling; `any` (the default, as in MapKit) is routed as automobile.
        open var transportType: MKDirectionsTransportType = .any
        /// Whether to look for alternate routes (up to three routes in all, each meaningfully
        /// different from the others).
        open var requestsAlternateRoutes = false
        /// When the traveller leaves (the ETA's departure date; routes do not change with it).
        open var departureDate: Date?
        /// When the traveller wants to arrive (the ETA's departure is computed back from it when
        /// no departure date is set).
        open var arrivalDate: Date?
        /// Whether to avoid toll roads (they are still used when nothing else connects the points;
        /// the route's advisory notices then say so).
        open var tollPreference: RoutePreference = .any
        /// Whether to avoid motorways (as for tolls, used when nothing else connects).
        open var highwayPreference: RoutePreference = .any

        public override init() { super.init() }

        /// Whether `url` asks for directions: here, an Apple Maps `/directions` URL (MapKit
        /// checks the URLs Maps hands to routing apps; OpenMapKit reads the unified Maps URLs
        /// of ``MapsURL``).
        open class func isDirectionsRequest(_ url: URL) -> Bool {
            guard let maps = try? MapsURL(url: url), case .directions = maps else { return false }
            return true
        }

        /// The request a Maps `/directions` URL describes: source (the current location when the
        /// URL has none), destination, transport type and the tolls/highways avoid options.
        /// Addresses become map items named by the address with no coordinate (geocode them
        /// before calculating). Any other URL gives an empty request, as in MapKit.
        public convenience init(contentsOf url: URL) {
            self.init()
            guard let maps = try? MapsURL(url: url), case .directions(let directions) = maps else { return }
            func item(_ stop: MapsURL.Stop) -> MKMapItem {
                switch stop.location {
                case .coordinate(let coordinate):
                    return MKMapItem(placemark: MKPlacemark(coordinate: coordinate))
                case .address(let text):
                    let item = MKMapItem(placemark: MKPlacemark(coordinate: kCLLocationCoordinate2DInvalid))
                    item.name = text
                    return item
                }
            }
            switch directions.source {
            case .currentLocation: source = MKMapItem.forCurrentLocation()
            case .stop(let stop): source = item(stop)
            }
            destination = directions.destination.map(item)
            switch directions.mode {
            case .driving: transportType = .automobile
            case .walking: transportType = .walking
            case .cycling: transportType = .cycling
            case .transit: transportType = .transit
            case nil: transportType = .any
            }
            if directions.avoid.contains(.tolls) { tollPreference = .avoid }
            if directions.avoid.contains(.highways) { highwayPreference = .avoid }
        }
    }

    /// The routes found (MapKit's `MKDirections.Response`).
    open class Response: NSObject, @unchecked Sendable {
        /// The request's source.
        public let source: MKMapItem
        /// The request's destination.
        public let destination: MKMapItem
        /// The best route first; more than one only when alternates were asked for and exist.
        public let routes: [MKRoute]

        init(source: MKMapItem, destination: MKMapItem, routes: [MKRoute]) {
            (self.source, self.destination, self.routes) = (source, destination, routes)
            super.init()
        }
    }

    /// The travel time between the request's items (MapKit's `MKDirections.ETAResponse`).
    /// Differs from MapKit: the time is the profile's free-flow time (there is no traffic data).
    open class ETAResponse: NSObject, @unchecked Sendable {
        public let source: MKMapItem
        public let destination: MKMapItem
        /// Seconds, at free-flow speeds.
        public let expectedTravelTime: TimeInterval
        /// Metres along the route.
        public let distance: CLLocationDistance
        /// The request's departure date; else its arrival date less the travel time; else now.
        public let expectedDepartureDate: Date
        /// The departure date plus the travel time.
        public let expectedArrivalDate: Date
        /// The way of travelling that was routed (never `any`).
        public let transportType: MKDirectionsTransportType

        init(source: MKMapItem, destination: MKMapItem, expectedTravelTime: TimeInterval, distance: CLLocationDistance,
             expectedDepartureDate: Date, expectedArrivalDate: Date, transportType: MKDirectionsTransportType) {
            self.source = source
            self.destination = destination
            self.expectedTravelTime = expectedTravelTime
            self.distance = distance
            self.expectedDepartureDate = expectedDepartureDate
            self.expectedArrivalDate = expectedArrivalDate
            self.transportType = transportType
            super.init()
        }
    }
}

/// One route between the requested start and end (MapKit's `MKRoute`).
///
/// Differs from MapKit: travel times are the profile's free-flow times (there is no traffic
/// data), and the steps' instructions are in English whatever the locale.
open class MKRoute: NSObject, @unchecked Sendable {
    /// The route's shape, from the start snapped onto the road network to the end snapped onto it.
    public let polyline: MKPolyline
    /// The instructions, in order. As in MapKit the first step is the starting point, with empty
    /// instructions and no distance; then "Head north on …", one step per manoeuvre, and a last,
    /// zero-length "Arrive at the destination" step. Each step's polyline starts where the
    /// previous one ends; together they trace ``polyline``.
    public let steps: [Step]
    /// The most significant roads of the route ("Boulevard du Larvotto and Avenue Princesse
    /// Grace"); empty when no road on it has a name or number.
    public let name: String
    /// Warnings about the route as a whole (tolls, ferries, a start far from any road, a preference
    /// that could not be met).
    public let advisoryNotices: [String]
    /// Metres.
    public let distance: CLLocationDistance
    /// Seconds, at the profile's free-flow speeds.
    public let expectedTravelTime: TimeInterval
    /// The way of travelling routed.
    public let transportType: MKDirectionsTransportType
    /// Whether the route uses a toll road.
    public let hasTolls: Bool
    /// Whether the route uses a motorway.
    public let hasHighways: Bool

    init(path: RoutePath, destination: CLLocationCoordinate2D?, extraNotices: [String]) {
        let type = MKDirectionsTransportType(path.mode)
        polyline = MKPolyline(coordinates: path.coordinates)
        steps = RouteGuidance.steps(for: path, destination: destination).map { Step($0, transportType: type) }
        name = RouteGuidance.routeName(path)
        advisoryNotices = RouteGuidance.advisoryNotices(path) + extraNotices
        distance = path.distance
        expectedTravelTime = path.travelTime
        transportType = type
        hasTolls = path.hasTolls
        hasHighways = path.hasMotorways
        super.init()
    }

    /// The route, steps included, for a path found on a graph opened outside a bundle: the
    /// routing benchmark times exactly what ``MKDirections/calculate()`` builds, without the
    /// thread hop of the request.
    package static func make(path: RoutePath, destination: CLLocationCoordinate2D) -> MKRoute {
        MKRoute(path: path, destination: destination, extraNotices: [])
    }

    /// One instruction and the stretch of road it covers (MapKit's `MKRoute.Step`).
    ///
    /// Differs from MapKit: ``instructions`` are in English whatever the locale.
    open class Step: NSObject, @unchecked Sendable {
        /// The stretch's shape.
        public let polyline: MKPolyline
        /// What to do, in English ("Turn left onto Avenue de la Costa"); empty for the first step.
        public let instructions: String
        /// Something to know about the stretch ("Toll road."), or nil.
        public let notice: String?
        /// Metres.
        public let distance: CLLocationDistance
        /// The way of travelling on this stretch.
        public let transportType: MKDirectionsTransportType

        init(_ step: GuidanceStep, transportType: MKDirectionsTransportType) {
            polyline = MKPolyline(coordinates: step.coordinates)
            instructions = step.instructions
            notice = step.notice
            distance = step.distance
            self.transportType = transportType
            super.init()
        }
    }
}

/// A request's values, copied when an `MKDirections` is made.
struct RequestValues: Sendable {
    var source: MKMapItem?
    var destination: MKMapItem?
    var transportType: MKDirectionsTransportType
    var requestsAlternateRoutes: Bool
    var departureDate: Date?
    var arrivalDate: Date?
    var tollPreference: MKDirections.RoutePreference
    var highwayPreference: MKDirections.RoutePreference

    init(_ request: MKDirections.Request) {
        source = request.source
        destination = request.destination
        transportType = request.transportType
        requestsAlternateRoutes = request.requestsAlternateRoutes
        departureDate = request.departureDate
        arrivalDate = request.arrivalDate
        tollPreference = request.tollPreference
        highwayPreference = request.highwayPreference
    }
}

/// The synchronous work behind `MKDirections`: checks the request, finds the bundle's road graph
/// and turns MapRouting's answers and errors into MapKit's.
enum DirectionsEngine {
    /// Routes at most this many in all when alternates are asked for.
    static let maximumRoutes = 3
    /// A start or end farther than this from the road it snapped to gets an advisory notice.
    static let farFromRoad = 50.0

    static func mode(for type: MKDirectionsTransportType) throws(MKError) -> TravelMode {
        if type.contains(.automobile) { return .automobile }
        if type.contains(.walking) { return .walking }
        if type.contains(.cycling) { return .cycling }
        if type.contains(.transit) {
            throw MKError(.directionsNotFound, reason: "transit directions need public transport timetables, and OpenStreetMap "
                          + "extracts have none; ask for automobile, walking or cycling directions")
        }
        throw MKError(.directionsNotFound, reason: "the request's transport type (raw value \(type.rawValue)) names no way of travelling")
    }

    /// The request's two coordinates, checked.
    static func endpoints(_ request: RequestValues) throws(MKError) -> (MKMapItem, MKMapItem) {
        func check(_ item: MKMapItem?, _ role: String) throws(MKError) -> MKMapItem {
            guard let item else { throw MKError(.directionsNotFound, reason: "the request has no \(role)") }
            let c = item.placemark.coordinate
            if item.isCurrentLocation && !CLLocationCoordinate2DIsValid(c) {
                throw MKError(.directionsNotFound, reason: "the \(role) is the current location, which is unknown here "
                              + "(there is no location service): give a coordinate")
            }
            guard c.latitude.isFinite, c.longitude.isFinite, CLLocationCoordinate2DIsValid(c) else {
                throw MKError(.directionsNotFound, reason: "the \(role) coordinate \(c.latitude),\(c.longitude) is not a valid coordinate")
            }
            return item
        }
        let source = try check(request.source, "source"), destination = try check(request.destination, "destination")
        if RouteGuidance.distance(source.placemark.coordinate, destination.placemark.coordinate) < 1 {
            throw MKError(.directionsNotFound, reason: "the source and destination are the same place")
        }
        return (source, destination)
    }

    static func directions(_ request: RequestValues, dataSource: MapDataSource?,
                           isCancelled: @escaping @Sendable () -> Bool) throws -> MKDirections.Response {
        let mode = try mode(for: request.transportType)
        let (source, destination) = try endpoints(request)
        let from = source.placemark.coordinate, to = destination.placemark.coordinate
        var options = RouteOptions()
        options.avoidTolls = request.tollPreference == .avoid
        options.avoidMotorways = request.highwayPreference == .avoid
        options.alternatives = request.requestsAlternateRoutes ? maximumRoutes - 1 : 0
        let paths = try onGraph(mode, dataSource: dataSource, isCancelled: isCancelled) { graph throws(RoutingError) in
            try graph.route(from: from, to: to, options: options, isCancelled: isCancelled)
        }
        if isCancelled() { throw CancellationError() }
        let routes = paths.prefix(request.requestsAlternateRoutes ? maximumRoutes : 1).map { path in
            MKRoute(path: path, destination: to, extraNotices: notices(path, from: from, to: to, options: options))
        }
        guard !routes.isEmpty else { throw MKError(.directionsNotFound, reason: "no route between \(describe(from)) and \(describe(to))") }
        return MKDirections.Response(source: source, destination: destination, routes: Array(routes))
    }

    static func eta(_ request: RequestValues, dataSource: MapDataSource?,
                    isCancelled: @escaping @Sendable () -> Bool) throws -> MKDirections.ETAResponse {
        let mode = try mode(for: request.transportType)
        let (source, destination) = try endpoints(request)
        let from = source.placemark.coordinate, to = destination.placemark.coordinate
        var options = RouteOptions()
        options.avoidTolls = request.tollPreference == .avoid
        options.avoidMotorways = request.highwayPreference == .avoid
        options.departure = request.departureDate
        // The fast path knows no preferences; with one, the full query answers.
        let (distance, time) = try onGraph(mode, dataSource: dataSource, isCancelled: isCancelled) { graph throws(RoutingError) in
            if options.avoidTolls || options.avoidMotorways {
                guard let best = try graph.route(from: from, to: to, options: options, isCancelled: isCancelled).first else {
                    throw RoutingError.noRoute("no route between \(describe(from)) and \(describe(to))")
                }
                return (best.distance, best.travelTime)
            }
            return try graph.travelTime(from: from, to: to, isCancelled: isCancelled)
        }
        if isCancelled() { throw CancellationError() }
        let departure: Date
        if let date = request.departureDate { departure = date }
        else if let arrival = request.arrivalDate { departure = arrival.addingTimeInterval(-time) }
        else { departure = Date() }
        return MKDirections.ETAResponse(source: source, destination: destination, expectedTravelTime: time, distance: distance,
                                        expectedDepartureDate: departure, expectedArrivalDate: departure.addingTimeInterval(time),
                                        transportType: MKDirectionsTransportType(mode))
    }

    private static func notices(_ path: RoutePath, from: CLLocationCoordinate2D, to: CLLocationCoordinate2D, options: RouteOptions) -> [String] {
        var notices: [String] = []
        if options.avoidTolls && path.hasTolls { notices.append("No route without tolls was found.") }
        if options.avoidMotorways && path.hasMotorways { notices.append("No route without highways was found.") }
        if let start = path.coordinates.first, RouteGuidance.distance(from, start) > farFromRoad {
            notices.append("The start is \(Int(RouteGuidance.distance(from, start).rounded())) m from the nearest road.")
        }
        if let end = path.coordinates.last, RouteGuidance.distance(to, end) > farFromRoad {
            notices.append("The destination is \(Int(RouteGuidance.distance(to, end).rounded())) m from the nearest road.")
        }
        return notices
    }

    static func describe(_ c: CLLocationCoordinate2D) -> String {
        String(format: "%.5f,%.5f", c.latitude, c.longitude)
    }

    /// Runs `query` on each bundle's graph for `mode` until one answers; MapRouting's errors
    /// become MapKit's.
    static func onGraph<T>(_ mode: TravelMode, dataSource: MapDataSource?, isCancelled: () -> Bool,
                           _ query: (RoadGraph) throws(RoutingError) -> T) throws -> T {
        let source = try dataSource ?? MapDataSource.resolved()
        var failures: [(MapBundle, RoutingError)] = []
        for bundle in source.bundles {
            if isCancelled() { throw CancellationError() }
            do throws(RoutingError) {
                // Opened once per process and reopened after a re-import (MapBundle's cache of files by stamp).
                return try query(try bundle.roadGraph(for: mode))
            } catch {
                // A cancelled query is not a failure of this bundle: stop at once.
                if case .cancelled = error { throw CancellationError() }
                failures.append((bundle, error))
            }
        }
        // The most telling failure: a bundle that had a graph and said why it found no route
        // says more than one without a graph.
        guard let (bundle, error) = failures.first(where: {
            switch $0.1 {
            case .missingGraph, .corrupt, .incompatibleVersion: false
            default: true
            }
        })
            ?? failures.first else { throw MKError(.serverFailure, reason: "the map data source has no bundles") }
        throw mkError(error, bundle: bundle, mode: mode)
    }

    static func mkError(_ error: RoutingError, bundle: MapBundle, mode: TravelMode) -> MKError {
        switch error {
        case .missingGraph(let message):
            // MapRouting's message already names the bundle and says to re-import.
            return MKError(.serverFailure, reason: message.contains("re-import") ? message
                           : "\(bundle.url.path) has no \(mode.rawValue) road graph (\(message)); re-import it with `openmapkit import`")
        case .corrupt(let message):
            return MKError(.serverFailure, reason: "the \(mode.rawValue) road graph of \(bundle.url.lastPathComponent) is unreadable "
                           + "(\(message)); re-import the bundle")
        case .incompatibleVersion(let message):
            return MKError(.serverFailure, reason: "the \(mode.rawValue) road graph of \(bundle.url.lastPathComponent) is from another "
                           + "version of OpenMapKit (\(message))")
        case .noRoadNearby(let message), .noRoute(let message), .invalidInput(let message):
            _ = message
            return MKError(.directionsNotFound, reason: "\(error)")
        case .cancelled:
            return MKError(.unknown, reason: "the directions request was cancelled")
        }
    }
}
