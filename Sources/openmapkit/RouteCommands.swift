import ArgumentParser
import Foundation
import MapBundle
import MapSearch
import OpenMapKit

// `openmapkit route` and `openmapkit eta`: thin shells over MKDirections, so the command line
// answers exactly what a Swift program would get.

/// How to travel, as the command line spells it.
enum TravelArgument: String, ExpressibleByArgument, CaseIterable {
    case automobile, walking, cycling, transit

    var transportType: MKDirectionsTransportType {
        switch self {
        case .automobile: .automobile
        case .walking: .walking
        case .cycling: .cycling
        case .transit: .transit
        }
    }
}

/// The arguments `route` and `eta` share: the two places, the mode, the bundle and preferences.
struct DirectionsArguments: ParsableArguments {
    @Argument(help: "Where to start: LAT,LON or a place name (looked up in the bundle's place index).")
    var from: String

    @Argument(help: "Where to go: LAT,LON or a place name.")
    var to: String

    @Option(help: "automobile, walking or cycling (transit has no data in OpenStreetMap extracts).")
    var mode: TravelArgument = .automobile

    @Flag(help: "Avoid toll roads where another way exists.")
    var avoidTolls = false

    @Flag(help: "Avoid motorways where another way exists.")
    var avoidHighways = false

    @OptionGroup var data: BundleOptions

    @OptionGroup var format: JSONOption

    /// The request, with both places resolved against `source`.
    func request(_ source: MapDataSource) throws -> MKDirections.Request {
        let request = MKDirections.Request()
        request.source = try place(from, role: "FROM", source: source)
        request.destination = try place(to, role: "TO", source: source)
        request.transportType = mode.transportType
        request.tollPreference = avoidTolls ? .avoid : .any
        request.highwayPreference = avoidHighways ? .avoid : .any
        return request
    }

    func dataSource() throws -> MapDataSource { try data.dataSource() }

    /// `LAT,LON`, or else a name looked up in the bundles' place indexes (the best match wins).
    func place(_ text: String, role: String, source: MapDataSource) throws -> MKMapItem {
        if let coordinate = CLLocationCoordinate2D(argument: text) {
            return MKMapItem(placemark: MKPlacemark(coordinate: coordinate))
        }
        let numbers = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
        if numbers.count == 2, !numbers.contains(where: { $0 == nil }) {
            throw CommandFailure("\(role) \"\(text)\" is not a valid coordinate (LAT between -90 and 90, LON between -180 and 180)")
        }
        let name = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { throw CommandFailure("\(role) is empty: give LAT,LON or a place name") }
        var best: PlaceMatch?
        var indexes = 0
        var problem: PlaceIndexError?
        for bundle in source.bundles {
            let url = bundle.placesURL
            guard FileManager.default.fileExists(atPath: url.path) else { continue }
            indexes += 1
            var query = PlaceQuery(text: name)
            query.limit = 1
            do {
                if let match = try bundle.placeIndex().search(query).first, match.score > (best?.score ?? -.infinity) { best = match }
            } catch {
                problem = problem ?? error
            }
        }
        guard indexes > 0 else {
            throw CommandFailure("\(role) \"\(text)\" is not LAT,LON, and the bundle has no place index to look names up in "
                                 + "(re-import it with `openmapkit import`)")
        }
        guard let best else {
            // An index that could not answer says more than "not found".
            if let problem { throw CommandFailure("\(role) \"\(text)\": the place index could not be read (\(problem)); re-import the bundle") }
            throw CommandFailure("\(role): no place called \"\(text)\" in the bundle")
        }
        let placemark = MKPlacemark(coordinate: best.record.coordinate)
        placemark.name = best.record.name
        let item = MKMapItem(placemark: placemark)
        item.name = best.record.name ?? text
        return item
    }
}

/// `openmapkit route FROM TO`: turn-by-turn directions (MKDirections.calculate).
struct RouteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "route",
        abstract: "Directions between two places over the bundle's road graph (MKDirections).",
        discussion: """
            FROM and TO are LAT,LON or place names. Prints each route's distance, time and \
            turn-by-turn instructions; --alternatives asks for up to 3 routes in all.
            """)

    @OptionGroup var options: DirectionsArguments

    @Flag(help: "Ask for alternate routes (up to 3 routes in all, when meaningfully different ones exist).")
    var alternatives = false

    func run() throws {
        let source = try options.dataSource()
        let request = try options.request(source)
        request.requestsAlternateRoutes = alternatives
        let directions = MKDirections(request: request, dataSource: source)
        let response = try awaitDirections { try await directions.calculate() }
        if options.format.json {
            try printJSON(RouteOutput(response))
            return
        }
        for (number, route) in response.routes.enumerated() {
            let title = route.name.isEmpty ? "" : " via \(route.name)"
            print("Route \(number + 1)\(title): \(formatDistance(route.distance)), \(formatDuration(route.expectedTravelTime)) "
                  + "(\(options.mode.rawValue))")
            for notice in route.advisoryNotices { print("  ! \(notice)") }
            for step in route.steps where !step.instructions.isEmpty {
                let length = step.distance > 0 ? " (\(formatDistance(step.distance)))" : ""
                print("  - \(step.instructions)\(length)" + (step.notice.map { " [\($0)]" } ?? ""))
            }
        }
    }
}

/// `openmapkit eta FROM TO`: travel time and distance only (MKDirections.calculateETA).
struct ETACommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eta",
        abstract: "Travel time and distance between two places (MKDirections.calculateETA).")

    @OptionGroup var options: DirectionsArguments

    @Option(help: "Departure time, ISO 8601 (e.g. 2026-05-01T08:30:00Z); default now.")
    var depart: String?

    @Option(help: "Wanted arrival time, ISO 8601: the departure is computed back from it.")
    var arrive: String?

    func run() throws {
        let formatter = ISO8601DateFormatter()
        func date(_ text: String?, _ flag: String) throws -> Date? {
            guard let text else { return nil }
            guard let date = formatter.date(from: text) else { throw ValidationError("\(flag) must be an ISO 8601 date such as 2026-05-01T08:30:00Z") }
            return date
        }
        let departure = try date(depart, "--depart"), arrival = try date(arrive, "--arrive")
        if departure != nil && arrival != nil { throw ValidationError("give --depart or --arrive, not both") }
        let source = try options.dataSource()
        let request = try options.request(source)
        request.departureDate = departure
        request.arrivalDate = arrival
        let directions = MKDirections(request: request, dataSource: source)
        let eta = try awaitDirections { try await directions.calculateETA() }
        if options.format.json {
            try printJSON(ETAOutput(eta))
            return
        }
        print("\(formatDuration(eta.expectedTravelTime)), \(formatDistance(eta.distance)) (\(options.mode.rawValue)): "
              + "depart \(formatter.string(from: eta.expectedDepartureDate)), arrive \(formatter.string(from: eta.expectedArrivalDate))")
    }
}

// MARK: - Output

private struct PointJSON: Encodable {
    var latitude: Double, longitude: Double
    var name: String?
    init(_ item: MKMapItem) {
        latitude = item.placemark.coordinate.latitude
        longitude = item.placemark.coordinate.longitude
        name = item.name
    }
}

private struct StepJSON: Encodable {
    var instructions: String
    var notice: String?
    var distance: Double
    /// [LAT, LON] pairs.
    var coordinates: [[Double]]
}

private struct RouteJSON: Encodable {
    var name: String
    var distance: Double
    var expectedTravelTime: Double
    var transportType: String
    var hasTolls: Bool
    var hasHighways: Bool
    var advisoryNotices: [String]
    /// [LAT, LON] pairs.
    var coordinates: [[Double]]
    var steps: [StepJSON]
}

private struct RouteOutput: Encodable {
    var source: PointJSON
    var destination: PointJSON
    var routes: [RouteJSON]

    init(_ response: MKDirections.Response) {
        source = PointJSON(response.source)
        destination = PointJSON(response.destination)
        routes = response.routes.map { route in
            RouteJSON(name: route.name, distance: route.distance, expectedTravelTime: route.expectedTravelTime,
                      transportType: transportName(route.transportType), hasTolls: route.hasTolls, hasHighways: route.hasHighways,
                      advisoryNotices: route.advisoryNotices, coordinates: pairs(route.polyline),
                      steps: route.steps.map { StepJSON(instructions: $0.instructions, notice: $0.notice, distance: $0.distance,
                                                        coordinates: pairs($0.polyline)) })
        }
    }
}

private struct ETAOutput: Encodable {
    var source: PointJSON
    var destination: PointJSON
    var transportType: String
    var distance: Double
    var expectedTravelTime: Double
    var expectedDepartureDate: String
    var expectedArrivalDate: String

    init(_ eta: MKDirections.ETAResponse) {
        let formatter = ISO8601DateFormatter()
        source = PointJSON(eta.source)
        destination = PointJSON(eta.destination)
        transportType = transportName(eta.transportType)
        distance = eta.distance
        expectedTravelTime = eta.expectedTravelTime
        expectedDepartureDate = formatter.string(from: eta.expectedDepartureDate)
        expectedArrivalDate = formatter.string(from: eta.expectedArrivalDate)
    }
}

private func pairs(_ polyline: MKPolyline) -> [[Double]] {
    polyline.coordinates.map { [($0.latitude * 1e6).rounded() / 1e6, ($0.longitude * 1e6).rounded() / 1e6] }
}

private func transportName(_ type: MKDirectionsTransportType) -> String {
    if type == .automobile { return "automobile" }
    if type == .walking { return "walking" }
    if type == .cycling { return "cycling" }
    if type == .transit { return "transit" }
    return "any"
}

private func formatDistance(_ metres: Double) -> String {
    metres < 1000 ? "\(Int(metres.rounded())) m" : String(format: "%.1f km", metres / 1000)
}

private func formatDuration(_ seconds: Double) -> String {
    let minutes = Int((seconds / 60).rounded())
    if minutes < 1 { return "\(Int(seconds.rounded())) s" }
    return minutes < 60 ? "\(minutes) min" : "\(minutes / 60) h \(minutes % 60) min"
}

/// Runs an async MKDirections call from the synchronous command; errors become one-line failures.
private func awaitDirections<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    try waitForAsync(body, failure: CommandFailure.init)
}
