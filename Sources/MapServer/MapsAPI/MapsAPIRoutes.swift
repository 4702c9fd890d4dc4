import Foundation
import Hummingbird
import NIOCore
import OpenMapKit

/// The Apple Maps Server API under `/v1`: geocode, reverse geocode, search (with pagination),
/// autocomplete, directions, ETAs, place lookups and the token exchange — the same parameters and
/// JSON bodies as `maps-api.apple.com`, so an existing client works by changing its base URL.
///
/// Every endpoint is answered by OpenMapKit's public MapKit API (`MKGeocodingRequest`,
/// `MKLocalSearch`, `MKLocalSearchCompleter`, `MKDirections`, …) over the data source of the
/// request's `region` (an OpenMapKit addition; all regions without it), taken from one registry
/// snapshot per request.
///
/// Nothing found is answered as Apple does: search, geocoding and autocomplete return 200 with
/// empty results; directions and ETAs with no route return 404; an unknown place id 404.
struct MapsAPIRoutes {
    let server: MapServer

    /// Results per page when a search asks for pagination.
    static let pageSize = 10
    /// The most results a search finds (and pages through).
    static let maximumSearchResults = 100
    /// Results of a search without pagination (MapKit's default limit).
    static let unpaginatedResults = 25
    /// Completions per autocomplete request.
    static let autocompleteResults = 10
    /// The most ids one `/v1/place?ids=` request looks up.
    static let maximumPlaceIDs = 50

    func register(on router: Router<ServerContext>) {
        router.get("/v1/geocode") { request, _ in try await geocode(request) }
        router.get("/v1/reverseGeocode") { request, _ in try await reverseGeocode(request) }
        router.get("/v1/search") { request, _ in try await search(request) }
        router.get("/v1/searchAutocomplete") { request, _ in try await autocomplete(request) }
        router.get("/v1/searchPointsOfInterest") { request, _ in try await pointsOfInterest(request) }
        router.get("/v1/directions") { request, _ in try await MapsAPIDirections(server: server).directions(request) }
        router.get("/v1/etas") { request, _ in try await MapsAPIDirections(server: server).etas(request) }
        router.get("/v1/place/alternateIds") { request, _ in try await alternateIDs(request) }
        router.get("/v1/place/{id}") { request, context in try await place(request, id: context.parameters.get("id") ?? "") }
        router.get("/v1/place") { request, _ in try await places(request) }
        router.get("/v1/token") { _, context in token(context) }
    }

    // MARK: - Geocoding

    private func geocode(_ request: Request) async throws -> Response {
        let query = try QueryParameters(request)
        let text = try query.searchText("q")
        let parameters = try SearchParameters(query)
        let source = try server.regions.snapshot.source(named: query["region"])
        guard let geocoder = MKGeocodingRequest(addressString: text) else { return try Self.json(APIPlaceResults(results: [])) }
        geocoder.dataSource = source
        geocoder.preferredLocale = parameters.locale ?? SearchParameters.acceptLanguage(request.headers[.acceptLanguage])
        if let region = parameters.region { geocoder.region = region }
        let items = try await Self.foundOrEmpty { try await geocoder.mapItems }
        return try Self.json(APIPlaceResults(results: items.filter(parameters.allows).map { APIPlace($0) }))
    }

    private func reverseGeocode(_ request: Request) async throws -> Response {
        let query = try QueryParameters(request)
        guard let coordinate = try query.coordinate("loc") else { throw APIError.badRequest("parameter loc is required") }
        let locale = try SearchParameters.language(query) ?? SearchParameters.acceptLanguage(request.headers[.acceptLanguage])
        let source = try server.regions.snapshot.source(named: query["region"])
        guard let reverse = MKReverseGeocodingRequest(location: CLLocation(latitude: coordinate.latitude, longitude: coordinate.longitude)) else {
            throw APIError.badRequest("parameter loc is not a valid coordinate")
        }
        reverse.dataSource = source
        reverse.preferredLocale = locale
        let items = try await Self.foundOrEmpty { try await reverse.mapItems }
        return try Self.json(APIPlaceResults(results: items.map { APIPlace($0) }))
    }

    // MARK: - Search

    private func search(_ request: Request) async throws -> Response {
        let asked = try QueryParameters(request)
        // A page token carries its whole search: `?pageToken=…` alone asks for that page, as
        // Apple's API requires of clients.
        let page = try asked["pageToken"].map { try PageToken.read($0, request: asked) }
        let query = page?.search ?? asked
        let text = try query.searchText("q")
        let parameters = try SearchParameters(query)
        let source = try server.regions.snapshot.source(named: query["region"])
        let paginated = try query.bool("enablePagination") ?? false || page != nil
        let chosen = try await completionPlace(query, source: source)

        let search = MKLocalSearch.Request(naturalLanguageQuery: text)
        if let region = parameters.region { search.region = region }
        search.regionPriority = parameters.regionPriority
        search.resultTypes = parameters.searchResultTypes
        search.pointOfInterestFilter = parameters.pointOfInterestFilter
        search.addressFilter = parameters.addressFilter
        search.preferredLocale = parameters.locale ?? SearchParameters.acceptLanguage(request.headers[.acceptLanguage])
        search.resultLimit = paginated ? Self.maximumSearchResults : Self.unpaginatedResults
        // limitToCountries filters afterwards, so ask for more when it is set.
        if parameters.countries != nil { search.resultLimit = Self.maximumSearchResults * 2 }
        var items: [MKMapItem] = []
        var bounding: MKCoordinateRegion?
        if !search.resultTypes.isEmpty {
            do {
                let response = try await MKLocalSearch(request: search, dataSource: source).start()
                items = response.mapItems
                bounding = response.boundingRegion
            } catch let error as MKError where error.code == .placemarkNotFound {
                items = []
            }
        }
        if let chosen {
            items.removeAll { $0.identifier != nil && $0.identifier == chosen.identifier }
            items.insert(chosen, at: 0)
        }
        items = items.filter(parameters.allows)
        if parameters.countries != nil || chosen != nil { bounding = items.isEmpty ? nil : Self.boundingRegion(items) }
        items = Array(items.prefix(paginated ? Self.maximumSearchResults : Self.unpaginatedResults))

        var response = APISearchResponse(displayMapRegion: bounding.map(APIMapRegion.init), results: items.map { APIPlace($0) })
        if paginated {
            let offset = page?.offset ?? 0
            guard offset < max(items.count, 1) else {
                throw APIError.badRequest("parameter pageToken points past the last page", details: ["the search now has \(items.count) results"])
            }
            response.results = items.dropFirst(offset).prefix(Self.pageSize).map { APIPlace($0) }
            let pages = (items.count + Self.pageSize - 1) / Self.pageSize
            response.paginationInfo = .init(
                nextPageToken: offset + Self.pageSize < items.count ? PageToken.make(offset: offset + Self.pageSize, search: query) : nil,
                prevPageToken: offset > 0 ? PageToken.make(offset: max(0, offset - Self.pageSize), search: query) : nil,
                totalPageCount: pages, totalResults: items.count)
        }
        return try Self.json(response)
    }

    /// The place a completion URL's `metadata` names, looked up again; nil without metadata or
    /// when the place is gone from the data (the text search still answers).
    private func completionPlace(_ query: QueryParameters, source: MapDataSource) async throws -> MKMapItem? {
        guard let metadata = query["metadata"] else { return nil }
        guard let id = CompletionMetadata.placeID(from: metadata), let identifier = MKMapItem.Identifier(rawValue: id) else {
            throw APIError.badRequest("parameter metadata is not valid", details: ["use the completionUrl from /v1/searchAutocomplete unchanged"])
        }
        let lookup = MKMapItemRequest(mapItemIdentifier: identifier)
        lookup.dataSource = source
        return try? await lookup.mapItem
    }

    // MARK: - Autocomplete

    private func autocomplete(_ request: Request) async throws -> Response {
        let query = try QueryParameters(request)
        let text = try query.searchText("q")
        let parameters = try SearchParameters(query, allowsQueryType: true)
        let regionName = query["region"]
        let source = try server.regions.snapshot.source(named: regionName)
        let completer = MKLocalSearchCompleter()
        completer.dataSource = source
        completer.debounceInterval = 0
        completer.delegateQueue = DispatchQueue(label: "openmapkit.serve.autocomplete")
        completer.resultLimit = Self.autocompleteResults
        completer.resultTypes = parameters.completerResultTypes
        completer.pointOfInterestFilter = parameters.pointOfInterestFilter
        completer.addressFilter = parameters.addressFilter
        completer.regionPriority = parameters.regionPriority
        if let region = parameters.region { completer.region = region }
        let completions: [MKLocalSearchCompletion]
        do {
            completions = try await CompleterBridge.complete(text, with: completer)
        } catch let error as MKError where error.code == .placemarkNotFound {
            completions = []
        }

        var results: [APIAutocompleteResult] = []
        for completion in completions {
            let lines = [completion.title, completion.subtitle].filter { !$0.isEmpty }
            let search = MKLocalSearch.Request(completion: completion)
            var url = "/v1/search?q=" + Self.escape(search.naturalLanguageQuery ?? completion.title)
            var result = APIAutocompleteResult(completionUrl: "", displayLines: lines)
            if !completion.isQuerySuggestion {
                // The completion's place, for its location and address and for the URL's metadata.
                guard let item = try? await MKLocalSearch(request: search, dataSource: source).start().mapItems.first else { continue }
                guard parameters.allows(item) else { continue }
                result.location = APILocation(item.placemark.coordinate)
                result.structuredAddress = APIPlace(item).structuredAddress
                if let id = item.identifier?.rawValue { url += "&metadata=" + CompletionMetadata.make(placeID: id) }
            }
            if let regionName { url += "&region=" + Self.escape(regionName) }
            result.completionUrl = url
            results.append(result)
        }
        return try Self.json(APIAutocompleteResponse(results: results))
    }

    // MARK: - Points of interest

    /// The points of interest around `center` (within `radius` metres, nearest first) or inside
    /// `searchRegion`, filtered by `includePoiCategories` or `excludePoiCategories`: MapKit's
    /// `MKLocalPointsOfInterestRequest`, which MapKit JS exposes as `PointsOfInterestSearch`.
    /// An OpenMapKit addition: Apple's server API has no such endpoint. Answered as geocoding is,
    /// `{ "results": [Place] }`, empty when nothing is there.
    private func pointsOfInterest(_ request: Request) async throws -> Response {
        let query = try QueryParameters(request)
        let center = try query.coordinate("center")
        let radius = try query.double("radius", in: 1...1_000_000)
        let region = try query.region("searchRegion")
        _ = try SearchParameters.language(query)
        let filter = try SearchParameters(query).pointOfInterestFilter
        let pois: MKLocalPointsOfInterestRequest
        switch (center, region) {
        case (let center?, nil):
            pois = MKLocalPointsOfInterestRequest(center: center, radius: radius ?? MKLocalPointsOfInterestRequest.maxRadius)
        case (nil, let region?):
            guard radius == nil else { throw APIError.badRequest("radius goes with center, not with searchRegion") }
            pois = MKLocalPointsOfInterestRequest(coordinateRegion: region)
        case (nil, nil):
            throw APIError.badRequest("parameter center (latitude,longitude, with an optional radius) or searchRegion is required")
        case (.some, .some):
            throw APIError.badRequest("center and searchRegion cannot both be given", details: ["send one of them"])
        }
        pois.pointOfInterestFilter = filter
        let source = try server.regions.snapshot.source(named: query["region"])
        let items = try await Self.foundOrEmpty { try await MKLocalSearch(request: pois, dataSource: source).start().mapItems }
        return try Self.json(APIPlaceResults(results: items.map { APIPlace($0) }))
    }

    // MARK: - Places

    private func lookup(_ id: String, source: MapDataSource) async throws -> MKMapItem? {
        guard let identifier = MKMapItem.Identifier(rawValue: id) else { return nil }
        let request = MKMapItemRequest(mapItemIdentifier: identifier)
        request.dataSource = source
        do {
            return try await request.mapItem
        } catch let error as MKError where error.code == .placemarkNotFound {
            return nil
        }
    }

    /// Whether `id` could name a place: short, printable, no separators.
    static func isWellFormedPlaceID(_ id: String) -> Bool {
        !id.isEmpty && id.count <= 64 && id.unicodeScalars.allSatisfy { $0.isASCII && $0.properties.generalCategory != .control && $0 != " " && $0 != "," && $0 != "/" }
    }

    private func place(_ request: Request, id rawID: String) async throws -> Response {
        let query = try QueryParameters(request)
        // `lang` is checked but cannot pick a name here: MKMapItemRequest has no locale, so a
        // place comes back with its OpenStreetMap `name`.
        _ = try SearchParameters.language(query)
        let id = rawID.removingPercentEncoding ?? rawID
        guard Self.isWellFormedPlaceID(id) else {
            throw APIError.badRequest("the place id \(QueryParameters.quoted(id)) is malformed", details: ["ids look like n123, w45 or r6"])
        }
        let source = try server.regions.snapshot.source(named: query["region"])
        guard let item = try await lookup(id, source: source) else {
            throw APIError.notFound("no place with id \(QueryParameters.quoted(id))", details: ["the place may have been removed from the map data"])
        }
        return try Self.json(APIPlace(item))
    }

    private func ids(_ query: QueryParameters) throws -> [String] {
        guard let ids = try query.list("ids", maximumCount: Self.maximumPlaceIDs) else { throw APIError.badRequest("parameter ids is required") }
        guard !ids.isEmpty else { throw APIError.badRequest("parameter ids lists no ids") }
        return ids
    }

    private func places(_ request: Request) async throws -> Response {
        let query = try QueryParameters(request)
        _ = try SearchParameters.language(query)
        let ids = try ids(query)
        let source = try server.regions.snapshot.source(named: query["region"])
        var response = APIPlacesResponse(places: [])
        var errors: [APIPlacesResponse.PlaceLookupError] = []
        for id in ids {
            guard Self.isWellFormedPlaceID(id) else { errors.append(.init(id: id, errorCode: "FAILED_INVALID_ID")); continue }
            if let item = try await lookup(id, source: source) { response.places.append(APIPlace(item)) }
            else { errors.append(.init(id: id, errorCode: "FAILED_NOT_FOUND")) }
        }
        response.errors = errors.isEmpty ? nil : errors
        return try Self.json(response)
    }

    private func alternateIDs(_ request: Request) async throws -> Response {
        let query = try QueryParameters(request)
        let ids = try ids(query)
        let source = try server.regions.snapshot.source(named: query["region"])
        var response = APIAlternateIDsResponse(results: [])
        var errors: [APIPlacesResponse.PlaceLookupError] = []
        for id in ids {
            guard Self.isWellFormedPlaceID(id) else { errors.append(.init(id: id, errorCode: "FAILED_INVALID_ID")); continue }
            if let item = try await lookup(id, source: source) {
                response.results.append(.init(id: id, alternateIds: item.alternateIdentifiers.map(\.rawValue).sorted()))
            } else {
                errors.append(.init(id: id, errorCode: "FAILED_NOT_FOUND"))
            }
        }
        response.errors = errors.isEmpty ? nil : errors
        return try Self.json(response)
    }

    // MARK: - Token

    /// Apple's token exchange. With keys configured the middleware has already checked that the
    /// bearer is a key (not a token); without keys the API is open and the token is for the open
    /// server, so clients that always fetch one keep working.
    private func token(_ context: ServerContext) -> Response {
        let identifier = context.apiKey.map { APIKey(key: $0).identifier } ?? "open"
        let token = APITokenResponse(accessToken: AccessTokens.issue(for: identifier), expiresInSeconds: Int(AccessTokens.lifetime))
        return (try? Self.json(token)) ?? Response(status: .internalServerError)
    }

    // MARK: - Helpers

    /// The JSON response for `value` (slashes unescaped, as Apple's completion URLs are).
    static func json(_ value: some Encodable) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let data = try encoder.encode(value)
        return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
                        body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// The items MapKit found, or none when it says nothing matched (Apple answers 200 with
    /// empty results for those).
    static func foundOrEmpty(_ body: () async throws -> [MKMapItem]) async throws -> [MKMapItem] {
        do {
            return try await body()
        } catch let error as MKError where error.code == .placemarkNotFound {
            return []
        }
    }

    /// A query value percent-encoded (only unreserved characters kept).
    static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    static func boundingRegion(_ items: [MKMapItem]) -> MKCoordinateRegion {
        let lats = items.map(\.placemark.coordinate.latitude), lons = items.map(\.placemark.coordinate.longitude)
        let (south, north) = (lats.min() ?? 0, lats.max() ?? 0), (west, east) = (lons.min() ?? 0, lons.max() ?? 0)
        let center = CLLocationCoordinate2D(latitude: (south + north) / 2, longitude: (west + east) / 2)
        let minimum = MKCoordinateRegion(center: center, latitudinalMeters: 1000, longitudinalMeters: 1000).span
        return MKCoordinateRegion(center: center, span: MKCoordinateSpan(latitudeDelta: max((north - south) * 1.2, minimum.latitudeDelta),
                                                                         longitudeDelta: max((east - west) * 1.2, minimum.longitudeDelta)))
    }

}

/// Page tokens of `/v1/search`: opaque to clients, carrying the whole search they page through
/// (every parameter but the token itself and the key), the offset and when they were made, and
/// signed by the server, so `?pageToken=…` alone returns the page and a token cannot be altered,
/// kept past ``lifetime`` or used with another server.
enum PageToken {
    /// How long a token pages through its search.
    static let lifetime: TimeInterval = 3600
    /// The parameters a token does not carry: the token itself and the caller's key.
    static let notCarried: Set<String> = ["pageToken", "key"]

    static func make(offset: Int, search: QueryParameters, now: Date = Date()) -> String {
        let carried = search.names.filter { !notCarried.contains($0) }.map { name in
            MapsAPIRoutes.escape(name) + "=" + MapsAPIRoutes.escape(search[name] ?? "")
        }.joined(separator: "&")
        let payload = Base64URL.encode(Array("\(offset).\(Int(now.timeIntervalSince1970)).\(carried)".utf8))
        return payload + "." + AccessTokens.sign(payload)
    }

    /// The search a token carries and the offset it points at, or a 400 saying what is wrong
    /// with it. Other search parameters sent with the token must be the ones it carries.
    static func read(_ token: String, request: QueryParameters, now: Date = Date()) throws -> (search: QueryParameters, offset: Int) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, AccessTokens.isValid(signature: parts[1], for: parts[0]),
              let text = Base64URL.decode(parts[0]).flatMap({ String(bytes: $0, encoding: .utf8) }) else {
            throw APIError.badRequest("parameter pageToken is not valid",
                                      details: ["use a nextPageToken or prevPageToken from this server unchanged; tokens do not survive a server restart"])
        }
        let fields = text.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
        guard fields.count == 3, let offset = Int(fields[0]), offset >= 0, let issued = TimeInterval(fields[1]) else {
            throw APIError.badRequest("parameter pageToken is not valid")
        }
        guard now.timeIntervalSince1970 - issued <= lifetime else {
            throw APIError.badRequest("parameter pageToken has expired", details: ["page tokens last \(Int(lifetime / 60)) minutes: search again"])
        }
        let search = try QueryParameters(query: String(fields[2]))
        for name in request.names where !notCarried.contains(name) && request[name] != search[name] {
            throw APIError.badRequest("parameter pageToken belongs to a different search",
                                      details: ["\(name) differs from the search that returned it; send the token alone"])
        }
        return (search, offset)
    }
}

/// The `metadata` of a completion URL: the completed place's id, so fetching the URL returns
/// that place first.
enum CompletionMetadata {
    static func make(placeID: String) -> String { Base64URL.encode(Array("place:\(placeID)".utf8)) }

    static func placeID(from metadata: String) -> String? {
        guard let text = Base64URL.decode(metadata).flatMap({ String(bytes: $0, encoding: .utf8) }), text.hasPrefix("place:") else { return nil }
        let id = String(text.dropFirst(6))
        return MapsAPIRoutes.isWellFormedPlaceID(id) ? id : nil
    }
}

/// Awaits one completion of an `MKLocalSearchCompleter` (which reports through its delegate).
final class CompleterBridge: MKLocalSearchCompleterDelegate, @unchecked Sendable {
    private var continuation: CheckedContinuation<[MKLocalSearchCompletion], any Error>?

    static func complete(_ fragment: String, with completer: MKLocalSearchCompleter) async throws -> [MKLocalSearchCompletion] {
        let bridge = CompleterBridge()
        completer.delegate = bridge
        let completions = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[MKLocalSearchCompletion], any Error>) in
            // Delegate calls arrive on the completer's serial delegate queue; set the
            // continuation there too so the two never race.
            completer.delegateQueue.sync { bridge.continuation = continuation }
            completer.queryFragment = fragment
        }
        withExtendedLifetime((bridge, completer)) {}
        return completions
    }

    func completerDidUpdateResults(_ completer: MKLocalSearchCompleter) {
        continuation?.resume(returning: completer.results)
        continuation = nil
    }

    func completer(_ completer: MKLocalSearchCompleter, didFailWithError error: any Error) {
        continuation?.resume(throwing: error)
        continuation = nil
    }
}
