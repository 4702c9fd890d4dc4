import Foundation
import MapStyle

/// A kind of point of interest (MapKit's `MKPointOfInterestCategory`), with MapKit's raw values
/// ("MKPOICategoryMuseum").
///
/// On the map, a category stands for OpenMapTiles `poi` features: ``openMapTilesClasses`` (whole
/// classes) and ``openMapTilesSubclasses`` (single OSM values in the `subclass` attribute, where
/// a class mixes categories, as `bank` holds both banks and ATMs). The table covers the classes
/// of the OpenMapTiles schema and of `openmapkit import`.
public struct MKPointOfInterestCategory: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    private init(_ name: String) { rawValue = "MKPOICategory" + name }

    // Arts and culture
    public static let museum = Self("Museum")
    public static let musicVenue = Self("MusicVenue")
    public static let theater = Self("Theater")
    // Education
    public static let library = Self("Library")
    public static let planetarium = Self("Planetarium")
    public static let school = Self("School")
    public static let university = Self("University")
    // Entertainment
    public static let movieTheater = Self("MovieTheater")
    public static let nightlife = Self("Nightlife")
    // Health and safety
    public static let fireStation = Self("FireStation")
    public static let hospital = Self("Hospital")
    public static let pharmacy = Self("Pharmacy")
    public static let police = Self("Police")
    // Historical and cultural landmarks
    public static let castle = Self("Castle")
    public static let fortress = Self("Fortress")
    public static let landmark = Self("Landmark")
    public static let nationalMonument = Self("NationalMonument")
    // Food and drink
    public static let bakery = Self("Bakery")
    public static let brewery = Self("Brewery")
    public static let cafe = Self("Cafe")
    public static let distillery = Self("Distillery")
    public static let foodMarket = Self("FoodMarket")
    public static let restaurant = Self("Restaurant")
    public static let winery = Self("Winery")
    // Personal services
    public static let animalService = Self("AnimalService")
    public static let atm = Self("ATM")
    public static let automotiveRepair = Self("AutomotiveRepair")
    public static let bank = Self("Bank")
    public static let beauty = Self("Beauty")
    public static let evCharger = Self("EVCharger")
    public static let fitnessCenter = Self("FitnessCenter")
    public static let laundry = Self("Laundry")
    public static let mailbox = Self("Mailbox")
    public static let postOffice = Self("PostOffice")
    public static let restroom = Self("Restroom")
    public static let spa = Self("Spa")
    public static let store = Self("Store")
    // Parks and recreation
    public static let amusementPark = Self("AmusementPark")
    public static let aquarium = Self("Aquarium")
    public static let beach = Self("Beach")
    public static let campground = Self("Campground")
    public static let fairground = Self("Fairground")
    public static let marina = Self("Marina")
    public static let nationalPark = Self("NationalPark")
    public static let park = Self("Park")
    public static let rvPark = Self("RVPark")
    public static let zoo = Self("Zoo")
    // Sports
    public static let baseball = Self("Baseball")
    public static let basketball = Self("Basketball")
    public static let bowling = Self("Bowling")
    public static let goKart = Self("GoKart")
    public static let golf = Self("Golf")
    public static let hiking = Self("Hiking")
    public static let miniGolf = Self("MiniGolf")
    public static let rockClimbing = Self("RockClimbing")
    public static let skatePark = Self("Skatepark")
    public static let skating = Self("Skating")
    public static let skiing = Self("Skiing")
    public static let soccer = Self("Soccer")
    public static let stadium = Self("Stadium")
    public static let tennis = Self("Tennis")
    public static let volleyball = Self("Volleyball")
    // Travel
    public static let airport = Self("Airport")
    public static let carRental = Self("CarRental")
    public static let conventionCenter = Self("ConventionCenter")
    public static let gasStation = Self("GasStation")
    public static let hotel = Self("Hotel")
    public static let parking = Self("Parking")
    public static let publicTransport = Self("PublicTransport")
    // Water sports
    public static let fishing = Self("Fishing")
    public static let kayaking = Self("Kayaking")
    public static let surfing = Self("Surfing")
    public static let swimming = Self("Swimming")

    /// Every category MapKit defines.
    public static var allCategories: [MKPointOfInterestCategory] { table.map(\.category) }

    /// OpenMapTiles `poi` classes that belong to this category as a whole.
    public var openMapTilesClasses: [String] { Self.lookup[self]?.classes ?? [] }
    /// OSM values (the `poi` layer's `subclass`) that belong to this category.
    public var openMapTilesSubclasses: [String] { Self.lookup[self]?.subclasses ?? [] }

    /// The category of a `poi` feature, from its class and subclass; nil when none fits.
    public init?(openMapTilesClass cls: String?, subclass: String?) {
        if let subclass, let match = Self.table.first(where: { $0.subclasses.contains(subclass) }) {
            self = match.category
        } else if let cls, let match = Self.table.first(where: { $0.classes.contains(cls) }) {
            self = match.category
        } else {
            return nil
        }
    }

    private static let lookup: [MKPointOfInterestCategory: (classes: [String], subclasses: [String])] =
        Dictionary(table.map { ($0.category, ($0.classes, $0.subclasses)) }, uniquingKeysWith: { a, _ in a })

    /// Category → OpenMapTiles classes and subclasses. A class is listed only where every feature
    /// of it belongs to the category; mixed classes are split by subclass.
    static let table: [(category: MKPointOfInterestCategory, classes: [String], subclasses: [String])] = [
        (.museum, ["museum", "art_gallery"], ["museum", "gallery", "arts_centre"]),
        (.musicVenue, ["music"], ["music_venue", "concert_hall"]),
        (.theater, [], ["theatre"]),
        (.library, ["library"], ["library", "bookcase"]),
        (.planetarium, [], ["planetarium"]),
        (.school, ["school"], ["school", "kindergarten"]),
        (.university, ["college"], ["university", "college"]),
        (.movieTheater, ["cinema"], ["cinema"]),
        (.nightlife, ["bar", "beer"], ["bar", "pub", "nightclub", "biergarten"]),
        (.fireStation, ["fire_station"], ["fire_station"]),
        (.hospital, ["hospital"], ["hospital", "clinic"]),
        (.pharmacy, ["pharmacy"], ["pharmacy", "chemist"]),
        (.police, ["police"], ["police"]),
        (.castle, ["castle"], ["castle", "palace"]),
        (.fortress, [], ["fort", "fortress", "city_gate"]),
        (.landmark, ["attraction"], ["attraction", "viewpoint", "memorial", "ruins", "archaeological_site"]),
        (.nationalMonument, [], ["monument"]),
        (.bakery, ["bakery"], ["bakery", "pastry", "confectionery"]),
        (.brewery, [], ["brewery"]),
        (.cafe, ["cafe"], ["cafe", "coffee"]),
        (.distillery, [], ["distillery"]),
        (.foodMarket, ["grocery"], ["supermarket", "convenience", "greengrocer", "grocery", "marketplace", "deli", "butcher"]),
        (.restaurant, ["restaurant", "fast_food"], ["restaurant", "fast_food", "food_court"]),
        (.winery, [], ["winery", "wine"]),
        (.animalService, ["veterinary"], ["veterinary", "pet", "animal_boarding", "animal_shelter"]),
        (.atm, ["atm"], ["atm"]),
        (.automotiveRepair, ["car"], ["car_repair", "tyres", "car_parts"]),
        (.bank, [], ["bank", "bureau_de_change"]),
        (.beauty, [], ["beauty", "hairdresser", "cosmetics", "perfumery"]),
        (.evCharger, [], ["charging_station"]),
        (.fitnessCenter, [], ["fitness_centre", "sports_centre", "gym", "fitness_station"]),
        (.laundry, ["laundry"], ["laundry", "dry_cleaning"]),
        (.mailbox, [], ["post_box"]),
        (.postOffice, [], ["post_office"]),
        (.restroom, ["toilets"], ["toilets"]),
        (.spa, [], ["spa", "sauna"]),
        (.store, ["shop", "clothing_store", "alcohol_shop"], ["mall", "department_store", "clothes", "shoes", "boutique", "fashion"]),
        (.amusementPark, ["amusement_park"], ["theme_park"]),
        (.aquarium, ["aquarium"], ["aquarium"]),
        (.beach, ["beach"], ["beach", "beach_resort"]),
        (.campground, ["campsite"], ["camp_site"]),
        (.fairground, [], ["fairground"]),
        (.marina, ["harbor"], ["marina"]),
        (.nationalPark, [], ["national_park", "nature_reserve", "protected_area"]),
        (.park, [], ["park", "garden", "dog_park", "bbq"]),
        (.rvPark, [], ["caravan_site"]),
        (.zoo, ["zoo"], ["zoo"]),
        (.baseball, [], ["baseball"]),
        (.basketball, [], ["basketball"]),
        (.bowling, [], ["bowling_alley", "10pin"]),
        (.goKart, [], ["karting"]),
        (.golf, ["golf"], ["golf_course", "golf"]),
        (.hiking, [], ["hiking", "alpine_hut", "wilderness_hut"]),
        (.miniGolf, [], ["miniature_golf"]),
        (.rockClimbing, [], ["climbing"]),
        (.skatePark, [], ["skatepark", "skateboard"]),
        (.skating, [], ["ice_rink", "skating"]),
        (.skiing, [], ["skiing", "ski_rental"]),
        (.soccer, [], ["soccer"]),
        (.stadium, ["stadium"], ["stadium"]),
        (.tennis, [], ["tennis"]),
        (.volleyball, [], ["volleyball"]),
        (.airport, ["airport"], ["aerodrome", "terminal"]),
        (.carRental, [], ["car_rental"]),
        (.conventionCenter, [], ["conference_centre", "exhibition_centre"]),
        (.gasStation, [], ["fuel"]),
        (.hotel, [], ["hotel", "motel", "hostel", "guest_house", "apartment", "chalet", "bed_and_breakfast"]),
        (.parking, ["parking"], ["parking", "bicycle_parking", "motorcycle_parking"]),
        (.publicTransport, ["bus", "railway", "ferry_terminal", "aerialway"],
         ["bus_stop", "bus_station", "station", "halt", "tram_stop", "subway_entrance", "ferry_terminal"]),
        (.fishing, [], ["fishing"]),
        (.kayaking, [], ["canoe", "kayak"]),
        (.surfing, [], ["surfing"]),
        (.swimming, ["swimming"], ["swimming_pool", "swimming_area", "water_park"]),
    ]
}

/// Which points of interest a map shows (MapKit's `MKPointOfInterestFilter`).
public final class MKPointOfInterestFilter: NSObject, @unchecked Sendable {
    enum Kind: Hashable { case including(Set<MKPointOfInterestCategory>), excluding(Set<MKPointOfInterestCategory>) }
    let kind: Kind

    /// Only these categories.
    public init(including categories: [MKPointOfInterestCategory]) {
        kind = .including(Set(categories))
        super.init()
    }

    /// Every category but these.
    public init(excluding categories: [MKPointOfInterestCategory]) {
        kind = .excluding(Set(categories))
        super.init()
    }

    /// Every category.
    public static var includingAll: MKPointOfInterestFilter { MKPointOfInterestFilter(excluding: []) }
    /// No category.
    public static var excludingAll: MKPointOfInterestFilter { MKPointOfInterestFilter(including: []) }

    public func includes(_ category: MKPointOfInterestCategory) -> Bool {
        switch kind {
        case .including(let set): set.contains(category)
        case .excluding(let set): !set.contains(category)
        }
    }

    public func excludes(_ category: MKPointOfInterestCategory) -> Bool { !includes(category) }

    public override func isEqual(_ object: Any?) -> Bool { (object as? MKPointOfInterestFilter)?.kind == kind }
    public override var hash: Int { kind.hashValue }

    /// Whether the filter shows nothing.
    var isExcludingAll: Bool { if case .including(let set) = kind { set.isEmpty } else { false } }
    /// Whether the filter shows everything.
    var isIncludingAll: Bool { if case .excluding(let set) = kind { set.isEmpty } else { false } }

    /// Narrows a style's point-of-interest layers (source layer `poi`) to the filter: an
    /// `in`/`!in` test on `class` and `subclass` joined to each layer's own filter, in the layer's
    /// own filter syntax (legacy or expression, which must not be mixed). Excluding everything
    /// removes those layers.
    func apply(to style: inout Style) {
        guard !isIncludingAll else { return }
        if isExcludingAll {
            style.layers.removeAll { $0.sourceLayer == "poi" }
            return
        }
        let categories: Set<MKPointOfInterestCategory>
        let keep: Bool
        switch kind {
        case .including(let set): (categories, keep) = (set, true)
        case .excluding(let set): (categories, keep) = (set, false)
        }
        let ordered = MKPointOfInterestCategory.table.map(\.category).filter { categories.contains($0) }
        let classes = Array(Set(ordered.flatMap(\.openMapTilesClasses))).sorted()
        let subclasses = Array(Set(ordered.flatMap(\.openMapTilesSubclasses))).sorted()
        for index in style.layers.indices where style.layers[index].sourceLayer == "poi" {
            let existing = style.layers[index].filter
            let legacy = existing.map(Self.isLegacyFilter) ?? false
            let test: JSONValue
            if legacy {
                let strings = { (values: [String]) in values.map(JSONValue.string) }
                let any = JSONValue.array([.string("any"), .array([.string("in"), .string("class")] + strings(classes)),
                                           .array([.string("in"), .string("subclass")] + strings(subclasses))])
                test = keep ? any : .array([.string("none"), any])
            } else {
                func member(_ key: String, _ values: [String]) -> JSONValue {
                    .array([.string("in"), .array([.string("get"), .string(key)]), .array([.string("literal"), .array(values.map(JSONValue.string))])])
                }
                let any = JSONValue.array([.string("any"), member("class", classes), member("subclass", subclasses)])
                test = keep ? any : .array([.string("!"), any])
            }
            style.layers[index].filter = existing.map { .array([.string("all"), $0, test]) } ?? test
        }
    }

    /// Whether a filter is written in the legacy syntax (["==", "class", "park"]), whose operands
    /// are property names rather than expressions.
    static func isLegacyFilter(_ filter: JSONValue) -> Bool {
        guard case .array(let items) = filter, case .string(let op)? = items.first else { return false }
        switch op {
        case "!in", "!has", "none": return true
        case "all", "any":
            let children = items.dropFirst()
            return !children.isEmpty && children.contains { isLegacyFilter($0) }
        case "has": return items.count == 2 && { if case .string = items[1] { true } else { false } }()
        case "in", "==", "!=", ">", ">=", "<", "<=":
            guard items.count >= 2, case .string = items[1] else { return false }
            if op == "in", items.count == 3, case .array = items[2] { return false }
            return true
        default: return false
        }
    }
}
