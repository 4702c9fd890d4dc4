import Foundation
import MapSearch

/// A place's address as text: the full form and, when there is one, a short form (MapKit's
/// `MKAddress`).
///
/// Search and geocoding results carry one on ``MKMapItem/address``: the full address on one line
/// with the country ("12 Avenue de la Costa, 98000 Monaco, Monaco") and the short one with the
/// street and city ("12 Avenue de la Costa, Monaco").
public final class MKAddress: NSObject, @unchecked Sendable {
    /// The whole address.
    public let fullAddress: String
    /// A shorter form, e.g. the street address and city; nil when there is none.
    public let shortAddress: String?

    /// Nil when `fullAddress` is empty or blank, as MapKit's initialiser is.
    public init?(fullAddress: String, shortAddress: String?) {
        guard !fullAddress.isBlank else { return nil }
        self.fullAddress = fullAddress
        self.shortAddress = shortAddress.flatMap { $0.isBlank ? nil : $0 }
        super.init()
    }

    public override var description: String { fullAddress }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? MKAddress else { return false }
        return other.fullAddress == fullAddress && other.shortAddress == shortAddress
    }

    public override var hash: Int { fullAddress.hashValue ^ (shortAddress?.hashValue ?? 0) }
}

/// A place's address formatted for display (MapKit's `MKAddressRepresentations`): the full
/// address with or without the country, on one line or several; the city; the city with enough
/// context to tell it apart; the country.
///
/// Lines follow the country's postal custom, picked by its ISO code from OpenCage's
/// address-formatting templates (MIT licence, © OpenCage GmbH), the maintained record of how
/// every country writes an address: the house number before the street in France, Monaco, the UK
/// and North America ("12 Avenue de la Costa"), after it in most of Europe ("Städtle 12",
/// "Calle Mayor, 12"); the postcode before the city in Europe ("98000 Monaco"), after the state in
/// the US ("Cupertino, CA 95014"), on a line of its own in the UK. Country names are in the
/// request's locale (the process's by default).
public final class MKAddressRepresentations: NSObject, @unchecked Sendable {
    /// How much context ``cityWithContext(_:)`` adds to the city's name.
    public enum ContextStyle: Sendable, Hashable {
        /// The administrative area where the country writes it beside the city in addresses (the
        /// US, Canada, Australia, Brazil: "Cupertino, CA"), else the country.
        case automatic
        /// The administrative area, or the country when there is none.
        case short
        /// The administrative area and the country.
        case full
    }

    let fields: PostalAddress
    let name: String?
    let locale: Locale
    /// An address given as text only (`MKMapItem(location:address:)`), used when there are no fields.
    let fallback: MKAddress?

    init(address: PostalAddress, name: String?, fallback: MKAddress?, locale: Locale? = nil) {
        fields = address
        self.name = name
        self.fallback = fallback
        self.locale = locale ?? .current
        super.init()
    }

    /// The whole address, as its country writes it: the street line, the postcode and city (and
    /// whatever else the country's addresses name), and with `includingRegion` the country's name
    /// (``regionName``) where the country puts it; joined with ", " when `singleLine`, else with
    /// line breaks. Nil when the address has no parts.
    public func fullAddress(includingRegion: Bool, singleLine: Bool) -> String? {
        let lines = fields.format.lines(of: fields.placeAddress, countryName: includingRegion ? regionName : nil)
        if lines.isEmpty, let fallback {
            let text = includingRegion ? fallback.fullAddress : (fallback.shortAddress ?? fallback.fullAddress)
            return singleLine ? text.split(separator: "\n").joined(separator: ", ") : text
        }
        return lines.isEmpty ? nil : lines.joined(separator: singleLine ? ", " : "\n")
    }

    /// The city or town (else the district or county the place is in).
    public var cityName: String? { fields.cityName }

    /// The city with context to tell it apart from others of the same name (``ContextStyle/automatic``).
    public var cityWithContext: String? { cityWithContext(.automatic) }

    /// The city with the context `style` asks for: "Vaduz, Liechtenstein", "Cupertino, CA".
    public func cityWithContext(_ style: ContextStyle) -> String? {
        guard let city = cityName ?? fields.administrativeArea else { return regionName }
        let area = fields.administrativeArea.flatMap { $0 == city ? nil : $0 }
        let parts: [String?]
        switch style {
        case .automatic:
            // The area as the country's addresses write it beside the city ("CA" for California).
            let written = fields.format.administrativeAreaWithLocality(of: fields.placeAddress).flatMap { $0 == city ? nil : $0 }
            parts = [city, written ?? regionName]
        case .short: parts = [city, area ?? regionName]
        case .full: parts = [city, area, regionName]
        }
        return parts.compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ", ")
    }

    /// The country's name in the locale, e.g. "Monaco".
    public var regionName: String? {
        if let code = fields.countryCode, let localized = locale.localizedString(forRegionCode: code) { return localized }
        return fields.country
    }

    /// The country as a `Locale.Region`; nil when the index has no country code for the place.
    public var region: Locale.Region? { fields.countryCode.map { Locale.Region($0.uppercased()) } }

    /// The street line and city ("12 Avenue de la Costa, Monaco"); nil without a street.
    var shortAddress: String? {
        guard let street = fields.streetLine else { return nil }
        return [street, cityName].compactMap { $0 }.joined(separator: ", ")
    }
}

/// The parts of an address, as the place index stores them; MapSearch's `AddressFormat` puts them
/// into lines the way the address's country does.
struct PostalAddress: Hashable, Sendable {
    var houseNumber: String?
    var street: String?
    var postalCode: String?
    var subLocality: String?
    var locality: String?
    var subAdministrativeArea: String?
    var administrativeArea: String?
    var country: String?
    var countryCode: String?

    init(houseNumber: String? = nil, street: String? = nil, postalCode: String? = nil, subLocality: String? = nil,
         locality: String? = nil, subAdministrativeArea: String? = nil, administrativeArea: String? = nil,
         country: String? = nil, countryCode: String? = nil) {
        func clean(_ value: String?) -> String? {
            guard let value = value?.trimmingWhitespace(), !value.isEmpty else { return nil }
            return value
        }
        self.houseNumber = clean(houseNumber)
        self.street = clean(street)
        self.postalCode = clean(postalCode)
        self.subLocality = clean(subLocality)
        self.locality = clean(locality)
        self.subAdministrativeArea = clean(subAdministrativeArea)
        self.administrativeArea = clean(administrativeArea)
        self.country = clean(country)
        self.countryCode = clean(countryCode)
    }

    var isEmpty: Bool { self == PostalAddress() }

    /// The address's country's format (OpenCage's default when the country is unknown).
    var format: AddressFormat { AddressFormat(countryCode: countryCode) }

    /// The fields for `AddressFormat`. A house number without a street is left out: MapKit writes
    /// no street line without a thoroughfare, and a bare "12" on a line of its own tells nothing.
    var placeAddress: PlaceAddress {
        PlaceAddress(houseNumber: street == nil ? nil : houseNumber, street: street, postalCode: postalCode, subLocality: subLocality,
                     locality: locality, subAdministrativeArea: subAdministrativeArea, administrativeArea: administrativeArea,
                     country: country, countryCode: countryCode)
    }

    /// "12 Avenue de la Costa", "Städtle 12", "Calle Mayor, 12"; nil without a street.
    var streetLine: String? {
        guard street != nil else { return nil }
        return format.streetLine(of: placeAddress)
    }

    /// The city, else the district or county.
    var cityName: String? { locality ?? subLocality ?? subAdministrativeArea }
}
