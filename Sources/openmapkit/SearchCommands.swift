import ArgumentParser
import Foundation
import MapServer
import OpenMapKit

// `openmapkit search`, `geocode` and `reverse`: thin shells over MKLocalSearch,
// MKLocalSearchCompleter, MKGeocodingRequest and MKReverseGeocodingRequest, so the command line
// answers exactly what a Swift program would get.

/// `openmapkit search "query"`: places by name, address or category (MKLocalSearch).
struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search the bundle's places by name, address or category (MKLocalSearch).",
        discussion: """
            Category words find points of interest ("cafe", "pharmacy", "beach"); "X near Y" searches \
            around the place Y. --near biases results towards a point; with --required only places \
            in that area are returned. --complete lists completer suggestions for a partial query instead.
            """)

    @Argument(help: "What to search for.")
    var query: String

    @Option(help: "Bias results towards this point, LAT,LON.")
    var near: CLLocationCoordinate2D?

    @Option(help: "The size of the --near area in metres (its width and height).")
    var radius = 5000.0

    @Flag(help: "Only return places inside the --near area.")
    var required = false

    @Option(help: "The most results to show.")
    var limit = 10

    @Flag(help: "Show completions for a partial query (MKLocalSearchCompleter) instead of search results.")
    var complete = false

    @OptionGroup var data: BundleOptions

    @OptionGroup var format: JSONOption

    func run() throws {
        guard (1...1000).contains(limit) else { throw ValidationError("--limit must be between 1 and 1000") }
        guard radius.isFinite, radius > 0, radius <= 20_000_000 else { throw ValidationError("--radius must be between 0 and 20000000 metres") }
        if required && near == nil { throw ValidationError("--required needs --near") }
        let source = try data.dataSource()
        let region = near.map { MKCoordinateRegion(center: $0, latitudinalMeters: radius, longitudinalMeters: radius) }
        if complete { return try runCompleter(source: source, region: region) }

        let request = MKLocalSearch.Request(naturalLanguageQuery: query)
        if let region { request.region = region }
        request.regionPriority = required ? .required : .default
        request.resultLimit = limit
        let search = MKLocalSearch(request: request, dataSource: source)
        let response = try waitFor { try await search.start() }
        if format.json {
            try printJSON(SearchOutput(query: query, boundingRegion: RegionJSON(response.boundingRegion),
                                       results: response.mapItems.map(placeJSON)))
        } else {
            printItems(response.mapItems)
        }
    }

    private func runCompleter(source: MapDataSource, region: MKCoordinateRegion?) throws {
        let completer = MKLocalSearchCompleter()
        completer.dataSource = source
        completer.debounceInterval = 0
        completer.delegateQueue = DispatchQueue(label: "openmapkit.search.complete")
        completer.resultLimit = limit
        if let region { completer.region = region }
        completer.regionPriority = required ? .required : .default
        let receiver = CompletionReceiver()
        completer.delegate = receiver
        completer.queryFragment = query
        guard receiver.done.wait(timeout: .now() + 60) == .success else { throw CommandFailure("completion timed out") }
        if let error = receiver.error { throw CommandFailure(error) }
        let results = completer.results
        if format.json {
            try printJSON(results.map { CompletionJSON(title: $0.title, subtitle: $0.subtitle, isQuery: $0.isQuerySuggestion,
                                                       titleHighlights: $0.titleHighlightRanges.map { [$0.location, $0.length] }) })
            return
        }
        if results.isEmpty { print("no completions for \"\(query)\"") }
        for (number, completion) in results.enumerated() {
            let subtitle = completion.subtitle.isEmpty ? "" : " — \(completion.subtitle)"
            print("\(number + 1). \(completion.title)\(subtitle)\(completion.isQuerySuggestion ? "  (search)" : "")")
        }
    }
}

/// The completer's delegate for the command line: waits for one answer.
private final class CompletionReceiver: MKLocalSearchCompleterDelegate, @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    var error: (any Error)?

    func completerDidUpdateResults(_ completer: MKLocalSearchCompleter) { done.signal() }

    func completer(_ completer: MKLocalSearchCompleter, didFailWithError error: any Error) {
        self.error = error
        done.signal()
    }
}

/// `openmapkit geocode "address"`: the places an address stands for (MKGeocodingRequest).
struct GeocodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geocode",
        abstract: "Find the coordinates of an address or place name (MKGeocodingRequest).")

    @Argument(help: "The address, e.g. \"12 Avenue de la Costa, Monaco\".")
    var address: String

    @Option(help: "The most results to show.")
    var limit = 1

    @OptionGroup var data: BundleOptions

    @OptionGroup var format: JSONOption

    func run() throws {
        guard (1...1000).contains(limit) else { throw ValidationError("--limit must be between 1 and 1000") }
        guard let request = MKGeocodingRequest(addressString: address) else { throw ValidationError("the address is empty") }
        request.dataSource = try data.dataSource()
        request.resultLimit = limit
        let items = try waitFor { try await request.mapItems }
        if format.json { try printJSON(PlacesOutput(results: items.map(placeJSON))) } else { printItems(items) }
    }
}

/// `openmapkit reverse LAT,LON`: the address at a point (MKReverseGeocodingRequest).
struct ReverseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reverse",
        abstract: "Find the address at a coordinate (MKReverseGeocodingRequest).")

    @Argument(help: "The point, LAT,LON.")
    var coordinate: CLLocationCoordinate2D

    @OptionGroup var data: BundleOptions

    @OptionGroup var format: JSONOption

    func run() throws {
        let location = CLLocation(latitude: coordinate.latitude, longitude: coordinate.longitude)
        guard let request = MKReverseGeocodingRequest(location: location) else { throw ValidationError("not a valid coordinate") }
        request.dataSource = try data.dataSource()
        let items = try waitFor { try await request.mapItems }
        if format.json { try printJSON(PlacesOutput(results: items.map(placeJSON))) } else { printItems(items) }
    }
}

// MARK: - Shared

/// Runs an async request from the synchronous command and returns its answer; errors become
/// one-line failures.
private func waitFor<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    try waitForAsync(body, failure: CommandFailure.init)
}

private func printItems(_ items: [MKMapItem]) {
    for (number, item) in items.enumerated() {
        var heading = "\(number + 1). \(item.name ?? "(unnamed)")"
        if let category = item.pointOfInterestCategory {
            heading += "  [\(category.rawValue.replacingOccurrences(of: "MKPOICategory", with: ""))]"
        }
        print(heading)
        if let address = item.address?.fullAddress { print("   \(address)") }
        let c = item.location.coordinate
        var line = "   \(String(format: "%.6f,%.6f", c.latitude, c.longitude))"
        if let id = item.identifier { line += "  id \(id.rawValue)" }
        print(line)
        let extras = [item.phoneNumber, item.url?.absoluteString].compactMap { $0 }
        if !extras.isEmpty { print("   " + extras.joined(separator: "  ")) }
    }
}

private struct RegionJSON: Encodable {
    var latitude: Double, longitude: Double, latitudeDelta: Double, longitudeDelta: Double
    init(_ region: MKCoordinateRegion) {
        (latitude, longitude) = (region.center.latitude, region.center.longitude)
        (latitudeDelta, longitudeDelta) = (region.span.latitudeDelta, region.span.longitudeDelta)
    }
}

private struct SearchOutput: Encodable {
    var query: String
    var boundingRegion: RegionJSON
    var results: [APIPlace]
}

/// A map item as `--json` writes it: Apple's `Place`, as the server's `/v1` answers have it, with
/// the phone number, website and time zone the command line also shows.
private func placeJSON(_ item: MKMapItem) -> APIPlace { APIPlace(item, includingDetails: true) }

private struct PlacesOutput: Encodable {
    var results: [APIPlace]
}

private struct CompletionJSON: Encodable {
    var title: String, subtitle: String, isQuery: Bool
    var titleHighlights: [[Int]]
}
