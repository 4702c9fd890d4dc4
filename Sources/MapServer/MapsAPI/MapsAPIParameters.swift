import Foundation
import Hummingbird
import OpenMapKit

// The Apple Maps Server API's shared parameters, read from a request's query and checked: each
// problem is a 400 naming the parameter. Built on ``QueryParameters``.

/// Apple's `transportType` values. Cycling is not in Apple's server API (MapKit has it); Transit
/// is accepted and answered with a 404 saying there are no timetables.
enum APITransportType: String, CaseIterable, Sendable {
    case automobile = "Automobile"
    case walking = "Walking"
    case cycling = "Cycling"
    case transit = "Transit"

    var mapKit: MKDirectionsTransportType {
        switch self {
        case .automobile: .automobile
        case .walking: .walking
        case .cycling: .cycling
        case .transit: .transit
        }
    }

    init(_ type: MKDirectionsTransportType) {
        if type.contains(.automobile) { self = .automobile }
        else if type.contains(.walking) { self = .walking }
        else if type.contains(.cycling) { self = .cycling }
        else { self = .transit }
    }
}

/// `searchRegionPriority`.
enum APISearchRegionPriority: String, CaseIterable, Sendable {
    case `default`
    case required
}

/// `resultTypeFilter` values.
enum APIResultType: String, CaseIterable, Sendable {
    /// A point of interest or a physical feature.
    case poi = "Poi"
    case address = "Address"
    case physicalFeature = "PhysicalFeature"
    case pointOfInterest = "PointOfInterest"
    /// A query suggestion; autocomplete only.
    case query = "Query"
}

/// `includeAddressCategories` / `excludeAddressCategories` values.
enum APIAddressCategory: String, CaseIterable, Sendable {
    case country = "Country"
    case administrativeArea = "AdministrativeArea"
    case subAdministrativeArea = "SubAdministrativeArea"
    case locality = "Locality"
    case subLocality = "SubLocality"
    case postalCode = "PostalCode"

    var option: MKAddressFilter.Options {
        switch self {
        case .country: .country
        case .administrativeArea: .administrativeArea
        case .subAdministrativeArea: .subAdministrativeArea
        case .locality: .locality
        case .subLocality: .subLocality
        case .postalCode: .postalCode
        }
    }
}

/// The search and geocoding parameters common to several endpoints.
struct SearchParameters: Sendable {
    /// The area that biases (or with `required`, restricts) results.
    var region: MKCoordinateRegion?
    var regionPriority = MKLocalSearchRegionPriority.default
    var locale: Locale?
    var countries: Set<String>?
    var pointOfInterestFilter: MKPointOfInterestFilter?
    var addressFilter: MKAddressFilter?
    var resultTypes: Set<APIResultType>?

    /// Side of the area around `searchLocation` or `userLocation` that biases results.
    static let hintMeters = 20_000.0

    init(_ query: QueryParameters, allowsQueryType: Bool = false) throws {
        let location = try query.coordinate("searchLocation")
        let region = try query.region("searchRegion")
        if location != nil && region != nil {
            throw APIError.badRequest("searchLocation and searchRegion cannot both be given", details: ["send one of them"])
        }
        let user = try query.coordinate("userLocation")
        if let region { self.region = region }
        else if let center = location ?? user { self.region = MKCoordinateRegion(center: center, latitudinalMeters: Self.hintMeters, longitudinalMeters: Self.hintMeters) }
        if let priority = try query.choice("searchRegionPriority", of: APISearchRegionPriority.self) {
            if priority == .required && region == nil && location == nil {
                throw APIError.badRequest("searchRegionPriority=required needs a searchRegion or searchLocation to restrict results to")
            }
            regionPriority = priority == .required ? .required : .default
        }
        locale = try Self.language(query)
        if let codes = try query.list("limitToCountries", maximumCount: 250) {
            for code in codes where code.count != 2 || !code.allSatisfy({ $0.isASCII && $0.isLetter }) {
                throw APIError.badRequest("parameter limitToCountries must list ISO 3166-1 alpha-2 country codes such as MC,FR",
                                          details: ["got \(QueryParameters.quoted(code))"])
            }
            countries = Set(codes.map { $0.uppercased() })
        }
        let included = try Self.categories(query, "includePoiCategories")
        let excluded = try Self.categories(query, "excludePoiCategories")
        if included != nil && excluded != nil {
            throw APIError.badRequest("includePoiCategories and excludePoiCategories cannot both be given")
        }
        if let included { pointOfInterestFilter = MKPointOfInterestFilter(including: included) }
        if let excluded { pointOfInterestFilter = MKPointOfInterestFilter(excluding: excluded) }
        let includedAddresses = try Self.addressCategories(query, "includeAddressCategories")
        let excludedAddresses = try Self.addressCategories(query, "excludeAddressCategories")
        if includedAddresses != nil && excludedAddresses != nil {
            throw APIError.badRequest("includeAddressCategories and excludeAddressCategories cannot both be given")
        }
        if let includedAddresses { addressFilter = MKAddressFilter(including: includedAddresses) }
        if let excludedAddresses { addressFilter = MKAddressFilter(excluding: excludedAddresses) }
        if let names = try query.list("resultTypeFilter", maximumCount: 10) {
            var types = Set<APIResultType>()
            for name in names {
                guard let type = APIResultType.allCases.first(where: { $0.rawValue.caseInsensitiveCompare(name) == .orderedSame }),
                      allowsQueryType || type != .query else {
                    let allowed = APIResultType.allCases.filter { allowsQueryType || $0 != .query }.map(\.rawValue)
                    throw APIError.badRequest("parameter resultTypeFilter must list \(allowed.joined(separator: ", "))",
                                              details: ["got \(QueryParameters.quoted(name))"])
                }
                types.insert(type)
            }
            resultTypes = types
        }
    }

    /// `lang`, a BCP 47 tag such as `en-US`; nil when absent.
    static func language(_ query: QueryParameters) throws -> Locale? {
        guard let text = query["lang"] else { return nil }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.count <= 35, let first = parts.first, (2...3).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter }),
              parts.dropFirst().allSatisfy({ (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }) else {
            throw APIError.badRequest("parameter lang must be a BCP 47 language tag such as en-US", details: ["got \(QueryParameters.quoted(text))"])
        }
        return Locale(identifier: text)
    }

    /// The language an `Accept-Language` header prefers most ("sv-FI;q=0.9, en;q=0.8" → sv-FI),
    /// for geocoding without `lang` (which wins when both are sent). A malformed or wildcard
    /// header is ignored rather than refused: browsers send it on every request, unasked.
    static func acceptLanguage(_ header: String?) -> Locale? {
        guard let header, header.utf8.count <= 1_000 else { return nil }
        var best: (quality: Double, tag: String)? = nil
        for item in header.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = parts.first, !tag.isEmpty, tag != "*" else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() where parameter.hasPrefix("q=") { quality = Double(parameter.dropFirst(2)) ?? 0 }
            let subtags = tag.split(separator: "-")
            guard quality > 0, let first = subtags.first, (2...3).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter }),
                  subtags.allSatisfy({ (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }) else { continue }
            if quality > best?.quality ?? 0 { best = (quality, tag) }
        }
        return best.map { Locale(identifier: $0.tag) }
    }

    private static func categories(_ query: QueryParameters, _ name: String) throws -> [MKPointOfInterestCategory]? {
        guard let names = try query.list(name, maximumCount: 200) else { return nil }
        return try names.map { text in
            guard let category = PoiCategoryNames.category(named: text) else {
                throw APIError.badRequest("parameter \(name) names an unknown PoiCategory \(QueryParameters.quoted(text))",
                                          details: ["known: " + PoiCategoryNames.all.joined(separator: ", ")])
            }
            return category
        }
    }

    private static func addressCategories(_ query: QueryParameters, _ name: String) throws -> MKAddressFilter.Options? {
        guard let names = try query.list(name, maximumCount: 20) else { return nil }
        var options = MKAddressFilter.Options()
        for text in names {
            guard let category = APIAddressCategory.allCases.first(where: { $0.rawValue.caseInsensitiveCompare(text) == .orderedSame }) else {
                throw APIError.badRequest("parameter \(name) must list \(APIAddressCategory.allCases.map(\.rawValue).joined(separator: ", "))",
                                          details: ["got \(QueryParameters.quoted(text))"])
            }
            options.insert(category.option)
        }
        return options
    }

    /// MapKit's result types for `resultTypeFilter` (all when absent).
    var searchResultTypes: MKLocalSearch.ResultType {
        guard let types = resultTypes else { return [.address, .pointOfInterest, .physicalFeature] }
        var result = MKLocalSearch.ResultType()
        if types.contains(.address) { result.insert(.address) }
        if types.contains(.pointOfInterest) || types.contains(.poi) { result.insert(.pointOfInterest) }
        if types.contains(.physicalFeature) || types.contains(.poi) { result.insert(.physicalFeature) }
        return result
    }

    /// The completer's result types for `resultTypeFilter` (all when absent).
    var completerResultTypes: MKLocalSearchCompleter.ResultType {
        guard let types = resultTypes else { return [.address, .pointOfInterest, .physicalFeature, .query] }
        var result = MKLocalSearchCompleter.ResultType()
        if types.contains(.address) { result.insert(.address) }
        if types.contains(.pointOfInterest) || types.contains(.poi) { result.insert(.pointOfInterest) }
        if types.contains(.physicalFeature) || types.contains(.poi) { result.insert(.physicalFeature) }
        if types.contains(.query) { result.insert(.query) }
        return result
    }

    /// Whether an item passes `limitToCountries`.
    func allows(_ item: MKMapItem) -> Bool {
        guard let countries else { return true }
        return item.placemark.isoCountryCode.map { countries.contains($0.uppercased()) } ?? false
    }
}

extension QueryParameters {
    /// The longest `q` searched, in characters (as OpenMapKit's search).
    static let maximumSearchTextLength = 500

    /// `name` as search text: required, at most ``maximumSearchTextLength`` characters, without
    /// control characters, and not blank.
    func searchText(_ name: String) throws -> String {
        let text = try required(name)
        if let scalar = text.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) {
            throw APIError.badRequest("parameter \(name) contains a control character (U+\(String(format: "%04X", scalar.value)))",
                                      details: ["got \(Self.quoted(text))"])
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw APIError.badRequest("parameter \(name) is blank") }
        guard trimmed.count <= Self.maximumSearchTextLength else {
            throw APIError.badRequest("parameter \(name) is too long", details: ["at most \(Self.maximumSearchTextLength) characters, got \(trimmed.count)"])
        }
        return trimmed
    }

    /// `departureDate` and `arrivalDate`, at most one of them.
    func travelDates() throws -> (departure: Date?, arrival: Date?) {
        let departure = try date("departureDate"), arrival = try date("arrivalDate")
        if departure != nil && arrival != nil {
            throw APIError.badRequest("departureDate and arrivalDate cannot both be given", details: ["send one of them"])
        }
        return (departure, arrival)
    }
}
