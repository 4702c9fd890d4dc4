import Foundation
import MapFormats
import MapSearch

/// Which OSM objects become places, of what kind, with which `MKPointOfInterestCategory` raw
/// value and how important. The category table is documented in README.md ("Search").
enum PlaceTagging {
    struct Classification {
        var kind: PlaceKind
        var osmClass: String
        var category: String?
        var importance: Double
    }

    /// OSM `key=value` (or `key=*` for any value) → MapKit category name (without the
    /// "MKPOICategory" prefix). The first matching key in ``keys`` order wins.
    static let categories: [String: String] = [
        // Arts and culture
        "tourism=museum": "Museum", "tourism=gallery": "Museum", "amenity=arts_centre": "Museum",
        "amenity=music_venue": "MusicVenue", "amenity=theatre": "Theater", "amenity=library": "Library",
        "amenity=planetarium": "Planetarium", "amenity=school": "School", "amenity=kindergarten": "School",
        "amenity=college": "University", "amenity=university": "University", "amenity=cinema": "MovieTheater",
        "amenity=nightclub": "Nightlife", "amenity=bar": "Nightlife", "amenity=pub": "Nightlife", "amenity=casino": "Nightlife",
        // Emergency and health
        "amenity=fire_station": "FireStation", "amenity=hospital": "Hospital", "amenity=clinic": "Hospital",
        "amenity=doctors": "Hospital", "healthcare=hospital": "Hospital",
        "amenity=pharmacy": "Pharmacy", "shop=chemist": "Pharmacy", "healthcare=pharmacy": "Pharmacy", "amenity=police": "Police",
        // Landmarks
        "historic=castle": "Castle", "historic=fort": "Fortress", "historic=city_gate": "Fortress",
        "historic=monument": "NationalMonument", "historic=memorial": "Landmark", "tourism=attraction": "Landmark",
        "historic=*": "Landmark", "amenity=place_of_worship": "Landmark", "man_made=lighthouse": "Landmark",
        "tourism=artwork": "Landmark", "amenity=townhall": "Landmark",
        // Food and drink
        "shop=bakery": "Bakery", "shop=pastry": "Bakery", "craft=brewery": "Brewery", "industrial=brewery": "Brewery",
        "amenity=cafe": "Cafe", "shop=coffee": "Cafe", "amenity=ice_cream": "Cafe", "craft=distillery": "Distillery",
        "shop=supermarket": "FoodMarket", "shop=convenience": "FoodMarket", "shop=greengrocer": "FoodMarket",
        "shop=butcher": "FoodMarket", "amenity=marketplace": "FoodMarket", "shop=deli": "FoodMarket",
        "amenity=restaurant": "Restaurant", "amenity=fast_food": "Restaurant", "amenity=food_court": "Restaurant",
        "amenity=biergarten": "Restaurant", "craft=winery": "Winery", "shop=wine": "Winery",
        // Services
        "amenity=veterinary": "AnimalService", "shop=pet": "AnimalService", "amenity=animal_shelter": "AnimalService",
        "amenity=atm": "ATM", "shop=car_repair": "AutomotiveRepair", "craft=car_repair": "AutomotiveRepair", "shop=tyres": "AutomotiveRepair",
        "amenity=bank": "Bank", "amenity=bureau_de_change": "Bank", "shop=hairdresser": "Beauty", "shop=beauty": "Beauty",
        "shop=cosmetics": "Beauty", "amenity=charging_station": "EVCharger", "leisure=fitness_centre": "FitnessCenter",
        "leisure=sports_centre": "FitnessCenter", "shop=laundry": "Laundry", "shop=dry_cleaning": "Laundry",
        "amenity=post_box": "Mailbox", "amenity=post_office": "PostOffice", "amenity=toilets": "Restroom",
        "leisure=sauna": "Spa", "amenity=spa": "Spa", "shop=massage": "Spa", "amenity=public_bath": "Spa",
        "shop=*": "Store",
        // Outdoors and leisure
        "leisure=amusement_arcade": "AmusementPark", "tourism=theme_park": "AmusementPark", "leisure=water_park": "AmusementPark",
        "tourism=aquarium": "Aquarium", "natural=beach": "Beach", "leisure=beach_resort": "Beach",
        "tourism=camp_site": "Campground", "tourism=caravan_site": "RVPark", "leisure=fairground": "Fairground",
        "leisure=marina": "Marina", "boundary=national_park": "NationalPark", "leisure=nature_reserve": "NationalPark",
        "leisure=park": "Park", "leisure=garden": "Park", "tourism=zoo": "Zoo",
        // Sports
        "sport=baseball": "Baseball", "sport=basketball": "Basketball", "leisure=bowling_alley": "Bowling", "sport=bowling": "Bowling",
        "sport=karting": "GoKart", "leisure=golf_course": "Golf", "sport=golf": "Golf", "leisure=miniature_golf": "MiniGolf",
        "sport=climbing": "RockClimbing", "leisure=skatepark": "Skatepark", "sport=skateboard": "Skatepark",
        "leisure=ice_rink": "Skating", "sport=ice_skating": "Skating", "landuse=winter_sports": "Skiing", "sport=skiing": "Skiing",
        "aerialway=station": "Skiing", "sport=soccer": "Soccer", "leisure=stadium": "Stadium", "sport=tennis": "Tennis",
        "sport=volleyball": "Volleyball", "sport=beachvolleyball": "Volleyball",
        "route=hiking": "Hiking", "information=guidepost": "Hiking", "amenity=shelter": "Hiking", "tourism=alpine_hut": "Hiking",
        "tourism=wilderness_hut": "Hiking",
        // Travel
        "aeroway=aerodrome": "Airport", "aeroway=heliport": "Airport", "aeroway=helipad": "Airport",
        "amenity=car_rental": "CarRental", "amenity=conference_centre": "ConventionCenter", "amenity=exhibition_centre": "ConventionCenter",
        "amenity=fuel": "GasStation", "tourism=hotel": "Hotel", "tourism=hostel": "Hotel", "tourism=motel": "Hotel",
        "tourism=guest_house": "Hotel", "tourism=apartment": "Hotel", "tourism=chalet": "Hotel",
        "amenity=parking": "Parking", "amenity=parking_entrance": "Parking", "amenity=bicycle_parking": "Parking",
        "public_transport=station": "PublicTransport", "railway=station": "PublicTransport", "railway=halt": "PublicTransport",
        "amenity=bus_station": "PublicTransport", "highway=bus_stop": "PublicTransport", "amenity=ferry_terminal": "PublicTransport",
        "railway=tram_stop": "PublicTransport", "aerialway=*": "PublicTransport", "public_transport=platform": "PublicTransport",
        // Water sports
        "leisure=fishing": "Fishing", "sport=fishing": "Fishing", "sport=canoe": "Kayaking", "sport=kayak": "Kayaking",
        "sport=surfing": "Surfing", "leisure=swimming_pool": "Swimming", "leisure=swimming_area": "Swimming",
        "sport=swimming": "Swimming", "leisure=water_park ": "Swimming",
    ]

    /// Keys that make a point of interest, in priority order (a cafe in a historic building is a cafe).
    static let keys = ["amenity", "shop", "tourism", "leisure", "healthcare", "craft", "aeroway", "railway", "public_transport",
                       "aerialway", "historic", "man_made", "office", "sport", "landuse", "highway", "information", "boundary", "route"]

    /// Categories worth a place even without a name (someone searching "parking" or "atm" wants them).
    static let namelessCategories: Set<String> = ["Parking", "ATM", "Restroom", "EVCharger", "GasStation", "Pharmacy", "Mailbox",
                                                  "PublicTransport", "Beach", "Park"]

    static let localityPlaces: [String: Double] = [
        "city": 0.9, "town": 0.75, "village": 0.55, "suburb": 0.5, "quarter": 0.4, "borough": 0.5, "neighbourhood": 0.35,
        "hamlet": 0.3, "isolated_dwelling": 0.15, "locality": 0.2, "farm": 0.1, "municipality": 0.7,
    ]
    static let streetHighways: Set<String> = [
        "motorway", "trunk", "primary", "secondary", "tertiary", "unclassified", "residential", "living_street", "pedestrian",
        "service", "road", "footway", "path", "steps", "cycleway", "track", "motorway_link", "trunk_link", "primary_link",
        "secondary_link", "tertiary_link", "bridleway",
    ]
    static let physical: [String: Double] = [
        "natural=peak": 0.4, "natural=volcano": 0.4, "natural=saddle": 0.25, "natural=water": 0.35, "natural=bay": 0.35,
        "natural=beach": 0.35, "natural=cliff": 0.2, "natural=glacier": 0.35, "natural=spring": 0.15, "natural=cave_entrance": 0.2,
        "natural=wood": 0.15, "natural=valley": 0.3, "natural=ridge": 0.25, "natural=cape": 0.3, "natural=island": 0.4,
        "natural=islet": 0.25, "place=island": 0.4, "place=islet": 0.25, "waterway=river": 0.4, "waterway=stream": 0.15,
        "waterway=waterfall": 0.3, "waterway=canal": 0.25, "water=lake": 0.4, "water=reservoir": 0.35, "leisure=park": 0.3,
        "leisure=nature_reserve": 0.35, "boundary=national_park": 0.5, "natural=scrub": 0.05, "natural=grassland": 0.05,
        "landuse=forest": 0.1, "natural=heath": 0.05, "natural=rock": 0.1, "natural=stone": 0.1, "mountain_pass=yes": 0.3,
    ]

    /// `key` → the values that make a place without a name (``namelessCategories``; "*" for any value).
    static let namelessValues: [String: Set<String>] = {
        var result: [String: Set<String>] = [:]
        for (tag, category) in categories where namelessCategories.contains(category) {
            let parts = tag.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { continue }
            result[parts[0], default: []].insert(parts[1])
        }
        return result
    }()

    /// Whether an element with these tags may be a place at all: it has a name or a house
    /// number, or a tag of a category indexed without a name. Most tagged elements (unnamed
    /// buildings, land use, roads) fail this in one pass over their few tags, before
    /// ``classify(_:isLine:)`` looks up some forty keys.
    static func mayBePlace(_ tags: OSMTags) -> Bool {
        for (key, value) in tags {
            if key == "name" || key == "addr:housenumber" || key == "addr:conscriptionnumber" { return true }
            if let values = namelessValues[key], values.contains(value) || values.contains("*") { return true }
        }
        return false
    }

    /// How an element with these tags should be indexed; nil when it is not a place.
    static func classify(_ tags: OSMTags, isLine: Bool) -> Classification? {
        guard mayBePlace(tags) else { return nil }
        let tags = PlaceTags(tags)
        let name = tags.value(for: "name")
        if let place = tags.value(for: "place"), name != nil {
            if let importance = localityPlaces[place] {
                var value = importance
                if let population = tags.value(for: "population").flatMap({ Double($0.filter(\.isNumber)) }), population > 0 {
                    value += min(0.1, log10(population) / 70)
                }
                return Classification(kind: .locality, osmClass: "place=\(place)", category: nil, importance: min(1, value))
            }
            if place == "country" || place == "state" || place == "region" || place == "province" {
                return Classification(kind: .administrativeArea, osmClass: "place=\(place)", category: nil, importance: 0.8)
            }
        }
        if let highway = tags.value(for: "highway"), isLine, name != nil, streetHighways.contains(highway) {
            let major = ["motorway", "trunk", "primary", "secondary"].contains(highway)
            return Classification(kind: .street, osmClass: "highway=\(highway)", category: nil, importance: major ? 0.3 : 0.2)
        }
        // Points of interest (a category, or a name on a POI key). A stop position is the
        // vehicle's halt on the road; its platform or bus stop node is the place people look for.
        for key in keys {
            guard let value = tags.value(for: key), value != "no", value != "stop_position" else { continue }
            let osmClass = "\(key)=\(value)"
            let category = categories[osmClass] ?? categories["\(key)=*"]
            if let physicalImportance = physical[osmClass] {
                guard name != nil || category.map(namelessCategories.contains) == true else { continue }
                return Classification(kind: .physicalFeature, osmClass: osmClass, category: category.map { "MKPOICategory" + $0 },
                                      importance: physicalImportance)
            }
            if key == "highway" && category == nil { continue }
            if key == "landuse" || key == "boundary" || key == "route" || key == "information" || key == "man_made" || key == "sport" {
                guard category != nil else { continue }
            }
            guard name != nil || category.map(namelessCategories.contains) == true else { continue }
            var importance = 0.3
            // A Wikipedia article is the best sign of a landmark people search for by name.
            if tags.value(for: "wikidata") != nil || tags.value(for: "wikipedia") != nil { importance += 0.35 }
            if tags.value(for: "website") != nil || tags.value(for: "contact:website") != nil { importance += 0.03 }
            if name == nil { importance = 0.05 }
            if ["public_transport=platform", "highway=bus_stop", "railway=tram_stop"].contains(osmClass) { importance = 0.1 }
            if ["aeroway=aerodrome", "tourism=attraction", "tourism=museum", "historic=castle", "railway=station",
                "amenity=hospital", "amenity=university", "leisure=stadium"].contains(osmClass) { importance += 0.1 }
            return Classification(kind: .pointOfInterest, osmClass: osmClass, category: category.map { "MKPOICategory" + $0 },
                                  importance: min(1, importance))
        }
        for key in ["natural", "waterway", "water", "mountain_pass"] {
            guard let value = tags.value(for: key), let importance = physical["\(key)=\(value)"], name != nil else { continue }
            let osmClass = "\(key)=\(value)"
            return Classification(kind: .physicalFeature, osmClass: osmClass,
                                  category: (categories[osmClass]).map { "MKPOICategory" + $0 }, importance: importance)
        }
        if tags.value(for: "addr:housenumber") != nil || tags.value(for: "addr:conscriptionnumber") != nil,
           tags.value(for: "addr:street") != nil || tags.value(for: "addr:place") != nil {
            let osmClass = tags.value(for: "building").map { "building=\($0)" } ?? "addr:housenumber"
            return Classification(kind: .address, osmClass: osmClass, category: nil, importance: 0.1)
        }
        if let building = tags.value(for: "building"), name != nil, building != "no" {
            return Classification(kind: .pointOfInterest, osmClass: "building=\(building)", category: nil, importance: 0.15)
        }
        return nil
    }

    /// Names besides `name`: every `name:xx` by its language, plus `name:latin`.
    static func names(_ tags: OSMTags) -> [String: String] {
        var result: [String: String] = [:]
        for (key, value) in tags where key.hasPrefix("name:") && !value.isEmpty {
            let language = String(key.dropFirst(5))
            guard !language.isEmpty, language.count <= 12 else { continue }
            result[language] = value
        }
        return result
    }

    /// Other names a place is known by, for search only.
    static func searchNames(_ tags: OSMTags) -> [String] {
        ["alt_name", "old_name", "official_name", "short_name", "loc_name", "int_name", "reg_name", "brand"].compactMap {
            tags.value(for: $0)
        }.flatMap { $0.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) } }
    }

    /// The address tags of an element (https://wiki.openstreetmap.org/wiki/Key:addr:*).
    ///
    /// - The house number is `addr:housenumber`; where only the Czech and Slovak numbers are
    ///   tagged it is written as people there do, conscription number / street number ("1234/5"),
    ///   and either is searchable alone (``searchNumbers(_:)``).
    /// - The street is `addr:street`, else `addr:place`: a village without street names, where
    ///   the address is "Dorf 12" (Austria, Czechia). With both, `addr:place` is the part of the
    ///   town the address lies in, like `addr:suburb`; `addr:hamlet` too, after them.
    /// - `addr:city` is the locality even where the municipality's boundary says otherwise (a
    ///   postal town): it is how the address is written. The boundary's name is still searchable.
    /// - `addr:unit` (or `addr:flats`) has no MapKit field; the address is also found with it
    ///   after the number ("Mannerheimintie 5 A 3", as written in Finland) (``searchNumbers(_:)``).
    static func address(_ tags: OSMTags) -> PlaceAddress {
        var address = PlaceAddress()
        let conscription = tags.value(for: "addr:conscriptionnumber"), streetNumber = tags.value(for: "addr:streetnumber")
        address.houseNumber = tags.value(for: "addr:housenumber")
            ?? [conscription, streetNumber].compactMap { $0 }.joined(separator: "/").nilIfEmpty
        let street = tags.value(for: "addr:street"), place = tags.value(for: "addr:place")
        address.street = street ?? place
        address.postalCode = tags.value(for: "addr:postcode")
        address.locality = tags.value(for: "addr:city")
        address.subLocality = tags.value(for: "addr:suburb") ?? (street != nil ? place : nil) ?? tags.value(for: "addr:hamlet")
        address.countryCode = tags.value(for: "addr:country").map { $0.uppercased() }.flatMap { $0.count == 2 ? $0 : nil }
        return address
    }

    /// Further spellings an address is found by: the conscription and street numbers alone with
    /// the street ("36 Vodičkova" and "681 Vodičkova" for 681/36), and the number with its unit.
    static func searchNumbers(_ tags: OSMTags) -> [String] {
        guard let street = tags.value(for: "addr:street") ?? tags.value(for: "addr:place") else { return [] }
        var numbers = [tags.value(for: "addr:conscriptionnumber"), tags.value(for: "addr:streetnumber")].compactMap { $0 }
        if let number = tags.value(for: "addr:housenumber"), let unit = tags.value(for: "addr:unit") ?? tags.value(for: "addr:flats") {
            numbers.append("\(number) \(unit)")
        }
        return numbers.map { "\($0) \(street)" }
    }
}

/// An element's tags by key, for the many lookups of ``PlaceTagging/classify(_:isLine:)`` (the
/// first value wins where a key repeats, as with `OSMTags.value(for:)`).
struct PlaceTags {
    private let values: [String: String]

    init(_ tags: OSMTags) {
        values = Dictionary(tags.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    func value(for key: String) -> String? { values[key] }
}

extension String {
    /// nil for the empty string.
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
