import Foundation
import MapFormats
import MapGeometry
import StreetScene

// OpenStreetMap tags → street scene objects: buildings with heights and roofs (the Simple 3D
// Buildings scheme), roads with widths and sidewalks, ground cover, and what stands on the street.
// Rules follow the wiki's definitions, for every country; where a tag is missing, a default by
// kind stands in (a house is lower than a block of flats), so every building has a height.

enum SceneTagging {
    /// Metres per level when only `building:levels` (or `roof:levels`) is tagged.
    static let levelHeight = 3.0
    /// Taller than any building: a height or level count beyond it is a mistake (or hostile), and
    /// is treated as untagged rather than drawn a kilometre high.
    static let maximumHeight = 1000.0
    static let maximumLevels = 250
    /// Metres between the trees of a `natural=tree_row`.
    static let treeRowSpacing = 8.0

    // MARK: Numbers

    /// A length in metres from a tag value: "12", "12 m", "12.5m", "12,5", "40'", "40 ft",
    /// "12'6\"", "350 cm", "0.2 km". Nil for anything else, and for non-finite results.
    static func metres(_ value: String?) -> Double? {
        guard var text = value?.trimmingCharacters(in: .whitespaces).lowercased(), !text.isEmpty else { return nil }
        // Feet and inches: 12'6" (or 12' 6").
        if let foot = text.firstIndex(of: "'") {
            guard let feet = Double(text[..<foot].trimmingCharacters(in: .whitespaces)) else { return nil }
            var inches = 0.0
            let rest = text[text.index(after: foot)...].trimmingCharacters(in: .whitespaces)
            if !rest.isEmpty {
                guard rest.hasSuffix("\""), let i = Double(rest.dropLast().trimmingCharacters(in: .whitespaces)) else { return nil }
                inches = i
            }
            return finite(feet * 0.3048 + inches * 0.0254)
        }
        text = text.replacingOccurrences(of: ",", with: ".")
        let units: [(String, Double)] = [("metres", 1), ("meters", 1), ("metre", 1), ("meter", 1), ("km", 1000), ("cm", 0.01),
                                         ("mm", 0.001), ("m", 1), ("feet", 0.3048), ("foot", 0.3048), ("ft", 0.3048),
                                         ("\"", 0.0254), ("in", 0.0254)]
        var factor = 1.0
        for (unit, f) in units where text.hasSuffix(unit) {
            text = String(text.dropLast(unit.count)).trimmingCharacters(in: .whitespaces)
            factor = f
            break
        }
        guard let number = Double(text) else { return nil }
        return finite(number * factor)
    }

    private static func finite(_ value: Double) -> Double? { value.isFinite ? value : nil }

    /// A non-negative count ("3", "3.5" rounds down; "-1", "a few" are nil).
    static func count(_ value: String?) -> Int? {
        guard let text = value?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        if let n = Int(text) { return n >= 0 ? n : nil }
        guard let d = Double(text.replacingOccurrences(of: ",", with: ".")), d.isFinite, d >= 0, d < 10_000 else { return nil }
        return Int(d)
    }

    /// `roof:direction`: degrees clockwise from north, or a compass point (N, NNE, NE, … NNW).
    static func direction(_ value: String?) -> Double? {
        guard let text = value?.trimmingCharacters(in: .whitespaces).uppercased(), !text.isEmpty else { return nil }
        let points = ["N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW"]
        if let i = points.firstIndex(of: text) { return Double(i) * 22.5 }
        guard let degrees = Double(text), degrees.isFinite else { return nil }
        let d = degrees.truncatingRemainder(dividingBy: 360)
        return d < 0 ? d + 360 : d
    }

    /// `roof:shape` → the shapes the renderer builds; unknown shapes are flat.
    static func roofShape(_ value: String?) -> RoofShape {
        switch value?.lowercased() {
        case "gabled", "saltbox", "double_saltbox", "quadruple_saltbox": .gabled
        case "hipped", "side_hipped": .hipped
        case "half-hipped", "half_hipped", "halfhipped", "hipped-and-gabled": .halfHipped
        case "pyramidal": .pyramidal
        case "skillion", "lean_to": .skillion
        case "dome": .dome
        case "onion": .onion
        case "round", "crosspitched": .round
        case "gambrel": .gambrel
        case "mansard": .mansard
        case "cone", "conical": .cone
        default: .flat
        }
    }

    /// The roof's height when neither `roof:height` nor `roof:levels` says.
    static func defaultRoofHeight(_ shape: RoofShape) -> Double {
        switch shape {
        case .flat: 0
        case .skillion: 2
        case .dome, .onion, .cone: 5
        default: 3
        }
    }

    /// A building's height by its kind, when no height or levels are tagged.
    static func defaultHeight(kind: String) -> Double {
        switch kind {
        case "house", "detached", "semidetached_house", "terrace", "bungalow", "farm", "residential_house": 6
        case "apartments", "residential", "dormitory", "hotel", "office", "hospital": 12
        case "church", "cathedral", "mosque", "synagogue", "temple": 15
        case "chapel", "school", "retail", "supermarket", "commercial", "civic", "public", "train_station": 8
        case "garage", "garages", "shed", "carport", "hut", "kiosk", "cabin", "toilets", "service", "roof", "shelter": 3
        default: 8
        }
    }

    // MARK: Buildings

    /// True for a building or building part (the tags of a closed way or a multipolygon).
    static func isBuilding(_ tags: OSMTags) -> Bool { buildingKind(tags) != nil }

    /// The `building` value (or the `building:part` one, for a part), nil for neither or `no`.
    static func buildingKind(_ tags: OSMTags) -> (kind: String, isPart: Bool)? {
        var building: String?, part: String?
        for (key, value) in tags {
            if key == "building" { building = value } else if key == "building:part" { part = value }
        }
        if let building, building != "no" { return (building, false) }
        if let part, part != "no" { return (part, true) }
        return nil
    }

    /// A building or part with its heights and roof read from Simple 3D Buildings tags.
    static func building(_ tags: OSMTags, rings: [[CLLocationCoordinate2D]]) -> SceneBuilding? {
        guard let (kind, isPart) = buildingKind(tags), let outer = rings.first, outer.count >= 3 else { return nil }
        let t = Dictionary(tags.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        let levels = count(t["building:levels"]).flatMap { $0 <= maximumLevels ? $0 : nil }
        let roofLevels = count(t["roof:levels"]).flatMap { $0 <= maximumLevels ? $0 : nil }
        let shape = roofShape(t["roof:shape"])
        // A flat roof with no height has none; levels under a tagged roof count the roof's space.
        var roofHeight = metres(t["roof:height"]).flatMap { $0 <= maximumHeight ? max(0, $0) : nil }
            ?? roofLevels.map { Double($0) * levelHeight }
            ?? defaultRoofHeight(shape)
        var minHeight = max(0, metres(t["min_height"]).flatMap { $0 <= maximumHeight ? $0 : nil }
                                  ?? count(t["building:min_level"]).flatMap { $0 <= maximumLevels ? Double($0) * levelHeight : nil } ?? 0)
        var height: Double
        if let tagged = metres(t["height"]) ?? metres(t["building:height"]), tagged > 0, tagged <= maximumHeight {
            height = tagged
        } else if let levels {
            // `building:levels` counts the floors under the roof: the roof (its levels, its
            // tagged height, or its shape's default) stands on top of them.
            height = Double(levels) * levelHeight + roofHeight
        } else {
            height = max(defaultHeight(kind: kind), roofHeight + levelHeight)
        }
        if kind == "roof", t["min_height"] == nil, t["building:min_level"] == nil { minHeight = max(0, height - 1) }
        // Walls never end below their base, and a roof never reaches below the walls' bottom.
        if minHeight >= height { minHeight = 0 }
        roofHeight = min(roofHeight, height - minHeight)
        return SceneBuilding(rings: rings, height: height, minHeight: minHeight, levels: levels, roofShape: shape,
                             roofHeight: roofHeight, roofDirection: direction(t["roof:direction"]),
                             roofAcross: t["roof:orientation"] == "across",
                             wallColour: (t["building:colour"] ?? t["colour"]).flatMap(SceneColours.parse),
                             roofColour: t["roof:colour"].flatMap(SceneColours.parse),
                             wallMaterial: t["building:material"], roofMaterial: t["roof:material"],
                             kind: kind, isPart: isPart, name: t["name"], houseNumber: t["addr:housenumber"])
    }

    // MARK: Roads

    /// A road, path or railway line, or nil for a way that is none (or is mapped as an area).
    static func road(_ tags: OSMTags, line: [CLLocationCoordinate2D]) -> SceneRoad? {
        // Most ways handed here are not roads: a loop over the keys before building a dictionary.
        guard line.count >= 2, tags.contains(where: { $0.key == "highway" || $0.key == "railway" }) else { return nil }
        let t = Dictionary(tags.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        let railway = t["railway"]
        var kind: SceneRoadKind?
        if let highway = t["highway"] {
            if t["area"] == "yes" { return nil }
            kind = roadKind(highway)
        }
        var tram = t["embedded_rails"]?.split(separator: ";").contains { $0.trimmingCharacters(in: .whitespaces) == "tram" } ?? false
        if railway == "tram" {
            tram = true
            if kind == nil { kind = .tram }
        } else if kind == nil, let railway, ["rail", "light_rail", "narrow_gauge"].contains(railway) {
            kind = .railway
        }
        guard let kind else { return nil }
        let oneway = ["yes", "true", "1", "-1"].contains(t["oneway"] ?? "")
            || t["oneway"] == nil && (t["junction"] == "roundabout" || t["highway"] == "motorway")
        let layer = t["layer"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.map { max(-10, min(10, $0)) } ?? 0
        return SceneRoad(line: line, kind: kind, width: metres(t["width"]).flatMap { $0 > 0 && $0 < 200 ? $0 : nil },
                         lanes: count(t["lanes"]).flatMap { $0 < 100 ? $0 : nil }, sidewalks: sidewalks(t), isOneway: oneway,
                         layer: layer, isBridge: (t["bridge"] ?? "no") != "no", isTunnel: (t["tunnel"] ?? "no") != "no",
                         name: t["name"], hasTramRails: tram)
    }

    static func roadKind(_ highway: String) -> SceneRoadKind? {
        switch highway {
        case "motorway", "motorway_link": .motorway
        case "trunk", "trunk_link": .trunk
        case "primary", "primary_link": .primary
        case "secondary", "secondary_link": .secondary
        case "tertiary", "tertiary_link": .tertiary
        case "residential": .residential
        case "unclassified", "road", "busway": .unclassified
        case "service": .service
        case "living_street": .livingStreet
        case "pedestrian": .pedestrian
        case "footway", "sidewalk", "crossing", "corridor": .footway
        case "path", "bridleway": .path
        case "cycleway": .cycleway
        case "steps": .steps
        case "track": .track
        default: nil
        }
    }

    /// The sides with a sidewalk drawn on the road: `sidewalk=both|left|right`, or the per-side
    /// keys. `separate` (a footway mapped beside it, drawn on its own) and `no` give none.
    static func sidewalks(_ t: [String: String]) -> SidewalkSides {
        var sides: SidewalkSides = []
        switch t["sidewalk"] {
        case "both", "yes": sides = .both
        case "left": sides = .left
        case "right": sides = .right
        default: break
        }
        if t["sidewalk:both"] == "yes" { sides = .both }
        if t["sidewalk:left"] == "yes" { sides.insert(.left) }
        if t["sidewalk:right"] == "yes" { sides.insert(.right) }
        if t["sidewalk:left"] == "no" || t["sidewalk:left"] == "separate" { sides.remove(.left) }
        if t["sidewalk:right"] == "no" || t["sidewalk:right"] == "separate" { sides.remove(.right) }
        return sides
    }

    // MARK: Areas

    /// The ground cover a closed way or multipolygon with `tags` shows, or nil.
    static func areaKind(_ tags: OSMTags) -> SceneAreaKind? {
        var result: SceneAreaKind?
        var isArea = false, isPedestrian = false
        for (key, value) in tags {
            var kind: SceneAreaKind?
            switch (key, value) {
            case ("leisure", "park"), ("leisure", "common"): kind = .park
            case ("leisure", "garden"): kind = .garden
            case ("leisure", "pitch"): kind = .pitch
            case ("leisure", "playground"): kind = .playground
            case ("landuse", "grass"), ("landuse", "meadow"), ("landuse", "village_green"), ("natural", "grassland"): kind = .grass
            case ("landuse", "forest"), ("natural", "wood"): kind = .wood
            case ("landuse", "farmland"), ("landuse", "orchard"), ("landuse", "vineyard"): kind = .farmland
            case ("landuse", "cemetery"), ("amenity", "grave_yard"): kind = .cemetery
            case ("landuse", "railway"): kind = .railway
            case ("natural", "scrub"), ("natural", "heath"): kind = .scrub
            case ("natural", "water"), ("waterway", "riverbank"), ("landuse", "basin"), ("landuse", "reservoir"): kind = .water
            case ("water", _): kind = .water
            case ("natural", "beach"): kind = .beach
            case ("natural", "sand"): kind = .sand
            case ("amenity", "parking"): kind = .parking
            case ("place", "square"): kind = .pedestrian
            case ("highway", "pedestrian"): isPedestrian = true
            case ("area", "yes"): isArea = true
            default: break
            }
            // The first tag that names a cover wins, so the result does not depend on later tags.
            if result == nil { result = kind }
        }
        if result == nil, isPedestrian, isArea { result = .pedestrian }
        // Underground and multi-storey car parks are not ground cover.
        if result == .parking, let parking = tags.value(for: "parking"), parking != "surface" { return nil }
        return result
    }

    // MARK: Points

    /// Amenities that are street furniture (their own kinds, or nothing a sign is made for).
    static let furnitureAmenities: Set<String> = [
        "bench", "waste_basket", "fountain", "post_box", "parking", "parking_space", "parking_entrance", "bicycle_parking",
        "motorcycle_parking", "telephone", "vending_machine", "recycling", "drinking_water", "toilets", "shelter",
        "waste_disposal", "clock", "grit_bin", "bicycle_rental", "charging_station", "atm", "taxi", "water_point", "loading_dock",
    ]
    static let businessTourism: Set<String> = [
        "hotel", "motel", "hostel", "guest_house", "apartment", "museum", "gallery", "attraction", "zoo", "theme_park", "aquarium",
    ]

    /// The tag that makes a named feature a business with a sign (`shop=bakery`), or nil.
    static func businessCategory(_ tags: OSMTags) -> String? {
        // Loops, not `value(for:)`: this runs for every tagged node, and the generic lookup from
        // MapFormats is not specialised across the module boundary.
        guard tags.contains(where: { $0.key == "name" }) else { return nil }
        for (key, value) in tags {
            switch key {
            case "shop" where value != "no" && value != "vacant": return "shop=\(value)"
            case "amenity" where !furnitureAmenities.contains(value): return "amenity=\(value)"
            case "office" where value != "no": return "office=\(value)"
            case "tourism" where businessTourism.contains(value): return "tourism=\(value)"
            case "craft" where value != "no": return "craft=\(value)"
            default: continue
            }
        }
        return nil
    }

    /// What a tagged node stands for: street furniture, a tree, a sign, a house number (several
    /// when a node is several things, such as a shop with an address).
    static func points(_ tags: OSMTags, at coordinate: CLLocationCoordinate2D) -> [ScenePoint] {
        var points: [ScenePoint] = []
        var kind: ScenePointKind?
        var name: String?, number: String?, height: String?, busStop = false, platform = false, bus = false, entrance = false
        for (key, value) in tags {
            switch (key, value) {
            case ("natural", "tree"): kind = .tree
            case ("highway", "street_lamp"): kind = .streetLamp
            case ("amenity", "bench"): kind = .bench
            case ("highway", "bus_stop"): busStop = true
            case ("public_transport", "platform"): platform = true
            case ("bus", "yes"): bus = true
            case ("amenity", "waste_basket"): kind = .wasteBasket
            case ("barrier", "bollard"): kind = .bollard
            case ("amenity", "fountain"): kind = .fountain
            case ("amenity", "post_box"): kind = .postBox
            case ("highway", "crossing"): kind = .crossing
            case ("entrance", let v) where v != "no": entrance = true
            case ("name", let v): name = v
            case ("addr:housenumber", let v): number = v
            case ("height", let v): height = v
            default: break
            }
        }
        if busStop || platform && bus { kind = .busStop }
        if kind == nil, entrance { kind = .entrance }
        if let kind {
            points.append(ScenePoint(coordinate: coordinate, kind: kind, name: kind == .busStop ? name : nil,
                                     height: kind == .tree ? metres(height).flatMap { $0 > 0 ? $0 : nil } : nil))
        }
        if let category = businessCategory(tags) {
            points.append(ScenePoint(coordinate: coordinate, kind: .business, name: name, category: category))
        }
        if let number {
            points.append(ScenePoint(coordinate: coordinate, kind: .houseNumber, name: number))
        }
        return points
    }

    /// The points a building or other area carries at its centre: its business sign and its
    /// house number (isFromBuilding: they are the area's, not nodes of their own).
    static func centrePoints(_ tags: OSMTags, at centre: CLLocationCoordinate2D) -> [ScenePoint] {
        var points: [ScenePoint] = []
        if let category = businessCategory(tags) {
            points.append(ScenePoint(coordinate: centre, kind: .business, name: tags.value(for: "name"), category: category,
                                     isFromBuilding: true))
        }
        if isBuilding(tags), let number = tags.value(for: "addr:housenumber") {
            points.append(ScenePoint(coordinate: centre, kind: .houseNumber, name: number, isFromBuilding: true))
        }
        return points
    }

    /// The trees of a `natural=tree_row`: evenly spaced along the line about ``treeRowSpacing``
    /// apart, the first and last at its ends (one tree for a line of no length).
    static func treeRow(_ line: [CLLocationCoordinate2D], height: Double? = nil) -> [ScenePoint] {
        guard let first = line.first else { return [] }
        var lengths: [Double] = [0]
        for i in 1..<max(1, line.count) { lengths.append(lengths[i - 1] + MKMapPoint(line[i - 1]).distance(to: MKMapPoint(line[i]))) }
        let total = lengths.last ?? 0
        guard total.isFinite, total > 0.5 else { return [ScenePoint(coordinate: first, kind: .tree, height: height)] }
        let intervals = max(1, min(100_000, Int((total / treeRowSpacing).rounded())))
        let step = total / Double(intervals)
        var trees: [ScenePoint] = []
        var segment = 1
        for k in 0...intervals {
            let distance = min(total, Double(k) * step)
            while segment < line.count - 1 && lengths[segment] < distance { segment += 1 }
            let start = lengths[segment - 1], length = lengths[segment] - start
            let f = length > 0 ? (distance - start) / length : 0
            let a = line[segment - 1], b = line[segment]
            let c = CLLocationCoordinate2D(latitude: a.latitude + (b.latitude - a.latitude) * f,
                                           longitude: a.longitude + (b.longitude - a.longitude) * f)
            trees.append(ScenePoint(coordinate: c, kind: .tree, height: height))
        }
        return trees
    }

    /// A point well inside a ring (its pole of inaccessibility, where a sign reads best), else the
    /// middle of its box.
    static func centre(of rings: [[CLLocationCoordinate2D]]) -> CLLocationCoordinate2D? {
        guard let outer = rings.first, !outer.isEmpty else { return nil }
        let mapRings = rings.map { $0.map(MKMapPoint.init) }
        let bounds = MKMapRect(boundingPoints: mapRings[0])
        let precision = max(bounds.width, bounds.height) / 20
        if precision > 0, let label = labelPoint(polygon: mapRings, precision: precision) { return label.coordinate }
        return MKMapPoint(x: bounds.midX, y: bounds.midY).coordinate
    }
}
