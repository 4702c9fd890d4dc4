import Foundation
import MapSearch

/// Which address field an administrative boundary fills, for any country.
///
/// The base is each country's admin-level practice as Nominatim publishes it: the "address rank"
/// of `boundary=administrative` at each `admin_level`, by default twice the level, with the
/// countries whose levels mean something else listed apart. These are facts about how OSM maps
/// each country, taken from Nominatim's `settings/address-levels.json`
/// (https://github.com/osm-search/Nominatim/blob/master/settings/address-levels.json, read at
/// commit 86e7932d, 2026-07). Nominatim's ranks name address parts (its documentation,
/// "Place Ranking": 4 country, 5–9 state, 10–12 county, 13–16 city, 17–21 suburb, 22–24
/// neighbourhood), which are MapKit's country, administrativeArea, subAdministrativeArea,
/// locality and subLocality; neighbourhoods have no field of their own.
///
/// Two rules then read the data itself (``PlaceCollector`` applies them):
/// - a boundary ranked above a town whose `admin_centre` or `label` node is a city, town or
///   village of the same name is also that locality (a city-state such as Monaco, a city that is
///   a state such as Berlin or Vienna), as Nominatim links a boundary to its place node;
/// - a country with no boundary ranked state or county in the extract, whose coarsest level of
///   several boundaries is ranked as a town, has that level as its administrativeArea: it is the
///   country's first-level division (Andorra's seven parishes at level 7), which is what MapKit's
///   administrativeArea means.
enum AddressLevels {
    /// Nominatim's address rank for `admin_level` in `countryCode`; 0 when the level is not part
    /// of an address there.
    static func rank(adminLevel level: Int, countryCode: String?) -> Int {
        if let code = countryCode?.lowercased(), let overrides = countryRanks[code], let rank = overrides[level] { return rank }
        return (2...12).contains(level) ? 2 * level : 0
    }

    /// The address field of a Nominatim address rank.
    static func field(rank: Int) -> PlaceAddressField? {
        switch rank {
        case 4: return .country
        case 5...9: return .administrativeArea
        case 10...12: return .subAdministrativeArea
        case 13...16: return .locality
        case 17...21: return .subLocality
        default: return nil
        }
    }

    /// Whether a rank is a town's (city, town, village, municipality).
    static func isLocality(rank: Int) -> Bool { (13...16).contains(rank) }

    /// The field of `admin_level` in `countryCode` by the published ranks alone.
    static func field(adminLevel level: Int, countryCode: String?) -> PlaceAddressField? {
        if level == 2 { return .country }
        return field(rank: rank(adminLevel: level, countryCode: countryCode))
    }

    /// Nominatim's per-country address ranks (`address-levels.json`, the address part of each
    /// `administrativeN` entry; [search, address] pairs give their second number).
    static let countryRanks: [String: [Int: Int]] = {
        var table: [String: [Int: Int]] = [
            "au": [6: 0],
            "cz": [5: 12, 6: 0, 7: 0, 8: 14, 9: 15, 10: 16],
            "de": [5: 0],
            "be": [3: 0, 4: 6, 5: 0, 6: 8, 7: 12, 8: 14, 9: 16, 10: 18],
            "br": [5: 0, 6: 0, 7: 0],
            "id": [5: 12, 6: 14, 7: 16, 8: 20, 9: 22, 10: 24],
            "ru": [5: 0, 7: 0, 8: 14],
            "nl": [7: 0, 8: 14, 9: 0, 10: 16],
            "es": [5: 0, 6: 10, 7: 12, 10: 22],
            "jp": [7: 16, 8: 18, 9: 20, 10: 22, 11: 24],
        ]
        for code in ["se", "no"] { table[code] = [3: 8, 4: 12] }
        return table
    }()
}
