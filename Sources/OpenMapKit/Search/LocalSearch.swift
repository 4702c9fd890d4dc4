import Foundation
import MapGeometry
import MapSearch

/// Whether results may come from outside a search's region (MapKit's `MKLocalSearchRegionPriority`).
public enum MKLocalSearchRegionPriority: Int, Sendable, Hashable {
    /// The region biases results: nearer places rank higher, but places elsewhere may appear.
    case `default` = 0
    /// Only places inside the region.
    case required = 1
}

/// Which kinds of address a search or completer returns (MapKit's `MKAddressFilter`): countries,
/// administrative areas, localities, postal codes… Streets, house addresses and points of interest
/// are not address kinds and are never filtered out by it.
public final class MKAddressFilter: NSObject, @unchecked Sendable {
    /// Kinds of address.
    public struct Options: OptionSet, Sendable, Hashable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// Countries and regions.
        public static let country = Options(rawValue: 1 << 0)
        /// Primary divisions: states, provinces (Andorra's parishes).
        public static let administrativeArea = Options(rawValue: 1 << 1)
        /// Secondary divisions: counties.
        public static let subAdministrativeArea = Options(rawValue: 1 << 2)
        /// Cities, towns, villages, postal cities.
        public static let locality = Options(rawValue: 1 << 3)
        /// Districts and neighbourhoods.
        public static let subLocality = Options(rawValue: 1 << 4)
        public static let postalCode = Options(rawValue: 1 << 5)

        static let all: Options = [.country, .administrativeArea, .subAdministrativeArea, .locality, .subLocality, .postalCode]
    }

    private let included: Options

    /// Only these kinds of address.
    public init(including options: Options) {
        included = options.intersection(.all)
        super.init()
    }

    /// Every kind of address but these.
    public init(excluding options: Options) {
        included = Options.all.subtracting(options)
        super.init()
    }

    /// Every kind of address.
    public static var includingAll: MKAddressFilter { MKAddressFilter(excluding: []) }
    /// No kind of address.
    public static var excludingAll: MKAddressFilter { MKAddressFilter(including: []) }

    /// Whether all of `options` are kept.
    public func includesOptions(_ options: Options) -> Bool { included.isSuperset(of: options.intersection(.all)) }
    /// Whether all of `options` are dropped.
    public func excludesOptions(_ options: Options) -> Bool { included.isDisjoint(with: options) }

    public override func isEqual(_ object: Any?) -> Bool { (object as? MKAddressFilter)?.included == included }
    public override var hash: Int { included.rawValue.hashValue }

    /// Whether a place passes: places that are not address areas always do.
    func keeps(_ record: PlaceRecord) -> Bool {
        guard let option = Self.option(of: record) else { return true }
        return included.contains(option)
    }

    /// The address kind a place is, when it is one.
    static func option(of record: PlaceRecord) -> Options? {
        let osmClass = record.osmClass ?? ""
        switch record.kind {
        case .postalCode: return .postalCode
        case .locality:
            let neighbourhoods = ["place=suburb", "place=quarter", "place=neighbourhood", "place=city_block", "place=borough"]
            if neighbourhoods.contains(osmClass) || (record.name != nil && record.name == record.address.subLocality) { return .subLocality }
            return .locality
        case .administrativeArea:
            if osmClass.hasSuffix("admin_level=2") || osmClass == "place=country"
                || (record.name != nil && record.name == record.address.country && record.address.administrativeArea != record.name) {
                return .country
            }
            if record.name != nil, record.name == record.address.subAdministrativeArea { return .subAdministrativeArea }
            return .administrativeArea
        case .address, .street, .pointOfInterest, .physicalFeature: return nil
        }
    }
}

/// Searches the map for places matching a query (MapKit's `MKLocalSearch`).
///
/// The places come from the bundle's place index (built by `openmapkit import`): addresses,
/// streets, points of interest, natural features, towns and administrative areas from
/// OpenStreetMap. Category words ("coffee", "pharmacy", "beach") match points of interest of that
/// category; "restaurant near Vaduz" searches around the place named after "near"; the request's
/// region biases results towards it, or with ``MKLocalSearchRegionPriority/required`` restricts
/// them to it.
///
/// ```swift
/// let request = MKLocalSearch.Request(naturalLanguageQuery: "cafe")
/// request.region = MKCoordinateRegion(center: monaco, latitudinalMeters: 2000, longitudinalMeters: 2000)
/// let response = try await MKLocalSearch(request: request).start()
/// for item in response.mapItems { print(item.name ?? "", item.address?.shortAddress ?? "") }
/// ```
///
/// The data comes from ``MapDataSource/default`` unless ``init(request:dataSource:)-(MKLocalSearch.Request,_)`` names a
/// source; with several bundles, each is searched and the results merged. A search that finds
/// nothing fails with `MKError.placemarkNotFound`, as MapKit's does; so does one with unusable
/// input (an empty query, a region with a NaN centre or a zero span), with a reason saying why.
/// A bundle without a place index fails with `serverFailure`.
///
/// Differs from MapKit: results come from your own OpenStreetMap extract, not Apple's servers,
/// so what is found is what the extract holds. `start(completionHandler:)` calls back on the
/// main queue, which on Linux runs only when the program runs it (`dispatchMain()`,
/// `RunLoop.main`, an async `main`); ``start(with:completionHandler:)`` names another queue.
public final class MKLocalSearch: NSObject, @unchecked Sendable {
    /// MapKit's completion handler: a response, or an error.
    public typealias CompletionHandler = @Sendable (Response?, (any Error)?) -> Void

    /// Kinds of result (bits as MapKit's).
    public struct ResultType: OptionSet, Sendable, Hashable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// Addresses, streets, towns, postal codes and administrative areas.
        public static let address = ResultType(rawValue: 1 << 0)
        /// Businesses, landmarks and other points of interest.
        public static let pointOfInterest = ResultType(rawValue: 1 << 1)
        /// Mountains, lakes, rivers, beaches, parks and other natural features.
        public static let physicalFeature = ResultType(rawValue: 1 << 2)
    }

    /// What to search for (MapKit's `MKLocalSearch.Request`).
    public final class Request: NSObject, @unchecked Sendable {
        /// The text to search for: a name, an address, a category ("coffee"), or "X near Y".
        public var naturalLanguageQuery: String?
        /// Which kinds of result to return (default: all).
        public var resultTypes: ResultType = [.address, .pointOfInterest, .physicalFeature]
        /// Which point-of-interest categories to return; nil returns all. It does not filter
        /// addresses or natural features.
        public var pointOfInterestFilter: MKPointOfInterestFilter?
        /// Which kinds of address area (country, locality, …) to return; nil returns all.
        public var addressFilter: MKAddressFilter?
        /// Whether ``region`` biases results (`.default`) or restricts them (`.required`).
        public var regionPriority: MKLocalSearchRegionPriority = .default
        /// The most results to return (an OpenMapKit addition; MapKit picks its own number). At
        /// most 1000 are returned.
        public var resultLimit = 25
        /// The language to answer in: names, streets, towns and countries as the data writes them
        /// in that language (`name:xx`, CLDR country names), falling back to `name`. An OpenMapKit
        /// addition, as on the geocoding requests: MapKit answers in the device's language; nil
        /// here answers with the names as tagged (`name`), whatever the process's locale.
        public var preferredLocale: Locale?
        private var storedRegion: MKCoordinateRegion?
        /// The place a completion stands for; searched by identifier rather than by text.
        private(set) var completionRecordID: String?

        public override init() { super.init() }

        public convenience init(naturalLanguageQuery: String) {
            self.init()
            self.naturalLanguageQuery = naturalLanguageQuery
        }

        public convenience init(naturalLanguageQuery: String, region: MKCoordinateRegion) {
            self.init(naturalLanguageQuery: naturalLanguageQuery)
            self.region = region
        }

        /// The search a completion stands for: its place, or (for a query suggestion such as
        /// "Cafes") the query it suggests.
        public convenience init(completion: MKLocalSearchCompletion) {
            self.init()
            naturalLanguageQuery = completion.queryText ?? ([completion.title, completion.subtitle].filter { !$0.isEmpty }.joined(separator: ", "))
            completionRecordID = completion.record?.id
        }

        /// The area to search; results near it rank higher. Unset, it is the whole world (and
        /// does not bias results).
        public var region: MKCoordinateRegion {
            get { storedRegion ?? MKCoordinateRegion(MKMapRect.world) }
            set { storedRegion = newValue }
        }

        var regionIfSet: MKCoordinateRegion? { storedRegion }

        func frozenCopy() -> Request {
            let copy = Request()
            copy.naturalLanguageQuery = naturalLanguageQuery
            copy.resultTypes = resultTypes
            copy.pointOfInterestFilter = pointOfInterestFilter
            copy.addressFilter = addressFilter
            copy.regionPriority = regionPriority
            copy.resultLimit = resultLimit
            copy.storedRegion = storedRegion
            copy.completionRecordID = completionRecordID
            copy.preferredLocale = preferredLocale
            return copy
        }
    }

    /// What a search found (MapKit's `MKLocalSearch.Response`).
    public final class Response: NSObject, @unchecked Sendable {
        /// The places, best first.
        public let mapItems: [MKMapItem]
        /// A region that contains every item.
        public let boundingRegion: MKCoordinateRegion

        init(mapItems: [MKMapItem], boundingRegion: MKCoordinateRegion) {
            self.mapItems = mapItems
            self.boundingRegion = boundingRegion
        }
    }

    private enum Work {
        case text(Request)
        case pointsOfInterest(MKLocalPointsOfInterestRequest)
    }

    private let work: Work
    private let dataSource: MapDataSource?
    private let lifecycle = RequestLifecycle(.oneShot)

    /// A search for `request` (copied: later changes to it do not affect the search).
    public init(request: Request) {
        work = .text(request.frozenCopy())
        dataSource = nil
        super.init()
    }

    /// A search for the points of interest in a request's circle or region.
    public init(request: MKLocalPointsOfInterestRequest) {
        work = .pointsOfInterest(request.frozenCopy())
        dataSource = nil
        super.init()
    }

    /// A search of `dataSource`'s bundles rather than the default source (an OpenMapKit addition).
    public init(request: Request, dataSource: MapDataSource) {
        work = .text(request.frozenCopy())
        self.dataSource = dataSource
        super.init()
    }

    /// A points-of-interest search of `dataSource`'s bundles (an OpenMapKit addition).
    public init(request: MKLocalPointsOfInterestRequest, dataSource: MapDataSource) {
        work = .pointsOfInterest(request.frozenCopy())
        self.dataSource = dataSource
        super.init()
    }

    /// Whether the search is running.
    public var isSearching: Bool { lifecycle.isRunning }

    /// Stops the search; its start fails with `CancellationError`.
    public func cancel() { lifecycle.cancel() }

    /// Runs the search.
    public func start() async throws -> Response {
        let work = work, dataSource = dataSource
        return try await lifecycle.start { _ in try Self.perform(work, dataSource: dataSource) }
    }

    /// Runs the search and calls `completionHandler` on the main queue, as MapKit does.
    public func start(completionHandler: @escaping CompletionHandler) {
        start(with: .main, completionHandler: completionHandler)
    }

    /// Runs the search and calls `completionHandler` on `queue` (an OpenMapKit addition).
    public func start(with queue: DispatchQueue, completionHandler: @escaping CompletionHandler) {
        let work = work, dataSource = dataSource
        lifecycle.start(on: queue, { _ in try Self.perform(work, dataSource: dataSource) }) { $0.deliver(to: completionHandler) }
    }

    /// The longest query searched; longer text is almost certainly not a place name.
    static let maximumQueryLength = 500
    /// The most results any request returns, whatever its `resultLimit`.
    static let maximumResults = 1000

    private static func perform(_ work: Work, dataSource: MapDataSource?) throws -> Response {
        switch work {
        case .text(let request): return try search(request, dataSource: dataSource)
        case .pointsOfInterest(let request): return try pointsOfInterest(request, dataSource: dataSource)
        }
    }

    private static func search(_ request: Request, dataSource: MapDataSource?) throws -> Response {
        if let region = request.regionIfSet, let problem = SearchInput.problem(with: region) {
            throw MKError(.placemarkNotFound, reason: problem)
        }
        if let id = request.completionRecordID {
            guard let record = try PlaceSearch(source: dataSource).place(id: id) else {
                throw MKError(.placemarkNotFound, reason: "the completion's place (\(id)) is no longer in the map data")
            }
            return try response(for: [record], search: PlaceSearch(source: dataSource), locale: request.preferredLocale)
        }
        // Input is checked before the data is opened, so a bad request fails the same way
        // whatever the data source.
        let text = try checkedQuery(request.naturalLanguageQuery)
        guard request.resultLimit > 0 else { throw MKError(.placemarkNotFound, reason: "resultLimit is \(request.resultLimit); it must be at least 1") }
        let kinds = placeKinds(request.resultTypes, pointOfInterestFilter: request.pointOfInterestFilter)
        guard !kinds.isEmpty else {
            throw MKError(.placemarkNotFound, reason: "the request's resultTypes (and point-of-interest filter) exclude every kind of place")
        }
        let search = try PlaceSearch(source: dataSource)
        var query = PlaceQuery(text: text, region: request.regionIfSet)
        query.regionIsRequired = request.regionPriority == .required && request.regionIfSet != nil
        query.kinds = kinds
        (query.includedCategories, query.excludedCategories) = categories(of: request.pointOfInterestFilter)
        // The address filter is applied to the results, so ask for more than are kept.
        let filter = request.addressFilter
        let limit = min(request.resultLimit, maximumResults)
        query.limit = filter == nil ? limit : limit * 3
        var records = try search.searchFilteringPointsOfInterestOnly(query).map(\.record)
        if let filter { records = records.filter(filter.keeps) }
        records = Array(records.prefix(limit))
        guard !records.isEmpty else {
            let scope = query.regionIsRequired ? " in the request's region" : ""
            throw MKError(.placemarkNotFound, reason: "no place matches \"\(text)\"\(scope)")
        }
        return try response(for: records, search: search, locale: request.preferredLocale)
    }

    private static func pointsOfInterest(_ request: MKLocalPointsOfInterestRequest, dataSource: MapDataSource?) throws -> Response {
        let (region, center, radius) = try request.searchArea()
        let filter = request.pointOfInterestFilter
        if filter?.isExcludingAll == true {
            throw MKError(.placemarkNotFound, reason: "the point-of-interest filter excludes every category")
        }
        let search = try PlaceSearch(source: dataSource)
        let (included, excluded) = categories(of: filter)
        // The index returns the region's points of interest; the circle (and MapKit's maximum
        // radius) is applied here, nearest first.
        let candidates = try search.pointsOfInterest(in: region, includedCategories: included, excludedCategories: excluded,
                                                     limit: max(min(request.resultLimit, maximumResults) * 20, 2000))
        let origin = CLLocation(latitude: center.latitude, longitude: center.longitude)
        let inside = candidates.map { ($0, CLLocation(latitude: $0.coordinate.latitude, longitude: $0.coordinate.longitude).distance(from: origin)) }
            .filter { $0.1 <= radius && request.contains($0.0.coordinate) }
            .sorted { $0.1 < $1.1 }
            .prefix(min(request.resultLimit, maximumResults))
            .map(\.0)
        guard !inside.isEmpty else {
            throw MKError(.placemarkNotFound, reason: "no point of interest within \(Int(radius.rounded())) m of \(center.latitude),\(center.longitude)")
        }
        return try response(for: Array(inside))
    }

    private static func response(for records: [PlaceRecord], search: PlaceSearch? = nil, locale: Locale? = nil) throws(MKError) -> Response {
        var items: [MKMapItem] = []
        for record in records {
            let written = if let search, locale != nil { try search.localized(record, locale: locale) } else { record }
            items.append(MKMapItem(record: written, locale: locale))
        }
        return Response(mapItems: items, boundingRegion: SearchInput.boundingRegion(of: records))
    }

    /// The query trimmed, or the reason it cannot be searched.
    static func checkedQuery(_ text: String?) throws(MKError) -> String {
        let trimmed = (text ?? "").trimmingCharacters(in: .whitespacesAndNewlines.union(.controlCharacters))
        guard !trimmed.isEmpty else { throw MKError(.placemarkNotFound, reason: "the search has no text: set naturalLanguageQuery") }
        guard trimmed.count <= maximumQueryLength else {
            throw MKError(.placemarkNotFound, reason: "the query is \(trimmed.count) characters long; at most \(maximumQueryLength) are searched")
        }
        return trimmed
    }

    /// The index's kinds for MapKit's result types. A filter that excludes every category drops
    /// points of interest altogether.
    static func placeKinds(_ types: ResultType, pointOfInterestFilter: MKPointOfInterestFilter?) -> Set<PlaceKind> {
        var kinds: Set<PlaceKind> = []
        if types.contains(.address) { kinds.formUnion([.address, .street, .locality, .administrativeArea, .postalCode]) }
        if types.contains(.pointOfInterest), pointOfInterestFilter?.isExcludingAll != true { kinds.insert(.pointOfInterest) }
        if types.contains(.physicalFeature) { kinds.insert(.physicalFeature) }
        return kinds
    }

    /// The index's category raw values for a filter: included (nil = all) and excluded.
    static func categories(of filter: MKPointOfInterestFilter?) -> (Set<String>?, Set<String>) {
        switch filter?.kind {
        case nil: (nil, [])
        case .including(let set)?: (Set(set.map(\.rawValue)), [])
        case .excluding(let set)?: (nil, Set(set.map(\.rawValue)))
        }
    }
}

/// MapKit's older names.
public typealias MKLocalSearchRequest = MKLocalSearch.Request
public typealias MKLocalSearchResponse = MKLocalSearch.Response

/// A request for the points of interest around a point or in a region (MapKit's
/// `MKLocalPointsOfInterestRequest`); run it with `MKLocalSearch(request:)`.
///
/// Results are the nearest first, at most ``maxRadius`` from the centre. Input is checked when
/// the search starts: a NaN centre, a negative, zero or NaN radius, or a region with a zero span
/// fails it with `MKError.placemarkNotFound` and a reason.
public final class MKLocalPointsOfInterestRequest: NSObject, @unchecked Sendable {
    /// The largest distance from the centre that is searched (2 km). MapKit does not document
    /// its own value; a larger radius is cut to this one, as MapKit does.
    public static let maxRadius: CLLocationDistance = 2000

    /// The circle's centre, or the region's.
    public let coordinate: CLLocationCoordinate2D
    /// The given radius, or the distance from the region's centre to its farthest corner.
    public let radius: CLLocationDistance
    /// The given region, or the circle's bounding box.
    public let region: MKCoordinateRegion
    /// Which categories to return; nil returns all.
    public var pointOfInterestFilter: MKPointOfInterestFilter?
    /// The most results to return (an OpenMapKit addition).
    public var resultLimit = 100
    private let isCircle: Bool

    /// The points of interest within `radius` metres of `center`.
    public init(center: CLLocationCoordinate2D, radius: CLLocationDistance) {
        coordinate = center
        self.radius = radius
        isCircle = true
        region = MKCoordinateRegion(center: center, latitudinalMeters: 2 * radius, longitudinalMeters: 2 * radius)
        super.init()
    }

    /// The points of interest in `coordinateRegion` (for example the visible map).
    public init(coordinateRegion: MKCoordinateRegion) {
        region = coordinateRegion
        coordinate = coordinateRegion.center
        isCircle = false
        let center = CLLocation(latitude: coordinateRegion.center.latitude, longitude: coordinateRegion.center.longitude)
        let half = (coordinateRegion.span.latitudeDelta / 2, coordinateRegion.span.longitudeDelta / 2)
        var farthest = 0.0
        for (dy, dx) in [(half.0, half.1), (half.0, -half.1), (-half.0, half.1), (-half.0, -half.1)] {
            let corner = CLLocation(latitude: max(-90, min(90, coordinateRegion.center.latitude + dy)),
                                    longitude: coordinateRegion.center.longitude + dx)
            farthest = max(farthest, corner.distance(from: center))
        }
        radius = farthest
        super.init()
    }

    private init(copying other: MKLocalPointsOfInterestRequest) {
        coordinate = other.coordinate
        radius = other.radius
        region = other.region
        isCircle = other.isCircle
        pointOfInterestFilter = other.pointOfInterestFilter
        resultLimit = other.resultLimit
        super.init()
    }

    func frozenCopy() -> MKLocalPointsOfInterestRequest { MKLocalPointsOfInterestRequest(copying: self) }

    /// The region to ask the index for, the centre, and the radius honoured — or why the request
    /// cannot be searched.
    func searchArea() throws(MKError) -> (MKCoordinateRegion, CLLocationCoordinate2D, CLLocationDistance) {
        if let problem = SearchInput.problem(with: coordinate, what: "the centre") { throw MKError(.placemarkNotFound, reason: problem) }
        guard resultLimit > 0 else { throw MKError(.placemarkNotFound, reason: "resultLimit is \(resultLimit); it must be at least 1") }
        if isCircle {
            guard radius.isFinite, radius > 0 else {
                throw MKError(.placemarkNotFound, reason: "the radius \(radius) m is out of range: it must be more than 0 (at most \(Int(Self.maxRadius)) m is searched)")
            }
            let honoured = min(radius, Self.maxRadius)
            return (MKCoordinateRegion(center: coordinate, latitudinalMeters: 2 * honoured, longitudinalMeters: 2 * honoured), coordinate, honoured)
        }
        if let problem = SearchInput.problem(with: region) { throw MKError(.placemarkNotFound, reason: problem) }
        let honoured = min(radius, Self.maxRadius)
        // Only the part of the region within the maximum radius is asked for.
        let circle = MKCoordinateRegion(center: coordinate, latitudinalMeters: 2 * honoured, longitudinalMeters: 2 * honoured)
        let span = MKCoordinateSpan(latitudeDelta: min(region.span.latitudeDelta, circle.span.latitudeDelta),
                                    longitudeDelta: min(region.span.longitudeDelta, circle.span.longitudeDelta))
        return (MKCoordinateRegion(center: coordinate, span: span), coordinate, honoured)
    }

    /// Whether a point is inside the request's region (a circle's is checked by distance instead).
    func contains(_ point: CLLocationCoordinate2D) -> Bool {
        guard !isCircle else { return true }
        let dLat = abs(point.latitude - region.center.latitude)
        var dLon = abs(point.longitude - region.center.longitude)
        if dLon > 180 { dLon = 360 - dLon }
        return dLat <= region.span.latitudeDelta / 2 && dLon <= region.span.longitudeDelta / 2
    }
}
