/// Words that name a kind of place rather than a place: "coffee" means cafés, "playground" means
/// `leisure=playground`. English, plus French, German and Catalan/Spanish words where they are
/// cheap (our extracts are Monaco, Andorra and Liechtenstein). Keys are folded (``TextFolding``).
enum CategoryWords {
    struct Meaning {
        var categories: Set<String>
        var osmClasses: Set<String>
        /// How a query suggestion names it ("Cafes").
        var title: String
    }

    private static func m(_ title: String, _ categories: [String], _ classes: [String] = []) -> Meaning {
        Meaning(categories: Set(categories.map { "MKPOICategory" + $0 }), osmClasses: Set(classes), title: title)
    }

    static let table: [String: Meaning] = {
        var t: [String: Meaning] = [:]
        func add(_ words: [String], _ meaning: Meaning) { for w in words { t[w] = meaning } }
        add(["coffee", "cafe", "cafes", "coffee shop", "coffee shops", "cafeteria", "kaffee", "cafeteria", "cafe bar"],
            m("Cafes", ["Cafe"]))
        add(["restaurant", "restaurants", "food", "dinner", "lunch", "restaurante", "gasthaus", "essen"],
            m("Restaurants", ["Restaurant"]))
        add(["fast food", "takeaway", "pizza", "burger"], m("Fast food", ["Restaurant"], ["amenity=fast_food"]))
        add(["bar", "bars", "pub", "pubs", "nightlife", "club", "nightclub", "kneipe"], m("Nightlife", ["Nightlife"]))
        add(["bakery", "bakeries", "boulangerie", "backerei", "forn", "panaderia"], m("Bakeries", ["Bakery"]))
        add(["hotel", "hotels", "hostel", "motel", "lodging", "accommodation", "hotel", "hotels"],
            m("Hotels", ["Hotel"]))
        add(["pharmacy", "pharmacies", "chemist", "drugstore", "pharmacie", "apotheke", "farmacia"],
            m("Pharmacies", ["Pharmacy"]))
        add(["hospital", "hospitals", "hopital", "krankenhaus", "clinic", "emergency"], m("Hospitals", ["Hospital"]))
        add(["police", "polizei", "policia", "gendarmerie"], m("Police", ["Police"]))
        add(["fire station", "pompiers", "bombers", "feuerwehr"], m("Fire stations", ["FireStation"]))
        add(["playground", "playgrounds", "aire de jeux", "spielplatz", "parc infantil"],
            m("Playgrounds", [], ["leisure=playground"]))
        add(["beach", "beaches", "plage", "strand", "platja", "playa"], m("Beaches", ["Beach"]))
        add(["park", "parks", "parc", "jardin", "garden", "gardens"], m("Parks", ["Park"]))
        add(["museum", "museums", "musee", "museu", "museo"], m("Museums", ["Museum"]))
        add(["bank", "banks", "banque", "banc", "banco"], m("Banks", ["Bank"]))
        add(["atm", "atms", "cash", "cash machine", "distributeur", "geldautomat", "caixer"], m("ATMs", ["ATM"]))
        add(["parking", "car park", "parkplatz", "aparcament"], m("Parking", ["Parking"]))
        add(["gas station", "petrol", "petrol station", "fuel", "gas", "tankstelle", "gasolinera", "station service"],
            m("Gas stations", ["GasStation"]))
        add(["ev charger", "charging station", "ev charging"], m("EV chargers", ["EVCharger"]))
        add(["supermarket", "supermarkets", "grocery", "groceries", "market", "supermarche", "supermercat", "food market"],
            m("Groceries", ["FoodMarket"]))
        add(["shop", "shops", "store", "stores", "shopping", "boutique", "geschaft"], m("Shops", ["Store"]))
        add(["school", "schools", "ecole", "schule", "escola"], m("Schools", ["School"]))
        add(["university", "universite", "universitat"], m("Universities", ["University"]))
        add(["library", "libraries", "bibliotheque", "bibliothek", "biblioteca"], m("Libraries", ["Library"]))
        add(["post office", "post", "poste", "la poste", "correus"], m("Post offices", ["PostOffice"]))
        add(["mailbox", "letter box", "post box"], m("Mailboxes", ["Mailbox"]))
        add(["toilet", "toilets", "restroom", "restrooms", "wc", "toilettes"], m("Restrooms", ["Restroom"]))
        add(["gym", "fitness", "fitness center"], m("Fitness centers", ["FitnessCenter"]))
        add(["cinema", "movie theater", "movies", "kino", "cinema"], m("Movie theaters", ["MovieTheater"]))
        add(["theater", "theatre", "theatres", "theaters"], m("Theaters", ["Theater"]))
        add(["stadium", "stade", "estadi"], m("Stadiums", ["Stadium"]))
        add(["zoo"], m("Zoos", ["Zoo"]))
        add(["aquarium"], m("Aquariums", ["Aquarium"]))
        add(["marina", "harbour", "harbor", "port"], m("Marinas", ["Marina"]))
        add(["campground", "camping", "campsite"], m("Campgrounds", ["Campground"]))
        add(["castle", "chateau", "schloss", "burg", "castell"], m("Castles", ["Castle"]))
        add(["church", "churches", "eglise", "kirche", "esglesia"], m("Churches", ["Landmark"], ["amenity=place_of_worship"]))
        add(["landmark", "landmarks", "monument", "monuments", "attraction", "sights"], m("Landmarks", ["Landmark", "NationalMonument"]))
        add(["airport", "heliport", "aeroport", "flughafen"], m("Airports", ["Airport"]))
        add(["bus stop", "bus", "station", "train station", "railway station", "gare", "bahnhof", "public transport"],
            m("Public transport", ["PublicTransport"]))
        add(["car rental", "rent a car", "location de voiture"], m("Car rental", ["CarRental"]))
        add(["laundry", "laundromat", "dry cleaning", "pressing"], m("Laundry", ["Laundry"]))
        add(["spa", "spas", "sauna", "wellness"], m("Spas", ["Spa"]))
        add(["hairdresser", "beauty", "salon", "coiffeur", "friseur"], m("Beauty", ["Beauty"]))
        add(["vet", "veterinary", "veterinarian", "pet shop", "tierarzt"], m("Animal services", ["AnimalService"]))
        add(["car repair", "garage", "mechanic"], m("Car repair", ["AutomotiveRepair"]))
        add(["golf", "golf course"], m("Golf", ["Golf"]))
        add(["mini golf", "minigolf"], m("Mini golf", ["MiniGolf"]))
        add(["tennis"], m("Tennis", ["Tennis"]))
        add(["swimming", "swimming pool", "pool", "piscine", "piscina", "schwimmbad"], m("Swimming", ["Swimming"]))
        add(["ski", "skiing", "ski resort", "pistes"], m("Skiing", ["Skiing"]))
        add(["hiking", "trail", "trailhead", "wandern"], m("Hiking", ["Hiking"]))
        add(["climbing", "rock climbing"], m("Climbing", ["RockClimbing"]))
        add(["skatepark", "skate park"], m("Skateparks", ["Skatepark"]))
        add(["ice rink", "skating"], m("Skating", ["Skating"]))
        add(["football", "soccer"], m("Soccer", ["Soccer"]))
        add(["basketball"], m("Basketball", ["Basketball"]))
        add(["volleyball"], m("Volleyball", ["Volleyball"]))
        add(["bowling"], m("Bowling", ["Bowling"]))
        add(["brewery", "breweries", "brasserie"], m("Breweries", ["Brewery"]))
        add(["winery", "wineries", "vineyard"], m("Wineries", ["Winery"]))
        add(["distillery"], m("Distilleries", ["Distillery"]))
        add(["music venue", "concert hall"], m("Music venues", ["MusicVenue"]))
        add(["convention center", "conference centre", "conference center"], m("Convention centers", ["ConventionCenter"]))
        add(["amusement park", "theme park"], m("Amusement parks", ["AmusementPark"]))
        add(["viewpoint", "view", "mirador"], m("Viewpoints", [], ["tourism=viewpoint"]))
        add(["peak", "peaks", "mountain", "summit", "pic", "gipfel"], m("Peaks", [], ["natural=peak"]))
        add(["lake", "lakes", "lac", "estany", "see"], m("Lakes", [], ["natural=water", "water=lake"]))
        add(["fortress", "fort"], m("Fortresses", ["Fortress"]))
        add(["planetarium"], m("Planetariums", ["Planetarium"]))
        add(["fairground"], m("Fairgrounds", ["Fairground"]))
        add(["national park"], m("National parks", ["NationalPark"]))
        add(["rv park", "caravan site"], m("RV parks", ["RVPark"]))
        add(["kayak", "kayaking", "canoe"], m("Kayaking", ["Kayaking"]))
        add(["surfing", "surf"], m("Surfing", ["Surfing"]))
        add(["fishing"], m("Fishing", ["Fishing"]))
        add(["go kart", "karting"], m("Go-karts", ["GoKart"]))
        add(["baseball"], m("Baseball", ["Baseball"]))
        add(["planetarium"], m("Planetariums", ["Planetarium"]))
        return t
    }()

    /// The meaning of a whole folded phrase ("coffee shops", "cafes near"), trying singular forms.
    static func meaning(of tokens: [String]) -> Meaning? {
        let content = tokens.filter { !["a", "an", "the", "some", "nearby", "near", "me", "best", "open", "now", "find"].contains($0) }
        guard !content.isEmpty, content.count <= 3 else { return nil }
        let phrase = content.joined(separator: " ")
        if let meaning = table[phrase] { return meaning }
        if phrase.hasSuffix("s"), let meaning = table[String(phrase.dropLast())] { return meaning }
        return nil
    }

    /// Category phrases that start with `prefix` (folded), for query suggestions; best first.
    static func suggestions(prefix: String) -> [(phrase: String, meaning: Meaning)] {
        guard prefix.count >= 2 else { return [] }
        var byTitle: [String: (String, Meaning)] = [:]
        for (phrase, meaning) in table where phrase.hasPrefix(prefix) {
            if let existing = byTitle[meaning.title], existing.0.count <= phrase.count { continue }
            byTitle[meaning.title] = (phrase, meaning)
        }
        return byTitle.values.sorted { ($0.0.count, $0.0) < ($1.0.count, $1.0) }.map { (phrase: $0.0, meaning: $0.1) }
    }
}
