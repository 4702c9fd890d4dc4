import Foundation
import MapFormats

/// The layers of the OpenMapTiles vector tile schema that the tile builder writes, with their
/// fields. MapLibre styles written for OpenMapTiles (the common open "basic", "bright", "positron"
/// styles) read these layers and fields, so the bundle's tiles work with them unchanged.
public enum TileLayer: String, CaseIterable, Hashable, Sendable, Codable {
    case water, waterway, landcover, landuse, park, boundary, aeroway, transportation
    case transportationName = "transportation_name"
    case building
    case waterName = "water_name"
    case place, housenumber, poi
    case mountainPeak = "mountain_peak"

    /// The type of a field, as TileJSON's `vector_layers` writes it.
    public enum FieldType: String, Sendable { case string = "String", number = "Number", boolean = "Boolean" }

    /// A field of a layer: its name, type and meaning (the README's schema table is made from these).
    public struct Field: Sendable {
        public let name: String
        public let type: FieldType
        public let description: String
    }

    /// Every field the builder may write in this layer. Layers with names also carry `name`,
    /// `name_en`, `name_de`, `name_int`, `name:latin`, `name:nonlatin` and every `name:xx` tag
    /// present in the data (see ``nameFields``).
    public var fields: [Field] {
        func s(_ n: String, _ d: String) -> Field { Field(name: n, type: .string, description: d) }
        func n(_ n: String, _ d: String) -> Field { Field(name: n, type: .number, description: d) }
        func b(_ n: String, _ d: String) -> Field { Field(name: n, type: .boolean, description: d) }
        switch self {
        case .water:
            return [s("class", "ocean, lake, river, pond, dock, swimming_pool"), n("intermittent", "1 if the water is seasonal"),
                    s("brunnel", "bridge or tunnel for water under or over ways")]
        case .waterway:
            return [s("class", "stream, river, canal, drain, ditch"), n("intermittent", "1 if seasonal"),
                    s("brunnel", "bridge, tunnel"), s("name", "the waterway's name")]
        case .landcover:
            return [s("class", "farmland, ice, wood, rock, grass, wetland, sand"), s("subclass", "the OSM tag value, e.g. forest, meadow, scrub")]
        case .landuse:
            return [s("class", "residential, commercial, industrial, retail, railway, cemetery, military, school, university, hospital, stadium, pitch, playground, …")]
        case .park:
            return [s("class", "national_park, nature_reserve, protected_area, park"), n("rank", "label priority (points only)")]
        case .boundary:
            return [n("admin_level", "OSM admin_level 2 (countries) … 10"), n("disputed", "1 for disputed boundaries"),
                    n("maritime", "1 for boundaries at sea")]
        case .aeroway:
            return [s("class", "aerodrome, heliport, runway, helipad, taxiway, apron, gate"), s("ref", "runway or gate reference")]
        case .transportation:
            return [s("class", "motorway, trunk, primary, secondary, tertiary, minor, service, track, path, rail, transit, ferry, aerialway, …"),
                    s("subclass", "the OSM value for paths, railways and aerialways (footway, cycleway, subway, tram, …)"),
                    s("brunnel", "bridge, tunnel, ford"), n("oneway", "1 forward, −1 against the way's direction"),
                    n("ramp", "1 for link roads"), s("service", "the service=* value for service roads"),
                    n("layer", "OSM layer"), s("surface", "paved or unpaved"), s("access", "no, for roads closed to the public")]
        case .transportationName:
            return [s("name", "the road's name"), s("ref", "route reference, e.g. A8"), n("ref_length", "characters in ref"),
                    s("class", "as in transportation"), s("subclass", "as in transportation"), s("brunnel", "bridge, tunnel, ford"),
                    n("layer", "OSM layer")]
        case .building:
            return [n("render_height", "height in metres (height=*, or building:levels × 3.66, or 5)"),
                    n("render_min_height", "height of the bottom in metres (min_height=* or building:min_level × 3.66)"),
                    s("colour", "building:colour if given"), b("hide_3d", "true for building parts' outlines")]
        case .waterName:
            return [s("class", "ocean, sea, bay, strait, lake, river"), n("intermittent", "1 if seasonal")]
        case .place:
            return [s("class", "country, state, province, city, town, village, hamlet, suburb, quarter, neighbourhood, isolated_dwelling, island"),
                    n("rank", "importance: lower is more important"), n("capital", "admin level of which the place is the capital (2 = country)"),
                    s("iso_a2", "ISO country code for countries")]
        case .housenumber:
            return [s("housenumber", "addr:housenumber")]
        case .poi:
            return [s("class", "grouped kind, e.g. shop, restaurant, cafe, lodging, bus, railway, …"), s("subclass", "the OSM tag value"),
                    n("rank", "label priority: lower shows first"), n("level", "indoor level"), n("layer", "OSM layer"),
                    n("indoor", "1 for indoor POIs")]
        case .mountainPeak:
            return [s("class", "peak, volcano, saddle"), n("ele", "elevation in metres"), n("ele_ft", "elevation in feet"),
                    n("rank", "label priority")]
        }
    }

    /// Whether features of this layer carry names.
    public var hasNames: Bool {
        switch self {
        case .waterway, .park, .aeroway, .transportationName, .waterName, .place, .poi, .mountainPeak: true
        case .water, .landcover, .landuse, .boundary, .transportation, .building, .housenumber: false
        }
    }

    /// The name fields every named feature carries (besides any `name:xx` present in the data).
    public static let nameFields: [Field] = [
        Field(name: "name", type: .string, description: "the local name (OSM name=*)"),
        Field(name: "name_en", type: .string, description: "name:en, or the local name"),
        Field(name: "name_de", type: .string, description: "name:de, or the local name"),
        Field(name: "name_int", type: .string, description: "name:int, name:en, or the local name"),
        Field(name: "name:latin", type: .string, description: "the local name if written in Latin script, else name:en"),
        Field(name: "name:nonlatin", type: .string, description: "the local name if not in Latin script"),
    ]

    /// The zoom levels at which the layer's features first appear, at the earliest.
    public var minimumZoom: Int {
        switch self {
        case .water, .boundary, .place, .transportation, .waterName: 0
        case .landcover, .landuse, .park: 6
        case .waterway, .mountainPeak: 7
        case .aeroway: 10
        case .transportationName: 8
        case .poi: 12
        case .building: 13
        case .housenumber: 14
        }
    }
}

/// A value the schema writes into a tile feature.
public enum TileValue: Hashable, Sendable {
    case string(String)
    case int(Int64)
    case double(Double)
    case bool(Bool)
}

/// How an OSM element is drawn: at a point, along a line, or as an area.
public enum OSMGeometryKind: Hashable, Sendable { case point, line, area }

/// One feature the schema asks the tile builder to write: its layer, the first zoom it shows at,
/// where it goes, and its attributes in a stable order.
public struct SchemaFeature: Sendable {
    /// Where the feature's geometry comes from.
    public enum Placement: Hashable, Sendable {
        /// The element's own point, line or polygon.
        case geometry
        /// One point inside the element's polygon (its pole of inaccessibility): how named areas
        /// become labels in water_name, park, poi, place and housenumber.
        case labelPoint
    }

    public var layer: TileLayer
    public var minimumZoom: Int
    public var placement: Placement
    public var attributes: [(key: String, value: TileValue)]

    public init(layer: TileLayer, minimumZoom: Int, placement: Placement = .geometry,
                attributes: [(key: String, value: TileValue)] = []) {
        self.layer = layer
        self.minimumZoom = minimumZoom
        self.placement = placement
        self.attributes = attributes
    }

    public func attribute(_ key: String) -> TileValue? { attributes.first { $0.key == key }?.value }
}

/// The mapping from OSM tags to OpenMapTiles layers and attributes.
///
/// It follows OpenMapTiles' schema (layer and class names, attribute names, roughly its zoom levels)
/// as far as data from an OSM extract alone allows: there are no external sources (Natural Earth,
/// ocean polygons, Wikidata ranks), so low-zoom country shapes and Wikidata-based ranks are absent,
/// ranks come from tags alone, and the ocean is built from the extract's own coastline ways
/// (see ``oceanFeature``).
public struct OpenMapTilesSchema: Sendable {
    public init() {}

    /// The feature the sea is written as: `water` with `class=ocean` from zoom 0, as OpenMapTiles
    /// writes its ocean polygons. The import makes its polygons from `natural=coastline` ways.
    public var oceanFeature: SchemaFeature {
        SchemaFeature(layer: .water, minimumZoom: TileLayer.water.minimumZoom, attributes: [("class", .string("ocean"))])
    }

    /// Whether a closed way with these tags is an area rather than a ring-shaped line.
    public func isArea(_ tags: OSMTags) -> Bool {
        if let area = tags.value(for: "area") { return area != "no" }
        for (key, value) in tags {
            switch key {
            case "building", "building:part", "landuse", "amenity", "leisure", "shop", "tourism", "place", "man_made", "military",
                 "aeroway" where value != "runway" && value != "taxiway":
                return true
            case "natural" where !["coastline", "cliff", "ridge", "arete", "tree_row"].contains(value):
                return true
            case "waterway" where ["riverbank", "dock", "boatyard", "dam"].contains(value):
                return true
            case "boundary", "highway", "railway", "barrier", "waterway", "power", "route", "type":
                continue
            default:
                continue
            }
        }
        return false
    }

    /// The features an element with `tags` and geometry `kind` contributes to the tiles.
    public func features(for tags: OSMTags, kind: OSMGeometryKind) -> [SchemaFeature] {
        guard !tags.isEmpty else { return [] }
        let t = TagLookup(tags)
        var result: [SchemaFeature] = []
        let names = nameAttributes(t)

        switch kind {
        case .area:
            if let water = waterClass(t) {
                var attributes: [(key: String, value: TileValue)] = [("class", .string(water))]
                if t["intermittent"] == "yes" { attributes.append(("intermittent", .int(1))) }
                if let brunnel = brunnel(t) { attributes.append(("brunnel", .string(brunnel))) }
                result.append(SchemaFeature(layer: .water, minimumZoom: 0, attributes: attributes))
                if !names.isEmpty {
                    result.append(SchemaFeature(layer: .waterName, minimumZoom: 9, placement: .labelPoint,
                                                attributes: [("class", .string(water == "river" ? "river" : "lake"))] + names))
                }
            }
            if let (landcover, subclass) = landcoverClass(t) {
                result.append(SchemaFeature(layer: .landcover, minimumZoom: 7,
                                            attributes: [("class", .string(landcover)), ("subclass", .string(subclass))]))
            }
            if let landuse = landuseClass(t) {
                result.append(SchemaFeature(layer: .landuse, minimumZoom: landuse == "residential" ? 6 : 9,
                                            attributes: [("class", .string(landuse))]))
            }
            if let park = parkClass(t) {
                result.append(SchemaFeature(layer: .park, minimumZoom: 6, attributes: [("class", .string(park))]))
                if !names.isEmpty {
                    result.append(SchemaFeature(layer: .park, minimumZoom: 10, placement: .labelPoint,
                                                attributes: [("class", .string(park)), ("rank", .int(1))] + names))
                }
            }
            if let aeroway = t["aeroway"], ["aerodrome", "heliport", "apron", "helipad", "gate", "runway", "taxiway"].contains(aeroway) {
                var attributes: [(key: String, value: TileValue)] = [("class", .string(aeroway))]
                if let ref = t["ref"] { attributes.append(("ref", .string(ref))) }
                result.append(SchemaFeature(layer: .aeroway, minimumZoom: 10, attributes: attributes))
            }
            if t["building"] != nil || t["building:part"] != nil, t["building"] != "no" {
                result.append(SchemaFeature(layer: .building, minimumZoom: 13, attributes: buildingAttributes(t)))
            }
            if let place = t["place"], ["island", "islet"].contains(place), !names.isEmpty {
                result.append(SchemaFeature(layer: .place, minimumZoom: place == "island" ? 8 : 12, placement: .labelPoint,
                                            attributes: [("class", .string("island")), ("rank", .int(7))] + names))
            }
            if !names.isEmpty, let poi = poi(t) {
                // Named areas become POIs at their label point.
                result.append(SchemaFeature(layer: .poi, minimumZoom: poi.minimumZoom, placement: .labelPoint,
                                            attributes: poi.attributes + names))
            }
            if t["highway"] == "pedestrian" || t["highway"] == "footway" {
                result.append(SchemaFeature(layer: .transportation, minimumZoom: 13,
                                            attributes: [("class", .string("path")), ("subclass", .string(t["highway"]!))]))
            }
        case .line:
            if let road = transportation(t) {
                result.append(road)
                if !names.isEmpty || t["ref"] != nil {
                    var attributes: [(key: String, value: TileValue)] = names
                    if let ref = t["ref"] {
                        attributes.append(("ref", .string(ref)))
                        attributes.append(("ref_length", .int(Int64(ref.count))))
                    }
                    attributes += road.attributes.filter { ["class", "subclass", "brunnel", "layer"].contains($0.key) }
                    result.append(SchemaFeature(layer: .transportationName, minimumZoom: max(road.minimumZoom, 8), attributes: attributes))
                }
            }
            if let waterway = t["waterway"], ["stream", "river", "canal", "drain", "ditch"].contains(waterway) {
                var attributes: [(key: String, value: TileValue)] = [("class", .string(waterway))]
                if t["intermittent"] == "yes" { attributes.append(("intermittent", .int(1))) }
                if let brunnel = brunnel(t) { attributes.append(("brunnel", .string(brunnel))) }
                result.append(SchemaFeature(layer: .waterway, minimumZoom: waterway == "river" ? 9 : (waterway == "canal" ? 12 : 13),
                                            attributes: attributes + names))
            }
            if let aeroway = t["aeroway"], aeroway == "runway" || aeroway == "taxiway" {
                var attributes: [(key: String, value: TileValue)] = [("class", .string(aeroway))]
                if let ref = t["ref"] { attributes.append(("ref", .string(ref))) }
                result.append(SchemaFeature(layer: .aeroway, minimumZoom: aeroway == "runway" ? 10 : 13, attributes: attributes))
            }
        case .point:
            if let place = t["place"], let rank = placeRank[place], !names.isEmpty {
                var attributes: [(key: String, value: TileValue)] = [("class", .string(place == "islet" ? "island" : place)), ("rank", .int(Int64(rank.rank)))]
                if let capital = t["capital"] {
                    if capital == "yes" { attributes.append(("capital", .int(2))) } else if let level = Int64(capital) { attributes.append(("capital", .int(level))) }
                }
                if place == "country", let iso = t["country_code"] ?? t["ISO3166-1:alpha2"] ?? t["ISO3166-1"] {
                    attributes.append(("iso_a2", .string(iso.uppercased())))
                }
                result.append(SchemaFeature(layer: .place, minimumZoom: rank.minimumZoom, attributes: attributes + names))
            }
            if let natural = t["natural"], ["peak", "volcano", "saddle"].contains(natural) {
                var attributes: [(key: String, value: TileValue)] = [("class", .string(natural))]
                if let ele = t["ele"].flatMap(parseMetres) {
                    attributes.append(("ele", .int(Int64(ele.rounded()))))
                    attributes.append(("ele_ft", .int(Int64((ele / 0.3048).rounded()))))
                }
                attributes.append(("rank", .int(names.isEmpty ? 10 : 1)))
                result.append(SchemaFeature(layer: .mountainPeak, minimumZoom: 7, attributes: attributes + names))
            }
            if let poi = poi(t), !names.isEmpty || poi.namelessAllowed {
                result.append(SchemaFeature(layer: .poi, minimumZoom: poi.minimumZoom, attributes: poi.attributes + names))
            }
        }
        if let number = t["addr:housenumber"], kind != .line {
            result.append(SchemaFeature(layer: .housenumber, minimumZoom: 14, placement: kind == .area ? .labelPoint : .geometry,
                                        attributes: [("housenumber", .string(number))]))
        }
        return result
    }

    /// Features for a boundary relation's member ways (type=boundary, boundary=administrative).
    public func boundaryFeature(relationTags tags: OSMTags, maritime: Bool) -> SchemaFeature? {
        guard tags.value(for: "boundary") == "administrative", let level = tags.value(for: "admin_level").flatMap(Int.init),
              (2...10).contains(level) else { return nil }
        var attributes: [(key: String, value: TileValue)] = [("admin_level", .int(Int64(level)))]
        if tags.value(for: "disputed") == "yes" { attributes.append(("disputed", .int(1))) }
        attributes.append(("maritime", .int(maritime ? 1 : 0)))
        let minimumZoom = level <= 2 ? 0 : (level <= 4 ? 3 : (level <= 6 ? 9 : 11))
        return SchemaFeature(layer: .boundary, minimumZoom: minimumZoom, attributes: attributes)
    }

    // MARK: - Names

    /// `name`, its language variants and every `name:xx` tag, in a stable order.
    func nameAttributes(_ t: TagLookup) -> [(key: String, value: TileValue)] {
        guard let name = t["name"] ?? t["name:en"] else { return [] }
        let latin = isLatin(name)
        var result: [(key: String, value: TileValue)] = [
            ("name", .string(name)),
            ("name_en", .string(t["name:en"] ?? name)),
            ("name_de", .string(t["name:de"] ?? name)),
            ("name_int", .string(t["name:int"] ?? t["name:en"] ?? name)),
        ]
        if latin {
            result.append(("name:latin", .string(name)))
        } else {
            if let english = t["name:en"] { result.append(("name:latin", .string(english))) }
            result.append(("name:nonlatin", .string(name)))
        }
        for key in Set(t.keys.filter { $0.hasPrefix("name:") }).sorted() where key != "name:latin" && key != "name:nonlatin" {
            let language = key.dropFirst(5)
            // Language codes only (name:en, name:zh-Hant), not name:etymology:wikidata and the like.
            guard (2...8).contains(language.count), language.allSatisfy({ $0.isLetter || $0 == "-" || $0 == "_" }) else { continue }
            result.append((key, .string(t[key]!)))
        }
        return result
    }

    /// Whether every letter of the name is in the Latin script (Basic Latin through Latin Extended).
    func isLatin(_ name: String) -> Bool {
        name.unicodeScalars.allSatisfy { scalar in
            !scalar.properties.isAlphabetic || scalar.value < 0x0250 || (0x1E00...0x1EFF).contains(scalar.value)
        }
    }

    // MARK: - Classes

    func waterClass(_ t: TagLookup) -> String? {
        if t["leisure"] == "swimming_pool" { return "swimming_pool" }
        if t["waterway"] == "dock" { return "dock" }
        if t["waterway"] == "riverbank" || t["water"] == "river" || t["water"] == "canal" { return "river" }
        if t["natural"] == "water" || t["landuse"] == "reservoir" || t["landuse"] == "basin" {
            return ["pond", "basin", "wastewater"].contains(t["water"] ?? "") ? "pond" : "lake"
        }
        if t["natural"] == "bay" { return "ocean" }
        return nil
    }

    func landcoverClass(_ t: TagLookup) -> (String, String)? {
        let table: [(String, String, String)] = [
            ("landuse", "farmland", "farmland"), ("landuse", "farm", "farmland"), ("landuse", "orchard", "farmland"),
            ("landuse", "vineyard", "farmland"), ("landuse", "allotments", "farmland"),
            ("natural", "glacier", "ice"), ("natural", "wood", "wood"), ("landuse", "forest", "wood"),
            ("natural", "bare_rock", "rock"), ("natural", "scree", "rock"), ("natural", "shingle", "rock"),
            ("natural", "grassland", "grass"), ("natural", "heath", "grass"), ("natural", "scrub", "grass"),
            ("landuse", "grass", "grass"), ("landuse", "meadow", "grass"), ("landuse", "village_green", "grass"),
            ("landuse", "recreation_ground", "grass"), ("leisure", "golf_course", "grass"), ("leisure", "garden", "grass"),
            ("natural", "wetland", "wetland"), ("natural", "sand", "sand"), ("natural", "beach", "sand"),
        ]
        for (key, value, cls) in table where t[key] == value { return (cls, value) }
        return nil
    }

    func landuseClass(_ t: TagLookup) -> String? {
        if let landuse = t["landuse"], ["railway", "cemetery", "military", "residential", "commercial", "industrial", "garages",
                                        "retail", "quarry"].contains(landuse) { return landuse }
        if let amenity = t["amenity"], ["bus_station", "school", "university", "kindergarten", "college", "library", "hospital",
                                        "grave_yard"].contains(amenity) { return amenity == "grave_yard" ? "cemetery" : amenity }
        if let leisure = t["leisure"], ["stadium", "pitch", "playground", "track"].contains(leisure) { return leisure }
        if let tourism = t["tourism"], ["theme_park", "zoo"].contains(tourism) { return tourism }
        if let place = t["place"], ["suburb", "quarter", "neighbourhood"].contains(place) { return place }
        if t["waterway"] == "dam" { return "dam" }
        return nil
    }

    func parkClass(_ t: TagLookup) -> String? {
        if t["boundary"] == "national_park" { return "national_park" }
        if t["leisure"] == "nature_reserve" { return "nature_reserve" }
        if t["boundary"] == "protected_area" { return "protected_area" }
        if t["leisure"] == "park" { return "park" }
        return nil
    }

    func brunnel(_ t: TagLookup) -> String? {
        if let bridge = t["bridge"], bridge != "no" { return "bridge" }
        if let tunnel = t["tunnel"], tunnel != "no" { return "tunnel" }
        if t["ford"] == "yes" { return "ford" }
        return nil
    }

    func buildingAttributes(_ t: TagLookup) -> [(key: String, value: TileValue)] {
        let levelHeight = 3.66
        let height = t["height"].flatMap(parseMetres) ?? t["building:levels"].flatMap(Double.init).map { $0 * levelHeight } ?? 5
        let minHeight = t["min_height"].flatMap(parseMetres) ?? t["building:min_level"].flatMap(Double.init).map { $0 * levelHeight } ?? 0
        var attributes: [(key: String, value: TileValue)] = [
            ("render_height", .int(Int64(max(height, 0).rounded()))),
            ("render_min_height", .int(Int64(max(min(minHeight, height), 0).rounded()))),
        ]
        if let colour = t["building:colour"] { attributes.append(("colour", .string(colour))) }
        if t["building:part"] == nil, t["building"] != nil, t["has_parts"] == "yes" { attributes.append(("hide_3d", .bool(true))) }
        return attributes
    }

    /// A length in metres from an OSM value such as "12", "12.5 m" or "40'"; nil if unreadable.
    func parseMetres(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let metres = Double(trimmed) { return metres.isFinite ? metres : nil }
        if trimmed.hasSuffix("m"), let metres = Double(trimmed.dropLast().trimmingCharacters(in: .whitespaces)) { return metres }
        if trimmed.hasSuffix("'"), let feet = Double(trimmed.dropLast()) { return feet * 0.3048 }
        return nil
    }

    // MARK: - Transportation

    func transportation(_ t: TagLookup) -> SchemaFeature? {
        var cls: String
        var subclass: String?
        var minimumZoom: Int
        if let highway = t["highway"] {
            let base = highway.hasSuffix("_link") ? String(highway.dropLast(5)) : highway
            switch base {
            case "motorway": (cls, minimumZoom) = ("motorway", 4)
            case "trunk": (cls, minimumZoom) = ("trunk", 5)
            case "primary": (cls, minimumZoom) = ("primary", 7)
            case "secondary": (cls, minimumZoom) = ("secondary", 9)
            case "tertiary": (cls, minimumZoom) = ("tertiary", 11)
            case "unclassified", "residential", "living_street", "road": (cls, minimumZoom) = ("minor", 13)
            case "service": (cls, minimumZoom) = ("service", 13)
            case "track": (cls, minimumZoom) = ("track", 13)
            case "pedestrian", "footway", "path", "cycleway", "bridleway", "steps", "corridor":
                (cls, minimumZoom) = ("path", 13)
                subclass = highway
            case "raceway": (cls, minimumZoom) = ("raceway", 12)
            case "busway": (cls, minimumZoom) = ("busway", 12)
            case "construction": (cls, minimumZoom) = ("minor_construction", 14)
            default: return nil
            }
            if highway.hasSuffix("_link"), cls != "minor" { minimumZoom = max(minimumZoom, 9) }
        } else if let railway = t["railway"] {
            switch railway {
            case "rail":
                (cls, minimumZoom) = (t["service"] == nil ? "rail" : "rail", t["service"] == nil ? 9 : 13)
            case "narrow_gauge", "preserved", "funicular": (cls, minimumZoom) = ("rail", 12)
            case "subway", "light_rail", "monorail", "tram": (cls, minimumZoom) = ("transit", 11)
            default: return nil
            }
            subclass = railway
        } else if let aerialway = t["aerialway"], ["cable_car", "gondola", "chair_lift", "drag_lift", "mixed_lift", "t-bar", "j-bar", "platter", "rope_tow"].contains(aerialway) {
            (cls, minimumZoom) = ("aerialway", 12)
            subclass = aerialway
        } else if t["route"] == "ferry" {
            (cls, minimumZoom) = ("ferry", 7)
        } else {
            return nil
        }
        var attributes: [(key: String, value: TileValue)] = [("class", .string(cls))]
        if let subclass { attributes.append(("subclass", .string(subclass))) }
        if let brunnel = brunnel(t) { attributes.append(("brunnel", .string(brunnel))) }
        switch t["oneway"] {
        case "yes", "1", "true": attributes.append(("oneway", .int(1)))
        case "-1", "reverse": attributes.append(("oneway", .int(-1)))
        default: if t["junction"] == "roundabout" { attributes.append(("oneway", .int(1))) }
        }
        if t["highway"]?.hasSuffix("_link") == true { attributes.append(("ramp", .int(1))) }
        if let service = t["service"], cls == "service" || cls == "rail" { attributes.append(("service", .string(service))) }
        if let layer = t["layer"].flatMap(Int64.init), layer != 0 { attributes.append(("layer", .int(layer))) }
        if let surface = t["surface"] {
            let paved = ["paved", "asphalt", "concrete", "paving_stones", "sett", "cobblestone", "metal", "wood", "concrete:plates"]
            attributes.append(("surface", .string(paved.contains(surface) ? "paved" : "unpaved")))
        }
        if t["access"] == "no" || t["access"] == "private" { attributes.append(("access", .string("no"))) }
        return SchemaFeature(layer: .transportation, minimumZoom: minimumZoom, attributes: attributes)
    }

    // MARK: - Places and POIs

    let placeRank: [String: (rank: Int, minimumZoom: Int)] = [
        "country": (1, 0), "state": (2, 4), "province": (2, 4), "city": (3, 4), "town": (4, 7), "village": (5, 10),
        "hamlet": (6, 12), "suburb": (5, 11), "quarter": (6, 13), "neighbourhood": (7, 13), "isolated_dwelling": (8, 14),
        "island": (5, 8), "islet": (7, 12),
    ]

    struct POIKind {
        var attributes: [(key: String, value: TileValue)]
        var minimumZoom: Int
        var namelessAllowed: Bool
    }

    /// The poi layer's class and subclass (OpenMapTiles groups subclasses into classes).
    func poi(_ t: TagLookup) -> POIKind? {
        for key in Self.poiKeys {
            guard let value = t[key] else { continue }
            guard let (cls, rank) = poiClass(key: key, value: value) else { continue }
            let attributes: [(key: String, value: TileValue)] = [("class", .string(cls)), ("subclass", .string(value)),
                                                                 ("rank", .int(Int64(rank)))]
            var extra = attributes
            if let level = t["level"].flatMap(Int64.init) { extra.append(("level", .int(level))) }
            if let layer = t["layer"].flatMap(Int64.init) { extra.append(("layer", .int(layer))) }
            if t["indoor"] == "yes" { extra.append(("indoor", .int(1))) }
            let transit = cls == "bus" || cls == "railway" || cls == "ferry_terminal"
            return POIKind(attributes: extra, minimumZoom: rank <= 10 ? 12 : (rank <= 20 ? 13 : 14), namelessAllowed: transit)
        }
        return nil
    }

    /// POI class and rank by OSM key and value; `poiClassesForAnyValue` where a key alone decides.
    /// A table rather than a switch: every tagged element is looked up, and a switch over string
    /// pairs compares them one by one.
    static let poiClasses: [String: [String: (String, Int)]] = [
        "railway": [
            "station": ("railway", 5), "halt": ("railway", 5), "tram_stop": ("railway", 5), "subway_entrance": ("railway", 5)],
        "amenity": [
            "bus_station": ("bus", 15), "ferry_terminal": ("ferry_terminal", 10), "hospital": ("hospital", 8), "townhall": ("town_hall", 8),
            "university": ("college", 10), "college": ("college", 10), "school": ("school", 15), "kindergarten": ("school", 15),
            "arts_centre": ("museum", 10), "restaurant": ("restaurant", 20), "food_court": ("restaurant", 20), "fast_food": ("fast_food", 22),
            "cafe": ("cafe", 22), "bar": ("bar", 22), "pub": ("bar", 22), "biergarten": ("bar", 22),
            "nightclub": ("bar", 22), "ice_cream": ("ice_cream", 25), "pharmacy": ("pharmacy", 20), "bank": ("bank", 22),
            "atm": ("bank", 22), "bureau_de_change": ("bank", 22), "post_office": ("post", 22), "post_box": ("post", 22),
            "police": ("police", 15), "fire_station": ("fire_station", 18), "library": ("library", 15), "bookcase": ("library", 15),
            "theatre": ("theatre", 15), "cinema": ("theatre", 15), "place_of_worship": ("place_of_worship", 18), "parking": ("parking", 30),
            "bicycle_parking": ("parking", 30), "motorcycle_parking": ("parking", 30), "fuel": ("fuel", 25), "charging_station": ("fuel", 25),
            "toilets": ("toilets", 30), "drinking_water": ("drinking_water", 30), "fountain": ("drinking_water", 30), "doctors": ("doctors", 20),
            "dentist": ("doctors", 20), "clinic": ("doctors", 20), "veterinary": ("doctors", 20)],
        "highway": [
            "bus_stop": ("bus", 15)],
        "aerialway": [
            "station": ("aerialway", 15)],
        "office": [
            "government": ("town_hall", 8)],
        "tourism": [
            "museum": ("museum", 10), "gallery": ("museum", 10), "attraction": ("attraction", 12), "viewpoint": ("attraction", 12),
            "hotel": ("lodging", 20), "hostel": ("lodging", 20), "motel": ("lodging", 20), "guest_house": ("lodging", 20),
            "apartment": ("lodging", 20), "chalet": ("lodging", 20), "camp_site": ("lodging", 20), "caravan_site": ("lodging", 20),
            "alpine_hut": ("lodging", 20), "information": ("information", 25)],
        "shop": [
            "chemist": ("pharmacy", 20), "supermarket": ("grocery", 20), "convenience": ("grocery", 20), "greengrocer": ("grocery", 20),
            "grocery": ("grocery", 20), "bakery": ("bakery", 22), "pastry": ("bakery", 22), "confectionery": ("bakery", 22),
            "clothes": ("clothing_store", 25), "shoes": ("clothing_store", 25), "boutique": ("clothing_store", 25), "fashion": ("clothing_store", 25),
            "mall": ("shop", 15), "department_store": ("shop", 15)],
        "leisure": [
            "park": ("park", 12), "garden": ("park", 12), "nature_reserve": ("park", 12), "stadium": ("sports", 20),
            "sports_centre": ("sports", 20), "pitch": ("sports", 20), "fitness_centre": ("sports", 20), "swimming_pool": ("sports", 20),
            "golf_course": ("sports", 20), "marina": ("sports", 20), "playground": ("playground", 20)],
    ]
    static let poiClassesForAnyValue: [String: (String, Int)] = ["historic": ("attraction", 12), "shop": ("shop", 25), "office": ("office", 30)]
    static let poiKeys = ["amenity", "shop", "tourism", "leisure", "historic", "railway", "aerialway", "highway", "office", "sport", "man_made", "waterway", "barrier"]

    func poiClass(key: String, value: String) -> (String, Int)? {
        Self.poiClasses[key]?[value] ?? Self.poiClassesForAnyValue[key]
    }
}

extension TileLayer {
    /// TileJSON's `vector_layers` for these layers (MBTiles metadata `json`, the style's source):
    /// each layer's id, field types and zoom range.
    public static func vectorLayers(maximumZoom: Int = 14) -> [[String: Any]] {
        allCases.map { layer in
            var fields: [String: String] = [:]
            for field in layer.fields { fields[field.name] = field.type.rawValue }
            if layer.hasNames { for field in nameFields { fields[field.name] = field.type.rawValue } }
            return ["id": layer.rawValue, "fields": fields, "minzoom": layer.minimumZoom, "maxzoom": maximumZoom]
        }
    }

    /// The schema as a Markdown table (layer, field, type, meaning): the README's schema section.
    public static var markdownTable: String {
        var lines = ["| layer | field | type | meaning |", "|---|---|---|---|"]
        for layer in allCases {
            var fields = layer.fields
            if layer.hasNames { fields.append(Field(name: "name, name_en, name_de, name_int, name:latin, name:nonlatin, name:xx",
                                                    type: .string, description: "names (see below)")) }
            for (index, field) in fields.enumerated() {
                let description = field.description.replacingOccurrences(of: "|", with: "\\|")
                lines.append("| \(index == 0 ? "`\(layer.rawValue)` (z\(layer.minimumZoom)+)" : "") | `\(field.name)` | \(field.type.rawValue) | \(description) |")
            }
        }
        return lines.joined(separator: "\n")
    }
}

/// An element's tags for the schema's many lookups by key: a linear search, which for the handful
/// of tags an element has beats building a dictionary per element. The first of repeated keys wins.
struct TagLookup {
    let tags: OSMTags

    init(_ tags: OSMTags) { self.tags = tags }

    subscript(key: String) -> String? {
        for tag in tags where tag.key == key { return tag.value }
        return nil
    }

    var keys: [String] { tags.map(\.key) }
}
