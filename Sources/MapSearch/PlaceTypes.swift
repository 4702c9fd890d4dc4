import Foundation
import MapGeometry

// MapSearch owns the place index: the SQLite file an import writes into a bundle (FTS5 for
// names, R*Tree for space), the text folding shared by writer and reader, and every query over
// it (search, completion, reverse geocoding, lookup by id, points of interest in a region).

/// What a place is, in the terms MapKit's result types and address filters use.
public enum PlaceKind: String, Sendable, Codable, CaseIterable {
    /// A house number on a street (a building or an address node).
    case address
    /// A named road, merged per name within a locality.
    case street
    /// A named amenity, shop, tourism or leisure object.
    case pointOfInterest
    /// A peak, lake, river, park, beach, …
    case physicalFeature
    /// A city, town, village, hamlet or suburb (`place=*`, or an admin boundary at locality level).
    case locality
    /// A country, region, district or parish (admin boundaries above locality level).
    case administrativeArea
    /// A postal code area or a `addr:postcode` cluster.
    case postalCode
}

/// The postal address and administrative hierarchy of a place, in MapKit's (CLPlacemark's) terms.
public struct PlaceAddress: Sendable, Hashable, Codable {
    public var houseNumber: String?
    public var street: String?
    public var postalCode: String?
    public var subLocality: String?
    public var locality: String?
    public var subAdministrativeArea: String?
    public var administrativeArea: String?
    public var country: String?
    /// ISO 3166-1 alpha-2, e.g. "MC".
    public var countryCode: String?

    public init(houseNumber: String? = nil, street: String? = nil, postalCode: String? = nil,
                subLocality: String? = nil, locality: String? = nil, subAdministrativeArea: String? = nil,
                administrativeArea: String? = nil, country: String? = nil, countryCode: String? = nil) {
        self.houseNumber = houseNumber
        self.street = street
        self.postalCode = postalCode
        self.subLocality = subLocality
        self.locality = locality
        self.subAdministrativeArea = subAdministrativeArea
        self.administrativeArea = administrativeArea
        self.country = country
        self.countryCode = countryCode
    }

    /// Whether no field is set.
    public var isEmpty: Bool {
        houseNumber == nil && street == nil && postalCode == nil && subLocality == nil && locality == nil
            && subAdministrativeArea == nil && administrativeArea == nil && country == nil && countryCode == nil
    }

    /// The house number and street the way the address's country writes them ("12 Avenue de la
    /// Costa" in Monaco, "Städtle 12" in Liechtenstein, "Avinguda Meritxell, 12" in Spain), by
    /// ``AddressFormat``; either alone when the other is missing; nil with neither.
    public var streetLine: String? { AddressFormat(countryCode: countryCode).streetLine(of: self) }
}

/// One place in the index: what a search, a geocode or a reverse geocode returns.
public struct PlaceRecord: Sendable, Hashable, Codable {
    /// Stable across re-imports: OSM type letter + id ("n123", "w45", "r6"), so a newer extract
    /// gives the same object the same identifier.
    public var id: String
    /// Other objects folded into this one, e.g. the address node merged into a building's POI,
    /// or the other ways of a street merged per name.
    public var alternateIDs: [String]
    public var kind: PlaceKind
    /// `name=`; nil for an address without a name.
    public var name: String?
    /// Other names by key: "en" → `name:en`, "latin" → `name:latin`, "fr" → `name:fr`, "official" → `official_name`…
    public var names: [String: String]
    /// A point inside or on the object.
    public var coordinate: CLLocationCoordinate2D
    /// The object's extent, for areas and lines.
    public var bounds: MKMapRect?
    /// An `MKPointOfInterestCategory` raw value, e.g. "MKPOICategoryCafe".
    public var category: String?
    /// The OSM tag that made the place, e.g. "amenity=cafe", "place=town".
    public var osmClass: String?
    public var address: PlaceAddress
    public var phone: String?
    public var website: String?
    /// IANA time zone id.
    public var timeZone: String?
    /// How prominent the place is, 0…1 (population, place rank, admin level, having a website…);
    /// used as a ranking tiebreaker. An OpenMapKit addition.
    public var importance: Double

    public init(id: String, alternateIDs: [String] = [], kind: PlaceKind, name: String? = nil,
                names: [String: String] = [:], coordinate: CLLocationCoordinate2D, bounds: MKMapRect? = nil,
                category: String? = nil, osmClass: String? = nil, address: PlaceAddress = PlaceAddress(),
                phone: String? = nil, website: String? = nil, timeZone: String? = nil, importance: Double = 0) {
        self.id = id
        self.alternateIDs = alternateIDs
        self.kind = kind
        self.name = name
        self.names = names
        self.coordinate = coordinate
        self.bounds = bounds
        self.category = category
        self.osmClass = osmClass
        self.address = address
        self.phone = phone
        self.website = website
        self.timeZone = timeZone
        self.importance = importance
    }

    /// The name to show: `name`, else the street line of the address, else the locality.
    public var displayName: String {
        if let name, !name.isEmpty { return name }
        if let line = address.streetLine { return line }
        return address.locality ?? address.administrativeArea ?? address.country ?? id
    }
}

/// A text query over the index, with MapKit's filters.
public struct PlaceQuery: Sendable {
    public var text: String
    /// Bias (or, with ``regionIsRequired``, restriction) of results.
    public var region: MKCoordinateRegion?
    /// Only return results inside ``region`` (MapKit's `regionPriority = .required`).
    public var regionIsRequired: Bool = false
    /// nil = all kinds.
    public var kinds: Set<PlaceKind>? = nil
    /// `MKPointOfInterestCategory` raw values to keep (nil = all).
    public var includedCategories: Set<String>? = nil
    /// `MKPointOfInterestCategory` raw values to drop.
    public var excludedCategories: Set<String> = []
    public var limit: Int = 10

    public init(text: String, region: MKCoordinateRegion? = nil) {
        self.text = text
        self.region = region
    }
}

/// A search result with its relevance (higher is better; only comparable within one query).
public struct PlaceMatch: Sendable {
    public var record: PlaceRecord
    public var score: Double
    /// Metres from the query's point of interest (reverse geocoding's coordinate or the region's
    /// centre); nil when the query had none. An OpenMapKit addition.
    public var distance: Double?

    public init(record: PlaceRecord, score: Double, distance: Double? = nil) {
        self.record = record
        self.score = score
        self.distance = distance
    }
}

/// One completion: a place, or a query suggestion such as "Cafes".
public struct PlaceSuggestion: Sendable {
    public var title: String
    public var subtitle: String
    /// UTF-16 ranges of `title` matched by the query fragment.
    public var titleHighlights: [NSRange]
    /// UTF-16 ranges of `subtitle` matched by the query fragment.
    public var subtitleHighlights: [NSRange]
    /// nil for a query suggestion ("Coffee shops", "Restaurants nearby").
    public var record: PlaceRecord?
    /// The search text a query suggestion stands for.
    public var queryText: String?

    public init(title: String, subtitle: String, titleHighlights: [NSRange] = [], subtitleHighlights: [NSRange] = [],
                record: PlaceRecord? = nil, queryText: String? = nil) {
        self.title = title
        self.subtitle = subtitle
        self.titleHighlights = titleHighlights
        self.subtitleHighlights = subtitleHighlights
        self.record = record
        self.queryText = queryText
    }
}

/// Why the index could not answer.
public enum PlaceIndexError: Error, Sendable, CustomStringConvertible, Equatable {
    /// No index file, or a bundle without one.
    case missing(String)
    /// The file is not a place index, or is damaged.
    case corrupt(String)
    /// NaN coordinates, zero or negative spans, a radius out of range, a limit below 1, …
    case invalidQuery(String)

    public var description: String {
        switch self {
        case .missing(let message): return "place index missing: \(message)"
        case .corrupt(let message): return "place index corrupt: \(message)"
        case .invalidQuery(let message): return "invalid place query: \(message)"
        }
    }
}
