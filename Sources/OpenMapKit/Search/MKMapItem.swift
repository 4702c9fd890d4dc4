import Foundation
import MapSearch

// MKMapItem and MKPlacemark as search, geocoding and `Marker(item:)` use them. MapKit 26 moves
// from the placemark to `location` + `address` + `addressRepresentations`; both shapes are here,
// filled from the same place record, so code written against either compiles unchanged.

/// A place's location and address (MapKit's `MKPlacemark`): a ``CLPlacemark`` that is also an
/// annotation.
///
/// Search and geocoding fill the address properties from the bundle's place index; a placemark
/// made with ``init(coordinate:)`` has none.
open class MKPlacemark: CLPlacemark, MKAnnotation, @unchecked Sendable {
    /// The place's coordinate.
    public let coordinate: CLLocationCoordinate2D

    /// A placemark at `coordinate` with no address.
    public init(coordinate: CLLocationCoordinate2D) {
        self.coordinate = coordinate
        super.init(location: CLLocation(latitude: coordinate.latitude, longitude: coordinate.longitude))
    }

    /// A map placemark with everything `placemark` has (MapKit's initialiser, for a geocoder's
    /// answer); its coordinate is the placemark's location, or invalid when it has none.
    public override init(placemark: CLPlacemark) {
        coordinate = placemark.location?.coordinate ?? kCLLocationCoordinate2DInvalid
        super.init(location: placemark.location)
        copyFields(from: placemark)
    }

    /// A placemark with an address given as a Contacts-style dictionary (MapKit's initialiser):
    /// the keys `Street` (house number and street, as one line), `City`, `SubLocality`, `State`,
    /// `SubAdministrativeArea`, `ZIP`, `Country` and `ISOCountryCode`.
    public convenience init(coordinate: CLLocationCoordinate2D, addressDictionary: [String: Any]?) {
        self.init(coordinate: coordinate)
        guard let dictionary = addressDictionary else { return }
        func value(_ key: String) -> String? { (dictionary[key] as? String).flatMap { $0.isEmpty ? nil : $0 } }
        thoroughfare = value("Street")
        locality = value("City")
        subLocality = value("SubLocality")
        administrativeArea = value("State")
        subAdministrativeArea = value("SubAdministrativeArea")
        postalCode = value("ZIP")
        country = value("Country")
        isoCountryCode = value("ISOCountryCode")
    }

    /// The name, else the address's first line (house number and street), as MapKit's placemark
    /// titles do.
    open var title: String? { name ?? streetLine }

    /// The address below the title: the rest of the address on one line.
    open var subtitle: String? {
        let parts = [name == nil ? nil : streetLine, locality, country].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    private var streetLine: String? { postalAddress.streetLine }
}

/// A point of interest or place on the map (MapKit's `MKMapItem`).
///
/// Items from ``MKLocalSearch``, ``MKGeocodingRequest``, ``MKReverseGeocodingRequest`` and
/// ``MKMapItemRequest`` carry an ``identifier`` (the OSM object's stable id, such as `n123` or
/// `w45`), an ``address`` and ``addressRepresentations``, and what the OSM data says about the
/// place: ``phoneNumber``, ``url``, ``timeZone`` and ``pointOfInterestCategory``.
///
/// Differs from MapKit: ``identifier`` is an OpenStreetMap object id, not an Apple Place ID,
/// and there is no Maps app to open an item in (no `openInMaps`).
open class MKMapItem: NSObject, @unchecked Sendable {
    /// A place's identifier (MapKit's Place ID): stable across re-imports of newer data for the
    /// same OSM object, so it can be stored and resolved later with ``MKMapItemRequest``.
    public struct Identifier: RawRepresentable, Hashable, Codable, Sendable, CustomStringConvertible {
        public let rawValue: String
        /// Nil for an empty or blank string, which names no place.
        public init?(rawValue: String) {
            guard !rawValue.isBlank else { return nil }
            self.rawValue = rawValue
        }
        public var description: String { rawValue }

        public init(from decoder: any Decoder) throws {
            let value = try decoder.singleValueContainer().decode(String.self)
            guard let identifier = Identifier(rawValue: value) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "an empty map item identifier"))
            }
            self = identifier
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }
    }

    /// The place's location and address fields (deprecated in MapKit 26 in favour of
    /// ``location``, ``address`` and ``addressRepresentations``, which hold the same data).
    public let placemark: MKPlacemark
    /// The place's name.
    open var name: String?
    /// The kind of place; nil when it is not a point of interest of a known category.
    open var pointOfInterestCategory: MKPointOfInterestCategory?
    open var phoneNumber: String?
    open var url: URL?
    open var timeZone: TimeZone?
    /// Whether the item stands for the device's location.
    public private(set) var isCurrentLocation = false
    /// The place's identifier; nil for items made in code.
    public internal(set) var identifier: Identifier?
    /// Other identifiers of the same place (for example the address node merged into a
    /// building's point of interest). Not exhaustive.
    public internal(set) var alternateIdentifiers: Set<Identifier> = []
    /// The place's address, full and short; nil when nothing is known about it.
    public private(set) var address: MKAddress?
    /// What the place index says the place is (address, street, town, …); nil for items made in code.
    var placeKind: PlaceKind?
    private var storedLocation: CLLocation?

    /// An item for `placemark`. A placemark from ``CLGeocoder`` (or a search result's) keeps its
    /// place's identifier, time zone and address, as MapKit's item for a geocoded placemark does.
    public init(placemark: MKPlacemark) {
        self.placemark = placemark
        name = placemark.name
        timeZone = placemark.timeZone
        super.init()
        if let id = placemark.placeIdentifier {
            identifier = Identifier(rawValue: id)
            fillAddressFromPlacemark(locale: nil)
        }
    }

    /// An item at `location` with `address` (MapKit 26's initialiser). Its placemark has the
    /// coordinate and no address fields; its address representations come from `address`.
    public init(location: CLLocation, address: MKAddress?) {
        placemark = MKPlacemark(coordinate: location.coordinate)
        storedLocation = location
        self.address = address
        super.init()
    }

    /// The place's location.
    public var location: CLLocation {
        storedLocation ?? CLLocation(latitude: placemark.coordinate.latitude, longitude: placemark.coordinate.longitude)
    }

    /// The address formatted for display: full (with or without the country, on one line or
    /// several), the city, the city with context, the region. Nil when the item knows no address.
    public var addressRepresentations: MKAddressRepresentations? {
        let fields = placemark.postalAddress
        if fields.isEmpty {
            guard let address else { return nil }
            return MKAddressRepresentations(address: PostalAddress(), name: nil, fallback: address)
        }
        return MKAddressRepresentations(address: fields, name: name, fallback: address)
    }

    /// The item for the device's location (there is no location service here, so its coordinate
    /// is invalid until one is given).
    public static func forCurrentLocation() -> MKMapItem {
        let item = MKMapItem(placemark: MKPlacemark(coordinate: kCLLocationCoordinate2DInvalid))
        item.isCurrentLocation = true
        return item
    }

    /// Sets the address from the placemark's fields (search and geocoding results).
    func fillAddressFromPlacemark(locale: Locale?) {
        let representations = MKAddressRepresentations(address: placemark.postalAddress, name: name, fallback: nil, locale: locale)
        guard let full = representations.fullAddress(includingRegion: true, singleLine: true) else { return }
        address = MKAddress(fullAddress: full, shortAddress: representations.shortAddress)
    }

    open override var description: String {
        var parts = ["MKMapItem"]
        if let name { parts.append("\"\(name)\"") }
        if let identifier { parts.append("id \(identifier)") }
        let c = placemark.coordinate
        parts.append("at \(c.latitude),\(c.longitude)")
        if let category = pointOfInterestCategory { parts.append(category.rawValue) }
        return parts.joined(separator: " ")
    }
}
