import Foundation
import MapGeometry
import MapSearch

/// Finds the places an address stands for (MapKit's `MKGeocodingRequest`).
///
/// ```swift
/// let request = MKGeocodingRequest(addressString: "Avenue de la Costa, Monaco")!
/// let item = try await request.mapItems.first
/// print(item?.location.coordinate, item?.address?.fullAddress)
/// ```
///
/// Addresses, streets, towns and named places all geocode; the best match comes first. A house
/// number the data lacks falls back to the street ("Städtle 12" → Städtle). Nothing
/// found fails with `MKError.placemarkNotFound`; a bundle without a place index with
/// `serverFailure`. The data comes from ``dataSource`` or else ``MapDataSource/default``.
///
/// Differs from MapKit: the places come from the OpenStreetMap data in your bundles, not Apple's
/// servers. `getMapItems(completionHandler:)` calls back on the main queue, which on Linux runs
/// only when the program runs it; a program that doesn't uses ``mapItems``.
public final class MKGeocodingRequest: NSObject, @unchecked Sendable {
    /// MapKit's completion handler: the items, or an error.
    public typealias CompletionHandler = @Sendable ([MKMapItem]?, (any Error)?) -> Void

    /// The address the request was made with.
    public let addressString: String
    /// The language of the answer: the place's name, street, towns and areas by their `name:xx` where
    /// the data has one, the country by CLDR; nil, or a language the data lacks, uses `name`.
    public var preferredLocale: Locale?
    /// Places in this area rank higher. Unset, it is the whole world.
    public var region: MKCoordinateRegion {
        get { storedRegion ?? MKCoordinateRegion(MKMapRect.world) }
        set { storedRegion = newValue }
    }
    /// The bundles to search (an OpenMapKit addition); nil uses ``MapDataSource/default``.
    public var dataSource: MapDataSource?
    /// The most items to return (an OpenMapKit addition).
    public var resultLimit = 10
    private var storedRegion: MKCoordinateRegion?
    private let lifecycle = RequestLifecycle(.oneShot)

    /// Nil for an empty or blank address, as MapKit's initialiser is.
    public init?(addressString: String) {
        guard !addressString.trimmingCharacters(in: .whitespacesAndNewlines.union(.controlCharacters)).isEmpty else { return nil }
        self.addressString = addressString
        super.init()
    }

    /// Whether the request is running.
    public var isLoading: Bool { lifecycle.isRunning }
    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { lifecycle.isCancelled }
    /// Stops the request; it fails with `CancellationError`.
    public func cancel() { lifecycle.cancel() }

    /// The places the address stands for, best first.
    public var mapItems: [MKMapItem] {
        get async throws { try await getMapItems() }
    }

    /// The places the address stands for, best first.
    public func getMapItems() async throws -> [MKMapItem] {
        let plan = self.plan()
        return try await lifecycle.start { _ in try plan() }
    }

    /// Geocodes and calls `completionHandler` on the main queue.
    public func getMapItems(completionHandler: @escaping CompletionHandler) {
        let plan = self.plan()
        lifecycle.start(on: .main, { _ in try plan() }) { $0.deliver(to: completionHandler) }
    }

    private func plan() -> @Sendable () throws -> [MKMapItem] {
        let text = addressString, region = storedRegion, source = dataSource, locale = preferredLocale, limit = resultLimit
        return { try Self.geocode(text, region: region, source: source, locale: locale, limit: limit) }
    }

    /// The geocoder itself, shared with ``CLGeocoder``: the places `text` stands for, best first,
    /// ranked by `region` when one is given. Fails with `placemarkNotFound` when nothing matches
    /// (or the input cannot be searched) and `serverFailure` when the data has no place index.
    static func geocode(_ text: String, region: MKCoordinateRegion?, source: MapDataSource?, locale: Locale?,
                        limit: Int) throws -> [MKMapItem] {
        let query = try MKLocalSearch.checkedQuery(text)
        if let region, let problem = SearchInput.problem(with: region) { throw MKError(.placemarkNotFound, reason: problem) }
        guard limit > 0 else { throw MKError(.placemarkNotFound, reason: "resultLimit is \(limit); it must be at least 1") }
        var placeQuery = PlaceQuery(text: query, region: region)
        placeQuery.limit = min(limit, MKLocalSearch.maximumResults)
        let search = try PlaceSearch(source: source)
        var matches = try search.search(placeQuery)
        // A house number the data does not have: the street (and town) still locate the
        // address roughly, as MapKit's geocoder answers with the street.
        if matches.isEmpty, let withoutNumbers = removingHouseNumbers(query) {
            placeQuery.text = withoutNumbers
            placeQuery.kinds = [.street]
            matches = try search.search(placeQuery)
        }
        guard !matches.isEmpty else { throw MKError(.placemarkNotFound, reason: "no place matches the address \"\(query)\"") }
        // The answer in the preferred language where the data has it, as CLGeocoder's is.
        return try matches.map { match throws(MKError) in MKMapItem(record: try search.localized(match.record, locale: locale), locale: locale) }
    }
}

extension MKGeocodingRequest {
    /// The address without its house numbers ("12", "12a", "12-14"), or nil when it has none or
    /// nothing else.
    static func removingHouseNumbers(_ text: String) -> String? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "," })
        let kept = words.filter { word in
            !(word.first?.isNumber == true && word.count <= 8 && word.allSatisfy { $0.isNumber || $0.isLetter || $0 == "-" || $0 == "/" })
        }
        guard kept.count < words.count, !kept.isEmpty else { return nil }
        return kept.joined(separator: " ")
    }
}

/// Finds the address at a location (MapKit's `MKReverseGeocodingRequest`).
///
/// The answer is the nearest building or address within about 50 m, else the nearest street,
/// else the town or area that contains the point (in the countryside), each with its address
/// hierarchy (locality, administrative area, country). Nothing found (a point outside every
/// bundle) fails with `MKError.placemarkNotFound`.
///
/// Differs from MapKit: the addresses come from the OpenStreetMap data in your bundles, not
/// Apple's servers. `getMapItems(completionHandler:)` calls back on the main queue, which on
/// Linux runs only when the program runs it; a program that doesn't uses ``mapItems``.
public final class MKReverseGeocodingRequest: NSObject, @unchecked Sendable {
    /// MapKit's completion handler: the items, or an error.
    public typealias CompletionHandler = @Sendable ([MKMapItem]?, (any Error)?) -> Void

    /// The location the request was made with.
    public let location: CLLocation
    /// The language of the answer: the place's name, street, towns and areas by their `name:xx` where
    /// the data has one, the country by CLDR; nil, or a language the data lacks, uses `name`.
    public var preferredLocale: Locale?
    /// The bundles to search (an OpenMapKit addition); nil uses ``MapDataSource/default``.
    public var dataSource: MapDataSource?
    private let lifecycle = RequestLifecycle(.oneShot)

    /// Nil when the location's coordinate is not valid (NaN, or outside ±90° / ±180°): there is
    /// nothing to look up there.
    public init?(location: CLLocation) {
        guard SearchInput.problem(with: location.coordinate, what: "location") == nil else { return nil }
        self.location = location
        super.init()
    }

    /// Whether the request is running.
    public var isLoading: Bool { lifecycle.isRunning }
    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { lifecycle.isCancelled }
    /// Stops the request; it fails with `CancellationError`.
    public func cancel() { lifecycle.cancel() }

    /// The place at the location, most specific first.
    public var mapItems: [MKMapItem] {
        get async throws { try await getMapItems() }
    }

    /// The place at the location, most specific first.
    public func getMapItems() async throws -> [MKMapItem] {
        let plan = self.plan()
        return try await lifecycle.start { _ in try plan() }
    }

    /// Reverse geocodes and calls `completionHandler` on the main queue.
    public func getMapItems(completionHandler: @escaping CompletionHandler) {
        let plan = self.plan()
        lifecycle.start(on: .main, { _ in try plan() }) { $0.deliver(to: completionHandler) }
    }

    private func plan() -> @Sendable () throws -> [MKMapItem] {
        let coordinate = location.coordinate, source = dataSource, locale = preferredLocale
        return { try Self.reverseGeocode(coordinate, source: source, locale: locale) }
    }

    /// The reverse geocoder itself, shared with ``CLGeocoder``: the place at `coordinate`. Fails
    /// with `placemarkNotFound` when no bundle has a place there.
    static func reverseGeocode(_ coordinate: CLLocationCoordinate2D, source: MapDataSource?, locale: Locale?) throws -> [MKMapItem] {
        if let problem = SearchInput.problem(with: coordinate, what: "location") { throw MKError(.placemarkNotFound, reason: problem) }
        let search = try PlaceSearch(source: source)
        let matches = try search.reverse(coordinate, limit: 1)
        guard !matches.isEmpty else {
            throw MKError(.placemarkNotFound, reason: "no place at \(coordinate.latitude),\(coordinate.longitude) in the map data")
        }
        return try matches.map { match throws(MKError) in MKMapItem(record: try search.localized(match.record, locale: locale), locale: locale) }
    }
}

/// Looks a place up by its identifier (MapKit's `MKMapItemRequest`), for example one stored from
/// an earlier search: the answer is the place as the current map data has it.
///
/// Differs from MapKit: identifiers are OpenStreetMap object ids from your bundles, not Apple
/// Place IDs. `getMapItem(completionHandler:)` calls back on the main queue, which on Linux runs
/// only when the program runs it; a program that doesn't uses ``mapItem``.
public final class MKMapItemRequest: NSObject, @unchecked Sendable {
    /// MapKit's completion handler: the item, or an error.
    public typealias CompletionHandler = @Sendable (MKMapItem?, (any Error)?) -> Void

    /// The identifier to look up; nil for a request made from a map feature.
    public let mapItemIdentifier: MKMapItem.Identifier?
    /// The map feature to look up; nil for a request made from an identifier.
    public let mapFeatureAnnotation: MKMapFeatureAnnotation?
    /// The bundles to search (an OpenMapKit addition); nil uses ``MapDataSource/default``.
    public var dataSource: MapDataSource?
    private let lifecycle = RequestLifecycle(.oneShot)

    /// A request for the place with `mapItemIdentifier`.
    public init(mapItemIdentifier: MKMapItem.Identifier) {
        self.mapItemIdentifier = mapItemIdentifier
        mapFeatureAnnotation = nil
        super.init()
    }

    /// A request for the place a map feature the person selected stands for: the place of the
    /// index with the feature's name, of its kind, nearest the feature (within 20 km).
    public init(mapFeatureAnnotation: MKMapFeatureAnnotation) {
        mapItemIdentifier = nil
        self.mapFeatureAnnotation = mapFeatureAnnotation
        super.init()
    }

    /// Whether the request is running.
    public var isLoading: Bool { lifecycle.isRunning }
    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { lifecycle.isCancelled }
    /// Stops the request; it fails with `CancellationError`.
    public func cancel() { lifecycle.cancel() }

    /// The place. Fails with `placemarkNotFound` when the identifier names no place in the data
    /// (for example one removed from OpenStreetMap since).
    public var mapItem: MKMapItem {
        get async throws { try await getMapItem() }
    }

    /// The place.
    public func getMapItem() async throws -> MKMapItem {
        let plan = self.plan()
        return try await lifecycle.start { _ in try plan() }
    }

    /// Looks the place up and calls `completionHandler` on the main queue.
    public func getMapItem(completionHandler: @escaping CompletionHandler) {
        let plan = self.plan()
        lifecycle.start(on: .main, { _ in try plan() }) { $0.deliver(to: completionHandler) }
    }

    private func plan() -> @Sendable () throws -> MKMapItem {
        if let feature = mapFeatureAnnotation {
            let name = feature.title ?? "", coordinate = feature.coordinate, kinds = feature.placeKinds, source = dataSource
            return { try Self.place(named: name, near: coordinate, kinds: kinds, source: source) }
        }
        let id = mapItemIdentifier?.rawValue ?? "", source = dataSource
        return {
            guard let record = try PlaceSearch(source: source).place(id: id) else {
                throw MKError(.placemarkNotFound, reason: "no place with identifier \"\(id)\" in the map data")
            }
            return MKMapItem(record: record)
        }
    }

    /// How far from a map feature its place may be, in metres (a town's label and its place
    /// node can be kilometres apart).
    static let featureSearchRadius: CLLocationDistance = 20_000

    /// The place named `name` nearest `coordinate`, of one of `kinds` when one is found.
    private static func place(named name: String, near coordinate: CLLocationCoordinate2D, kinds: Set<PlaceKind>,
                              source: MapDataSource?) throws -> MKMapItem {
        guard !name.isEmpty, CLLocationCoordinate2DIsValid(coordinate) else {
            throw MKError(.placemarkNotFound, reason: "the map feature has no name or position to look up")
        }
        let search = try PlaceSearch(source: source)
        var query = PlaceQuery(text: name, region: MKCoordinateRegion(center: coordinate, latitudinalMeters: 2 * featureSearchRadius,
                                                                      longitudinalMeters: 2 * featureSearchRadius))
        query.limit = 25
        let here = CLLocation(latitude: coordinate.latitude, longitude: coordinate.longitude)
        func distance(_ record: PlaceRecord) -> CLLocationDistance {
            here.distance(from: CLLocation(latitude: record.coordinate.latitude, longitude: record.coordinate.longitude))
        }
        let named = try search.search(query).map(\.record).filter { record in
            (record.name.map { $0.compare(name, options: [.caseInsensitive, .diacriticInsensitive]) == .orderedSame } ?? false
                || record.names.values.contains(name)) && distance(record) <= featureSearchRadius
        }
        guard let best = named.filter({ kinds.contains($0.kind) }).min(by: { distance($0) < distance($1) })
                ?? named.min(by: { distance($0) < distance($1) }) else {
            throw MKError(.placemarkNotFound, reason: "no place named \"\(name)\" near the map feature in the map data")
        }
        return MKMapItem(record: best)
    }
}
