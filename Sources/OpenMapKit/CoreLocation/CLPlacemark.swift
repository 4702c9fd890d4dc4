import Foundation
import MapGeometry
import MapSearch

/// A place and its address, as ``CLGeocoder`` answers (Core Location's `CLPlacemark`).
///
/// Every field comes from the bundle's place index: the address parts (house number, street,
/// district, town, administrative areas, postcode, country) that OpenStreetMap tags on the place or
/// that the boundaries containing it give, the place's IANA ``timeZone`` (Foundation's tzdata), its
/// ``location`` and a ``region`` covering its extent. ``MKPlacemark`` is a subclass, so a map
/// item's ``MKMapItem/placemark`` is a `CLPlacemark` too.
///
/// Differs from Core Location: there is no Contacts framework on Linux, so there is no
/// `postalAddress` (`CNPostalAddress`); ``addressDictionary`` holds the same parts under the keys
/// Core Location's deprecated dictionary uses.
open class CLPlacemark: NSObject, @unchecked Sendable {
    /// The place's name: a point of interest's or town's own name, else its street line
    /// ("26 Avenue de la Costa"), in the geocoder's preferred language where the data has it.
    /// Settable here (read-only in Core Location) so code can name a placemark it makes.
    open var name: String?
    /// The street (`addr:street`, or the street's own name for a street).
    public internal(set) var thoroughfare: String?
    /// The house number.
    public internal(set) var subThoroughfare: String?
    /// The city or town.
    public internal(set) var locality: String?
    /// A district or neighbourhood within the city.
    public internal(set) var subLocality: String?
    /// The state, province or equivalent (in Andorra the parish).
    public internal(set) var administrativeArea: String?
    /// The county or equivalent.
    public internal(set) var subAdministrativeArea: String?
    /// The postcode.
    public internal(set) var postalCode: String?
    /// The country's name.
    public internal(set) var country: String?
    /// The country's ISO 3166-1 alpha-2 code, e.g. "MC".
    public internal(set) var isoCountryCode: String?
    /// The place's IANA time zone (as `TimeZone(identifier:)` reads it from tzdata), when the index
    /// knows it.
    public internal(set) var timeZone: TimeZone?
    /// The named areas the place is: a point of interest's, park's or landmark's own name; nil for
    /// addresses, streets and towns.
    public internal(set) var areasOfInterest: [String]?
    /// The lake, river or other inland water the place is, when it is one; else nil.
    public internal(set) var inlandWater: String?
    /// The sea or ocean the place is, when it is one; else nil.
    public internal(set) var ocean: String?
    /// The place's location (its coordinate in the index: a building's or area's centre).
    public internal(set) var location: CLLocation?
    /// The area the place covers: a ``CLCircularRegion`` around ``location`` reaching the corners of
    /// the place's bounding box (at least ``CLPlacemark/minimumRegionRadius``), named by the place's
    /// identifier.
    public internal(set) var region: CLRegion?
    /// The OpenStreetMap place id the placemark was made from, for ``MKMapItem/init(placemark:)``.
    var placeIdentifier: String?

    /// The smallest ``region`` radius: a point place (an address node, a bench) still covers a few
    /// metres, and the reverse geocoder answers with addresses within about 50 m.
    public static let minimumRegionRadius: CLLocationDistance = 25

    /// A copy of `placemark` (Core Location's initialiser).
    public init(placemark: CLPlacemark) {
        super.init()
        copyFields(from: placemark)
    }

    /// An empty placemark at `location` (for ``MKPlacemark``).
    init(location: CLLocation?) {
        self.location = location
        super.init()
    }

    func copyFields(from other: CLPlacemark) {
        name = other.name
        thoroughfare = other.thoroughfare
        subThoroughfare = other.subThoroughfare
        locality = other.locality
        subLocality = other.subLocality
        administrativeArea = other.administrativeArea
        subAdministrativeArea = other.subAdministrativeArea
        postalCode = other.postalCode
        country = other.country
        isoCountryCode = other.isoCountryCode
        timeZone = other.timeZone
        areasOfInterest = other.areasOfInterest
        inlandWater = other.inlandWater
        ocean = other.ocean
        location = other.location
        region = other.region
        placeIdentifier = other.placeIdentifier
    }

    /// The address as Core Location's deprecated `addressDictionary` (Address Book keys): `Name`,
    /// `Thoroughfare`, `SubThoroughfare`, `Street` (the street line), `SubLocality`, `City`,
    /// `SubAdministrativeArea`, `State`, `ZIP`, `Country`, `CountryCode` and
    /// `FormattedAddressLines`. Nil when the placemark has no address part.
    open var addressDictionary: [AnyHashable: Any]? {
        let fields = postalAddress
        var dictionary: [AnyHashable: Any] = [:]
        func put(_ key: String, _ value: String?) { if let value { dictionary[key] = value } }
        put("Name", name)
        put("Thoroughfare", thoroughfare)
        put("SubThoroughfare", subThoroughfare)
        put("Street", fields.streetLine)
        put("SubLocality", subLocality)
        put("City", locality)
        put("SubAdministrativeArea", subAdministrativeArea)
        put("State", administrativeArea)
        put("ZIP", postalCode)
        put("Country", country)
        put("CountryCode", isoCountryCode)
        let lines = fields.format.lines(of: fields.placeAddress, countryName: country)
        if !lines.isEmpty { dictionary["FormattedAddressLines"] = lines }
        return dictionary.isEmpty ? nil : dictionary
    }

    /// The address parts as a postal address holds them (the address, not the name).
    var postalAddress: PostalAddress {
        PostalAddress(houseNumber: subThoroughfare, street: thoroughfare, postalCode: postalCode, subLocality: subLocality,
                      locality: locality, subAdministrativeArea: subAdministrativeArea, administrativeArea: administrativeArea,
                      country: country, countryCode: isoCountryCode)
    }

    /// The name and address on one line, with the coordinate.
    open override var description: String {
        var parts: [String] = []
        if let name { parts.append(name) }
        if let line = MKAddressRepresentations(address: postalAddress, name: name, fallback: nil).fullAddress(includingRegion: true, singleLine: true),
           line != name {
            parts.append(line)
        }
        if let c = location?.coordinate { parts.append("@ <\(c.latitude),\(c.longitude)>") }
        if let timeZone { parts.append(timeZone.identifier) }
        return parts.joined(separator: ", ")
    }
}
