import Foundation
import MapGeometry
import MapBundle
import MapSearch

// The bridge between the MapKit-shaped search API and MapSearch's place index: finding the
// indexes of a data source's bundles, merging several bundles' answers, turning place records into
// map items, and running a request off the caller's thread with MapKit's cancel semantics.

/// The place indexes of a data source's bundles, queried together.
struct PlaceSearch: Sendable {
    let indexes: [PlaceIndex]

    /// The indexes of `source`'s bundles, else of the default source. Throws `serverFailure` when
    /// no source is configured or a bundle has no place index.
    init(source: MapDataSource?) throws(MKError) {
        let resolved: MapDataSource
        if let source {
            resolved = source
        } else {
            do { resolved = try MapDataSource.resolved() } catch let error as MKError { throw error } catch {
                throw MKError(.serverFailure, reason: "\(error)")
            }
        }
        indexes = try resolved.bundles.map { bundle throws(MKError) in try bundle.searchIndex() }
    }

    /// Text search over every bundle: results ordered by score, the same place (by id) only once.
    func search(_ query: PlaceQuery) throws(MKError) -> [PlaceMatch] {
        var all: [PlaceMatch] = []
        for index in indexes { all += try Self.mapped { () throws(PlaceIndexError) in try index.search(query) } }
        return Self.merged(all, limit: query.limit)
    }

    /// A search whose included categories filter points of interest only, as MapKit's
    /// point-of-interest filter does (the index's category filter drops every place without a
    /// category): the other kinds are searched separately and the two lists merged by score.
    func searchFilteringPointsOfInterestOnly(_ query: PlaceQuery) throws(MKError) -> [PlaceMatch] {
        guard query.includedCategories != nil, let kinds = query.kinds, kinds.contains(.pointOfInterest), kinds.count > 1 else {
            return try search(query)
        }
        var pointsOfInterest = query, others = query
        pointsOfInterest.kinds = [.pointOfInterest]
        others.kinds = kinds.subtracting([.pointOfInterest])
        others.includedCategories = nil
        return Self.merged(try search(pointsOfInterest) + search(others), limit: query.limit)
    }

    func complete(_ query: PlaceQuery, includeQuerySuggestions: Bool) throws(MKError) -> [PlaceSuggestion] {
        if indexes.count == 1 {
            return try Self.mapped { () throws(PlaceIndexError) in try indexes[0].complete(query, includeQuerySuggestions: includeQuerySuggestions) }
        }
        // Several bundles: interleave their lists (each is already in rank order), dropping
        // repeats of a place or of a query suggestion's text.
        var lists: [[PlaceSuggestion]] = []
        for index in indexes {
            lists.append(try Self.mapped { () throws(PlaceIndexError) in try index.complete(query, includeQuerySuggestions: includeQuerySuggestions) })
        }
        var seen = Set<String>(), result: [PlaceSuggestion] = []
        for rank in 0..<(lists.map(\.count).max() ?? 0) {
            for list in lists where rank < list.count {
                let suggestion = list[rank]
                let key = suggestion.record.map { "place:" + $0.id } ?? "query:" + (suggestion.queryText ?? suggestion.title)
                guard seen.insert(key).inserted else { continue }
                result.append(suggestion)
            }
        }
        return Array(result.prefix(query.limit))
    }

    /// Reverse geocoding over every bundle: the nearest answers first (a bundle that does not
    /// cover the point answers with far-away places, which lose to the one that does).
    func reverse(_ coordinate: CLLocationCoordinate2D, limit: Int) throws(MKError) -> [PlaceMatch] {
        var all: [PlaceMatch] = []
        for index in indexes { all += try Self.mapped { () throws(PlaceIndexError) in try index.reverse(coordinate, limit: limit) } }
        if indexes.count > 1 {
            all.sort { ($0.distance ?? .infinity, -$0.score) < ($1.distance ?? .infinity, -$1.score) }
        }
        return Self.merged(all, limit: limit, sortByScore: false)
    }

    /// `record` with its name, street, localities and areas in `locale`'s language where the
    /// data has them (``PlaceIndex/localized(_:language:)``), from the first bundle that knows a
    /// translation; unchanged without a locale.
    func localized(_ record: PlaceRecord, locale: Locale?) throws(MKError) -> PlaceRecord {
        guard let language = locale?.language.languageCode?.identifier else { return record }
        for index in indexes {
            let translated = try Self.mapped { () throws(PlaceIndexError) in try index.localized(record, language: language) }
            if translated != record { return translated }
        }
        return record
    }

    func place(id: String) throws(MKError) -> PlaceRecord? {
        for index in indexes {
            if let record = try Self.mapped({ () throws(PlaceIndexError) in try index.place(id: id) }) { return record }
        }
        return nil
    }

    func pointsOfInterest(in region: MKCoordinateRegion, includedCategories: Set<String>?, excludedCategories: Set<String>,
                          limit: Int) throws(MKError) -> [PlaceRecord] {
        var all: [PlaceRecord] = [], seen = Set<String>()
        for index in indexes {
            let records = try Self.mapped { () throws(PlaceIndexError) in
                try index.pointsOfInterest(in: region, includedCategories: includedCategories, excludedCategories: excludedCategories, limit: limit)
            }
            for record in records where seen.insert(record.id).inserted { all.append(record) }
        }
        return all
    }

    private static func merged(_ matches: [PlaceMatch], limit: Int, sortByScore: Bool = true) -> [PlaceMatch] {
        var ordered = matches
        if sortByScore {
            // A stable sort keeps each index's own order between equal scores.
            ordered = ordered.enumerated().sorted { ($0.element.score, -$0.offset) > ($1.element.score, -$1.offset) }.map(\.element)
        }
        var seen = Set<String>(), result: [PlaceMatch] = []
        for match in ordered where seen.insert(match.record.id).inserted {
            result.append(match)
            if result.count >= limit { break }
        }
        return result
    }

    /// Runs an index call, turning its error into MapKit's: bad input is `placemarkNotFound`
    /// (nothing can be found for it) with the reason; a missing or damaged index is `serverFailure`.
    static func mapped<T>(_ body: () throws(PlaceIndexError) -> T) throws(MKError) -> T {
        do {
            return try body()
        } catch {
            throw MKError(error)
        }
    }
}

extension MKError {
    /// MapKit's code for a place index error.
    init(_ error: PlaceIndexError) {
        switch error {
        case .missing(let message): self.init(.serverFailure, reason: "\(message); the bundle has no place index: re-import it with `openmapkit import`")
        case .corrupt(let message): self.init(.serverFailure, reason: "the place index is damaged (\(message)); re-import the bundle")
        case .invalidQuery(let message): self.init(.placemarkNotFound, reason: message)
        }
    }
}

extension MapBundle {
    /// The bundle's place index (opened once per process and reopened after a re-import, by
    /// MapBundle's cache of files by stamp), with MapKit's error when it is missing or damaged.
    func searchIndex() throws(MKError) -> PlaceIndex {
        guard FileManager.default.fileExists(atPath: placesURL.path) else {
            let what = manifest.places == nil ? "the bundle has no place index" : "its place index \(placesURL.lastPathComponent) is missing"
            throw MKError(.serverFailure, reason: "\(url.path): \(what); re-import it with `openmapkit import`")
        }
        return try PlaceSearch.mapped { () throws(PlaceIndexError) in try placeIndex() }
    }
}

// MARK: - Records as map items

extension MKMapItem {
    /// The map item for a place record. `locale` picks a translated name (`name:xx`) when the
    /// record has one in its language.
    convenience init(record: PlaceRecord, locale: Locale? = nil) {
        let placemark = MKPlacemark(coordinate: record.coordinate)
        let a = record.address
        var fields = PostalAddress(houseNumber: a.houseNumber, street: a.street, postalCode: a.postalCode, subLocality: a.subLocality,
                                   locality: a.locality, subAdministrativeArea: a.subAdministrativeArea,
                                   administrativeArea: a.administrativeArea, country: a.country, countryCode: a.countryCode)
        // A street, town or area is its own address part when the index left it out.
        switch record.kind {
        case .street where fields.street == nil: fields.street = record.name
        case .locality:
            // A town is its own locality (and lies in no district); a district its own sub-locality.
            if MKAddressFilter.option(of: record) == .subLocality {
                fields.subLocality = record.name ?? fields.subLocality
            } else if let name = record.name {
                fields.locality = name
                fields.subLocality = nil
            }
        case .administrativeArea where fields.administrativeArea == nil && fields.country != record.name: fields.administrativeArea = record.name
        case .postalCode where fields.postalCode == nil: fields.postalCode = record.name
        default: break
        }
        placemark.thoroughfare = fields.street
        placemark.subThoroughfare = fields.houseNumber
        placemark.locality = fields.locality
        placemark.subLocality = fields.subLocality
        placemark.administrativeArea = fields.administrativeArea
        placemark.subAdministrativeArea = fields.subAdministrativeArea
        placemark.postalCode = fields.postalCode
        placemark.country = fields.country
        placemark.isoCountryCode = fields.countryCode?.uppercased()
        placemark.timeZone = record.timeZone.flatMap(TimeZone.init(identifier:))
        // An address has no name of its own: MapKit names it by its street line.
        placemark.name = Self.localizedName(of: record, locale: locale) ?? fields.streetLine ?? record.displayName
        placemark.placeIdentifier = record.id
        placemark.region = CLCircularRegion(center: record.coordinate, radius: Self.regionRadius(of: record), identifier: record.id)
        // A named point of interest, park or landmark is an area of interest (as Core Location
        // names "Jardin Exotique" for a point in it); water is named as inland water or ocean.
        if let name = placemark.name, record.name != nil {
            switch record.kind {
            case .pointOfInterest: placemark.areasOfInterest = [name]
            case .physicalFeature:
                if let water = Self.waterKind(of: record) {
                    if water == .ocean { placemark.ocean = name } else { placemark.inlandWater = name }
                } else {
                    placemark.areasOfInterest = [name]
                }
            default: break
            }
        }
        self.init(placemark: placemark)
        placeKind = record.kind
        identifier = Identifier(rawValue: record.id)
        alternateIdentifiers = Set(record.alternateIDs.compactMap(Identifier.init(rawValue:)))
        pointOfInterestCategory = record.category.map(MKPointOfInterestCategory.init(rawValue:))
        phoneNumber = record.phone
        url = record.website.flatMap(Self.websiteURL)
        timeZone = placemark.timeZone
        fillAddressFromPlacemark(locale: locale)
    }

    enum WaterKind { case inland, ocean }

    /// Whether a physical feature is water, from its OSM class (`natural=water`, `waterway=river`,
    /// `place=sea`, …); nil for land.
    static func waterKind(of record: PlaceRecord) -> WaterKind? {
        guard let osmClass = record.osmClass else { return nil }
        let parts = osmClass.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return nil }
        let (key, value) = (parts[0], parts[1])
        switch (key, value) {
        case ("place", "sea"), ("place", "ocean"), ("natural", "sea"), ("natural", "bay"), ("natural", "strait"): return .ocean
        case ("natural", "water"), ("waterway", _), ("water", _), ("landuse", "reservoir"), ("landuse", "basin"): return .inland
        default: return nil
        }
    }

    /// The radius of a circle around the record's coordinate reaching its bounding box's corners,
    /// at least ``CLPlacemark/minimumRegionRadius``.
    static func regionRadius(of record: PlaceRecord) -> CLLocationDistance {
        let centre = CLLocation(latitude: record.coordinate.latitude, longitude: record.coordinate.longitude)
        var radius = CLPlacemark.minimumRegionRadius
        if let bounds = record.bounds, !bounds.isNull, !bounds.isEmpty {
            for point in [MKMapPoint(x: bounds.minX, y: bounds.minY), MKMapPoint(x: bounds.maxX, y: bounds.minY),
                          MKMapPoint(x: bounds.minX, y: bounds.maxY), MKMapPoint(x: bounds.maxX, y: bounds.maxY)] {
                let c = point.coordinate
                let d = centre.distance(from: CLLocation(latitude: c.latitude, longitude: c.longitude))
                if d.isFinite { radius = max(radius, d) }
            }
        }
        return radius
    }

    /// `name:xx` for the locale's language when the record has it, else `name`.
    static func localizedName(of record: PlaceRecord, locale: Locale?) -> String? {
        if let language = locale?.language.languageCode?.identifier, let translated = record.names[language], !translated.isEmpty {
            return translated
        }
        return record.name.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// OSM `website=` values often lack a scheme ("www.example.mc"): those get https.
    static func websiteURL(_ value: String) -> URL? {
        let trimmed = value.trimmingWhitespace()
        guard !trimmed.isEmpty, !trimmed.contains(" ") else { return nil }
        let text = trimmed.contains("://") ? trimmed : "https://" + trimmed
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              let host = url.host, !host.isEmpty else { return nil }
        return url
    }
}

// MARK: - Input checks

enum SearchInput {
    /// Why `region` cannot be searched, or nil when it can: MapKit raises "Invalid Region" for
    /// these; OpenMapKit fails the request with `placemarkNotFound` and this reason instead.
    static func problem(with region: MKCoordinateRegion) -> String? {
        let c = region.center, s = region.span
        guard c.latitude.isFinite, c.longitude.isFinite, CLLocationCoordinate2DIsValid(c) else {
            return "the region's centre \(c.latitude),\(c.longitude) is not a valid coordinate"
        }
        guard s.latitudeDelta.isFinite, s.longitudeDelta.isFinite, s.latitudeDelta > 0, s.longitudeDelta > 0 else {
            return "the region's span \(s.latitudeDelta)° × \(s.longitudeDelta)° must be positive"
        }
        guard s.latitudeDelta <= 180, s.longitudeDelta <= 360 else {
            return "the region's span \(s.latitudeDelta)° × \(s.longitudeDelta)° exceeds 180° × 360°"
        }
        return nil
    }

    /// Why `coordinate` cannot be used, or nil.
    static func problem(with coordinate: CLLocationCoordinate2D, what: String) -> String? {
        guard coordinate.latitude.isFinite, coordinate.longitude.isFinite, CLLocationCoordinate2DIsValid(coordinate) else {
            return "\(what) \(coordinate.latitude),\(coordinate.longitude) is not a valid coordinate (latitude −90…90, longitude −180…180)"
        }
        return nil
    }

    /// The smallest region around map items, with a margin, for `Response.boundingRegion`.
    static func boundingRegion(of records: [PlaceRecord]) -> MKCoordinateRegion {
        var rect = MKMapRect.null
        for record in records {
            let point = MKMapPoint(record.coordinate)
            rect = rect.union(MKMapRect(x: point.x, y: point.y, width: 0, height: 0))
            if let bounds = record.bounds, !bounds.isNull, bounds.width.isFinite, bounds.height.isFinite { rect = rect.union(bounds) }
        }
        guard !rect.isNull else { return MKCoordinateRegion(MKMapRect.world) }
        // At least about 500 m across, and a 10% margin so items are not on the edge.
        let minimum = 500 * MKMapPointsPerMeterAtLatitude(MKMapPoint(x: rect.midX, y: rect.midY).coordinate.latitude)
        let width = max(rect.width * 1.2, minimum), height = max(rect.height * 1.2, minimum)
        let padded = MKMapRect(x: rect.midX - width / 2, y: rect.midY - height / 2, width: width, height: height)
        return MKCoordinateRegion(padded.intersection(MKMapRect.world))
    }
}
