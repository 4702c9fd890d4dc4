import Foundation
import MapFormats
import MapGeometry
import MapSearch

/// A place found in one element, not yet written (streets and interpolations wait for the end).
struct PendingPlace {
    var record: PlaceRecord
    var searchNames: [String]
    var geometry: PlaceGeometry?
}

/// A named way of a street, merged with its namesakes nearby at the end of the import.
struct StreetPiece {
    var id: Int64
    var name: String
    var tags: OSMTags
    var points: [CLLocationCoordinate2D]
    var importance: Double
    var osmClass: String
}

/// An `addr:interpolation` way, expanded into numbers once every address node is known.
struct InterpolationWay {
    var id: Int64
    var scheme: String
    var nodeRefs: [Int64]
    var points: [CLLocationCoordinate2D?]
    var tags: OSMTags
}

/// The places of one block: made on any thread, like ``BlockFeatures``.
struct BlockPlaces {
    var places: [PendingPlace] = []
    var streets: [StreetPiece] = []
    var interpolations: [InterpolationWay] = []
    /// Address nodes (id → number, street), for interpolation ways.
    var addressNodes: [(Int64, String, String?)] = []

    init() {}

    init(_ block: OSMPrimitiveBlock, nodes: NodeLocationStore) {
        let columns = block.nodes
        for i in 0..<columns.count {
            let tagRange = columns.tags.range(of: i)
            guard !tagRange.isEmpty else { continue }
            let tags: OSMTags = tagRange.map { (key: block.strings[columns.tags.keys[$0]], value: block.strings[columns.tags.values[$0]]) }
            guard PlaceTagging.mayBePlace(tags) else { continue }
            let location = columns.locations[i]
            let coordinate = CLLocationCoordinate2D(latitude: location.latitude, longitude: location.longitude)
            if let number = tags.value(for: "addr:housenumber") {
                addressNodes.append((columns.ids[i], number, tags.value(for: "addr:street")))
            }
            guard let classification = PlaceTagging.classify(tags, isLine: false) else { continue }
            places.append(PlaceBuilder.place("n\(columns.ids[i])", tags: tags, classification: classification,
                                             coordinate: coordinate, bounds: nil, geometry: nil))
        }
        block.forEachWay { way in
            guard !way.tags.isEmpty else { return }
            // A loop here, not `value(for:)`: this runs for every tagged way, and the generic
            // lookup from MapFormats is not specialised across the module boundary.
            var interpolation: String? = nil
            for (key, value) in way.tags where key == "addr:interpolation" { interpolation = value; break }
            if let scheme = interpolation {
                interpolations.append(InterpolationWay(
                    id: way.id, scheme: scheme, nodeRefs: way.nodeRefs,
                    points: way.nodeRefs.map { nodes.location(of: $0).map { CLLocationCoordinate2D(latitude: $0.latitude, longitude: $0.longitude) } },
                    tags: way.tags))
                return
            }
            guard PlaceTagging.mayBePlace(way.tags) else { return }
            let closed = way.nodeRefs.count >= 4 && way.nodeRefs.first == way.nodeRefs.last
            let isLine = !closed || way.tags.value(for: "highway") != nil && way.tags.value(for: "area") != "yes"
            guard let classification = PlaceTagging.classify(way.tags, isLine: isLine) else { return }
            let points = way.nodeRefs.compactMap { nodes.location(of: $0) }
                .map { CLLocationCoordinate2D(latitude: $0.latitude, longitude: $0.longitude) }
            guard !points.isEmpty else { return }
            if classification.kind == .street, let name = way.tags.value(for: "name") {
                streets.append(StreetPiece(id: way.id, name: name, tags: way.tags, points: points,
                                           importance: classification.importance, osmClass: classification.osmClass))
                return
            }
            let mapPoints = points.map(MKMapPoint.init)
            let bounds = MKMapRect(boundingPoints: mapPoints)
            var coordinate = points[points.count / 2]
            var geometry: PlaceGeometry? = nil
            if closed {
                let precision = max(bounds.width, bounds.height) / 20
                if precision > 0, let label = labelPoint(polygon: [mapPoints], precision: precision) { coordinate = label.coordinate }
                if classification.kind != .address { geometry = PlaceGeometry(shape: .rings, parts: [points]) }
            } else if classification.kind == .physicalFeature {
                geometry = PlaceGeometry(shape: .lines, parts: [points])
            }
            places.append(PlaceBuilder.place("w\(way.id)", tags: way.tags, classification: classification,
                                             coordinate: coordinate, bounds: bounds.isEmpty ? nil : bounds, geometry: geometry))
        }
    }
}

enum PlaceBuilder {
    static func place(_ id: String, tags: OSMTags, classification: PlaceTagging.Classification,
                      coordinate: CLLocationCoordinate2D, bounds: MKMapRect?, geometry: PlaceGeometry?) -> PendingPlace {
        let name = tags.value(for: "name")
        var record = PlaceRecord(id: id, kind: classification.kind, name: name, names: PlaceTagging.names(tags),
                                 coordinate: coordinate, bounds: bounds, category: classification.category,
                                 osmClass: classification.osmClass, address: PlaceTagging.address(tags),
                                 phone: tags.value(for: "phone") ?? tags.value(for: "contact:phone"),
                                 website: tags.value(for: "website") ?? tags.value(for: "contact:website") ?? tags.value(for: "url"),
                                 timeZone: tags.value(for: "timezone"), importance: classification.importance)
        if record.kind == .address { record.name = nil }
        return PendingPlace(record: record, searchNames: PlaceTagging.searchNames(tags) + PlaceTagging.searchNumbers(tags), geometry: geometry)
    }
}

/// Collects places during the import and writes `places.sqlite` at the end: streets merged per
/// name, interpolation lines expanded into numbers, administrative areas from boundary relations
/// (which address field each fills depends on the country, see ``AddressLevels``),
/// and localities from `place=*` nodes where no boundary gives one.
final class PlaceCollector {
    let url: URL
    private let writer: PlaceIndexWriter
    private var streets: [StreetPiece] = []
    private var interpolations: [InterpolationWay] = []
    private var addressNodes: [Int64: (number: String, street: String?)] = [:]
    private var localityPoints: [(id: String, name: String, place: String, coordinate: CLLocationCoordinate2D)] = []
    private var countries: [(code: String?, timeZone: String?, geometry: PlaceGeometry, box: (Double, Double, Double, Double))] = []
    private(set) var count = 0
    /// The extract's box (the PBF header's), for closing boundaries the extract cut open.
    var extractBox: (west: Double, south: Double, east: Double, north: Double)?
    /// Postal code → sum of its places' coordinates and their count, for one place per code.
    private var postalCodes: [String: (latitude: Double, longitude: Double, count: Int, countryCode: String?)] = [:]

    init(url: URL) throws {
        self.url = url
        do { writer = try PlaceIndexWriter(url: url) } catch { throw ImportError.destination("\(error)") }
    }

    func add(_ block: BlockPlaces) throws {
        for place in block.places {
            if place.record.kind == .locality, let name = place.record.name, place.record.id.hasPrefix("n"),
               let value = place.record.osmClass?.split(separator: "=").last {
                localityPoints.append((place.record.id, name, String(value), place.record.coordinate))
            }
            try write(place)
        }
        streets += block.streets
        interpolations += block.interpolations
        for (id, number, street) in block.addressNodes { addressNodes[id] = (number, street) }
    }

    private func write(_ place: PendingPlace) throws {
        if let code = place.record.address.postalCode?.trimmingCharacters(in: .whitespaces), !code.isEmpty, code.count <= 12 {
            var entry = postalCodes[code] ?? (0, 0, 0, nil)
            entry.latitude += place.record.coordinate.latitude
            entry.longitude += place.record.coordinate.longitude
            entry.count += 1
            entry.countryCode = entry.countryCode ?? place.record.address.countryCode
            postalCodes[code] = entry
        }
        do {
            try writer.add(place.record, searchNames: place.searchNames, geometry: place.geometry)
            count += 1
        } catch {
            throw ImportError.destination("place index: \(error)")
        }
    }

    /// A named multipolygon relation (park, lake, …) that is a place.
    func add(relation: OSMRelation, assembly: AreaAssembly) throws {
        // A postal code area gives its code to the places inside that carry none.
        if assembly.isValid, relation.tags.value(for: "boundary") == "postal_code",
           let code = (relation.tags.value(for: "postal_code") ?? relation.tags.value(for: "addr:postcode"))?
               .trimmingCharacters(in: .whitespaces), !code.isEmpty, let (_, _, geometry) = Self.area(assembly) {
            do {
                try writer.addArea(PlaceArea(id: "r\(relation.id)", field: .postalCode, name: code, geometry: geometry))
            } catch { throw ImportError.destination("place index: \(error)") }
            return
        }
        guard assembly.isValid, let classification = PlaceTagging.classify(relation.tags, isLine: false),
              classification.kind != .address else { return }
        guard let (coordinate, bounds, geometry) = Self.area(assembly) else { return }
        try write(PlaceBuilder.place("r\(relation.id)", tags: relation.tags, classification: classification,
                                     coordinate: coordinate, bounds: bounds, geometry: geometry))
    }

    static func area(_ assembly: AreaAssembly) -> (CLLocationCoordinate2D, MKMapRect, PlaceGeometry)? {
        let rings = assembly.polygons.flatMap { $0 }.map { $0.map { CLLocationCoordinate2D(latitude: $0.latitude, longitude: $0.longitude) } }
        guard let largest = assembly.polygons.max(by: { $0.first?.count ?? 0 < $1.first?.count ?? 0 }), !largest.isEmpty else { return nil }
        let mapRings = largest.map { $0.map { MKMapPoint(CLLocationCoordinate2D(latitude: $0.latitude, longitude: $0.longitude)) } }
        let bounds = rings.reduce(MKMapRect.null) { $0.union(MKMapRect(boundingPoints: $1.map(MKMapPoint.init))) }
        let outer = MKMapRect(boundingPoints: mapRings[0])
        let precision = max(outer.width, outer.height) / 50
        guard precision > 0, let label = labelPoint(polygon: mapRings, precision: precision) else { return nil }
        return (label.coordinate, bounds, PlaceGeometry(shape: .rings, parts: rings))
    }

    /// Administrative boundaries: countries first (their codes decide how the levels below map
    /// to address fields), then the rest. Each becomes an area filling addresses and a place.
    /// Which field a level fills is ``AddressLevels``: the country's published admin-level
    /// practice, then what the extract's own boundaries show (a boundary linked to its town, a
    /// country's first-level division).
    func add(boundaries relations: [OSMRelation], way: (Int64) -> OSMWay?, location: (Int64) -> OSMLocation?) throws {
        let assembler = MultipolygonAssembler()
        let sorted = relations.compactMap { relation -> (OSMRelation, Int)? in
            guard relation.tags.value(for: "boundary") == "administrative", relation.tags.value(for: "name") != nil,
                  let level = relation.tags.value(for: "admin_level").flatMap(Int.init), (2...12).contains(level) else { return nil }
            return (relation, level)
        }.sorted { ($0.1, $0.0.id) < ($1.1, $1.0.id) }
        // The named place nodes, for the boundaries that name one as their centre or label.
        let placeNodes = Dictionary(localityPoints.map { ($0.id, (name: $0.name, place: $0.place)) }, uniquingKeysWith: { a, _ in a })
        struct Built {
            var relation: OSMRelation, level: Int, name: String, code: String?, rank: Int
            var coordinate: CLLocationCoordinate2D, bounds: MKMapRect, geometry: PlaceGeometry
        }
        var built: [Built] = []
        for (relation, level) in sorted {
            let assembly = assembler.assemble(relation: relation, way: way, location: location)
            var area = assembly.isValid ? Self.area(assembly) : nil
            if area == nil, let box = extractBox {
                area = Self.closedAlongExtractEdge(relation, way: way, location: location, box: box)
            }
            guard let (coordinate, bounds, geometry) = area, let name = relation.tags.value(for: "name") else { continue }
            var code = (relation.tags.value(for: "ISO3166-1:alpha2") ?? relation.tags.value(for: "ISO3166-1"))
                .map { $0.uppercased() }.flatMap { $0.count == 2 ? $0 : nil }
            if level == 2 {
                if let box = geometry.boxTuple { countries.append((code, relation.tags.value(for: "timezone"), geometry, box)) }
            } else if code == nil {
                // The smallest country containing the area: a neighbour's ring closed along the
                // extract's edge may be too big (see closedAlongExtractEdge), never too small.
                code = relation.tags.value(for: "ISO3166-2").flatMap { $0.split(separator: "-").first.map(String.init) }
                    ?? countries.filter { c in
                        coordinate.longitude >= c.box.0 && coordinate.longitude <= c.box.2 && coordinate.latitude >= c.box.1
                            && coordinate.latitude <= c.box.3 && c.geometry.contains(coordinate)
                    }.min { ($0.box.2 - $0.box.0) * ($0.box.3 - $0.box.1) < ($1.box.2 - $1.box.0) * ($1.box.3 - $1.box.1) }?.code
            }
            built.append(Built(relation: relation, level: level, name: name, code: code,
                               rank: level == 2 ? 4 : AddressLevels.rank(adminLevel: level, countryCode: code),
                               coordinate: coordinate, bounds: bounds, geometry: geometry))
        }
        // A country's first-level division where the published ranks make it a town (see
        // AddressLevels): no boundary of the country in the extract is ranked state or county,
        // and its coarsest level holding several boundaries is ranked as a town.
        var firstLevel: [String: Int] = [:]
        for (code, members) in Dictionary(grouping: built.filter { $0.level > 2 && $0.code != nil }, by: { $0.code! }) {
            guard !members.contains(where: { (5...12).contains($0.rank) }) else { continue }
            let counts = Dictionary(grouping: members, by: \.level).mapValues(\.count)
            if let level = counts.filter({ $0.value >= 2 }).keys.min(),
               AddressLevels.isLocality(rank: AddressLevels.rank(adminLevel: level, countryCode: code)) {
                firstLevel[code] = level
            }
        }
        for b in built {
            let relation = b.relation, level = b.level, name = b.name, code = b.code
            var field = AddressLevels.field(rank: b.rank)
            if let code, firstLevel[code] == level { field = .administrativeArea }
            guard let field else { continue }
            // Linked to its town: a country or region whose centre or label is a city, town or
            // village of its own name is that locality too.
            let linked = b.rank < 13 && relation.members.contains { member in
                guard member.type == .node, member.role == "admin_centre" || member.role == "label",
                      let node = placeNodes["n\(member.ref)"] else { return false }
                return node.name == name && ["city", "town", "village"].contains(node.place)
            }
            // The boundary's own `timezone` tag; places inside without one take their country's
            // nearest tzdata zone when the index is finished.
            let zone = relation.tags.value(for: "timezone") ?? code.flatMap { CountryFacts.timeZone(countryCode: $0, near: b.coordinate) }
            do {
                try writer.addArea(PlaceArea(id: "r\(relation.id)", field: field, name: name, countryCode: code,
                                             timeZone: relation.tags.value(for: "timezone"), geometry: b.geometry))
                if linked {
                    try writer.addArea(PlaceArea(id: "r\(relation.id)", field: .locality, name: name, countryCode: code,
                                                 timeZone: relation.tags.value(for: "timezone"), geometry: b.geometry))
                }
            } catch {
                throw ImportError.destination("place index: \(error)")
            }
            var kind: PlaceKind = field == .locality || field == .subLocality ? .locality : .administrativeArea
            if linked { kind = .locality }
            let importance: Double = switch level { case 2: 1; case 3...4: 0.85; case 5...7: 0.75; case 8: 0.7; default: 0.45 }
            var record = PlaceRecord(id: "r\(relation.id)", kind: kind, name: name, names: PlaceTagging.names(relation.tags),
                                     coordinate: b.coordinate, bounds: b.bounds, category: nil,
                                     osmClass: "boundary=administrative", address: PlaceAddress(countryCode: code),
                                     website: relation.tags.value(for: "website"), timeZone: zone, importance: importance)
            if level == 2 { record.address.country = name }
            try write(PendingPlace(record: record, searchNames: PlaceTagging.searchNames(relation.tags), geometry: nil))
        }
    }

    /// A boundary whose ring the extract cut open, closed along the extract's edge.
    ///
    /// Extracts keep only the member ways with a node inside their box, so the boundary of the
    /// very country an extract was made for (Andorra's, whose eastern tip lies outside the box)
    /// arrives as one open chain, and without its country no parish gets a country code either.
    /// The chain's two ends are moved onto the nearest side of the box (an end may lie up to a
    /// missing way's length inside it) and joined along the box's edge. Of the two ways round,
    /// the one holding the relation's `admin_centre`/`label` node wins, else the smaller area:
    /// the chain separates the area from its neighbours within the box, and an extract is drawn
    /// around the area it is about, so the neighbour's side is the larger one. A neighbour closed
    /// this way may come out too big, never too small, which is why containment prefers the
    /// smallest area. Only a single open chain is closed: several would need the ring's
    /// orientation to pair their ends, which a boundary relation does not record.
    static func closedAlongExtractEdge(_ relation: OSMRelation, way: (Int64) -> OSMWay?, location: (Int64) -> OSMLocation?,
                                       box: (west: Double, south: Double, east: Double, north: Double))
        -> (CLLocationCoordinate2D, MKMapRect, PlaceGeometry)? {
        let width = box.east - box.west, height = box.north - box.south
        guard width > 0, height > 0 else { return nil }
        var chains: [[Int64]] = []
        for member in relation.members where member.type == .way {
            guard let w = way(member.ref), w.nodeRefs.count >= 2 else { continue }
            chains.append(w.nodeRefs)
        }
        guard !chains.isEmpty, chains.count <= 5_000 else { return nil }
        // Join ways sharing an end node into chains.
        var merged = true
        while merged {
            merged = false
            outer: for i in chains.indices where chains[i].first != chains[i].last {
                for j in chains.indices where j != i && chains[j].first != chains[j].last {
                    let a = chains[i], b = chains[j]
                    let joined: [Int64]
                    if a.last == b.first { joined = a + b.dropFirst() }
                    else if a.last == b.last { joined = a + b.reversed().dropFirst() }
                    else if a.first == b.last { joined = b + a.dropFirst() }
                    else if a.first == b.first { joined = b.reversed() + a.dropFirst() }
                    else { continue }
                    chains[i] = joined
                    chains.remove(at: j)
                    merged = true
                    break outer
                }
            }
        }
        let open = chains.filter { $0.first != $0.last }
        guard open.count == 1 else { return nil }
        let line = open[0].compactMap(location).map { CLLocationCoordinate2D(latitude: $0.latitude, longitude: $0.longitude) }
        guard line.count >= 2, let start = line.first, let end = line.last else { return nil }
        // Position along the box's edge, counter-clockwise from the south-west corner, 0 ..< 2(w+h).
        let perimeter = 2 * (width + height)
        let reach = 0.25 * min(width, height)
        func onEdge(_ c: CLLocationCoordinate2D) -> Double? {
            let x = min(max(c.longitude, box.west), box.east), y = min(max(c.latitude, box.south), box.north)
            let distances = [y - box.south, box.east - x, box.north - y, x - box.west]
            let outside = c.longitude < box.west || c.longitude > box.east || c.latitude < box.south || c.latitude > box.north
            guard let side = distances.indices.min(by: { distances[$0] < distances[$1] }), outside || distances[side] <= reach else { return nil }
            switch side {
            case 0: return x - box.west
            case 1: return width + (y - box.south)
            case 2: return width + height + (box.east - x)
            default: return 2 * width + height + (box.north - y)
            }
        }
        func point(at t: Double) -> CLLocationCoordinate2D {
            let t = (t.truncatingRemainder(dividingBy: perimeter) + perimeter).truncatingRemainder(dividingBy: perimeter)
            if t < width { return CLLocationCoordinate2D(latitude: box.south, longitude: box.west + t) }
            if t < width + height { return CLLocationCoordinate2D(latitude: box.south + t - width, longitude: box.east) }
            if t < 2 * width + height { return CLLocationCoordinate2D(latitude: box.north, longitude: box.east - (t - width - height)) }
            return CLLocationCoordinate2D(latitude: box.north - (t - 2 * width - height), longitude: box.west)
        }
        guard let from = onEdge(end), let to = onEdge(start) else { return nil }
        // The corners passed going from `from` to `to` in one direction (+1 counter-clockwise) or the other.
        func closing(_ direction: Double) -> [CLLocationCoordinate2D] {
            var distance = direction > 0 ? to - from : from - to
            if distance < 0 { distance += perimeter }
            let corners = [0, width, width + height, 2 * width + height]
            var steps: [Double] = []
            for corner in corners {
                var offset = direction > 0 ? corner - from : from - corner
                if offset <= 0 { offset += perimeter }
                if offset < distance { steps.append(offset) }
            }
            return [point(at: from)] + steps.sorted().map { point(at: from + direction * $0) } + [point(at: to), start]
        }
        let candidates = [line + closing(1), line + closing(-1)].map { PlaceGeometry(shape: .rings, parts: [$0]) }
        let centres = relation.members.filter { $0.type == .node && ($0.role == "admin_centre" || $0.role == "label") }
            .compactMap { location($0.ref) }.map { CLLocationCoordinate2D(latitude: $0.latitude, longitude: $0.longitude) }
        func area(_ ring: [CLLocationCoordinate2D]) -> Double {
            var sum = 0.0
            for (a, b) in zip(ring, ring.dropFirst() + [ring[0]]) { sum += a.longitude * b.latitude - b.longitude * a.latitude }
            return abs(sum) / 2
        }
        let chosen = centres.isEmpty ? nil : candidates.first { ring in centres.allSatisfy(ring.contains) }
        let geometry = chosen ?? candidates.min { area($0.parts[0]) < area($1.parts[0]) }!
        let ring = geometry.parts[0]
        let mapRing = ring.map(MKMapPoint.init)
        let bounds = MKMapRect(boundingPoints: mapRing)
        let precision = max(bounds.width, bounds.height) / 50
        guard precision > 0, let label = labelPoint(polygon: [mapRing], precision: precision) else { return nil }
        return (label.coordinate, bounds, geometry)
    }

    /// Writes the streets and interpolated addresses, the fallback localities, and finishes the file.
    func finish(progress: (Double) -> Void) throws {
        try writeStreets()
        progress(0.3)
        try writeInterpolations()
        // One place per postal code, at the mean of the places that carry it, so "98000" finds the code itself.
        for (code, entry) in postalCodes.sorted(by: { $0.key < $1.key }) where entry.count > 0 {
            let center = CLLocationCoordinate2D(latitude: entry.latitude / Double(entry.count), longitude: entry.longitude / Double(entry.count))
            try write(PendingPlace(record: PlaceRecord(id: "postcode:\(code)", kind: .postalCode, name: code, coordinate: center,
                                                       osmClass: "addr:postcode",
                                                       address: PlaceAddress(postalCode: code, countryCode: entry.countryCode),
                                                       importance: min(0.5, 0.2 + Double(entry.count) / 1000)),
                                   searchNames: [], geometry: nil))
        }
        postalCodes = [:]
        // Localities from place nodes, used only where no boundary gives a locality: a circle
        // whose size follows the kind of place.
        let radius: [String: Double] = ["city": 6000, "town": 3000, "village": 1500, "suburb": 800, "hamlet": 600,
                                        "quarter": 500, "neighbourhood": 300, "municipality": 3000, "borough": 1500]
        for point in localityPoints {
            guard let r = radius[point.place] else { continue }
            let field: PlaceAddressField = ["suburb", "quarter", "neighbourhood", "borough"].contains(point.place) ? .subLocality : .locality
            let ring = (0...16).map { k -> CLLocationCoordinate2D in
                let angle = Double(k % 16) / 16 * 2 * .pi
                return CLLocationCoordinate2D(latitude: point.coordinate.latitude + r * sin(angle) / 111_132,
                                              longitude: point.coordinate.longitude + r * cos(angle) / (111_320 * cos(point.coordinate.latitude * .pi / 180)))
            }
            do {
                try writer.addArea(PlaceArea(id: point.id, field: field, name: point.name,
                                             geometry: PlaceGeometry(shape: .rings, parts: [ring]), isFallback: true))
            } catch { throw ImportError.destination("place index: \(error)") }
        }
        progress(0.4)
        do { try writer.finish() } catch { throw ImportError.destination("place index: \(error)") }
        progress(1)
    }

    /// Ways of one name whose boxes come within 150 m of each other are one street, whose id is
    /// the smallest way id (stable while that way exists).
    private func writeStreets() throws {
        let byName = Dictionary(grouping: streets.indices, by: { streets[$0].name })
        for name in byName.keys.sorted() {
            let indices = byName[name]!
            var parent = Array(0..<indices.count)
            func find(_ i: Int) -> Int { var i = i; while parent[i] != i { parent[i] = parent[parent[i]]; i = parent[i] }; return i }
            let boxes = indices.map { index -> (Double, Double, Double, Double) in
                let p = streets[index].points
                let margin = 0.0015
                return (p.map(\.longitude).min()! - margin, p.map(\.latitude).min()! - margin,
                        p.map(\.longitude).max()! + margin, p.map(\.latitude).max()! + margin)
            }
            if indices.count > 1 {
                for a in 0..<indices.count {
                    for b in (a + 1)..<indices.count where boxes[a].0 <= boxes[b].2 && boxes[b].0 <= boxes[a].2
                        && boxes[a].1 <= boxes[b].3 && boxes[b].1 <= boxes[a].3 {
                        parent[find(a)] = find(b)
                    }
                }
            }
            // In the order of their first piece: a dictionary's order changes from run to run,
            // and the place index's bytes (its rows' order) would with it.
            let groups = Dictionary(grouping: 0..<indices.count, by: find)
            for members in groups.values.sorted(by: { $0[0] < $1[0] }) {
                let pieces = members.map { streets[indices[$0]] }.sorted { $0.id < $1.id }
                let first = pieces[0]
                let lines = pieces.map(\.points)
                let all = lines.flatMap { $0 }
                let longest = lines.max { $0.count < $1.count }!
                var names: [String: String] = [:]
                var searchNames: [String] = []
                var address = PlaceAddress()
                for piece in pieces {
                    names.merge(PlaceTagging.names(piece.tags)) { a, _ in a }
                    searchNames += PlaceTagging.searchNames(piece.tags)
                    if address.postalCode == nil { address.postalCode = piece.tags.value(for: "addr:postcode") ?? piece.tags.value(for: "postal_code") }
                }
                address.street = name
                let bounds = MKMapRect(boundingPoints: all.map(MKMapPoint.init))
                let record = PlaceRecord(id: "w\(first.id)", alternateIDs: pieces.dropFirst().map { "w\($0.id)" }, kind: .street,
                                         name: name, names: names, coordinate: longest[longest.count / 2],
                                         bounds: bounds.isEmpty ? nil : bounds, osmClass: pieces.map(\.osmClass).min(),
                                         address: address, importance: pieces.map(\.importance).max()! + min(0.1, Double(all.count) / 2000))
                try write(PendingPlace(record: record, searchNames: Array(Set(searchNames)).sorted(),
                                       geometry: PlaceGeometry(shape: .lines, parts: lines)))
            }
        }
        streets = []
    }

    /// Each interpolation way between two numbered nodes becomes the numbers between them
    /// (odd, even or all), spaced evenly along the way.
    private func writeInterpolations() throws {
        for way in interpolations {
            let step: Int
            switch way.scheme {
            case "odd", "even": step = 2
            case "all": step = 1
            default: step = Int(way.scheme) ?? 0
            }
            guard step > 0, way.points.count >= 2, way.points.allSatisfy({ $0 != nil }) else { continue }
            let points = way.points.map { $0! }
            // Pairs of consecutive numbered nodes along the way.
            let numbered = way.nodeRefs.enumerated().compactMap { offset, ref -> (Int, Int, String?)? in
                guard let node = addressNodes[ref], let n = Int(node.number.filter(\.isNumber)), node.number.allSatisfy(\.isNumber) else { return nil }
                return (offset, n, node.street)
            }
            guard numbered.count >= 2 else { continue }
            let street = way.tags.value(for: "addr:street") ?? numbered.compactMap(\.2).first
            guard let street else { continue }
            for pair in zip(numbered, numbered.dropFirst()) {
                let (startIndex, startNumber, _) = pair.0, (endIndex, endNumber, _) = pair.1
                guard abs(endNumber - startNumber) > step, abs(endNumber - startNumber) / step <= 1000 else { continue }
                let segment = Array(points[min(startIndex, endIndex)...max(startIndex, endIndex)])
                let forward = startIndex <= endIndex
                let direction = endNumber > startNumber ? step : -step
                var number = startNumber + direction
                let total = Double(endNumber - startNumber)
                while (direction > 0 && number < endNumber) || (direction < 0 && number > endNumber) {
                    let fraction = Double(number - startNumber) / total
                    let coordinate = Self.point(along: segment, fraction: forward ? fraction : 1 - fraction)
                    var address = PlaceTagging.address(way.tags)
                    address.houseNumber = String(number)
                    address.street = street
                    let record = PlaceRecord(id: "w\(way.id)-\(number)", kind: .address, coordinate: coordinate,
                                             osmClass: "addr:interpolation", address: address, importance: 0.05)
                    try write(PendingPlace(record: record, searchNames: [], geometry: nil))
                    number += direction
                }
            }
        }
        interpolations = []
        addressNodes = [:]
    }

    static func point(along line: [CLLocationCoordinate2D], fraction: Double) -> CLLocationCoordinate2D {
        guard line.count > 1 else { return line[0] }
        var lengths: [Double] = [0]
        for i in 1..<line.count {
            let dx = (line[i].longitude - line[i - 1].longitude) * cos(line[i].latitude * .pi / 180)
            let dy = line[i].latitude - line[i - 1].latitude
            lengths.append(lengths[i - 1] + (dx * dx + dy * dy).squareRoot())
        }
        let target = lengths.last! * min(1, max(0, fraction))
        for i in 1..<line.count where lengths[i] >= target {
            let span = lengths[i] - lengths[i - 1]
            let t = span > 0 ? (target - lengths[i - 1]) / span : 0
            return CLLocationCoordinate2D(latitude: line[i - 1].latitude + t * (line[i].latitude - line[i - 1].latitude),
                                          longitude: line[i - 1].longitude + t * (line[i].longitude - line[i - 1].longitude))
        }
        return line.last!
    }
}

extension PlaceGeometry {
    /// (west, south, east, north).
    var boxTuple: (Double, Double, Double, Double)? {
        var west = Double.infinity, south = Double.infinity, east = -Double.infinity, north = -Double.infinity
        for part in parts { for c in part {
            west = min(west, c.longitude); east = max(east, c.longitude); south = min(south, c.latitude); north = max(north, c.latitude)
        } }
        return west.isFinite ? (west, south, east, north) : nil
    }
}
