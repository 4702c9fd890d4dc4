import Foundation
import OpenMapKit

// The Apple Maps Server API's JSON shapes, field for field (names and casing as Apple's
// documentation and its clients have them), built from OpenMapKit's MapKit objects. Optional
// fields that OpenStreetMap cannot fill are left out rather than sent empty, as Apple does.

/// `{latitude, longitude}` (Apple's `Location`).
public struct APILocation: Codable, Equatable, Sendable {
    public let latitude: Double
    public let longitude: Double

    init(_ coordinate: CLLocationCoordinate2D) {
        latitude = coordinate.latitude
        longitude = coordinate.longitude
    }
}

/// Apple's `MapRegion`: a box given by its edges.
public struct APIMapRegion: Codable, Sendable {
    public let southLatitude: Double
    public let westLongitude: Double
    public let northLatitude: Double
    public let eastLongitude: Double

    init(_ region: MKCoordinateRegion) {
        let c = region.center, s = region.span
        southLatitude = max(-90, c.latitude - s.latitudeDelta / 2)
        northLatitude = min(90, c.latitude + s.latitudeDelta / 2)
        var west = c.longitude - s.longitudeDelta / 2, east = c.longitude + s.longitudeDelta / 2
        if west < -180 { west += 360 }
        if east > 180 { east -= 360 }
        westLongitude = west
        eastLongitude = east
    }

    /// The box Apple gives a single place: 500 m each way around it.
    init(around coordinate: CLLocationCoordinate2D) {
        self.init(MKCoordinateRegion(center: coordinate, latitudinalMeters: 1000, longitudinalMeters: 1000))
    }
}

/// Apple's `StructuredAddress`.
public struct APIStructuredAddress: Codable, Sendable {
    public var administrativeArea: String?
    public var administrativeAreaCode: String?
    public var subAdministrativeArea: String?
    public var locality: String?
    public var subLocality: String?
    public var postCode: String?
    public var thoroughfare: String?
    public var subThoroughfare: String?
    public var fullThoroughfare: String?
    public var areasOfInterest: [String]?
    public var dependentLocalities: [String]?

    var isEmpty: Bool {
        [administrativeArea, subAdministrativeArea, locality, subLocality, postCode, thoroughfare, subThoroughfare].allSatisfy { $0 == nil }
    }
}

/// Apple's `Place`: the one JSON form of a map item. The server's `/v1` answers write it, and so
/// does the command line's `--json` (with ``init(_:includingDetails:)``'s details).
public struct APIPlace: Codable, Sendable {
    public var id: String?
    public var alternateIds: [String]?
    public var name: String?
    public var coordinate: APILocation
    public var displayMapRegion: APIMapRegion?
    public var formattedAddressLines: [String]?
    public var structuredAddress: APIStructuredAddress?
    public var country: String?
    public var countryCode: String?
    public var poiCategory: String?
    /// OpenMapKit's details that Apple's `Place` has no field for: written only when asked for
    /// (the command line's `--json`); the server leaves them out so Apple's clients get Apple's shape.
    public var phoneNumber: String?
    public var url: String?
    public var timeZone: String?

    /// The place a map item describes; `includingDetails` adds the phone number, website and
    /// time zone.
    public init(_ item: MKMapItem, includingDetails: Bool = false) {
        let placemark = item.placemark
        id = item.identifier?.rawValue
        let alternates = item.alternateIdentifiers.map(\.rawValue).sorted()
        alternateIds = alternates.isEmpty ? nil : alternates
        name = item.name ?? placemark.name
        coordinate = APILocation(placemark.coordinate)
        displayMapRegion = APIMapRegion(around: placemark.coordinate)
        let lines = item.addressRepresentations?.fullAddress(includingRegion: true, singleLine: false)?
            .split(separator: "\n").map(String.init) ?? []
        formattedAddressLines = lines.isEmpty ? nil : lines
        var address = APIStructuredAddress()
        address.administrativeArea = placemark.administrativeArea
        address.subAdministrativeArea = placemark.subAdministrativeArea
        address.locality = placemark.locality
        address.subLocality = placemark.subLocality
        address.postCode = placemark.postalCode
        address.thoroughfare = placemark.thoroughfare
        address.subThoroughfare = placemark.subThoroughfare
        // The street line as the country writes it ("12 Avenue de la Costa", "Städtle 12") is the
        // full address's first line whenever there is a street.
        if placemark.thoroughfare != nil, let first = lines.first { address.fullThoroughfare = first }
        if let district = placemark.subLocality { address.dependentLocalities = [district] }
        structuredAddress = address.isEmpty ? nil : address
        country = placemark.country
        countryCode = placemark.isoCountryCode
        poiCategory = item.pointOfInterestCategory.map(PoiCategoryNames.name(of:))
        if includingDetails {
            (phoneNumber, url, timeZone) = (item.phoneNumber, item.url?.absoluteString, item.timeZone?.identifier)
        }
    }

    /// A bare place at a coordinate (a directions end point with no address in the data).
    init(coordinate: CLLocationCoordinate2D) {
        self.coordinate = APILocation(coordinate)
        displayMapRegion = APIMapRegion(around: coordinate)
    }
}

/// Apple's `PoiCategory` names ("Cafe", "EVCharger") ↔ `MKPointOfInterestCategory`.
enum PoiCategoryNames {
    private static let prefix = "MKPOICategory"
    /// Where Apple's server name differs from MapKit's raw value.
    private static let renamed: [String: String] = ["Skatepark": "SkatePark"]

    static func name(of category: MKPointOfInterestCategory) -> String {
        let raw = category.rawValue.hasPrefix(prefix) ? String(category.rawValue.dropFirst(prefix.count)) : category.rawValue
        return renamed[raw] ?? raw
    }

    /// Every name, in MapKit's order.
    static var all: [String] { MKPointOfInterestCategory.allCategories.map(name(of:)) }

    /// The category for an Apple name, compared case-insensitively; nil for an unknown one.
    static func category(named text: String) -> MKPointOfInterestCategory? {
        MKPointOfInterestCategory.allCategories.first { name(of: $0).caseInsensitiveCompare(text) == .orderedSame }
    }
}

/// `{ "results": [Place] }` — geocode and reverse geocode.
struct APIPlaceResults: Codable, Sendable {
    let results: [APIPlace]
}

/// Apple's `SearchResponse`.
struct APISearchResponse: Codable, Sendable {
    struct PaginationInfo: Codable, Sendable {
        var nextPageToken: String?
        var prevPageToken: String?
        var totalPageCount: Int
        var totalResults: Int
    }

    var displayMapRegion: APIMapRegion?
    var results: [APIPlace]
    var paginationInfo: PaginationInfo?
}

/// Apple's `AutocompleteResult`.
struct APIAutocompleteResult: Codable, Sendable {
    var completionUrl: String
    var displayLines: [String]
    var location: APILocation?
    var structuredAddress: APIStructuredAddress?
}

/// Apple's `SearchAutocompleteResponse`.
struct APIAutocompleteResponse: Codable, Sendable {
    let results: [APIAutocompleteResult]
}

/// Apple's `DirectionsResponse`: routes index into one `steps` array shared by all routes, and
/// each step into `stepPaths`.
struct APIDirectionsResponse: Codable, Sendable {
    struct Route: Codable, Sendable {
        var name: String
        var distanceMeters: Int
        var durationSeconds: Int
        var hasTolls: Bool
        var stepIndexes: [Int]
        var transportType: String
    }

    struct Step: Codable, Sendable {
        var stepPathIndex: Int
        var distanceMeters: Int
        var durationSeconds: Int
        var instructions: String?
        /// Only when it differs from the route's, as Apple's.
        var transportType: String?
    }

    var origin: APIPlace
    var destination: APIPlace
    var routes: [Route]
    var steps: [Step]
    var stepPaths: [[APILocation]]
}

/// Apple's `EtaResponse`.
struct APIEtaResponse: Codable, Sendable {
    struct Eta: Codable, Sendable {
        var destination: APILocation
        var transportType: String
        var distanceMeters: Int
        var expectedTravelTimeSeconds: Int
        var staticTravelTimeSeconds: Int
    }

    let etas: [Eta]
}

/// Apple's `PlacesResponse` (`/v1/place?ids=`).
struct APIPlacesResponse: Codable, Sendable {
    struct PlaceLookupError: Codable, Sendable {
        var id: String
        var errorCode: String
    }

    var places: [APIPlace]
    var errors: [PlaceLookupError]?
}

/// Apple's `AlternateIDsResponse`.
struct APIAlternateIDsResponse: Codable, Sendable {
    struct AlternateIDs: Codable, Sendable {
        var id: String
        var alternateIds: [String]
    }

    var results: [AlternateIDs]
    var errors: [APIPlacesResponse.PlaceLookupError]?
}

/// Apple's `TokenResponse`.
struct APITokenResponse: Codable, Sendable {
    let accessToken: String
    let expiresInSeconds: Int
}
