import Foundation

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
/// Lines follow the country's postal custom, picked by its ISO code: the house number before the
/// street in France, Monaco, the UK and North America ("12 Avenue de la Costa"), after it
/// elsewhere in Europe ("Städtle 12", "Avinguda Meritxell, 12"); the postcode before the city in
/// Europe ("98000 Monaco"), after the state in the US ("Cupertino, CA 95014"). Country names are
/// in the request's locale (the process's by default).
public final class MKAddressRepresentations: NSObject, @unchecked Sendable {
    /// How much context ``cityWithContext(_:)`` adds to the city's name.
    public enum ContextStyle: Sendable, Hashable {
        /// The administrative area where a country's custom names it (the US, Canada, Australia),
        /// else the country.
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

    /// The whole address: the street line, the postcode and city, and (with `includingRegion`)
    /// the country; joined with ", " when `singleLine`, else with line breaks. Nil when the
    /// address has no parts.
    public func fullAddress(includingRegion: Bool, singleLine: Bool) -> String? {
        var lines: [String] = []
        if let street = fields.streetLine { lines.append(street) }
        if let city = fields.cityLine { lines.append(city) }
        if includingRegion, let region = regionName, !lines.contains(region) || lines.isEmpty { lines.append(region) }
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
        case .automatic: parts = [city, PostalAddress.stateCountries.contains(fields.countryKey) ? area ?? regionName : regionName]
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

/// The parts of an address, as the place index stores them, and the postal customs that put
/// them into lines.
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

    var countryKey: String { countryCode?.uppercased() ?? "" }

    // Postal customs by country (ISO 3166-1 alpha-2). Countries not listed write "Street 12" and
    // "postcode City", the custom of most of continental Europe.
    /// The house number goes before the street.
    static let numberFirstCountries: Set<String> = ["US", "CA", "GB", "IE", "AU", "NZ", "FR", "MC", "LU", "IL", "ZA", "PH", "SG", "MY", "IN"]
    /// The house number follows the street after a comma ("Via Roma, 12").
    static let commaNumberCountries: Set<String> = ["ES", "AD", "IT", "SM", "VA", "PT", "BR", "AR", "MX", "CL", "CO"]
    /// The city line is "City, STATE postcode".
    static let stateCountries: Set<String> = ["US", "CA", "AU"]
    /// The city line is "City postcode" (the postcode written after the city).
    static let postcodeAfterCountries: Set<String> = ["GB", "IE", "NZ"]

    /// "12 Avenue de la Costa", "Städtle 12", "Avinguda Meritxell, 12"; nil without a street.
    var streetLine: String? {
        guard let street else { return nil }
        guard let number = houseNumber else { return street }
        if Self.numberFirstCountries.contains(countryKey) { return "\(number) \(street)" }
        if Self.commaNumberCountries.contains(countryKey) { return "\(street), \(number)" }
        return "\(street) \(number)"
    }

    /// The city, else the district or county.
    var cityName: String? { locality ?? subLocality ?? subAdministrativeArea }

    /// "98000 Monaco", "Cupertino, CA 95014", "London SW1A 1AA"; nil with neither city nor postcode.
    var cityLine: String? {
        let city = cityName ?? administrativeArea
        if Self.stateCountries.contains(countryKey) {
            let state = [administrativeArea == city ? nil : administrativeArea, postalCode].compactMap { $0 }.joined(separator: " ")
            let parts = [city, state.isEmpty ? nil : state].compactMap { $0 }
            return parts.isEmpty ? nil : parts.joined(separator: ", ")
        }
        let parts = Self.postcodeAfterCountries.contains(countryKey) ? [city, postalCode] : [postalCode, city]
        let line = parts.compactMap { $0 }.joined(separator: " ")
        return line.isEmpty ? nil : line
    }
}
